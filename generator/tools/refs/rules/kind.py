"""A kind KubeVirt does not accept where it is written, or a namespaced kind the target does not ship as such.

KubeVirt reads a matcher's kind (``spec.instancetype.kind``, the
``default-instancetype-kind`` label ...) through one switch on its lower-cased
text (pkg/instancetype/find): the singular or plural of the two kinds of its
family, in any case, and no kind at all for the cluster kind. Anything else
fails the VirtualMachine after admission, with ``got unexpected kind in
InstancetypeMatcher``: kubectl's short names (``vmcp``), a kind qualified by its
API group, a kind of the other family.

A namespaced kind is looked up in the VirtualMachine's namespace: a name the
target ships only as a cluster object, and that no manifest read defines in
that namespace, is not found there (and the reverse for a cluster kind). So is a
name the manifests define only as the other kind of its family (a VM naming no
kind, the cluster kind, beside a VirtualMachinePreference of that name): the
finding names the kind they define.

Example::

    vm.yaml:11:11: spec.preference.kind: VirtualMachine web names preference 'fedora' by kind 'vmcp', which KubeVirt does not accept: 'vmcp' is kubectl's short name for VirtualMachineClusterPreference; write VirtualMachineClusterPreference [kind]
"""

from __future__ import annotations

from typing import Iterator, Sequence

from ....problems import Problem, excerpt
from ....golower import go_lower
from ..target import FAMILY_KINDS, Resolution
from .base import JudgeContext, names, quoted

ID = "kind"

GROUP = "instancetype.kubevirt.io"
#: The short names of the four kinds' CRDs, which kubectl reads and KubeVirt's matchers do not.
SHORT_NAMES = {
    "vminstancetype": "VirtualMachineInstancetype", "vminstancetypes": "VirtualMachineInstancetype",
    "vmf": "VirtualMachineInstancetype", "vmfs": "VirtualMachineInstancetype",
    "vmclusterinstancetype": "VirtualMachineClusterInstancetype",
    "vmclusterinstancetypes": "VirtualMachineClusterInstancetype",
    "vmcf": "VirtualMachineClusterInstancetype", "vmcfs": "VirtualMachineClusterInstancetype",
    "vmpref": "VirtualMachinePreference", "vmprefs": "VirtualMachinePreference",
    "vmp": "VirtualMachinePreference", "vmps": "VirtualMachinePreference",
    "vmclusterpref": "VirtualMachineClusterPreference", "vmclusterprefs": "VirtualMachineClusterPreference",
    "vmcp": "VirtualMachineClusterPreference", "vmcps": "VirtualMachineClusterPreference",
}
MATCHER = {"instancetype": "InstancetypeMatcher", "preference": "PreferenceMatcher"}


def _kind_of(text: str) -> str | None:
    """The kind of either family ``text`` spells as KubeVirt's switch would read it (singular or plural)."""
    lowered = go_lower(text)
    for kinds in FAMILY_KINDS.values():
        for kind in kinds:
            if lowered in (kind.lower(), kind.lower() + "s"):
                return kind
    return None


def why(family: str, written: str) -> str:
    """Why KubeVirt refuses ``written`` as a kind of ``family``, and what to write instead."""
    shown = quoted(written)
    lowered = go_lower(written)
    if lowered in SHORT_NAMES:
        meant = SHORT_NAMES[lowered]
        if meant in FAMILY_KINDS[family]:
            return f"{shown} is kubectl's short name for {meant}; write {meant}"
        return f"{shown} is kubectl's short name for {meant}, a kind of the other family"
    head, dot, group = written.partition(".")
    if dot and go_lower(group) == GROUP and _kind_of(head) is not None:
        return f"{shown} is qualified by its API group, which KubeVirt does not read; write {_kind_of(head)}"
    other = _kind_of(written)
    if other is not None and other not in FAMILY_KINDS[family]:
        article = "an" if family == "instancetype" else "a"
        return (f"{other} is a kind of the other family; {article} {family} is a {FAMILY_KINDS[family][0]} or a "
                f"{FAMILY_KINDS[family][1]}")
    return (f"KubeVirt reads {FAMILY_KINDS[family][0]} or {FAMILY_KINDS[family][1]} (either in any case, singular "
            f"or plural), or no kind for the cluster kind; it fails the VirtualMachine with "
            f"'got unexpected kind in {MATCHER[family]}: {excerpt(written)}'")


def check(resolutions: Sequence[Resolution], ctx: JudgeContext) -> Iterator[Problem]:
    for one in resolutions:
        reference = one.reference
        if one.kind is None:  # refused whatever the name becomes, one known only when applied too
            written = reference.kind or ""
            yield Problem(reference.location, f"{names(reference)} by kind {quoted(written)}, which KubeVirt does not "
                                              f"accept: {why(reference.family, written)}", ID)
        elif reference.name is None:
            continue
        elif one.defined_as is not None:
            defined = one.defined_as
            written = f"as a {one.kind}" if reference.kind else f"without a kind (KubeVirt then looks for a {one.kind})"
            leave = " (or leave the kind out)" if defined.kind == FAMILY_KINDS[reference.family][0] else ""
            yield Problem(reference.location, (
                f"{names(reference)} {written}, which the manifests read define only as a {defined.kind} "
                f"({defined.location.file_line()}); name the kind {defined.kind}{leave}"), ID)
        elif one.shipped_as is not None:
            namespaced = one.kind not in (FAMILY_KINDS[reference.family][0],)
            where = " in its namespace" if namespaced else ""
            yield Problem(reference.location, (
                f"{names(reference)} as a {one.kind}, which {ctx.target.described} ships only as a "
                f"{one.shipped_as} and no manifest read defines{where}; name the kind {one.shipped_as}"
                + (" (or leave the kind out)" if one.shipped_as == FAMILY_KINDS[reference.family][0] else "")), ID)
