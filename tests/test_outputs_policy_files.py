"""generator/outputs/policy.py: the files made of the policy's text, word for word.

The kustomize component and the chart's template carry the policy file's documents; what is
pinned here is what they add around them: the component's kustomization, the chart's comment,
its switch and the value the retired binding's action becomes, and the values it reads.
"""

from __future__ import annotations


from generator.model import Lifecycle
from generator.outputs.policy import (Policy, chart_files, chart_values, component_files, message, policy_objects,
                                      policy_text)
from generator.outputs.policy import document_text
from generator.schemas.releases import Release

POLICY = Policy({("instancetype", "u1.old"): Lifecycle("instancetype", "u1.old", "deprecated", "v1.2.0", "u1.new",
                                                       chain=("u1.new",), current="u1.new")}, "Deny")


def test_the_component_adds_the_policy_file_and_says_the_action_on_retired_names():
    assert component_files(POLICY) == {
        "components/policy/kustomization.yaml": (
            "# The admission policy of the catalog (citgen build --policy): Kubernetes warns about\n"
            "# VirtualMachines, VirtualMachinePools and inference labels naming deprecated or retired\n"
            "# instancetypes and preferences; retired names in a VM or pool: Deny.\n"
            "# Add it to a kustomization's components; docs/gitops.md shows how to move to Deny.\n"
            "# Needs Kubernetes 1.30 or later, which serves admissionregistration.k8s.io/v1.\n"
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


def test_the_chart_template_reads_the_policy_file_s_documents_when_enabled_and_served():
    files = chart_files(POLICY)
    documents = "".join(document_text(obj) for obj in policy_objects(POLICY)[:3])
    assert files["catalog/policy.yaml"].decode() == documents
    assert files["templates/policy.yaml"].decode() == (
        "{{- /*\n"
        "The admission policy citgen built with the catalog (citgen build --policy), installed\n"
        "when policy.enabled is true and the cluster serves the API; policy.retired is the\n"
        "action on retired names. Its documents are catalog/policy.yaml, read as text.\n"
        "*/ -}}\n"
        "{{- if and .Values.policy.enabled (.Capabilities.APIVersions.Has "
        "\"admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy\") }}\n"
        "{{- $documents := .Files.Get \"catalog/policy.yaml\" }}\n"
        "{{- if not $documents }}\n"
        "{{- fail \"catalog/policy.yaml is missing: package the chart with every file citgen wrote\" }}\n"
        "{{- end }}\n"
        "{{ $documents }}" + RETIRED_BINDING + "{{- end }}\n")
    assert policy_text(POLICY).endswith(documents + RETIRED_BINDING.replace("{{ .Values.policy.retired }}", "Deny"))


def test_double_braces_in_a_name_or_a_release_stay_text_in_the_chart():
    braced = Policy({("instancetype", "a{{b"): Lifecycle("instancetype", "a{{b", "deprecated", "{{ fail }}")})
    files = chart_files(braced)
    assert "{{ fail }}" in files["catalog/policy.yaml"].decode()  # read with .Files.Get: never a template
    assert "fail }}" not in files["templates/policy.yaml"].decode().replace("{{- fail \"catalog", "")


def test_the_chart_values_turn_the_policy_off_with_the_catalog_s_action():
    assert chart_values(POLICY).decode() == (
        "\n"
        "# The admission policy (citgen build --policy): Kubernetes 1.30 or later warns about\n"
        "# VirtualMachines, VirtualMachinePools and inference labels that name a deprecated\n"
        "# or retired instancetype or preference of this catalog. Rendered only where the\n"
        "# cluster serves admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy\n"
        "# (helm template: --api-versions admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy).\n"
        "policy:\n"
        "  # true installs both ValidatingAdmissionPolicies and their bindings.\n"
        "  enabled: false\n"
        "  # What a VM or pool naming a retired instancetype or preference gets: Warn or Deny.\n"
        "  retired: Deny\n")


def test_a_name_retired_in_no_release_given_is_said_to_be_retired_without_one():
    assert message(Lifecycle("instancetype", "x1.small", "retired")) == (
        "instancetype x1.small was retired; it has no replacement")


def test_the_files_say_which_clusters_of_an_older_kubevirt_release_cannot_take_the_policy():
    for_v1_2 = Policy(POLICY.records, "Warn", Release(1, 2))
    assert policy_text(for_v1_2).startswith(
        "# The admission policy of the catalog (citgen build --policy).\n"
        "# Needs Kubernetes 1.30 or later, which serves admissionregistration.k8s.io/v1.\n"
        "# KubeVirt v1.2 supports Kubernetes 1.27 to 1.29 (at its tag v1.2.0):\n"
        "# on Kubernetes 1.27 to 1.29 the policy cannot be installed (the chart leaves it out).\n---\n")
    assert "# KubeVirt v1.4 supports Kubernetes 1.29 to 1.31 (at its tag v1.4.0):\n" \
           "# on Kubernetes 1.29 the policy cannot be installed" in policy_text(Policy({}, "Warn", Release(1, 4)))
    assert "# on Kubernetes 1.29 the policy" in component_files(Policy({}, "Warn", Release(1, 4)))[
        "components/policy/kustomization.yaml"].decode()
    newer = policy_text(Policy({}, "Warn", Release(1, 5)))
    assert "KubeVirt" not in newer and "# Needs Kubernetes 1.30 or later" in newer
