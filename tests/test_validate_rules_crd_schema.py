"""generator/validate/rules/crd_schema.py: the CRD schema check as a rule, by the context's KubeVirt release.

The findings' wording is the schemas module's (tests/test_schemas.py pins it down);
here what matters is that every document is checked, by the schema of the release
the context names.
"""

from __future__ import annotations

from generator.schemas.releases import Release, newest
from generator.validate.rules import crd_schema
from generator.validate.rules.base import RuleContext

from tests.ruledocs import NIT, NPREF, findings, instancetype, preference

V1_8, V1_9 = RuleContext(kubevirt=Release(1, 8)), RuleContext(kubevirt=Release(1, 9))
VIDEO = {"preferredVideoType": "virtio"}  # a field KubeVirt v1.9 brought


def typo() -> dict:
    it = instancetype()
    it["spec"]["cpu"]["gueest"] = 2
    return it


def test_the_rules_id_is_schema() -> None:
    assert crd_schema.ID == "schema"


def test_objects_that_match_their_schema_pass() -> None:
    assert findings(crd_schema, instancetype(), instancetype(kind=NIT), preference(),
                    preference(kind=NPREF, devices={"preferredDiskBus": "virtio"})) == []


def test_a_field_the_schema_does_not_know_is_an_error_with_the_field_perhaps_meant() -> None:
    assert findings(crd_schema, typo()) == [
        "b.yaml#0 (u1.large) $.spec.cpu.gueest: unknown field 'gueest'; did you mean 'guest'? [schema]"]


def test_every_document_is_checked_and_each_bad_field_found_once() -> None:
    it = instancetype(cpu=2.5, labels={"cpu": 2})
    pref = preference(kind=NPREF, devices={"preferredDiskBus": 3})
    assert findings(crd_schema, typo(), instancetype(), it, pref) == [
        "b.yaml#0 (u1.large) $.spec.cpu.gueest: unknown field 'gueest'; did you mean 'guest'? [schema]",
        "b.yaml#2 (u1.large) $.metadata.labels['instancetype.kubevirt.io/cpu']: expected string, got integer 2 "
        "[schema]",
        "b.yaml#2 (u1.large) $.spec.cpu.guest: expected a whole number, got 2.5 [schema]",
        "b.yaml#3 (fedora) $.spec.devices.preferredDiskBus: expected string, got integer 3 [schema]"]


def test_a_float_with_an_integral_value_is_the_integer_the_api_server_takes() -> None:
    assert findings(crd_schema, instancetype(cpu=2.0)) == []


def test_what_is_no_catalog_object_is_said_to_be_so() -> None:
    assert findings(crd_schema, {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}, ["a list"]) == [
        "b.yaml#0 (p) $.kind: unknown kind 'Pod'; expected one of VirtualMachine, VirtualMachineClusterInstancetype, "
        "VirtualMachineClusterPreference, VirtualMachineInstancetype, VirtualMachinePreference [schema]",
        "b.yaml#1: expected a Kubernetes object (a mapping), got array [schema]"]


def test_a_field_of_a_later_release_is_unknown_to_the_release_judged_by_and_says_when_it_came() -> None:
    pref = preference("windows.11.virtio", devices=VIDEO)
    assert findings(crd_schema, pref, ctx=V1_8) == [
        "b.yaml#0 (windows.11.virtio) $.spec.devices.preferredVideoType: unknown field 'preferredVideoType': "
        "KubeVirt v1.8 does not have it (it came in v1.9) [schema]"]
    assert findings(crd_schema, pref, ctx=RuleContext(kubevirt=Release(1, 0))) == [
        "b.yaml#0 (windows.11.virtio) $.spec.devices.preferredVideoType: unknown field 'preferredVideoType': "
        "KubeVirt v1.0 does not have it (it came in v1.9) [schema]"]


def test_the_release_that_brought_a_field_knows_it() -> None:
    assert findings(crd_schema, preference("windows.11.virtio", devices=VIDEO), ctx=V1_9) == []


def test_the_default_context_judges_by_the_newest_release() -> None:
    assert newest() >= Release(1, 9)
    assert findings(crd_schema, preference("windows.11.virtio", devices=VIDEO)) == []


def test_no_documents_no_findings() -> None:
    assert findings(crd_schema) == []