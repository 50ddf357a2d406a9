"""expand/kubevirt.py: each change a build for an older release makes, as the exact Adjustment it reports.

Covers what the summary's text leaves out (the release each adjustment is for, the
spelling written as, empty when nothing was), older values of a field the release
lacks altogether, values that are no text, an empty (null) field with older
spellings, the labels read off a field whose value is left out, and objects retained
from an old bundle in one kind only.
"""

from __future__ import annotations

from typing import Any

from generator.expand.kubevirt import LEFT_OUT, OBJECT_LEFT_OUT, RESPELT, Adjustment, for_release, oldest_accepting
from generator.model import CLUSTER_KINDS, CatalogObject, OlderField, OlderValue, Spelling, label
from generator.problems import Location
from generator.schemas.releases import Release

HERE = Location("catalog.yaml")
V1_3, V1_4, V1_6, V1_7, V1_8 = Release(1, 3), Release(1, 4), Release(1, 6), Release(1, 7), Release(1, 8)
TOPOLOGY = Spelling(("spec", "cpu", "preferredCPUTopology"), HERE, values={
    "spread": OlderValue("v1.4", "preferSpread"), "preferSpread": OlderValue("v1.1")})
ARCHITECTURE = Spelling(("spec", "preferredArchitecture"), HERE, values={"riscv64": OlderValue("v1.12", "arm64")})
EFI = Spelling(("spec", "firmware", "preferredEfi"), HERE, writes=(
    OlderField(("spec", "firmware", "preferredUseEfi"), value=True),
    OlderField(("spec", "firmware", "preferredUseSecureBoot"), source="secureBoot")))


def preference(name: str = "fedora", labels: dict[str, str] | None = None, essential: tuple = (),
               **spec: Any) -> CatalogObject:
    return CatalogObject("preference", name, "fedora", labels or {}, {}, spec, HERE, facts={"essential": essential})


def test_a_value_respelt_is_reported_for_the_release_built_for():
    _, adjustments = for_release([preference(cpu={"preferredCPUTopology": "spread"})], V1_3, (TOPOLOGY,))
    assert adjustments == [Adjustment("preference", "fedora", "spec.cpu.preferredCPUTopology: spread", RESPELT,
                                      V1_4, V1_3, "spec.cpu.preferredCPUTopology: preferSpread")]


def test_a_value_left_out_is_reported_with_nothing_written():
    _, adjustments = for_release([preference(cpu={"preferredCPUTopology": "spread"})], Release(1, 0), (TOPOLOGY,))
    assert adjustments == [Adjustment("preference", "fedora", "spec.cpu.preferredCPUTopology: spread", LEFT_OUT,
                                      V1_4, Release(1, 0), "")]
    assert adjustments[0].record()["writtenAs"] is None


def test_a_field_left_out_and_a_field_respelt_are_reported_for_the_release_built_for():
    obj = preference(firmware={"preferredEfi": {"secureBoot": True}}, preferredArchitecture="arm64")
    _, adjustments = for_release([obj], V1_3, (EFI,))
    assert adjustments == [
        Adjustment("preference", "fedora", "spec.firmware.preferredEfi", RESPELT, V1_4, V1_3,
                   "spec.firmware.preferredUseEfi: true, spec.firmware.preferredUseSecureBoot: true"),
        Adjustment("preference", "fedora", "spec.preferredArchitecture", LEFT_OUT, V1_7, V1_3, "")]


def test_an_object_left_out_is_reported_for_the_release_built_for():
    secex = preference("fedora.s390x.secex", essential=(("spec", "preferredLaunchSecurity"),),
                       preferredLaunchSecurity={})
    assert for_release([secex], V1_8, ()) == ([], [Adjustment(
        "preference", "fedora.s390x.secex", "spec.preferredLaunchSecurity", OBJECT_LEFT_OUT, Release(1, 9), V1_8)])


def test_a_value_left_out_takes_the_labels_read_off_its_field_with_it():
    obj = preference("fedora.riscv64", {label("preferred-architecture"): "riscv64", label("os"): "fedora"},
                     preferredArchitecture="riscv64")
    [kept], adjustments = for_release([obj], V1_8, (Spelling(ARCHITECTURE.field, HERE, values={
        "riscv64": OlderValue("v1.12")}),))
    assert kept.spec == {} and kept.labels == {label("os"): "fedora"}
    assert [str(a) for a in adjustments] == [
        "preference fedora.riscv64: spec.preferredArchitecture: riscv64 (KubeVirt v1.12) left out"]


def test_an_older_value_of_a_field_the_release_lacks_is_not_written_the_field_is_left_out():
    obj = preference("fedora.riscv64", {label("preferred-architecture"): "riscv64"}, preferredArchitecture="riscv64")
    [kept], adjustments = for_release([obj], V1_6, (ARCHITECTURE,))
    assert kept.spec == {} and kept.labels == {}
    assert adjustments == [Adjustment("preference", "fedora.riscv64", "spec.preferredArchitecture", LEFT_OUT,
                                      V1_7, V1_6, "")]


def test_a_field_with_older_values_that_holds_no_text_is_left_for_validation():
    for value in ({"spread": True}, ["spread"], None, 4):
        obj = preference(cpu={"preferredCPUTopology": value})
        assert for_release([obj], V1_3, (TOPOLOGY,)) == ([obj], [])


def test_an_empty_field_with_older_spellings_writes_the_fixed_ones():
    """``preferredEfi:`` with nothing after it is null: EFI, with no sub-field to write from."""
    [kept], adjustments = for_release([preference(firmware={"preferredEfi": None})], V1_3, (EFI,))
    assert kept.spec == {"firmware": {"preferredUseEfi": True}}
    assert [str(a) for a in adjustments] == [
        "preference fedora: spec.firmware.preferredEfi (KubeVirt v1.4) written as spec.firmware.preferredUseEfi: true"]


def test_a_field_of_another_type_than_a_mapping_writes_only_the_fixed_older_fields():
    [kept], _ = for_release([preference(firmware={"preferredEfi": "secureBoot"})], V1_3, (EFI,))
    assert kept.spec == {"firmware": {"preferredUseEfi": True}}


def test_an_object_retained_in_its_cluster_kind_only_is_built_and_dated_by_that_kind():
    obj = CatalogObject("instancetype", "cx1.large", "cx", {}, {}, {"cpu": {"guest": 2, "maxSockets": 2}}, HERE,
                        only_kinds=(CLUSTER_KINDS[0],))
    assert oldest_accepting(obj) == V1_3
    [kept], adjustments = for_release([obj], Release(1, 0), ())
    assert kept.spec == {"cpu": {"guest": 2}}
    assert [str(a) for a in adjustments] == ["instancetype cx1.large: spec.cpu.maxSockets (KubeVirt v1.3) left out"]
