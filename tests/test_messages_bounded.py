"""Every quoted value is an excerpt, in every message of every command and every format (issue 41).

A value from an input reaches a report through a few doors, and each bounds it:
a location's file and object name (problems.Location, report.place and
report.subject: 300 characters), a message's words (Problem: each word 300,
the whole 1,000), the lines of what a command writes for people (report.show:
every line of text, github and markdown at most MAX_LINE). JSON and SARIF are
for programs and keep every value whole: a name cut short would be another name.

The tests walk click's tree (every command, every path it reads) and
report.FORMATS, so a command or a format added later is held to the same
bounds without being named here; the issue's own examples are run as written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.problems import MAX_LINE, MAX_MESSAGE, PATH_EXCERPT
from generator.report import FORMATS
from tests.helpers import leaf_commands
from tests.test_escape_writers import _hostile_paths, cli

#: The formats read by programs: every value whole.
WHOLE = ("json", "sarif")
#: The formats read by people: every line bounded.
BOUNDED = tuple(fmt for fmt in FORMATS if fmt not in WHOLE)
#: A path of 5,000 characters, in folders of 250 (a single name that long is refused by the kernel itself).
LONG_PATH = "/".join(["p" * 249] * 20)


def longest_line(*outputs: str) -> int:
    return max((len(line) for out in outputs for line in out.splitlines()), default=0)


def test_every_format_is_either_bounded_or_whole():
    assert set(BOUNDED) | set(WHOLE) == set(FORMATS) and "text" in BOUNDED


@pytest.mark.parametrize("fmt", BOUNDED)
@pytest.mark.parametrize("words", sorted(leaf_commands()))
def test_every_command_names_a_long_path_as_an_excerpt(words: str, fmt: str, tmp_path: Path):
    """Each path a command reads named by 5,000 characters: refused, on lines a terminal can show."""
    missing = tmp_path / LONG_PATH
    code, out, err = cli(*words.split(), *_hostile_paths(leaf_commands()[words], missing), "--format", fmt)
    assert code == 2, (out[:500], err[:500])
    assert longest_line(out, err) <= 2 * PATH_EXCERPT + MAX_MESSAGE, (out[:500], err[:500])
    assert "more characters)" in out + err


@pytest.mark.parametrize("fmt", WHOLE)
def test_json_and_sarif_name_a_long_path_whole(fmt: str, tmp_path: Path):
    missing = tmp_path / LONG_PATH
    code, out, _ = cli("validate", missing, "--format", fmt)
    assert code == 2
    assert json.loads(out) and str(missing) in out  # ASCII: written as it is


# --------------------------------------------------------------------------- the examples


def _instancetype(name: str, labels: dict[str, str] | None = None,
                  annotations: dict[str, str] | None = None) -> dict[str, Any]:
    return {"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": "VirtualMachineClusterInstancetype",
            "metadata": {"name": name, "labels": labels or {}, "annotations": annotations or {}},
            "spec": {"cpu": {"guest": 1}, "memory": {"guest": "1Gi"}}}


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A bundle with an object named by 100,000 characters and one whose label holds an 847-character token;
    an upgrade to a bundle deprecating u1.small with a 1,000,000-character text; a VM naming u1.small."""
    root = tmp_path_factory.mktemp("long")
    files = {
        "long.yaml": [_instancetype("a" * 100_000),
                      _instancetype("u1.small", labels={"instancetype.kubevirt.io/vendor": "t" * 847})],
        "old.yaml": [_instancetype("u1.small")],
        "new.yaml": [_instancetype("u1.small", labels={"instancetype.kubevirt.io/deprecated": "true"},
                                   annotations={"instancetype.kubevirt.io/deprecated-since": "v1 " + "s" * 1_000_000})],
        "vm.yaml": [{"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine",
                     "metadata": {"name": "web", "namespace": "ns"},
                     "spec": {"instancetype": {"name": "u1.small"}, "runStrategy": "Halted",
                              "template": {"spec": {"domain": {"devices": {}}}}}}],
    }
    for name, documents in files.items():
        (root / name).write_text(yaml.safe_dump_all(documents), encoding="utf-8")
    return {name: root / name for name in files}


#: Each run of the issue's examples: what it reads, and the exit status it ends with.
RUNS = {
    "validate a bundle": (lambda i: ("validate", i["long.yaml"]), 1),
    "diff two bundles": (lambda i: ("diff", i["old.yaml"], i["long.yaml"]), 1),
    "refs --from, an upgrade": (lambda i: ("refs", i["vm.yaml"], "--from", i["old.yaml"], "--to", i["new.yaml"]), 1),
}


@pytest.mark.parametrize("fmt", BOUNDED)
@pytest.mark.parametrize("run", sorted(RUNS))
def test_long_names_labels_and_texts_from_inputs_are_excerpts_in_every_bounded_format(inputs, run: str, fmt: str):
    args, status = RUNS[run]
    code, out, err = cli(*args(inputs), "--format", fmt)
    assert code == status, err[:500]
    assert longest_line(out, err) <= 2 * PATH_EXCERPT + MAX_MESSAGE < MAX_LINE
    assert "t" * (PATH_EXCERPT + 1) not in out + err  # the label's token
    assert "s" * (MAX_MESSAGE + 1) not in out + err  # the deprecation text


@pytest.mark.parametrize("run", sorted(RUNS))
def test_json_keeps_each_name_and_text_whole_for_the_programs_that_read_it(inputs, run: str):
    args, status = RUNS[run]
    code, out, _ = cli(*args(inputs), "--format", "json")
    assert code == status
    assert json.loads(out)
    # whole values: the name (validate, diff) or the deprecation text (refs --from) as the input holds it
    assert "a" * 100_000 in out or "s" * 1_000_000 in out


def test_a_label_value_is_quoted_as_an_excerpt_in_its_message(inputs):
    code, out, _ = cli("validate", inputs["long.yaml"])
    assert code == 1
    quoting = [line for line in out.splitlines() if "ttt" in line]
    assert quoting and all("t" * (PATH_EXCERPT + 1) not in line and "more characters)" in line for line in quoting)
