"""The webhook-cpu-topology rule on its own: a topology KubeVirt knows, in the spelling it prefers.

The expected messages are virt-api's own, from v1.4 on (validatePreferredCPUTopology and
checkForDeprecatedPreferredCPUTopology, pkg/instancetype/preference/webhooks/admitter.go
from v1.6, the preference admitter before): the refusal ``unknown preferredCPUTopology %s``
and the warning ``PreferredCPUTopology %s is deprecated for removal in a future release,
please use %s instead``. Releases v1.0 to v1.3 check no topology.

The last tests go through validate_documents: KubeVirt returns warnings only with an
object it admits, so an object the schema or a webhook rule refuses shows no warning.
"""

from __future__ import annotations

from typing import Any

import pytest

from generator.schemas.releases import Release
from generator.source.documents import BundleDoc
from generator.validate import validate_documents
from generator.validate.rules import webhook_cpu_topology
from generator.validate.rules.base import RuleContext

from tests.ruledocs import NPREF, findings, instancetype, preference

V1_3, V1_4, V1_8, V1_9 = (RuleContext(kubevirt=Release(1, minor)) for minor in (3, 4, 8, 9))
CURRENT = ["sockets", "cores", "threads", "spread", "any"]
#: Each deprecated spelling and the warning KubeVirt gives for it, verbatim.
DEPRECATED = {
    "preferSockets": "PreferredCPUTopology preferSockets is deprecated for removal in a future release, "
                     "please use sockets instead",
    "preferCores": "PreferredCPUTopology preferCores is deprecated for removal in a future release, "
                   "please use cores instead",
    "preferThreads": "PreferredCPUTopology preferThreads is deprecated for removal in a future release, "
                     "please use threads instead",
    "preferSpread": "PreferredCPUTopology preferSpread is deprecated for removal in a future release, "
                    "please use spread instead",
    "preferAny": "PreferredCPUTopology preferAny is deprecated for removal in a future release, "
                 "please use any instead",
}
WHERE = "b.yaml#{index} (fedora) $.spec.cpu.preferredCPUTopology: KubeVirt {release} "


def topology(value: Any, **spec: Any) -> dict:
    return preference(cpu={"preferredCPUTopology": value, **spec.pop("cpu", {})}, **spec)


def unknown(value: str, index: int = 0, release: str = "v1.8") -> str:
    return WHERE.format(index=index, release=release) + f"refuses it: unknown preferredCPUTopology {value} " \
                                                        "[webhook-cpu-topology]"


def deprecated(value: str, index: int = 0, release: str = "v1.8") -> str:
    return WHERE.format(index=index, release=release) + f"warns: {DEPRECATED[value]} [webhook-cpu-topology]"


# --- refusal ----------------------------------------------------------------------------------

@pytest.mark.parametrize("ctx", [V1_4, V1_9], ids=["v1.4", "v1.9"])
def test_the_current_spellings_are_accepted_without_a_word(ctx) -> None:
    assert findings(webhook_cpu_topology, *(topology(value) for value in CURRENT), ctx=ctx) == []


def test_v1_3_says_nothing_about_an_unknown_topology() -> None:
    assert findings(webhook_cpu_topology, topology("foo"), ctx=V1_3) == []


def test_v1_4_refuses_an_unknown_topology() -> None:
    assert findings(webhook_cpu_topology, topology("foo"), ctx=V1_4) == [unknown("foo", release="v1.4")]


def test_v1_9_refuses_an_unknown_topology() -> None:
    assert findings(webhook_cpu_topology, topology("sideways"), ctx=V1_9) == [unknown("sideways", release="v1.9")]


@pytest.mark.parametrize("value", ["Sockets", "CORES", "Spread", "PreferSockets", "prefersockets", "preferspread"])
def test_topologies_are_compared_case_by_case(value) -> None:
    assert findings(webhook_cpu_topology, topology(value), ctx=V1_8) == [unknown(value)]


def test_an_empty_topology_is_unknown_with_the_trailing_space_of_go_s_format() -> None:
    assert findings(webhook_cpu_topology, topology(""), ctx=V1_8) == [unknown("")]
    assert unknown("").endswith("unknown preferredCPUTopology  [webhook-cpu-topology]")


def test_no_topology_is_no_finding() -> None:
    assert findings(webhook_cpu_topology, preference(), preference(cpu={}), topology(None), ctx=V1_8) == []


def test_a_topology_that_is_not_text_is_left_to_the_schema() -> None:
    assert findings(webhook_cpu_topology, topology(4), topology(["sockets"]), ctx=V1_8) == []


def test_the_namespaced_preference_is_checked_too() -> None:
    pref = topology("foo")
    pref["kind"] = NPREF
    assert findings(webhook_cpu_topology, pref, ctx=V1_8) == [unknown("foo")]


def test_instancetypes_are_not_looked_at() -> None:
    it = instancetype()
    it["spec"]["cpu"]["preferredCPUTopology"] = "foo"
    assert findings(webhook_cpu_topology, it, ctx=V1_8) == []


# --- deprecation warning ----------------------------------------------------------------------

def test_v1_3_says_nothing_about_an_older_spelling() -> None:
    assert findings(webhook_cpu_topology, *(topology(value) for value in DEPRECATED), ctx=V1_3) == []


@pytest.mark.parametrize("ctx", [V1_4, V1_9], ids=["v1.4", "v1.9"])
@pytest.mark.parametrize("value", list(DEPRECATED))
def test_an_older_spelling_is_admitted_with_a_deprecation_warning(value, ctx) -> None:
    assert findings(webhook_cpu_topology, topology(value), ctx=ctx) == [deprecated(value, release=str(ctx.kubevirt))]


def test_the_deprecation_is_a_warning_and_the_unknown_topology_a_refusal() -> None:
    docs = [BundleDoc("b.yaml", 0, topology("preferCores")), BundleDoc("b.yaml", 1, topology("foo"))]
    assert [(p.location.doc, p.severity) for p in webhook_cpu_topology.check(docs, V1_8)] == [
        (0, "warning"), (1, "error")]


def test_v1_0_to_v1_3_check_no_topology_at_all() -> None:
    for minor in range(0, 4):
        ctx = RuleContext(kubevirt=Release(1, minor))
        assert findings(webhook_cpu_topology, topology("preferAny"), topology("spread"), topology("foo"),
                        ctx=ctx) == [], minor


# --- warnings only with an admitted object (validate_documents) --------------------------------

KUBEVIRT_CHECKS = ["schema", "webhook-decode", "webhook-overcommit", "webhook-cpu-topology",
                   "webhook-spread-options", "webhook-launch-security"]


def validated(*objects: Any, release: Release = Release(1, 8), rules: list[str] = KUBEVIRT_CHECKS) -> list[str]:
    docs = [BundleDoc("b.yaml", i, data) for i, data in enumerate(objects)]
    return [str(p) for p in validate_documents(docs, RuleContext(kubevirt=release), rules=rules)]


def test_an_admitted_object_keeps_its_warning() -> None:
    assert validated(topology("preferSpread", cpu={"spreadOptions": {"across": "SocketsCores"}})) == [
        deprecated("preferSpread")]


def test_a_deprecated_topology_with_an_unsupported_across_gives_only_the_refusal() -> None:
    refused = topology("preferSpread", cpu={"spreadOptions": {"across": "SocketsThreads"}})
    assert validated(refused) == [
        "b.yaml#0 (fedora) $.spec.cpu.spreadOptions.across: KubeVirt v1.8 refuses it: "
        "across SocketsThreads is not supported [webhook-spread-options]"]


def test_an_object_the_schema_refuses_shows_no_warning() -> None:
    refused = topology("preferCores", cpu={"preferredCPUFeatures": "all"})
    found = validated(refused)
    assert [line.rsplit(" [", 1)[1] for line in found] == ["schema]"]


def test_an_object_the_decoder_refuses_shows_no_warning() -> None:
    refused = topology("preferCores", preferSpreadSocketToCoreRatio=-1)
    assert validated(refused) == [
        "b.yaml#0 (fedora) $.spec.preferSpreadSocketToCoreRatio: KubeVirt v1.8 refuses it: json: cannot unmarshal "
        "number -1 into Go struct field VirtualMachinePreferenceSpec.spec.preferSpreadSocketToCoreRatio of type "
        "uint32 [webhook-decode]"]


def test_warnings_are_dropped_object_by_object() -> None:
    refused = topology("preferSpread", cpu={"spreadOptions": {"across": "Sockets"}})
    admitted = topology("preferThreads")
    assert validated(refused, admitted) == [
        "b.yaml#0 (fedora) $.spec.cpu.spreadOptions.across: KubeVirt v1.8 refuses it: "
        "across Sockets is not supported [webhook-spread-options]",
        deprecated("preferThreads", index=1)]


def test_a_refusal_by_a_rule_that_is_not_kubevirt_s_keeps_the_warning() -> None:
    """A catalog rule (here vendor-label) is no reason for the API server to refuse the object."""
    assert validated(topology("preferSockets"), rules=["webhook-cpu-topology", "vendor-label"]) == [
        "b.yaml#0 (fedora) $.metadata.labels: label instancetype.kubevirt.io/vendor is missing [vendor-label]",
        deprecated("preferSockets")]


def test_an_object_whose_metadata_the_api_server_refuses_shows_no_warning() -> None:
    refused = topology("preferSockets")
    refused["metadata"]["labels"] = {"example.com/team": "-platform"}
    found = validated(refused, rules=KUBEVIRT_CHECKS + ["object-metadata"])
    assert [line.rsplit(" [", 1)[1] for line in found] == ["object-metadata]"]


def test_an_object_the_webhook_cannot_decode_gets_only_the_decode_error() -> None:
    broken = topology("foo", features={"preferredHyperv": {"spinlocks": {"spinlocks": -1}}})
    assert validated(broken) == [
        "b.yaml#0 (fedora) $.spec.features.preferredHyperv.spinlocks.spinlocks: KubeVirt v1.8 refuses it: json: "
        "cannot unmarshal number -1 into Go struct field FeatureSpinlocks.spec.features.preferredHyperv.spinlocks"
        ".spinlocks of type uint32 [webhook-decode]"]


def test_a_preference_without_a_topology_does_not_stop_the_check_of_the_ones_after_it() -> None:
    assert findings(webhook_cpu_topology, preference(), topology(2), topology("foo"), ctx=V1_8) == [
        unknown("foo", index=2)]
