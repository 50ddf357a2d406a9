"""generator/tools/refs/rules/kind.py: a kind KubeVirt's matcher refuses, or one the target does not ship a name as.

KubeVirt reads the singular or plural of its family's two kinds in any case, or no kind;
the finding for anything else says why it is refused: kubectl's short name (of this family
or the other), a kind qualified by its API group, a kind of the other family, or none of
these. A name shipped only as the other kind of its family says which to name instead.
"""

from __future__ import annotations

import pytest

from generator.problems import Location
from generator.tools.refs.model import Definition
from generator.tools.refs.rules import kind
from generator.tools.refs.rules.kind import SHORT_NAMES, why
from tests.refrules import CIT, CPREF, NIT, NPREF, findings, made, obj, ref

TARGET = made(obj(CPREF, "fedora"), obj(CIT, "u1.small"), obj(NIT, "n1.ns"))
AT = "vm.yaml:8:11: spec.preference.name: names preference 'fedora'"


def of_kind(family: str, name: str | None, written: str | None) -> list[str]:
    return findings(kind, ref(family, name, written), target=TARGET)


def test_a_short_name_of_the_family_says_which_kind_to_write():
    assert kind.ID == "kind"
    assert of_kind("preference", "fedora", "vmcp") == [
        f"{AT} by kind 'vmcp', which KubeVirt does not accept: 'vmcp' is kubectl's short name for "
        "VirtualMachineClusterPreference; write VirtualMachineClusterPreference [kind]"]


@pytest.mark.parametrize("written, meant", [("VMCPS", CPREF), ("vmp", NPREF), ("vmprefs", NPREF),
                                            ("vmclusterinstancetype", CIT), ("vmfs", NIT)])
def test_every_short_name_in_any_case_is_kubectl_s(written: str, meant: str):
    assert SHORT_NAMES[written.lower()] == meant
    assert why("preference" if "Preference" in meant else "instancetype", written) == (
        f"'{written}' is kubectl's short name for {meant}; write {meant}")


def test_a_kind_kubevirt_lowers_to_its_own_is_no_finding():
    assert of_kind("preference", "fedora", "VirtualMachineClusterPreferencİ") == [
        f"{AT} by kind 'VirtualMachineClusterPreferencİ', which KubeVirt does not accept: KubeVirt reads "
        "VirtualMachineClusterPreference or VirtualMachinePreference (either in any case, singular or plural), or no "
        "kind for the cluster kind; it fails the VirtualMachine with 'got unexpected kind in PreferenceMatcher: "
        "VirtualMachineClusterPreferencİ' [kind]"]
    assert of_kind("preference", "fedora", "VİrtualMachineClusterPreference") == []
    assert why("preference", "VMCPİ").startswith("KubeVirt reads ")
    assert why("preference", "vİrtualmachinepreferences.İnstancetype.kubevirt.io") == (
        "'vİrtualmachinepreferences.İnstancetype.kubevirt.io' is qualified by its API group, which KubeVirt does not "
        "read; write VirtualMachinePreference")


def test_a_short_name_of_the_other_family_says_so():
    assert why("preference", "vmf") == "'vmf' is kubectl's short name for VirtualMachineInstancetype, a kind of the " \
                                       "other family"


def test_a_kind_qualified_by_its_group_is_told_to_drop_it():
    assert why("preference", "virtualmachinepreferences.instancetype.kubevirt.io") == (
        "'virtualmachinepreferences.instancetype.kubevirt.io' is qualified by its API group, which KubeVirt does not "
        "read; write VirtualMachinePreference")
    assert why("preference", "Pod.instancetype.kubevirt.io").startswith("KubeVirt reads ")


def test_a_kind_of_the_other_family_names_this_family_s_two():
    assert why("preference", "VirtualMachineInstancetypes") == (
        "VirtualMachineInstancetype is a kind of the other family; a preference is a VirtualMachineClusterPreference "
        "or a VirtualMachinePreference")
    assert why("instancetype", "virtualmachineclusterpreference") == (
        "VirtualMachineClusterPreference is a kind of the other family; an instancetype is a "
        "VirtualMachineClusterInstancetype or a VirtualMachineInstancetype")


def test_any_other_kind_is_what_kubevirt_fails_the_vm_with():
    assert of_kind("instancetype", "u1.small", "Pod") == [
        "vm.yaml:8:11: spec.instancetype.name: names instancetype 'u1.small' by kind 'Pod', "
        "which KubeVirt does not accept: KubeVirt reads VirtualMachineClusterInstancetype or "
        "VirtualMachineInstancetype (either in any case, singular or plural), or no kind for the cluster kind; it "
        "fails the VirtualMachine with 'got unexpected kind in InstancetypeMatcher: Pod' [kind]"]


@pytest.mark.parametrize("written", [None, "", "VirtualMachineClusterPreference", "virtualmachineclusterpreferences"])
def test_the_kinds_kubevirt_reads_say_nothing(written: str | None):
    assert of_kind("preference", "fedora", written) == []


def test_a_kind_kubevirt_refuses_is_reported_beside_a_name_known_only_when_applied():
    assert of_kind("preference", None, "vmcp") == [
        "vm.yaml:8:11: spec.preference.name: names a preference known only when applied by "
        "kind 'vmcp', which KubeVirt does not accept: 'vmcp' is kubectl's short name for "
        "VirtualMachineClusterPreference; write VirtualMachineClusterPreference [kind]"]
    assert of_kind("preference", None, NPREF) == of_kind("preference", None, None) == []


def test_a_name_shipped_only_as_the_cluster_kind_is_told_to_name_it_or_leave_the_kind_out():
    assert of_kind("preference", "fedora", NPREF) == [
        f"{AT} as a VirtualMachinePreference, which bundle shipped.yaml ships only as a "
        "VirtualMachineClusterPreference and no manifest read defines in its namespace; name the kind "
        "VirtualMachineClusterPreference (or leave the kind out) [kind]"]


def test_a_name_shipped_only_as_the_namespaced_kind_is_told_to_name_that():
    assert of_kind("instancetype", "n1.ns", None) == [
        "vm.yaml:8:11: spec.instancetype.name: names instancetype 'n1.ns' as a "
        "VirtualMachineClusterInstancetype, which bundle shipped.yaml ships only as a VirtualMachineInstancetype and "
        "no manifest read defines; name the kind VirtualMachineInstancetype [kind]"]


def test_a_namespaced_object_defined_beside_the_vm_resolves_it():
    beside = Definition("preference", NPREF, "fedora", "vms", Location("vm.yaml", 20))
    assert findings(kind, ref("preference", "fedora", NPREF), target=TARGET, definitions=(beside,)) == []


def test_a_name_that_cannot_be_known_does_not_stop_the_references_after_it():
    said = findings(kind, ref("preference", None, NPREF, line=3), ref("preference", "fedora", "vmcp", line=4),
                    target=TARGET)
    assert [line.split(":")[1] for line in said] == ["4"]

def test_of_two_references_only_the_refused_one_is_reported():
    said = findings(kind, ref("preference", "fedora", "vmcp", line=3), ref("instancetype", "u1.small", line=4),
                    target=TARGET)
    assert [line.split(":")[1] for line in said] == ["3"]


#: Defined beside the VMs: a namespaced preference in vms, a cluster instancetype.
BESIDE = (Definition("preference", NPREF, "topology", "vms", Location("p.yaml", 4, 9)),
          Definition("instancetype", CIT, "big", None, Location("it.yaml", 4, 9)))


def test_a_name_the_manifests_define_only_as_the_other_kind_names_that_kind():
    assert findings(kind, ref("preference", "topology"), target=TARGET, definitions=BESIDE) == [
        "vm.yaml:8:11: spec.preference.name: names preference 'topology' without a kind "
        "(KubeVirt then looks for a VirtualMachineClusterPreference), which the manifests read define only as a "
        "VirtualMachinePreference (p.yaml:4:9); name the kind VirtualMachinePreference [kind]"]
    assert findings(kind, ref("instancetype", "big", NIT), target=TARGET, definitions=BESIDE) == [
        "vm.yaml:8:11: spec.instancetype.name: names instancetype 'big' as a "
        "VirtualMachineInstancetype, which the manifests read define only as a VirtualMachineClusterInstancetype "
        "(it.yaml:4:9); name the kind VirtualMachineClusterInstancetype (or leave the kind out) [kind]"]


def test_a_namespaced_definition_elsewhere_is_not_the_one_kubevirt_would_find():
    elsewhere = (Definition("preference", NPREF, "topology", "other", Location("p.yaml", 4, 9)),)
    assert findings(kind, ref("preference", "topology"), target=TARGET, definitions=elsewhere) == []
