"""The admission policy (outputs/policy.py), taken as the API server takes it.

Every object is validated against Kubernetes' own OpenAPI schema of the oldest
and the newest release it is written for (kubernetes-validate, strict: no field
the API server would drop), and every CEL expression is compiled and evaluated
as the API server compiles and runs it (tests/policy_cel.py: Google's C++ CEL)
against the objects users write: VMs and pools naming deprecated, retired and
current objects of both kinds (as KubeVirt reads a kind: any case, singular or
plural, empty for the cluster kind), objects without the fields, inference
labels on CDI's objects and PVCs, and UPDATEs that change the reference or
leave it alone.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

import pytest
import yaml

from generator.model import Lifecycle
from generator.outputs.policy import (KUBERNETES_RELEASES, POLICY_FILE, Policy, build_policy, message,
                                      policy_objects, policy_text)
from generator.pipeline import BuildOptions, generate
from tests.conftest import SHARED, shared_file
from tests.helpers import default_build, parse_stream

kubernetes_validate = pytest.importorskip("kubernetes_validate")

from tests.policy_cel import Admission  # noqa: E402  (after the engine's importorskip)

V1_0_0 = SHARED / "reference" / "releases" / "v1.0.0-common-instancetypes-all-bundle.yaml"

#: A small catalog's lifecycle: one of each kind of record, for both families.
RECORDS = {
    ("instancetype", "u1.old"): Lifecycle("instancetype", "u1.old", "deprecated", "v1.2.0", "u1.new",
                                          chain=("u1.new",), current="u1.new"),
    ("instancetype", "server.large"): Lifecycle("instancetype", "server.large", "retired", "v0.4.0", "u1.large",
                                                chain=("u1.large",), current="u1.large", retired="v0.4.0"),
    ("preference", "centos.stream8"): Lifecycle("preference", "centos.stream8", "deprecated", "v1.2.1",
                                                "centos.stream9", chain=("centos.stream9",),
                                                current="centos.stream9"),
    ("preference", "centos.8.stream"): Lifecycle("preference", "centos.8.stream", "retired", "v0.4.0",
                                                 "centos.stream9", chain=("centos.stream9",),
                                                 current="centos.stream9", retired="v0.4.0"),
}


def vm(instancetype: Mapping[str, str] | None = None, preference: Mapping[str, str] | None = None,
       kind: str = "VirtualMachine") -> dict[str, Any]:
    spec: dict[str, Any] = {"runStrategy": "Always", "template": {"spec": {}}}
    if instancetype is not None:
        spec["instancetype"] = dict(instancetype)
    if preference is not None:
        spec["preference"] = dict(preference)
    return {"apiVersion": "kubevirt.io/v1", "kind": kind, "metadata": {"name": "vm", "namespace": "vms"},
            "spec": spec}


def pool(**matchers: Mapping[str, str]) -> dict[str, Any]:
    return {"apiVersion": "pool.kubevirt.io/v1beta1", "kind": "VirtualMachinePool",
            "metadata": {"name": "pool"}, "spec": {"replicas": 2, "virtualMachineTemplate": {"spec": vm(**matchers)["spec"]}}}


def labelled(kind: str, labels: Mapping[str, str] | None = None) -> dict[str, Any]:
    api = "v1" if kind == "PersistentVolumeClaim" else "cdi.kubevirt.io/v1beta1"
    meta: dict[str, Any] = {"name": "disk"}
    if labels is not None:
        meta["labels"] = dict(labels)
    return {"apiVersion": api, "kind": kind, "metadata": meta, "spec": {}}


@lru_cache(maxsize=None)
def admissions(retired: str = "Warn") -> dict[str, Admission]:
    objects = policy_objects(Policy(RECORDS, retired))
    return {o["metadata"]["name"].rsplit("-", 1)[1]: Admission(o) for o in objects
            if o["kind"] == "ValidatingAdmissionPolicy"}


DEPRECATED_IT = message(RECORDS[("instancetype", "u1.old")])
RETIRED_IT = message(RECORDS[("instancetype", "server.large")])
DEPRECATED_PREF = message(RECORDS[("preference", "centos.stream8")])
RETIRED_PREF = message(RECORDS[("preference", "centos.8.stream")])


# --------------------------------------------------------------------------- messages


def test_a_message_names_the_object_its_replacement_and_the_release():
    assert DEPRECATED_IT == "instancetype u1.old is deprecated since v1.2.0; use u1.new instead"
    assert RETIRED_PREF == "preference centos.8.stream was retired in v0.4.0; use centos.stream9 instead"


def test_a_message_follows_the_chain_to_the_current_object_and_says_when_nothing_replaces_it():
    chained = Lifecycle("preference", "centos.8.stream", "retired", "v0.4.0", "centos.stream8",
                        chain=("centos.stream8", "centos.stream9"), current="centos.stream9")
    assert message(chained).endswith("use centos.stream9 instead")
    assert message(Lifecycle("instancetype", "x1.small", "deprecated")) == \
        "instancetype x1.small is deprecated; it has no replacement"


# --------------------------------------------------------------------------- VirtualMachines and pools


def test_a_vm_naming_a_deprecated_instancetype_of_the_cluster_kind_is_warned():
    assert admissions()["deprecated"].messages(vm({"name": "u1.old"})) == [DEPRECATED_IT]


@pytest.mark.parametrize("kind", ["VirtualMachineClusterInstancetype", "VirtualMachineInstancetype",
                                  "virtualmachineinstancetypes", "VIRTUALMACHINECLUSTERINSTANCETYPES", ""])
def test_every_kind_spelling_kubevirt_accepts_is_judged(kind):
    assert admissions()["deprecated"].messages(vm({"name": "u1.old", "kind": kind})) == [DEPRECATED_IT]


@pytest.mark.parametrize("kind", ["vmf", "virtualmachineclusterinstancetype.instancetype.kubevirt.io",
                                  "VirtualMachineClusterPreference"])
def test_a_kind_kubevirt_does_not_accept_is_not_judged(kind):
    assert admissions()["deprecated"].messages(vm({"name": "u1.old", "kind": kind})) == []


def test_a_vm_naming_a_deprecated_preference_of_either_kind_is_warned():
    for kind in ("VirtualMachineClusterPreference", "virtualmachinepreference"):
        assert admissions()["deprecated"].messages(vm(preference={"name": "centos.stream8", "kind": kind})) == \
            [DEPRECATED_PREF]


def test_a_vm_naming_both_deprecated_objects_is_told_of_both():
    found = admissions()["deprecated"].messages(vm({"name": "u1.old"}, {"name": "centos.stream8"}))
    assert found == [DEPRECATED_IT, DEPRECATED_PREF]


def test_a_vm_naming_retired_objects_is_judged_by_the_retired_policy_only():
    request = vm({"name": "server.large"}, {"name": "centos.8.stream", "kind": "VirtualMachinePreference"})
    assert admissions()["retired"].messages(request) == [RETIRED_IT, RETIRED_PREF]
    assert admissions()["deprecated"].messages(request) == []


def test_a_vm_naming_current_objects_is_not_warned():
    request = vm({"name": "u1.new"}, {"name": "centos.stream9"})
    assert all(a.messages(request) == [] for a in admissions().values())


@pytest.mark.parametrize("request_", [
    vm(),
    {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "vm"}},
    vm({"inferFromVolume": "root"}, {"inferFromVolume": "root"}),
    vm({"revisionName": "vm-u1-old-1"}),
    pool(),
    {"apiVersion": "pool.kubevirt.io/v1alpha1", "kind": "VirtualMachinePool", "metadata": {"name": "p"},
     "spec": {}},
    {"apiVersion": "pool.kubevirt.io/v1alpha1", "kind": "VirtualMachinePool", "metadata": {"name": "p"},
     "spec": {"virtualMachineTemplate": {}}},
], ids=["no-matchers", "no-spec", "inferred", "revision-only", "pool-no-matchers", "pool-no-template",
        "pool-template-no-spec"])
def test_absent_fields_are_passed_without_an_error(request_):
    assert all(a.messages(request_) == [] for a in admissions().values())


def test_a_pool_is_judged_by_its_vm_template():
    assert admissions()["deprecated"].messages(pool(instancetype={"name": "u1.old"})) == [DEPRECATED_IT]
    assert admissions()["retired"].messages(pool(preference={"name": "centos.8.stream"})) == [RETIRED_PREF]


def test_an_update_that_leaves_the_reference_alone_is_not_warned_again():
    old = vm({"name": "u1.old"}, {"name": "centos.8.stream"})
    new = vm({"name": "u1.old", "revisionName": "vm-u1-old-1"}, {"name": "centos.8.stream"})
    new["spec"]["runStrategy"] = "Halted"
    assert all(a.messages(new, old) == [] for a in admissions().values())


def test_an_update_that_changes_the_reference_to_a_deprecated_name_is_warned():
    old = vm({"name": "u1.new"})
    assert admissions()["deprecated"].messages(vm({"name": "u1.old"}), old) == [DEPRECATED_IT]
    assert admissions()["retired"].messages(vm({"name": "server.large"}), old) == [RETIRED_IT]


def test_an_update_of_a_pool_compares_with_the_old_pool():
    old = pool(instancetype={"name": "u1.old"})
    assert admissions()["deprecated"].messages(pool(instancetype={"name": "u1.old"}), old) == []
    assert admissions()["deprecated"].messages(pool(instancetype={"name": "u1.old"}), pool()) == [DEPRECATED_IT]


# --------------------------------------------------------------------------- inference labels


@pytest.mark.parametrize("kind", ["DataSource", "DataVolume", "PersistentVolumeClaim", "DataImportCron"])
def test_inference_labels_naming_deprecated_or_retired_objects_are_warned(kind):
    deprecated = admissions()["deprecated"]
    labels = {"instancetype.kubevirt.io/default-instancetype": "u1.old",
              "instancetype.kubevirt.io/default-preference": "centos.8.stream"}
    assert deprecated.messages(labelled(kind, labels)) == [
        f"label instancetype.kubevirt.io/default-instancetype: {DEPRECATED_IT}",
        f"label instancetype.kubevirt.io/default-preference: {RETIRED_PREF}"]
    assert admissions()["retired"].messages(labelled(kind, labels)) == []  # labels are warned about, never refused


def test_inference_labels_of_current_objects_or_absent_are_not_warned():
    deprecated = admissions()["deprecated"]
    assert deprecated.messages(labelled("DataSource")) == []
    assert deprecated.messages(labelled("DataSource", {"app": "x"})) == []
    assert deprecated.messages(labelled("DataSource", {"instancetype.kubevirt.io/default-preference":
                                                           "centos.stream9"})) == []


def test_an_update_that_keeps_a_label_is_not_warned_again():
    labels = {"instancetype.kubevirt.io/default-preference": "centos.stream8"}
    old = labelled("DataVolume", labels)
    assert admissions()["deprecated"].messages(labelled("DataVolume", {**labels, "other": "1"}), old) == []
    assert admissions()["deprecated"].messages(labelled("DataVolume", labels), labelled("DataVolume")) == [
        f"label instancetype.kubevirt.io/default-preference: {DEPRECATED_PREF}"]


def test_the_labels_of_a_vm_are_not_read_as_inference_labels():
    request = vm()
    request["metadata"]["labels"] = {"instancetype.kubevirt.io/default-instancetype": "u1.old"}
    assert admissions()["deprecated"].messages(request) == []


# --------------------------------------------------------------------------- the objects


def test_the_retired_binding_takes_the_catalog_action_and_the_deprecated_one_always_warns():
    for action in ("Warn", "Deny"):
        bindings = {o["metadata"]["name"]: o["spec"]["validationActions"]
                    for o in policy_objects(Policy(RECORDS, action)) if o["kind"].endswith("Binding")}
        assert bindings == {"common-instancetypes-deprecated": ["Warn"], "common-instancetypes-retired": [action]}


def test_only_create_and_update_of_the_named_resources_are_matched():
    rules = [rule for o in policy_objects(Policy(RECORDS)) if o["kind"] == "ValidatingAdmissionPolicy"
             for rule in o["spec"]["matchConstraints"]["resourceRules"]]
    assert {op for rule in rules for op in rule["operations"]} == {"CREATE", "UPDATE"}
    assert {(group, resource) for rule in rules for group in rule["apiGroups"] for resource in rule["resources"]} == {
        ("kubevirt.io", "virtualmachines"), ("pool.kubevirt.io", "virtualmachinepools"),
        ("cdi.kubevirt.io", "datasources"), ("cdi.kubevirt.io", "datavolumes"), ("cdi.kubevirt.io", "dataimportcrons"),
        ("", "persistentvolumeclaims")}


def test_an_empty_lifecycle_gives_policies_that_pass_everything():
    objects = policy_objects(Policy({}))
    for obj in objects:
        if obj["kind"] == "ValidatingAdmissionPolicy":
            assert Admission(obj).messages(vm({"name": "u1.old"})) == []


# --------------------------------------------------------------------------- the built-in catalog


@lru_cache(maxsize=None)
def retained_build():
    """The built-in catalog with the policy, carrying forward what v1.0.0 shipped."""
    return generate(BuildOptions(policy=True, retain_from=(shared_file(V1_0_0),)))


def test_the_default_build_writes_no_policy():
    build = default_build()
    assert POLICY_FILE not in build.files
    assert not any("policy" in name for name in build.files)


def test_the_policy_file_is_written_with_the_bundles_and_checksummed():
    build = retained_build()
    assert build.problems == ()
    assert POLICY_FILE in build.files
    assert POLICY_FILE in build.files["CHECKSUMS.sha256"].decode()


def test_with_v1_0_0_retained_the_policy_names_deprecated_and_retired_objects():
    policy = build_policy(retained_build().catalog, retained_build().objects, asked=True)
    assert policy is not None
    deprecated = set(policy.names("deprecated", "preference"))
    retired = set(policy.names("retired", "instancetype")) | set(policy.names("retired", "preference"))
    assert {"centos.7", "centos.stream8"} <= deprecated  # v1.0.0's, retained and labelled deprecated
    assert {"server.large", "centos.8.stream"} <= retired  # catalog.yaml's record of removals
    text = retained_build().files[POLICY_FILE].decode()
    assert text == policy_text(policy)
    assert '"centos.stream8": "preference centos.stream8 is deprecated' in " ".join(text.split())


def test_the_built_policy_judges_a_vm_by_the_catalog_names():
    objects = parse_stream(retained_build().files[POLICY_FILE])
    checks = {o["metadata"]["name"]: Admission(o) for o in objects if o["kind"] == "ValidatingAdmissionPolicy"}
    said = checks["common-instancetypes-deprecated"].messages(vm(preference={"name": "centos.stream8"}))
    assert said == ["preference centos.stream8 is deprecated since v1.2.1; use centos.stream9 instead"]
    said = checks["common-instancetypes-retired"].messages(vm({"name": "server.large"}))
    assert said and said[0].startswith("instancetype server.large was retired in")
    assert checks["common-instancetypes-retired"].messages(vm({"name": "u1.large"}, {"name": "fedora"})) == []


@pytest.mark.parametrize("release", KUBERNETES_RELEASES)
def test_every_object_is_valid_for_the_kubernetes_releases_it_claims(release):
    objects = parse_stream(retained_build().files[POLICY_FILE])
    assert [o["kind"] for o in objects] == ["ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding"] * 2
    for obj in objects + policy_objects(Policy(RECORDS, "Deny")):
        kubernetes_validate.validate(obj, f"{release}.0", strict=True)


def test_the_schema_check_would_refuse_a_field_the_api_server_drops():
    binding = policy_objects(Policy(RECORDS))[1]
    binding["spec"]["action"] = "Warn"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(binding, f"{KUBERNETES_RELEASES[0]}.0", strict=True)


def test_the_file_reads_back_as_the_objects():
    policy = Policy(RECORDS, "Deny")
    assert list(yaml.safe_load_all(policy_text(policy))) == policy_objects(policy)


def test_catalog_yaml_setting_turns_the_policy_on_and_picks_the_action(tmp_path):
    from tests.helpers import copy_catalog

    root = copy_catalog(tmp_path / "catalog")
    with open(root / "catalog.yaml", "a") as out:
        out.write("policy:\n  retired: deny\n")
    build = generate(BuildOptions(catalog=root))
    assert build.problems == ()
    bindings = [o for o in parse_stream(build.files[POLICY_FILE]) if o["kind"].endswith("Binding")]
    assert bindings[1]["spec"]["validationActions"] == ["Deny"]
    assert "server.large" in build.files[POLICY_FILE].decode()
