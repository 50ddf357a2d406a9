"""generator/tools/refs/rules/deprecated.py: a reference to an object the target labels deprecated.

The finding names the release that deprecated the object (its deprecated-since
annotation), the object to use instead followed to one that is current, the release
that retired it where catalog.yaml says so, and says when nothing replaces it; a
current object, a name the target lacks and a name that cannot be known say nothing.
"""

from __future__ import annotations

from generator.tools.refs.rules import deprecated
from generator.tools.refs.target import Target
from tests.refrules import CPREF, findings, made, obj, ref, retirement

AT = "vm.yaml:8:11: spec.preference.name: names preference"
TARGET = made(
    obj(CPREF, "fedora"),
    obj(CPREF, "centos.stream9"),
    obj(CPREF, "centos.stream8", deprecated=True, since="v1.1.0", replacement="centos.stream9"),
    obj(CPREF, "old", deprecated=True),
    obj(CPREF, "mid", deprecated=True, since="v1.0.0", replacement="older"),
    obj(CPREF, "older", deprecated=True, replacement="fedora"),
    obj(CPREF, "lost", deprecated=True, replacement="nowhere"),
    obj(CPREF, "ring.a", deprecated=True, replacement="ring.b"),
    obj(CPREF, "ring.b", deprecated=True, replacement="ring.c"),
    obj(CPREF, "ring.c", deprecated=True, replacement="ring.b"),
    obj(CPREF, "stuck", deprecated=True, replacement="old"),
)


def deprecated_findings(name: str, target: Target = TARGET) -> list[str]:
    return findings(deprecated, ref("preference", name), target=target)


def test_the_release_that_deprecated_it_and_what_to_use_instead():
    assert deprecated.ID == "deprecated"
    assert deprecated_findings("centos.stream8") == [
        f"{AT} 'centos.stream8', which bundle shipped.yaml deprecated in v1.1.0; use 'centos.stream9' [deprecated]"]


def test_a_replacement_deprecated_in_turn_is_followed_to_the_current_object_and_said_so():
    assert deprecated_findings("mid") == [
        f"{AT} 'mid', which bundle shipped.yaml deprecated in v1.0.0; use 'fedora' (its replacement 'older' is not "
        "current either) [deprecated]"]
    assert deprecated_findings("older") == [f"{AT} 'older', which bundle shipped.yaml deprecated; use 'fedora' "
                                            "[deprecated]"]


def test_without_a_replacement_it_leaves_the_catalog_in_a_later_release():
    assert deprecated_findings("old") == [
        f"{AT} 'old', which bundle shipped.yaml deprecated (labelled instancetype.kubevirt.io/deprecated, no "
        "replacement named); it leaves the catalog in a later release [deprecated]"]


def test_replacements_that_lead_out_of_the_target_say_where_they_end():
    assert deprecated_findings("lost") == [
        f"{AT} 'lost', which bundle shipped.yaml deprecated; its replacements end at 'nowhere', which bundle "
        "shipped.yaml does not hold [deprecated]"]


def test_replacements_that_go_round_in_a_circle_are_said_to_and_never_to_end_outside_the_target():
    assert deprecated_findings("ring.a") == [
        f"{AT} 'ring.a', which bundle shipped.yaml deprecated; its replacements go round in a circle "
        "(ring.b -> ring.c -> ring.b), which reaches no current object [deprecated]"]
    assert deprecated_findings("ring.c") == [
        f"{AT} 'ring.c', which bundle shipped.yaml deprecated; its replacements go round in a circle "
        "(ring.c -> ring.b -> ring.c), which reaches no current object [deprecated]"]


def test_replacements_that_end_at_a_deprecated_object_naming_none_say_so():
    assert deprecated_findings("stuck") == [
        f"{AT} 'stuck', which bundle shipped.yaml deprecated; its replacements end at 'old', which bundle "
        "shipped.yaml deprecated naming no replacement [deprecated]"]


def test_a_retained_object_that_catalog_yaml_retires_says_both_releases():
    target = made(obj(CPREF, "fedora"), obj(CPREF, "kept", deprecated=True, since="v1.0.0", replacement="fedora"),
                  retired=(retirement("preference", "kept", "v1.2.0", "fedora"),))
    assert deprecated_findings("kept", target) == [
        f"{AT} 'kept', which bundle shipped.yaml deprecated in v1.0.0 and its catalog retired in v1.2.0 (kept as "
        "released); use 'fedora' [deprecated]"]


def test_a_current_object_a_missing_one_and_an_unknown_name_say_nothing():
    assert findings(deprecated, ref("preference", "fedora"), ref("preference", "absent"),
                    ref("preference", None, unchecked="parameter P has no default"), target=TARGET) == []


def test_a_deprecated_name_written_with_a_kind_it_is_not_found_as_is_left_to_the_kind_rule():
    assert findings(deprecated, ref("preference", "centos.stream8", "vmcp"),
                    ref("preference", "centos.stream8", "VirtualMachinePreference"), target=TARGET) == []


def test_references_that_say_nothing_do_not_stop_those_after_them():
    said = findings(deprecated, ref("preference", "absent", line=1), ref("preference", "fedora", line=2),
                    ref("preference", "old", line=3), target=TARGET)
    assert [line.split(":")[1] for line in said] == ["3"]

def test_two_references_are_each_reported_in_their_order():
    said = findings(deprecated, ref("preference", "old", line=12), ref("preference", "centos.stream8", line=3),
                    target=TARGET)
    assert [line.split(":")[1] + " " + line.split("'")[1] for line in said] == ["12 old", "3 centos.stream8"]
