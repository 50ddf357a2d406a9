"""The webhook-spread-options rule on its own: a spread topology across supported levels, at a supported ratio.

The expected messages are virt-api's own, from v1.3 on (validateSpreadOptions,
pkg/instancetype/preference/webhooks/admitter.go from v1.6, the preference admitter
before): ``across %s is not supported`` on spec.cpu.spreadOptions.across and
``only a ratio of 2 (1 core 2 threads) is allowed when spreading vCPUs over cores and
threads`` on spec.cpu.spreadOptions.ratio. v1.3 checks the topology ``preferSpread``
only; v1.4 on also ``spread``. The ratio is KubeVirt's GetSpreadOptions: spreadOptions.ratio,
else preferSpreadSocketToCoreRatio unless 0, else 2; ``across`` is SocketsCores when absent.
"""

from __future__ import annotations

from typing import Any

import pytest

from generator.schemas.releases import Release
from generator.source.documents import BundleDoc
from generator.validate import validate_documents
from generator.validate.rules import webhook_spread_options
from generator.validate.rules.base import RuleContext

from tests.ruledocs import NPREF, findings, instancetype, preference

V1_2, V1_3, V1_4, V1_8 = (RuleContext(kubevirt=Release(1, minor)) for minor in (2, 3, 4, 8))
RATIO = ("b.yaml#{index} (rhel.9.dpdk) $.spec.cpu.spreadOptions.ratio: KubeVirt {release} refuses it: only a ratio "
         "of 2 (1 core 2 threads) is allowed when spreading vCPUs over cores and threads [webhook-spread-options]")
ACROSS = ("b.yaml#{index} (rhel.9.dpdk) $.spec.cpu.spreadOptions.across: KubeVirt {release} refuses it: "
          "across {across} is not supported [webhook-spread-options]")


def spreading(topology: str = "spread", options: Any = None, **spec: Any) -> dict:
    cpu: dict = {"preferredCPUTopology": topology}
    if options is not None:
        cpu["spreadOptions"] = options
    return preference("rhel.9.dpdk", cpu=cpu, **spec)


def unsupported(across: str, index: int = 0, release: str = "v1.8") -> str:
    return ACROSS.format(index=index, release=release, across=across)


def ratio_refused(index: int = 0, release: str = "v1.8") -> str:
    return RATIO.format(index=index, release=release)


# --- releases ---------------------------------------------------------------------------------

def test_v1_2_checks_no_spread_options() -> None:
    assert findings(webhook_spread_options, spreading("preferSpread", {"across": "SocketsThreads"}),
                    spreading("preferSpread", {"across": "CoresThreads", "ratio": 4}), ctx=V1_2) == []


def test_v1_3_refuses_an_unsupported_across_for_prefer_spread() -> None:
    assert findings(webhook_spread_options, spreading("preferSpread", {"across": "SocketsThreads"}), ctx=V1_3) == [
        unsupported("SocketsThreads", release="v1.3")]


def test_v1_3_does_not_check_the_spelling_spread_it_does_not_know() -> None:
    assert findings(webhook_spread_options, spreading("spread", {"across": "SocketsThreads"}),
                    spreading("spread", {"across": "CoresThreads", "ratio": 4}), ctx=V1_3) == []


@pytest.mark.parametrize("minor", range(4, 10))
def test_v1_4_on_check_both_spread_and_prefer_spread(minor) -> None:
    release = f"v1.{minor}"
    assert findings(webhook_spread_options, spreading("spread", {"across": "SocketsThreads"}),
                    spreading("preferSpread", {"across": "SocketsThreads"}),
                    ctx=RuleContext(kubevirt=Release(1, minor))) == [
        unsupported("SocketsThreads", 0, release), unsupported("SocketsThreads", 1, release)]


def test_v1_3_refuses_a_cores_threads_ratio_other_than_2() -> None:
    assert findings(webhook_spread_options, spreading("preferSpread", {"across": "CoresThreads", "ratio": 4}),
                    ctx=V1_3) == [ratio_refused(release="v1.3")]


# --- across -----------------------------------------------------------------------------------

@pytest.mark.parametrize("options", [
    {"across": "SocketsCores", "ratio": 3},
    {"across": "CoresThreads", "ratio": 2},
    {"across": "SocketsCoresThreads", "ratio": 4},
    {"across": "CoresThreads"},
    {"ratio": 3},
    {},
], ids=str)
def test_supported_spread_options_are_accepted(options) -> None:
    assert findings(webhook_spread_options, spreading("spread", options), spreading("preferSpread", options),
                    ctx=V1_8) == []


def test_absent_across_defaults_to_sockets_cores_whatever_the_ratio() -> None:
    assert findings(webhook_spread_options, spreading("spread", {"ratio": 7}), spreading("spread", {"across": None}),
                    spreading("spread", {"ratio": 5}, preferSpreadSocketToCoreRatio=3), ctx=V1_8) == []


@pytest.mark.parametrize("across", ["socketscores", "coresThreads", "SOCKETSCORESTHREADS", "Sockets", "Threads"])
def test_across_is_compared_case_by_case(across) -> None:
    assert findings(webhook_spread_options, spreading("spread", {"across": across}), ctx=V1_8) == [
        unsupported(across)]


def test_an_empty_across_is_unsupported_with_the_two_spaces_of_go_s_format() -> None:
    assert findings(webhook_spread_options, spreading("spread", {"across": ""}), ctx=V1_8) == [unsupported("")]
    assert unsupported("").endswith("across  is not supported [webhook-spread-options]")


def test_an_unsupported_across_is_the_only_cause_even_with_a_bad_ratio() -> None:
    assert findings(webhook_spread_options, spreading("spread", {"across": "SocketsThreads", "ratio": 4}),
                    ctx=V1_8) == [unsupported("SocketsThreads")]


def test_a_topology_that_does_not_spread_is_not_checked() -> None:
    bad = {"across": "SocketsThreads", "ratio": 4}
    assert findings(webhook_spread_options, spreading("sockets", bad), spreading("preferCores", bad),
                    spreading("any", bad), preference("rhel.9.dpdk", cpu={"spreadOptions": bad}), ctx=V1_8) == []


def test_the_topology_is_compared_case_by_case() -> None:
    bad = {"across": "SocketsThreads"}
    assert findings(webhook_spread_options, spreading("Spread", bad), spreading("preferspread", bad), ctx=V1_8) == []


def test_spread_without_spread_options_is_not_checked() -> None:
    assert findings(webhook_spread_options, spreading("spread"), spreading("spread", preferSpreadSocketToCoreRatio=3),
                    ctx=V1_8) == []


def test_an_across_that_is_not_text_is_left_to_the_schema() -> None:
    assert findings(webhook_spread_options, spreading("spread", {"across": 3}), ctx=V1_8) == []


# --- the CoresThreads ratio --------------------------------------------------------------------

def test_cores_threads_takes_spread_options_ratio() -> None:
    assert findings(webhook_spread_options, spreading("spread", {"across": "CoresThreads", "ratio": 3}),
                    spreading("spread", {"across": "CoresThreads", "ratio": 2}), ctx=V1_8) == [ratio_refused(0)]


def test_a_ratio_of_0_in_spread_options_is_taken_as_written() -> None:
    assert findings(webhook_spread_options, spreading("spread", {"across": "CoresThreads", "ratio": 0}),
                    ctx=V1_8) == [ratio_refused()]


def test_without_spread_options_ratio_cores_threads_falls_back_to_prefer_spread_socket_to_core_ratio() -> None:
    """Reported at spreadOptions.ratio, which is not written: KubeVirt names that field."""
    assert findings(webhook_spread_options,
                    spreading("spread", {"across": "CoresThreads"}, preferSpreadSocketToCoreRatio=3),
                    spreading("spread", {"across": "CoresThreads"}, preferSpreadSocketToCoreRatio=2),
                    ctx=V1_8) == [ratio_refused(0)]


def test_a_prefer_spread_socket_to_core_ratio_of_0_means_the_default_2() -> None:
    assert findings(webhook_spread_options,
                    spreading("spread", {"across": "CoresThreads"}, preferSpreadSocketToCoreRatio=0),
                    spreading("spread", {"across": "CoresThreads", "ratio": None}), ctx=V1_8) == []


def test_spread_options_ratio_wins_over_prefer_spread_socket_to_core_ratio() -> None:
    assert findings(webhook_spread_options,
                    spreading("spread", {"across": "CoresThreads", "ratio": 2}, preferSpreadSocketToCoreRatio=3),
                    spreading("spread", {"across": "CoresThreads", "ratio": 4}, preferSpreadSocketToCoreRatio=2),
                    ctx=V1_8) == [ratio_refused(1)]


def test_only_cores_threads_requires_a_ratio_of_2() -> None:
    assert findings(webhook_spread_options, spreading("spread", {"across": "SocketsCores", "ratio": 3}),
                    spreading("spread", {"across": "SocketsCoresThreads", "ratio": 3}),
                    spreading("spread", {"across": "SocketsCoresThreads"}, preferSpreadSocketToCoreRatio=5),
                    ctx=V1_8) == []


def test_an_integral_float_ratio_of_2_is_2() -> None:
    assert findings(webhook_spread_options, spreading("spread", {"across": "CoresThreads", "ratio": 2.0}),
                    ctx=V1_8) == []


# --- kinds --------------------------------------------------------------------------------------

def test_the_namespaced_preference_is_checked_too() -> None:
    pref = spreading("spread", {"across": "SocketsThreads"})
    pref["kind"] = NPREF
    assert findings(webhook_spread_options, pref, ctx=V1_8) == [unsupported("SocketsThreads")]


def test_instancetypes_are_not_looked_at() -> None:
    it = instancetype()
    it["spec"]["cpu"].update(preferredCPUTopology="spread", spreadOptions={"across": "SocketsThreads"})
    assert findings(webhook_spread_options, it, ctx=V1_8) == []


# --- with the other checks (validate_documents) --------------------------------------------------

def validated(*objects: Any, release: Release = Release(1, 8)) -> list[str]:
    docs = [BundleDoc("b.yaml", i, data) for i, data in enumerate(objects)]
    return [str(p) for p in validate_documents(docs, RuleContext(kubevirt=release), rules=[
        "schema", "webhook-decode", "webhook-cpu-topology", "webhook-spread-options"])]


def test_at_v1_3_a_refused_prefer_spread_has_no_deprecation_warning_to_drop() -> None:
    assert validated(spreading("preferSpread", {"across": "SocketsThreads"}), release=Release(1, 3)) == [
        unsupported("SocketsThreads", release="v1.3")]


def test_an_object_the_webhook_cannot_decode_gets_only_the_decode_error() -> None:
    assert validated(spreading("spread", {"across": "CoresThreads", "ratio": -1})) == [
        "b.yaml#0 (rhel.9.dpdk) $.spec.cpu.spreadOptions.ratio: KubeVirt v1.8 refuses it: json: cannot unmarshal "
        "number -1 into Go struct field SpreadOptions.spec.cpu.spreadOptions.ratio of type uint32 [webhook-decode]"]
