"""The KubeVirt releases citgen knows (generator/schemas/releases.py) and what the schemas say per release.

Each minor release has a shipped file, generator/schemas/kubevirt/v1.X.json; ``--kubevirt``
takes v1.8, 1.8 or v1.8.4 for v1.8 and defaults to the newest. generator/schemas judges an
object by one release's schema, and tells of a field a release lacks when it came.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from generator.schemas import check_object, has_field, introduced, shipped_schema
from generator.schemas.releases import (Release, UnknownRelease, known, minor_of, newest, release_data,
                                        resolve)

SHIPPED = Path(__file__).resolve().parent.parent / "generator" / "schemas" / "kubevirt"
API_VERSION = "instancetype.kubevirt.io/v1beta1"
PREFERENCE = "VirtualMachineClusterPreference"
INSTANCETYPE = "VirtualMachineClusterInstancetype"
KNOWN = "v1.0, v1.1, v1.2, v1.3, v1.4, v1.5, v1.6, v1.7, v1.8, v1.9"
SPELLINGS = "(v1.8, 1.8 and v1.8.4 all mean v1.8)"
SOURCE = "pkg/virt-operator/resource/generate/components/validations_generated.go of kubevirt/kubevirt"


def preference(spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": API_VERSION, "kind": PREFERENCE, "metadata": {"name": "fedora"}, "spec": spec}


def instancetype(**spec: Any) -> dict[str, Any]:
    return {"apiVersion": API_VERSION, "kind": INSTANCETYPE, "metadata": {"name": "u1.small"},
            "spec": {"cpu": {"guest": 1}, "memory": {"guest": "2Gi"}, **spec}}


# --------------------------------------------------------------------------- the releases known

def test_citgen_knows_v1_0_to_v1_9_oldest_first():
    assert known() == tuple(Release(1, minor) for minor in range(10))
    assert [str(release) for release in known()] == [f"v1.{minor}" for minor in range(10)]


def test_the_newest_release_is_v1_9():
    assert newest() == Release(1, 9)
    assert newest() == known()[-1]


def test_the_releases_known_are_the_shipped_files():
    assert sorted(f"{release}.json" for release in known()) == sorted(p.name for p in SHIPPED.glob("*.json"))


def test_releases_are_ordered_by_number_not_by_text():
    assert Release(1, 10) > Release(1, 9)
    assert Release(2, 0) > Release(1, 99)
    assert Release(1, 8) < Release(1, 9) <= Release(1, 9)
    assert sorted([Release(1, 10), Release(2, 0), Release(1, 9), Release(1, 2)]) == [
        Release(1, 2), Release(1, 9), Release(1, 10), Release(2, 0)]
    assert str(Release(1, 10)) == "v1.10"


def test_a_release_is_a_value_equal_to_the_same_minor_and_cannot_be_changed():
    assert Release(1, 8) == Release(1, 8) and hash(Release(1, 8)) == hash(Release(1, 8))
    assert len({Release(1, 8), Release(1, 8), Release(1, 9)}) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        Release(1, 8).minor = 9  # type: ignore[misc]


# --------------------------------------------------------------------------- resolve: what --kubevirt takes

@pytest.mark.parametrize(
    "text, release",
    [
        ("v1.8", Release(1, 8)),
        ("1.8", Release(1, 8)),
        ("v1.8.4", Release(1, 8)),
        ("1.8.4", Release(1, 8)),
        ("v1.8.0", Release(1, 8)),
        ("v1.8.99", Release(1, 8)),
        ("v1.0", Release(1, 0)),
        ("v1.9", Release(1, 9)),
        (" v1.8 ", Release(1, 8)),
    ],
)
def test_a_minor_or_patch_release_resolves_to_its_minor(text, release):
    assert resolve(text) == release


def test_no_release_given_resolves_to_the_newest():
    assert resolve(None) == Release(1, 9)


@pytest.mark.parametrize(
    "text, what",
    [
        ("v2.0", "a release citgen has no schemas for"),
        ("v1.10", "a release citgen has no schemas for"),
        ("0.59", "a release citgen has no schemas for"),
        ("latest", "not a KubeVirt release"),
        ("1.8.x", "not a KubeVirt release"),
        ("v1", "not a KubeVirt release"),
        ("", "not a KubeVirt release"),
        ("   ", "not a KubeVirt release"),
        ("V1.8", "not a KubeVirt release"),
        ("v1.8.4.1", "not a KubeVirt release"),
        ("1.8.", "not a KubeVirt release"),
        ("v1.8-rc.1", "not a KubeVirt release"),
        ("v 1.8", "not a KubeVirt release"),
    ],
)
def test_anything_else_is_an_unknown_release_listing_the_known_ones(text, what):
    with pytest.raises(UnknownRelease) as raised:
        resolve(text)
    assert str(raised.value) == f"{text!r} is {what}; expected one of {KNOWN} {SPELLINGS}"


def test_an_unknown_release_shows_at_most_40_characters_of_what_was_given():
    with pytest.raises(UnknownRelease) as raised:
        resolve("x" * 41)
    assert str(raised.value) == f"{'x' * 40!r} is not a KubeVirt release; expected one of {KNOWN} {SPELLINGS}"


@pytest.mark.parametrize("text", ["v1." + "9" * 41, "9" * 5000 + ".8", "v1.8." + "4" * 1_000_000, "v١.٨"],
                         ids=["41 digits", "5,000 digits", "a million digits", "arabic-indic"])
def test_a_release_of_more_than_40_digits_or_other_digits_is_not_read_as_a_number(text):
    with pytest.raises(UnknownRelease) as raised:
        resolve(text)
    assert str(raised.value) == f"{text[:40]!r} is not a KubeVirt release; expected one of {KNOWN} {SPELLINGS}"
    with pytest.raises(ValueError) as raised:
        Release.parse(text)
    assert str(raised.value) == f"{text[:40]!r} is not a release"


def test_a_release_of_40_digits_is_read_and_unknown():
    assert Release.parse("v1." + "0" * 39 + "8") == Release(1, 8)
    with pytest.raises(UnknownRelease, match="is a release citgen has no schemas for"):
        resolve("v1." + "9" * 40)


def test_an_unknown_release_is_a_value_error():
    assert issubclass(UnknownRelease, ValueError)


@pytest.mark.parametrize("text, minor", [("v1.8.4", "v1.8"), ("1.8", "v1.8"), ("v1.10.2", "v1.10"),
                                         ("v2.0.1", "v2.0")])
def test_minor_of_names_the_minor_release_of_a_tag_known_or_not(text, minor):
    assert minor_of(text) == minor


@pytest.mark.parametrize("text", ["latest", "v1", "1.8.x", "", "v1.8.4\n", " v1.8"])
def test_minor_of_something_that_is_no_release_is_a_value_error(text):
    with pytest.raises(ValueError) as raised:
        minor_of(text)
    assert str(raised.value) == f"{text!r} is not a release"


# --------------------------------------------------------------------------- what each release's file records

RECORDED = {
    Release(1, 0): ("v1.0.1", "5e8660a7"),
    Release(1, 1): ("v1.1.1", "689c0e66"),
    Release(1, 2): ("v1.2.2", "1466b658"),
    Release(1, 3): ("v1.3.1", "ed1e7ae8"),
    Release(1, 4): ("v1.4.1", "4ec4e55c"),
    Release(1, 5): ("v1.5.3", "4f27e414"),
    Release(1, 6): ("v1.6.6", "75581da2"),
    Release(1, 7): ("v1.7.4", "2468b19f"),
    Release(1, 8): ("v1.8.4", "dfaa398f"),
    Release(1, 9): ("v1.9.0", "79d34c17"),
}


@pytest.mark.parametrize("release", known(), ids=str)
def test_each_release_records_the_newest_patch_tag_and_commit_it_was_imported_from(release):
    tag, commit = RECORDED[release]
    info = release.info
    assert sorted(info) == ["commit", "kubevirt", "source"]
    assert info["kubevirt"] == tag and minor_of(tag) == str(release)
    assert info["commit"].startswith(commit) and len(info["commit"]) == 40
    assert info["source"] == SOURCE


def test_release_info_of_v1_8_is_exactly_its_tag_commit_and_source():
    assert Release(1, 8).info == {"kubevirt": "v1.8.4", "commit": "dfaa398f086692d19e01be21d83a01036e07815f",
                                  "source": SOURCE}


@pytest.mark.parametrize("release", known(), ids=str)
def test_each_release_file_holds_the_four_kinds(release):
    data = release_data(release)
    assert sorted(data) == ["apiVersion", "commit", "generatedBy", "kinds", "kubevirt", "source"]
    assert list(data["kinds"]) == [INSTANCETYPE, PREFERENCE, "VirtualMachineInstancetype", "VirtualMachinePreference"]
    assert (data["apiVersion"], data["generatedBy"]) == (API_VERSION, "citgen schema import")


def test_release_data_of_a_release_without_a_file_is_an_error():
    with pytest.raises(FileNotFoundError):
        release_data(Release(1, 10))


# --------------------------------------------------------------------------- shipped_schema by release

@pytest.mark.parametrize("release", known(), ids=str)
def test_a_releases_schema_pins_apiVersion_and_kind_and_checks_metadata_as_object_meta(release):
    schema = shipped_schema(PREFERENCE, release)
    assert schema["properties"]["apiVersion"] == {"const": API_VERSION, "type": "string"}
    assert schema["properties"]["kind"] == {"const": PREFERENCE, "type": "string"}
    assert schema["properties"]["metadata"] == {"$ref": "#/$defs/k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta"}
    assert "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta" in schema["$defs"]


def test_no_release_given_is_the_newest_releases_schema():
    assert shipped_schema(PREFERENCE) == shipped_schema(PREFERENCE, Release(1, 9))
    assert shipped_schema(PREFERENCE) != shipped_schema(PREFERENCE, Release(1, 8))


def test_the_virtual_machine_schema_is_the_same_whatever_the_release():
    assert shipped_schema("VirtualMachine", Release(1, 0)) == shipped_schema("VirtualMachine")


def test_a_kind_without_a_schema_is_a_key_error():
    with pytest.raises(KeyError):
        shipped_schema("VirtualMachinePool", Release(1, 8))


# --------------------------------------------------------------------------- has_field and introduced

#: (kind, field path, the first release that has it): from the reference README and the shipped files.
INTRODUCED = [
    (PREFERENCE, ("spec", "annotations"), Release(1, 1)),
    (PREFERENCE, ("spec", "cpu", "spreadOptions"), Release(1, 3)),
    (PREFERENCE, ("spec", "firmware", "preferredEfi"), Release(1, 4)),
    (PREFERENCE, ("spec", "preferredArchitecture"), Release(1, 7)),
    (PREFERENCE, ("spec", "devices", "preferredVideoType"), Release(1, 9)),
    (PREFERENCE, ("spec", "preferredLaunchSecurity"), Release(1, 9)),
    (INSTANCETYPE, ("spec", "annotations"), Release(1, 1)),
    (INSTANCETYPE, ("spec", "nodeSelector"), Release(1, 1)),
    (INSTANCETYPE, ("spec", "cpu", "maxSockets"), Release(1, 3)),
    (INSTANCETYPE, ("spec", "gpus", 0, "claimName"), Release(1, 6)),
    (INSTANCETYPE, ("spec", "cpu", "guest"), Release(1, 0)),
    (INSTANCETYPE, ("spec", "memory", "overcommitPercent"), Release(1, 0)),
]
INTRODUCED_IDS = [f"{kind}-{'.'.join(map(str, path))}" for kind, path, _ in INTRODUCED]


@pytest.mark.parametrize("kind, path, release", INTRODUCED, ids=INTRODUCED_IDS)
def test_introduced_names_the_first_release_with_the_field(kind, path, release):
    assert introduced(kind, path) == release


@pytest.mark.parametrize("kind, path, release", INTRODUCED, ids=INTRODUCED_IDS)
def test_has_field_is_false_before_the_release_a_field_came_in_and_true_from_it_on(kind, path, release):
    assert [has_field(kind, path, r) for r in known()] == [r >= release for r in known()]


def test_introduced_is_none_for_a_field_no_release_has():
    assert introduced(PREFERENCE, ("spec", "noSuchField")) is None
    assert introduced(INSTANCETYPE, ("spec", "cpu", "guest", "deeper")) is None


def test_v1_0_knows_no_max_sockets():
    assert has_field(INSTANCETYPE, ("spec", "cpu", "maxSockets"), Release(1, 0)) is False
    assert "maxSockets" not in shipped_schema(INSTANCETYPE, Release(1, 0))["properties"]["spec"]["properties"]["cpu"][
        "properties"]


def test_has_field_follows_maps_and_object_meta():
    assert has_field(INSTANCETYPE, ("spec", "annotations", "any.key/at-all"), Release(1, 1))
    assert not has_field(INSTANCETYPE, ("spec", "annotations", "any.key/at-all"), Release(1, 0))
    assert has_field(INSTANCETYPE, ("metadata", "labels", "instancetype.kubevirt.io/vendor"), Release(1, 0))
    assert not has_field(INSTANCETYPE, ("metadata", "noSuchField"), Release(1, 0))


# --------------------------------------------------------------------------- check_object by release

@pytest.mark.parametrize("release", known(), ids=str)
def test_preferred_video_type_is_refused_before_v1_9_naming_the_release_and_accepted_from_v1_9(release):
    found = check_object(preference({"devices": {"preferredVideoType": "vga"}}), release=release)
    if release >= Release(1, 9):
        assert found == []
    else:
        assert found == [(("spec", "devices", "preferredVideoType"),
                          f"unknown field 'preferredVideoType': KubeVirt {release} does not have it (it came in v1.9)")]


def test_v1_8_refuses_preferred_video_type_with_the_release_it_came_in():
    assert check_object(preference({"devices": {"preferredVideoType": "vga"}}), release=Release(1, 8)) == [
        (("spec", "devices", "preferredVideoType"),
         "unknown field 'preferredVideoType': KubeVirt v1.8 does not have it (it came in v1.9)")]


def test_v1_9_and_the_default_accept_preferred_video_type():
    assert check_object(preference({"devices": {"preferredVideoType": "vga"}}), release=Release(1, 9)) == []
    assert check_object(preference({"devices": {"preferredVideoType": "vga"}})) == []


@pytest.mark.parametrize("release, found", [
    (Release(1, 0), [(("spec", "cpu", "maxSockets"),
                      "unknown field 'maxSockets': KubeVirt v1.0 does not have it (it came in v1.3)")]),
    (Release(1, 2), [(("spec", "cpu", "maxSockets"),
                      "unknown field 'maxSockets': KubeVirt v1.2 does not have it (it came in v1.3)")]),
    (Release(1, 3), []),
], ids=["v1.0", "v1.2", "v1.3"])
def test_max_sockets_is_refused_until_v1_3(release, found):
    assert check_object(instancetype(cpu={"guest": 1, "maxSockets": 2}), release=release) == found


@pytest.mark.parametrize("release, found", [
    (Release(1, 3), [(("spec", "firmware", "preferredEfi"),
                      "unknown field 'preferredEfi': KubeVirt v1.3 does not have it (it came in v1.4)")]),
    (Release(1, 4), []),
], ids=["v1.3", "v1.4"])
def test_preferred_efi_is_refused_until_v1_4(release, found):
    assert check_object(preference({"firmware": {"preferredEfi": {}}}), release=release) == found


def test_spec_annotations_are_refused_by_v1_0_and_accepted_by_v1_1():
    with_annotations = instancetype(annotations={"a": "b"})
    assert check_object(with_annotations, release=Release(1, 0)) == [
        (("spec", "annotations"), "unknown field 'annotations': KubeVirt v1.0 does not have it (it came in v1.1)")]
    assert check_object(with_annotations, release=Release(1, 1)) == []


@pytest.mark.parametrize("release", [None, Release(1, 9)], ids=["default", "v1.9"])
def test_a_typo_at_the_newest_release_still_gets_did_you_mean(release):
    assert check_object(preference({"devices": {"preferredVideoTyp": "vga"}}), release=release) == [
        (("spec", "devices", "preferredVideoTyp"),
         "unknown field 'preferredVideoTyp'; did you mean 'preferredVideoType'?")]


def test_a_typo_of_a_field_the_release_has_gets_did_you_mean_at_an_older_release_too():
    assert check_object(preference({"preferredArchitectur": "amd64"}), release=Release(1, 7)) == [
        (("spec", "preferredArchitectur"),
         "unknown field 'preferredArchitectur'; did you mean 'preferredArchitecture'?")]


def test_a_typo_of_a_field_of_a_later_release_names_the_field_and_its_release():
    assert check_object(preference({"preferredArchitectur": "amd64"}), release=Release(1, 6)) == [
        (("spec", "preferredArchitectur"),
         "unknown field 'preferredArchitectur'; did you mean 'preferredArchitecture', which came in KubeVirt v1.7?")]


@pytest.mark.parametrize("release", [Release(1, 0), None], ids=["v1.0", "default"])
def test_a_field_no_release_has_is_just_unknown(release):
    assert check_object(preference({"noSuchField": 1}), release=release) == [
        (("spec", "noSuchField"), "unknown field 'noSuchField'")]


def test_a_whole_object_of_an_older_release_names_each_field_it_lacks():
    obj = preference({"preferredArchitecture": "amd64", "devices": {"preferredVideoType": "vga"},
                      "firmware": {"preferredEfi": {}}})
    assert check_object(obj, release=Release(1, 3)) == [
        (("spec", "devices", "preferredVideoType"),
         "unknown field 'preferredVideoType': KubeVirt v1.3 does not have it (it came in v1.9)"),
        (("spec", "firmware", "preferredEfi"),
         "unknown field 'preferredEfi': KubeVirt v1.3 does not have it (it came in v1.4)"),
        (("spec", "preferredArchitecture"),
         "unknown field 'preferredArchitecture': KubeVirt v1.3 does not have it (it came in v1.7)"),
    ]


def test_a_field_inside_a_list_item_names_the_release_it_came_in_too():
    obj = instancetype(gpus=[{"name": "gpu1", "deviceName": "nvidia.com/A400", "claimName": "claim"}])
    assert check_object(obj, release=Release(1, 5)) == [
        (("spec", "gpus", 0, "claimName"),
         "unknown field 'claimName': KubeVirt v1.5 does not have it (it came in v1.6)")]
