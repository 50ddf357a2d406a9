"""--retain-from: objects an earlier release shipped stay available, marked deprecated."""

from __future__ import annotations

import copy
import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.cli.diff import diff
from generator.cli.validate import validate
from generator.model import label
from generator.outputs.readme import tables
from generator.paths import builtin_catalog
from generator.pipeline import BuildOptions, generate
from generator.render.bundles import BUNDLES
from tests.conftest import SHARED, shared_file
from tests.helpers import by_name, default_build, read_yaml_stream

OLD_SERIES = """\
prefix: legacy
version: 1
class: legacy.general
displayName: Legacy
description: A series an earlier release shipped and this one drops.
icon: pficon-server-group
ratio: "1:4"
sizes: [small, medium]
"""


def build(args: list[str]) -> None:
    result = CliRunner().invoke(main, ["build", *args])
    assert result.exit_code == 0, result.output


def old_release(tmp_path: Path) -> Path:
    """Build a catalog with one more series than the built-in one, as a past release."""
    catalog = tmp_path / "old-catalog"
    shutil.copytree(builtin_catalog(), catalog, ignore=shutil.ignore_patterns("bundles", ".*"),
                    dirs_exist_ok=True)
    (catalog / "series" / "legacy.yaml").write_text(OLD_SERIES)
    build(["--catalog", str(catalog), "--out", str(tmp_path / "old"), "--version", "v1.0.0"])
    return tmp_path / "old" / "common-instancetypes-all-bundle.yaml"


def test_dropped_objects_are_carried_over_deprecated_and_otherwise_unchanged(tmp_path):
    old_bundle = old_release(tmp_path)
    build(["--out", str(tmp_path / "new"), "--retain-from", str(old_bundle)])
    old = read_yaml_stream(old_bundle)
    new = read_yaml_stream(tmp_path / "new" / "common-instancetypes-all-bundle.yaml")
    for kind in ("VirtualMachineClusterInstancetype", "VirtualMachineInstancetype"):
        old_objects, new_objects = by_name(old, kind), by_name(new, kind)
        for name in ("legacy1.small", "legacy1.medium"):
            carried = new_objects[name]
            assert carried["metadata"]["labels"].pop(label("deprecated")) == "true"
            assert carried == old_objects[name]
        # objects the catalog still defines come from the catalog, once, at the new version
        assert new_objects["u1.small"]["metadata"]["labels"][label("common-instancetypes-version")] != "v1.0.0"
        assert [d["metadata"]["name"] for d in new if d["kind"] == kind].count("u1.small") == 1


def test_retained_objects_know_their_size_but_stay_out_of_the_readme_tables(tmp_path):
    build_result = generate(BuildOptions(retain_from=(old_release(tmp_path),)))
    retained = {o.name: o for o in build_result.objects if o.facts.get("retained")}
    assert sorted(retained) == ["legacy1.medium", "legacy1.small"]
    assert retained["legacy1.small"].facts["cpu"] == 1
    assert retained["legacy1.small"].facts["memory"] == 2 * 1024**3
    assert "legacy1" not in tables(build_result.objects)["instancetypes"]


def test_an_old_bundle_that_is_not_a_catalog_bundle_is_refused(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
    result = CliRunner().invoke(main, ["build", "--out", str(tmp_path / "out"), "--retain-from", str(bad)])
    assert result.exit_code == 2
    assert result.output == (
        f"{bad}: error: no catalog objects (given as --retain-from): the file holds 1 object (ConfigMap) but no "
        "instancetype or preference; expected VirtualMachineClusterInstancetype, VirtualMachineInstancetype, "
        "VirtualMachineClusterPreference or VirtualMachinePreference objects, as documents or in a kind: List [input]\n"
        "citgen: 1 problem, nothing written\n")
    assert not (tmp_path / "out").exists()


# --- a real earlier release: upstream's v1.0.0 --------------------------------------------------

V1_0_0 = "v1.0.0-common-instancetypes-all-bundle.yaml"
ALL = "common-instancetypes-all-bundle.yaml"


@pytest.fixture(scope="module")
def release() -> Path:
    return shared_file(SHARED / "reference" / "releases" / V1_0_0)


@pytest.fixture(scope="module")
def retained_build(release: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The built-in catalog built with --retain-from the v1.0.0 release: its output folder and what it said."""
    out = tmp_path_factory.mktemp("retained") / "bundles"
    result = CliRunner().invoke(main, ["build", "--out", str(out), "--retain-from", str(release)])
    assert result.exit_code == 0, result.output
    return out, result.output


def _keys(docs: list) -> set[tuple[str, str]]:
    return {(d["kind"], d["metadata"]["name"]) for d in docs}


def dropped_since(release: Path) -> set[tuple[str, str]]:
    """(kind, name) of every object the release had and the catalog, built alone, no longer makes."""
    return _keys(read_yaml_stream(release)) - {(d.kind, d.name) for d in default_build().documents}


def test_every_object_the_catalog_dropped_since_v1_0_0_is_retained(release, retained_build):
    out, _ = retained_build
    dropped = dropped_since(release)
    assert {("VirtualMachineClusterPreference", "centos.7"), ("VirtualMachinePreference", "centos.7"),
            ("VirtualMachineClusterPreference", "centos.stream8"),
            ("VirtualMachinePreference", "centos.stream8.dpdk")} <= dropped
    built = read_yaml_stream(out / ALL)
    deprecated = {(d["kind"], d["metadata"]["name"]) for d in built
                  if d["metadata"]["labels"].get(label("deprecated")) == "true"}
    assert deprecated == dropped
    assert len(built) == len(default_build().documents) + len(dropped)


#: What the built-in catalog.yaml's ``retired`` says of the names v1.0.0 had and the catalog no longer
#: defines: (deprecated-since, deprecated-replacement). The gn1 sizes are not retired (GN is built with a device).
RETIRED_SINCE_V1_0_0 = {
    "centos.7": ("v1.2.1", "rhel.7"),
    "centos.7.desktop": ("v1.2.1", "rhel.7.desktop"),
    "centos.stream8": ("v1.2.1", "centos.stream9"),
    "centos.stream8.desktop": ("v1.2.1", "centos.stream9.desktop"),
    "centos.stream8.dpdk": ("v1.2.1", "centos.stream9.dpdk"),
}


def test_a_retained_object_is_the_released_one_but_for_the_deprecated_label_and_its_replacement(
        release, retained_build):
    out, _ = retained_build
    released = {(d["kind"], d["metadata"]["name"]): d for d in read_yaml_stream(release)}
    built = {(d["kind"], d["metadata"]["name"]): d for d in read_yaml_stream(out / ALL)}
    for key in dropped_since(release):
        carried = copy.deepcopy(built[key])
        assert carried["metadata"]["labels"].pop(label("deprecated")) == "true"
        annotations = carried["metadata"].get("annotations", {})
        said = (annotations.pop(label("deprecated-since"), None),
                annotations.pop(label("deprecated-replacement"), None))
        assert said == RETIRED_SINCE_V1_0_0.get(key[1], (None, None)), key
        assert carried == released[key], key
        # the version label still says which release it is from
        assert carried["metadata"]["labels"][label("common-instancetypes-version")] == "v1.0.0"


def test_retained_objects_keep_the_kinds_they_were_released_in(release, retained_build):
    out, _ = retained_build
    dropped = dropped_since(release)
    for kind, bundle in BUNDLES.items():
        names = {d["metadata"]["name"] for d in read_yaml_stream(out / f"{bundle}.yaml")}
        assert {name for k, name in dropped if k == kind} <= names


def test_the_build_says_its_newer_rule_findings_do_not_count(retained_build):
    out, said = retained_build
    note = re.search(r"note: (\d+) findings on retained objects come from rules newer than their release "
                     r"v1\.0\.0 and do not count; `citgen validate (\S+)` lists them", said)
    assert note is not None, said
    assert note.group(2) == str(out / ALL)


def test_the_output_passes_validate_with_the_retained_objects_findings_apart(release, retained_build):
    out, said = retained_build
    result = CliRunner().invoke(validate, [str(out / ALL), "--format", "json"])
    assert result.exit_code == 0, result.output
    records = json.loads(result.output)
    findings = [r for r in records if r["severity"] == "error"]
    assert findings and all(r["newerThanRelease"] == "v1.0.0" for r in findings)
    dropped = dropped_since(release)
    assert {(r["document"], r["name"]) for r in records} <= {
        (i, d["metadata"]["name"]) for i, d in enumerate(read_yaml_stream(out / ALL))
        if (d["kind"], d["metadata"]["name"]) in dropped}
    assert f"note: {len(findings)} findings" in said
    # the retained objects' older topology spellings: KubeVirt v1.9 admits them with its warning
    assert {r["rule"] for r in records if r["severity"] == "warning"} == {"webhook-cpu-topology"}


def _expected_v1_0_0_findings(docs: list) -> list[tuple[int, str]]:
    """What the v1.0.0 objects lack of later releases' labels, read off their specs: (document, since)."""
    expected = []
    for i, doc in enumerate(docs):
        spec = doc["spec"]
        if "Instancetype" in doc["kind"]:
            expected.append((i, "v1.1.0"))  # the size label
            if "hugepages" in spec["memory"]:
                expected.append((i, "v1.4.0"))  # "true" where the page size came later
        else:
            requirements = spec.get("requirements", {})
            expected += [(i, "v1.1.0") for part in ("cpu", "memory") if part in requirements]
    return sorted(expected)


def test_validating_v1_0_0_reports_labels_of_later_releases_as_newer_rule_findings(release):
    docs = read_yaml_stream(release)
    result = CliRunner().invoke(validate, [str(release), "--format", "json"])
    assert result.exit_code == 0, result.output
    records = json.loads(result.output)
    findings = [r for r in records if r["severity"] == "error"]
    warnings = [r for r in records if r["severity"] == "warning"]
    assert sorted((r["document"], r["since"]) for r in findings) == _expected_v1_0_0_findings(docs)
    assert {r["newerThanRelease"] for r in findings} == {"v1.0.0"}
    # v1.0.0 spelt topologies as KubeVirt did then; v1.9 admits those spellings with a warning
    topologies = {i: doc["spec"]["cpu"]["preferredCPUTopology"] for i, doc in enumerate(docs)
                  if "preferredCPUTopology" in doc["spec"].get("cpu", {})}
    assert sorted(r["document"] for r in warnings) == sorted(topologies)
    assert {r["message"] for r in warnings} == {
        f"KubeVirt v1.9 warns: PreferredCPUTopology {old} is deprecated for removal in a future release, "
        f"please use {old[len('prefer'):].lower()} instead" for old in topologies.values()}
    text = CliRunner().invoke(validate, [str(release)]).output.splitlines()
    # one line per record: KubeVirt's warnings, and the findings of newer rules as notes naming both releases
    assert text[:-1] == [
        f"{r['file']}:{r['line']}:{r['column']}: {'note' if r['newerThanRelease'] else r['severity']}: "
        f"{r['kind']} {r['name']} {r['path']}: {r['message']}"
        + (f" (rule since {r['since']}, newer than the object's release {r['newerThanRelease']})"
           if r["newerThanRelease"] else "")
        + f" [{r['rule']}]" for r in records]
    assert {line.split(": ")[1] for line in text[:-1]} == {"warning", "note"}
    assert text[-1] == (f"no problems in {len(docs)} documents; {len(warnings)} warnings in {len(warnings)} of "
                        f"them, not counted; {len(findings)} findings from rules newer than "
                        f"release v1.0.0 in {len({r['document'] for r in findings})} of them, not counted")


def test_a_real_problem_in_an_old_bundle_stands_out_and_counts(release, tmp_path):
    text = release.read_text(encoding="utf-8")
    broken = tmp_path / "v1.0.0-broken.yaml"
    # u1.medium's cpu label says 1 in v1.0.0; make it disagree with its spec
    broken.write_text(text.replace("instancetype.kubevirt.io/cpu: '1'\n", "instancetype.kubevirt.io/cpu: '3'\n", 1),
                      encoding="utf-8")
    result = CliRunner().invoke(validate, [str(broken)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    errors = [line for line in lines if ": error: " in line]
    assert len(errors) == 2, errors
    assert re.fullmatch(rf"{re.escape(str(broken))}:\d+:\d+: error: VirtualMachineClusterInstancetype \S+ "
                        r"\$\.metadata\.labels\['instancetype\.kubevirt\.io/cpu'\]"
                        r": label instancetype\.kubevirt\.io/cpu is '3' but spec\.cpu\.guest is 1 \[labels-match-spec\]",
                        errors[0]), errors[0]
    # and its namespaced twin, which now differs from it
    assert re.match(rf"{re.escape(str(broken))}:\d+:\d+: error: VirtualMachineInstancetype ", errors[1]), errors[1]
    assert errors[1].endswith(": '1' here, '3' there [twins-identical]")
    # the rest: KubeVirt's warnings and the findings of rules newer than the release, neither counted
    assert {line.split(": ")[1] for line in lines[:-1] if line not in errors} == {"warning", "note"}
    assert lines[-1].startswith("2 problems in 2 of 142 documents; ")


def test_diff_against_v1_0_0_counts_the_retained_objects_as_newly_deprecated(release, retained_build):
    out, _ = retained_build
    result = CliRunner().invoke(diff, [str(release), str(out), "--format", "json"])
    assert result.exit_code == 1
    report = json.loads(result.output)
    dropped = dropped_since(release)
    assert {(e["kind"], e["name"]) for e in report["newlyDeprecated"]} == dropped
    assert report["summary"]["newlyDeprecated"] == len(dropped)
    names = {name for _, name in dropped}
    text = CliRunner().invoke(diff, [str(release), str(out)]).output
    assert f", {len(names)} newly deprecated\n" in text.splitlines(keepends=True)[-1]


# --- what cannot be carried over exactly ------------------------------------------------------------

OLD_API = """\
apiVersion: instancetype.kubevirt.io/v1alpha2
kind: VirtualMachineClusterPreference
metadata:
  name: legacy.os
spec:
  cpu:
    preferredCPUTopology: preferSockets
"""


def test_an_object_of_an_older_api_version_is_refused_naming_it(tmp_path):
    old = tmp_path / "old.yaml"
    old.write_text(OLD_API)
    result = CliRunner().invoke(main, ["build", "--out", str(tmp_path / "out"), "--retain-from", str(old)])
    assert result.exit_code == 2
    assert result.output == (
        f"{old}:1:13: error: VirtualMachineClusterPreference legacy.os $.apiVersion: VirtualMachineClusterPreference "
        "legacy.os is instancetype.kubevirt.io/v1alpha2, expected instancetype.kubevirt.io/v1beta1: an object is "
        "carried over only as released, so convert it to instancetype.kubevirt.io/v1beta1 first [input]\n"
        "citgen: 1 problem, nothing written\n")
    assert not (tmp_path / "out").exists()


def test_an_object_read_back_from_a_cluster_is_refused(tmp_path):
    old = tmp_path / "old.yaml"
    old.write_text(OLD_API.replace("v1alpha2", "v1beta1").replace("  name: legacy.os\n",
                                                                   "  name: legacy.os\n  uid: 1234\n"))
    result = CliRunner().invoke(main, ["build", "--out", str(tmp_path / "out"), "--retain-from", str(old)])
    assert result.exit_code == 2
    assert result.output == (
        f"{old}:5:8: error: VirtualMachineClusterPreference legacy.os $.metadata.uid: unexpected field 'uid': a "
        "bundle's object has only annotations, labels, name in its metadata [input]\n"
        "citgen: 1 problem, nothing written\n")
