"""The expansion as a whole (generator/tools/vmexpand/__init__.py): matchers, unusable input, the caller's objects."""

from __future__ import annotations

import copy

import pytest

from generator.tools.vmexpand import MatcherError, UnusableInput, expand, expand_with, resolve
from tests.vmexpand_helpers import instancetype, vm


def test_callers_objects_are_not_changed() -> None:
    source, it, pref = vm(volumes=[{"name": "a", "emptyDisk": {"capacity": "1Gi"}}]), instancetype(), {"devices": {"preferredDiskBus": "sata"}}
    before = copy.deepcopy((source, it, pref))
    expand(source, it, pref)
    assert (source, it, pref) == before


def test_matchers_resolve_cluster_kinds_by_default_and_namespaced_on_request() -> None:
    objects = [
        {"kind": "VirtualMachineClusterInstancetype", "metadata": {"name": "x"}, "spec": {"cpu": {"guest": 1}}},
        {"kind": "VirtualMachineInstancetype", "metadata": {"name": "x"}, "spec": {"cpu": {"guest": 2}}},
    ]
    source = vm()
    source["spec"]["instancetype"] = {"name": "x"}
    assert resolve(source, objects)[0]["spec"]["cpu"]["guest"] == 1
    source["spec"]["instancetype"] = {"name": "x", "kind": "virtualmachineinstancetypes"}
    assert resolve(source, objects)[0]["spec"]["cpu"]["guest"] == 2
    source["spec"]["instancetype"] = {"name": "x", "kind": "Flavor"}
    with pytest.raises(MatcherError, match="got unexpected kind in InstancetypeMatcher: Flavor"):
        resolve(source, objects)
    source["spec"]["instancetype"] = {"name": "y"}
    with pytest.raises(MatcherError, match='VirtualMachineClusterInstancetype "y" not found') as raised:
        resolve(source, objects)
    assert raised.value.which == "instancetype"


def test_the_expanded_vm_has_no_matchers() -> None:
    source = vm()
    source["spec"]["instancetype"] = {"name": "x"}
    objects = [{"kind": "VirtualMachineClusterInstancetype", "metadata": {"name": "x"}, "spec": instancetype()}]
    result = expand_with(source, objects)
    assert "instancetype" not in result.vm["spec"] and "preference" not in result.vm["spec"]


@pytest.mark.parametrize("bad", [{"kind": "VirtualMachine"}, {"spec": {}}, {"spec": {"template": "x"}}])
def test_a_vm_without_a_template_is_unusable(bad) -> None:
    with pytest.raises(UnusableInput):
        expand(bad, None, None)


def test_a_bad_quantity_is_unusable_input() -> None:
    with pytest.raises(UnusableInput, match="not a Kubernetes quantity"):
        expand(vm(), instancetype(memory="lots"), {"requirements": {"memory": {"guest": "1Gi"}}})


# -- results, refusals and input that cannot be expanded -----------------------------------------


def test_an_accepted_expansion_is_ok_with_no_error() -> None:
    result = expand(vm(), instancetype(), None)
    assert (result.ok, result.error, result.errors) == (True, None, ())


def test_a_refused_expansion_has_no_vm_and_gives_its_first_message() -> None:
    result = expand(vm(domain={"cpu": {"sockets": 1, "cores": 1}}), instancetype(), None)
    assert result.vm is None and result.ok is False
    assert len(result.errors) == 2
    assert result.error == ("VM field(s) spec.template.spec.domain.cpu.sockets conflicts with selected instance type")


def test_a_spread_refusal_comes_before_any_conflict() -> None:
    result = expand(vm(domain={"cpu": {"sockets": 1}}), instancetype(cpu=3),
                    {"cpu": {"preferredCPUTopology": "spread"}})
    assert [e.reason for e in result.errors] == ["topology"]
    assert result.vm is None


def test_an_unmet_requirement_refuses_the_vm() -> None:
    result = expand(vm(), instancetype(cpu=1), {"requirements": {"cpu": {"guest": 2}}})
    assert result.vm is None
    assert [str(e) for e in result.errors] == [
        "spec.instancetype: insufficient CPU resources of 1 vCPU provided by instance type, preference requires 2 vCPU"]


def test_without_an_instancetype_the_preference_still_applies() -> None:
    result = expand(vm(domain={"cpu": {"cores": 2}}), None, {"preferredSubdomain": "lab"})
    assert result.vm["spec"]["template"]["spec"]["subdomain"] == "lab"
    assert result.vm["spec"]["template"]["spec"]["domain"]["cpu"] == {"cores": 2}


def test_whole_objects_and_bare_specs_expand_alike() -> None:
    it_object = {"kind": "VirtualMachineClusterInstancetype", "metadata": {"name": "x"}, "spec": instancetype(cpu=3)}
    pref_object = {"kind": "VirtualMachineClusterPreference", "metadata": {"name": "p"},
                   "spec": {"cpu": {"preferredCPUTopology": "cores"}}}
    by_object = expand(vm(), it_object, pref_object)
    by_spec = expand(vm(), instancetype(cpu=3), {"cpu": {"preferredCPUTopology": "cores"}})
    assert by_object.vm == by_spec.vm
    assert by_object.vm["spec"]["template"]["spec"]["domain"]["cpu"] == {"sockets": 1, "cores": 3, "threads": 1}


@pytest.mark.parametrize(
    "instancetype_arg, message",
    [
        (["not", "a", "mapping"], "expected a mapping, got list"),
        ({"kind": "VirtualMachineClusterInstancetype", "spec": None},
         "VirtualMachineClusterInstancetype has no spec mapping"),
        ({"kind": "VirtualMachineClusterInstancetype"}, "VirtualMachineClusterInstancetype has no spec mapping"),
    ],
)
def test_an_instancetype_that_is_not_an_object_is_unusable(instancetype_arg, message) -> None:
    with pytest.raises(UnusableInput) as raised:
        expand(vm(), instancetype_arg, None)
    assert str(raised.value) == message


def test_a_preference_without_a_spec_is_unusable() -> None:
    with pytest.raises(UnusableInput, match="^VirtualMachineClusterPreference has no spec mapping$"):
        expand(vm(), None, {"kind": "VirtualMachineClusterPreference", "spec": "x"})


@pytest.mark.parametrize(
    "bad, message",
    [
        ("text", "the VirtualMachine has no spec"),
        ({"spec": []}, "the VirtualMachine has no spec"),
        ({"spec": {}}, "the VirtualMachine has no spec.template"),
        ({"spec": {"template": None}}, "the VirtualMachine has no spec.template"),
    ],
)
def test_the_reason_a_vm_cannot_be_expanded(bad, message) -> None:
    with pytest.raises(UnusableInput) as raised:
        expand(bad, None, None)
    assert str(raised.value) == message


def test_a_value_of_the_wrong_type_is_unusable_input() -> None:
    with pytest.raises(UnusableInput, match=r"^cannot expand: a value has the wrong type \("):
        expand(vm(), {"cpu": {"guest": "many"}, "memory": {"guest": "1Gi"}}, None)


def test_a_bad_quantity_names_the_quantity() -> None:
    with pytest.raises(UnusableInput) as raised:
        expand(vm(), instancetype(memory="lots", memory_extra={"overcommitPercent": 10}), None)
    assert "lots" in str(raised.value)
    assert not str(raised.value).startswith("cannot expand")


def test_empty_template_metadata_is_left_out_and_other_metadata_kept() -> None:
    result = expand(vm(), instancetype(), None)
    assert "metadata" not in result.vm["spec"]["template"]
    source = vm()
    source["spec"]["template"]["metadata"] = {"labels": {"app": "x"}}
    result = expand(source, instancetype(), None)
    assert result.vm["spec"]["template"]["metadata"] == {"labels": {"app": "x"}}


def test_the_vm_outside_its_template_is_kept() -> None:
    source = vm()
    source["spec"]["runStrategy"] = "Halted"
    source["spec"]["preference"] = {"name": "p"}
    result = expand(source, None, None)
    assert result.vm["spec"]["runStrategy"] == "Halted"
    assert "preference" not in result.vm["spec"]
    assert result.vm["metadata"] == {"name": "t"}


# -- resolving matchers ----------------------------------------------------------------------------------

OBJECTS = [
    "not an object",
    {"kind": "VirtualMachineClusterPreference", "metadata": None},
    {"kind": "VirtualMachineClusterPreference", "metadata": {"name": "p"}, "spec": {"preferredSubdomain": "cluster"}},
    {"kind": "VirtualMachinePreference", "metadata": {"name": "p"}, "spec": {"preferredSubdomain": "namespaced"}},
    {"kind": "VirtualMachineClusterInstancetype", "metadata": {"name": "x"}, "spec": instancetype(cpu=1)},
]


def with_matchers(**matchers) -> dict:
    source = vm()
    source["spec"].update(matchers)
    return source


@pytest.mark.parametrize(
    "kind, subdomain",
    [
        (None, "cluster"), ("", "cluster"), ("VirtualMachineClusterPreference", "cluster"),
        ("virtualmachineclusterpreferences", "cluster"), ("VirtualMachinePreference", "namespaced"),
        ("virtualmachinepreferences", "namespaced"),
    ],
)
def test_preference_matcher_kinds(kind, subdomain) -> None:
    matcher = {"name": "p"} if kind is None else {"name": "p", "kind": kind}
    _, preference = resolve(with_matchers(preference=matcher), iter(OBJECTS))
    assert preference["spec"]["preferredSubdomain"] == subdomain


@pytest.mark.parametrize("kind", ["VirtualMachineClusterInstancetype", "virtualmachineclusterinstancetypes"])
def test_instancetype_matcher_kinds_for_the_cluster(kind) -> None:
    instancetype_found, preference = resolve(with_matchers(instancetype={"name": "x", "kind": kind}), OBJECTS)
    assert instancetype_found is OBJECTS[4]
    assert preference is None


@pytest.mark.parametrize(
    "matchers, which, message",
    [
        ({"preference": {"name": "p", "kind": "Taste"}}, "preference",
         "got unexpected kind in PreferenceMatcher: Taste"),
        ({"preference": "p"}, "preference", "spec.preference must be a mapping"),
        ({"instancetype": []}, "instancetype", "spec.instancetype must be a mapping"),
        ({"preference": {"kind": "VirtualMachinePreference"}}, "preference", "spec.preference.name is required"),
        ({"instancetype": {"name": ""}}, "instancetype", "spec.instancetype.name is required"),
        ({"preference": {"inferFromVolume": "root"}}, "preference",
         "spec.preference.inferFromVolume needs the cluster's volumes; name the preference instead"),
        ({"instancetype": {"name": "x", "kind": "VirtualMachineInstancetype"}}, "instancetype",
         'VirtualMachineInstancetype "x" not found'),
        ({"preference": {"name": "q"}}, "preference", 'VirtualMachineClusterPreference "q" not found'),
    ],
)
def test_a_matcher_that_names_nothing_usable(matchers, which, message) -> None:
    with pytest.raises(MatcherError) as raised:
        resolve(with_matchers(**matchers), OBJECTS)
    assert (str(raised.value), raised.value.which) == (message, which)
    assert isinstance(raised.value, UnusableInput)


def test_a_vm_without_matchers_resolves_to_nothing() -> None:
    assert resolve(vm(), OBJECTS) == (None, None)


@pytest.mark.parametrize("bad", ["text", {"spec": None}, {}])
def test_resolving_a_vm_without_a_spec_is_unusable(bad) -> None:
    with pytest.raises(UnusableInput, match="^the VirtualMachine has no spec$"):
        resolve(bad, OBJECTS)


def test_expand_with_uses_the_clusters_architecture() -> None:
    result = expand_with(with_matchers(instancetype={"name": "x"}, preference={"name": "p"}), OBJECTS, arch="arm64")
    spec = result.vm["spec"]["template"]["spec"]
    assert (spec["architecture"], spec["domain"]["machine"]) == ("arm64", {"type": "virt"})
    assert spec["domain"]["cpu"] == {"sockets": 1, "cores": 1, "threads": 1}  # the instancetype named was applied
    assert spec["domain"]["memory"] == {"guest": "2Gi"}
    assert spec["subdomain"] == "cluster"
    assert expand_with(with_matchers(), OBJECTS).vm["spec"]["template"]["spec"]["architecture"] == "amd64"
