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
holds CEL map literals per family from name to message, and no params. A
reference is read as KubeVirt reads it: its kind lower-cased as Go lowers it
(golower.py: ``İ`` is ``i``), singular or plural, empty for the cluster kind; a
kind of neither family's is not judged (KubeVirt itself fails on it). An
UPDATE whose reference is what it was is not judged again: each rule compares
the new name with ``oldObject``'s.

What the API server accepts and shows bounds what is written (the limits
below, each with where Kubernetes sets it): every string is a CEL literal as
CEL defines one (escape.cel_string), every message one line within 5 KiB, a
family's map spread over literals of at most 100,000 code points each, and a
policy whose object would pass etcd's 1.5 MiB refused (InputError, nothing
written). The files say which Kubernetes the policy needs (1.30) and which
clusters of the KubeVirt release built for lack it (schemas/kubernetes.py).

This module makes the objects as data and their YAML text; the bundle file,
the kustomize component and the chart are made of that text (the chart reads
the documents as a file, so nothing in them is ever a template).
"""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from .. import escape
from ..errors import InputError
from ..expand.lifecycle import lifecycles
from ..frozen import frozen
from ..golower import ASCII_FOLDS
from ..model import Catalog, CatalogObject, Lifecycle
from ..problems import Location, Problem, excerpt
from ..render.yamltext import yaml_block
from ..schemas.kubernetes import supported
from ..schemas.releases import Release

__all__ = ["ACTIONS", "POLICY_FILE", "Policy", "build_policy", "policy_objects", "policy_text", "setting_action"]

#: The file the policy is written to, beside the bundles.
POLICY_FILE = "common-instancetypes-policy.yaml"
API_VERSION = "admissionregistration.k8s.io/v1"
#: catalog.yaml's words for what happens to a retired name, and the binding's action for each.
ACTIONS = {"warn": "Warn", "deny": "Deny"}
DEPRECATED_POLICY = "common-instancetypes-deprecated"
RETIRED_POLICY = "common-instancetypes-retired"
#: The oldest and the newest Kubernetes release the policy objects are written for: the API
#: (admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy) is GA, and served, from 1.30 on.
KUBERNETES_RELEASES = ("1.30", "1.37")
MIN_KUBERNETES = (1, 30)
#: What the chart asks the cluster before it renders the policy (.Capabilities.APIVersions.Has).
CAPABILITY = f"{API_VERSION}/ValidatingAdmissionPolicy"

# The API server's limits the policy is kept within, and where each is set:
#: Code points of one CEL expression: cel-go's parser refuses a longer one (its default,
#: parser/parser.go of google/cel-go: ``expressionSizeCodePointLimit = 100_000``; Kubernetes'
#: CEL environment, k8s.io/apiserver pkg/cel/environment/base.go, sets no other). Google's
#: C++ CEL, which the tests compile every expression with, has the same default.
MAX_EXPRESSION = 100_000
#: Bytes of one object: etcd's default request limit (--max-request-bytes, 1.5 MiB), which
#: the API server's own limits follow (k8s.io/apiserver pkg/server/config.go: "1.5MB is the
#: default client request size in bytes the etcd server should accept"). Counted as the
#: object's compact JSON, which is longer than the protobuf etcd stores for this text.
MAX_OBJECT_BYTES = 1_572_864
#: Most bytes of a message citgen writes. The API server shows a message of up to 5 KiB
#: without a line break; a longer one, or one with a line break, it replaces by "failed
#: expression: ..." (``MaxEvaluatedMessageExpressionSizeBytes = 5 * 1024``, k8s.io/apiserver
#: pkg/apis/cel/config.go, applied in pkg/admission/plugin/policy/validating/validator.go).
#: 2 KiB keeps well within it, with the label's key a label's message adds before it.
MAX_MESSAGE_BYTES = 2048
#: Most characters of a name and of a release quoted in a message (a Kubernetes name has 253 at most).
NAME_EXCERPT, RELEASE_EXCERPT = 253, 60

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


@frozen
class Policy:
    """What the policy of a build says: the names not current, and the action on retired ones."""

    records: Mapping[tuple[str, str], Lifecycle]
    retired: str = "Warn"  # the binding's action for retired names: Warn or Deny
    kubevirt: Release | None = None  # the KubeVirt release built for: the files say which of its clusters lack the API

    def names(self, status: str, family: str) -> list[str]:
        return [name for (fam, name), record in self.records.items() if fam == family and record.status == status]


def setting_action(setting: str | None) -> str:
    """The binding's action for catalog.yaml's ``policy.retired`` (warn when unset)."""
    return ACTIONS[setting or "warn"]


def build_policy(catalog: Catalog, objects: Sequence[CatalogObject], asked: bool,
                 kubevirt: Release | None = None) -> Policy | None:
    """The build's policy: when ``--policy`` asked for it or catalog.yaml sets ``policy``; None otherwise.

    InputError, located at ``--policy`` (or catalog.yaml's ``policy``), when the
    names do not fit in objects the API server accepts (``limit_problems``).
    """
    setting = catalog.settings.policy
    if not asked and setting is None:
        return None
    policy = Policy(lifecycles(objects, catalog.retirements), setting_action(setting), kubevirt)
    where = Location("--policy") if asked else Location(str(catalog.root / "catalog.yaml"), path=("policy",))
    found = limit_problems(policy)
    if found:
        raise InputError([Problem(where, said) for said in found])
    return policy


def message(record: Lifecycle) -> str:
    """What a user is told of a name: what it is, since when, and the name to use instead.

    One line the API server shows as it is: each name and release an excerpt
    on one line (escape.text: a line break in a retained bundle's annotation
    is written ``\\n``), the whole within ``MAX_MESSAGE_BYTES``.
    """
    what = f"{record.family} {excerpt(record.name, NAME_EXCERPT)}"
    since = excerpt(record.since, RELEASE_EXCERPT) if record.since else ""
    if record.status == "deprecated":
        said = f"{what} is deprecated" + (f" since {since}" if since else "")
    else:
        said = f"{what} was retired" + (f" in {since}" if since else "")
    instead = record.current or record.replacement
    said += f"; use {excerpt(instead, NAME_EXCERPT)} instead" if instead else "; it has no replacement"
    return _within(said, MAX_MESSAGE_BYTES)


def _within(text: str, limit: int) -> str:
    """``text``, or as much of it as fits in ``limit`` bytes of UTF-8 with ``...`` after, cut between characters."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return text
    return data[:limit - 3].decode("utf-8", "ignore") + "..."


def _entry(name: str, said: str) -> str:
    return f"{escape.cel_string(name)}: {escape.cel_string(said)}"


def _literal(messages: Mapping[str, str]) -> str:
    """A CEL map literal from name to message, each string as CEL writes one (escape.cel_string)."""
    return "{" + ", ".join(_entry(k, v) for k, v in sorted(messages.items())) + "}"


def _literals(messages: Mapping[str, str]) -> list[str]:
    """The map literals that hold ``messages``, each within ``MAX_EXPRESSION`` code points; one at least.

    ValueError when one name and its message alone make a longer expression.
    """
    found: list[list[str]] = [[]]
    size = 2  # the braces
    for name, said in sorted(messages.items()):
        entry = _entry(name, said)
        if 2 + len(entry) > MAX_EXPRESSION:
            raise ValueError(f"the name {excerpt(name)!r} alone makes a CEL expression of {2 + len(entry):,} "
                             f"code points, over the API server's {MAX_EXPRESSION:,}")
        if found[-1] and size + 2 + len(entry) > MAX_EXPRESSION:
            found.append([])
            size = 2
        size += (2 if found[-1] else 0) + len(entry)
        found[-1].append(entry)
    return ["{" + ", ".join(entries) + "}" for entries in found]


def _spec(var: str) -> str:
    """The VirtualMachine spec of ``var`` (a VM's own, a pool's template's), ``{}`` when there is none."""
    template = f"{var}.spec.virtualMachineTemplate"
    return (f"{var} != null && {var}.kind == 'VirtualMachinePool' ? "
            f"(has({var}.spec) && has({template}) && has({template}.spec) ? {template}.spec : {{}}) : "
            f"({var} != null && {var}.kind == 'VirtualMachine' && has({var}.spec) ? {var}.spec : {{}})")


def _folded(kind: str) -> str:
    """CEL for ``kind`` lower-cased as KubeVirt lowers it (Go's ``strings.ToLower``, generator/golower.py).

    The strings extension's ``lowerAscii()`` lowers ASCII only; the characters
    beyond ASCII that Go lowers to an ASCII letter (``İ`` to ``i``) are replaced
    after it. What is left beyond ASCII Go lowers to something beyond ASCII
    too, which no kind KubeVirt accepts holds: the result is one of them
    exactly when Go's is.
    """
    folds = "".join(f".replace({escape.cel_string(char)}, {escape.cel_string(ascii_)})"
                    for char, ascii_ in sorted(ASCII_FOLDS.items()))
    return f"{kind}.lowerAscii(){folds}"


#: The longest kind KubeVirt accepts: a longer one is none of them, however it is lowered (Go's
#: lowering keeps the number of characters), so the policy lowers no kind longer, whatever its cost.
_LONGEST_KIND = max(len(kind) for kinds in MATCHER_KINDS.values() for kind in kinds)


def _reference(spec: str, family: str) -> str:
    """The name ``spec``'s matcher of ``family`` gives, when its kind is one KubeVirt reads; '' otherwise."""
    field = f"{spec}.{_FIELD[family]}"
    kinds = ", ".join(json.dumps(k) for k in MATCHER_KINDS[family])
    return (f"has({field}) && has({field}.name) && (!has({field}.kind) || size({field}.kind) <= {_LONGEST_KIND} "
            f"&& {_folded(f'{field}.kind')} in [{kinds}]) ? {field}.name : ''")


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


#: The variables holding each map, by the map's name: one, or more where one expression cannot hold it.
Maps = Mapping[str, Sequence[str]]


def _member(key: str, maps: Sequence[str]) -> str:
    return " || ".join(f"{key} in variables.{name}" for name in maps)


def _lookup(key: str, maps: Sequence[str]) -> str:
    """CEL for ``key``'s message in the first of ``maps`` holding it (the last is not asked: one holds it)."""
    found = f"variables.{maps[-1]}[{key}]"
    for name in reversed(maps[:-1]):
        found = f"{key} in variables.{name} ? variables.{name}[{key}] : {found}"
    return found


def _reference_validations(status: str, maps: Maps) -> list[dict[str, str]]:
    """A rule per family: the reference changed and names a ``status`` name; the message is that name's."""
    found = []
    for family in MATCHER_KINDS:
        held, new, old = maps[f"{status}{_TITLE[family]}"], f"variables.{family}", f"variables.old{family.title()}"
        found.append({"expression": f"{new} == {old} || !({_member(new, held)})",
                      "messageExpression": _lookup(new, held)})
    return found


def _label_validations(maps: Maps) -> list[dict[str, str]]:
    found = []
    for family, key in INFERENCE_LABELS.items():
        new, old = f"variables.{family}Label", f"variables.old{family.title()}Label"
        held = [*maps[f"deprecated{_TITLE[family]}"], *maps[f"retired{_TITLE[family]}"]]
        found.append({"expression": f"{new} == {old} || !({_member(new, held)})",
                      "messageExpression": f"'label {key}: ' + ({_lookup(new, held)})"})
    return found


def _maps(policy: Policy, statuses: Sequence[str]) -> tuple[list[dict[str, str]], dict[str, list[str]]]:
    """The variables holding the names of ``statuses``, and their names by map (``deprecatedInstancetypes2``...)."""
    variables, names = [], {}
    for status in statuses:
        for family in MATCHER_KINDS:
            messages = {name: message(policy.records[(family, name)]) for name in policy.names(status, family)}
            base, literals = f"{status}{_TITLE[family]}", _literals(messages)
            names[base] = [base if n == 1 else f"{base}{n}" for n in range(1, len(literals) + 1)]
            variables += [{"name": name, "expression": literal} for name, literal in zip(names[base], literals)]
    return variables, names


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
    """The two policies and their bindings, in the order they are written: each policy, then its binding.

    ValueError when a name cannot be held in a CEL expression at all (``_literals``).
    """
    labels = [{"name": "labels", "expression": _labels("object")},
              {"name": "oldLabels", "expression": _labels("oldObject")}]
    for family in INFERENCE_LABELS:
        labels.append({"name": f"{family}Label", "expression": _label("variables.labels", family)})
        labels.append({"name": f"old{family.title()}Label", "expression": _label("variables.oldLabels", family)})
    maps, held = _maps(policy, ("deprecated", "retired"))
    deprecated = _policy(
        DEPRECATED_POLICY,
        "Warns about a VirtualMachine or VirtualMachinePool naming a deprecated instancetype or preference of "
        "the catalog, and about inference labels naming a deprecated or retired one.",
        _VM_RULES + _LABEL_RULES, maps + _reference_variables() + labels,
        _reference_validations("deprecated", held) + _label_validations(held))
    maps, held = _maps(policy, ("retired",))
    retired = _policy(
        RETIRED_POLICY,
        "Warns about, or refuses, a VirtualMachine or VirtualMachinePool naming an instancetype or preference "
        "the catalog retired.",
        _VM_RULES, maps + _reference_variables(), _reference_validations("retired", held))
    return [deprecated, _binding(DEPRECATED_POLICY, "Warn"), retired, _binding(RETIRED_POLICY, policy.retired)]


def _counts(policy: Policy) -> str:
    """How many names the policy holds, in words: ``1,203 deprecated and 0 retired instancetypes, ...``."""
    return ", ".join(f"{len(policy.names('deprecated', family)):,} deprecated and "
                     f"{len(policy.names('retired', family)):,} retired {family}s" for family in MATCHER_KINDS)


def limit_problems(policy: Policy) -> list[str]:
    """Why the API server would refuse the policy's objects: a name no expression holds, an object over etcd's limit.

    Names beyond what one expression holds (``MAX_EXPRESSION``) are spread over
    several; what is left is an object too large to store (``MAX_OBJECT_BYTES``).
    """
    try:
        objects = policy_objects(policy)
    except ValueError as exc:
        return [f"cannot write the admission policy: {exc}"]
    found = []
    for obj in objects:
        size = len(json.dumps(obj, separators=(",", ":")).encode())
        if size > MAX_OBJECT_BYTES:
            found.append(f"cannot write the admission policy: {obj['kind']} {obj['metadata']['name']} would be "
                         f"{size:,} bytes, over the {MAX_OBJECT_BYTES:,} (1.5 MiB) etcd stores as one object, so "
                         f"the API server would refuse it; it holds {_counts(policy)}: retain fewer releases "
                         "(--retain-from) or retire fewer names (catalog.yaml's retired)")
    return found


def _minor(release: tuple[int, int]) -> str:
    return f"{release[0]}.{release[1]}"


def kubernetes_note(policy: Policy) -> list[str]:
    """What the files say of the Kubernetes the policy needs, and of the KubeVirt release's clusters without it."""
    lines = [f"Needs Kubernetes {_minor(MIN_KUBERNETES)} or later, which serves {API_VERSION}."]
    known = supported(policy.kubevirt) if policy.kubevirt is not None else None
    if known is not None and known.oldest < MIN_KUBERNETES:
        last = min(known.newest, (MIN_KUBERNETES[0], MIN_KUBERNETES[1] - 1))
        lacking = _minor(known.oldest) if last == known.oldest else f"{_minor(known.oldest)} to {_minor(last)}"
        lines.append(f"KubeVirt {policy.kubevirt} supports Kubernetes {known} (at its tag {known.tag}):")
        lines.append(f"on Kubernetes {lacking} the policy cannot be installed (the chart leaves it out).")
    return lines


def document_text(obj: Mapping[str, Any]) -> str:
    """One object as a YAML document (``---`` first), every line within the lint's width."""
    return "---" + yaml_block(obj, 0) + "\n"


def policy_text(policy: Policy) -> str:
    """The policy file: a comment on the Kubernetes it needs, then its four documents."""
    head = "".join(f"# {line}\n" for line in ["The admission policy of the catalog (citgen build --policy).",
                                               *kubernetes_note(policy)])
    return head + "".join(document_text(obj) for obj in policy_objects(policy))


#: The kustomize component of the policy, inside the tree (outputs/kustomize.py).
COMPONENT = "components/policy"
#: The chart's template of the policy, the file of its documents that template reads, and the values.
CHART_TEMPLATE = "templates/policy.yaml"
CHART_FILE = "catalog/policy.yaml"
CHART_VALUES = """
# The admission policy (citgen build --policy): Kubernetes 1.30 or later warns about
# VirtualMachines, VirtualMachinePools and inference labels that name a deprecated
# or retired instancetype or preference of this catalog. Rendered only where the
# cluster serves {capability}
# (helm template: --api-versions {capability}).
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
        *(f"# {line}" for line in kubernetes_note(policy)),
        "apiVersion: kustomize.config.k8s.io/v1alpha1",
        "kind: Component",
        "resources:",
        "- policy.yaml",
        ""])
    return {f"{COMPONENT}/kustomization.yaml": kustomization.encode(),
            f"{COMPONENT}/policy.yaml": policy_text(policy).encode()}


def chart_files(policy: Policy) -> dict[str, bytes]:
    """The chart's files of the policy: its template, and the documents it reads as a file.

    The documents are the policy file's but for the retired binding, whose
    action is a value. Helm reads them with ``.Files.Get``, as text: whatever a
    name or a retained bundle's annotation holds (``{{``), none of it is read
    as a template. The template renders them when ``policy.enabled`` is true
    and the cluster serves the API (``.Capabilities.APIVersions.Has``):
    on an older cluster, or under ``helm template`` without ``--api-versions``
    naming it, it renders nothing (NOTES.txt says so).
    """
    objects = policy_objects(policy)
    documents = "".join(document_text(obj) for obj in objects[:-1])
    binding = document_text(_binding(RETIRED_POLICY, "RETIRED-ACTION")).replace("RETIRED-ACTION", _CHART_ACTION)
    lines = ["{{- /*",
             "The admission policy citgen built with the catalog (citgen build --policy), installed",
             "when policy.enabled is true and the cluster serves the API; policy.retired is the",
             f"action on retired names. Its documents are {CHART_FILE}, read as text.",
             "*/ -}}",
             f'{{{{- if and .Values.policy.enabled (.Capabilities.APIVersions.Has "{CAPABILITY}") }}}}',
             f'{{{{- $documents := .Files.Get "{CHART_FILE}" }}}}',
             "{{- if not $documents }}",
             f'{{{{- fail "{CHART_FILE} is missing: package the chart with every file citgen wrote" }}}}',
             "{{- end }}",
             "{{ $documents }}"]
    template = "\n".join(lines) + binding + "{{- end }}\n"
    return {CHART_TEMPLATE: template.encode(), CHART_FILE: documents.encode()}


def chart_values(policy: Policy) -> bytes:
    """The lines values.yaml ends with: the policy off, and the catalog's action on retired names."""
    return CHART_VALUES.format(retired=policy.retired, capability=CAPABILITY).encode()
