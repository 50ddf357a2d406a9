"""The api-version rule on its own: every document is a catalog object of instancetype.kubevirt.io/v1beta1."""

from __future__ import annotations

from generator.validate.rules import api_version

from tests.ruledocs import CIT, CPREF, NIT, NPREF, findings, obj


def test_the_four_kinds_at_v1beta1_pass() -> None:
    assert findings(api_version, *(obj(kind, "x") for kind in (CIT, NIT, CPREF, NPREF))) == []


def test_another_api_version_is_named_with_the_expected_one() -> None:
    old = obj(CIT, "u1.large")
    old["apiVersion"] = "instancetype.kubevirt.io/v1alpha2"
    missing = obj(NPREF, "fedora")
    del missing["apiVersion"]
    assert findings(api_version, old, missing) == [
        "b.yaml#0 (u1.large) $.apiVersion: apiVersion is 'instancetype.kubevirt.io/v1alpha2', "
        "expected 'instancetype.kubevirt.io/v1beta1' [api-version]",
        "b.yaml#1 (fedora) $.apiVersion: apiVersion is None, expected 'instancetype.kubevirt.io/v1beta1' [api-version]"]


def test_another_kind_is_one_problem_whatever_its_api_version() -> None:
    """A ConfigMap is reported for its kind only: its apiVersion is right for a ConfigMap."""
    config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}
    assert findings(api_version, config) == [
        "b.yaml#0 (c) $.kind: kind is 'ConfigMap', expected one of VirtualMachineClusterInstancetype, "
        "VirtualMachineInstancetype, VirtualMachineClusterPreference, VirtualMachinePreference [api-version]"]


def test_a_document_that_is_no_mapping_is_one_problem() -> None:
    assert findings(api_version, ["a", "list"], "text", obj(CIT, "u1.large")) == [
        "b.yaml#0: a document must be a mapping (a Kubernetes object) [api-version]",
        "b.yaml#1: a document must be a mapping (a Kubernetes object) [api-version]"]



def test_documents_after_one_of_another_kind_are_checked() -> None:
    config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}
    old = obj(CIT, "u1.large")
    old["apiVersion"] = "instancetype.kubevirt.io/v1alpha2"
    assert findings(api_version, config, old) == [
        "b.yaml#0 (c) $.kind: kind is 'ConfigMap', expected one of VirtualMachineClusterInstancetype, "
        "VirtualMachineInstancetype, VirtualMachineClusterPreference, VirtualMachinePreference [api-version]",
        "b.yaml#1 (u1.large) $.apiVersion: apiVersion is 'instancetype.kubevirt.io/v1alpha2', "
        "expected 'instancetype.kubevirt.io/v1beta1' [api-version]"]
