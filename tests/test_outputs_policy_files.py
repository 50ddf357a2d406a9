"""generator/outputs/policy.py: the files made of the policy's text, word for word.

The kustomize component and the chart's template carry the policy file's documents; what is
pinned here is what they add around them: the component's kustomization, the chart's comment,
its switch and the value the retired binding's action becomes, and the values it reads.
"""

from __future__ import annotations

import pytest

from generator.model import Lifecycle
from generator.outputs.policy import (Policy, chart_template, chart_values, component_files, message, policy_objects,
                                      policy_text)
from generator.outputs.policy import document_text

POLICY = Policy({("instancetype", "u1.old"): Lifecycle("instancetype", "u1.old", "deprecated", "v1.2.0", "u1.new",
                                                       chain=("u1.new",), current="u1.new")}, "Deny")


def test_the_component_adds_the_policy_file_and_says_the_action_on_retired_names():
    assert component_files(POLICY) == {
        "components/policy/kustomization.yaml": (
            "# The admission policy of the catalog (citgen build --policy): Kubernetes warns about\n"
            "# VirtualMachines, VirtualMachinePools and inference labels naming deprecated or retired\n"
            "# instancetypes and preferences; retired names in a VM or pool: Deny.\n"
            "# Add it to a kustomization's components; docs/gitops.md shows how to move to Deny.\n"
            "apiVersion: kustomize.config.k8s.io/v1alpha1\n"
            "kind: Component\n"
            "resources:\n"
            "- policy.yaml\n").encode(),
        "components/policy/policy.yaml": policy_text(POLICY).encode()}


RETIRED_BINDING = """\
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: common-instancetypes-retired
spec:
  policyName: common-instancetypes-retired
  validationActions:
  - {{ .Values.policy.retired }}
"""


def test_the_chart_template_is_the_policy_file_when_enabled_with_the_retired_action_a_value():
    documents = "".join(document_text(obj) for obj in policy_objects(POLICY)[:3])
    assert chart_template(POLICY).decode() == (
        "{{- /*\n"
        "The admission policy citgen built with the catalog (citgen build --policy), installed\n"
        "when policy.enabled is true; policy.retired is the action on retired names.\n"
        "*/ -}}\n"
        "{{- if .Values.policy.enabled }}\n" + documents + RETIRED_BINDING + "{{- end }}\n")
    assert policy_text(POLICY).startswith(documents) and policy_text(POLICY).endswith(
        RETIRED_BINDING.replace("{{ .Values.policy.retired }}", "Deny"))


def test_a_policy_whose_text_holds_double_braces_is_no_chart_template():
    braced = Policy({("instancetype", "a{{b"): Lifecycle("instancetype", "a{{b", "deprecated")})
    with pytest.raises(ValueError) as raised:
        chart_template(braced)
    assert str(raised.value) == "the policy's text holds '{{', which Helm would read as a template"


def test_the_chart_values_turn_the_policy_off_with_the_catalog_s_action():
    assert chart_values(POLICY).decode() == (
        "\n"
        "# The admission policy (citgen build --policy): Kubernetes 1.30 or later warns about\n"
        "# VirtualMachines, VirtualMachinePools and inference labels that name a deprecated\n"
        "# or retired instancetype or preference of this catalog.\n"
        "policy:\n"
        "  # true installs both ValidatingAdmissionPolicies and their bindings.\n"
        "  enabled: false\n"
        "  # What a VM or pool naming a retired instancetype or preference gets: Warn or Deny.\n"
        "  retired: Deny\n")


def test_a_name_retired_in_no_release_given_is_said_to_be_retired_without_one():
    assert message(Lifecycle("instancetype", "x1.small", "retired")) == (
        "instancetype x1.small was retired; it has no replacement")
