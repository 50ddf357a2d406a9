"""The admission policy: the cluster warns about deprecated catalog names, and warns about or refuses retired ones.

Opt-in (``citgen build --policy``, or catalog.yaml's ``policy``): two
ValidatingAdmissionPolicies (admissionregistration.k8s.io/v1, GA in Kubernetes
1.30), each with its binding, one per action:

- ``common-instancetypes-deprecated`` (always ``Warn``): a VirtualMachine or a
  VirtualMachinePool naming a deprecated instancetype or preference, and the
  inference labels of DataSources, DataVolumes, PVCs and DataImportCrons
  naming a deprecated or a retired one;
- ``common-instancetypes-retired`` (``Warn``, or ``Deny`` when catalog.yaml says
  ``policy: {retired: deny}`` or the chart's value does): a VirtualMachine or a
  VirtualMachinePool naming a retired instancetype or preference.

The names and messages come from ``expand.lifecycle.lifecycles`` of the build's
objects and catalog.yaml's ``retired`` (what ``citgen refs`` reads): each policy
holds one CEL map literal per family from name to message, and no params. A
reference is read as KubeVirt reads it: its kind lower-cased, singular or
plural, empty for the cluster kind; a kind of neither family's is not judged
(KubeVirt itself fails on it). An UPDATE whose reference is what it was is not
judged again: each rule compares the new name with ``oldObject``'s.

This module makes the objects as data and their YAML text; the bundle file,
the kustomize component and the chart's template are made of that text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..expand.lifecycle import lifecycles
from ..model import Catalog, CatalogObject, Lifecycle
from ..render.yamltext import yaml_block

__all__ = ["ACTIONS", "POLICY_FILE", "Policy", "build_policy", "policy_objects", "policy_text", "setting_action"]

#: The file the policy is written to, beside the bundles.
POLICY_FILE = "common-instancetypes-policy.yaml"
API_VERSION = "admissionregistration.k8s.io/v1"
#: catalog.yaml's words for what happens to a retired name, and the binding's action for each.
ACTIONS = {"warn": "Warn", "deny": "Deny"}
DEPRECATED_POLICY = "common-instancetypes-deprecated"
RETIRED_POLICY = "common-instancetypes-retired"
#: The oldest and the newest Kubernetes release the policy objects are written for.
KUBERNETES_RELEASES = ("1.30", "1.37")

#: The kinds KubeVirt accepts in a matcher, lower-cased, for each family; "" is the cluster kind.
MATCHER_KINDS = {
    "instancetype": ("", "virtualmachineclusterinstancetype", "virtualmachineclusterinstancetypes",
                     "virtualmachineinstancetype", "virtualmachineinstancetypes"),
    "preference": ("", "virtualmachineclusterpreference", "virtualmachineclusterpreferences",
                   "virtualmachinepreference", "virtualmachinepreferences"),
}
#: The labels CDI's and KubeVirt's inference read, for each family.
INFERENCE_LABELS = {
    "instancetype": "instancetype.kubevirt.io/default-instancetype",
    "preference": "instancetype.kubevirt.io/default-preference",
}
#: The kinds whose inference labels are judged, as the API server names them in ``object.kind``.
LABELLED_KINDS = ("DataImportCron", "DataSource", "DataVolume", "PersistentVolumeClaim")
_FIELD = {"instancetype": "instancetype", "preference": "preference"}
_TITLE = {"instancetype": "Instancetypes", "preference": "Preferences"}

_VM_RULES = [
    {"apiGroups": ["kubevirt.io"], "apiVersions": ["*"], "operations": ["CREATE", "UPDATE"],
     "resources": ["virtualmachines"]},
    {"apiGroups": ["pool.kubevirt.io"], "apiVersions": ["v1alpha1", "v1beta1"], "operations": ["CREATE", "UPDATE"],
     "resources": ["virtualmachinepools"]},
]
_LABEL_RULES = [
    {"apiGroups": ["cdi.kubevirt.io"], "apiVersions": ["*"], "operations": ["CREATE", "UPDATE"],
     "resources": ["dataimportcrons", "datasources", "datavolumes"]},
    {"apiGroups": [""], "apiVersions": ["v1"], "operations": ["CREATE", "UPDATE"],
     "resources": ["persistentvolumeclaims"]},
]


@dataclass(frozen=True)
class Policy:
    """What the policy of a build says: the names not current, and the action on retired ones."""

    records: Mapping[tuple[str, str], Lifecycle]
    retired: str = "Warn"  # the binding's action for retired names: Warn or Deny

    def names(self, status: str, family: str) -> list[str]:
        return [name for (fam, name), record in self.records.items() if fam == family and record.status == status]


def setting_action(setting: str | None) -> str:
    """The binding's action for catalog.yaml's ``policy.retired`` (warn when unset)."""
    return ACTIONS[setting or "warn"]


def build_policy(catalog: Catalog, objects: Sequence[CatalogObject], asked: bool) -> Policy | None:
    """The build's policy: when ``--policy`` asked for it or catalog.yaml sets ``policy``; None otherwise."""
    setting = catalog.settings.policy
    if not asked and setting is None:
        return None
    return Policy(lifecycles(objects, catalog.retirements), setting_action(setting))


def message(record: Lifecycle) -> str:
    """What a user is told of a name: what it is, since when, and the name to use instead."""
    what = f"{record.family} {record.name}"
    if record.status == "deprecated":
        said = f"{what} is deprecated" + (f" since {record.since}" if record.since else "")
    else:
        said = f"{what} was retired" + (f" in {record.since}" if record.since else "")
    instead = record.current or record.replacement
    return said + (f"; use {instead} instead" if instead else "; it has no replacement")


def _literal(messages: Mapping[str, str]) -> str:
    """A CEL map literal from name to message (CEL's string literals read JSON's escapes)."""
    if not messages:
        return "{}"
    return "{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in sorted(messages.items())) + "}"


def _spec(var: str) -> str:
    """The VirtualMachine spec of ``var`` (a VM's own, a pool's template's), ``{}`` when there is none."""
    template = f"{var}.spec.virtualMachineTemplate"
    return (f"{var} != null && {var}.kind == 'VirtualMachinePool' ? "
            f"(has({var}.spec) && has({template}) && has({template}.spec) ? {template}.spec : {{}}) : "
            f"({var} != null && {var}.kind == 'VirtualMachine' && has({var}.spec) ? {var}.spec : {{}})")


def _reference(spec: str, family: str) -> str:
    """The name ``spec``'s matcher of ``family`` gives, when its kind is one KubeVirt reads; '' otherwise."""
    field = f"{spec}.{_FIELD[family]}"
    kinds = ", ".join(json.dumps(k) for k in MATCHER_KINDS[family])
    return (f"has({field}) && has({field}.name) && "
            f"(has({field}.kind) ? {field}.kind.lowerAscii() : '') in [{kinds}] ? {field}.name : ''")


def _labels(var: str) -> str:
    """``var``'s labels when it is a kind whose inference labels count, ``{}`` otherwise."""
    kinds = ", ".join(json.dumps(k) for k in LABELLED_KINDS)
    return (f"{var} != null && {var}.kind in [{kinds}] && has({var}.metadata) && has({var}.metadata.labels) ? "
            f"{var}.metadata.labels : {{}}")


def _label(labels: str, family: str) -> str:
    key = json.dumps(INFERENCE_LABELS[family])
    return f"{key} in {labels} ? {labels}[{key}] : ''"


def _reference_variables() -> list[dict[str, str]]:
    found = [{"name": "spec", "expression": _spec("object")}, {"name": "oldSpec", "expression": _spec("oldObject")}]
    for family in MATCHER_KINDS:
        found.append({"name": family, "expression": _reference("variables.spec", family)})
        found.append({"name": "old" + family.title(), "expression": _reference("variables.oldSpec", family)})
    return found


def _reference_validations(status: str) -> list[dict[str, str]]:
    """A rule per family: the reference changed and names a ``status`` name; the message is that name's."""
    found = []
    for family in MATCHER_KINDS:
        names, new, old = f"variables.{status}{_TITLE[family]}", f"variables.{family}", \
            f"variables.old{family.title()}"
        found.append({"expression": f"{new} == {old} || !({new} in {names})",
                      "messageExpression": f"{names}[{new}]"})
    return found


def _label_validations() -> list[dict[str, str]]:
    found = []
    for family, key in INFERENCE_LABELS.items():
        new, old = f"variables.{family}Label", f"variables.old{family.title()}Label"
        deprecated, retired = f"variables.deprecated{_TITLE[family]}", f"variables.retired{_TITLE[family]}"
        found.append({
            "expression": f"{new} == {old} || !({new} in {deprecated} || {new} in {retired})",
            "messageExpression": f"'label {key}: ' + ({new} in {deprecated} ? {deprecated}[{new}] : {retired}[{new}])"})
    return found


def _maps(policy: Policy, statuses: Sequence[str]) -> list[dict[str, str]]:
    found = []
    for status in statuses:
        for family in MATCHER_KINDS:
            messages = {name: message(policy.records[(family, name)]) for name in policy.names(status, family)}
            found.append({"name": f"{status}{_TITLE[family]}", "expression": _literal(messages)})
    return found


def _policy(name: str, what: str, rules: list[dict[str, Any]], variables: list[dict[str, str]],
            validations: list[dict[str, str]]) -> dict[str, Any]:
    return {
        "apiVersion": API_VERSION,
        "kind": "ValidatingAdmissionPolicy",
        "metadata": {"name": name, "annotations": {"instancetype.kubevirt.io/description": what}},
        "spec": {
            "failurePolicy": "Ignore",
            "matchConstraints": {"resourceRules": rules},
            "variables": variables,
            "validations": validations,
        },
    }


def _binding(name: str, action: str) -> dict[str, Any]:
    return {
        "apiVersion": API_VERSION,
        "kind": "ValidatingAdmissionPolicyBinding",
        "metadata": {"name": name},
        "spec": {"policyName": name, "validationActions": [action]},
    }


def policy_objects(policy: Policy) -> list[dict[str, Any]]:
    """The two policies and their bindings, in the order they are written: each policy, then its binding."""
    labels = [{"name": "labels", "expression": _labels("object")},
              {"name": "oldLabels", "expression": _labels("oldObject")}]
    for family in INFERENCE_LABELS:
        labels.append({"name": f"{family}Label", "expression": _label("variables.labels", family)})
        labels.append({"name": f"old{family.title()}Label", "expression": _label("variables.oldLabels", family)})
    deprecated = _policy(
        DEPRECATED_POLICY,
        "Warns about a VirtualMachine or VirtualMachinePool naming a deprecated instancetype or preference of "
        "the catalog, and about inference labels naming a deprecated or retired one.",
        _VM_RULES + _LABEL_RULES, _maps(policy, ("deprecated", "retired")) + _reference_variables() + labels,
        _reference_validations("deprecated") + _label_validations())
    retired = _policy(
        RETIRED_POLICY,
        "Warns about, or refuses, a VirtualMachine or VirtualMachinePool naming an instancetype or preference "
        "the catalog retired.",
        _VM_RULES, _maps(policy, ("retired",)) + _reference_variables(), _reference_validations("retired"))
    return [deprecated, _binding(DEPRECATED_POLICY, "Warn"), retired, _binding(RETIRED_POLICY, policy.retired)]


def document_text(obj: Mapping[str, Any]) -> str:
    """One object as a YAML document (``---`` first), every line within the lint's width."""
    return "---" + yaml_block(obj, 0) + "\n"


def policy_text(policy: Policy) -> str:
    """The policy file: its four documents."""
    return "".join(document_text(obj) for obj in policy_objects(policy))


#: The kustomize component of the policy, inside the tree (outputs/kustomize.py).
COMPONENT = "components/policy"
#: The chart's template of the policy, and the values it reads (outputs/helm.py).
CHART_TEMPLATE = "templates/policy.yaml"
CHART_VALUES = """
# The admission policy (citgen build --policy): Kubernetes 1.30 or later warns about
# VirtualMachines, VirtualMachinePools and inference labels that name a deprecated
# or retired instancetype or preference of this catalog.
policy:
  # true installs both ValidatingAdmissionPolicies and their bindings.
  enabled: false
  # What a VM or pool naming a retired instancetype or preference gets: Warn or Deny.
  retired: {retired}
"""
CHART_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["enabled", "retired"],
    "properties": {"enabled": {"type": "boolean"}, "retired": {"type": "string", "enum": list(ACTIONS.values())}},
}
_CHART_ACTION = "{{ .Values.policy.retired }}"


def component_files(policy: Policy) -> dict[str, bytes]:
    """The component (relative to the kustomize tree) that adds the policy to whatever a kustomization takes."""
    kustomization = "\n".join([
        "# The admission policy of the catalog (citgen build --policy): Kubernetes warns about",
        "# VirtualMachines, VirtualMachinePools and inference labels naming deprecated or retired",
        f"# instancetypes and preferences; retired names in a VM or pool: {policy.retired}.",
        "# Add it to a kustomization's components; docs/gitops.md shows how to move to Deny.",
        "apiVersion: kustomize.config.k8s.io/v1alpha1",
        "kind: Component",
        "resources:",
        "- policy.yaml",
        ""])
    return {f"{COMPONENT}/kustomization.yaml": kustomization.encode(),
            f"{COMPONENT}/policy.yaml": policy_text(policy).encode()}


def chart_template(policy: Policy) -> bytes:
    """The chart's Go template: the policy file's documents when ``policy.enabled``, the action a value.

    The documents are the bundle file's, but for the retired binding's action;
    the text carries no ``{{`` of its own (CEL writes no double braces), which
    is checked, so Helm reads nothing of it as a template.
    """
    objects = policy_objects(policy)
    texts = [document_text(obj) for obj in objects[:-1]]
    if any("{{" in text for text in texts):
        raise ValueError("the policy's text holds '{{', which Helm would read as a template")
    binding = document_text(_binding(RETIRED_POLICY, "RETIRED-ACTION")).replace("RETIRED-ACTION", _CHART_ACTION)
    lines = ["{{- /*",
             "The admission policy citgen built with the catalog (citgen build --policy), installed",
             "when policy.enabled is true; policy.retired is the action on retired names.",
             "*/ -}}",
             "{{- if .Values.policy.enabled }}"]
    return ("\n".join(lines) + "\n" + "".join(texts) + binding + "{{- end }}\n").encode()


def chart_values(policy: Policy) -> bytes:
    """The lines values.yaml ends with: the policy off, and the catalog's action on retired names."""
    return CHART_VALUES.format(retired=policy.retired).encode()
