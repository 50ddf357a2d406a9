"""Each rule on small objects built here: one passing and several failing cases.

Objects are built without source maps, so messages read
``b.yaml#<index> (<name>) <json path>: <message> [<rule>]``.
"""

from __future__ import annotations

import copy
import re
from fractions import Fraction
from typing import Any

import pytest

from generator.problems import jsonpath, sort_problems
from generator.source.documents import BundleDoc
from generator.validate.rules import RULES, RuleContext, SeriesRatio

CIT, NIT = "VirtualMachineClusterInstancetype", "VirtualMachineInstancetype"
CPREF, NPREF = "VirtualMachineClusterPreference", "VirtualMachinePreference"
P = "instancetype.kubevirt.io/"

CTX = RuleContext(
    vendor="kubevirt.io",
    series={"u1": SeriesRatio(Fraction(4), frozenset({"nano", "2xmedium"})),
            "cx1": SeriesRatio(Fraction(2))},
)


def instancetype(name: str = "u1.large", cpu: int = 2, memory: str = "8Gi", *, kind: str = CIT,
                 labels: dict | None = None, extra: dict | None = None) -> dict:
    """An instancetype whose labels agree with its spec unless ``labels`` overrides them (None drops one)."""
    found = {P + "cpu": str(cpu), P + "memory": memory, P + "size": name.partition(".")[2],
             P + "vendor": "kubevirt.io"}
    for key, value in (labels or {}).items():
        if value is None:
            found.pop(P + key, None)
        else:
            found[P + key] = value
    body = {"cpu": {"guest": cpu}, "memory": {"guest": memory}}
    for key, value in (extra or {}).items():
        body[key] = {**body.get(key, {}), **value} if isinstance(value, dict) else value
    return {"apiVersion": P + "v1beta1", "kind": kind, "metadata": {"name": name, "labels": found},
            "spec": body}


def preference(name: str = "fedora", *, kind: str = CPREF, labels: dict | None = None, **spec: Any) -> dict:
    found = {P + "vendor": "kubevirt.io", **{P + k: v for k, v in (labels or {}).items()}}
    return {"apiVersion": P + "v1beta1", "kind": kind, "metadata": {"name": name, "labels": found},
            "spec": spec}


def requiring(name: str, cpu: int, memory: str, arch: str | None = None) -> dict:
    labels = {"required-cpu": str(cpu), "required-memory": memory}
    requirements: dict = {"cpu": {"guest": cpu}, "memory": {"guest": memory}}
    if arch:
        labels["required-architecture"] = arch
        requirements["architecture"] = arch
    return preference(name, labels=labels, requirements=requirements)


def run(rule: str, *objects: Any, ctx: RuleContext = CTX) -> list[str]:
    docs = [BundleDoc("b.yaml", i, obj) for i, obj in enumerate(objects)]
    return [str(p) for p in sort_problems(RULES[rule].check(docs, ctx))]


# --- the registry ---------------------------------------------------------------------------

def test_every_rule_is_registered_under_its_id_with_summary_and_example():
    assert list(RULES) == ["api-version", "object-metadata", "webhook-decode", "webhook-overcommit",
                           "webhook-cpu-topology", "webhook-spread-options", "webhook-launch-security",
                           "name-grammar", "unique-names", "twins-identical", "known-labels", "labels-match-spec",
                           "vendor-label", "series-ratio", "requirements-met", "osinfo"]
    for rule_id, rule in RULES.items():
        assert rule.id == rule_id and re.fullmatch(r"[a-z]+(-[a-z]+)*", rule_id)
        assert rule.summary.endswith(".") and "\n" not in rule.summary
        assert f"[{rule_id}]" in rule.doc  # the example message


def test_every_rule_is_described_in_the_validation_guide():
    from pathlib import Path

    guide = (Path(__file__).parent.parent / "docs" / "validation.md").read_text(encoding="utf-8")
    headings = re.findall(r"^### (\S+)$", guide, flags=re.M)
    assert [h for h in headings if h in RULES] == list(RULES)


def test_rules_say_nothing_about_objects_that_follow_them():
    objects = [instancetype(), instancetype(kind=NIT), instancetype("u1.nano", 1, "512Mi"),
               requiring("fedora", 1, "2Gi"), requiring("fedora", 1, "2Gi") | {"kind": NPREF}]
    assert {rule: run(rule, *objects) for rule in RULES} == {rule: [] for rule in RULES}


def test_rules_survive_malformed_documents():
    junk = ["text", None, {"kind": CIT}, {"kind": CIT, "metadata": {"name": 3, "labels": "x"}},
            {"kind": CPREF, "metadata": {"name": "p"}, "spec": {"requirements": {"cpu": "many"}}},
            {"kind": CIT, "metadata": {"name": "u1.large"}, "spec": {"cpu": {"guest": "2"}, "memory": []}}]
    found = {rule: len(run(rule, *junk)) for rule in RULES}
    # the shape is api-version's and object-metadata's to report (and the schema's); malformed
    # spec values are skipped, so only the missing size and vendor labels are left
    assert found == {"api-version": 6, "object-metadata": 3, "webhook-decode": 0, "webhook-overcommit": 0,
                     "webhook-cpu-topology": 0, "webhook-spread-options": 0, "webhook-launch-security": 0,
                     "name-grammar": 0, "unique-names": 0, "twins-identical": 0,
                     "known-labels": 0, "labels-match-spec": 1, "vendor-label": 4, "series-ratio": 0,
                     "requirements-met": 0, "osinfo": 0}


# --- api-version ------------------------------------------------------------------------------

def test_api_version_must_be_v1beta1():
    obj = instancetype()
    obj["apiVersion"] = P + "v1alpha2"
    assert run("api-version", obj) == [
        "b.yaml#0 (u1.large) $.apiVersion: apiVersion is 'instancetype.kubevirt.io/v1alpha2', "
        "expected 'instancetype.kubevirt.io/v1beta1' [api-version]"]


def test_api_version_rejects_other_kinds_and_non_objects():
    assert run("api-version", {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}, "text") == [
        "b.yaml#0 (c) $.kind: kind is 'ConfigMap', expected one of VirtualMachineClusterInstancetype, "
        "VirtualMachineInstancetype, VirtualMachineClusterPreference, VirtualMachinePreference [api-version]",
        "b.yaml#1: a document must be a mapping (a Kubernetes object) [api-version]"]


# --- name-grammar -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["u1.nano", "cx1.2xlarge1gi", "gn1.xlarge", "rt12.my-size"])
def test_instancetype_names_following_the_grammar(name):
    assert run("name-grammar", instancetype(name)) == []


def test_preference_names_need_only_be_kubernetes_names():
    assert run("name-grammar", preference("windows.2k22.virtio"), preference("alpine")) == []


def test_instancetype_names_without_series_or_size():
    assert run("name-grammar", instancetype("large"), instancetype("u.large"), instancetype("u1.big.large")) == [
        "b.yaml#0 (large) $.metadata.name: instancetype name 'large' does not follow "
        "<series><version>.<size>, e.g. u1.medium or cx1.2xlarge1gi [name-grammar]",
        "b.yaml#1 (u.large) $.metadata.name: instancetype name 'u.large' does not follow "
        "<series><version>.<size>, e.g. u1.medium or cx1.2xlarge1gi [name-grammar]",
        "b.yaml#2 (u1.big.large) $.metadata.name: instancetype name 'u1.big.large' does not follow "
        "<series><version>.<size>, e.g. u1.medium or cx1.2xlarge1gi [name-grammar]"]


def test_names_kubernetes_refuses_are_left_to_object_metadata():
    assert run("name-grammar", instancetype("U1.Large"), instancetype("u1.large-")) == []


# --- object-metadata --------------------------------------------------------------------------

SUBDOMAIN = ("a DNS-1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
             "start and end with an alphanumeric character")
NAME_PART = ("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
             "with an alphanumeric character")
VALUE = ("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and "
         "must start and end with an alphanumeric character")


def with_metadata(labels: dict | None = None, annotations: dict | None = None, name: Any = "fedora") -> dict:
    obj = preference(name)
    obj["metadata"]["labels"].update(labels or {})
    if annotations is not None:
        obj["metadata"]["annotations"] = annotations
    return obj


def test_metadata_the_api_server_accepts():
    fine = with_metadata(
        {"example.com/team": "platform", "team": "", "a" * 63: "b" * 63, f"{'d' * 253}/x": "x.y_z-1",
         "app.kubernetes.io/part-of": "KubeVirt"},
        {"Example.COM/Team": "anything at all: \n # *", "openshift.io/display-name": "Fedora"})
    assert run("object-metadata", fine, with_metadata(name="a" * 253)) == []


def test_names_that_are_not_kubernetes_names():
    too_long = "a" * 254
    assert run("object-metadata", preference("Fedora"), preference("-x"), preference(too_long)) == [
        f"b.yaml#0 (Fedora) $.metadata.name: 'Fedora' is not a valid object name: {SUBDOMAIN} [object-metadata]",
        f"b.yaml#1 (-x) $.metadata.name: '-x' is not a valid object name: {SUBDOMAIN} [object-metadata]",
        f"b.yaml#2 ({too_long}) $.metadata.name: {too_long!r} is not a valid object name: must be no more "
        "than 253 characters [object-metadata]"]


def test_missing_or_malformed_name():
    missing = preference()
    del missing["metadata"]["name"]
    assert run("object-metadata", missing, with_metadata(name=3), {"kind": CPREF}) == [
        "b.yaml#0 $.metadata: metadata.name is required [object-metadata]",
        "b.yaml#1 $.metadata.name: metadata.name must be a string, got the integer 3 [object-metadata]",
        "b.yaml#2 $.metadata: metadata must be a mapping holding at least the name [object-metadata]"]


def test_label_keys():
    assert run("object-metadata", with_metadata({
        "team example": "x", "a" * 64: "x", "/team": "x", "Example.com/team": "x", "a/b/c": "x",
        f"{'d' * 254}/x": "x", "example.com/": "x"})) == [
        f"b.yaml#0 (fedora) {jsonpath(('metadata', 'labels', k))}: {k!r} is not a valid label key: {m} "
        "[object-metadata]"
        for k, m in sorted({
            "team example": NAME_PART,
            "a" * 64: "name part must be no more than 63 characters",
            "/team": "prefix part must be non-empty",
            "Example.com/team": f"prefix part {SUBDOMAIN}",
            "a/b/c": "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start "
                     "and end with an alphanumeric character, with an optional DNS subdomain prefix and '/' "
                     "(e.g. 'example.com/MyName')",
            f"{'d' * 254}/x": "prefix part must be no more than 253 characters",
            "example.com/": "name part must be non-empty"}.items())]


def test_label_values():
    assert run("object-metadata", with_metadata({
        "a": "general purpose!", "b": "v" + "1" * 69, "c": "-x", "d": 4, "e": True, "f": "x" * 64 + "!"})) == [
        f"b.yaml#0 (fedora) $.metadata.labels.a: 'general purpose!' is not a valid label value: {VALUE} "
        "[object-metadata]",
        f"b.yaml#0 (fedora) $.metadata.labels.b: {'v' + '1' * 69!r} is not a valid label value: must be no "
        "more than 63 characters [object-metadata]",
        f"b.yaml#0 (fedora) $.metadata.labels.c: '-x' is not a valid label value: {VALUE} [object-metadata]",
        "b.yaml#0 (fedora) $.metadata.labels.d: label 'd' must have a string value, got the integer 4 "
        "(quote it in YAML) [object-metadata]",
        "b.yaml#0 (fedora) $.metadata.labels.e: label 'e' must have a string value, got the boolean true "
        "(quote it in YAML) [object-metadata]",
        f"b.yaml#0 (fedora) $.metadata.labels.f: {'x' * 64 + '!'!r} is not a valid label value: must be no "
        f"more than 63 characters; {VALUE} [object-metadata]"]


def test_labels_and_annotations_must_be_string_maps():
    obj = with_metadata(annotations={"team example": "x", 5: "five", "ok": 1.5})
    obj["metadata"]["labels"] = ["x"]
    assert run("object-metadata", obj) == [
        "b.yaml#0 (fedora) $.metadata.annotations: annotation keys must be strings, got the integer 5 "
        "[object-metadata]",
        "b.yaml#0 (fedora) $.metadata.annotations.ok: annotation 'ok' must have a string value, got the "
        "number 1.5 (quote it in YAML) [object-metadata]",
        f"b.yaml#0 (fedora) $.metadata.annotations['team example']: 'team example' is not a valid annotation "
        f"key: {NAME_PART} [object-metadata]",
        "b.yaml#0 (fedora) $.metadata.labels: metadata.labels must be a mapping of strings to strings, got a "
        "list [object-metadata]"]


def test_annotations_may_take_256_kib_together():
    key = "example.com/notes"
    at_limit = with_metadata(annotations={key: "x" * (262144 - len(key))})
    over = with_metadata(annotations={key: "x" * (262144 - len(key) - 2), "b": "é"})  # é is 2 bytes
    assert run("object-metadata", at_limit) == []
    assert run("object-metadata", over) == [
        "b.yaml#0 (fedora) $.metadata.annotations: annotations take 262145 bytes (keys and values together), "
        "more than the 262144 bytes (256 KiB) the API server allows on one object [object-metadata]"]


# --- unique-names -----------------------------------------------------------------------------

def test_same_name_in_two_kinds_is_no_duplicate():
    assert run("unique-names", instancetype(), instancetype(kind=NIT), preference("u1.large")) == []


def test_duplicate_names_within_a_kind():
    assert run("unique-names", instancetype(), instancetype(kind=NIT), instancetype(), instancetype()) == [
        "b.yaml#2 (u1.large) $.metadata.name: duplicate VirtualMachineClusterInstancetype name 'u1.large' "
        "(first defined at b.yaml#0) [unique-names]",
        "b.yaml#3 (u1.large) $.metadata.name: duplicate VirtualMachineClusterInstancetype name 'u1.large' "
        "(first defined at b.yaml#0) [unique-names]"]


# --- twins-identical --------------------------------------------------------------------------

def test_twins_may_differ_in_kind_and_namespace_only():
    namespaced = instancetype(kind=NIT)
    namespaced["metadata"]["namespace"] = "tenant-a"
    assert run("twins-identical", instancetype(), namespaced) == []


def test_a_name_in_one_kind_only_has_no_twin_to_compare():
    assert run("twins-identical", instancetype(), preference(kind=NPREF)) == []


def test_twins_that_differ():
    cluster = requiring("fedora", 1, "2Gi")
    namespaced = copy.deepcopy(cluster) | {"kind": NPREF}
    namespaced["spec"]["requirements"]["memory"]["guest"] = "4Gi"
    namespaced["spec"]["devices"] = {"preferredDiskBus": "virtio"}
    del namespaced["metadata"]["labels"][P + "required-cpu"]
    assert run("twins-identical", namespaced, cluster) == [
        "b.yaml#0 (fedora) $.metadata.labels['instancetype.kubevirt.io/required-cpu']: differs from its "
        "VirtualMachineClusterPreference twin at b.yaml#1: absent here, '1' there [twins-identical]",
        "b.yaml#0 (fedora) $.spec.devices: differs from its VirtualMachineClusterPreference twin at b.yaml#1: "
        "{'preferredDiskBus': 'virtio'} here, absent there [twins-identical]",
        "b.yaml#0 (fedora) $.spec.requirements.memory.guest: differs from its VirtualMachineClusterPreference "
        "twin at b.yaml#1: '4Gi' here, '2Gi' there [twins-identical]"]


def test_twins_compare_lists_item_by_item_and_types_exactly():
    gpus = [{"deviceName": "nvidia.com/A400", "name": "gpu1"}]
    cluster = instancetype("gn1.xlarge", 4, "16Gi", extra={"gpus": gpus})
    namespaced = instancetype("gn1.xlarge", 4, "16Gi", kind=NIT,
                              extra={"gpus": gpus + [{"deviceName": "x", "name": "gpu2"}]})
    namespaced["spec"]["cpu"]["guest"] = 4.0
    assert run("twins-identical", cluster, namespaced) == [
        "b.yaml#1 (gn1.xlarge) $.spec.cpu.guest: differs from its VirtualMachineClusterInstancetype twin at "
        "b.yaml#0: 4.0 here, 4 there [twins-identical]",
        "b.yaml#1 (gn1.xlarge) $.spec.gpus[1]: differs from its VirtualMachineClusterInstancetype twin at "
        "b.yaml#0: {'deviceName': 'x', 'name': 'gpu2'} here, absent there [twins-identical]"]


# --- known-labels -----------------------------------------------------------------------------

def test_known_labels_and_other_prefixes_pass():
    obj = instancetype(labels={"class": "general.purpose", "icon-pf": "pficon-server-group",
                               "common-instancetypes-version": "v1.8.0", "deprecated": "true"})
    obj["metadata"]["labels"]["example.com/team"] = "web"
    assert run("known-labels", obj) == []


def test_unknown_labels_with_and_without_a_suggestion():
    assert run("known-labels", instancetype(labels={"cpus": "2", "hugepage": "2Mi", "zzzzzz": "1"})) == [
        "b.yaml#0 (u1.large) $.metadata.labels['instancetype.kubevirt.io/cpus']: unknown label "
        "'instancetype.kubevirt.io/cpus' (did you mean 'instancetype.kubevirt.io/cpu'?) [known-labels]",
        "b.yaml#0 (u1.large) $.metadata.labels['instancetype.kubevirt.io/hugepage']: unknown label "
        "'instancetype.kubevirt.io/hugepage' (did you mean 'instancetype.kubevirt.io/hugepages'?) [known-labels]",
        "b.yaml#0 (u1.large) $.metadata.labels['instancetype.kubevirt.io/zzzzzz']: unknown label "
        "'instancetype.kubevirt.io/zzzzzz' [known-labels]"]


# --- labels-match-spec ------------------------------------------------------------------------

def _cx1(**labels: Any) -> dict:
    """cx1.large1gi as upstream ships it, with label overrides."""
    base = {"dedicatedCPUPlacement": "true", "isolateEmulatorThread": "true", "numa": "true",
            "hugepages": "1Gi"}
    return instancetype(
        "cx1.large1gi", 2, "4Gi", labels={**base, **labels},
        extra={"cpu": {"dedicatedCPUPlacement": True, "isolateEmulatorThread": True,
                       "numa": {"guestMappingPassthrough": {}}},
               "memory": {"hugepages": {"pageSize": "1Gi"}}})


def test_labels_that_agree_with_the_spec():
    realtime = instancetype("rt1.large", labels={"realtime": "true"}, extra={"cpu": {"realtime": {}}})
    gpu = instancetype("gn1.xlarge", 4, "16Gi", labels={"gpus": "true"},
                       extra={"gpus": [{"deviceName": "nvidia.com/A400", "name": "gpu1"}]})
    arm = preference("fedora.arm64", labels={"preferred-architecture": "arm64", "required-architecture": "arm64",
                                             "required-cpu": "1", "required-memory": "2Gi"},
                     preferredArchitecture="arm64",
                     requirements={"architecture": "arm64", "cpu": {"guest": 1}, "memory": {"guest": "2Gi"}})
    assert run("labels-match-spec", _cx1(), realtime, gpu, arm) == []


def test_memory_labels_compare_as_quantities():
    assert run("labels-match-spec", instancetype(labels={"memory": "8192Mi"}),
               _cx1(hugepages="1048576Ki")) == []


def test_value_labels_that_disagree():
    assert run("labels-match-spec", instancetype(labels={"cpu": "4", "memory": "4Gi", "size": "xlarge"}),
               _cx1(hugepages="2Mi")) == [
        "b.yaml#0 (u1.large) $.metadata.labels['instancetype.kubevirt.io/cpu']: label "
        "instancetype.kubevirt.io/cpu is '4' but spec.cpu.guest is 2 [labels-match-spec]",
        "b.yaml#0 (u1.large) $.metadata.labels['instancetype.kubevirt.io/memory']: label "
        "instancetype.kubevirt.io/memory is '4Gi' but spec.memory.guest is '8Gi' [labels-match-spec]",
        "b.yaml#0 (u1.large) $.metadata.labels['instancetype.kubevirt.io/size']: label "
        "instancetype.kubevirt.io/size is 'xlarge' but the size in the name u1.large is 'large' [labels-match-spec]",
        "b.yaml#1 (cx1.large1gi) $.metadata.labels['instancetype.kubevirt.io/hugepages']: label "
        "instancetype.kubevirt.io/hugepages is '2Mi' but spec.memory.hugepages.pageSize is '1Gi' "
        "[labels-match-spec]"]


def test_value_labels_missing_or_without_spec():
    assert run("labels-match-spec", instancetype(labels={"cpu": None, "size": None, "hugepages": "2Mi"})) == [
        "b.yaml#0 (u1.large) $.metadata.labels: spec.cpu.guest is 2 but label instancetype.kubevirt.io/cpu "
        "is missing [labels-match-spec]",
        "b.yaml#0 (u1.large) $.metadata.labels: the size in the name u1.large is 'large' but label "
        "instancetype.kubevirt.io/size is missing [labels-match-spec]",
        "b.yaml#0 (u1.large) $.metadata.labels['instancetype.kubevirt.io/hugepages']: label "
        "instancetype.kubevirt.io/hugepages is '2Mi' but spec.memory.hugepages.pageSize is not set "
        "[labels-match-spec]"]


def test_feature_labels_are_true_exactly_when_the_spec_has_the_feature():
    assert run("labels-match-spec", _cx1(numa=None, dedicatedCPUPlacement="false"),
               instancetype(labels={"realtime": "true", "gpus": "true", "isolateEmulatorThread": "true"})) == [
        "b.yaml#0 (cx1.large1gi) $.metadata.labels: spec.cpu.numa.guestMappingPassthrough is set but label "
        "instancetype.kubevirt.io/numa is missing (expected 'true') [labels-match-spec]",
        "b.yaml#0 (cx1.large1gi) $.metadata.labels['instancetype.kubevirt.io/dedicatedCPUPlacement']: label "
        "instancetype.kubevirt.io/dedicatedCPUPlacement is 'false' but spec.cpu.dedicatedCPUPlacement is true "
        "(expected 'true') [labels-match-spec]",
        "b.yaml#1 (u1.large) $.metadata.labels['instancetype.kubevirt.io/gpus']: label "
        "instancetype.kubevirt.io/gpus is 'true' but spec.gpus lists no GPUs [labels-match-spec]",
        "b.yaml#1 (u1.large) $.metadata.labels['instancetype.kubevirt.io/isolateEmulatorThread']: label "
        "instancetype.kubevirt.io/isolateEmulatorThread is 'true' but spec.cpu.isolateEmulatorThread is not "
        "true [labels-match-spec]",
        "b.yaml#1 (u1.large) $.metadata.labels['instancetype.kubevirt.io/realtime']: label "
        "instancetype.kubevirt.io/realtime is 'true' but spec.cpu.realtime is not set [labels-match-spec]"]


def test_a_feature_label_other_than_true_means_no_feature():
    assert run("labels-match-spec", instancetype(labels={"numa": "false"})) == []


def test_preference_labels_that_disagree():
    obj = preference(labels={"required-cpu": "2", "preferred-architecture": "amd64",
                             "required-architecture": "arm64"},
                     preferredArchitecture="arm64",
                     requirements={"cpu": {"guest": 1}, "memory": {"guest": "1.5Gi"}})
    assert run("labels-match-spec", obj) == [
        "b.yaml#0 (fedora) $.metadata.labels: spec.requirements.memory.guest is '1.5Gi' but label "
        "instancetype.kubevirt.io/required-memory is missing [labels-match-spec]",
        "b.yaml#0 (fedora) $.metadata.labels['instancetype.kubevirt.io/preferred-architecture']: label "
        "instancetype.kubevirt.io/preferred-architecture is 'amd64' but spec.preferredArchitecture is 'arm64' "
        "[labels-match-spec]",
        "b.yaml#0 (fedora) $.metadata.labels['instancetype.kubevirt.io/required-architecture']: label "
        "instancetype.kubevirt.io/required-architecture is 'arm64' but spec.requirements.architecture is not "
        "set [labels-match-spec]",
        "b.yaml#0 (fedora) $.metadata.labels['instancetype.kubevirt.io/required-cpu']: label "
        "instancetype.kubevirt.io/required-cpu is '2' but spec.requirements.cpu.guest is 1 [labels-match-spec]"]


def test_malformed_spec_values_are_left_to_the_schema():
    assert run("labels-match-spec", instancetype(memory="lots", labels={"memory": "8Gi"})) == []


# --- vendor-label -----------------------------------------------------------------------------

def test_expected_vendor_passes_and_without_one_a_single_vendor_passes():
    other = preference(labels={"vendor": "example.com"})
    assert run("vendor-label", instancetype(), preference()) == []
    assert run("vendor-label", other, instancetype(labels={"vendor": "example.com"}), ctx=RuleContext()) == []


def unlabelled(name: str) -> dict:
    """A preference without the vendor label."""
    obj = preference(name)
    del obj["metadata"]["labels"][P + "vendor"]
    return obj


def test_without_an_expected_vendor_the_objects_agree_with_the_majority():
    found = run("vendor-label", preference("a", labels={"vendor": "x.example"}),
                preference("b", labels={"vendor": "kubevirt.io"}), preference("c", labels={"vendor": "x.example"}),
                unlabelled("d"), ctx=RuleContext())
    assert found == [
        "b.yaml#1 (b) $.metadata.labels['instancetype.kubevirt.io/vendor']: label instancetype.kubevirt.io/vendor "
        "is 'kubevirt.io', but 2 of 4 objects have 'x.example': one bundle, one vendor (name the right one with "
        "--vendor or --catalog) [vendor-label]",
        "b.yaml#3 (d) $.metadata.labels: label instancetype.kubevirt.io/vendor is missing, but 2 of 4 objects "
        "have 'x.example' [vendor-label]"]


def test_without_an_expected_vendor_a_tie_goes_to_the_first():
    assert run("vendor-label", preference("a", labels={"vendor": "b.example"}),
               preference("b", labels={"vendor": "a.example"}), ctx=RuleContext()) == [
        "b.yaml#1 (b) $.metadata.labels['instancetype.kubevirt.io/vendor']: label instancetype.kubevirt.io/vendor "
        "is 'a.example', but 1 of 2 objects have 'b.example': one bundle, one vendor (name the right one with "
        "--vendor or --catalog) [vendor-label]"]


def test_without_any_vendor_every_object_misses_it():
    assert run("vendor-label", unlabelled("a"), ctx=RuleContext()) == [
        "b.yaml#0 (a) $.metadata.labels: label instancetype.kubevirt.io/vendor is missing [vendor-label]"]


def test_wrong_or_missing_vendor():
    missing = instancetype(labels={"vendor": None})
    assert run("vendor-label", preference(labels={"vendor": "example.com"}), missing) == [
        "b.yaml#0 (fedora) $.metadata.labels['instancetype.kubevirt.io/vendor']: label "
        "instancetype.kubevirt.io/vendor is 'example.com', expected 'kubevirt.io' [vendor-label]",
        "b.yaml#1 (u1.large) $.metadata.labels: label instancetype.kubevirt.io/vendor is missing "
        "(expected 'kubevirt.io') [vendor-label]"]


# --- series-ratio -----------------------------------------------------------------------------

def test_ratio_kept_exceptions_and_unknown_series_pass():
    assert run("series-ratio", instancetype("u1.large", 2, "8Gi"), instancetype("u1.nano", 1, "512Mi"),
               instancetype("u1.2xmedium", 2, "4Gi"), instancetype("cx1.large", 2, "4096Mi"),
               instancetype("x9.large", 2, "6Gi")) == []


def test_ratio_broken():
    assert run("series-ratio", instancetype("u1.large", 2, "4Gi"), instancetype("cx1.medium", 1, "1536Mi")) == [
        "b.yaml#0 (u1.large) $.spec.memory.guest: 2 vCPUs with '4Gi' of memory break series u1's ratio of "
        "4Gi per vCPU (expected 8Gi), and large is not a declared exception [series-ratio]",
        "b.yaml#1 (cx1.medium) $.spec.memory.guest: 1 vCPU with '1536Mi' of memory break series cx1's ratio "
        "of 2Gi per vCPU (expected 2Gi), and medium is not a declared exception [series-ratio]"]


def test_fractional_ratios():
    ctx = RuleContext(series={"h1": SeriesRatio(Fraction(1, 2))})
    assert run("series-ratio", instancetype("h1.large", 2, "1Gi"), ctx=ctx) == []
    assert run("series-ratio", instancetype("h1.small", 1, "1Gi"), ctx=ctx) == [
        "b.yaml#0 (h1.small) $.spec.memory.guest: 1 vCPU with '1Gi' of memory break series h1's ratio of "
        "512Mi per vCPU (expected 512Mi), and small is not a declared exception [series-ratio]"]


def test_context_from_the_builtin_catalog():
    from generator.load.catalog import load_catalog
    from generator.paths import builtin_catalog

    ctx = RuleContext.from_catalog(load_catalog(builtin_catalog()))
    assert ctx.vendor == "kubevirt.io"
    assert ctx.series["u1"].ratio == 4 and {"nano", "micro", "small"} <= ctx.series["u1"].exceptions
    assert "medium1gi" not in ctx.series["cx1"].exceptions and ctx.series["cx1"].ratio == 2


# --- requirements-met -------------------------------------------------------------------------

def test_requirements_met_by_some_instancetype():
    assert run("requirements-met", instancetype("u1.small", 1, "2Gi"), instancetype("cx1.xlarge", 4, "8Gi"),
               requiring("windows.11", 2, "4Gi"), requiring("fedora", 1, "2Gi"), preference("linux")) == []


def test_preferences_alone_are_not_checked():
    assert run("requirements-met", requiring("huge", 64, "1Ti")) == []


def test_requirements_nobody_meets():
    assert run("requirements-met", instancetype("u1.small", 1, "2Gi"), instancetype("cx1.xlarge", 4, "8Gi"),
               requiring("many", 8, "1Gi"), requiring("big", 1, "16Gi"), requiring("both", 2, "8192Mi"),
               requiring("both.more", 4, "9Gi")) == [
        "b.yaml#2 (many) $.spec.requirements: no instancetype meets these requirements (8 vCPUs, 1Gi of "
        "memory): at most 4 vCPUs are offered [requirements-met]",
        "b.yaml#3 (big) $.spec.requirements: no instancetype meets these requirements (1 vCPU, 16Gi of "
        "memory): at most 8Gi of memory is offered [requirements-met]",
        "b.yaml#5 (both.more) $.spec.requirements: no instancetype meets these requirements (4 vCPUs, 9Gi of "
        "memory): at most 8Gi of memory is offered [requirements-met]"]


def test_vcpus_and_memory_must_come_from_one_instancetype():
    assert run("requirements-met", instancetype("u1.small", 1, "16Gi"), instancetype("cx1.xlarge", 4, "2Gi"),
               requiring("both", 4, "16Gi")) == [
        "b.yaml#2 (both) $.spec.requirements: no instancetype meets these requirements (4 vCPUs, 16Gi of "
        "memory): none has both [requirements-met]"]


def test_architecture_counts_when_instancetypes_carry_one():
    amd = instancetype("u1.large", labels={"arch": "amd64"})
    arm_small = instancetype("u1.small", 1, "2Gi", labels={"arch": "arm64"})
    anywhere = instancetype("u1.medium", 1, "4Gi")
    assert run("requirements-met", amd, requiring("any", 2, "8Gi", "s390x")) == [
        "b.yaml#1 (any) $.spec.requirements: no instancetype meets these requirements (2 vCPUs, 8Gi of "
        "memory, architecture s390x): no instancetype is offered for architecture s390x [requirements-met]"]
    assert run("requirements-met", amd, arm_small, requiring("arm", 2, "2Gi", "arm64")) == [
        "b.yaml#2 (arm) $.spec.requirements: no instancetype meets these requirements (2 vCPUs, 2Gi of "
        "memory, architecture arm64): at most 1 vCPU is offered for architecture arm64 [requirements-met]"]
    # an instancetype without the label runs anywhere; with no labels at all, architecture is ignored
    assert run("requirements-met", amd, anywhere, requiring("s390", 1, "4Gi", "s390x")) == []
    assert run("requirements-met", instancetype(), requiring("s390", 1, "4Gi", "s390x")) == []


# --- checks newer than an object's release --------------------------------------------------------

def _dated(rule: str, *objects: Any) -> list[tuple[str, str | None]]:
    """Each finding's message and the release that introduced its check."""
    docs = [BundleDoc("b.yaml", i, obj) for i, obj in enumerate(objects)]
    return [(p.message, p.since) for p in sort_problems(RULES[rule].check(docs, CTX))]


def test_labels_later_releases_added_are_dated_when_missing_but_not_when_wrong():
    assert _dated("labels-match-spec", instancetype(labels={"size": None}), instancetype(labels={"size": "small"}),
                  preference(requirements={"cpu": {"guest": 1}, "memory": {"guest": "1Gi"}}),
                  preference(labels={"required-cpu": "2", "required-memory": "1Gi"},
                             requirements={"cpu": {"guest": 1}, "memory": {"guest": "1Gi"}})) == [
        ("the size in the name u1.large is 'large' but label instancetype.kubevirt.io/size is missing", "v1.1.0"),
        ("label instancetype.kubevirt.io/size is 'small' but the size in the name u1.large is 'large'", None),
        ("spec.requirements.cpu.guest is 1 but label instancetype.kubevirt.io/required-cpu is missing", "v1.1.0"),
        ("spec.requirements.memory.guest is '1Gi' but label instancetype.kubevirt.io/required-memory is missing",
         "v1.1.0"),
        ("label instancetype.kubevirt.io/required-cpu is '2' but spec.requirements.cpu.guest is 1", None),
    ]


def test_the_hugepages_flag_of_older_releases_is_dated_only_where_the_spec_has_hugepages():
    hugepages = {"memory": {"hugepages": {"pageSize": "2Mi"}}}
    assert _dated("labels-match-spec", instancetype(labels={"hugepages": "true"}, extra=hugepages),
                  instancetype(labels={"hugepages": "true"}),
                  instancetype(labels={"hugepages": "1Gi"}, extra=hugepages)) == [
        ("label instancetype.kubevirt.io/hugepages is 'true' but spec.memory.hugepages.pageSize is '2Mi'", "v1.4.0"),
        ("label instancetype.kubevirt.io/hugepages is 'true' but spec.memory.hugepages.pageSize is not set", None),
        ("label instancetype.kubevirt.io/hugepages is '1Gi' but spec.memory.hugepages.pageSize is '2Mi'", None),
    ]


def _released(version: str, vendor: str = "kubevirt.io") -> dict:
    """u1.large as a release before the size label would have shipped it."""
    obj = instancetype(labels={"size": None, "vendor": vendor})
    obj["metadata"]["labels"][P + "common-instancetypes-version"] = version
    return obj


def test_validation_marks_findings_newer_than_the_objects_release_and_only_those():
    from generator.validate import counted, validate_documents

    docs = [BundleDoc("b.yaml", i, obj) for i, obj in enumerate(
        [_released("v1.0.0"), _released("v1.1.0"), _released("v1.0.0", vendor="example.com"),
         _released("not a version")])]
    problems = validate_documents(docs, RuleContext(vendor=None), rules=["labels-match-spec"])
    assert [(p.location.doc, p.since, p.older_release) for p in problems] == [
        (0, "v1.1.0", "v1.0.0"),  # released before the check: apart, not counted
        (1, "v1.1.0", None),  # released with it
        (2, "v1.1.0", None),  # a vendor's version numbers say nothing of KubeVirt's releases
        (3, "v1.1.0", None),
    ]
    assert [p.location.doc for p in counted(problems)] == [1, 2, 3]
    # a build dates only the objects it retained: its own are held to every check
    held = validate_documents(docs[:1], RuleContext(vendor=None), rules=["labels-match-spec"],
                              dated=lambda doc: False)
    assert [(p.since, p.older_release) for p in held] == [("v1.1.0", None)]


def test_only_the_documents_dated_says_so_of_are_judged_by_their_own_release():
    from generator.validate import validate_documents

    docs = [BundleDoc("b.yaml", i, _released("v1.0.0")) for i in range(2)]
    problems = validate_documents(docs, RuleContext(vendor=None), rules=["labels-match-spec"],
                                  dated=lambda doc: doc.index == 1)
    assert [(p.location.doc, p.older_release) for p in problems] == [(0, None), (1, "v1.0.0")]


def test_every_unknown_rule_asked_for_is_named():
    from generator.errors import CitgenError
    from generator.validate import validate_documents

    with pytest.raises(CitgenError) as caught:
        validate_documents([], RuleContext(vendor=None), rules=["no-such-rule", "nor-this"])
    assert str(caught.value.problems[0]).startswith("citgen: unknown rule 'no-such-rule', 'nor-this'; known rules: ")
