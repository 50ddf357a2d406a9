"""generator/tools/site/data.py: what the catalog page shows, computed from the build.

Quantities read as the labels do (the largest binary unit that divides them), ratios as a
series file writes them; each series, instancetype and preference becomes one record of
the facts a VM owner chooses by (a variant under its base size, badges in words, firmware
and notable settings in words); the sizes of all matrices in one order, smallest first;
the refused pairs keep each message once; the manifest is the VM the verdicts were made on.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import pytest
import yaml

from generator.model import Lifecycle, Size, SizeMatrix
from generator.problems import Location
from generator.tools.site.data import (FEATURE_BADGES, catalog_data, fit_record, instancetype_record,
                                       lifecycle_record, manifest_template, preference_record, quantity, ratio,
                                       retired_record, series_record)
from generator.tools.vmexpand.matrix import PairResult
from tests.helpers import default_build

GIB = 1024**3
SHOWN_APART = ("spec", "labels")


def objects() -> dict[str, Any]:
    return {o.name: o for o in default_build().objects}


def series(name: str) -> Any:
    return next(s for s in default_build().catalog.series if s.name == name)


def without_spec(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key not in SHOWN_APART}


@pytest.mark.parametrize("value, text", [(None, ""), (2 * GIB, "2Gi"), (512 * 1024**2, "512Mi"), (1024**4, "1Ti"),
                                         (1536, "1536"), (2048, "2Ki"), (1000, "1000"), (3 * GIB // 2, "1536Mi"),
                                         (0, "0")])
def test_a_quantity_reads_in_the_largest_unit_that_divides_it(value: int | None, text: str):
    assert quantity(value) == text


def test_a_ratio_reads_as_a_series_file_writes_it():
    assert (ratio(Fraction(4)), ratio(Fraction(3, 2)), ratio(Fraction(8, 1))) == ("1:4", "1:1.5", "1:8")


def test_a_variant_is_placed_under_its_base_size():
    record = instancetype_record(objects()["cx1.large1gi"], series("cx1"))
    assert without_spec(record) == {
        "name": "cx1.large1gi", "series": "cx1", "size": "large", "variant": "1gi", "cpu": 2, "memory": 4 * GIB,
        "memoryText": "4Gi", "deprecated": False, "lifecycle": None,
        "kinds": ["VirtualMachineClusterInstancetype", "VirtualMachineInstancetype"], "kubevirt": "v1.3"}
    assert record["spec"] == objects()["cx1.large1gi"].spec


def test_without_its_series_a_size_is_its_own_base():
    record = instancetype_record(objects()["cx1.large1gi"], None)
    assert (record["size"], record["variant"]) == ("large1gi", "")


def test_a_preference_record_says_its_firmware_buses_and_notable_settings_in_words():
    assert without_spec(preference_record(objects()["windows.11"])) == {
        "name": "windows.11", "family": "windows", "displayName": "Microsoft Windows 11", "osType": "windows",
        "cpu": 2, "memory": 4 * GIB, "memoryText": "4Gi", "architecture": "", "firmware": "EFI, Secure Boot",
        "diskBus": "sata", "networkBus": "e1000e",
        "notable": ["CPU topology: cores", "persistent TPM", "persistent EFI variables", "Hyper-V enlightenments",
                    "SMM", "tablet input device", "3600 s shutdown grace period"],
        "deprecated": False, "lifecycle": None,
        "kinds": ["VirtualMachineClusterPreference", "VirtualMachinePreference"], "kubevirt": "v1.4"}
    fedora = preference_record(objects()["fedora"])
    assert (fedora["architecture"], fedora["notable"]) == ("amd64", ["SMM", "virtio RNG"])


def test_badges_name_the_features_in_order_and_shared_cpus_first():
    assert [text for _, text in FEATURE_BADGES][:3] == ["Dedicated CPUs", "Isolated emulator thread", "NUMA"]

    def badges(name: str) -> list[str]:
        return series_record(series(name), [o for o in default_build().objects
                                            if o.facts.get("series") == name])["badges"]

    assert badges("cx1") == ["Dedicated CPUs", "Isolated emulator thread", "NUMA", "Hugepages 2Mi or 1Gi",
                             "One socket per vCPU at most"]
    assert badges("u1") == ["Shared (burstable) CPUs"]
    assert badges("o1") == ["Shared (burstable) CPUs", "Memory overcommit 50%"]
    assert badges("m1") == ["Shared (burstable) CPUs", "Hugepages 2Mi or 1Gi"]


def test_a_series_record_holds_its_words_and_ratio():
    record = series_record(series("u1"), [])
    assert {k: record[k] for k in ("name", "prefix", "class", "displayName", "ratio", "deprecated",
                                   "deprecatedSince", "replacement")} == {
        "name": "u1", "prefix": "u", "class": "general.purpose", "displayName": "General Purpose", "ratio": "1:4",
        "deprecated": False, "deprecatedSince": "", "replacement": ""}


def test_a_lifecycle_reads_with_empty_text_for_what_it_lacks():
    assert lifecycle_record(None) is None
    assert lifecycle_record(Lifecycle("preference", "old", "deprecated")) == {
        "since": "", "replacement": "", "chain": [], "current": "", "renamed": False}
    retired = Lifecycle("preference", "centos.8.stream", "retired", "v0.4.0", "centos.stream8",
                        ("centos.stream8", "centos.stream9"), "centos.stream9", renamed=True)
    assert retired_record(retired) == {
        "name": "centos.8.stream", "family": "preference", "since": "v0.4.0", "replacement": "centos.stream8",
        "chain": ["centos.stream8", "centos.stream9"], "current": "centos.stream9", "renamed": True}


def test_refused_pairs_keep_each_message_once_by_preference():
    results = [PairResult("a", "p", True), PairResult("b", "p", False, "too small", "cpu"),
               PairResult("c", "q", False, "too small", "cpu"), PairResult("d", "q", False, "arch", "architecture")]
    assert fit_record(results) == {
        "messages": ["too small", "arch"],
        "refused": {"p": {"b": [0, "cpu"]}, "q": {"c": [0, "cpu"], "d": [1, "architecture"]}}}
    assert fit_record([]) == {"messages": [], "refused": {}}


def test_the_manifest_is_the_vm_of_the_verdicts_with_placeholders():
    vm = yaml.safe_load(manifest_template())
    assert vm["metadata"] == {"name": "my-vm"} and vm["spec"]["runStrategy"] == "Always"
    assert vm["spec"]["instancetype"] == {"kind": "VirtualMachineClusterInstancetype", "name": "INSTANCETYPE"}
    assert vm["spec"]["preference"] == {"kind": "VirtualMachineClusterPreference", "name": "PREFERENCE"}
    assert manifest_template().startswith("apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n")


def size_matrix(name: str, *sizes: str) -> SizeMatrix:
    return SizeMatrix(name, tuple(Size(s, 1, None, Location("series/sizes.yaml")) for s in sizes),
                      Location("series/sizes.yaml"))


def test_the_sizes_of_two_matrices_are_merged_in_one_order_smallest_first():
    build = default_build()
    assert catalog_data(build.catalog, build.version, (), [])["sizes"] == [
        "nano", "micro", "small", "medium", "2xmedium", "large", "xlarge", "2xlarge", "4xlarge", "8xlarge"]
    merged = dataclasses.replace(build.catalog, matrices={
        "one": size_matrix("one", "small", "large"), "two": size_matrix("two", "small", "medium", "large", "huge")})
    assert catalog_data(merged, "v1", (), [])["sizes"] == ["small", "medium", "large", "huge"]


def test_the_data_holds_the_series_built_and_names_the_vendor_and_version():
    build = default_build()
    data = catalog_data(build.catalog, "v9.9.9", build.objects, [])
    assert (data["vendor"], data["version"], data["labelPrefix"]) == (
        "kubevirt.io", "v9.9.9", "instancetype.kubevirt.io/")
    assert data["kinds"] == {"instancetype": "VirtualMachineClusterInstancetype",
                             "preference": "VirtualMachineClusterPreference"}
    assert [s["name"] for s in data["series"]] == ["cx1", "d1", "m1", "n1", "o1", "rt1", "u1"]  # no GPU device: no gn1
    assert len(data["instancetypes"]) == 65 and len(data["preferences"]) == 57
    assert catalog_data(build.catalog, "v1", (), [])["series"] == []
