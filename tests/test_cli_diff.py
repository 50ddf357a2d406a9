"""generator/cli/diff.py: ``citgen diff`` as a command, on two small bundle files written by each test.

What the command adds to tools/diff.py (whose own tests compare whole builds): the text is
the product, the JSON report is its data with the summary as its counts, ``--format markdown``
is the release note, the exit code is 0 for equal inputs and 1 for different ones, and the
version label is compared only when asked.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from generator.cli.diff import diff

VERSION = "instancetype.kubevirt.io/common-instancetypes-version"


def instancetype(name: str, guest: int, version: str) -> str:
    return (f"kind: VirtualMachineClusterInstancetype\nmetadata: {{name: {name}, labels: {{{VERSION}: {version}}}}}\n"
            f"spec: {{cpu: {{guest: {guest}}}}}\n")


def bundle(path: Path, *documents: str) -> Path:
    path.write_text("---\n".join(documents))
    return path


def pair(tmp_path: Path) -> tuple[Path, Path]:
    """u1.small from one vCPU to two, and u1.large added; the version moves from v1.0.0 to v1.1.0."""
    old = bundle(tmp_path / "old.yaml", instancetype("u1.small", 1, "v1.0.0"))
    new = bundle(tmp_path / "new.yaml", instancetype("u1.small", 2, "v1.1.0"), instancetype("u1.large", 4, "v1.1.0"))
    return old, new


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(diff, [str(a) for a in args])


def test_two_bundles_that_differ_list_what_was_added_and_changed_and_exit_1(tmp_path: Path):
    old, new = pair(tmp_path)
    result = run(old, new)
    assert (result.exit_code, result.output) == (1, (
        f"citgen diff {old} {new}\n\n"
        "added (1):\n  + u1.large (VirtualMachineClusterInstancetype)\n\n"
        "changed (1):\n  ~ u1.small (VirtualMachineClusterInstancetype)\n      $.spec.cpu.guest: 1 -> 2\n\n"
        "summary: 1 added, 0 removed, 1 changed, 0 newly deprecated\n"))


def test_the_version_label_is_one_more_change_only_when_asked_for(tmp_path: Path):
    old, new = pair(tmp_path)
    result = run(old, new, "--include-version-label")
    assert result.exit_code == 1
    assert (f"  ~ u1.small (VirtualMachineClusterInstancetype)\n"
            f"      $.metadata.labels['{VERSION}']: \"v1.0.0\" -> \"v1.1.0\"\n"
            "      $.spec.cpu.guest: 1 -> 2\n") in result.output
    assert json.loads(run(old, new, "--include-version-label", "--format", "json").output)["ignoredLabels"] == []


def test_only_a_different_version_label_is_equal_unless_asked_for(tmp_path: Path):
    old = bundle(tmp_path / "old.yaml", instancetype("u1.small", 1, "v1.0.0"))
    new = bundle(tmp_path / "new.yaml", instancetype("u1.small", 1, "v1.1.0"))
    assert (run(old, new).exit_code, run(old, new).output) == (0, f"no differences between {old} and {new}\n")
    assert run(old, new, "--include-version-label").exit_code == 1


def test_json_carries_the_report_and_counts_its_summary(tmp_path: Path):
    old, new = pair(tmp_path)
    result = run(old, new, "--format", "json")
    report = json.loads(result.output)
    summary = {"added": 1, "changed": 1, "newlyDeprecated": 0, "removed": 0}
    assert result.exit_code == 1
    assert (report["command"], report["exitCode"], report["ok"], report["equal"]) == ("diff", 1, False, False)
    assert report["summary"] == report["counts"] == summary
    assert report["added"] == [{"kind": "VirtualMachineClusterInstancetype", "name": "u1.large"}]
    assert report["changed"] == [{"kind": "VirtualMachineClusterInstancetype", "name": "u1.small",
                                  "changes": [{"path": "$.spec.cpu.guest", "old": 1, "new": 2}]}]
    assert report["ignoredLabels"] == [VERSION]


def test_markdown_is_the_release_note(tmp_path: Path):
    old, new = pair(tmp_path)
    result = run(old, new, "--format", "markdown")
    assert (result.exit_code, result.output) == (1, (
        "### Catalog changes\n\n1 added, 0 removed, 1 changed, 0 newly deprecated.\n\n"
        "### Added\n\n#### VirtualMachineClusterInstancetype\n\n- **u1**: `u1.large`\n\n"
        "### Changed\n\n#### VirtualMachineClusterInstancetype\n\n**u1**\n\n"
        "- `u1.small`\n  - `$.spec.cpu.guest`: `1` → `2`\n\n"
        f"Labels not compared: `{VERSION}`.\n"))


def test_equal_bundles_exit_0_in_every_format(tmp_path: Path):
    old, _ = pair(tmp_path)
    assert (run(old, old).exit_code, run(old, old).output) == (0, f"no differences between {old} and {old}\n")
    markdown = run(old, old, "--format", "markdown")
    assert (markdown.exit_code, markdown.output) == (
        0, "### Catalog changes\n\nNo objects were added, removed or changed.\n")
    report = json.loads(run(old, old, "--format", "json").output)
    assert (report["exitCode"], report["equal"], report["counts"]) == (
        0, True, {"added": 0, "changed": 0, "newlyDeprecated": 0, "removed": 0})


def test_the_order_of_the_two_inputs_turns_added_into_removed(tmp_path: Path):
    old, new = pair(tmp_path)
    report = json.loads(run(new, old, "--format", "json").output)
    assert report["added"] == [] and report["removed"] == [{"kind": "VirtualMachineClusterInstancetype",
                                                            "name": "u1.large"}]
    assert report["changed"][0]["changes"] == [{"path": "$.spec.cpu.guest", "old": 2, "new": 1}]
