"""The webhook-launch-security rule on its own: an instancetype's launch security is deprecated from v1.9.

The expected message is virt-api's own, v1.9 only (DeprecatedLaunchSecurityWarning in
pkg/instancetype/webhooks/admitter.go): the warning ``launchSecurity is deprecated and will
be removed in a future release. Use preference instead.`` for an instancetype whose
spec.launchSecurity is set, even to ``{}``. The object is admitted.
"""

from __future__ import annotations

from typing import Any

import pytest

from generator.schemas.releases import Release
from generator.source.documents import BundleDoc
from generator.validate import counted, validate_documents
from generator.validate.rules import webhook_launch_security
from generator.validate.rules.base import RuleContext

from tests.ruledocs import NIT, findings, instancetype, preference

V1_8, V1_9 = RuleContext(kubevirt=Release(1, 8)), RuleContext(kubevirt=Release(1, 9))
WARNING = ("b.yaml#{index} (u1.large) $.spec.launchSecurity: KubeVirt v1.9 warns: launchSecurity is deprecated and "
           "will be removed in a future release. Use preference instead. [webhook-launch-security]")


def secured(launch_security: Any = None, **spec: Any) -> dict:
    return instancetype(launchSecurity={"sev": {}} if launch_security is None else launch_security, **spec)


def warned(index: int = 0) -> str:
    return WARNING.format(index=index)


def test_v1_8_says_nothing_about_an_instancetype_s_launch_security() -> None:
    assert findings(webhook_launch_security, secured(), secured({}), ctx=V1_8) == []


@pytest.mark.parametrize("minor", range(0, 9))
def test_no_release_before_v1_9_warns(minor) -> None:
    assert findings(webhook_launch_security, secured(), ctx=RuleContext(kubevirt=Release(1, minor))) == []


def test_v1_9_warns_about_an_instancetype_s_launch_security() -> None:
    assert findings(webhook_launch_security, secured(), secured({"sev": {"policy": {"encryptedState": True}}}),
                    ctx=V1_9) == [warned(0), warned(1)]


def test_an_empty_launch_security_is_set_too() -> None:
    assert findings(webhook_launch_security, secured({}), ctx=V1_9) == [warned()]


def test_no_launch_security_or_a_null_one_is_no_finding() -> None:
    null = instancetype()
    null["spec"]["launchSecurity"] = None
    assert findings(webhook_launch_security, instancetype(), null, ctx=V1_9) == []


def test_the_finding_is_a_warning() -> None:
    problems = list(webhook_launch_security.check([BundleDoc("b.yaml", 0, secured())], V1_9))
    assert [p.severity for p in problems] == ["warning"]
    assert not counted(problems) and counted(problems, warnings=True) == problems


def test_the_namespaced_instancetype_is_checked_too() -> None:
    assert findings(webhook_launch_security, secured(kind=NIT), ctx=V1_9) == [warned()]


def test_a_preference_s_launch_security_is_where_it_belongs() -> None:
    assert findings(webhook_launch_security, preference(preferredLaunchSecurity={"sev": {}}),
                    preference(launchSecurity={"sev": {}}), ctx=V1_9) == []


# --- warnings only with an admitted object (validate_documents) --------------------------------

def validated(*objects: Any) -> list[str]:
    docs = [BundleDoc("b.yaml", i, data) for i, data in enumerate(objects)]
    return [str(p) for p in validate_documents(docs, V1_9, rules=[
        "schema", "webhook-decode", "webhook-overcommit", "webhook-launch-security"])]


def test_an_admitted_instancetype_keeps_its_warning() -> None:
    assert validated(secured()) == [warned()]


def test_an_instancetype_the_webhook_refuses_shows_no_warning() -> None:
    refused = secured()
    refused["spec"]["memory"].update(overcommitPercent=50, hugepages={"pageSize": "2Mi"})
    assert validated(refused, secured()) == [
        "b.yaml#0 (u1.large) $.spec.memory.overcommitPercent: KubeVirt v1.9 refuses it: spec.memory.overcommitPercent "
        "and spec.memory.hugepages should not be requested together. [webhook-overcommit]",
        warned(1)]


def test_an_instancetype_the_schema_refuses_shows_no_warning() -> None:
    refused = secured()
    refused["spec"]["cpu"]["gueest"] = 2
    assert validated(refused) == [
        "b.yaml#0 (u1.large) $.spec.cpu.gueest: unknown field 'gueest'; did you mean 'guest'? [schema]"]
