"""generator/source/formats/preferences.py: the formats of the preference family files and the trait files.

The module is data (JSON Schemas); each test writes a family or trait file and reads what
the one explainer (source/inputcheck.py) says about it: nothing for a file the format
accepts, and for each kind of mistake the exact message at its line and column, in the
words these files were refused with before they had a schema where the format keeps
them (``x-message``, ``x-in``, ``x-required``).
"""

from __future__ import annotations

import textwrap
from typing import Any, Mapping

import pytest

from generator.source.formats.preferences import FAMILY, FAMILY_NAME, PREFERENCE_NAME, TRAIT, TRAIT_NAME
from generator.source.inputcheck import checked, schema_problems
from generator.source.yamlsrc import load_text


def problems(schema: Mapping[str, Any], text: str, file: str = "f.yaml") -> list[str]:
    """What the explainer says about ``text`` (dedented) read as ``file`` against ``schema``."""
    document = load_text(textwrap.dedent(text).lstrip("\n"), file)
    return [str(p) for p in schema_problems(document, schema)]


def family(text: str) -> list[str]:
    return problems(FAMILY, text, "preferences/fedora.yaml")


def trait(text: str) -> list[str]:
    return problems(TRAIT, text, "preferences/traits/rng.yaml")


DESCRIPTION_WORDS = ("expected text that is not blank, at most 65536 characters (it becomes an annotation of each "
                     "object, and an object's annotations hold 256 KiB at most)")
TRAIT_REF_WORDS = "expected a trait name, or a mapping {trait: NAME, override: true}"
PREFERENCE_KEYS = ("basedOn, deprecated, description, displayName, iconClass, osType, osinfo, overrideSpec, "
                   "requirements, spec, tags, traits")
FAMILY_KEYS = "deprecated, iconClass, osType, osinfo, preferences, requirements, tags, traits"
F = "preferences/fedora.yaml"


# --------------------------------------------------------------------------- family files


def test_a_family_with_one_preference_that_has_a_description_is_accepted():
    assert family("preferences: {fedora: {description: Fedora Linux.}}\n") == []


def test_a_family_and_a_preference_with_every_key_are_accepted():
    assert family("""
        osType: linux
        iconClass: icon-fedora
        tags: [linux, rpm]
        traits: [efi, {trait: rng, override: true}, {trait: tpm}]
        requirements: {cpu: 1, memory: 2Gi}
        deprecated: false
        preferences:
          fedora.gpu:
            displayName: Fedora
            description: Fedora Linux.
            basedOn: fedora
            osType: linux
            iconClass: icon
            tags: [a]
            traits: [x]
            requirements: {cpu: null, memory: null}
            spec: {devices: {}}
            overrideSpec: {}
            deprecated: true
        """) == []


def test_a_family_without_preferences_is_refused_with_the_key_named():
    assert family("osType: linux\n") == [f"{F}:1:1: missing required key 'preferences'"]


def test_a_family_with_no_preference_in_it_is_refused():
    assert family("preferences: {}\n") == [f"{F}:1:14: preferences: expected at least one entry, got an empty mapping"]


def test_a_preference_without_a_description_is_refused_at_its_name():
    assert family("preferences:\n  fedora:\n    displayName: Fedora\n") == [
        f"{F}:2:3: preferences.fedora: missing required key 'description'"]


def test_a_misspelt_family_key_is_named_in_a_family_file_with_the_closest_key():
    assert family("prefs: {}\npreferences: {a: {description: d}}\n") == [
        f"{F}:1:1: prefs: unknown key 'prefs' in a family file; did you mean 'preferences'?"]


def test_an_unknown_family_key_like_no_other_lists_every_known_one():
    assert family("xyzzy: {}\npreferences: {a: {description: d}}\n") == [
        f"{F}:1:1: xyzzy: unknown key 'xyzzy' in a family file; expected one of: {FAMILY_KEYS}"]


def test_a_misspelt_preference_key_is_named_in_the_preference_by_its_name():
    assert family("preferences: {fedora: {description: d, iconclass: x}}\n") == [
        f"{F}:1:40: preferences.fedora.iconclass: unknown key 'iconclass' in preference 'fedora'; "
        "did you mean 'iconClass'?"]
    assert family("preferences: {fedora: {description: d, zzz: 1}}\n") == [
        f"{F}:1:40: preferences.fedora.zzz: unknown key 'zzz' in preference 'fedora'; expected one of: "
        f"{PREFERENCE_KEYS}"]


@pytest.mark.parametrize("name", ["Fedora", "fedora_gpu", "-fedora", "fedora-", "fedora..gpu"])
def test_a_preference_name_that_is_no_dns_subdomain_is_refused_at_the_name(name: str):
    assert family(f"preferences: {{{name}: {{description: d}}}}\n") == [
        f"{F}:1:15: preferences.{name}: preference name {name!r} must be lower-case letters, digits, dashes and dots, "
        "starting and ending with a letter or digit"]


def test_a_preference_name_of_253_characters_is_accepted_and_of_254_refused_with_its_length():
    assert family(f"preferences: {{{'a' * 253}: {{description: d}}}}\n") == []
    found = family(f"preferences: {{{'a' * 254}: {{description: d}}}}\n")
    assert found == [f"{F}:1:15: preferences.{'a' * 254}: preference name is 254 characters long; "
                     "Kubernetes allows at most 253"]


@pytest.mark.parametrize("key", ["osType", "iconClass"])
def test_an_os_type_or_icon_class_must_be_text_that_is_not_blank(key: str):
    assert family(f"{key}: ' '\npreferences: {{a: {{description: d, {key}: 5}}}}\n") == [
        f"{F}:1:{len(key) + 3}: {key}: {key} must be a non-empty string, got ' '",
        f"{F}:2:{37 + len(key)}: preferences.a.{key}: {key} must be a non-empty string, got a number",
    ]


def test_a_display_name_or_based_on_must_be_text_that_is_not_blank():
    assert family("preferences: {a: {description: d, displayName: '', basedOn: null}}\n") == [
        f"{F}:1:48: preferences.a.displayName: displayName must be a non-empty string, got ''",
        f"{F}:1:61: preferences.a.basedOn: basedOn must be a non-empty string, got nothing (null)",
    ]


def test_deprecated_must_be_true_false_or_a_deprecation_in_the_family_and_the_preference():
    assert family("deprecated: yes\npreferences: {a: {description: d, deprecated: 1}}\n") == [
        f"{F}:2:47: preferences.a.deprecated: deprecated must be true, false or a mapping with since and "
        "replacement, got a number"]
    assert family("deprecated: 0\npreferences: {a: {description: d}}\n") == [
        f"{F}:1:13: deprecated: deprecated must be true, false or a mapping with since, got a number"]


def test_tags_are_a_list_of_strings_each_without_commas():
    assert family("tags: rpm\npreferences: {a: {description: d, tags: [a, 'b,c', '']}}\n") == [
        f"{F}:1:7: tags: expected a list of strings, got a string",
        f"{F}:2:45: preferences.a.tags[1]: expected a non-empty tag without commas, got 'b,c'",
        f"{F}:2:52: preferences.a.tags[2]: expected a non-empty tag without commas, got ''",
    ]


def test_a_trait_entry_is_a_name_or_a_mapping_with_the_trait_and_whether_it_overrides():
    assert family("traits: ['', {trait: ''}, {override: true}, {trait: x, override: 1}, {trait: x, extra: 1}, 5]\n"
                  "preferences: {a: {description: d}}\n") == [
        f"{F}:1:10: traits[0]: {TRAIT_REF_WORDS}, got ''",
        f"{F}:1:22: traits[1].trait: expected a non-empty string, got ''",
        f"{F}:1:27: traits[2]: missing required key 'trait'",
        f"{F}:1:66: traits[3].override: expected true or false, got 1",
        f"{F}:1:81: traits[4].extra: unknown key 'extra' in a trait entry; did you mean 'trait'?",
        f"{F}:1:92: traits[5]: {TRAIT_REF_WORDS}, got 5",
    ]


def test_traits_written_as_one_name_rather_than_a_list_are_refused():
    assert family("traits: rng\npreferences: {a: {description: d}}\n") == [
        f"{F}:1:9: traits: expected a list, got 'rng'"]


def test_requirements_are_a_vcpu_count_of_1_or_more_and_a_memory_quantity_greater_than_zero():
    assert family("requirements: {cpu: 0, memory: 0Gi, disk: 1}\n"
                  "preferences: {a: {description: d, requirements: {cpu: 1.5, memory: 4GB}}}\n") == [
        f"{F}:1:21: requirements.cpu: expected a whole number of vCPUs (1 or more), got 0",
        f"{F}:1:32: requirements.memory: memory: expected a memory quantity greater than zero, got '0Gi'",
        f"{F}:1:37: requirements.disk: unknown key 'disk'; expected one of: cpu, memory",
        f"{F}:2:55: preferences.a.requirements.cpu: expected a whole number of vCPUs (1 or more), got 1.5",
        f"{F}:2:68: preferences.a.requirements.memory: memory: '4GB' is not a Kubernetes quantity (expected a number "
        "with an optional suffix Ki, Mi, Gi, Ti, Pi, Ei, m, k, M, G, T, P, E, e.g. 2Gi or 512Mi)",
    ]


def test_null_requirements_leave_the_values_unset_and_others_of_the_wrong_type_are_refused():
    assert family("requirements: {cpu: null, memory: null}\npreferences: {a: {description: d}}\n") == []
    assert family("requirements: {cpu: '1', memory: 2}\npreferences: {a: {description: d}}\n") == [
        f"{F}:1:21: requirements.cpu: expected a whole number of vCPUs (1 or more), got '1'",
        f"{F}:1:34: requirements.memory: memory: expected a string or nothing (null), got 2",
    ]


def test_spec_and_override_spec_are_mappings():
    assert family("preferences: {a: {description: d, spec: 1, overrideSpec: []}}\n") == [
        f"{F}:1:41: preferences.a.spec: expected a mapping, got 1",
        f"{F}:1:58: preferences.a.overrideSpec: expected a mapping, got a list",
    ]


def test_a_description_is_not_blank():
    assert family("preferences: {a: {description: '  '}}\n") == [
        f"{F}:1:32: preferences.a.description: {DESCRIPTION_WORDS}, got '  '"]


def test_a_family_file_is_read_on_without_what_breaks_its_format():
    document = load_text("osType: linux\niconclass: x\npreferences:\n  a: {description: d, displayName: ''}\n"
                         "  B: {description: e}\n", F)
    kept, found = checked(document, FAMILY)
    assert kept is not None
    assert kept.data == {"osType": "linux", "preferences": {"a": {"description": "d"}}}
    assert sorted(str(p) for p in found) == [
        f"{F}:2:1: iconclass: unknown key 'iconclass' in a family file; did you mean 'iconClass'?",
        f"{F}:4:36: preferences.a.displayName: displayName must be a non-empty string, got ''",
        f"{F}:5:3: preferences.B: preference name 'B' must be lower-case letters, digits, dashes and dots, "
        "starting and ending with a letter or digit",
    ]


# --------------------------------------------------------------------------- the names


@pytest.mark.parametrize("name, fits", [
    ("fedora", True), ("fedora.gpu", True), ("a", True), ("rhel-9.x86-64", True), ("0", True),
    ("Fedora", False), ("fedora.", False), (".fedora", False), ("a..b", False), ("a.-b", False), ("", False),
])
def test_a_preference_name_is_a_dns_subdomain(name: str, fits: bool):
    assert problems(PREFERENCE_NAME, f"'{name}'\n") == ([] if fits else [
        "f.yaml:1:1: expected a preference name of lower-case letters, digits, '-' and '.' such as fedora.gpu, "
        f"got '{name}'"])


@pytest.mark.parametrize("name, fits", [
    ("rng", True), ("efi-secureboot", True), ("a", True), ("9p", True),
    ("Rng", False), ("-rng", False), ("rng-", False), ("efi.secure", False), ("", False),
])
def test_a_trait_name_is_lowercase_letters_digits_and_inner_dashes(name: str, fits: bool):
    assert problems(TRAIT_NAME, f"'{name}'\n") == ([] if fits else [
        "f.yaml:1:1: expected a trait name of lower-case letters, digits and '-' such as efi-secureboot, "
        f"got '{name}'"])


def test_a_family_name_has_at_most_63_characters_alphanumeric_at_both_ends():
    schema = {"type": "string", "pattern": FAMILY_NAME}
    for name in ("fedora", "a", "rhel-9", "a" * 63):
        assert problems(schema, f"'{name}'\n") == [], name
    for name in ("a" * 64, "Fedora", "-fedora", "fedora-", "fedora.gpu"):
        assert problems(schema, f"'{name}'\n") == [f"f.yaml:1:1: '{name}' does not match '{FAMILY_NAME}'"], name


# --------------------------------------------------------------------------- trait files


def test_a_trait_with_a_description_and_a_spec_is_accepted():
    assert trait("description: A random number generator.\nspec: {devices: {preferredRng: {}}}\n") == []
    assert trait("description: d\nspec: {a: 1}\ntags: [x, y]\nessential: true\n") == []


def test_a_trait_without_a_description_is_refused_in_its_own_words():
    assert trait("spec: {a: 1}\n") == ["preferences/traits/rng.yaml:1:1: a trait needs a one-line description "
                                       "(a non-empty string)"]


def test_a_trait_without_a_spec_is_refused_with_the_key_named():
    assert trait("description: d\n") == ["preferences/traits/rng.yaml:1:1: missing required key 'spec'"]


def test_an_empty_trait_file_is_refused_for_both_keys():
    assert trait("{}\n") == [
        "preferences/traits/rng.yaml:1:1: a trait needs a one-line description (a non-empty string)",
        "preferences/traits/rng.yaml:1:1: missing required key 'spec'",
    ]


def test_each_value_of_a_trait_has_its_own_message():
    assert trait("description: ''\nspec: {}\nessential: 1\ntags: x\n") == [
        f"preferences/traits/rng.yaml:1:14: description: {DESCRIPTION_WORDS}, got ''",
        "preferences/traits/rng.yaml:2:7: spec: expected at least one entry, got an empty mapping",
        "preferences/traits/rng.yaml:4:7: tags: expected a list of strings, got a string",
        "preferences/traits/rng.yaml:3:12: essential: expected true or false: whether the trait's fields are what a "
        "preference using it is for, got 1",
    ]


def test_a_misspelt_trait_key_is_named_in_a_trait():
    assert trait("description: d\nspec: {a: 1}\nspecs: 1\n") == [
        "preferences/traits/rng.yaml:3:1: specs: unknown key 'specs' in a trait; did you mean 'spec'?"]
    assert trait("description: d\nspec: {a: 1}\nqqq: 1\n") == [
        "preferences/traits/rng.yaml:3:1: qqq: unknown key 'qqq' in a trait; expected one of: description, essential, "
        "spec, tags"]


def test_a_trait_file_that_is_a_list_is_refused_whole():
    assert trait("- a\n") == ["preferences/traits/rng.yaml:1:1: expected a mapping, got a list"]


# --------------------------------------------------------------------------- osinfo: the OS a preference is for


@pytest.mark.parametrize("value", [
    "rhel9.1",
    "http://redhat.com/rhel/9.1",
    "[win2k12, win2k12r2]",
    "{line: rhel9}",
    "{line: fedora, since: fedora36}",
    "{os: win2k19, accept: {rec-memory: upstream ships 2Gi}}",
    "{accept: {virtio-disk: the virtio-win drivers are installed}}",
])
def test_osinfo_names_releases_a_line_or_accepted_differences(value):
    assert family(f"osinfo: {value}\npreferences: {{a: {{description: d, osinfo: {value}}}}}\n") == []


@pytest.mark.parametrize(("value", "message"), [
    ("Rhel 9", "1:9: osinfo: expected a libosinfo short-id such as rhel9.1 or an id such as "
               "http://redhat.com/rhel/9.1, got 'Rhel 9'"),
    ("[]", "1:9: osinfo: expected at least one short-id, got an empty list"),
    ("{line: rhel9, acept: {}}", "1:23: osinfo.acept: unknown key 'acept' in osinfo; did you mean 'accept'?"),
    ("{os: rhel9.1, accept: {rec-mem: x}}", "1:32: osinfo.accept.rec-mem: expected a check of the osinfo rule: "
                                            "bios, efi, min-cpu, min-memory, rec-cpu, rec-memory, secure-boot, "
                                            "virtio-disk, virtio-gpu, virtio-input, virtio-net, virtio-rng, "
                                            "virtio-scsi, got 'rec-mem'"),
    ("{os: rhel9.1, accept: {rec-memory: ' '}}", "1:44: osinfo.accept.rec-memory: the reason for accepting "
                                                 "rec-memory must be a non-empty string, got ' '"),
    ("{since: fedora36}", "1:9: osinfo: since names the first release of a line the preference is for: write the "
                          "line too"),
    ("{os: [rhel9.1, 'X']}", "1:24: osinfo.os[1]: expected a libosinfo short-id such as rhel9.1 or an id such as "
                             "http://redhat.com/rhel/9.1, got 'X'"),
])
def test_a_malformed_osinfo_is_refused_where_it_is_written(value, message):
    assert family(f"osinfo: {value}\npreferences: {{a: {{description: d}}}}\n") == [f"{F}:{message}"]
