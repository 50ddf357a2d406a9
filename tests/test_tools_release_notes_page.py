"""generator/tools/release_notes.py on a diff written by hand: the whole page, word for word.

One diff holds a case of each rule: twins added alike share a heading, a deprecated object is marked
where it is added or removed but not under "Newly deprecated", twins changed differently get a
heading each, a value is JSON with its keys sorted and its text as it is, a field one side lacks is
*absent*, and every label not compared is named.
"""

from __future__ import annotations

from generator.tools.diff import ABSENT, DEPRECATED_LABEL, Change, Diff, Entry
from generator.tools.release_notes import render_markdown

CLUSTER, NAMESPACED = "VirtualMachineClusterInstancetype", "VirtualMachineInstancetype"

DIFF = Diff(
    "old", "new",
    added=(Entry(CLUSTER, "u1.huge"), Entry(NAMESPACED, "u1.huge"), Entry(CLUSTER, "x1.old", deprecated=True)),
    removed=(Entry(CLUSTER, "rt1.small", deprecated=True),),
    changed=(Entry(CLUSTER, "u1.small", changes=(Change(("spec", "cpu", "guest"), 1, 2),)),
             Entry(NAMESPACED, "u1.small", changes=(Change(("spec", "cpu", "guest"), 3, 2),)),
             Entry(CLUSTER, "u1.tiny",
                   changes=(Change(("metadata", "annotations", "d"), ABSENT, {"z": "é", "a": 1}),)),
             Entry(CLUSTER, "o1.small", deprecated=True, became_deprecated=True,
                   changes=(Change(("metadata", "labels", DEPRECATED_LABEL), ABSENT, "true"),))),
    ignored_labels=("a/b", "c/d"))

PAGE = """\
### Catalog changes

2 added, 1 removed, 3 changed, 1 newly deprecated.

### Added

#### VirtualMachineClusterInstancetype

- **x1**: `x1.old` (deprecated)

#### VirtualMachineClusterInstancetype and VirtualMachineInstancetype

- **u1**: `u1.huge`

### Removed

#### VirtualMachineClusterInstancetype

- **rt1**: `rt1.small` (deprecated)

> [!WARNING]
> VirtualMachines that name a removed object (`spec.instancetype.name`, `spec.preference.name`) keep naming it \
after the upgrade. A catalog built with `citgen build --retain-from` keeps shipping such objects, labelled deprecated.

### Changed

#### VirtualMachineClusterInstancetype

**u1**

- `u1.small`
  - `$.spec.cpu.guest`: `1` → `2`
- `u1.tiny`
  - `$.metadata.annotations.d`: *absent* → `{"a": 1, "z": "é"}`

#### VirtualMachineInstancetype

**u1**

- `u1.small`
  - `$.spec.cpu.guest`: `3` → `2`

### Newly deprecated

#### VirtualMachineClusterInstancetype

- **o1**: `o1.small`

Labels not compared: `a/b`, `c/d`.
"""


def test_a_diff_of_every_kind_of_entry_is_the_page_a_maintainer_pastes():
    assert render_markdown(DIFF) == PAGE
