"""generator/tools/refs/rules/unknown_name.py: a name the target does not have, and what the finding offers instead.

In order of what it knows: the namespaces the manifests define the name in, when the
reference's namespace is not one of them; the name's history, when catalog.yaml retired it;
the nearest names of the family (at most three, nearest first); nothing more. A name the
target has, one the release rule reports, a refused kind and a name that cannot be known
say nothing.
"""

from __future__ import annotations

from generator.expand.kubevirt import OBJECT_LEFT_OUT, Adjustment
from generator.problems import Location
from generator.schemas.releases import Release
from generator.tools.refs.model import Definition, Owner
from generator.tools.refs.rules import unknown_name
from generator.suggest import Index
from generator.tools.refs.rules.unknown_name import SUGGESTIONS, suggestions
from tests.refrules import CIT, CPREF, NPREF, findings, made, obj, ref, retirement

TARGET = made(
    obj(CPREF, "fedora"), obj(CPREF, "fedora.arm64"), obj(CIT, "u1.small"),
    obj(CPREF, "centos.stream8", deprecated=True, replacement="centos.stream9"), obj(CPREF, "centos.stream9"),
    retired=(retirement("preference", "centos.8.stream", "v0.4.0", "centos.stream8", renamed=True),
             retirement("preference", "gone", "v1.0.0"), retirement("preference", "lost", "v1.0.0", "vanished")),
)
AT = "vm.yaml:8:11: spec.preference.name: names preference"
MINE = (Definition("preference", NPREF, "mine", "team-a", Location("p.yaml", 1)),
        Definition("preference", NPREF, "mine", None, Location("p.yaml", 5)))


def unknown(name: str, **more: object) -> list[str]:
    return findings(unknown_name, ref("preference", name), target=TARGET, **more)


def test_the_nearest_names_of_the_family_nearest_first():
    assert unknown_name.ID == "unknown-name"
    assert unknown("fedoar") == [f"{AT} 'fedoar', which bundle shipped.yaml does not have; did you mean 'fedora' or "
                                 "'fedora.arm64'? [unknown-name]"]
    assert unknown("fedor") == [f"{AT} 'fedor', which bundle shipped.yaml does not have; did you mean 'fedora'? "
                                "[unknown-name]"]


def test_at_most_three_names_alike_enough_are_suggested():
    assert SUGGESTIONS == 3
    assert suggestions("u1.smal", Index(["x", "u1.smalls", "u1.small1", "u1.smalll", "u1.small"])).names == (
        "u1.small", "u1.small1", "u1.smalll")  # one letter more each, by name
    assert suggestions("abcde", Index(["abxyz"])).names == () and suggestions("abcde", Index(["abcxy"])).names == (
        "abcxy",)  # alike by 0.4 and by 0.6


def test_names_are_ranked_by_their_structure_and_the_object_naming_them():
    index = Index(["rhel.9", "rhel.9.desktop", "rhel.9.realtime", "windows.11", "windows.2k19", "windows.2k19.virtio",
                   "windows.7", "windows.xp"])
    assert suggestions("rhel.9.virtio", index).names[0] == "rhel.9"
    assert suggestions("windows", index, "windows-2019").names[0] == "windows.2k19"
    target = made(obj(CPREF, "rhel.9"), obj(CPREF, "rhel.9.desktop"), obj(CPREF, "windows.11.virtio"))
    assert findings(unknown_name, ref("preference", "rhel.9.virtio"), target=target) == [
        f"{AT} 'rhel.9.virtio', which bundle shipped.yaml does not have ('.virtio' names exist only for windows); "
        "did you mean 'rhel.9' or 'rhel.9.desktop'? [unknown-name]"]


def test_a_name_of_the_other_family_and_a_name_like_none_get_no_suggestion():
    assert unknown("u1.small") == [f"{AT} 'u1.small', which bundle shipped.yaml does not have [unknown-name]"]
    assert unknown("zzzz") == [f"{AT} 'zzzz', which bundle shipped.yaml does not have [unknown-name]"]


def test_a_retired_name_tells_its_history_along_its_replacements():
    assert unknown("centos.8.stream") == [
        f"{AT} 'centos.8.stream', which bundle shipped.yaml does not have: centos.8.stream was renamed centos.stream8 "
        "in v0.4.0, then centos.stream8 was deprecated; use 'centos.stream9' [unknown-name]"]
    assert unknown("gone") == [f"{AT} 'gone', which bundle shipped.yaml does not have: gone was removed in v1.0.0; "
                               "nothing replaces it [unknown-name]"]
    assert unknown("lost") == [f"{AT} 'lost', which bundle shipped.yaml does not have: lost was removed in v1.0.0; "
                               "its replacements end at 'vanished', which bundle shipped.yaml does not hold "
                               "[unknown-name]"]


def test_a_name_defined_in_other_namespaces_names_each_of_them():
    assert findings(unknown_name, ref("preference", "mine", NPREF), target=TARGET, definitions=MINE) == [
        f"{AT} 'mine', which bundle shipped.yaml does not have and the manifests read define as a "
        "VirtualMachinePreference only without a namespace, in namespace 'team-a', not in namespace 'vms'; KubeVirt "
        "looks a namespaced kind up in the namespace of the object naming it [unknown-name]"]
    nowhere = Owner("vm.yaml#1", "VirtualMachine", "x", None)
    assert findings(unknown_name, ref("preference", "mine", NPREF, owner=nowhere), target=TARGET,
                    definitions=MINE[:1]) == [
        "vm.yaml:8:11: spec.preference.name: names preference 'mine', which bundle shipped.yaml does "
        "not have and the manifests read define as a VirtualMachinePreference only in namespace 'team-a', not without "
        "a namespace; KubeVirt looks a namespaced kind up in the namespace of the object naming it [unknown-name]"]


def test_names_defined_beside_the_vm_are_suggested_too():
    assert unknown("mien", definitions=MINE) == [
        f"{AT} 'mien', which bundle shipped.yaml does not have; did you mean 'mine'? [unknown-name]"]


def test_references_that_say_nothing_do_not_stop_those_after_them():
    target = made(obj(CPREF, "fedora"), left_out={("preference", "secex"): Adjustment(
        "preference", "secex", "spec.preferredLaunchSecurity", OBJECT_LEFT_OUT, Release(1, 9), Release(1, 8))})
    said = findings(unknown_name, ref("preference", "fedora", line=1), ref("preference", "secex", line=2),
                    ref("preference", "fedoar", line=3), target=target)
    assert [line.split(":")[1] for line in said] == ["3"]


def test_what_other_rules_report_or_nothing_can_know_says_nothing():
    target = made(obj(CPREF, "fedora"), left_out={("preference", "secex"): Adjustment(
        "preference", "secex", "spec.preferredLaunchSecurity", OBJECT_LEFT_OUT, Release(1, 9), Release(1, 8))})
    assert findings(unknown_name, ref("preference", "fedora"), ref("preference", "secex"),
                    ref("preference", "fedoar", "vmcp"), ref("preference", "fedora", NPREF), ref("preference", None),
                    target=target) == []
