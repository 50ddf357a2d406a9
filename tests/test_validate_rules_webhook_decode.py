"""The webhook-decode rule on its own: every number fits the Go type virt-api's webhook decodes it into.

The expected messages are Go's own: encoding/json's
``json: cannot unmarshal number <n> into Go struct field <Struct>.<json path> of type <type>``,
returned by GetInstanceTypeSpecFromAdmissionRequest (every release) and
GetPreferenceSpecFromAdmissionRequest (v1.3 on) in KubeVirt's pkg/util/webhooks/webhooks.go.
``<n>`` is the number as the API server passes it on to the webhook (``as_sent``).
"""

from __future__ import annotations

import pytest

from generator.schemas.releases import Release, newest
from generator.source.documents import BundleDoc
from generator.validate import validate_documents
from generator.validate.rules import webhook_decode
from generator.validate.rules.base import RuleContext
from generator.validate.rules.webhook_decode import as_sent

from tests.ruledocs import NIT, NPREF, findings, instancetype, preference

V1_8 = RuleContext(kubevirt=Release(1, 8))
UINT32_MAX = 4294967295
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def refused(index: int, name: str, path: str, number: str, field: str, go_type: str, release: str = "v1.8") -> str:
    return (f"b.yaml#{index} ({name}) $.{path}: KubeVirt {release} refuses it: json: cannot unmarshal number "
            f"{number} into Go struct field {field} of type {go_type} [webhook-decode]")


def guest(value) -> str:
    return refused(0, "u1.large", "spec.cpu.guest", value, "CPUInstancetype.spec.cpu.guest", "uint32")


def grace(index: int, number: str) -> str:
    return refused(index, "fedora", "spec.preferredTerminationGracePeriodSeconds", number,
                   "VirtualMachinePreferenceSpec.spec.preferredTerminationGracePeriodSeconds", "int64")


def block_size(**custom) -> dict:
    return preference(devices={"preferredDiskBlockSize": {"custom": {"logical": 512, "physical": 512, **custom}}})


# --- uint32 ------------------------------------------------------------------------------------

def test_uint32_counts_from_0_to_4294967295_are_accepted() -> None:
    assert findings(webhook_decode, instancetype(cpu=0), instancetype(cpu=UINT32_MAX), ctx=V1_8) == []


def test_a_uint32_count_of_4294967296_is_refused() -> None:
    assert findings(webhook_decode, instancetype(cpu=UINT32_MAX + 1), ctx=V1_8) == [guest("4294967296")]


def test_a_negative_uint32_count_is_refused() -> None:
    assert findings(webhook_decode, instancetype(cpu=-1), ctx=V1_8) == [guest("-1")]


def test_every_uint32_field_of_an_instancetype() -> None:
    it = instancetype(ioThreads={"supplementalPoolThreadCount": -1})
    it["spec"]["cpu"]["maxSockets"] = -3
    assert findings(webhook_decode, it, ctx=V1_8) == [
        refused(0, "u1.large", "spec.cpu.maxSockets", "-3", "CPUInstancetype.spec.cpu.maxSockets", "uint32"),
        refused(0, "u1.large", "spec.ioThreads.supplementalPoolThreadCount", "-1",
                "DiskIOThreads.spec.ioThreads.supplementalPoolThreadCount", "uint32")]


def test_every_uint32_field_of_a_preference() -> None:
    pref = preference(preferSpreadSocketToCoreRatio=-1,
                      cpu={"preferredCPUTopology": "spread", "spreadOptions": {"ratio": -2}},
                      requirements={"cpu": {"guest": UINT32_MAX + 1}, "memory": {"guest": "2Gi"}},
                      features={"preferredHyperv": {"spinlocks": {"spinlocks": -1}}})
    assert findings(webhook_decode, pref, ctx=V1_8) == [
        refused(0, "fedora", "spec.cpu.spreadOptions.ratio", "-2", "SpreadOptions.spec.cpu.spreadOptions.ratio",
                "uint32"),
        refused(0, "fedora", "spec.features.preferredHyperv.spinlocks.spinlocks", "-1",
                "FeatureSpinlocks.spec.features.preferredHyperv.spinlocks.spinlocks", "uint32"),
        refused(0, "fedora", "spec.preferSpreadSocketToCoreRatio", "-1",
                "VirtualMachinePreferenceSpec.spec.preferSpreadSocketToCoreRatio", "uint32"),
        refused(0, "fedora", "spec.requirements.cpu.guest", "4294967296",
                "CPUPreferenceRequirement.spec.requirements.cpu.guest", "uint32")]


def test_both_namespaced_kinds_are_decoded_like_the_cluster_kinds() -> None:
    pref = preference(kind=NPREF, features={"preferredHyperv": {"spinlocks": {"spinlocks": UINT32_MAX + 1}}})
    assert findings(webhook_decode, instancetype(cpu=-1, kind=NIT), pref, ctx=V1_8) == [
        guest("-1"),
        refused(1, "fedora", "spec.features.preferredHyperv.spinlocks.spinlocks", "4294967296",
                "FeatureSpinlocks.spec.features.preferredHyperv.spinlocks.spinlocks", "uint32")]


def test_every_field_that_does_not_fit_is_named_where_go_stops_at_the_first() -> None:
    """Go's decoder returns only its first error (cpu.guest here); citgen names both fields."""
    it = instancetype(cpu=-1)
    it["spec"]["cpu"]["maxSockets"] = -3
    assert findings(webhook_decode, it, ctx=V1_8) == [
        guest("-1"),
        refused(0, "u1.large", "spec.cpu.maxSockets", "-3", "CPUInstancetype.spec.cpu.maxSockets", "uint32")]


# --- int, int64 and uint (64 bits) ------------------------------------------------------------

def test_int64_from_its_minimum_to_its_maximum_is_accepted() -> None:
    assert findings(webhook_decode, preference(preferredTerminationGracePeriodSeconds=INT64_MAX),
                    preference(preferredTerminationGracePeriodSeconds=INT64_MIN),
                    preference(preferredTerminationGracePeriodSeconds=0), ctx=V1_8) == []


def test_int64_above_its_maximum_is_refused_as_the_float_the_api_server_sends() -> None:
    """2**63 is no int64, so the API server holds it as a float64 and writes it as 9223372036854776000."""
    assert findings(webhook_decode, preference(preferredTerminationGracePeriodSeconds=INT64_MAX + 1), ctx=V1_8) == [
        grace(0, "9223372036854776000")]


def test_int64_well_below_its_minimum_is_refused_as_the_float_the_api_server_sends() -> None:
    """-(2**63)-2048 is the next float64 below -(2**63); Go writes it in its shortest digits."""
    assert findings(webhook_decode, preference(preferredTerminationGracePeriodSeconds=INT64_MIN - 2048),
                    ctx=V1_8) == [grace(0, "-9223372036854778000")]


def test_int64_just_below_its_minimum_is_refused_as_the_float_the_api_server_sends() -> None:
    assert findings(webhook_decode, preference(preferredTerminationGracePeriodSeconds=INT64_MIN - 1), ctx=V1_8) == [
        grace(0, "-9223372036854776000")]


def test_int_fields_are_64_bits() -> None:
    it = instancetype()
    it["spec"]["memory"]["overcommitPercent"] = INT64_MAX + 1
    clock = preference(clock={"preferredClockOffset": {"utc": {"offsetSeconds": INT64_MAX + 1}}})
    fine = preference(clock={"preferredClockOffset": {"utc": {"offsetSeconds": -(2**40)}}})
    assert findings(webhook_decode, it, clock, fine, ctx=V1_8) == [
        refused(0, "u1.large", "spec.memory.overcommitPercent", "9223372036854776000",
                "MemoryInstancetype.spec.memory.overcommitPercent", "int"),
        refused(1, "fedora", "spec.clock.preferredClockOffset.utc.offsetSeconds", "9223372036854776000",
                "ClockOffsetUTC.spec.clock.preferredClockOffset.utc.offsetSeconds", "int")]


def test_uint_fields_take_no_negative_size() -> None:
    assert findings(webhook_decode, block_size(logical=-512, physical=-1, discardGranularity=-1), ctx=V1_8) == [
        refused(0, "fedora", "spec.devices.preferredDiskBlockSize.custom.discardGranularity", "-1",
                "CustomBlockSize.spec.devices.preferredDiskBlockSize.custom.discardGranularity", "uint"),
        refused(0, "fedora", "spec.devices.preferredDiskBlockSize.custom.logical", "-512",
                "CustomBlockSize.spec.devices.preferredDiskBlockSize.custom.logical", "uint"),
        refused(0, "fedora", "spec.devices.preferredDiskBlockSize.custom.physical", "-1",
                "CustomBlockSize.spec.devices.preferredDiskBlockSize.custom.physical", "uint")]


def test_uint_fields_are_64_bits() -> None:
    """2**63 is sent as 9223372036854776000, which a uint64 holds; 2**64 is sent as 18446744073709552000."""
    assert findings(webhook_decode, block_size(logical=2**63), ctx=V1_8) == []
    assert findings(webhook_decode, block_size(physical=2**64), ctx=V1_8) == [
        refused(0, "fedora", "spec.devices.preferredDiskBlockSize.custom.physical", "18446744073709552000",
                "CustomBlockSize.spec.devices.preferredDiskBlockSize.custom.physical", "uint")]


def test_the_largest_uint64_rounds_up_on_the_way_and_is_refused() -> None:
    assert findings(webhook_decode, block_size(physical=2**64 - 1), ctx=V1_8) == [
        refused(0, "fedora", "spec.devices.preferredDiskBlockSize.custom.physical", "18446744073709552000",
                "CustomBlockSize.spec.devices.preferredDiskBlockSize.custom.physical", "uint")]


# --- the number as the API server sends it ---------------------------------------------------

@pytest.mark.parametrize("value, sent", [
    (-1, "-1"),
    (4294967296, "4294967296"),
    (INT64_MAX, "9223372036854775807"),
    (2**63, "9223372036854776000"),
    (-1.0, "-1"),
    (4294967296.0, "4294967296"),
    (1e20, "100000000000000000000"),
    (1e21, "1e+21"),
    (-1e21, "-1e+21"),
    (INT64_MIN - 1, "-9223372036854776000"),
    (INT64_MIN, "-9223372036854775808"),
    (2**53 + 1, "9007199254740993"),
])
def test_the_number_as_the_api_server_sends_it(value, sent) -> None:
    assert as_sent(value) == sent


def test_an_integral_float_is_quoted_as_the_integer_the_api_server_sends() -> None:
    assert findings(webhook_decode, instancetype(cpu=-1.0), ctx=V1_8) == [guest("-1")]
    assert findings(webhook_decode, instancetype(cpu=4294967296.0), ctx=V1_8) == [guest("4294967296")]
    assert findings(webhook_decode, instancetype(cpu=4294967295.0), ctx=V1_8) == []


def test_a_float_of_1e21_or_more_is_quoted_with_an_exponent() -> None:
    assert findings(webhook_decode, instancetype(cpu=1e21), ctx=V1_8) == [guest("1e+21")]


def test_values_of_another_type_are_left_to_the_schema() -> None:
    """1.5, "2" and true fail Go's decoder too, but the CRD schema refuses them first."""
    assert findings(webhook_decode, instancetype(cpu=1.5), instancetype(cpu="-1"), instancetype(cpu=True),
                    instancetype(cpu=None), ctx=V1_8) == []


# --- releases ---------------------------------------------------------------------------------

def test_instancetypes_are_decoded_from_v1_0() -> None:
    assert findings(webhook_decode, instancetype(cpu=-1), ctx=RuleContext(kubevirt=Release(1, 0))) == [
        guest("-1").replace("v1.8", "v1.0")]


def test_preferences_are_not_decoded_before_v1_3() -> None:
    spinlocks = preference(features={"preferredHyperv": {"spinlocks": {"spinlocks": -1}}})
    assert findings(webhook_decode, spinlocks, ctx=RuleContext(kubevirt=Release(1, 2))) == []
    assert findings(webhook_decode, spinlocks, ctx=RuleContext(kubevirt=Release(1, 3))) == [
        refused(0, "fedora", "spec.features.preferredHyperv.spinlocks.spinlocks", "-1",
                "FeatureSpinlocks.spec.features.preferredHyperv.spinlocks.spinlocks", "uint32", "v1.3")]


def test_the_newest_release_judges_by_default() -> None:
    assert findings(webhook_decode, instancetype(cpu=-1)) == [guest("-1").replace("v1.8", str(newest()))]


def test_a_field_the_release_does_not_have_is_not_decoded() -> None:
    docs = [BundleDoc("b.yaml", 0, instancetype(ioThreads={"supplementalPoolThreadCount": -1}))]
    found = validate_documents(docs, RuleContext(kubevirt=Release(1, 6)), rules=["schema", "webhook-decode"])
    assert [p.rule for p in found] == ["schema"]


def test_an_integral_float_at_the_bottom_of_its_range_is_accepted() -> None:
    assert findings(webhook_decode, instancetype(cpu=0.0), ctx=V1_8) == []


def test_a_field_that_fits_does_not_stop_the_check_of_the_fields_after_it() -> None:
    """cpu.guest 2.0 is looked at closely (a float) and fits; maxSockets after it is still checked."""
    it = instancetype(cpu=2.0)
    it["spec"]["cpu"]["maxSockets"] = -3
    assert findings(webhook_decode, it, ctx=V1_8) == [
        refused(0, "u1.large", "spec.cpu.maxSockets", "-3", "CPUInstancetype.spec.cpu.maxSockets", "uint32")]


def test_documents_not_decoded_do_not_stop_the_check_of_the_ones_after_them() -> None:
    """Before v1.3 a preference is not decoded; neither is a kind of no family. The instancetype after them is."""
    spinlocks = preference(features={"preferredHyperv": {"spinlocks": {"spinlocks": -1}}})
    config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}
    v1_2 = RuleContext(kubevirt=Release(1, 2))
    assert findings(webhook_decode, spinlocks, config, instancetype(cpu=-1), ctx=v1_2) == [
        refused(2, "u1.large", "spec.cpu.guest", "-1", "CPUInstancetype.spec.cpu.guest", "uint32", "v1.2")]