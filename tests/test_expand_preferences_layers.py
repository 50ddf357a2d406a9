"""expand/preferences.py: where each layer of a preference is located and named, and what the object carries.

A preference is composed from layers: its osType, its traits, its requirements, its
spec and its overrideSpec. These tests make each layer take part in a conflict (or
replace nothing) so that its name, its location and its advice are seen in the exact
message; and they pin what the composed object carries besides its spec: its kind,
its location, its essential fields, the overlay lines that shaped it.

Private helpers, tested on purpose: the layers a preference is made of (_expand, _paths, _identity,
_essential_fields) have cases no built-in preference reaches.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from generator.errors import InputError
from generator.expand.preferences import _essential_fields, _expand, _identity, _paths, expand_preferences
from generator.model import Change, Family, PreferenceCatalog, PreferenceDef, Requirements, Trait, TraitRef
from generator.problems import Location

PROVIDER = {"displayName": "KubeVirt", "documentationURL": "https://d", "supportURL": "https://s"}
FILE = "preferences/linux.yaml"


def at(line: int, file: str = FILE) -> Location:
    return Location(file, line, 3)


def trait(name: str, spec: dict[str, Any], essential: bool = False) -> Trait:
    return Trait(name, f"{name} trait", spec, (), at(1, f"preferences/traits/{name}.yaml"), essential)


TRAITS = {
    "virtio": trait("virtio", {"devices": {"preferredDiskBus": "virtio"}}),
    "windows-os": trait("windows-os", {"annotations": {"vm.kubevirt.io/os": "windows"}}),
    "many-cpus": trait("many-cpus", {"requirements": {"cpu": {"guest": 8}}}),
    "tpm": trait("tpm", {"devices": {"preferredTPM": {}}}, essential=True),
    "sev": trait("sev", {"launchSecurity": {"sev": {"policy": {"secureBoot": True}}},
                         "firmware": {"preferredUseEfi": True}}, essential=True),
}
FAMILY = Family(name="linux", os_type="linux", icon_class="icon-linux", tags=None,
                traits=(TraitRef("virtio", False, at(2)),), requirements=Requirements(1, "1Gi", at(3)),
                deprecated=False, location=at(1))


def pref(name: str, **fields: Any) -> PreferenceDef:
    fields.setdefault("display_name", name.title())
    return PreferenceDef(name=name, family="linux", description=f"{name} guests", location=at(10), **fields)


def uses(*names: str, line: int = 8) -> tuple[TraitRef, ...]:
    return tuple(TraitRef(name, False, at(line + i)) for i, name in enumerate(names))


def catalog(*prefs: PreferenceDef, family: Family = FAMILY, changes: tuple[Change, ...] = ()) -> PreferenceCatalog:
    return PreferenceCatalog(TRAITS, {family.name: family}, {p.name: p for p in prefs}, changes)


def refusal(*prefs: PreferenceDef, family: Family = FAMILY) -> list[str]:
    with pytest.raises(InputError) as raised:
        expand_preferences(catalog(*prefs, family=family), provider=PROVIDER)
    return [str(p) for p in raised.value.problems]


def expand(*prefs: PreferenceDef, family: Family = FAMILY, changes: tuple[Change, ...] = ()) -> dict:
    objects = expand_preferences(catalog(*prefs, family=family, changes=changes), provider=PROVIDER)
    return {o.name: o for o in objects}


def os_conflict(line: int, os_type: str = "linux") -> list[str]:
    return [f"preferences/linux.yaml:8:3: trait 'windows-os' sets annotations.vm.kubevirt.io/os to 'windows', but "
            f"osType (listed at preferences/linux.yaml:{line}) already set annotations.vm.kubevirt.io/os to "
            f"{os_type!r}; write it as {{trait: windows-os, override: true}} if it is meant to replace that value"]


# --------------------------------------------------------------------------- the osType layer


def test_the_os_type_layer_is_located_where_the_preference_sets_its_os_type() -> None:
    own = pref("w", os_type="rhel", os_type_location=at(4), traits=uses("windows-os"))
    assert refusal(own, family=replace(FAMILY, os_type_location=at(2))) == os_conflict(4, "rhel")


def test_the_os_type_layer_is_located_where_a_base_sets_the_os_type_the_child_inherits() -> None:
    base = pref("rhel", os_type="rhel", os_type_location=at(5))
    child = pref("rhel.9", based_on="rhel", traits=uses("windows-os"))
    assert refusal(base, child, family=replace(FAMILY, os_type_location=at(2))) == os_conflict(5, "rhel")


def test_the_os_type_layer_is_located_at_the_family_when_no_preference_sets_one() -> None:
    assert refusal(pref("w", traits=uses("windows-os")), family=replace(FAMILY, os_type_location=at(2))) == \
        os_conflict(2)


def test_the_os_type_layer_is_located_at_the_preference_when_the_family_os_type_has_no_line() -> None:
    assert refusal(pref("w", traits=uses("windows-os"))) == os_conflict(10)


# --------------------------------------------------------------------------- traits, requirements, overrideSpec


def test_an_unknown_trait_of_a_preference_is_reported_with_a_suggestion() -> None:
    assert refusal(pref("u", traits=(TraitRef("virtoi", False, at(8)),))) == [
        "preferences/linux.yaml:8:3: unknown trait 'virtoi'; did you mean 'virtio'? (traits are the files of "
        "preferences/traits/)"]


def test_requirements_contradicting_a_trait_are_located_at_the_requirements_with_their_advice() -> None:
    contradicting = pref("r", requirements=Requirements(2, None, at(13)), traits=uses("many-cpus"))
    assert refusal(contradicting) == [
        "preferences/linux.yaml:13:3: the requirements of 'r' sets requirements.cpu.guest to 2, but trait "
        "'many-cpus' (listed at preferences/linux.yaml:8) already set requirements.cpu.guest to 8; set the value "
        "under overrideSpec instead if it is meant to replace that value"]


def test_requirements_without_a_line_of_their_own_are_located_at_the_preference() -> None:
    contradicting = pref("r", requirements=Requirements(2, None, None), traits=uses("many-cpus"))
    assert refusal(contradicting) == [
        "preferences/linux.yaml:10:3: the requirements of 'r' sets requirements.cpu.guest to 2, but trait "
        "'many-cpus' (listed at preferences/linux.yaml:8) already set requirements.cpu.guest to 8; set the value "
        "under overrideSpec instead if it is meant to replace that value"]


def test_an_override_spec_that_replaces_nothing_is_located_where_it_is_written() -> None:
    assert refusal(pref("s", override_spec={}, override_spec_location=at(14))) == [
        "preferences/linux.yaml:14:3: the overrideSpec of 's' changes no value an earlier layer set, and an "
        "overrideSpec must replace one; move what it sets under spec, or remove it"]


def test_an_override_spec_without_a_line_of_its_own_is_located_at_its_preference() -> None:
    assert refusal(pref("base", override_spec={"clock": {"timezone": "UTC"}})) == [
        "preferences/linux.yaml:10:3: the overrideSpec of 'base' changes no value an earlier layer set, and an "
        "overrideSpec must replace one; move what it sets under spec, or remove it"]


# --------------------------------------------------------------------------- family and basedOn chain


def test_a_circle_a_preference_leads_into_is_named_without_that_preference() -> None:
    looping = [pref("x", based_on="a", based_on_location=at(5)), pref("a", based_on="b", based_on_location=at(6)),
               pref("b", based_on="a", based_on_location=at(7))]
    objects, problems = _expand(catalog(*looping), PROVIDER)
    assert objects == []
    assert [str(p) for p in problems] == [
        "preferences/linux.yaml:7:3: basedOn goes round in a circle: b -> a -> b",
        "preferences/linux.yaml:6:3: basedOn goes round in a circle: a -> b -> a"]


def test_a_broken_chain_still_reports_the_unknown_traits_of_the_preference() -> None:
    broken = pref("u", based_on="nope", based_on_location=at(6), traits=(TraitRef("virtoi", False, at(8)),))
    assert refusal(broken) == [
        "preferences/linux.yaml:6:3: basedOn names 'nope', which is not a preference of this file",
        "preferences/linux.yaml:8:3: unknown trait 'virtoi'; did you mean 'virtio'? (traits are the files of "
        "preferences/traits/)"]


def test_a_preference_of_a_family_the_catalog_lacks_is_reported_at_the_preference() -> None:
    stray = replace(pref("f", traits=uses("virtio")), family="windows")
    assert refusal(stray) == [
        "preferences/linux.yaml:10:3: preference 'f' names family 'windows', which the catalog does not have"]


def test_a_preference_missing_what_it_needs_has_no_identity() -> None:
    nameless = pref("x", display_name=None)
    problems: list = []
    assert _identity(nameless, [nameless], FAMILY, problems) is None
    assert [str(p) for p in problems] == [
        "preferences/linux.yaml:10:3: preference 'x' has no displayName; set it on the preference or a preference "
        "it is based on"]


def test_a_preference_missing_what_it_needs_is_left_out_of_the_objects() -> None:
    objects, problems = _expand(catalog(pref("x", display_name=None), pref("y")), PROVIDER)
    assert [o.name for o in objects] == ["y"]
    assert [str(p) for p in problems] == [
        "preferences/linux.yaml:10:3: preference 'x' has no displayName; set it on the preference or a preference "
        "it is based on"]


# --------------------------------------------------------------------------- what the object carries


def test_the_object_is_a_preference_located_where_it_is_defined_and_shaped_by_no_overlay() -> None:
    obj = expand(pref("plain"))["plain"]
    assert (obj.family, obj.name, obj.group, obj.location, obj.shaped_by) == ("preference", "plain", "linux", at(10),
                                                                             ())


def test_memory_that_is_no_quantity_is_reported_at_the_preference() -> None:
    objects, problems = _expand(catalog(pref("m", requirements=Requirements(None, "lots", at(13)))), PROVIDER)
    assert [str(p) for p in problems] == [
        "preferences/linux.yaml:10:3: spec.requirements.memory.guest: 'lots' is not a Kubernetes quantity (expected "
        "a number with an optional suffix Ki, Mi, Gi, Ti, Pi, Ei, m, k, M, G, T, P, E, e.g. 2Gi or 512Mi)"]
    assert objects[0].facts["memory"] is None


def test_the_essential_fields_are_every_path_the_essential_traits_of_family_and_chain_set() -> None:
    family = replace(FAMILY, traits=FAMILY.traits + uses("tpm", line=2))
    base = pref("secure", traits=uses("sev"))
    obj = expand(base, pref("secure.child", based_on="secure", traits=uses("many-cpus", line=9)),
                 family=family)["secure.child"]
    assert obj.facts["essential"] == (
        ("spec", "devices"), ("spec", "devices", "preferredTPM"),
        ("spec", "firmware"), ("spec", "firmware", "preferredUseEfi"),
        ("spec", "launchSecurity"), ("spec", "launchSecurity", "sev"), ("spec", "launchSecurity", "sev", "policy"),
        ("spec", "launchSecurity", "sev", "policy", "secureBoot"))


def test_traits_that_are_not_essential_or_not_known_give_no_essential_fields() -> None:
    chain = [pref("p", traits=uses("many-cpus", "nope"))]
    assert _essential_fields(chain, FAMILY, catalog(*chain)) == ()


def test_paths_list_a_mapping_before_what_is_inside_it_in_written_order() -> None:
    fragment = {"cpu": {"guest": 2}, "devices": {"preferredRng": {}, "preferredDiskBus": "virtio"}, "x": 1}
    assert _paths(fragment, ("spec",)) == [
        ("spec", "cpu"), ("spec", "cpu", "guest"), ("spec", "devices"), ("spec", "devices", "preferredRng"),
        ("spec", "devices", "preferredDiskBus"), ("spec", "x")]


def test_the_overlay_lines_of_the_preference_its_base_and_the_traits_they_use_in_the_order_applied() -> None:
    changes = (
        Change(("trait", "many-cpus"), Location("overlay.yaml", 1)),
        Change(("preference", "child"), Location("overlay.yaml", 2)),
        Change(("trait", "tpm"), Location("overlay.yaml", 3)),  # a trait no preference here uses
        Change(("preference", "other"), Location("overlay.yaml", 4)),
        Change(("trait", "virtio"), Location("overlay.yaml", 5)),  # the family's trait
        Change(("preference", "base"), Location("overlay.yaml", 6)),
        Change(("series", "base"), Location("overlay.yaml", 7)),
        Change(("trait", "many-cpus"), Location("overlay.yaml", 1)),  # the same line twice
    )
    objects = expand(pref("base", traits=uses("many-cpus")), pref("child", based_on="base"), pref("other"),
                     changes=changes)
    assert objects["child"].shaped_by == tuple(Location("overlay.yaml", n) for n in (1, 2, 5, 6))
    assert objects["other"].shaped_by == (Location("overlay.yaml", 4), Location("overlay.yaml", 5))
