"""`citgen diff`: what changed between two builds or two bundle files, for release notes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.cli.diff import diff
from generator.model import label
from helpers import NEXT_RELEASE, REPO, build_into

ALL = "common-instancetypes-all-bundle.yaml"
CIT = "VirtualMachineClusterInstancetype"
BOTH_IT = "VirtualMachineClusterInstancetype, VirtualMachineInstancetype"
BOTH_PREF = "VirtualMachineClusterPreference, VirtualMachinePreference"


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("builds")
    old = build_into(root / "old", version="v1.0.0")
    return {
        "old": old,
        "same-but-version": build_into(root / "same", version="v1.1.0"),
        "next": build_into(root / "next", NEXT_RELEASE, version="v1.1.0"),
        "retained": build_into(root / "retained", NEXT_RELEASE, version="v1.1.0", retain_from=(old / ALL,)),
    }


def run(*args: object):
    return CliRunner().invoke(diff, [str(a) for a in args])


def test_equal_builds_exit_0(builds):
    result = run(builds["old"], builds["old"])
    assert result.exit_code == 0
    assert result.output == f"no differences between {builds['old']} and {builds['old']}\n"


def test_the_version_label_is_ignored_unless_asked_for(builds):
    assert run(builds["old"], builds["same-but-version"]).exit_code == 0
    result = run(builds["old"], builds["same-but-version"], "--include-version-label", "--format", "json")
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["added"] == [] and report["removed"] == []
    assert len(report["changed"]) == 244  # every document of the catalog
    assert report["changed"][0]["changes"] == [{
        "path": "$.metadata.labels['instancetype.kubevirt.io/common-instancetypes-version']",
        "old": "v1.0.0", "new": "v1.1.0"}]


def test_text_lists_added_removed_and_changed_objects_with_their_fields(builds):
    result = run(builds["old"], builds["next"])
    assert result.exit_code == 1
    text = result.output
    assert text.startswith(f"citgen diff {builds['old']} {builds['next']}\n\nadded (1):\n"
                           f"  + alpine.edge ({BOTH_PREF})\n\nremoved (14):\n")
    removed = [line for line in text.splitlines() if line.startswith("  - ")]
    assert removed == sorted(removed)
    assert f"  - cx1.large1gi ({BOTH_IT})" in removed
    assert f"  - rt1.small ({BOTH_IT})" in removed
    assert len([r for r in removed if r.startswith("  - rt1.")]) == 8
    assert (f"  ~ cx1.large ({BOTH_IT})\n"
            "      $.metadata.labels['instancetype.kubevirt.io/hugepages']: \"2Mi\" -> \"1Gi\"\n"
            "      $.spec.memory.hugepages.pageSize: \"2Mi\" -> \"1Gi\"\n") in text
    assert text.endswith(
        "note: 14 removed objects may still be referenced by existing VirtualMachines (spec.instancetype.name, "
        "spec.preference.name). To keep shipping them, labelled deprecated, build with "
        f"--retain-from {builds['old'] / ALL}\n\nsummary: 1 added, 14 removed, 6 changed, 0 newly deprecated\n")


def test_json_has_one_entry_per_document(builds):
    result = run(builds["old"], builds["next"], "--format", "json")
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["equal"] is False
    assert report["added"] == [{"kind": "VirtualMachineClusterPreference", "name": "alpine.edge"},
                               {"kind": "VirtualMachinePreference", "name": "alpine.edge"}]
    assert {"kind": "VirtualMachineInstancetype", "name": "rt1.large"} in report["removed"]
    assert report["summary"] == {"added": 2, "removed": 28, "changed": 12, "newlyDeprecated": 0}
    assert report["retainFrom"] == str(builds["old"] / ALL)
    changed = {(e["kind"], e["name"]): e["changes"] for e in report["changed"]}
    assert changed[("VirtualMachineClusterInstancetype", "cx1.medium")] == [
        {"path": "$.metadata.labels['instancetype.kubevirt.io/hugepages']", "old": "2Mi", "new": "1Gi"},
        {"path": "$.spec.memory.hugepages.pageSize", "old": "2Mi", "new": "1Gi"},
    ]
    assert report["ignoredLabels"] == [label("common-instancetypes-version")]


def test_retained_objects_are_not_removed_but_newly_deprecated(builds):
    result = run(builds["old"], builds["retained"])
    assert result.exit_code == 1
    assert "removed (" not in result.output and "--retain-from" not in result.output
    assert f"newly deprecated (14):\n  ! cx1.2xlarge1gi ({BOTH_IT}) [deprecated]\n" in result.output
    assert ("      $.metadata.labels['instancetype.kubevirt.io/deprecated']: (absent) -> \"true\"\n"
            in result.output)
    assert result.output.endswith("summary: 1 added, 0 removed, 20 changed, 14 newly deprecated\n")
    report = json.loads(run(builds["old"], builds["retained"], "--format", "json").output)
    assert report["removed"] == [] and report["retainFrom"] is None
    assert {"kind": "VirtualMachineClusterInstancetype", "name": "rt1.large"} in report["newlyDeprecated"]
    assert report["summary"] == {"added": 2, "removed": 0, "changed": 40, "newlyDeprecated": 28}


def test_two_bundle_files_compare_like_builds(builds):
    old = builds["old"] / "common-clusterinstancetypes-bundle.yaml"
    new = builds["next"] / "common-clusterinstancetypes-bundle.yaml"
    report = json.loads(run(old, new, "--format", "json").output)
    assert report["added"] == []
    assert {e["kind"] for e in report["removed"]} == {"VirtualMachineClusterInstancetype"}
    assert report["summary"] == {"added": 0, "removed": 14, "changed": 6, "newlyDeprecated": 0}
    assert report["retainFrom"] == str(old)


def test_a_changed_list_reports_each_item(tmp_path: Path):
    old = build_into(tmp_path / "one", "parameters:\n  gpu: {deviceName: nvidia.com/A400}\n")
    new = build_into(tmp_path / "two", "parameters:\n  gpu: {deviceName: nvidia.com/A400, count: 2}\n")
    result = run(old, new)
    assert (f"  ~ gn1.xlarge ({BOTH_IT})\n"
            "      $.spec.gpus[1]: (absent) -> {\"deviceName\": \"nvidia.com/A400\", \"name\": \"gpu2\"}\n"
            ) in result.output
    assert "summary: 0 added, 0 removed, 4 changed, 0 newly deprecated\n" in result.output


def test_unusable_input_exits_2(tmp_path: Path, builds):
    assert run(tmp_path / "missing", builds["old"]).output == (
        f"{tmp_path / 'missing'}: error: no such file or folder [input]\n")
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run(builds["old"], empty)
    assert result.exit_code == 2
    # a folder without a build's all-bundle is a folder of objects, read as every command reads one
    assert result.output == (f"{empty}: error: no catalog objects: the folder holds no *.yaml, *.yml or *.json file "
                             "[input]\n")
    broken = tmp_path / "broken.yaml"
    broken.write_text("kind: VirtualMachineClusterInstancetype\nmetadata: {name: [\n")
    result = run(broken, broken)
    assert result.exit_code == 2
    assert result.output.startswith(f"{broken}:3:1: error: malformed YAML")
    twice = tmp_path / "twice.yaml"
    twice.write_text("kind: A\nmetadata: {name: a}\n---\nkind: A\nmetadata: {name: a}\n---\n- 1\n")
    result = run(twice, twice)
    assert result.exit_code == 2
    # a file without a catalog object is refused as a whole, naming what it holds
    assert result.output == (
        f"{twice}: error: no catalog objects: the file holds 2 objects (A) but no instancetype or preference; "
        "expected VirtualMachineClusterInstancetype, VirtualMachineInstancetype, VirtualMachineClusterPreference or "
        "VirtualMachinePreference objects, as documents or in a kind: List [input]\n")
    twice.write_text(twice.read_text().replace("kind: A\n", f"kind: {CIT}\n"))
    result = run(twice, twice)
    assert result.exit_code == 2
    assert result.output == (
        f"{twice}:5:18: error: {CIT} a $.metadata.name: {CIT} 'a' appears twice (first as document 0) [input]\n"
        f"{twice}:7:3: error: $[0].kind: expected a Kubernetes object with a kind [input]\n")


def test_documents_without_a_name_are_each_reported_where_the_name_should_be(tmp_path: Path, builds):
    """A bundle with unnamed objects cannot be matched by (kind, name): exit 2, every such document named."""
    nameless = tmp_path / "nameless.yaml"
    nameless.write_text("kind: VirtualMachineClusterInstancetype\nmetadata: {labels: {}}\n---\n"
                        "kind: VirtualMachineClusterInstancetype\nmetadata: {name: u1.small}\n---\n"
                        "kind: VirtualMachinePreference\nspec: {}\n")
    result = run(builds["old"], nameless)
    assert result.exit_code == 2
    assert result.output == (
        f"{nameless}:2:11: error: {CIT} $.metadata.name: expected an object with metadata.name [input]\n"
        f"{nameless}:7:1: error: VirtualMachinePreference $.metadata.name: expected an object with metadata.name "
        "[input]\n")


def test_a_release_that_drops_one_object_says_so_in_the_singular(tmp_path: Path):
    old = tmp_path / "old.yaml"
    old.write_text("kind: VirtualMachineClusterInstancetype\nmetadata: {name: u1.small}\n---\n"
                   "kind: VirtualMachineClusterInstancetype\nmetadata: {name: u1.gone}\n")
    new = tmp_path / "new.yaml"
    new.write_text("kind: VirtualMachineClusterInstancetype\nmetadata: {name: u1.small}\n")
    result = run(old, new)
    assert result.exit_code == 1
    assert result.output == (
        f"citgen diff {old} {new}\n\nremoved (1):\n  - u1.gone (VirtualMachineClusterInstancetype)\n\n"
        "note: 1 removed object may still be referenced by existing VirtualMachines (spec.instancetype.name, "
        f"spec.preference.name). To keep shipping it, labelled deprecated, build with --retain-from {old}\n\n"
        "summary: 0 added, 1 removed, 0 changed, 0 newly deprecated\n")
    report = json.loads(run(old, new, "--format", "json").output)
    assert (report["old"], report["new"], report["retainFrom"]) == (str(old), str(new), str(old))


def test_gn_objects_a_build_without_a_gpu_device_lacks_are_said_to_be_left_out_not_just_removed(tmp_path: Path):
    """`diff` of a build with a GPU device and one without listed gn1.* as removed, and nothing more."""
    with_gpu = tmp_path / "gpu"
    assert CliRunner().invoke(main, ["build", "--catalog", "builtin", "--gpu-device", "nvidia.com/L4",
                                     "--out", str(with_gpu)]).exit_code == 0
    result = CliRunner().invoke(main, ["diff", str(with_gpu), str(REPO / "bundles")])
    assert result.exit_code == 1
    note = (f"note: gn1.2xlarge, gn1.4xlarge, gn1.8xlarge, gn1.xlarge belong to the GN series, which is built only "
            "with a GPU device (--gpu-device nvidia.com/<model>, or parameters.gpu.deviceName in the catalog); "
            f"{REPO / 'bundles'} holds no GN object, as a build without a device does not")
    assert note in result.stdout.splitlines()
    report = json.loads(CliRunner().invoke(main, ["diff", str(with_gpu), str(REPO / "bundles"),
                                                  "--format", "json"]).stdout)
    assert report["optIn"] == [note[len("note: "):]]
    back = json.loads(CliRunner().invoke(main, ["diff", str(REPO / "bundles"), str(with_gpu),
                                                "--format", "json"]).stdout)
    assert back["optIn"] == [] and len(back["added"]) == 8
