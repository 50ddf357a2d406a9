"""What `citgen build` writes: fresh bundles, checksums, release names, determinism."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.cli.build import adjusted_lines, built
from generator.expand.kubevirt import Adjustment
from generator.expand.retain import retained_note
from generator.model import label
from generator.problems import Location, Problem
from generator.schemas.releases import Release
from generator.write import MANIFEST, manifest
from tests.helpers import REPO, builtin_name, child_env, default_build, read_yaml_stream

BUNDLES = REPO / "bundles"


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_committed_bundles_equal_a_fresh_build():
    fresh = dict(default_build().files)
    committed = tree(BUNDLES)
    # what the build wrote, listed beside it: only what it lists may a later build replace (write.py)
    assert committed.pop(MANIFEST) == manifest("build", fresh)
    stale = sorted(n for n in set(fresh) | set(committed) if fresh.get(n) != committed.get(n))
    shown = ", ".join(stale[:5]) + (f" and {len(stale) - 5} more" if len(stale) > 5 else "")
    assert not stale, f"bundles/ differs from a fresh build in {shown}: run `make build` and commit bundles/"


def test_build_writes_the_five_bundles_and_their_checksums(tmp_path):
    result = CliRunner().invoke(main, ["build", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    names = sorted(tree(tmp_path / "out"))
    bundles = [n for n in names if n.endswith("-bundle.yaml")]
    assert bundles == [
        "common-clusterinstancetypes-bundle.yaml",
        "common-clusterpreferences-bundle.yaml",
        "common-instancetypes-all-bundle.yaml",
        "common-instancetypes-bundle.yaml",
        "common-preferences-bundle.yaml",
    ]
    listed = (tmp_path / "out" / "CHECKSUMS.sha256").read_text().splitlines()
    assert [line.split("  ")[1] for line in listed] == bundles
    for line in listed:
        digest, name = line.split("  ")
        assert hashlib.sha256((tmp_path / "out" / name).read_bytes()).hexdigest() == digest


def test_cluster_and_namespaced_objects_differ_only_in_kind(tmp_path):
    docs = [d.data for d in default_build().documents]
    cluster = {d["metadata"]["name"]: d for d in docs if d["kind"] == "VirtualMachineClusterInstancetype"}
    namespaced = {d["metadata"]["name"]: d for d in docs if d["kind"] == "VirtualMachineInstancetype"}
    assert cluster.keys() == namespaced.keys()
    for name, doc in cluster.items():
        assert {**doc, "kind": "VirtualMachineInstancetype"} == namespaced[name]


@pytest.mark.skipif(shutil.which("sha256sum") is None, reason="needs coreutils' sha256sum")
def test_release_writes_versioned_names_that_pass_sha256sum_strict(tmp_path):
    out = tmp_path / "release"
    result = CliRunner().invoke(main, ["build", "--out", str(out), "--release", "v1.8.0"])
    assert result.exit_code == 0, result.output
    for kind in ("clusterinstancetypes", "instancetypes", "clusterpreferences", "preferences", "instancetypes-all"):
        assert (out / f"common-{kind}-bundle-v1.8.0.yaml").is_file()
    check = subprocess.run(["sha256sum", "--check", "--strict", "CHECKSUMS.sha256"], cwd=out,
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.count(": OK") == 10
    stamped = read_yaml_stream(out / "common-clusterinstancetypes-bundle-v1.8.0.yaml")
    assert {d["metadata"]["labels"][label("common-instancetypes-version")] for d in stamped} == {"v1.8.0"}


def test_version_option_stamps_the_version_label(tmp_path):
    result = CliRunner().invoke(main, ["build", "--out", str(tmp_path), "--version", "v9.9.9"])
    assert result.exit_code == 0, result.output
    docs = read_yaml_stream(tmp_path / "common-instancetypes-all-bundle.yaml")
    assert {d["metadata"]["labels"][label("common-instancetypes-version")] for d in docs} == {"v9.9.9"}


def test_a_bad_release_name_is_refused_and_nothing_is_written(tmp_path):
    result = CliRunner().invoke(main, ["build", "--out", str(tmp_path / "out"), "--release", "1.8"])
    assert result.exit_code == 2
    assert "--release: error: expected a release such as v1.2.3, got '1.8'" in result.output
    assert not (tmp_path / "out").exists()


def test_gpu_device_and_count_are_parameters(tmp_path):
    result = CliRunner().invoke(main, ["build", "--out", str(tmp_path), "--gpu-device",
                                       "nvidia.com/H100", "--gpu-count", "2"])
    assert result.exit_code == 0, result.output
    docs = read_yaml_stream(tmp_path / "common-clusterinstancetypes-bundle.yaml")
    gn = [d for d in docs if d["metadata"]["name"].startswith("gn1.")]
    assert len(gn) == 4
    for doc in gn:
        assert doc["spec"]["gpus"] == [
            {"name": "gpu1", "deviceName": "nvidia.com/H100"},
            {"name": "gpu2", "deviceName": "nvidia.com/H100"},
        ]


def _build_in_subprocess(out: Path, env: dict[str, str]) -> dict[str, bytes]:
    subprocess.run([sys.executable, "-m", "generator.cli", "build", "--out", str(out)],
                   cwd=REPO, env=child_env(**env), check=True, capture_output=True)
    return tree(out)


def test_two_builds_are_byte_identical_across_time_zones_locales_and_hash_seeds(tmp_path):
    first = _build_in_subprocess(tmp_path / "a", {"TZ": "UTC", "LC_ALL": "C", "PYTHONHASHSEED": "0"})
    second = _build_in_subprocess(tmp_path / "b", {"TZ": "Asia/Kolkata", "LC_ALL": "C.UTF-8",
                                                   "PYTHONHASHSEED": "4242", "LANG": "tr_TR.UTF-8"})
    assert first and first == second


# --------------------------------------------------------------------------- what a build says (cli/build.py built)


KINDS = ("65 VirtualMachineClusterInstancetype, 57 VirtualMachineClusterPreference, 65 VirtualMachineInstancetype, "
         "57 VirtualMachinePreference")
GN_LEFT_OUT = ("GN series left out: no GPU device configured; pass --gpu-device nvidia.com/<model> or set "
               "parameters.gpu.deviceName")


def test_a_build_says_its_files_its_objects_per_kind_and_the_series_it_left_out():
    build = default_build()
    said = built(build, Path("out"))
    assert (said.command, said.outputs, said.notes, said.warnings, said.newer_rule_findings) == (
        "build", (f"{builtin_name()}: wrote 111 files to out ({KINDS}); {GN_LEFT_OUT}",), (), (), ())
    assert dict(said.counts) == {"VirtualMachineClusterInstancetype": 65, "VirtualMachineClusterPreference": 57,
                                 "VirtualMachineInstancetype": 65, "VirtualMachinePreference": 57}
    assert said.data == {"out": "out", "catalog": {"path": None, "builtIn": True, "version": build.version},
                         "files": sorted(build.files), "leftOut": ["gn"], "kubevirt": "v1.9", "adjusted": []}
    assert built(replace(build, left_out=()), Path("out")).outputs == (
        f"{builtin_name()}: wrote 111 files to out ({KINDS})",)


def test_findings_on_retained_objects_and_warnings_are_reported_with_one_note():
    old = Problem(Location("b.yaml", doc=0), "the size label is missing", "labels-match-spec", since="v1.1.0",
                  older_release="v1.0.0")
    warned = Problem(Location("b.yaml", doc=1), "preferCores is deprecated", "webhook-cpu-topology",
                     severity="warning")
    said = built(replace(default_build(), newer_rule_findings=(old,), warnings=(warned,)), Path("out"))
    assert (said.newer_rule_findings, said.warnings, said.notes) == ((old,), (warned,),
                                                                     (retained_note((old,), Path("out")),))
    assert said.exit_code == 0


def test_a_build_for_an_older_kubevirt_lists_each_change_under_a_heading_counting_objects():
    v1_0 = Release(1, 0)
    efi = Adjustment("preference", "windows.11", "spec.firmware.preferredEfi", "left out", Release(1, 4), v1_0)
    video = Adjustment("preference", "windows.11", "spec.devices.preferredVideoType", "respelt", Release(1, 9), v1_0,
                       "spec.devices.preferredAutoattachGraphicsDevice: true")
    secex = Adjustment("preference", "fedora.s390x.secex", "spec.preferredLaunchSecurity", "object left out",
                       Release(1, 9), v1_0)
    changed = replace(default_build(), kubevirt=v1_0, adjustments=(efi, video, secex))
    said = built(changed, Path("out"))
    assert said.outputs[1:] == adjusted_lines(changed) == (
        "for KubeVirt v1.0: 2 objects changed, 1 of them left out (each kind of both):",
        "  preference windows.11: spec.firmware.preferredEfi (KubeVirt v1.4) left out",
        "  preference windows.11: spec.devices.preferredVideoType (KubeVirt v1.9) written as "
        "spec.devices.preferredAutoattachGraphicsDevice: true",
        "  preference fedora.s390x.secex: spec.preferredLaunchSecurity (KubeVirt v1.9) object left out")
    assert (said.data["kubevirt"], said.data["adjusted"]) == ("v1.0", [a.record() for a in (efi, video, secex)])
    assert adjusted_lines(replace(changed, adjustments=(efi,))) == (
        "for KubeVirt v1.0: 1 object changed (each kind of both):",
        "  preference windows.11: spec.firmware.preferredEfi (KubeVirt v1.4) left out")
