"""The webhook-overcommit rule on its own: no overcommitted memory on hugepages, a percentage of 0 to 100.

The expected messages are virt-api's own, the same at every release from v1.0 to v1.9
(validateMemoryOvercommitPercentSetting and validateMemoryOvercommitPercentNoHugepages,
pkg/instancetype/webhooks/admitter.go from v1.6, the instancetype admitter before):
``%s '%d': must be in range between 0 and 100.`` and
``%s and %s should not be requested together.``, both on spec.memory.overcommitPercent.
"""

from __future__ import annotations

from typing import Any

import pytest

from generator.schemas.releases import Release, known
from generator.source.documents import BundleDoc
from generator.validate import validate_documents
from generator.validate.rules import webhook_overcommit
from generator.validate.rules.base import RuleContext

from tests.ruledocs import NIT, findings, instancetype, preference

V1_8 = RuleContext(kubevirt=Release(1, 8))
TOGETHER = ("b.yaml#{index} (o1.large) $.spec.memory.overcommitPercent: KubeVirt {release} refuses it: "
            "spec.memory.overcommitPercent and spec.memory.hugepages should not be requested together. "
            "[webhook-overcommit]")
RANGE = ("b.yaml#{index} (o1.large) $.spec.memory.overcommitPercent: KubeVirt v1.8 refuses it: "
         "spec.memory.overcommitPercent '{percent}': must be in range between 0 and 100. [webhook-overcommit]")
_ABSENT = object()


def overcommitted(percent: Any, hugepages: Any = _ABSENT, kind: str | None = None) -> dict:
    found = instancetype("o1.large", **({"kind": kind} if kind else {}))
    found["spec"]["memory"]["overcommitPercent"] = percent
    if hugepages is not _ABSENT:
        found["spec"]["memory"]["hugepages"] = hugepages
    return found


def together(index: int = 0, release: str = "v1.8") -> str:
    return TOGETHER.format(index=index, release=release)


def out_of_range(percent: int, index: int = 0) -> str:
    return RANGE.format(index=index, percent=percent)


def test_overcommitting_memory_without_hugepages_is_accepted() -> None:
    assert findings(webhook_overcommit, overcommitted(50), overcommitted(100), instancetype(), ctx=V1_8) == []


def test_hugepages_without_overcommit_are_accepted() -> None:
    assert findings(webhook_overcommit, overcommitted(0, {"pageSize": "2Mi"}), overcommitted(0, {}),
                    ctx=V1_8) == []


def test_overcommitting_memory_on_hugepages_is_refused() -> None:
    assert findings(webhook_overcommit, overcommitted(50, {"pageSize": "1Gi"}), ctx=V1_8) == [together()]


def test_empty_hugepages_ask_for_hugepages_too() -> None:
    assert findings(webhook_overcommit, overcommitted(1, {}), ctx=V1_8) == [together()]


def test_null_hugepages_ask_for_none() -> None:
    """``hugepages:`` with no value decodes to a nil pointer in Go: no hugepages."""
    assert findings(webhook_overcommit, overcommitted(50, None), ctx=V1_8) == []


@pytest.mark.parametrize("release", known(), ids=str)
def test_every_release_refuses_overcommit_on_hugepages(release) -> None:
    assert findings(webhook_overcommit, overcommitted(50, {"pageSize": "2Mi"}),
                    ctx=RuleContext(kubevirt=release)) == [together(release=str(release))]


def test_a_percentage_from_0_to_100_is_in_range() -> None:
    assert findings(webhook_overcommit, overcommitted(0), overcommitted(100), ctx=V1_8) == []


def test_a_percentage_outside_0_to_100_is_refused() -> None:
    assert findings(webhook_overcommit, overcommitted(101), overcommitted(-1), ctx=V1_8) == [
        out_of_range(101, 0), out_of_range(-1, 1)]


def test_out_of_range_on_hugepages_gives_both_causes_in_go_s_order() -> None:
    assert findings(webhook_overcommit, overcommitted(-5, {}), overcommitted(150, {"pageSize": "2Mi"}),
                    ctx=V1_8) == [out_of_range(-5, 0), together(0), out_of_range(150, 1), together(1)]


def test_an_integral_float_is_read_as_its_integer() -> None:
    assert findings(webhook_overcommit, overcommitted(50.0, {}), overcommitted(150.0), ctx=V1_8) == [
        together(0), out_of_range(150, 1)]


def test_values_of_another_type_are_left_to_the_schema() -> None:
    assert findings(webhook_overcommit, overcommitted("50", {}), overcommitted(True, {}),
                    overcommitted(1.5, {}), overcommitted(None, {}), ctx=V1_8) == []


def test_the_namespaced_instancetype_is_checked_too() -> None:
    assert findings(webhook_overcommit, overcommitted(50, {}, kind=NIT), ctx=V1_8) == [together()]


def test_preferences_are_not_looked_at() -> None:
    pref = preference(memory={"overcommitPercent": 50, "hugepages": {}})
    assert findings(webhook_overcommit, pref, ctx=V1_8) == []


def validated(*objects: Any, release: Release = Release(1, 8)) -> list[str]:
    docs = [BundleDoc("b.yaml", i, data) for i, data in enumerate(objects)]
    return [str(p) for p in validate_documents(docs, RuleContext(kubevirt=release),
                                               rules=["schema", "webhook-decode", "webhook-overcommit"])]


def test_the_schema_reports_an_out_of_range_percentage_first() -> None:
    """The CRD schema holds overcommitPercent to 0..100, so the API server refuses it before the webhook."""
    found = validated(overcommitted(150))
    assert [line.rsplit(" [", 1)[1] for line in found] == ["schema]"]
    assert found[0].startswith("b.yaml#0 (o1.large) $.spec.memory.overcommitPercent: ")


def test_an_object_the_webhook_cannot_decode_gets_only_the_decode_error() -> None:
    broken = overcommitted(50, {})
    broken["spec"]["cpu"]["guest"] = -1
    assert validated(broken) == [
        "b.yaml#0 (o1.large) $.spec.cpu.guest: KubeVirt v1.8 refuses it: json: cannot unmarshal number -1 into "
        "Go struct field CPUInstancetype.spec.cpu.guest of type uint32 [webhook-decode]"]


def test_objects_without_a_percentage_to_judge_do_not_stop_the_check_of_the_ones_after_them() -> None:
    """A preference, then an instancetype without overcommitPercent, then one out of range."""
    assert findings(webhook_overcommit, preference(), instancetype("u1.large"), overcommitted(101),
                    ctx=V1_8) == [out_of_range(101, index=2)]
