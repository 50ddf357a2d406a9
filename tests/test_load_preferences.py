"""generator/load/preferences.py: family files read into the model, and every problem found reading them.

Each test writes the few files of ``preferences/`` its case needs into tmp_path and
looks at the loaded Family and PreferenceDef values, with the exact places they
were written at, or at the exact problems reported. Composing traits and expanding
preferences into objects is tested in tests/test_load_traits.py and the expand tests.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.load.preferences import load_family, load_preference_catalog, read_preference_catalog
from generator.model import Deprecation, Family, PreferenceDef, Requirements, TraitRef
from generator.problems import Location, sort_problems

RNG = """
    description: A random number generator.
    spec:
      devices:
        preferredRng: {}
    """

LINUX = """
    osType: "  linux "
    iconClass: " icon-linux"
    tags: [os, server]
    traits: [rng, {trait: rng, override: true}]
    requirements: {cpu: 1, memory: 1Gi}
    preferences:
      linux.efi:
        displayName: " Linux with EFI "
        description: |
          Linux, booted
          with EFI.
        basedOn: " linux "
        osType: linux
        iconClass: icon-efi
        tags: [efi]
        traits: [rng]
        requirements:
          cpu: 2
        spec:
          firmware:
            preferredUseEfi: true
        overrideSpec:
          devices:
            preferredDiskBus: virtio
        deprecated: true
      linux:
        description: Linux.
    """

MINIMAL = """
    preferences:
      alpine:
        description: "  Alpine.  "
    """


def write(root: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (paths under ``root``, dedented text) and return ``root``."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return root


def family_file(tmp_path: Path, name: str, text: str) -> tuple[Family | None, list[PreferenceDef], list[str]]:
    """load_family on one file ``preferences/<name>.yaml``, its problems as a user reads them."""
    write(tmp_path, {f"preferences/{name}.yaml": text})
    family, prefs, problems = load_family(tmp_path / "preferences" / f"{name}.yaml", f"preferences/{name}.yaml",
                                          tmp_path)
    return family, prefs, [str(p) for p in problems]


def problems_of(root: Path) -> list[str]:
    return [str(p) for p in sort_problems(read_preference_catalog(root)[1])]


def at(line: int, column: int, *path, file: str = "preferences/linux.yaml") -> Location:
    return Location(file, line, column, tuple(path))


# --------------------------------------------------------------------------- one family file


def test_a_family_files_shared_settings_are_read_with_the_places_they_are_written_at(tmp_path: Path) -> None:
    family, _, problems = family_file(tmp_path, "linux", LINUX)
    assert problems == []
    assert family == Family(
        name="linux",
        os_type="linux",
        icon_class="icon-linux",
        tags=("os", "server"),
        traits=(TraitRef("rng", False, at(4, 10, "traits", 0)), TraitRef("rng", True, at(4, 15, "traits", 1))),
        requirements=Requirements(1, "1Gi", at(5, 15, "requirements")),
        deprecated=False,
        location=at(1, 1),
        os_type_location=at(1, 9, "osType"),
    )


def test_each_preference_is_read_as_written_with_the_text_around_its_words_trimmed(tmp_path: Path) -> None:
    _, prefs, _ = family_file(tmp_path, "linux", LINUX)
    efi = ("preferences", "linux.efi")
    assert prefs[0] == PreferenceDef(
        name="linux.efi",
        family="linux",
        description="Linux, booted\nwith EFI.\n",  # exactly as written: its style decides the line breaks
        location=at(7, 3, *efi),  # the name, where a user looks for it
        based_on="linux",
        based_on_location=at(12, 14, *efi, "basedOn"),
        display_name="Linux with EFI",
        os_type="linux",
        os_type_location=at(13, 13, *efi, "osType"),
        icon_class="icon-efi",
        tags=("efi",),
        traits=(TraitRef("rng", False, at(16, 14, *efi, "traits", 0)),),
        requirements=Requirements(2, None, at(18, 7, *efi, "requirements")),
        spec={"firmware": {"preferredUseEfi": True}},
        spec_location=at(20, 7, *efi, "spec"),
        override_spec={"devices": {"preferredDiskBus": "virtio"}},
        override_spec_location=at(23, 7, *efi, "overrideSpec"),
        deprecated=True,
        deprecation=Deprecation(at(25, 5, *efi, "deprecated")),
    )


def test_the_preferences_of_a_file_are_loaded_in_the_order_written(tmp_path: Path) -> None:
    _, prefs, _ = family_file(tmp_path, "linux", LINUX)
    assert [p.name for p in prefs] == ["linux.efi", "linux"]


def test_what_a_preference_does_not_write_is_left_to_inherit(tmp_path: Path) -> None:
    _, prefs, _ = family_file(tmp_path, "linux", LINUX)
    assert prefs[1] == PreferenceDef(name="linux", family="linux", description="Linux.",
                                     location=at(26, 3, "preferences", "linux"))
    assert prefs[1].requirements == Requirements(None, None, None)
    assert (prefs[1].tags, prefs[1].deprecated, prefs[1].traits) == (None, None, ())


def test_a_family_file_with_only_preferences_sets_nothing_for_them(tmp_path: Path) -> None:
    family, prefs, problems = family_file(tmp_path, "alpine", MINIMAL)
    assert problems == []
    assert family == Family(name="alpine", os_type=None, icon_class=None, tags=None, traits=(),
                            requirements=Requirements(), deprecated=False,
                            location=at(1, 1, file="preferences/alpine.yaml"), os_type_location=None)
    assert prefs == [PreferenceDef(name="alpine", family="alpine", description="  Alpine.  ",
                                   location=at(2, 3, "preferences", "alpine", file="preferences/alpine.yaml"))]


def test_a_deprecated_family_says_so(tmp_path: Path) -> None:
    family, _, _ = family_file(tmp_path, "old", "deprecated: true\n" + textwrap.dedent(MINIMAL).lstrip())
    assert family is not None and family.deprecated is True


def test_requirements_that_leave_a_value_null_leave_it_unset(tmp_path: Path) -> None:
    family, prefs, problems = family_file(tmp_path, "linux", """
        requirements: {cpu: null, memory: 2Gi}
        preferences:
          linux:
            description: Linux.
            requirements: {cpu: 4, memory: null}
        """)
    assert problems == []
    assert family.requirements == Requirements(None, "2Gi", at(1, 15, "requirements"))
    assert prefs[0].requirements == Requirements(4, None, at(5, 19, "preferences", "linux", "requirements"))


# --------------------------------------------------------------------------- what breaks the format


def test_a_tag_that_breaks_the_format_is_reported_and_the_others_kept(tmp_path: Path) -> None:
    family, prefs, problems = family_file(tmp_path, "linux", """
        tags: [os, "a,b", server]
        preferences:
          linux:
            description: Linux.
            tags: ["", efi]
        """)
    assert problems == [
        "preferences/linux.yaml:1:12: tags[1]: expected a non-empty tag without commas, got 'a,b'",
        "preferences/linux.yaml:5:12: preferences.linux.tags[0]: expected a non-empty tag without commas, got ''"]
    assert family.tags == ("os", "server")
    assert prefs[0].tags == ("efi",)


def test_a_spec_fragment_is_checked_against_kubevirts_schema_where_it_is_written(tmp_path: Path) -> None:
    _, prefs, problems = family_file(tmp_path, "linux", """
        preferences:
          linux:
            description: Linux.
            spec:
              devices:
                preferredDiskBus: 3
            overrideSpec:
              cpu:
                guest: 2
        """)
    assert problems == [
        "preferences/linux.yaml:6:27: preferences.linux.spec.devices.preferredDiskBus: expected string, got integer 3",
        "preferences/linux.yaml:9:9: preferences.linux.overrideSpec.cpu.guest: unknown field 'guest'"]
    assert prefs[0].spec == {"devices": {"preferredDiskBus": 3}}
    assert prefs[0].override_spec == {"cpu": {"guest": 2}}


def test_a_preference_without_a_description_is_reported_and_still_loaded(tmp_path: Path) -> None:
    _, prefs, problems = family_file(tmp_path, "linux", """
        preferences:
          linux:
            displayName: Linux
        """)
    assert problems == ["preferences/linux.yaml:2:3: preferences.linux: missing required key 'description'"]
    assert [(p.name, p.description, p.display_name) for p in prefs] == [("linux", "", "Linux")]


def test_a_family_file_without_preferences_is_reported_and_loads_none(tmp_path: Path) -> None:
    family, prefs, problems = family_file(tmp_path, "linux", "osType: linux\n")
    assert problems == ["preferences/linux.yaml:1:1: missing required key 'preferences'"]
    assert family is not None and family.os_type == "linux"
    assert prefs == []


def test_a_family_file_that_is_no_mapping_loads_nothing(tmp_path: Path) -> None:
    assert family_file(tmp_path, "linux", "- a\n- b\n") == (
        None, [], ["preferences/linux.yaml:1:1: expected a mapping, got a list"])


def test_a_family_file_that_is_no_yaml_loads_nothing(tmp_path: Path) -> None:
    assert family_file(tmp_path, "linux", "preferences: [\n") == (
        None, [], ["preferences/linux.yaml:2:1: malformed YAML: did not find expected node content "
                   "(while parsing a flow node)"])


@pytest.mark.parametrize("name", ["a", "9", "windows-2k22", "a" * 63, "0" + "-" * 61 + "z"])
def test_a_family_name_of_lower_case_letters_digits_and_dashes_up_to_63_characters(tmp_path: Path, name: str) -> None:
    family, prefs, problems = family_file(tmp_path, name, MINIMAL)
    assert problems == []
    assert family is not None and family.name == name
    assert [p.family for p in prefs] == [name]


@pytest.mark.parametrize("name", ["Fedora", "a" * 64, "-linux", "linux-", "win_10", "os.linux"])
def test_any_other_family_name_is_refused_before_the_file_is_read(tmp_path: Path, name: str) -> None:
    assert family_file(tmp_path, name, "not: [yaml\n") == (None, [], [
        f"preferences/{name}.yaml: family name {name!r} (the file name) must be lower-case letters, digits and "
        "dashes, at most 63; it names a group of the outputs"])


def test_a_family_file_linked_from_outside_the_catalog_is_refused(tmp_path: Path) -> None:
    write(tmp_path, {"elsewhere/linux.yaml": MINIMAL, "catalog/preferences/README": ""})
    link = tmp_path / "catalog" / "preferences" / "linux.yaml"
    link.symlink_to(tmp_path / "elsewhere" / "linux.yaml")
    family, prefs, problems = load_family(link, "preferences/linux.yaml", tmp_path / "catalog")
    assert (family, prefs, [str(p) for p in problems]) == (None, [], [
        "preferences/linux.yaml: is a symbolic link to a file outside the catalog directory; citgen reads only "
        "files inside the catalog"])


# --------------------------------------------------------------------------- the whole preferences/ folder


def test_a_catalog_reads_its_traits_families_and_preferences_sorted_by_name(tmp_path: Path) -> None:
    root = write(tmp_path, {"preferences/traits/rng.yaml": RNG, "preferences/linux.yaml": LINUX,
                            "preferences/alpine.yaml": MINIMAL})
    catalog, problems = read_preference_catalog(root)
    assert problems == []
    assert list(catalog.traits) == ["rng"]
    assert catalog.traits["rng"].spec == {"devices": {"preferredRng": {}}}
    assert list(catalog.families) == ["alpine", "linux"]
    assert catalog.families["linux"].os_type == "linux"
    assert list(catalog.preferences) == ["alpine", "linux", "linux.efi"]
    assert catalog.preferences["linux.efi"].family == "linux"
    assert catalog.changes == ()


def test_a_catalog_without_preferences_has_none(tmp_path: Path) -> None:
    catalog, problems = read_preference_catalog(tmp_path)
    assert (catalog.traits, catalog.families, catalog.preferences, problems) == ({}, {}, {}, [])


def test_only_yaml_files_are_family_files(tmp_path: Path) -> None:
    root = write(tmp_path, {"preferences/alpine.yaml": MINIMAL, "preferences/linux.yml": LINUX,
                            "preferences/README.md": "# Preferences\n"})
    catalog, problems = read_preference_catalog(root)
    assert (list(catalog.families), list(catalog.preferences), problems) == (["alpine"], ["alpine"], [])


def test_a_preference_defined_twice_is_reported_where_the_second_is_and_the_first_kept(tmp_path: Path) -> None:
    """The rest of the second file still loads: here ``linux``, written after the duplicate."""
    root = write(tmp_path, {"preferences/alpine.yaml": MINIMAL, "preferences/linux.yaml": """
        preferences:
          alpine:
            description: Again.
          linux:
            description: Linux.
        """})
    catalog, problems = read_preference_catalog(root)
    assert [str(p) for p in problems] == [
        "preferences/linux.yaml:2:3: preferences.alpine: preference 'alpine' is already defined at "
        "preferences/alpine.yaml:2"]
    assert catalog.preferences["alpine"].description == "  Alpine.  "
    assert list(catalog.preferences) == ["alpine", "linux"]


def test_a_family_file_that_loads_nothing_is_reported_and_the_others_still_load(tmp_path: Path) -> None:
    """``Bad.yaml`` and ``a.yaml`` sort before the good file."""
    root = write(tmp_path, {"preferences/Bad.yaml": MINIMAL, "preferences/a.yaml": "- a\n",
                            "preferences/linux.yaml": LINUX, "preferences/traits/rng.yaml": RNG})
    catalog, _ = read_preference_catalog(root)
    assert problems_of(root) == [
        "preferences/Bad.yaml: family name 'Bad' (the file name) must be lower-case letters, digits and dashes, "
        "at most 63; it names a group of the outputs",
        "preferences/a.yaml:1:1: expected a mapping, got a list"]
    assert list(catalog.families) == ["linux"]
    assert list(catalog.preferences) == ["linux", "linux.efi"]


def test_the_problems_of_traits_and_of_every_family_are_all_reported(tmp_path: Path) -> None:
    root = write(tmp_path, {
        "preferences/traits/rng.yaml": "spec: {devices: {preferredRng: {}}}\n",
        "preferences/linux.yaml": "osType: linux\n",
        "preferences/alpine.yaml": "preferences:\n  alpine: {}\n",
    })
    assert problems_of(root) == [
        "preferences/alpine.yaml:2:3: preferences.alpine: missing required key 'description'",
        "preferences/linux.yaml:1:1: missing required key 'preferences'",
        "preferences/traits/rng.yaml:1:1: a trait needs a one-line description (a non-empty string)"]


def test_files_linked_from_outside_the_catalog_are_refused(tmp_path: Path) -> None:
    write(tmp_path, {"elsewhere/rng.yaml": RNG, "elsewhere/linux.yaml": MINIMAL, "catalog/preferences/traits/x": ""})
    root = tmp_path / "catalog"
    (root / "preferences" / "linux.yaml").symlink_to(tmp_path / "elsewhere" / "linux.yaml")
    (root / "preferences" / "traits" / "rng.yaml").symlink_to(tmp_path / "elsewhere" / "rng.yaml")
    catalog, _ = read_preference_catalog(root)
    assert problems_of(root) == [
        "preferences/linux.yaml: is a symbolic link to a file outside the catalog directory; citgen reads only "
        "files inside the catalog",
        "preferences/traits/rng.yaml: is a symbolic link to a file outside the catalog directory; citgen reads only "
        "files inside the catalog"]
    assert catalog.families == {}


def test_a_preferences_folder_that_cannot_be_read_is_refused_by_its_name(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """As the folder reads to a user without read permission on it (the tests may run as root, whom no
    permission bit stops, so os.access answers as it would for that user)."""
    root = write(tmp_path, {"preferences/alpine.yaml": MINIMAL, "preferences/traits/rng.yaml": RNG})
    access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: Path(path) != root / "preferences" and access(path, mode))
    with pytest.raises(InputError) as caught:
        read_preference_catalog(root)
    assert [str(p) for p in caught.value.problems] == [
        "preferences: cannot read the folder: permission denied; citgen reads all of a catalog folder or refuses "
        "it, so that no file of it is left out unnoticed"]


def test_load_preference_catalog_returns_the_catalog_read_without_problems(tmp_path: Path) -> None:
    root = write(tmp_path, {"preferences/traits/rng.yaml": RNG, "preferences/linux.yaml": LINUX})
    catalog = load_preference_catalog(root)
    assert catalog == read_preference_catalog(root)[0]
    assert list(catalog.preferences) == ["linux", "linux.efi"]


def test_load_preference_catalog_raises_every_problem_in_one_input_error(tmp_path: Path) -> None:
    root = write(tmp_path, {"preferences/Bad.yaml": MINIMAL, "preferences/linux.yaml": "osType: linux\n"})
    with pytest.raises(InputError) as caught:
        load_preference_catalog(root)
    assert [str(p) for p in caught.value.problems] == problems_of(root)
    assert len(caught.value.problems) == 2
