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
