"""The built-in catalog on every KubeVirt release citgen knows: built for it, judged by it.

For each release from v1.0 to v1.9, `citgen build --kubevirt` of the built-in
catalog is made in this process, and every object it ships is checked against
that release's shipped CRD schema (strict field validation) and its admission
webhook rules: none may be refused, and none may draw a warning. The committed
bundles, built for the newest release, are judged by v1.8 as a cluster of v1.8
would judge them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.pipeline import BuildOptions, generate
from generator.schemas import introduced, shipped_schema
from generator.schemas.releases import Release, known, newest
from generator.validate import validate_documents
from generator.validate.rules import RuleContext

from tests.helpers import copy_catalog, default_build

REPO = Path(__file__).resolve().parent.parent
ALL = REPO / "bundles" / "common-instancetypes-all-bundle.yaml"
SECEX = ["fedora.s390x.secex", "rhel.10.s390x.secex", "rhel.9.s390x.secex"]
VIRTIO_WINDOWS = ["windows.10.virtio", "windows.11.virtio", "windows.2k12.virtio", "windows.2k16.virtio",
                  "windows.2k19.virtio", "windows.2k22.virtio", "windows.2k25.virtio", "windows.2k8.virtio",
                  "windows.7.virtio"]
PREFERENCE_KINDS = ("VirtualMachineClusterPreference", "VirtualMachinePreference")


@pytest.fixture(scope="module")
def builds() -> dict[Release, object]:
    return {release: generate(BuildOptions(kubevirt=release)) for release in known()}


def test_citgen_knows_every_minor_release_from_v1_0_to_v1_9():
    assert [str(r) for r in known()] == [f"v1.{minor}" for minor in range(10)]
    assert newest() == Release(1, 9)


@pytest.mark.parametrize("release", known(), ids=str)
def test_a_build_for_a_release_is_accepted_by_that_releases_api_server_and_webhooks(builds, release):
    build = builds[release]
    assert build.problems == () and build.warnings == ()
    found = validate_documents(build.documents, RuleContext(vendor="kubevirt.io", kubevirt=release))
    assert [str(p) for p in found] == []


@pytest.mark.parametrize("release", known(), ids=str)
def test_only_the_secure_execution_preferences_are_left_out_and_only_before_v1_9(builds, release):
    left_out = sorted({a.name for a in builds[release].adjustments if a.action == "object left out"})
    assert left_out == ([] if release >= Release(1, 9) else SECEX)
    names = {(d.kind, d.name) for d in builds[release].documents}
    assert len(builds[release].documents) == 244 - 2 * len(left_out)
    assert not any((kind, name) in names for kind in PREFERENCE_KINDS for name in left_out)


def test_the_build_for_the_newest_release_is_the_default_build_byte_for_byte(builds):
    assert builds[newest()].files == default_build().files
    assert builds[newest()].adjustments == ()


def test_validate_kubevirt_v1_8_names_the_24_objects_and_fields_v1_8_refuses():
    result = CliRunner().invoke(main, ["validate", "--kubevirt", "v1.8", str(ALL), "--format", "json"])
    assert result.exit_code == 1
    refused = sorted((r["name"], r["path"], r["message"]) for r in json.loads(result.output))
    video = ("$.spec.devices.preferredVideoType",
             "unknown field 'preferredVideoType': KubeVirt v1.8 does not have it (it came in v1.9)")
    security = ("$.spec.preferredLaunchSecurity",
                "unknown field 'preferredLaunchSecurity': KubeVirt v1.8 does not have it (it came in v1.9)")
    assert refused == sorted([(name, *video) for name in VIRTIO_WINDOWS] * 2 + [(name, *security) for name in SECEX] * 2)


def test_validate_kubevirt_v1_8_text_report_ends_with_24_problems():
    result = CliRunner().invoke(main, ["validate", "--kubevirt", "1.8.4", str(ALL)])
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == "24 problems in 24 of 244 documents"


def test_validate_kubevirt_v1_9_and_the_default_accept_the_committed_bundle():
    for args in (["--kubevirt", "v1.9"], []):
        result = CliRunner().invoke(main, ["validate", *args, str(ALL)])
        assert (result.exit_code, result.output) == (0, "no problems in 244 documents\n")


@pytest.mark.parametrize("release, refused", [("v1.7", 24), ("v1.6", 48), ("v1.4", 48), ("v1.0", 166)])
def test_older_releases_refuse_more_of_the_committed_bundle(release, refused):
    result = CliRunner().invoke(main, ["validate", "--kubevirt", release, str(ALL)])
    assert result.exit_code == 1
    assert result.output.splitlines()[-1].endswith(f"in {refused} of 244 documents")


@pytest.mark.parametrize("value", ["v2.0", "latest", "v1.8.x", "1", ""])
def test_an_unknown_or_malformed_release_is_refused_with_exit_2_and_the_known_ones(value):
    result = CliRunner().invoke(main, ["build", "--check", "--kubevirt", value])
    assert result.exit_code == 2
    assert "expected one of v1.0, v1.1, v1.2, v1.3, v1.4, v1.5, v1.6, v1.7, v1.8, v1.9 " \
           "(v1.8, 1.8 and v1.8.4 all mean v1.8)" in result.output


def test_the_build_summary_lists_every_change_with_its_field_and_release(tmp_path):
    result = CliRunner().invoke(main, ["build", "--kubevirt", "v1.8", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()  # what the build says; its notes are on standard error
    assert lines[1] == "for KubeVirt v1.8: 12 objects changed, 3 of them left out (each kind of both):"
    assert lines[2:] == sorted(
        [f"  preference {name}: spec.preferredLaunchSecurity (KubeVirt v1.9) object left out" for name in SECEX]
        + [f"  preference {name}: spec.devices.preferredVideoType (KubeVirt v1.9) left out"
           for name in VIRTIO_WINDOWS])
    result = CliRunner().invoke(main, ["--format", "json", "build", "--kubevirt", "v1.8", "--out",
                                       str(tmp_path / "out")])
    report = json.loads(result.output)
    assert report["kubevirt"] == "v1.8"
    assert {"family": "preference", "name": "windows.11.virtio", "field": "spec.devices.preferredVideoType",
            "action": "left out", "since": "v1.9", "writtenAs": None} in report["adjusted"]
    assert len(report["adjusted"]) == 12


def _fields(node: dict, path: tuple[str, ...]):
    for key, sub in node.get("properties", {}).items():
        yield path + (key,)
        yield from _fields(sub, path + (key,))
    if isinstance(node.get("items"), dict):
        yield from _fields(node["items"], path)


def brought_by_release(kind: str) -> set[tuple[str, str]]:
    """(release, field) for each field a release after v1.0 brought, not counting those inside one it brought."""
    found = set()
    for path in _fields(shipped_schema(kind)["properties"]["spec"], ("spec",)):
        since = introduced(kind, path)
        if since is not None and since > known()[0] and introduced(kind, path[:-1]) != since:
            found.add((str(since), ".".join(path)))
    return found


def test_the_guides_table_of_fields_by_release_is_what_the_schemas_say():
    guide = (REPO / "docs" / "validation.md").read_text(encoding="utf-8")
    table = re.search(r"^\| KubeVirt \| instancetype fields \| preference fields \|\n\| --- .*\n((?:\|.*\n)+)",
                      guide, re.M)
    assert table is not None
    written: dict[str, set[tuple[str, str]]] = {"instancetype": set(), "preference": set()}
    for row in table.group(1).splitlines():
        release, instancetypes, preferences = (cell.strip() for cell in row.strip("|").split("|"))
        written["instancetype"] |= {(release, f) for f in re.findall(r"`([^`]+)`", instancetypes)}
        written["preference"] |= {(release, f) for f in re.findall(r"`([^`]+)`", preferences)}
    assert written["instancetype"] == brought_by_release("VirtualMachineClusterInstancetype")
    assert written["preference"] == brought_by_release("VirtualMachineClusterPreference")
    for kind in ("VirtualMachineInstancetype", "VirtualMachinePreference"):  # the namespaced twins agree
        assert brought_by_release(kind) == brought_by_release(kind.replace("VirtualMachine", "VirtualMachineCluster"))


DEPRECATED = """\
apiVersion: instancetype.kubevirt.io/v1beta1
kind: VirtualMachineClusterPreference
metadata:
  labels:
    instancetype.kubevirt.io/os-type: linux
    instancetype.kubevirt.io/vendor: kubevirt.io
  name: alpine
spec:
  cpu:
    preferredCPUTopology: preferSockets
"""
WARNS = ("KubeVirt v1.8 warns: PreferredCPUTopology preferSockets is deprecated for removal in a future release, "
         "please use sockets instead")


def test_a_warning_is_shown_in_every_format_and_counts_only_when_asked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("b.yaml").write_text(DEPRECATED, encoding="utf-8")
    where = "VirtualMachineClusterPreference alpine $.spec.cpu.preferredCPUTopology"
    text = CliRunner().invoke(main, ["validate", "--kubevirt", "v1.8", "b.yaml"])
    assert (text.exit_code, text.output.splitlines()) == (0, [
        f"b.yaml:10:27: warning: {where}: {WARNS} [webhook-cpu-topology]",
        "no problems in 1 document; 1 warning in 1 of them, not counted"])
    report = CliRunner().invoke(main, ["--format", "json", "validate", "--kubevirt", "v1.8", "b.yaml"])
    assert report.exit_code == 0
    assert [(r["severity"], r["rule"], r["message"]) for r in json.loads(report.output)] == [
        ("warning", "webhook-cpu-topology", WARNS)]
    github = CliRunner().invoke(main, ["--format", "github", "validate", "--kubevirt", "v1.8", "b.yaml"])
    assert github.exit_code == 0
    assert github.output.splitlines()[0] == (
        f"::warning file=b.yaml,line=10,col=27,title=webhook-cpu-topology::{where}: {WARNS}")
    strict = CliRunner().invoke(main, ["validate", "--kubevirt", "v1.8", "--warnings-as-errors", "b.yaml"])
    assert (strict.exit_code, strict.output.splitlines()) == (1, [
        f"b.yaml:10:27: error: {where}: {WARNS} [webhook-cpu-topology]", "1 problem in 1 of 1 document"])
    older = CliRunner().invoke(main, ["validate", "--kubevirt", "v1.3", "b.yaml"])  # v1.3 had no such warning
    assert (older.exit_code, older.output) == (0, "no problems in 1 document\n")


def test_a_build_reports_its_warnings_and_writes(tmp_path):
    catalog = copy_catalog(tmp_path / "catalog")
    trait = catalog / "preferences" / "traits" / "cpu-topology-sockets.yaml"
    trait.write_text(trait.read_text(encoding="utf-8").replace("preferredCPUTopology: sockets",
                                                               "preferredCPUTopology: preferSockets"),
                     encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "--catalog", str(catalog), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "CHECKSUMS.sha256").is_file()
    warned = [line for line in result.stdout.splitlines() if line.split(": ")[1:2] == ["warning"]]
    assert warned and all("$.spec.cpu.preferredCPUTopology: KubeVirt v1.9 warns: PreferredCPUTopology preferSockets "
                          "is deprecated for removal in a future release, please use sockets instead" in line
                          and line.endswith("[webhook-cpu-topology]") for line in warned)
