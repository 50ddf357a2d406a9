"""`citgen site` without a browser: the files, their data, determinism, size and refusals.

What the page does with the data once its script runs is checked in a real
browser by tests/test_tools_site_browser.py. Tests that only read the site of the
built-in catalog read the session's (``site_build``, ``site_dir`` in conftest.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from generator.cli import main
from generator.errors import InputError
from generator.pipeline import BuildOptions
from generator.tools.site import site_files
from generator.tools.site.data import quantity, ratio
from generator.tools.vmexpand import expand
from generator.tools.vmexpand.matrix import matrix

from tests.helpers import builtin_name, default_build, snapshot


def site(out: Path, *args: str) -> dict:
    result = CliRunner().invoke(main, ["site", "--out", str(out), *args])
    assert result.exit_code == 0, result.output
    return read_data(out)


def read_data(out: Path) -> dict:
    return json.loads((out / "catalog.json").read_text(encoding="utf-8"))


def test_the_site_is_a_page_its_data_and_their_checksums(site_build):
    out, result = site_build
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == [".citgen-manifest", "CHECKSUMS.sha256", "catalog.json",
                                                     "index.html"]
    assert (out / ".citgen-manifest").read_text() == "citgen site\nCHECKSUMS.sha256\ncatalog.json\nindex.html\n"
    check = subprocess.run(["sha256sum", "--check", "--strict", "CHECKSUMS.sha256"], cwd=out,
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    size = (out / "index.html").stat().st_size
    assert result.output == f"{builtin_name()}: wrote 3 files to {out} (index.html: {size // 1024} KiB)\n"


def test_the_page_for_the_built_in_catalog_is_under_500_kb(site_dir: Path):
    assert (site_dir / "index.html").stat().st_size < 500_000


def test_the_data_holds_every_cluster_object_of_the_build(site_dir: Path):
    data = read_data(site_dir)
    build = default_build()
    assert [it["name"] for it in data["instancetypes"]] == sorted(
        o.name for o in build.objects if o.family == "instancetype")
    assert [p["name"] for p in data["preferences"]] == sorted(
        o.name for o in build.objects if o.family == "preference")
    assert [s["name"] for s in data["series"]] == ["cx1", "d1", "m1", "n1", "o1", "rt1", "u1"]


def test_series_features_are_readable_badges(site_dir: Path):
    series = {s["name"]: s for s in read_data(site_dir)["series"]}
    assert series["cx1"]["badges"] == ["Dedicated CPUs", "Isolated emulator thread", "NUMA", "Hugepages 2Mi or 1Gi",
                                       "One socket per vCPU at most"]
    assert series["o1"]["badges"] == ["Shared (burstable) CPUs", "Memory overcommit 50%"]
    assert series["rt1"]["badges"] == ["Dedicated CPUs", "Isolated emulator thread", "NUMA", "Hugepages 1Gi",
                                       "Realtime"]
    assert (series["m1"]["ratio"], series["u1"]["ratio"], series["cx1"]["class"]) == ("1:8", "1:4",
                                                                                       "compute.exclusive")


def test_a_gpu_build_shows_the_gn_series_with_its_device(tmp_path: Path):
    data = site(tmp_path / "site", "--gpu-device", "nvidia.com/H100", "--gpu-count", "2")
    gn = next(s for s in data["series"] if s["name"] == "gn1")
    assert gn["badges"] == ["Shared (burstable) CPUs", "2 × nvidia.com/H100"]
    assert "gn1.xlarge" in [it["name"] for it in data["instancetypes"]]


def test_variants_are_placed_under_their_base_size(site_dir: Path):
    its = {it["name"]: it for it in read_data(site_dir)["instancetypes"]}
    assert (its["cx1.large1gi"]["size"], its["cx1.large1gi"]["variant"]) == ("large", "1gi")
    assert (its["cx1.large"]["size"], its["cx1.large"]["variant"]) == ("large", "")
    assert (its["u1.2xmedium"]["size"], its["u1.2xmedium"]["variant"]) == ("2xmedium", "")


def test_preferences_show_firmware_buses_and_notable_settings(site_dir: Path):
    prefs = {p["name"]: p for p in read_data(site_dir)["preferences"]}
    windows = prefs["windows.11"]
    assert (windows["family"], windows["firmware"], windows["diskBus"], windows["networkBus"], windows["cpu"],
            windows["memoryText"]) == ("windows", "EFI, Secure Boot", "sata", "e1000e", 2, "4Gi")
    assert windows["notable"] == ["CPU topology: cores", "persistent TPM", "persistent EFI variables",
                                  "Hyper-V enlightenments", "SMM", "tablet input device",
                                  "3600 s shutdown grace period"]
    assert (prefs["debian"]["firmware"], prefs["legacy"]["firmware"], prefs["fedora.arm64"]["architecture"]) == (
        "EFI", "BIOS", "arm64")


def test_each_object_names_the_oldest_kubevirt_that_accepts_it_as_citgen_list_does(site_dir: Path):
    data = read_data(site_dir)
    listed = {}
    for args in (["list"], ["list", "--preferences"]):
        result = CliRunner().invoke(main, [*args, "-o", "json"])
        listed.update({r["name"]: r["kubevirt"] for r in json.loads(result.stdout)})
    shown = {r["name"]: r["kubevirt"] for r in (*data["instancetypes"], *data["preferences"])}
    assert shown == listed
    assert (shown["windows.11.virtio"], shown["fedora.arm64"], shown["cx1.large"]) == ("v1.9", "v1.7", "v1.3")


def test_fit_verdicts_are_those_of_the_matrix(site_dir: Path):
    data = read_data(site_dir)
    docs = [d.data for d in default_build().documents]
    refused = {(r.preference, r.instancetype): r.error for r in matrix(docs, docs) if not r.ok}
    shown = {(pref, it): data["fit"]["messages"][entry[0]]
             for pref, its in data["fit"]["refused"].items() for it, entry in its.items()}
    assert shown == refused
    assert len(shown) == 440


def test_the_manifest_is_the_vm_the_verdicts_were_made_on(site_dir: Path):
    data = read_data(site_dir)
    vm = yaml.safe_load(data["manifest"].replace("INSTANCETYPE", "u1.medium").replace("PREFERENCE", "fedora"))
    objects = {(d.kind, d.name): d.data for d in default_build().documents}
    outcome = expand(vm, objects[("VirtualMachineClusterInstancetype", "u1.medium")],
                     objects[("VirtualMachineClusterPreference", "fedora")])
    assert outcome.ok, outcome.errors
    assert (vm["metadata"]["name"], vm["spec"]["instancetype"], vm["spec"]["preference"]) == (
        "my-vm", {"kind": "VirtualMachineClusterInstancetype", "name": "u1.medium"},
        {"kind": "VirtualMachineClusterPreference", "name": "fedora"})


def test_the_page_names_no_other_host_to_load_from(site_dir: Path):
    html = (site_dir / "index.html").read_text(encoding="utf-8")
    assert re.findall(r'(?:src|href)="(?!#)[^"]*"', html) == []
    assert "default-src 'none'" in html
    assert "@import" not in html and "url(" not in html


def test_the_site_is_byte_identical_across_time_zones_and_locales(tmp_path: Path):
    runs = []
    for name, tz, locale in (("a", "UTC", "C"), ("b", "Pacific/Kiritimati", "C.UTF-8")):  # side by side
        env = {**os.environ, "TZ": tz, "LC_ALL": locale, "PYTHONHASHSEED": str(len(name + tz))}
        runs.append(subprocess.Popen([sys.executable, "-m", "generator.cli", "site", "--out", str(tmp_path / name)],
                                     env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    for run in runs:
        stdout, stderr = run.communicate()
        assert run.returncode == 0, (run.args, stdout, stderr)
    assert snapshot(tmp_path / "a") == snapshot(tmp_path / "b")


def test_quantities_and_ratios_read_as_the_catalog_writes_them():
    assert [quantity(v) for v in (512 * 1024**2, 2 * 1024**3, 1536 * 1024**2, 1000)] == ["512Mi", "2Gi",
                                                                                       "1536Mi", "1000"]
    assert (ratio(Fraction(4)), ratio(Fraction(1, 2))) == ("1:4", "1:0.5")


def test_a_bad_option_is_refused_and_nothing_is_written(tmp_path: Path):
    result = CliRunner().invoke(main, ["site", "--out", str(tmp_path / "site"), "--gpu-count", "17",
                                       "--gpu-device", "nvidia.com/H100"])
    assert result.exit_code == 2
    assert result.stderr == ("--gpu-count: error: expected 1 to 16 GPUs, got 17 [input]\n"
                             "citgen: 1 problem, nothing written\n")
    assert not (tmp_path / "site").exists()


def test_an_existing_directory_that_is_not_a_site_is_not_replaced(tmp_path: Path):
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "notes.txt").write_text("mine\n")
    result = CliRunner().invoke(main, ["site", "--out", str(tmp_path / "site")])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == (
        f"{tmp_path / 'site'}: error: refusing to replace a directory that is not an earlier citgen output "
        "(it has no CHECKSUMS.sha256); choose an empty or new --out [input]")
    assert snapshot(tmp_path / "site") == {"notes.txt": b"mine\n"}


def test_the_data_lists_the_retired_names_and_what_replaces_them(site_dir: Path):
    retired = {r["name"]: r for r in read_data(site_dir)["retired"]}
    assert retired["centos.8.stream"] == {"name": "centos.8.stream", "family": "preference", "since": "v0.4.0",
                                          "replacement": "centos.stream8", "chain": ["centos.stream8",
                                                                                     "centos.stream9"],
                                          "current": "centos.stream9", "renamed": True}
    assert retired["server.micro"] == {"name": "server.micro", "family": "instancetype", "since": "v0.4.0",
                                       "replacement": "u1.nano", "chain": ["u1.nano"], "current": "u1.nano",
                                       "renamed": False}
    assert len(retired) == 17
    data = read_data(site_dir)
    assert {it["lifecycle"] for it in data["instancetypes"]} | {p["lifecycle"] for p in data["preferences"]} == {None}


def test_deprecated_objects_carry_since_and_replacement_in_the_data(tmp_path: Path):
    (tmp_path / "catalog").mkdir()
    (tmp_path / "catalog" / "catalog.yaml").write_text("extends: builtin\noverlays: [o.yaml]\n")
    (tmp_path / "catalog" / "o.yaml").write_text(
        "series: {change: {o1: {deprecated: {since: v1.9.0, replacement: u1}}}}\n"
        "preferences: {change: {alpine: {deprecated: {replacement: debian}}}}\n")
    data = site(tmp_path / "site", "--catalog", str(tmp_path / "catalog"))
    series = {s["name"]: s for s in data["series"]}
    assert (series["o1"]["deprecated"], series["o1"]["deprecatedSince"], series["o1"]["replacement"]) == (
        True, "v1.9.0", "u1")
    assert (series["u1"]["deprecatedSince"], series["u1"]["replacement"]) == ("", "")
    its = {it["name"]: it for it in data["instancetypes"]}
    assert its["o1.large"]["lifecycle"] == {"since": "v1.9.0", "replacement": "u1.large", "chain": ["u1.large"],
                                            "current": "u1.large", "renamed": False}
    assert its["u1.large"]["lifecycle"] is None
    prefs = {p["name"]: p for p in data["preferences"]}
    assert prefs["alpine"]["lifecycle"] == {"since": "", "replacement": "debian", "chain": ["debian"],
                                            "current": "debian", "renamed": False}


def test_a_deprecated_object_is_not_replaced_by_a_retired_name_on_the_page_either(tmp_path: Path):
    (tmp_path / "catalog").mkdir()
    (tmp_path / "catalog" / "catalog.yaml").write_text("extends: builtin\noverlays: [o.yaml]\n")
    (tmp_path / "catalog" / "o.yaml").write_text(
        "preferences: {change: {alpine: {deprecated: {replacement: centos.8.stream}}}}\n")
    result = CliRunner().invoke(main, ["site", "--out", str(tmp_path / "site"), "--catalog",
                                       str(tmp_path / "catalog")])
    assert result.exit_code == 2
    assert "replacement 'centos.8.stream' of 'alpine' was retired in v0.4.0" in result.output
    assert not (tmp_path / "site").exists()


def small_catalog(root: Path, series: str = "{keep: [u]}") -> Path:
    """The built-in catalog narrowed to u1.small, u1.medium and fedora: a site built in a tenth of a second."""
    root.mkdir()
    (root / "catalog.yaml").write_text("extends: builtin\noverlays: [o.yaml]\n")
    (root / "o.yaml").write_text(
        f"series: {series}\nsizes: {{keep: [small, medium]}}\npreferences: {{keep: [fedora]}}\n")
    return root


def test_the_site_files_are_the_page_its_data_and_their_checksums(tmp_path: Path):
    """site_files itself, called in the test: the session's site_build is made before mutmut's mutants."""
    files = site_files(BuildOptions(catalog=small_catalog(tmp_path / "catalog"), version="v1.2.3"))
    assert list(files) == ["index.html", "catalog.json", "CHECKSUMS.sha256"]
    text = files["catalog.json"].decode("ascii")  # only ASCII, keys sorted, one space of indent, a final newline
    data = json.loads(text)
    assert text.startswith(
        '{\n "fit": {\n  "messages": [],\n  "refused": {}\n },\n "instancetypes": [\n  {\n   "cpu": 1,')
    assert text.endswith('\n "vendor": "kubevirt.io",\n "version": "v1.2.3"\n}\n')
    assert list(data) == ["fit", "instancetypes", "kinds", "labelPrefix", "manifest", "preferences", "retired",
                          "series", "sizes", "vendor", "version"]
    assert ([it["name"] for it in data["instancetypes"]], [p["name"] for p in data["preferences"]]) == (
        ["u1.medium", "u1.small"], ["fedora"])
    assert files["index.html"].startswith(b"<!DOCTYPE html>") and b"v1.2.3" in files["index.html"]
    assert files["CHECKSUMS.sha256"].decode() == "".join(
        f"{hashlib.sha256(files[name]).hexdigest()}  {name}\n" for name in ("catalog.json", "index.html"))


def test_a_catalog_whose_objects_fail_validation_gets_no_site_files(tmp_path: Path):
    broken = "{keep: [u], change: {u1: {spec: {cpu: {dedicatedCpuPlacement: true}}}}}"
    root = small_catalog(tmp_path / "catalog", broken)
    with pytest.raises(InputError) as refused:
        site_files(BuildOptions(catalog=root))
    assert str(refused.value) == (
        f"{root / 'o.yaml'}:1:48: series.change.u1.spec.cpu.dedicatedCpuPlacement: makes instancetype 'u1.medium' "
        "invalid (and 1 more: u1.small): "
        "$.spec.cpu.dedicatedCpuPlacement: unknown field 'dedicatedCpuPlacement'; did you mean "
        "'dedicatedCPUPlacement'? [schema]")


# --------------------------------------------------------------------------- each preference's OS (issue 42)


def test_without_a_database_the_page_shows_what_the_claims_say_and_nothing_of_a_database(site_dir: Path):
    data = read_data(site_dir)
    assert "osinfo" not in data
    shown = {p["name"]: p["os"] for p in data["preferences"]}
    assert shown["rhel.9"] == {"shortIds": [], "line": "rhel9"}
    assert shown["windows.2k12"] == {"shortIds": ["win2k12", "win2k12r2"], "line": None}


def test_with_a_database_each_preference_shows_its_os_and_its_minimum_and_recommended_resources():
    from generator.tools.site.data import os_record
    from tests.conftest import SHARED, shared_file
    from tests.helpers import read_debian_osinfo

    db, _ = read_debian_osinfo(shared_file(SHARED / "reference" / "osinfo-db"))
    objects = {o.name: o for o in default_build().objects if o.family == "preference"}
    assert os_record(objects["rhel.9"], db) == {
        "shortIds": ["rhel9.0", "rhel9.1"], "line": "rhel9", "name": "Red Hat Enterprise Linux 9.1",  # the newest
        "database": "20221203", "arch": "x86_64",
        "minimum": {"cpu": 1, "memory": 1536 << 20, "memoryText": "1536Mi"},
        "recommended": {"cpu": None, "memory": 1536 << 20, "memoryText": "1536Mi"}}
    assert os_record(objects["windows.2k12"], db)["name"] == "Microsoft Windows Server 2012"  # the first named
    assert os_record(objects["fedora.arm64"], db)["arch"] == "aarch64"  # the preference's own architecture
