"""generator/tools/refs/rules/requirements.py: an object whose instancetype does not meet its preference's requirements.

Each object's instancetypes are paired with its preferences (never another object's);
too few vCPUs or too little memory is a finding at the instancetype's reference, in
KubeVirt's words, once per pair and place; a required architecture, a malformed object
or a spec that is no mapping is for other checks.
"""

from __future__ import annotations

from generator.tools.refs.model import Owner
from generator.tools.refs.rules import requirements
from generator.tools.refs.rules.requirements import OF_INSTANCETYPE
from tests.refrules import CIT, CPREF, findings, made, obj, ref


def sized(name: str, cpu: int, memory: str) -> dict:
    return obj(CIT, name, {"cpu": {"guest": cpu}, "memory": {"guest": memory}})


TARGET = made(
    sized("u1.small", 1, "2Gi"), sized("u1.wide", 4, "1Gi"), sized("u1.huge", 8, "16Gi"),
    obj(CPREF, "big", {"requirements": {"cpu": {"guest": 2}, "memory": {"guest": "4Gi"}}}),
    obj(CPREF, "bigger", {"requirements": {"cpu": {"guest": 4}}}),
    obj(CPREF, "arm", {"requirements": {"architecture": "arm64"}}),
    obj(CPREF, "bad", {"requirements": {"memory": {"guest": "lots"}}}),
    {"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": CPREF, "metadata": {"name": "listed"}, "spec": [1]},
    {"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": CIT, "metadata": {"name": "u1.text"}, "spec": "x"},
)
SMALL_BIG = ("vm.yaml:8:11: spec.instancetype.name: names instancetype 'u1.small' and "
             "preference 'big', which KubeVirt refuses together: insufficient CPU resources of 1 vCPU provided by "
             "instance type, preference requires 2 vCPU [requirements]")
WIDE_BIG = ("vm.yaml:20:11: spec.instancetype.name: names instancetype 'u1.wide' and preference "
            "'big', which KubeVirt refuses together: insufficient Memory resources of 1Gi provided by instance type, "
            "preference requires 4Gi [requirements]")


def test_too_few_vcpus_is_said_at_the_instancetype_in_kubevirt_s_words():
    assert (requirements.ID, OF_INSTANCETYPE) == ("requirements", ("cpu", "memory"))
    assert findings(requirements, ref("instancetype", "u1.small"), ref("preference", "big", line=10),
                    target=TARGET) == [SMALL_BIG]


def test_each_of_two_instancetypes_of_one_object_is_paired_with_its_preference():
    assert findings(requirements, ref("preference", "big", line=10), ref("instancetype", "u1.small"),
                    ref("instancetype", "u1.wide", line=20), target=TARGET) == [SMALL_BIG, WIDE_BIG]


def test_a_preference_named_twice_is_one_finding():
    assert findings(requirements, ref("instancetype", "u1.small"), ref("preference", "big", line=10),
                    ref("preference", "big", line=12), target=TARGET) == [SMALL_BIG]


def test_an_instancetype_and_a_preference_of_two_objects_are_not_paired():
    db = Owner("vm.yaml#1", "VirtualMachine", "db", "vms")
    assert findings(requirements, ref("instancetype", "u1.small"), ref("preference", "big", line=10, owner=db),
                    target=TARGET) == []


def test_a_met_requirement_an_architecture_and_a_malformed_object_say_nothing():
    for preference in ("big", "arm", "bad", "listed"):
        instancetype = "u1.huge" if preference == "big" else "u1.small"
        assert findings(requirements, ref("instancetype", instancetype), ref("preference", preference, line=10),
                        target=TARGET) == [], preference


def test_names_the_target_lacks_are_not_sized():
    assert findings(requirements, ref("instancetype", "u1.absent"), ref("preference", "big", line=10),
                    target=TARGET) == []


def test_an_instancetype_whose_spec_is_no_mapping_is_not_sized():
    assert findings(requirements, ref("instancetype", "u1.text"), ref("preference", "big", line=10),
                    target=TARGET) == []


def test_a_preference_passed_over_leaves_the_next_one_of_the_object_checked():
    said = findings(requirements, ref("instancetype", "u1.small"),
                    *(ref("preference", name, line=line) for line, name in enumerate(
                        ("listed", "bad", "arm", "big", "big", "bigger"), start=10)), target=TARGET)
    assert said == [SMALL_BIG, SMALL_BIG.replace("'big'", "'bigger'").replace("requires 2", "requires 4")]
