"""The labels-match-spec rule on its own: each describing label says what the spec says."""

from __future__ import annotations

import datetime as dt

import pytest

from generator.source.documents import BundleDoc
from generator.validate.rules import labels_match_spec
from generator.validate.rules.base import RuleContext

from tests.ruledocs import CPREF, P, findings, instancetype, obj, preference

RULE = "[labels-match-spec]"


def labelled(cpu: int = 2, memory: str = "8Gi", name: str = "u1.large", labels: dict | None = None) -> dict:
    """An instancetype whose cpu, memory and size labels agree with it, then ``labels`` (None drops one)."""
    found = {"cpu": str(cpu), "memory": memory, "size": name.partition(".")[2], **(labels or {})}
    return instancetype(name, cpu, memory, labels={k: v for k, v in found.items() if v is not None})


def test_labels_that_agree_pass() -> None:
    assert findings(labels_match_spec, labelled(), labelled(1, "1024Mi", "u1.medium1gi", {"memory": "1Gi"})) == []


def test_cpu_and_memory_labels_that_disagree() -> None:
    assert findings(labels_match_spec, labelled(labels={"cpu": "4"}), labelled(name="u1.xlarge", labels={"memory": "4Gi"})) == [
        f"b.yaml#0 (u1.large) $.metadata.labels['{P}cpu']: label {P}cpu is '4' but spec.cpu.guest is 2 {RULE}",
        f"b.yaml#1 (u1.xlarge) $.metadata.labels['{P}memory']: label {P}memory is '4Gi' but spec.memory.guest "
        f"is '8Gi' {RULE}"]


def test_a_cpu_label_is_digits() -> None:
    assert findings(labels_match_spec, labelled(labels={"cpu": "2.0"}), labelled(name="u1.small", labels={"cpu": "+2"})) == [
        f"b.yaml#0 (u1.large) $.metadata.labels['{P}cpu']: label {P}cpu is '2.0' but spec.cpu.guest is 2 {RULE}",
        f"b.yaml#1 (u1.small) $.metadata.labels['{P}cpu']: label {P}cpu is '+2' but spec.cpu.guest is 2 {RULE}"]


def test_a_missing_label_for_a_value_the_spec_has() -> None:
    assert findings(labels_match_spec, labelled(labels={"cpu": None})) == [
        f"b.yaml#0 (u1.large) $.metadata.labels: spec.cpu.guest is 2 but label {P}cpu is missing {RULE}"]


def test_a_label_for_a_value_the_spec_does_not_have() -> None:
    hugepages = labelled(labels={"hugepages": "2Mi"})
    assert findings(labels_match_spec, hugepages) == [
        f"b.yaml#0 (u1.large) $.metadata.labels['{P}hugepages']: label {P}hugepages is '2Mi' but "
        f"spec.memory.hugepages.pageSize is not set {RULE}"]
    hugepages["spec"]["memory"]["hugepages"] = {"pageSize": "2048Ki"}
    assert findings(labels_match_spec, hugepages) == []


def test_the_size_is_the_name_after_the_first_dot() -> None:
    assert findings(labels_match_spec, labelled(name="cx1.2xlarge1gi"),
                    labelled(name="u1.large", labels={"size": "xlarge"}),
                    labelled(name="u1.small", labels={"size": None})) == [
        f"b.yaml#1 (u1.large) $.metadata.labels['{P}size']: label {P}size is 'xlarge' but the size in the name "
        f"u1.large is 'large' {RULE}",
        f"b.yaml#2 (u1.small) $.metadata.labels: the size in the name u1.small is 'small' but label {P}size is "
        f"missing {RULE}"]


@pytest.mark.parametrize("flag, spec, where, yes", [
    ("dedicatedCPUPlacement", {"cpu": {"dedicatedCPUPlacement": True}}, "spec.cpu.dedicatedCPUPlacement", "is true"),
    ("isolateEmulatorThread", {"cpu": {"isolateEmulatorThread": True}}, "spec.cpu.isolateEmulatorThread", "is true"),
    ("numa", {"cpu": {"numa": {"guestMappingPassthrough": {}}}}, "spec.cpu.numa.guestMappingPassthrough", "is set"),
    ("realtime", {"cpu": {"realtime": {}}}, "spec.cpu.realtime", "is set"),
    ("gpus", {"gpus": [{"name": "gpu1", "deviceName": "nvidia.com/A400"}]}, "spec.gpus", "lists GPUs"),
])
def test_flags_are_true_exactly_when_the_spec_has_the_feature(flag, spec, where, yes) -> None:
    with_feature = labelled()
    for key, value in spec.items():
        with_feature["spec"][key] = {**with_feature["spec"].get(key, {}), **value} if isinstance(value, dict) else value
    flagged = labelled(labels={flag: "true"})
    for key in spec:
        flagged["spec"][key] = with_feature["spec"][key]
    assert findings(labels_match_spec, flagged) == []
    assert findings(labels_match_spec, with_feature) == [
        f"b.yaml#0 (u1.large) $.metadata.labels: {where} {yes} but label {P}{flag} is missing (expected 'true') "
        f"{RULE}"]
    flagged["metadata"]["labels"][P + flag] = "false"
    assert findings(labels_match_spec, flagged) == [
        f"b.yaml#0 (u1.large) $.metadata.labels['{P}{flag}']: label {P}{flag} is 'false' but {where} {yes} "
        f"(expected 'true') {RULE}"]


@pytest.mark.parametrize("flag, spec, where, no", [
    ("dedicatedCPUPlacement", {"cpu": {"guest": 2, "dedicatedCPUPlacement": False}}, "spec.cpu.dedicatedCPUPlacement",
     "is not true"),
    ("numa", {"cpu": {"guest": 2, "numa": {}}}, "spec.cpu.numa.guestMappingPassthrough", "is not set"),
    ("gpus", {"gpus": []}, "spec.gpus", "lists no GPUs"),
])
def test_a_true_flag_without_the_feature(flag, spec, where, no) -> None:
    flagged = labelled(labels={flag: "true"})
    flagged["spec"].update(spec)
    assert findings(labels_match_spec, flagged) == [
        f"b.yaml#0 (u1.large) $.metadata.labels['{P}{flag}']: label {P}{flag} is 'true' but {where} {no} {RULE}"]
    flagged["metadata"]["labels"][P + flag] = "false"
    assert findings(labels_match_spec, flagged) == []


def test_preference_labels() -> None:
    agreeing = preference("fedora", {"required-cpu": "1", "required-memory": "2Gi", "preferred-architecture": "amd64",
                                     "required-architecture": "amd64"},
                          preferredArchitecture="amd64",
                          requirements={"cpu": {"guest": 1}, "memory": {"guest": "2048Mi"}, "architecture": "amd64"})
    assert findings(labels_match_spec, agreeing) == []
    wrong = preference("rhel", {"required-cpu": "2", "required-memory": "2Gi", "preferred-architecture": "arm64"},
                       requirements={"cpu": {"guest": 1}, "memory": {"guest": "2Gi"}, "architecture": "s390x"})
    assert findings(labels_match_spec, wrong) == [
        f"b.yaml#0 (rhel) $.metadata.labels: spec.requirements.architecture is 's390x' but label "
        f"{P}required-architecture is missing {RULE}",
        f"b.yaml#0 (rhel) $.metadata.labels['{P}preferred-architecture']: label {P}preferred-architecture is "
        f"'arm64' but spec.preferredArchitecture is not set {RULE}",
        f"b.yaml#0 (rhel) $.metadata.labels['{P}required-cpu']: label {P}required-cpu is '2' but "
        f"spec.requirements.cpu.guest is 1 {RULE}"]


def test_instancetype_labels_mean_nothing_on_a_preference() -> None:
    """A preference is not held to a cpu label or a size in its name."""
    assert findings(labels_match_spec, preference("windows.11", {"cpu": "4"})) == []


def test_a_malformed_spec_value_is_left_to_the_schema() -> None:
    assert findings(labels_match_spec, labelled() | {"spec": {"cpu": {"guest": "two"},
                                                                         "memory": {"guest": "lots"}}}) == []


def test_findings_a_release_could_not_have_are_dated() -> None:
    """v1.0.0 had no size or required-* labels, and hugepages was a flag until v1.4.0."""
    old = {"vendor": "kubevirt.io", "common-instancetypes-version": "v1.0.0"}
    sizeless = labelled(labels={"size": None, **old})
    flag = labelled(labels={"hugepages": "true", **old})
    flag["spec"]["memory"]["hugepages"] = {"pageSize": "1Gi"}
    wrong = labelled(labels={"cpu": "3", **old})
    found = [p for i, data in enumerate([sizeless, flag, wrong])
             for p in labels_match_spec.check([BundleDoc("b.yaml", i, data)], RuleContext())]
    assert [(p.message.split(" but ")[0], p.since) for p in found] == [
        ("the size in the name u1.large is 'large'", "v1.1.0"),
        (f"label {P}hugepages is 'true'", "v1.4.0"),
        (f"label {P}cpu is '3'", None)]
    preference_v1 = preference("fedora", old, requirements={"cpu": {"guest": 1}, "memory": {"guest": "1Gi"}})
    dated = list(labels_match_spec.check([BundleDoc("b.yaml", 0, preference_v1)], RuleContext()))
    assert [(p.message, p.since) for p in dated] == [
        (f"spec.requirements.cpu.guest is 1 but label {P}required-cpu is missing", "v1.1.0"),
        (f"spec.requirements.memory.guest is '1Gi' but label {P}required-memory is missing", "v1.1.0")]


def test_other_kinds_are_not_looked_at() -> None:
    assert findings(labels_match_spec, obj("ConfigMap", "x", {"cpu": "9"}, {"cpu": {"guest": 1}}),
                    obj(CPREF, "p", {"required-cpu": "9"})) == [
        f"b.yaml#1 (p) $.metadata.labels['{P}required-cpu']: label {P}required-cpu is '9' but "
        f"spec.requirements.cpu.guest is not set {RULE}"]


def test_a_label_value_that_is_no_text_is_shown_as_written() -> None:
    """YAML reads an unquoted 2024-01-01 as a date; the message shows it as the file has it."""
    assert findings(labels_match_spec, labelled(labels={"memory": dt.date(2024, 1, 1)})) == [
        f"b.yaml#0 (u1.large) $.metadata.labels['{P}memory']: label {P}memory is 2024-01-01 but spec.memory.guest "
        f"is '8Gi' {RULE}"]


def test_only_the_size_labels_own_key_holds_the_size() -> None:
    """A label under a null key (YAML ``~: large``) that happens to hold the size is not the size label."""
    sizeless = labelled(labels={"size": None})
    sizeless["metadata"]["labels"][None] = "large"
    assert findings(labels_match_spec, sizeless) == [
        f"b.yaml#0 (u1.large) $.metadata.labels: the size in the name u1.large is 'large' but label {P}size is "
        f"missing {RULE}"]


def test_an_architecture_that_is_no_text_is_left_to_the_schema() -> None:
    assert findings(labels_match_spec, preference("fedora", preferredArchitecture=64),
                    preference("rhel", requirements={"architecture": ["amd64"]})) == []


def test_a_malformed_spec_value_does_not_stop_the_check_of_the_next_label() -> None:
    broken = labelled(labels={"memory": "4Gi"})
    broken["spec"]["cpu"]["guest"] = "two"
    assert findings(labels_match_spec, broken) == [
        f"b.yaml#0 (u1.large) $.metadata.labels['{P}memory']: label {P}memory is '4Gi' but spec.memory.guest "
        f"is '8Gi' {RULE}"]


def test_a_wrong_page_size_is_not_dated_on_an_object_from_before_page_size_labels() -> None:
    """Only a "true" flag is what a release before v1.4.0 wrote; any other wrong value counts at every release."""
    old = {"vendor": "kubevirt.io", "common-instancetypes-version": "v1.0.0"}
    wrong = labelled(labels={"hugepages": "2Mi", **old})
    wrong["spec"]["memory"]["hugepages"] = {"pageSize": "1Gi"}
    found = list(labels_match_spec.check([BundleDoc("b.yaml", 0, wrong)], RuleContext()))
    assert [(p.message, p.since) for p in found] == [
        (f"label {P}hugepages is '2Mi' but spec.memory.hugepages.pageSize is '1Gi'", None)]
