"""expand/preferences.py on its own: a preference from its basedOn chain, its family and its traits."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from generator.errors import InputError
from generator.expand.preferences import expand_preferences
from generator.model import Family, PreferenceCatalog, PreferenceDef, Requirements, Trait, TraitRef
from generator.problems import Location

P = "instancetype.kubevirt.io/"
PROVIDER = {"displayName": "KubeVirt", "documentationURL": "https://d", "supportURL": "https://s"}
FILE = "preferences/linux.yaml"


def at(line: int, file: str = FILE) -> Location:
    return Location(file, line, 3)


TRAITS = {
    "virtio": Trait("virtio", "x", {"devices": {"preferredDiskBus": "virtio"}}, ("virtio",), at(1, "t/virtio.yaml")),
    "efi": Trait("efi", "x", {"firmware": {"preferredUseEfi": True}}, ("efi", "virtio"), at(1, "t/efi.yaml")),
    "sata": Trait("sata", "x", {"devices": {"preferredDiskBus": "sata"}}, (), at(1, "t/sata.yaml")),
}
FAMILY = Family(name="linux", os_type="linux", icon_class="icon-linux", tags=("hidden",),
                traits=(TraitRef("virtio", False, at(2)),), requirements=Requirements(1, "1Gi", at(3)),
                deprecated=False, location=at(1))


def pref(name: str, **fields: Any) -> PreferenceDef:
    fields.setdefault("display_name", name.title())
    return PreferenceDef(name=name, family="linux", description=f"{name} guests", location=at(10), **fields)


def expand(*prefs: PreferenceDef, family: Family = FAMILY, traits: dict = TRAITS, provider: dict = PROVIDER):
    catalog = PreferenceCatalog(traits=traits, families={family.name: family}, preferences={p.name: p for p in prefs})
    return {o.name: o for o in expand_preferences(catalog, provider=provider)}


def refusal(*prefs: PreferenceDef, **options: Any) -> list[str]:
    with pytest.raises(InputError) as raised:
        expand(*prefs, **options)
    return [str(p) for p in raised.value.problems]


def short(labels: dict) -> dict:
    return {k[len(P):]: v for k, v in labels.items()}


def test_a_preference_of_its_family_and_traits() -> None:
    obj = expand(pref("fedora"))["fedora"]
    assert obj.group == "linux"
    assert obj.spec == {"annotations": {"vm.kubevirt.io/os": "linux"}, "devices": {"preferredDiskBus": "virtio"},
                        "requirements": {"cpu": {"guest": 1}, "memory": {"guest": "1Gi"}}}
    assert short(obj.labels) == {"os-type": "linux", "required-cpu": "1", "required-memory": "1Gi"}
    assert obj.annotations == {
        "iconClass": "icon-linux", "instancetype.kubevirt.io/description": "fedora guests",
        "openshift.io/display-name": "Fedora", "openshift.io/documentation-url": "https://d",
        "openshift.io/provider-display-name": "KubeVirt", "openshift.io/support-url": "https://s",
        "tags": "hidden,virtio"}
    assert obj.facts == {"displayName": "Fedora", "cpu": 1, "memory": 1024 ** 3, "architecture": None,
                         "osType": "linux", "essential": ()}


def test_based_on_inherits_what_the_child_leaves_unset_and_layers_root_first() -> None:
    base = pref("rhel", os_type="rhel", icon_class="icon-rhel", tags=("rhel",), spec={"clock": {"x": 1}},
                requirements=Requirements(2, "2Gi", at(11)), traits=(TraitRef("efi", False, at(12)),))
    child = pref("rhel.9", display_name=None, based_on="rhel", requirements=Requirements(None, "4Gi", at(13)),
                 spec={"clock": {"y": 2}})
    obj = expand(base, child)["rhel.9"]
    assert obj.annotations["openshift.io/display-name"] == "Rhel"
    assert obj.annotations["iconClass"] == "icon-rhel"
    assert obj.annotations["tags"] == "rhel,virtio,efi"
    assert obj.spec["requirements"] == {"cpu": {"guest": 2}, "memory": {"guest": "4Gi"}}
    assert obj.spec["clock"] == {"x": 1, "y": 2}
    assert obj.spec["annotations"] == {"vm.kubevirt.io/os": "rhel"}
    assert obj.spec["firmware"] == {"preferredUseEfi": True}


def test_the_childs_own_values_win_over_its_base() -> None:
    base = pref("win", os_type="windows", icon_class="icon-win")
    child = pref("win.11", based_on="win", os_type="windows11", icon_class="icon-11", display_name="Windows 11")
    obj = expand(base, child)["win.11"]
    assert (obj.annotations["iconClass"], obj.annotations["openshift.io/display-name"]) == ("icon-11", "Windows 11")
    assert obj.labels[P + "os-type"] == "windows11"


def test_based_on_a_name_that_is_not_in_the_file() -> None:
    assert refusal(pref("rhel"), pref("rhel.9", based_on="rhell", based_on_location=at(20))) == [
        "preferences/linux.yaml:20:3: basedOn names 'rhell', which is not a preference of this file; "
        "did you mean 'rhel'?"]


def test_based_on_a_preference_of_another_family() -> None:
    other = replace(pref("win"), family="windows")
    windows = replace(FAMILY, name="windows")
    catalog = PreferenceCatalog(TRAITS, {"linux": FAMILY, "windows": windows},
                                {"win": other, "x": pref("x", based_on="win", based_on_location=at(21))})
    with pytest.raises(InputError) as raised:
        expand_preferences(catalog, provider=PROVIDER)
    assert [str(p) for p in raised.value.problems] == [
        "preferences/linux.yaml:21:3: basedOn names 'win', which is not a preference of this file"]


def test_based_on_in_a_circle() -> None:
    assert refusal(pref("a", based_on="c", based_on_location=at(1)), pref("b", based_on="a", based_on_location=at(2)),
                   pref("c", based_on="b", based_on_location=at(3))) == [
        "preferences/linux.yaml:1:3: basedOn goes round in a circle: a -> c -> b -> a",
        "preferences/linux.yaml:2:3: basedOn goes round in a circle: b -> a -> c -> b",
        "preferences/linux.yaml:3:3: basedOn goes round in a circle: c -> b -> a -> c"]


def test_what_no_one_in_the_chain_sets() -> None:
    bare = replace(FAMILY, os_type=None, icon_class=None)
    assert refusal(pref("x", display_name=None), family=bare) == [
        "preferences/linux.yaml:10:3: preference 'x' has no displayName; set it on the preference or a preference "
        "it is based on",
        "preferences/linux.yaml:10:3: preference 'x' has no iconClass; set it on the preference, a preference it is "
        "based on, or the family",
        "preferences/linux.yaml:10:3: preference 'x' has no osType; set it on the preference, a preference it is "
        "based on, or the family"]


def test_architecture_labels_and_which_one_arch_is() -> None:
    both = expand(pref("a", spec={"preferredArchitecture": "arm64", "requirements": {"architecture": "s390x"}}))["a"]
    assert short(both.labels)["arch"] == "arm64"
    assert short(both.labels)["preferred-architecture"] == "arm64"
    assert short(both.labels)["required-architecture"] == "s390x"
    required = expand(pref("r", spec={"requirements": {"architecture": "s390x"}}))["r"]
    assert short(required.labels)["arch"] == "s390x"
    assert "preferred-architecture" not in short(required.labels)
    assert required.facts["architecture"] == "s390x"


def test_deprecated_comes_from_the_preference_or_else_its_family() -> None:
    old = replace(FAMILY, deprecated=True)
    objects = expand(pref("a"), pref("b", deprecated=False), family=old)
    assert objects["a"].labels[P + "deprecated"] == "true"
    assert P + "deprecated" not in objects["b"].labels
    assert expand(pref("c", deprecated=True))["c"].labels[P + "deprecated"] == "true"


def test_a_family_without_requirements_gives_no_requirement_labels() -> None:
    bare = replace(FAMILY, requirements=Requirements())
    obj = expand(pref("x"), family=bare)["x"]
    assert "requirements" not in obj.spec
    assert short(obj.labels) == {"os-type": "linux"}
    assert obj.facts["memory"] is None


def test_a_trait_conflicting_with_the_spec_is_located() -> None:
    assert refusal(pref("x", spec={"devices": {"preferredDiskBus": "sata"}}, spec_location=at(30))) == [
        "preferences/linux.yaml:30:3: the spec of 'x' sets devices.preferredDiskBus to 'sata', but trait 'virtio' "
        "(listed at preferences/linux.yaml:2) already set devices.preferredDiskBus to 'virtio'; move it under "
        "overrideSpec if it is meant to replace that value"]
    obj = expand(pref("x", override_spec={"devices": {"preferredDiskBus": "sata"}}))["x"]
    assert obj.spec["devices"] == {"preferredDiskBus": "sata"}


def test_a_label_value_the_api_server_refuses() -> None:
    assert refusal(pref("x", os_type="Linux 9")) == [
        "preferences/linux.yaml:10:3: label instancetype.kubevirt.io/os-type: 'Linux 9' is not a valid label value: "
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
        "start and end with an alphanumeric character"]


def test_every_provider_field_is_needed() -> None:
    assert refusal(pref("x"), provider={"displayName": "", "supportURL": "https://s"}) == [
        "catalog.yaml: provider.displayName: provider.displayName must be a non-empty string (it is an annotation "
        "of every preference)",
        "catalog.yaml: provider.documentationURL: provider.documentationURL must be a non-empty string (it is an "
        "annotation of every preference)"]


def test_preferences_come_out_sorted_by_name() -> None:
    assert list(expand(pref("b"), pref("a"), pref("c"))) == ["a", "b", "c"]
