"""Checking objects against the shipped CRD schemas, and the messages a user reads."""

from __future__ import annotations

import copy
import datetime
import re
from pathlib import Path

import pytest
import yaml

from generator.model import INSTANCETYPE_KINDS, PREFERENCE_KINDS
from generator.quantity import is_quantity
from generator.schemas import (CHECKED_QUANTITY_PATTERN, QUANTITY_PATTERN, check_object, known_kinds,
                               schema_problems, shipped_schema, validator)
from generator.schemas.releases import Release, known
from generator.source.documents import BundleDoc
from generator.source.objects import read_bundles
from generator.source.yamlsrc import iter_documents

INSTANCETYPE = """\
apiVersion: instancetype.kubevirt.io/v1beta1
kind: VirtualMachineClusterInstancetype
metadata:
  name: u1.medium
  labels:
    instancetype.kubevirt.io/cpu: "1"
    instancetype.kubevirt.io/memory: 4Gi
spec:
  cpu:
    guest: 1
  memory:
    guest: 4Gi
    overcommitPercent: 10
"""

PREFERENCE = """\
apiVersion: instancetype.kubevirt.io/v1beta1
kind: VirtualMachinePreference
metadata:
  name: fedora
spec:
  devices:
    preferredDiskBus: virtio
  requirements:
    cpu:
      guest: 1
    memory:
      guest: 2Gi
"""

VIRTUAL_MACHINE = """\
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: my-vm
  creationTimestamp: null
spec:
  runStrategy: Always
  instancetype:
    kind: VirtualMachineClusterInstancetype
    name: u1.medium
  preference:
    kind: VirtualMachineClusterPreference
    name: fedora
  template:
    spec:
      domain:
        devices: {}
      volumes:
        - name: containerdisk
          containerDisk:
            image: quay.io/containerdisks/fedora:latest
            imagePullPolicy: IfNotPresent
        - name: cloudinitdisk
          cloudInitNoCloud:
            userData: |
              #cloud-config
              password: fedora
"""

KINDS = (
    "VirtualMachine, VirtualMachineClusterInstancetype, VirtualMachineClusterPreference, "
    "VirtualMachineInstancetype, VirtualMachinePreference"
)


def load(text: str) -> dict:
    return yaml.safe_load(text)


def instancetype(**changes) -> dict:
    """The sample instancetype with ``spec`` paths changed: ``cpu__guest=2``; None deletes."""
    data = load(INSTANCETYPE)
    for dotted, value in changes.items():
        *parents, last = dotted.split("__")
        node = data["spec"]
        for key in parents:
            node = node[key]
        if value is None:
            del node[last]
        else:
            node[last] = value
    return data


# --- what is valid stays valid ---


def upstream_bundles() -> list[str]:
    from conftest import UPSTREAM

    return sorted(p.name for p in UPSTREAM.glob("*.yaml")) or ["(absent)"]


@pytest.mark.parametrize("bundle", upstream_bundles())
def test_every_upstream_object_validates_clean(upstream_dir, bundle):
    docs = read_bundles([upstream_dir / bundle])
    assert docs, f"{bundle} holds no objects"
    problems = [str(p) for doc in docs for p in schema_problems(doc)]
    assert problems == []


@pytest.mark.parametrize("text", [INSTANCETYPE, PREFERENCE, VIRTUAL_MACHINE], ids=["instancetype", "preference", "vm"])
def test_the_samples_are_valid(text):
    assert check_object(load(text)) == []


def test_every_known_kind_has_a_compiled_validator_built_once():
    assert known_kinds() == tuple(KINDS.split(", "))
    for kind in known_kinds():
        assert validator(kind) is validator(kind)


# --- the messages for broken objects ---


def test_unknown_field_suggests_the_closest_known_one():
    data = instancetype(cpu__guests=1, cpu__guest=None)
    assert check_object(data) == [
        (("spec", "cpu"), "missing required field 'guest'"),
        (("spec", "cpu", "guests"), "unknown field 'guests'; did you mean 'guest'?"),
    ]


def test_unknown_field_without_a_close_match_has_no_suggestion():
    data = instancetype(colour="blue")
    assert check_object(data) == [(("spec", "colour"), "unknown field 'colour'")]


def test_each_unknown_field_of_one_object_is_its_own_problem_in_order():
    data = instancetype(memory__zeta=1, memory__alpha=2)
    assert check_object(data) == [
        (("spec", "memory", "alpha"), "unknown field 'alpha'"),
        (("spec", "memory", "zeta"), "unknown field 'zeta'"),
    ]


def test_wrong_type_says_what_was_expected():
    assert check_object(instancetype(cpu__guest="two")) == [
        (("spec", "cpu", "guest"), "expected integer, got string 'two'")
    ]
    assert check_object(instancetype(cpu=4)) == [(("spec", "cpu"), "expected object, got integer 4")]


def test_label_values_must_be_strings():
    data = load(INSTANCETYPE)
    data["metadata"]["labels"]["instancetype.kubevirt.io/cpu"] = 1
    assert check_object(data) == [
        (("metadata", "labels", "instancetype.kubevirt.io/cpu"), "expected string, got integer 1")
    ]


def test_bad_quantity_is_not_a_kubernetes_quantity():
    assert check_object(instancetype(memory__guest="4GB")) == [
        (
            ("spec", "memory", "guest"),
            "'4GB' is not a Kubernetes quantity (expected a number with an optional suffix "
            "Ki, Mi, Gi, Ti, Pi, Ei, m, k, M, G, T, P, E, e.g. 2Gi or 512Mi)",
        )
    ]


def test_quantity_of_the_wrong_type():
    assert check_object(instancetype(memory__guest=True)) == [
        (("spec", "memory", "guest"), "expected a Kubernetes quantity such as 2Gi, got boolean true")
    ]


def test_quantities_written_as_numbers_or_with_exponents_are_fine():
    assert check_object(instancetype(memory__guest=4294967296)) == []
    assert check_object(instancetype(memory__guest="4e9")) == []


@pytest.mark.parametrize("written", ["1e100", "9" * 41, "1e999999999", "0." + "0" * 40 + "1Gi", "9" * 1_000_000],
                         ids=["exponent", "41 digits", "1e999999999", "fraction", "a million digits"])
def test_a_quantity_past_the_bounds_of_every_number_is_a_problem_at_its_field(written):
    [(path, message)] = check_object(instancetype(memory__guest=written))
    assert path == ("spec", "memory", "guest")
    assert message.startswith("expected a quantity of at most 40 digits and an exponent from -99 to 99 (such as 2Gi "
                              f"or 1.5e9), got '{written[:60]}")


def test_a_quantity_at_the_bounds_is_fine():
    for written in ("9" * 40, "9" * 40 + "Ei", "1e99", "1e-99", "1e+099", "." + "9" * 40, "9" * 20 + "." + "9" * 20):
        assert check_object(instancetype(memory__guest=written)) == [], written


@pytest.mark.parametrize("number", ["9" * 40, "9" * 41, "9" * 39 + ".9", "9" * 40 + ".9", "." + "9" * 41, "9" * 40 + ".",
                                    "0" * 41, "1.5"])
@pytest.mark.parametrize("suffix", ["", "Gi", "m", "e99", "e-99", "e100", "E-100", "e0099", "e000100", "e+5"])
def test_the_checked_pattern_is_the_quantity_parser_s_bounds(number, suffix):
    written = number + suffix
    assert (re.search(CHECKED_QUANTITY_PATTERN, written) is not None) == is_quantity(written)
    assert re.search(QUANTITY_PATTERN, written) is not None  # the shipped grammar alone takes every one


def test_a_bound_of_the_crd_is_checked_as_the_api_server_checks_it():
    assert check_object(instancetype(memory__overcommitPercent=101)) == [
        (("spec", "memory", "overcommitPercent"), "101 is above the maximum 100")
    ]
    assert check_object(instancetype(memory__overcommitPercent=-1)) == [
        (("spec", "memory", "overcommitPercent"), "-1 is below the minimum 0")
    ]
    assert check_object(instancetype(memory__overcommitPercent=100)) == []


def test_an_int32_format_is_no_range_the_api_server_enforces():
    """The CRD writes uint32 counts as format int32; only the webhook's Go decoding bounds them (webhook-decode)."""
    assert check_object(instancetype(cpu__guest=2**31)) == []
    assert check_object(instancetype(cpu__guest=-1)) == []


def test_a_quantity_is_an_integer_or_a_string_never_another_number():
    assert check_object(instancetype(memory__guest=1.5)) == [
        (("spec", "memory", "guest"), "expected a Kubernetes quantity such as 2Gi, got number 1.5")
    ]


def test_bad_enum_value_lists_the_allowed_values():
    data = load(VIRTUAL_MACHINE)
    data["spec"]["template"]["spec"]["volumes"][0]["containerDisk"]["imagePullPolicy"] = "Sometimes"
    assert check_object(data) == [
        (
            ("spec", "template", "spec", "volumes", 0, "containerDisk", "imagePullPolicy"),
            "'Sometimes' is not an allowed value; expected one of 'Always', 'IfNotPresent', 'Never'",
        )
    ]


def test_missing_required_field_is_reported_on_its_parent():
    assert check_object(instancetype(memory=None)) == [(("spec",), "missing required field 'memory'")]


def test_wrong_api_version_for_the_kind():
    data = load(PREFERENCE)
    data["apiVersion"] = "instancetype.kubevirt.io/v1alpha2"
    assert check_object(data) == [
        (("apiVersion",), "expected 'instancetype.kubevirt.io/v1beta1', got 'instancetype.kubevirt.io/v1alpha2'")
    ]


def test_unknown_kind_is_one_problem():
    data = load(INSTANCETYPE)
    data["kind"] = "VirtualMachineClusterInstanceType"
    assert check_object(data) == [
        (("kind",), f"unknown kind 'VirtualMachineClusterInstanceType'; expected one of {KINDS}")
    ]


def test_missing_kind_and_non_objects():
    assert check_object({"apiVersion": "v1"}) == [((), f"missing kind; expected one of {KINDS}")]
    assert check_object(["a"]) == [((), "expected a Kubernetes object (a mapping), got array")]


def test_problems_come_one_per_field_in_path_order():
    data = instancetype(cpu__guest="1", memory__guest="lots", zzz=1)
    data["metadata"]["nme"] = "x"
    paths = [path for path, _ in check_object(data)]
    assert paths == [
        ("metadata", "nme"),
        ("spec", "cpu", "guest"),
        ("spec", "memory", "guest"),
        ("spec", "zzz"),
    ]
    assert check_object(copy.deepcopy(data)) == check_object(data)


def test_a_valid_virtual_machine_with_a_typo_in_its_domain():
    data = load(VIRTUAL_MACHINE)
    data["spec"]["template"]["spec"]["domain"]["devices"]["disk"] = []
    assert check_object(data) == [
        (("spec", "template", "spec", "domain", "devices", "disk"), "unknown field 'disk'; did you mean 'disks'?")
    ]


# --- problems located in a bundle ---


def test_schema_problems_are_located_in_the_bundle_file():
    text = INSTANCETYPE.replace("guest: 4Gi", "guest: 4GB")
    doc = next(iter_documents(text, "bundle.yaml"))
    bundle_doc = BundleDoc("bundle.yaml", doc.index, doc.data, doc.source)
    [problem] = schema_problems(bundle_doc)
    assert problem.rule == "schema"
    assert problem.location.line == text.splitlines().index("    guest: 4GB") + 1
    assert str(problem).startswith("bundle.yaml#0 (u1.medium) $.spec.memory.guest: '4GB' is not a Kubernetes quantity")
    assert str(problem).endswith("[schema]")


def test_schema_problems_of_a_multi_document_file(tmp_path: Path):
    bundle = tmp_path / "mixed.yaml"
    pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
    bundle.write_text("---\n".join([INSTANCETYPE, pod, PREFERENCE.replace("preferredDiskBus", "preferedDiskBus")]))
    problems = [str(p) for doc in read_bundles([bundle]) for p in schema_problems(doc)]
    assert problems == [
        f"{bundle}#1 (p) $.kind: unknown kind 'Pod'; expected one of {KINDS} [schema]",
        f"{bundle}#2 (fedora) $.spec.devices.preferedDiskBus: unknown field 'preferedDiskBus'; "
        "did you mean 'preferredDiskBus'? [schema]",
    ]


@pytest.mark.parametrize("release", known(), ids=str)
@pytest.mark.parametrize("cluster, namespaced", [INSTANCETYPE_KINDS, PREFERENCE_KINDS],
                         ids=["instancetype", "preference"])
def test_a_cluster_kind_and_its_namespaced_twin_have_one_schema_but_for_kind(release, cluster, namespaced):
    """What lets catalog loading probe a spec with either kind (load/catalog.py, load/traits.py)."""
    def without_kind(kind: str) -> tuple[dict, dict]:
        schema = shipped_schema(kind, release)
        properties = dict(schema["properties"])
        return {**schema, "properties": properties}, properties.pop("kind")

    (one, one_kind), (other, other_kind) = without_kind(cluster), without_kind(namespaced)
    assert one == other
    assert one_kind["type"] == other_kind["type"] == "string"
    assert one_kind.get("const", cluster) == cluster and other_kind.get("const", namespaced) == namespaced


# --- what each wrong value is called, and which of its faults is told ---


@pytest.mark.parametrize("value, got", [
    (None, "null"), (False, "boolean false"), (True, "boolean true"), ({}, "object"), ([], "array"),
    ("x" * 40, f"string {'x' * 40!r}"), ("x" * 41, "string"),
    (datetime.date(2026, 11, 27), "date 2026-11-27 (quote it to make it a string)"),
], ids=["null", "false", "true", "object", "array", "40 characters", "41 characters", "date"])
def test_a_value_of_the_wrong_type_is_named_by_its_json_type_and_shown_when_short(value, got):
    data = instancetype()
    data["spec"]["cpu"]["guest"] = value
    assert check_object(data) == [(("spec", "cpu", "guest"), f"expected integer, got {got}")]


def test_a_whole_number_field_takes_2_0_from_a_bundle_and_only_2_from_a_catalog_author():
    assert check_object(instancetype(cpu__guest=2.0)) == []
    assert check_object(instancetype(cpu__guest=2.0), whole_numbers=True) == [
        (("spec", "cpu", "guest"), "expected a whole number, got 2.0")]
    assert check_object(instancetype(cpu__guest=2.5)) == [
        (("spec", "cpu", "guest"), "expected a whole number, got 2.5")]


def test_a_field_of_two_types_names_both():
    data = load(INSTANCETYPE)
    data["metadata"]["creationTimestamp"] = 5
    assert check_object(data) == [(("metadata", "creationTimestamp"), "expected string or null, got integer 5")]


def test_a_number_out_of_the_range_of_its_format_names_the_format_and_its_range():
    data = load(VIRTUAL_MACHINE)
    data["spec"]["template"]["spec"]["tolerations"] = [{"key": "k", "tolerationSeconds": 2**63}]
    assert check_object(data) == [
        (("spec", "template", "spec", "tolerations", 0, "tolerationSeconds"),
         "9223372036854775808 is out of range for int64 (-9223372036854775808 to 9223372036854775807)")]


def test_of_the_faults_of_one_field_its_type_is_told():
    data = load(VIRTUAL_MACHINE)
    data["spec"]["template"]["spec"]["volumes"][0]["containerDisk"]["imagePullPolicy"] = 5  # not a string, nor allowed
    assert check_object(data) == [
        (("spec", "template", "spec", "volumes", 0, "containerDisk", "imagePullPolicy"),
         "expected string, got integer 5")]


def test_problems_come_in_the_order_of_list_indexes_as_numbers_and_of_keys_numbers_first():
    data = load(VIRTUAL_MACHINE)
    volumes = data["spec"]["template"]["spec"]["volumes"]
    volumes += [{"name": f"v{i}", "containerDisk": {"image": "x", "imagePullPolicy": "Never"}} for i in range(2, 11)]
    for i in (10, 2):
        volumes[i]["containerDisk"]["imagePullPolicy"] = "Sometimes"
    policy = "'Sometimes' is not an allowed value; expected one of 'Always', 'IfNotPresent', 'Never'"
    assert check_object(data) == [
        (("spec", "template", "spec", "volumes", i, "containerDisk", "imagePullPolicy"), policy) for i in (2, 10)]
    numbered = instancetype(memory__zeta=1)
    numbered["spec"]["memory"][1] = "a key YAML reads as a number"
    assert check_object(numbered) == [(("spec", "memory", 1), "unknown field '1'"),
                                      (("spec", "memory", "zeta"), "unknown field 'zeta'")]


# --- at an older release: a field it lacks, a misspelling of a later one ---


def preference(spec: dict) -> dict:
    data = load(PREFERENCE)
    data["spec"] = spec
    return data


def test_a_misspelt_field_of_a_later_release_deep_in_the_spec_names_the_field_and_its_release():
    assert check_object(preference({"cpu": {"spreadOption": {}}}), release=Release(1, 2)) == [
        (("spec", "cpu", "spreadOption"),
         "unknown field 'spreadOption'; did you mean 'spreadOptions', which came in KubeVirt v1.3?")]


def test_an_unknown_metadata_field_at_an_older_release_is_just_unknown():
    data = load(INSTANCETYPE)
    data["metadata"]["colour"] = "blue"
    assert check_object(data, release=Release(1, 8)) == [(("metadata", "colour"), "unknown field 'colour'")]


def test_schema_problems_judge_a_document_by_the_release_given():
    text = PREFERENCE.replace("    preferredDiskBus: virtio", "    preferredVideoType: vga")
    doc = next(iter_documents(text, "bundle.yaml"))
    bundle_doc = BundleDoc("bundle.yaml", doc.index, doc.data, doc.source)
    assert [str(p) for p in schema_problems(bundle_doc, release=Release(1, 8))] == [
        "bundle.yaml#0 (fedora) $.spec.devices.preferredVideoType: unknown field 'preferredVideoType': "
        "KubeVirt v1.8 does not have it (it came in v1.9) [schema]"]
    assert schema_problems(bundle_doc) == []


def test_an_error_with_alternatives_is_explained_by_the_deepest_of_them():
    """Reads the private ``_leaves``: no shipped schema has anyOf or oneOf, so no object reaches it."""
    from jsonschema import Draft202012Validator

    from generator.schemas import _leaves

    schema = {"anyOf": [{"type": "string"}, {"type": "object", "properties": {"a": {"properties": {
        "b": {"type": "integer"}, "c": {"type": "integer"}}}}}]}
    [error] = Draft202012Validator(schema).iter_errors({"a": {"b": "x", "c": "y"}})
    assert [(list(leaf.absolute_path), leaf.message) for leaf in _leaves(error)] == [
        (["a", "b"], "'x' is not of type 'integer'"), (["a", "c"], "'y' is not of type 'integer'")]
