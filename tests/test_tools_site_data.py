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

from generator.model import CatalogObject, Deprecation, Lifecycle, Size, SizeMatrix, Variant
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


def made(family: str, name: str, spec: dict[str, Any] | None = None, facts: dict[str, Any] | None = None,
         labels: dict[str, str] | None = None, annotations: dict[str, str] | None = None) -> CatalogObject:
    """An object made for the test, in the group its name starts with."""
    return CatalogObject(family, name, name.partition(".")[0], labels or {}, annotations or {}, spec or {},
                         Location("made.yaml"), facts or {})


def without_spec(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key not in SHOWN_APART}


@pytest.mark.parametrize("value, text", [(None, ""), (2 * GIB, "2Gi"), (512 * 1024**2, "512Mi"), (1024**4, "1Ti"),
                                         (1536, "1536"), (2048, "2Ki"), (1000, "1000"), (3 * GIB // 2, "1536Mi"),
                                         (0, "0")])
def test_a_quantity_reads_in_the_largest_unit_that_divides_it(value: int | None, text: str):
    assert quantity(value) == text


def test_a_ratio_reads_as_a_series_file_writes_it():
    assert (ratio(Fraction(4)), ratio(Fraction(3, 2)), ratio(Fraction(8, 1))) == ("1:4", "1:1.5", "1:8")
    assert ratio(Fraction(2**20)) == "1:1048576"  # a whole ratio in whole digits, however large


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
        "kinds": ["VirtualMachineClusterPreference", "VirtualMachinePreference"], "kubevirt": "v1.4",
        "os": {"line": None, "shortIds": ["win11"]}}
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
    # a refusal without a message shares the empty one
    assert fit_record([PairResult("a", "p", False, None, "cpu"), PairResult("b", "p", False, "", "memory")]) == {
        "messages": [""], "refused": {"p": {"a": [0, "cpu"], "b": [0, "memory"]}}}


def test_an_object_no_known_kubevirt_accepts_names_none():
    unknown = {"noSuchField": 1}
    assert instancetype_record(made("instancetype", "u1.new", unknown), None)["kubevirt"] == ""
    assert preference_record(made("preference", "new", unknown))["kubevirt"] == ""


def test_the_manifest_is_the_vm_of_the_verdicts_with_placeholders():
    vm = yaml.safe_load(manifest_template())
    assert vm["metadata"] == {"name": "my-vm"} and vm["spec"]["runStrategy"] == "Always"
    assert vm["spec"]["instancetype"] == {"kind": "VirtualMachineClusterInstancetype", "name": "INSTANCETYPE"}
    assert vm["spec"]["preference"] == {"kind": "VirtualMachineClusterPreference", "name": "PREFERENCE"}
    assert manifest_template() == (  # in block style, each mapping's keys in the order the VM is made
        "apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: my-vm\nspec:\n"
        "  instancetype:\n    kind: VirtualMachineClusterInstancetype\n    name: INSTANCETYPE\n"
        "  preference:\n    kind: VirtualMachineClusterPreference\n    name: PREFERENCE\n"
        "  runStrategy: Always\n  template:\n    spec:\n      domain:\n        devices: {}\n"
        "      volumes:\n      - name: containerdisk\n        containerDisk:\n"
        "          image: quay.io/containerdisks/fedora:latest\n"
        "      - name: cloudinitdisk\n        cloudInitNoCloud:\n          userData: '#cloud-config\n\n            '\n")


def size_matrix(name: str, *sizes: str) -> SizeMatrix:
    return SizeMatrix(name, tuple(Size(s, 1, None, Location("series/sizes.yaml")) for s in sizes),
                      Location("series/sizes.yaml"))


def test_the_sizes_of_two_matrices_are_merged_in_one_order_smallest_first():
    build = default_build()
    assert catalog_data(build.catalog, build.version, (), [])["sizes"] == [
        "nano", "micro", "small", "medium", "2xmedium", "large", "xlarge", "2xlarge", "4xlarge", "8xlarge"]
    merged = dataclasses.replace(build.catalog, matrices={
        "one": size_matrix("one", "small", "large"), "two": size_matrix("two", "small", "medium", "large", "huge"),
        "three": size_matrix("three", "nano", "large", "xlarge")})  # a new smallest size goes first
    assert catalog_data(merged, "v1", (), [])["sizes"] == ["nano", "small", "medium", "large", "xlarge", "huge"]


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


@pytest.mark.parametrize("firmware, text", [
    (None, "BIOS"), ({}, "BIOS"), ({"preferredEfi": {}}, "EFI, Secure Boot"),
    ({"preferredEfi": {"secureBoot": True}}, "EFI, Secure Boot"), ({"preferredEfi": {"secureBoot": False}}, "EFI"),
    ({"preferredUseEfi": True}, "EFI"), ({"preferredUseEfi": True, "preferredUseSecureBoot": True}, "EFI, Secure Boot"),
    ({"preferredUseEfi": False, "preferredUseSecureBoot": True}, "BIOS")])
def test_the_firmware_reads_bios_efi_or_efi_with_secure_boot(firmware: Any, text: str):
    spec = {} if firmware is None else {"firmware": firmware}
    assert preference_record(made("preference", "p", spec))["firmware"] == text


def test_every_notable_setting_is_said_in_words_in_one_order():
    spec = {"cpu": {"preferredCPUTopology": "spread", "spreadOptions": {"ratio": 2}},
            "devices": {"preferredTPM": {}, "preferredRng": {}, "preferredAutoattachInputDevice": True,
                        "preferredVirtioTransitional": True, "preferredNetworkInterfaceMultiQueue": True,
                        "preferredDiskDedicatedIoThread": True},
            "firmware": {"preferredEfi": {"persistent": True}},
            "features": {"preferredHyperv": {}, "preferredSmm": {}},
            "preferredLaunchSecurity": {}, "preferredTerminationGracePeriodSeconds": 0}
    assert preference_record(made("preference", "p", spec))["notable"] == [
        "CPU topology: spread (ratio 2)", "TPM", "persistent EFI variables", "Hyper-V enlightenments", "SMM",
        "virtio RNG", "tablet input device", "virtio transitional devices", "network multi-queue",
        "dedicated disk I/O thread", "IBM Secure Execution", "0 s shutdown grace period"]
    assert preference_record(made("preference", "p", {}))["notable"] == []
    off = {"cpu": {"preferredCPUTopology": "sockets"}, "firmware": {"preferredUseEfi": True},
           "devices": {"preferredTPM": {"persistent": False}, "preferredAutoattachInputDevice": False,
                       "preferredVirtioTransitional": False, "preferredNetworkInterfaceMultiQueue": False,
                       "preferredDiskDedicatedIoThread": False}}
    assert preference_record(made("preference", "p", off))["notable"] == ["CPU topology: sockets", "TPM"]


def test_a_preference_without_facts_reads_with_empty_text():
    bare = made("preference", "plain.one", annotations={"openshift.io/display-name": "Plain"},
                spec={"preferredArchitecture": "arm64"})
    assert without_spec(preference_record(bare)) == {
        "name": "plain.one", "family": "plain", "displayName": "Plain", "osType": "", "cpu": None, "memory": None,
        "memoryText": "", "architecture": "arm64", "firmware": "BIOS", "diskBus": "", "networkBus": "", "notable": [],
        "deprecated": False, "lifecycle": None,
        "kinds": ["VirtualMachineClusterPreference", "VirtualMachinePreference"],
        "kubevirt": "v1.7", "os": None}
    assert (preference_record(made("preference", "plain"))["displayName"],
            preference_record(made("preference", "plain"))["architecture"]) == ("", "")
    facts = made("preference", "plain", {"preferredArchitecture": "arm64"},
                 facts={"displayName": "From facts", "architecture": "s390x"},
                 annotations={"openshift.io/display-name": "From annotation"})
    assert (preference_record(facts)["displayName"], preference_record(facts)["architecture"]) == (
        "From facts", "s390x")  # the facts before the annotation and the spec


def test_a_size_is_split_at_the_variant_whose_base_is_a_size_of_the_series():
    # "gi" ends "large1gi" too, but "large1" is no size of the series: the "1gi" variant is the one
    two = dataclasses.replace(series("u1"), sizes=("small", "large"), variants=(
        Variant("gi", {}, Location("made.yaml")), Variant("1gi", {}, Location("made.yaml"))))

    def split(name: str, **labels: str) -> tuple[str, str, str]:
        record = instancetype_record(made("instancetype", name, facts={"cpu": 2}, labels=labels), two)
        return record["series"], record["size"], record["variant"]

    assert [split(n) for n in ("u1.large1gi", "u1.largegi", "u1.medium1gi", "u1.small")] == [
        ("u1", "large", "1gi"), ("u1", "large", "gi"), ("u1", "medium1gi", ""), ("u1", "small", "")]
    assert split("u1.odd", **{"instancetype.kubevirt.io/size": "small1gi"}) == ("u1", "small", "1gi")  # the label
    assert split("u1.small.1gi") == ("u1", "small.1gi", "")  # the series before the first dot, the size after it


def test_an_instancetype_labelled_deprecated_is_shown_deprecated_in_the_series_of_its_facts():
    record = instancetype_record(made("instancetype", "u1.old", facts={"series": "x9", "cpu": 3, "memory": 3 * GIB},
                                      labels={"instancetype.kubevirt.io/deprecated": "true"}), None)
    assert (record["series"], record["deprecated"], record["cpu"], record["memoryText"]) == ("x9", True, 3, "3Gi")
    not_quite = made("instancetype", "u1.old", labels={"instancetype.kubevirt.io/deprecated": "True"})
    assert instancetype_record(not_quite, None)["deprecated"] is False


def test_badges_name_every_kind_of_feature_of_a_made_series():
    made_series = dataclasses.replace(series("u1"), variants=(
        Variant("a", {"hugepages": "2Mi"}, Location("made.yaml")), Variant("b", {"hugepages": "1Gi"},
                                                                          Location("made.yaml")),
        Variant("c", {}, Location("made.yaml"))), features={
        "realtime": True, "gpus": True, "numa": False, "zeta": 3, "alpha": "x", "off": 0, "hugepages": "2Mi",
        "overcommitPercent": 0, "isolateEmulatorThread": "yes"})

    def badges(*instancetypes: CatalogObject) -> list[str]:
        return series_record(made_series, list(instancetypes))["badges"]

    # unknown features by name after the known ones; a hugepages size once; a GPU count of no device "GPUs"
    assert badges() == ["Shared (burstable) CPUs", "Hugepages 2Mi or 1Gi", "Realtime", "GPUs", "alpha: x", "zeta: 3"]
    # the first instancetype with GPUs names the device, by the first GPU's name ("GPU" without one)
    assert badges(made("instancetype", "u1.a", spec={"gpus": []}),
                  made("instancetype", "u1.b", spec={"gpus": [{"deviceName": "nv/H"}]}),
                  made("instancetype", "u1.c", spec={"gpus": [{"deviceName": "q"}, {}]}))[3] == "1 × nv/H"
    assert badges(made("instancetype", "u1.c", spec={"gpus": [{}, {"deviceName": "q"}]}))[3] == "2 × GPU"


def test_a_deprecated_series_says_since_when_and_its_replacement():
    def words(**changes: Any) -> tuple[bool, str, str]:
        record = series_record(dataclasses.replace(series("u1"), **changes), [])
        return record["deprecated"], record["deprecatedSince"], record["replacement"]

    assert words(deprecated=True, deprecation=Deprecation(Location("made.yaml"), "v1.2", "u2")) == (True, "v1.2", "u2")
    assert words(deprecated=True, deprecation=Deprecation(Location("made.yaml"))) == (True, "", "")
    assert words(deprecated=True, deprecation=None) == (True, "", "")
    assert words(deprecated=False, deprecation=Deprecation(Location("made.yaml"), "v1.2", "u2")) == (False, "", "")
    assert series_record(series("u1"), [])["description"].startswith("Shared, burstable vCPUs")


def deprecated(obj: CatalogObject, since: str, replacement: str) -> CatalogObject:
    return dataclasses.replace(obj, labels={**obj.labels, "instancetype.kubevirt.io/deprecated": "true"}, annotations={
        **obj.annotations, "instancetype.kubevirt.io/deprecated-since": since,
        "instancetype.kubevirt.io/deprecated-replacement": replacement})


def test_the_data_of_a_small_catalog():
    """Three series of which two are built (u1 with GPUs), three instancetypes (one a variant, one
    deprecated), two preferences (one deprecated), three retired names, one refused pair."""
    build = default_build()
    catalog = dataclasses.replace(
        build.catalog, series=tuple(dataclasses.replace(s, features={"gpus": True}) if s.name == "u1" else s
                                    for s in build.catalog.series if s.name in ("u1", "o1", "cx1")),
        retirements={k: v for k, v in build.catalog.retirements.items()
                     if k[1] in ("server.small", "centos.8.stream", "centos.stream8")},
        matrices={"one": size_matrix("one", "small", "large"), "two": size_matrix("two", "small", "medium")})
    held = objects()
    cx1 = dataclasses.replace(held["cx1.large1gi"], spec={**held["cx1.large1gi"].spec,
                                                          "gpus": [{"name": "g", "deviceName": "nvidia.com/CX"}]})
    u1 = dataclasses.replace(held["u1.small"], spec={**held["u1.small"].spec,
                                                     "gpus": [{"name": "g", "deviceName": "nvidia.com/U"}]})
    chosen = [u1, cx1, deprecated(held["u1.medium"], "v1.1", "u1.small"),
              held["fedora"], deprecated(held["centos.stream9"], "v1.2", "fedora")]
    data = catalog_data(catalog, "v2", chosen, [PairResult("u1.small", "fedora", True),
                                                PairResult("u1.small", "centos.stream9", False, "no", "cpu")])
    assert data["manifest"] == manifest_template()
    assert {key: data[key] for key in ("vendor", "version", "labelPrefix", "kinds", "sizes", "fit")} == {
        "vendor": "kubevirt.io", "version": "v2", "labelPrefix": "instancetype.kubevirt.io/",
        "kinds": {"instancetype": "VirtualMachineClusterInstancetype", "preference": "VirtualMachineClusterPreference"},
        "sizes": ["small", "medium", "large"],
        "fit": {"messages": ["no"], "refused": {"centos.stream9": {"u1.small": [0, "cpu"]}}}}
    # u1's GPUs are those of its own instancetypes
    assert [(s["name"], s["badges"]) for s in data["series"]] == [
        ("cx1", ["Dedicated CPUs", "Isolated emulator thread", "NUMA", "Hugepages 2Mi or 1Gi",
                 "One socket per vCPU at most"]),
        ("u1", ["Shared (burstable) CPUs", "1 × nvidia.com/U"])]
    assert [(i["name"], i["series"], i["size"], i["variant"], i["deprecated"], i["lifecycle"])
            for i in data["instancetypes"]] == [
        ("u1.small", "u1", "small", "", False, None), ("cx1.large1gi", "cx1", "large", "1gi", False, None),
        ("u1.medium", "u1", "medium", "", True, {"since": "v1.1", "replacement": "u1.small", "chain": ["u1.small"],
                                                 "current": "u1.small", "renamed": False})]
    assert data["instancetypes"][1] == instancetype_record(cx1, series("cx1"))
    assert [(p["name"], p["deprecated"], p["lifecycle"]) for p in data["preferences"]] == [
        ("fedora", False, None),
        ("centos.stream9", True, {"since": "v1.2", "replacement": "fedora", "chain": ["fedora"], "current": "fedora",
                                  "renamed": False})]
    assert data["preferences"][0] == preference_record(held["fedora"])
    assert data["retired"] == [
        {"name": "server.small", "family": "instancetype", "since": "v0.4.0", "replacement": "u1.small",
         "chain": ["u1.small"], "current": "u1.small", "renamed": False},
        {"name": "centos.8.stream", "family": "preference", "since": "v0.4.0", "replacement": "centos.stream8",
         "chain": ["centos.stream8", "centos.stream9", "fedora"], "current": "fedora", "renamed": True},
        {"name": "centos.stream8", "family": "preference", "since": "v1.2.1", "replacement": "centos.stream9",
         "chain": ["centos.stream9", "fedora"], "current": "fedora", "renamed": False}]
