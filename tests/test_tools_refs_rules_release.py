"""generator/tools/refs/rules/release.py: a name the catalog has and its build for a KubeVirt release leaves out.

The finding names the field that made the build leave the object out and the release
that brought it, or says no release citgen knows has it; a name the build has, a kind
KubeVirt refuses, a name of the other family and a name the catalog never had say nothing.
"""

from __future__ import annotations

from generator.expand.kubevirt import OBJECT_LEFT_OUT, Adjustment
from generator.problems import Location
from generator.schemas.releases import Release
from generator.tools.refs.model import Definition
from generator.tools.refs.rules import release
from tests.refrules import CPREF, findings, made, obj, ref

V1_8 = Release(1, 8)
TARGET = made(obj(CPREF, "fedora"), left_out={
    ("preference", "secex"): Adjustment("preference", "secex", "spec.preferredLaunchSecurity", OBJECT_LEFT_OUT,
                                        Release(1, 9), V1_8),
    ("preference", "future"): Adjustment("preference", "future", "spec.x", OBJECT_LEFT_OUT, None, V1_8),
})
AT = "vm.yaml:8:11: spec.preference.name: names preference"


def test_the_field_that_left_the_object_out_and_the_release_that_brought_it():
    assert release.ID == "release"
    assert findings(release, ref("preference", "secex"), target=TARGET) == [
        f"{AT} 'secex', which bundle shipped.yaml leaves out: its spec.preferredLaunchSecurity came in KubeVirt v1.9 "
        "[release]"]


def test_a_field_no_release_has_says_so():
    assert findings(release, ref("preference", "future"), target=TARGET) == [
        f"{AT} 'future', which bundle shipped.yaml leaves out: its spec.x is in no KubeVirt release citgen knows "
        "[release]"]


def test_a_name_the_build_has_a_refused_kind_the_other_family_and_an_unknown_name_say_nothing():
    assert findings(release, ref("preference", "fedora"), ref("preference", "secex", "vmcp"),
                    ref("instancetype", "secex"), ref("preference", "absent"), ref("preference", None),
                    target=TARGET) == []


def test_two_references_to_left_out_objects_are_each_reported_in_their_order():
    said = findings(release, ref("preference", "future", line=3), ref("preference", "secex", line=9), target=TARGET)
    assert [line.split("'")[1] for line in said] == ["future", "secex"]
    assert [line.split(":")[1] for line in said] == ["3", "9"]


def test_a_left_out_name_after_a_name_the_build_has_and_an_unknown_one_is_still_reported():
    said = findings(release, ref("preference", "fedora", line=1), ref("preference", "absent", line=2),
                    ref("preference", "secex", line=3), target=TARGET)
    assert [line.split(":")[1] for line in said] == ["3"]


def test_a_left_out_name_the_manifests_define_themselves_says_nothing():
    mine = Definition("preference", "VirtualMachineClusterPreference", "secex", None, Location("defs.yaml", 4, 9))
    assert findings(release, ref("preference", "secex"), target=TARGET, definitions=(mine,)) == []
