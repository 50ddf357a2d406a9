"""load/traits.py called directly: one trait file, a traits folder, a trait list, a spec fragment, a suggestion.

tests/test_load_traits.py checks traits through whole preference builds, where a trait's
description, location and ``essential`` flag are never shown and no trait spec is wrong;
these tests read the model the loader returns and the exact problems it reports.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.load.traits import load_trait, load_traits, spec_problems, suggest, trait_refs
from generator.model import Trait, TraitRef
from generator.problems import Location, Problem
from generator.source.yamlsrc import load_text

SPREAD = "description: Spread.\nspec:\n  cpu:\n    preferredCPUTopology: spread\n"
OUTSIDE = "is a symbolic link to a file outside the catalog directory; citgen reads only files inside the catalog"


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def texts(problems: list[Problem]) -> list[str]:
    return [str(p) for p in problems]


# --------------------------------------------------------------------------- one trait file


def test_a_full_trait_keeps_its_stripped_description_spec_tags_location_and_essential_flag(tmp_path: Path) -> None:
    path = write(tmp_path, "secure.yaml", """\
        description: "  Secure launch.  "
        essential: true
        tags: [secure, s390x]
        spec:
          cpu:
            preferredCPUTopology: spread
        """)
    assert load_trait(path, "preferences/traits/secure.yaml") == (
        Trait("secure", "Secure launch.", {"cpu": {"preferredCPUTopology": "spread"}}, ("secure", "s390x"),
              Location("preferences/traits/secure.yaml", 1, 1), True), [])


def test_a_trait_that_does_not_say_essential_is_not_essential(tmp_path: Path) -> None:
    trait, problems = load_trait(write(tmp_path, "spread.yaml", SPREAD), "t/spread.yaml")
    assert (trait.essential, trait.tags, problems) == (False, (), [])


def test_a_trait_saying_essential_false_is_not_essential(tmp_path: Path) -> None:
    trait, problems = load_trait(write(tmp_path, "spread.yaml", "essential: false\n" + SPREAD), "t/spread.yaml")
    assert (trait.essential, problems) == (False, [])


def test_a_trait_without_description_or_spec_is_still_returned_with_an_empty_description_and_spec(
        tmp_path: Path) -> None:
    trait, problems = load_trait(write(tmp_path, "bare.yaml", "tags: [bare]\n"), "preferences/traits/bare.yaml")
    assert trait == Trait("bare", "", {}, ("bare",), Location("preferences/traits/bare.yaml", 1, 1))
    assert texts(problems) == [
        "preferences/traits/bare.yaml:1:1: a trait needs a one-line description (a non-empty string)",
        "preferences/traits/bare.yaml:1:1: missing required key 'spec'",
    ]


def test_a_trait_file_nothing_of_which_can_be_read_still_gives_the_trait_by_name(tmp_path: Path) -> None:
    path = write(tmp_path, "listed.yaml", "- not\n- a mapping\n")
    assert load_trait(path, "preferences/traits/listed.yaml") == (
        Trait("listed", "", {}, (), Location("preferences/traits/listed.yaml")),
        [Problem(Location("preferences/traits/listed.yaml", 1, 1), "expected a mapping, got a list")])


def test_a_trait_file_name_that_is_no_trait_name_is_reported_at_the_file(tmp_path: Path) -> None:
    trait, problems = load_trait(write(tmp_path, "Big_Disk.yaml", SPREAD), "preferences/traits/Big_Disk.yaml")
    assert problems == [Problem(Location("preferences/traits/Big_Disk.yaml"),
                                "trait name 'Big_Disk' (the file name) must be lower-case letters, digits and dashes")]
    assert (trait.name, trait.description) == ("Big_Disk", "Spread.")


def test_a_bad_name_and_an_unreadable_file_are_both_reported_and_the_trait_is_empty(tmp_path: Path) -> None:
    path = write(tmp_path, "Bad.yaml", "description: [unclosed\n")
    trait, problems = load_trait(path, "preferences/traits/Bad.yaml")
    assert trait == Trait("Bad", "", {}, (), Location("preferences/traits/Bad.yaml"))
    assert [p.message.split(":")[0] for p in problems] == [
        "malformed YAML", "trait name 'Bad' (the file name) must be lower-case letters, digits and dashes"]


def test_a_trait_name_at_the_edges_of_the_pattern(tmp_path: Path) -> None:
    good = [load_trait(write(tmp_path, f"{name}.yaml", SPREAD), name)[1] for name in ("a", "9", "a-9", "ab")]
    assert good == [[], [], [], []]
    bad = {name: texts(load_trait(write(tmp_path, f"{name}.yaml", SPREAD), name)[1])
           for name in ("-a", "a-", "a.b")}
    assert bad == {name: [f"{name}: trait name {name!r} (the file name) must be lower-case letters, digits and dashes"]
                   for name in ("-a", "a-", "a.b")}


def test_a_trait_spec_is_checked_against_kubevirt_where_each_field_is_written(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.yaml", """\
        description: Bad.
        spec:
          devices:
            preferedDiskBus: virtio
            preferredDiskBus: 3
        """)
    trait, problems = load_trait(path, "preferences/traits/bad.yaml")
    assert texts(problems) == [
        "preferences/traits/bad.yaml:4:5: spec.devices.preferedDiskBus: unknown field 'preferedDiskBus'; "
        "did you mean 'preferredDiskBus'?",
        "preferences/traits/bad.yaml:5:23: spec.devices.preferredDiskBus: expected string, got integer 3",
    ]
    assert trait.spec == {"devices": {"preferedDiskBus": "virtio", "preferredDiskBus": 3}}


def test_a_whole_number_in_a_trait_spec_must_be_written_as_one(tmp_path: Path) -> None:
    path = write(tmp_path, "eight.yaml", """\
        description: Eight vCPUs.
        spec:
          requirements:
            cpu:
              guest: 8.0
        """)
    assert texts(load_trait(path, "preferences/traits/eight.yaml")[1]) == [
        "preferences/traits/eight.yaml:5:14: spec.requirements.cpu.guest: expected a whole number, got 8.0"]


def test_a_trait_symlinked_out_of_the_catalog_is_refused_but_known_by_name(tmp_path: Path) -> None:
    outside = write(tmp_path, "outside.yaml", SPREAD)
    catalog = tmp_path / "catalog"
    link = catalog / "preferences" / "traits" / "away.yaml"
    link.parent.mkdir(parents=True)
    link.symlink_to(outside)
    assert load_trait(link, "preferences/traits/away.yaml", within=catalog) == (
        Trait("away", "", {}, (), Location("preferences/traits/away.yaml")),
        [Problem(Location("preferences/traits/away.yaml"), OUTSIDE)])
    assert load_trait(link, "preferences/traits/away.yaml")[0].description == "Spread."


# --------------------------------------------------------------------------- the traits folder


def test_every_trait_of_the_folder_by_name_with_its_problems_in_file_order(tmp_path: Path) -> None:
    folder = tmp_path / "traits"
    write(folder, "spread.yaml", SPREAD)
    write(folder, "broken.yaml", "description: Broken.\nspec: {devices: {preferredDiskBus: 3}}\n")
    write(folder, "notes.txt", "not a trait")
    traits, problems = load_traits(folder)
    assert sorted(traits) == ["broken", "spread"]
    assert traits["spread"].location == Location("preferences/traits/spread.yaml", 1, 1)
    assert texts(problems) == [
        "preferences/traits/broken.yaml:2:36: spec.devices.preferredDiskBus: expected string, got integer 3"]


def test_the_folder_is_named_as_the_caller_displays_it(tmp_path: Path) -> None:
    folder = tmp_path / "traits"
    write(folder, "Odd.yaml", SPREAD)
    traits, problems = load_traits(folder, "overlay/traits")
    assert traits["Odd"].location.file == "overlay/traits/Odd.yaml"
    assert texts(problems) == [
        "overlay/traits/Odd.yaml: trait name 'Odd' (the file name) must be lower-case letters, digits and dashes"]


def test_a_missing_traits_folder_has_no_traits(tmp_path: Path) -> None:
    assert load_traits(tmp_path / "absent") == ({}, [])


def test_a_traits_folder_that_cannot_be_read_is_refused_by_its_display_name(tmp_path: Path) -> None:
    folder = tmp_path / "traits"
    os.symlink(folder, folder)  # a link to itself: stat fails with ELOOP
    with pytest.raises(InputError) as raised:
        load_traits(folder, "preferences/traits")
    assert str(raised.value) == (
        "preferences/traits: is a symbolic link loop: following its links never reaches a file")


def test_the_folder_passes_the_catalog_directory_on_to_each_trait(tmp_path: Path) -> None:
    outside = write(tmp_path, "outside.yaml", SPREAD)
    catalog = tmp_path / "catalog"
    folder = catalog / "preferences" / "traits"
    folder.mkdir(parents=True)
    (folder / "away.yaml").symlink_to(outside)
    traits, problems = load_traits(folder, within=catalog)
    assert traits == {"away": Trait("away", "", {}, (), Location("preferences/traits/away.yaml"))}
    assert texts(problems) == [f"preferences/traits/away.yaml: {OUTSIDE}"]


# --------------------------------------------------------------------------- a spec fragment


def test_a_fragment_is_located_under_the_base_path_it_is_written_at() -> None:
    doc = load_text("preferences:\n  os:\n    spec:\n      devices: {preferredDiskBus: 3, preferedRng: {}}\n",
                    "preferences/os.yaml")
    fragment = doc.data["preferences"]["os"]["spec"]
    assert texts(spec_problems(doc, ("preferences", "os", "spec"), fragment)) == [
        "preferences/os.yaml:4:38: preferences.os.spec.devices.preferedRng: unknown field 'preferedRng'; "
        "did you mean 'preferredRng'?",
        "preferences/os.yaml:4:35: preferences.os.spec.devices.preferredDiskBus: expected string, got integer 3",
    ]


def test_a_valid_fragment_has_no_problems() -> None:
    doc = load_text("spec:\n  devices: {preferredDiskBus: virtio}\n", "t.yaml")
    assert spec_problems(doc, ("spec",), doc.data["spec"]) == []


# --------------------------------------------------------------------------- a trait list


def test_a_trait_list_of_names_and_mappings_with_where_each_entry_is_written() -> None:
    doc = load_text("traits:\n- rng\n- {trait: efi}\n- {trait: sata, override: true}\n"
                    "- {trait: tpm, override: false}\n", "f.yaml")
    assert trait_refs(doc, doc.data["traits"], ("traits",)) == (
        TraitRef("rng", False, Location("f.yaml", 2, 3, ("traits", 0))),
        TraitRef("efi", False, Location("f.yaml", 3, 3, ("traits", 1))),
        TraitRef("sata", True, Location("f.yaml", 4, 3, ("traits", 2))),
        TraitRef("tpm", False, Location("f.yaml", 5, 3, ("traits", 3))),
    )


def test_a_mapping_entry_without_override_does_not_override() -> None:
    doc = load_text("traits: [{trait: efi}]\n", "f.yaml")
    assert trait_refs(doc, doc.data["traits"], ("traits",))[0].override is False


# --------------------------------------------------------------------------- a suggestion


def test_a_suggestion_names_the_closest_known_word() -> None:
    assert suggest("virtio-dsk", ["sata-disk", "virtio-disk", "rng"]) == "; did you mean 'virtio-disk'?"


def test_no_suggestion_when_nothing_is_close() -> None:
    assert suggest("tpm", ["virtio-disk", "sata-disk"]) == ""
