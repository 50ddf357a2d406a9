"""generator/source/formats/overlay.py: the format of a vendor overlay file.

Its three functions build pieces of the schema (a preference body when adding or
changing, a feature flag that null removes, a section of add/drop/keep/change); the
tests call them and read what the one explainer (source/inputcheck.py) says of values
checked against what they return. The rest of the module is the OVERLAY schema: an
overlay with every section accepted, and each kind of mistake with its exact message.

Private parts, checked on purpose: the overlay format's _preference, _removable and _section are
each given a value alone, with no whole overlay around it.
"""

from __future__ import annotations

import textwrap
from typing import Any, Mapping

import pytest

from generator.features import FEATURES
from generator.source.formats import catalog, overlay
from generator.source.formats.overlay import NAME_LIST, OVERLAY, SERIES_ADD, SERIES_CHANGE
from generator.problems import sort_problems
from generator.source.inputcheck import schema_problems
from generator.source.yamlsrc import load_text


def problems(schema: Mapping[str, Any], text: str, file: str = "f.yaml") -> list[str]:
    """What the explainer says about ``text`` (dedented) read as ``file`` against ``schema``, in reading order."""
    document = load_text(textwrap.dedent(text).lstrip("\n"), file)
    return [str(p) for p in sort_problems(schema_problems(document, schema))]


def of_overlay(text: str) -> list[str]:
    return problems(OVERLAY, text, "overlay.yaml")


DESCRIPTION_WORDS = ("expected text that is not blank, at most 65536 characters (it becomes an annotation of each "
                     "object, and an object's annotations hold 256 KiB at most)")
PREFERENCE_NAME_WORDS = "expected a preference name of lower-case letters, digits, '-' and '.' such as fedora.gpu"
COMMON_KEYS = "basedOn, deprecated, description, displayName, iconClass, osType, overrideSpec, requirements, spec, " \
              "tags, traits"
OVERLAY_KEYS = "annotations, labels, matrices, parameters, preferences, provider, retired, series, sizes, spellings, " \
               "traits, vendor, version"


# --------------------------------------------------------------------------- _preference


def test_a_preference_added_needs_a_description_and_may_name_its_family():
    adding = overlay._preference(adding=True)
    assert problems(adding, "{description: d}\n") == []
    assert problems(adding, "{description: d, family: f}\n") == []
    assert problems(adding, "{}\n") == ["f.yaml:1:1: missing required key 'description'"]
    assert adding["required"] == ["description"]
    assert "minProperties" not in adding


def test_a_preference_added_knows_every_key_of_a_family_files_preference_and_its_family_but_not_add_traits():
    assert problems(overlay._preference(adding=True), "{description: d, addTraits: [rng]}\n") == [
        "f.yaml:1:18: addTraits: unknown key 'addTraits' (did you mean 'traits'?); expected one of: basedOn, "
        "deprecated, description, displayName, family, iconClass, osType, overrideSpec, requirements, spec, tags, "
        "traits"]


def test_a_preference_changed_may_leave_out_its_description_but_not_change_everything_to_nothing():
    changing = overlay._preference(adding=False)
    assert problems(changing, "{addTraits: [rng]}\n") == []
    assert problems(changing, "{displayName: D}\n") == []
    assert problems(changing, "{}\n") == ["f.yaml:1:1: expected at least one entry, got an empty mapping"]
    assert changing["minProperties"] == 1
    assert "required" not in changing


def test_a_preference_changed_knows_add_traits_but_not_the_family():
    assert problems(overlay._preference(adding=False), "{family: f}\n") == [
        "f.yaml:1:2: family: unknown key 'family'; expected one of: addTraits, basedOn, deprecated, description, "
        "displayName, iconClass, osType, overrideSpec, requirements, spec, tags, traits"]


@pytest.mark.parametrize("adding", [True, False])
def test_a_preference_body_with_every_key_right_is_accepted(adding: bool):
    extra = "family: fedora" if adding else "addTraits: [rng, {trait: tpm, override: true}]"
    assert problems(overlay._preference(adding=adding), f"""
        description: Fedora on arm.
        displayName: F
        basedOn: fedora.base
        osType: linux
        iconClass: i
        tags: [a, b]
        traits: [efi, {{trait: rng}}]
        requirements: {{memory: 1Gi}}
        spec: {{}}
        overrideSpec: {{a: 1}}
        deprecated: true
        {extra}
        """) == []


@pytest.mark.parametrize("adding", [True, False])
def test_each_value_of_a_preference_body_is_held_to_its_type(adding: bool):
    extra = "family: ''" if adding else "addTraits: rng"
    last = "family: expected a non-empty string, got ''" if adding else "addTraits: expected a list, got 'rng'"
    assert problems(overlay._preference(adding=adding), f"""
        description: ' '
        displayName: ''
        basedOn: A B
        osType: ''
        iconClass: ''
        tags: ['a,b']
        traits: ['']
        requirements: {{cpu: 0, memory: 0Gi, disk: 1}}
        spec: 1
        overrideSpec: {{}}
        deprecated: 1
        {extra}
        """) == [
        f"f.yaml:1:14: description: {DESCRIPTION_WORDS}, got ' '",
        "f.yaml:2:14: displayName: expected a non-empty string, got ''",
        f"f.yaml:3:10: basedOn: {PREFERENCE_NAME_WORDS}, got 'A B'",
        "f.yaml:4:9: osType: expected a non-empty string, got ''",
        "f.yaml:5:12: iconClass: expected a non-empty string, got ''",
        "f.yaml:6:8: tags[0]: expected a non-empty tag without commas, got 'a,b'",
        "f.yaml:7:10: traits[0]: expected a trait name, or a mapping {trait: NAME, override: true}, got ''",
        "f.yaml:8:21: requirements.cpu: expected a number at least 1, got 0",
        "f.yaml:8:32: requirements.memory: expected a memory quantity greater than zero, got '0Gi'",
        "f.yaml:8:37: requirements.disk: unknown key 'disk'; expected one of: cpu, memory",
        "f.yaml:9:7: spec: expected a mapping, got 1",
        "f.yaml:10:15: overrideSpec: expected at least one entry, got an empty mapping",
        "f.yaml:11:13: deprecated: expected true, false or a mapping with since and replacement, got 1",
        f"f.yaml:12:{len(extra) - len(extra.split(': ')[1]) + 1}: {last}",
    ]


@pytest.mark.parametrize("adding", [True, False])
def test_an_override_spec_that_is_no_mapping_is_refused(adding: bool):
    assert problems(overlay._preference(adding=adding), "{description: d, overrideSpec: [a]}\n") == [
        "f.yaml:1:32: overrideSpec: expected a mapping, got a list"]


def test_the_family_of_a_preference_added_is_text_and_not_empty():
    adding = overlay._preference(adding=True)
    assert problems(adding, "{description: d, family: 5}\n") == ["f.yaml:1:26: family: expected a string, got 5"]
    assert problems(adding, "{description: d, family: [fedora]}\n") == [
        "f.yaml:1:26: family: expected a string, got a list"]


@pytest.mark.parametrize("adding", [True, False])
def test_a_preference_body_that_is_not_a_mapping_is_refused(adding: bool):
    assert problems(overlay._preference(adding=adding), "[description]\n") == [
        "f.yaml:1:1: expected a mapping, got a list"]


@pytest.mark.parametrize("adding", [True, False])
def test_empty_requirements_and_a_requirement_of_the_wrong_type_are_refused(adding: bool):
    assert problems(overlay._preference(adding=adding), "{description: d, requirements: {}}\n") == [
        "f.yaml:1:32: requirements: expected at least one entry, got an empty mapping"]
    assert problems(overlay._preference(adding=adding), "{description: d, requirements: {cpu: 1.0, memory: 4}}\n") == [
        "f.yaml:1:38: requirements.cpu: expected a whole number, got 1.0",
        "f.yaml:1:51: requirements.memory: expected a string, got 4",
    ]
    assert problems(overlay._preference(adding=adding), "{description: d, requirements: {cpu: 1}, tags: a}\n") == [
        "f.yaml:1:48: tags: expected a list, got 'a'"]


def test_each_call_builds_a_body_of_its_own():
    first, second = overlay._preference(adding=False), overlay._preference(adding=False)
    assert first == second
    assert first is not second and first["properties"] is not second["properties"]


# --------------------------------------------------------------------------- _removable


@pytest.mark.parametrize("name, schema, expected", [
    ("hugepages", {"enum": ["2Mi", "1Gi"]}, "2Mi, 1Gi, or null to remove hugepages"),
    ("sizes", {"enum": [1, True]}, "1, True, or null to remove sizes"),
    ("numa", {"type": "boolean"}, "true, false, or null to remove numa"),
    ("overcommitPercent", {"type": "integer", "minimum": 1, "maximum": 100},
     "a whole number from 1 to 100, or null to remove overcommitPercent"),
    ("count", {"type": "integer"}, "a whole number from 0 to any, or null to remove count"),
    ("other", {"type": "string"}, "a value, or null to remove other"),
    ("untyped", {}, "a value, or null to remove untyped"),
])
def test_a_removable_flag_says_what_it_takes_and_that_null_removes_it(name: str, schema: dict[str, Any],
                                                                      expected: str):
    assert overlay._removable(name, schema) == {"anyOf": [schema, {"type": "null"}], "x-expected": expected}


def test_a_removable_flag_copies_the_flags_schema_rather_than_sharing_it():
    schema = {"type": "boolean"}
    removable = overlay._removable("numa", schema)
    assert removable["anyOf"][0] == schema and removable["anyOf"][0] is not schema
    assert schema == {"type": "boolean"}


def test_a_removable_flag_accepts_the_flags_values_and_null_and_refuses_the_rest_in_its_words():
    removable = overlay._removable("overcommitPercent", {"type": "integer", "minimum": 1, "maximum": 100})
    for fits in ("1", "100", "null"):
        assert problems(removable, fits + "\n") == [], fits
    for wrong, shown in (("0", "0"), ("101", "101"), ("'50'", "'50'"), ("true", "the boolean true")):
        assert problems(removable, wrong + "\n") == [
            f"f.yaml:1:1: expected a whole number from 1 to 100, or null to remove overcommitPercent, got {shown}"]


def test_an_enum_flag_made_removable_refuses_what_its_enum_does_not_list():
    removable = overlay._removable("hugepages", {"enum": ["2Mi", "1Gi"]})
    assert problems(removable, "2Mi\n") == []
    assert problems(removable, "null\n") == []
    assert problems(removable, "4Mi\n") == ["f.yaml:1:1: expected 2Mi, 1Gi, or null to remove hugepages, got '4Mi'"]


def test_every_feature_of_a_series_change_may_be_set_or_removed():
    features = SERIES_CHANGE["properties"]["features"]
    assert features["properties"] == {name: overlay._removable(name, dict(f.schema)) for name, f in FEATURES.items()}
    assert features["additionalProperties"] is False


# --------------------------------------------------------------------------- _section


def test_a_section_takes_the_keys_it_is_given_and_at_least_one_of_them():
    section = overlay._section(drop=NAME_LIST, keep=NAME_LIST)
    assert section == {"type": "object", "properties": {"drop": NAME_LIST, "keep": NAME_LIST}, "minProperties": 1,
                       "additionalProperties": False}
    assert problems(section, "{drop: [a]}\n") == []
    assert problems(section, "{}\n") == ["f.yaml:1:1: expected at least one entry, got an empty mapping"]
    assert problems(section, "{add: [a]}\n") == ["f.yaml:1:2: add: unknown key 'add'; expected one of: drop, keep"]
    assert problems(section, "[a]\n") == ["f.yaml:1:1: expected a mapping, got a list"]


def test_a_section_of_no_keys_takes_nothing():
    assert overlay._section() == {"type": "object", "properties": {}, "minProperties": 1,
                                  "additionalProperties": False}


# --------------------------------------------------------------------------- the overlay


FULL = """
vendor: example.com
version: v2
labels: {example.com/tier: gold}
annotations: {example.com/note: anything at all}
parameters: {gpu: {count: 2}}
provider: {supportURL: https://example.com/support}
spellings: [{field: spec.a, values: {x: {since: v1.4}}}]
matrices:
  add:
    tiny: {nano: 1}
series:
  add:
    zx:
      version: 1
      class: special
      displayName: ZX
      description: New series.
      icon: icon-zx
      ratio: "1:2"
  drop: [u]
  keep: ["cx*"]
  change:
    u: {version: 2, features: {numa: null, hugepages: 1Gi}}
sizes: {drop: [nano], keep: [small]}
traits:
  add:
    my-trait: {description: Mine., spec: {devices: {}}, tags: [x], essential: false}
preferences:
  add:
    fedora.arm: {description: Fedora on arm, family: fedora}
  drop: [alpine]
  keep: ["fedora*"]
  change:
    fedora: {addTraits: [rng], overrideSpec: {a: 1}}
"""


def test_an_overlay_with_every_section_is_accepted():
    assert of_overlay(FULL) == []


def test_an_empty_overlay_is_accepted():
    assert of_overlay("{}\n") == []


def test_a_misspelt_top_level_key_is_refused_with_the_closest_key_and_every_known_one():
    assert of_overlay("vendr: example.com\n") == [
        f"overlay.yaml:1:1: vendr: unknown key 'vendr' (did you mean 'vendor'?); expected one of: {OVERLAY_KEYS}"]


def test_empty_sections_are_refused():
    assert of_overlay("sizes: {}\nparameters: {}\nprovider: {}\nseries: {}\ntraits: {}\nmatrices: {}\n"
                      "preferences: {}\n") == [
        "overlay.yaml:1:8: sizes: expected at least one entry, got an empty mapping",
        "overlay.yaml:2:13: parameters: expected at least one entry, got an empty mapping",
        "overlay.yaml:3:11: provider: expected at least one entry, got an empty mapping",
        "overlay.yaml:4:9: series: expected at least one entry, got an empty mapping",
        "overlay.yaml:5:9: traits: expected at least one entry, got an empty mapping",
        "overlay.yaml:6:11: matrices: expected at least one entry, got an empty mapping",
        "overlay.yaml:7:14: preferences: expected at least one entry, got an empty mapping",
    ]


def test_a_name_list_holds_at_least_one_name_and_no_empty_one():
    assert of_overlay("series: {drop: [], keep: ['']}\n") == [
        "overlay.yaml:1:16: series.drop: expected at least one item, got an empty list",
        "overlay.yaml:1:27: series.keep[0]: expected a non-empty string, got ''",
    ]
    assert of_overlay("sizes: {drop: small}\n") == ["overlay.yaml:1:15: sizes.drop: expected a list, got 'small'"]


def test_labels_are_label_values_and_annotations_any_text():
    assert of_overlay("labels: {a: -x}\nannotations: {b: 1}\n") == [
        "overlay.yaml:1:13: labels.a: '-x' is not a valid label value: a valid label must be an empty string or "
        "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        "overlay.yaml:2:18: annotations.b: expected a string, got 1",
    ]


def test_a_gpu_or_provider_changes_any_one_of_its_keys_but_not_none():
    assert of_overlay("parameters: {gpu: {deviceName: nvidia.com/A400}}\nprovider: {displayName: X}\n") == []
    assert of_overlay("parameters: {gpu: {}}\n") == [
        "overlay.yaml:1:19: parameters.gpu: expected at least one entry, got an empty mapping"]
    assert of_overlay("parameters: {gpu: {count: 17}}\n") == [
        "overlay.yaml:1:27: parameters.gpu.count: expected a number at most 16, got 17"]
    assert of_overlay("provider: {displayName: ''}\n") == [
        "overlay.yaml:1:25: provider.displayName: expected a non-empty string, got ''"]


def test_the_catalogs_gpu_and_provider_keep_their_required_keys():
    assert "required" in catalog.CATALOG["properties"]["provider"]
    assert problems(catalog.CATALOG, "extends: builtin\nprovider: {displayName: X}\n") == [
        "f.yaml:2:1: provider: missing required key 'documentationURL'",
        "f.yaml:2:1: provider: missing required key 'supportURL'",
    ]


def test_matrices_are_added_in_the_size_matrices_format():
    assert of_overlay("matrices: {add: {}}\n") == [
        "overlay.yaml:1:17: matrices.add: expected at least one entry, got an empty mapping"]
    assert of_overlay("matrices: {add: {m: {small: 0}}}\n") == [
        "overlay.yaml:1:29: matrices.add.m.small: expected a number at least 1, got 0"]
    assert of_overlay("matrices: {drop: [m]}\n") == [
        "overlay.yaml:1:12: matrices.drop: unknown key 'drop'; expected one of: add"]


def test_a_series_added_is_keyed_by_its_prefix_and_needs_everything_else_a_series_file_does():
    assert "prefix" not in SERIES_ADD["required"]
    assert "prefix" in catalog.SERIES["required"]
    assert of_overlay("series: {add: {zx: {prefix: zx}}}\n") == [
        f"overlay.yaml:1:16: series.add.zx: missing required key '{key}'"
        for key in ("class", "description", "displayName", "icon", "ratio", "version")]


def test_a_series_added_under_a_name_that_is_no_prefix_is_refused():
    assert of_overlay("series: {add: {Zx: {version: 1, class: c, displayName: Z, description: d, icon: i, "
                      "ratio: '1:2'}}}\n") == [
        "overlay.yaml:1:15: series.add: expected a short series prefix of lowercase letters such as cx, got 'Zx'"]


def test_a_series_change_changes_something_and_never_the_prefix():
    assert of_overlay("series: {add: {}, change: {}}\n") == [
        "overlay.yaml:1:15: series.add: expected at least one entry, got an empty mapping",
        "overlay.yaml:1:27: series.change: expected at least one entry, got an empty mapping",
    ]
    assert of_overlay("series: {change: {u: {}}}\n") == [
        "overlay.yaml:1:22: series.change.u: expected at least one entry, got an empty mapping"]
    assert of_overlay("series: {change: {u: {prefix: v}}}\n") == [
        "overlay.yaml:1:23: series.change.u.prefix: unknown key 'prefix'; expected one of: class, deprecated, "
        "deprecatedSizes, description, displayName, features, icon, matrix, ratio, sizes, spec, variants, version"]


def test_a_series_change_holds_its_values_to_the_series_format():
    assert of_overlay("series: {change: {u: {version: 2.0, ratio: '1:0', sizes: none, spec: []}}}\n") == [
        "overlay.yaml:1:32: series.change.u.version: expected a whole number, got 2.0",
        "overlay.yaml:1:44: series.change.u.ratio: expected a vCPU:memory ratio in GiB such as \"1:4\", got '1:0'",
        "overlay.yaml:1:58: series.change.u.sizes: expected 'all', a list of size names, or a mapping with from, to "
        "and exclude, got 'none'",
        "overlay.yaml:1:70: series.change.u.spec: expected a mapping, got a list",
    ]


def test_a_feature_of_a_series_change_is_removed_by_null_or_refused_in_words_that_say_so():
    assert of_overlay("series:\n  change:\n    u:\n"
                      "      features: {hugepages: 3, numa: 1, overcommitPercent: x}\n") == [
        "overlay.yaml:4:29: series.change.u.features.hugepages: expected 2Mi, 1Gi, or null to remove hugepages, got 3",
        "overlay.yaml:4:38: series.change.u.features.numa: expected true, false, or null to remove numa, got 1",
        "overlay.yaml:4:60: series.change.u.features.overcommitPercent: expected a whole number from 1 to 100, or "
        "null to remove overcommitPercent, got 'x'",
    ]
    assert of_overlay("series: {change: {u: {features: {numa: null, hugepagse: null}}}}\n") == [
        "overlay.yaml:1:46: series.change.u.features.hugepagse: unknown key 'hugepagse' (did you mean 'hugepages'?); "
        "expected one of: dedicatedCPUPlacement, gpus, hugepages, isolateEmulatorThread, maxSocketsMatchVCPUs, numa, "
        "overcommitPercent, realtime"]


def test_an_unknown_section_key_is_refused_with_the_keys_of_its_section():
    assert of_overlay("series: {remove: [u]}\n") == [
        "overlay.yaml:1:10: series.remove: unknown key 'remove'; expected one of: add, change, drop, keep"]
    assert of_overlay("sizes: {add: [x]}\n") == [
        "overlay.yaml:1:9: sizes.add: unknown key 'add'; expected one of: drop, keep"]
    assert of_overlay("traits: {drop: [t]}\n") == [
        "overlay.yaml:1:10: traits.drop: unknown key 'drop'; expected one of: add"]


def test_a_trait_added_needs_a_name_a_description_and_a_spec_that_sets_something():
    assert of_overlay("traits: {add: {}}\n") == [
        "overlay.yaml:1:15: traits.add: expected at least one entry, got an empty mapping"]
    assert of_overlay("traits: {add: {Bad: {description: d, spec: {a: 1}}}}\n") == [
        "overlay.yaml:1:15: traits.add: expected a trait name of lower-case letters, digits and '-' such as "
        "efi-secureboot, got 'Bad'"]
    assert of_overlay("traits: {add: {t: {spec: {}}}}\n") == [
        "overlay.yaml:1:16: traits.add.t: missing required key 'description'",
        "overlay.yaml:1:26: traits.add.t.spec: expected at least one entry, got an empty mapping",
    ]
    assert of_overlay("traits: {add: {t: {description: '', spec: {a: 1}, essential: 1, tags: ['a,b'], x: 1}}}\n") == [
        "overlay.yaml:1:33: traits.add.t.description: expected a non-empty string, got ''",
        "overlay.yaml:1:62: traits.add.t.essential: expected true or false, got 1",
        "overlay.yaml:1:72: traits.add.t.tags[0]: expected a non-empty tag without commas, got 'a,b'",
        "overlay.yaml:1:80: traits.add.t.x: unknown key 'x'; expected one of: description, essential, spec, tags",
    ]


def test_a_preference_added_is_named_as_a_preference_is_and_needs_a_description():
    assert of_overlay("preferences:\n  add:\n    fedora.arm:\n      displayName: Fedora on arm\n") == [
        "overlay.yaml:3:5: preferences.add.fedora.arm: missing required key 'description'"]
    assert of_overlay("preferences: {add: {Fedora: {description: d}}}\n") == [
        f"overlay.yaml:1:20: preferences.add: {PREFERENCE_NAME_WORDS}, got 'Fedora'"]
    assert of_overlay(f"preferences: {{add: {{{'a' * 254}: {{description: d}}}}}}\n") == [
        f"overlay.yaml:1:20: preferences.add: {PREFERENCE_NAME_WORDS}, got '{'a' * 60}... (194 more characters)'"]


def test_a_preference_changed_may_add_traits_and_is_checked_as_a_change():
    assert of_overlay("preferences: {change: {f: {description: '  '}}}\n") == [
        f"overlay.yaml:1:41: preferences.change.f.description: {DESCRIPTION_WORDS}, got '  '"]
    assert of_overlay("preferences: {change: {f: {}}}\n") == [
        "overlay.yaml:1:27: preferences.change.f: expected at least one entry, got an empty mapping"]
    assert of_overlay("preferences: {add: {}, change: {}, drop: [], keep: []}\n") == [
        "overlay.yaml:1:20: preferences.add: expected at least one entry, got an empty mapping",
        "overlay.yaml:1:32: preferences.change: expected at least one entry, got an empty mapping",
        "overlay.yaml:1:42: preferences.drop: expected at least one item, got an empty list",
        "overlay.yaml:1:52: preferences.keep: expected at least one item, got an empty list",
    ]
    assert of_overlay("preferences: {change: {fedora: {family: x}}}\n") == [
        "overlay.yaml:1:33: preferences.change.fedora.family: unknown key 'family'; expected one of: addTraits, "
        f"{COMMON_KEYS}"]


def test_an_overlay_that_is_a_list_is_refused_whole():
    assert of_overlay("- vendor: x\n") == ["overlay.yaml:1:1: expected a mapping, got a list"]
