"""generator/source/formats/catalog.py: the formats of catalog.yaml, the size matrices and the series files.

The module is data (JSON Schemas); each test writes a document of one format and reads
what the one explainer (source/inputcheck.py) says about it: nothing for a document the
format accepts, and for each kind of mistake the format names, its exact message at its
line and column.
"""

from __future__ import annotations

import textwrap
from typing import Any, Mapping

import pytest

from generator.features import FEATURES
from generator.source.formats import catalog
from generator.source.formats.catalog import CATALOG, DESCRIPTION_MAX, SERIES, SIZES
from generator.source.inputcheck import schema_problems
from generator.source.yamlsrc import load_text


def problems(schema: Mapping[str, Any], text: str, file: str = "f.yaml") -> list[str]:
    """What the explainer says about ``text`` (dedented) read as ``file`` against ``schema``."""
    document = load_text(textwrap.dedent(text).lstrip("\n"), file)
    return [str(p) for p in schema_problems(document, schema)]


DESCRIPTION_WORDS = ("expected text that is not blank, at most 65536 characters (it becomes an annotation of each "
                     "object, and an object's annotations hold 256 KiB at most)")
LABEL_WORDS = ("is not a valid label value: a valid label must be an empty string or consist of alphanumeric "
               "characters, '-', '_' or '.', and must start and end with an alphanumeric character")
QUANTITY_WORDS = ("is not a Kubernetes quantity (expected a number with an optional suffix Ki, Mi, Gi, Ti, Pi, Ei, "
                  "m, k, M, G, T, P, E, e.g. 2Gi or 512Mi)")
SIZES_WORDS = "expected 'all', a list of size names, or a mapping with from, to and exclude"
RATIO_WORDS = 'expected a vCPU:memory ratio in GiB such as "1:4"'
PREFIX_WORDS = "expected a short series prefix of lowercase letters such as cx"
SIZE_NAME_WORDS = "expected a size name of lowercase letters, digits and '-' (such as 2xlarge)"
FEATURE_KEYS = ("dedicatedCPUPlacement, gpus, hugepages, isolateEmulatorThread, maxSocketsMatchVCPUs, numa, "
                "overcommitPercent, realtime")


# --------------------------------------------------------------------------- catalog.yaml


def test_a_catalog_with_a_vendor_and_a_version_is_accepted():
    assert problems(CATALOG, "vendor: example.com\nversion: v1\n") == []


def test_a_catalog_with_every_key_is_accepted():
    assert problems(CATALOG, """
        vendor: example.com
        version: v1
        parameters: {gpu: {deviceName: nvidia.com/A400, count: 16}}
        provider: {displayName: Example, documentationURL: https://example.com/docs, supportURL: https://example.com}
        extends: builtin
        overlays: [overlays/a.yaml, overlays/b.yaml]
        spellings:
          - field: spec.cpu.model
            as: {spec.cpu.oldModel: {value: host}, spec.cpu.other: {from: model}}
            when: {v1.2: [a]}
            values: {host-passthrough: {since: v1.4, was: host}}
        """) == []


def test_an_extending_catalog_inherits_vendor_and_version_so_needs_neither():
    assert problems(CATALOG, "extends: builtin\n") == []


def test_a_catalog_that_extends_nothing_needs_a_vendor_and_a_version():
    assert problems(CATALOG, "overlays: [a.yaml]\n", "catalog.yaml") == [
        "catalog.yaml:1:1: missing required key 'vendor'",
        "catalog.yaml:1:1: missing required key 'version'",
    ]


def test_a_catalog_can_extend_only_the_builtin_one():
    assert problems(CATALOG, "extends: other\n", "catalog.yaml") == [
        "catalog.yaml:1:10: extends: expected builtin (the catalog that ships with citgen), got 'other'"]


def test_a_misspelt_top_level_key_is_refused_with_the_closest_key_and_every_known_one():
    assert problems(CATALOG, "extends: builtin\noverlay: []\n", "catalog.yaml") == [
        "catalog.yaml:2:1: overlay: unknown key 'overlay' (did you mean 'overlays'?); expected one of: extends, "
        "osLabels, overlays, parameters, policy, provider, retired, spellings, vendor, version"]


def test_vendor_and_version_are_held_to_the_label_value_rules():
    assert problems(CATALOG, "vendor: -example\nversion: v1\n") == [f"f.yaml:1:9: vendor: '-example' {LABEL_WORDS}"]
    assert problems(CATALOG, f"vendor: example.com\nversion: {'v' * 64}\n") == [
        f"f.yaml:2:10: version: '{'v' * 64}' is not a valid label value: must be no more than 63 characters"]
    assert problems(CATALOG, f"vendor: example.com\nversion: {'v' * 63}\n") == []


@pytest.mark.parametrize("count", [1, 16])
def test_a_gpu_count_from_1_to_16_is_accepted(count: int):
    assert problems(CATALOG, f"extends: builtin\nparameters: {{gpu: {{deviceName: x/y, count: {count}}}}}\n") == []


@pytest.mark.parametrize("count, message", [
    (0, "expected a number at least 1, got 0"),
    (17, "expected a number at most 16, got 17"),
    (1.0, "expected a whole number, got 1.0"),
])
def test_a_gpu_count_outside_1_to_16_is_refused(count: Any, message: str):
    assert problems(CATALOG, f"extends: builtin\nparameters: {{gpu: {{deviceName: x/y, count: {count}}}}}\n") == [
        f"f.yaml:2:44: parameters.gpu.count: {message}"]


def test_a_gpu_device_name_that_is_not_text_is_refused_with_an_example():
    assert problems(CATALOG, "extends: builtin\nparameters: {gpu: {deviceName: 5}}\n") == [
        "f.yaml:2:32: parameters.gpu.deviceName: expected a GPU device name such as nvidia.com/A400, got 5"]


def test_an_empty_gpu_mapping_and_an_unknown_parameter_are_refused():
    assert problems(CATALOG, "extends: builtin\nparameters: {gpu: {}, gpus: 1}\n") == [
        "f.yaml:2:19: parameters.gpu: expected at least one entry, got an empty mapping",
        "f.yaml:2:23: parameters.gpus: unknown key 'gpus' (did you mean 'gpu'?); expected one of: gpu",
    ]
    assert problems(CATALOG, "extends: builtin\nparameters: {gpu: {deviceName: x/y, cout: 2}}\n") == [
        "f.yaml:2:37: parameters.gpu.cout: unknown key 'cout' (did you mean 'count'?); expected one of: count, "
        "deviceName"]


def test_a_provider_needs_all_three_texts_and_none_of_them_empty():
    assert problems(CATALOG, "extends: builtin\nprovider: {displayName: ''}\n") == [
        "f.yaml:2:25: provider.displayName: expected a non-empty string, got ''",
        "f.yaml:2:1: provider: missing required key 'documentationURL'",
        "f.yaml:2:1: provider: missing required key 'supportURL'",
    ]
    assert problems(CATALOG, "extends: builtin\n"
                             "provider: {displayName: X, documentationURL: '', supportURL: ''}\n") == [
        "f.yaml:2:46: provider.documentationURL: expected a non-empty string, got ''",
        "f.yaml:2:62: provider.supportURL: expected a non-empty string, got ''",
    ]


def test_an_overlay_is_named_by_a_non_empty_path_in_a_list():
    assert problems(CATALOG, "extends: builtin\noverlays: ['', a.yaml]\n") == [
        "f.yaml:2:12: overlays[0]: expected a non-empty string, got ''"]
    assert problems(CATALOG, "extends: builtin\noverlays: a.yaml\n") == [
        "f.yaml:2:11: overlays: expected a list, got 'a.yaml'"]


# --------------------------------------------------------------------------- spellings


def spelling(entry: str) -> list[str]:
    return problems(CATALOG, f"extends: builtin\nspellings: [{entry}]\n")


def test_a_spelling_names_its_field_by_a_path_from_spec():
    assert spelling("{field: cpu.model, as: {spec.a: {value: 1}}}") == [
        "f.yaml:2:21: spellings[0].field: expected a field path such as spec.firmware.preferredEfi, got 'cpu.model'"]
    assert spelling("{field: spec, as: {spec.a: {value: 1}}}") == [
        "f.yaml:2:21: spellings[0].field: expected a field path such as spec.firmware.preferredEfi, got 'spec'"]


def test_a_spelling_without_its_field_is_refused_with_the_field_named():
    assert spelling("{as: {spec.a: {value: 1}}, when: {v1.2: [a]}}") == [
        "f.yaml:2:13: spellings[0]: missing required key 'field'"]


def test_a_spelling_with_nothing_but_its_field_is_refused_saying_how_many_keys_it_needs():
    assert spelling("{field: spec.a}") == ["f.yaml:2:13: spellings[0]: expected at least 2 entries, got 1"]


def test_an_older_field_is_written_with_a_value_or_a_subfield_but_not_both():
    assert spelling("{field: spec.a, as: {spec.b: {value: 1, from: x}}}") == [
        "f.yaml:2:42: spellings[0].as.spec.b: expected {value: V} or {from: SUBFIELD}, got a mapping"]
    assert spelling("{field: spec.a, as: {spec.b: {}}}") == [
        "f.yaml:2:42: spellings[0].as.spec.b: expected {value: V} or {from: SUBFIELD}, got a mapping"]
    assert spelling("{field: spec.a, as: {spec.b: {form: x}}}") == [
        "f.yaml:2:43: spellings[0].as.spec.b.form: unknown key 'form' (did you mean 'from'?); expected one of: from, "
        "value"]


def test_an_older_field_is_a_path_from_spec_and_a_subfield_one_name():
    assert spelling("{field: spec.a, as: {cpu: {from: x}}}") == [
        "f.yaml:2:33: spellings[0].as: expected a field path such as spec.firmware.preferredEfi, got 'cpu'"]
    assert spelling("{field: spec.a, as: {spec.b: {from: 1x}}}") == [
        "f.yaml:2:49: spellings[0].as.spec.b.from: expected a subfield name such as secureBoot, got '1x'"]


@pytest.mark.parametrize("since", ["v1." + "4" * 41, "v" + "1" * 5000 + ".4", "v1.٤"],
                         ids=["41 digits", "5,000 digits", "arabic-indic"])
def test_a_release_of_more_than_40_digits_or_of_other_digits_is_no_kubevirt_release(since: str):
    shown = since if len(since) <= 60 else f"{since[:60]}... ({len(since) - 60} more characters)"
    assert spelling(f"{{field: spec.a, values: {{x: {{since: '{since}'}}}}}}") == [
        f"f.yaml:2:49: spellings[0].values.x.since: expected a KubeVirt release such as v1.4, got {shown!r}"]


def test_empty_as_when_and_values_mappings_and_an_empty_when_list_are_refused():
    assert spelling("{field: spec.a, as: {}}") == [
        "f.yaml:2:33: spellings[0].as: expected at least one entry, got an empty mapping"]
    assert spelling("{field: spec.a, when: {}}") == [
        "f.yaml:2:35: spellings[0].when: expected at least one entry, got an empty mapping"]
    assert spelling("{field: spec.a, when: {v1.2: []}}") == [
        "f.yaml:2:42: spellings[0].when.v1.2: expected at least one item, got an empty list"]
    assert spelling("{field: spec.a, values: {}}") == [
        "f.yaml:2:37: spellings[0].values: expected at least one entry, got an empty mapping"]


def test_an_older_value_says_since_which_kubevirt_release_it_is_spelt_anew():
    assert spelling("{field: spec.a, values: {x: {since: '1.4'}}}") == [
        "f.yaml:2:49: spellings[0].values.x.since: expected a KubeVirt release such as v1.4, got '1.4'"]
    assert spelling("{field: spec.a, values: {x: {was: ''}}}") == [
        "f.yaml:2:47: spellings[0].values.x.was: expected a non-empty string, got ''",
        "f.yaml:2:38: spellings[0].values.x: missing required key 'since'",
    ]
    assert spelling("{field: spec.a, values: {x: {since: v1.4, is: y}}}") == [
        "f.yaml:2:55: spellings[0].values.x.is: unknown key 'is'; expected one of: since, was"]


def test_a_misspelt_key_of_a_spelling_is_named_in_a_spelling():
    assert spelling("{field: spec.a, vaules: {x: {since: v1.4}}}") == [
        "f.yaml:2:29: spellings[0].vaules: unknown key 'vaules' in a spelling; did you mean 'values'?"]
    assert spelling("{field: spec.a, zzz: 1}") == [
        "f.yaml:2:29: spellings[0].zzz: unknown key 'zzz' in a spelling; expected one of: as, field, values, when"]


# --------------------------------------------------------------------------- size matrices


def test_a_size_is_a_vcpu_count_or_a_count_with_its_memory():
    assert problems(SIZES, """
        matrices:
          standard:
            small: 1
            large: {cpu: 4, memory: 8Gi}
          x-2:
            2xlarge: 4294967295
        """) == []


def test_a_file_of_size_matrices_needs_matrices_and_nothing_else():
    assert problems(SIZES, "matrix: {}\n", "series/sizes.yaml") == [
        "series/sizes.yaml:1:1: missing required key 'matrices'",
        "series/sizes.yaml:1:1: matrix: unknown key 'matrix' (did you mean 'matrices'?); expected one of: matrices",
    ]


def test_an_empty_matrix_and_no_matrix_at_all_are_refused():
    assert problems(SIZES, "matrices: {}\n") == [
        "f.yaml:1:11: matrices: expected at least one entry, got an empty mapping"]
    assert problems(SIZES, "matrices: {standard: {}}\n") == [
        "f.yaml:1:22: matrices.standard: expected at least one entry, got an empty mapping"]


@pytest.mark.parametrize("name", ["Standard", "-std", "std_1"])
def test_a_matrix_name_is_lowercase_letters_digits_and_dashes_starting_with_no_dash(name: str):
    assert problems(SIZES, f"matrices: {{{name}: {{small: 1}}}}\n") == [
        f"f.yaml:1:11: matrices: expected a matrix name of lowercase letters, digits and '-' (such as standard), "
        f"got '{name}'"]


def test_a_size_name_has_at_most_32_characters_and_alphanumerics_at_both_ends():
    assert problems(SIZES, f"matrices: {{std: {{{'a' * 32}: 1, a: 1, 2x-large: 1}}}}\n") == []
    for name in ("b" * 33, "Small", "-small", "small-"):
        assert problems(SIZES, f"matrices: {{std: {{{name}: 1}}}}\n") == [
            f"f.yaml:1:17: matrices.std: {SIZE_NAME_WORDS}, got '{name}'"], name


@pytest.mark.parametrize("cpu, message", [
    ("0", "expected a number at least 1, got 0"),
    ("4294967296", "expected a number at most 4294967295, got 4294967296"),
    ("'1'", "expected a whole number or a mapping, got '1'"),
    ("1.0", "expected a whole number, got 1.0"),
])
def test_a_vcpu_count_is_a_whole_number_a_uint32_holds(cpu: str, message: str):
    assert problems(SIZES, f"matrices: {{std: {{small: {cpu}}}}}\n") == [f"f.yaml:1:25: matrices.std.small: {message}"]


def test_a_size_written_as_a_mapping_needs_cpu_and_memory_and_nothing_else():
    assert problems(SIZES, "matrices: {std: {small: {cpu: 1, memroy: 1Gi}}}\n") == [
        "f.yaml:1:18: matrices.std.small: missing required key 'memory'",
        "f.yaml:1:34: matrices.std.small.memroy: unknown key 'memroy' (did you mean 'memory'?); expected one of: cpu, "
        "memory",
    ]
    assert problems(SIZES, "matrices: {std: {small: {cpu: 0, memory: 1Gi}}}\n") == [
        "f.yaml:1:31: matrices.std.small.cpu: expected a number at least 1, got 0"]


def test_memory_is_a_kubernetes_quantity_greater_than_zero():
    assert problems(SIZES, "matrices: {std: {small: {cpu: 1, memory: 0Gi}}}\n") == [
        "f.yaml:1:42: matrices.std.small.memory: expected a memory quantity greater than zero, got '0Gi'"]
    assert problems(SIZES, "matrices: {std: {small: {cpu: 1, memory: 4GB}}}\n") == [
        f"f.yaml:1:42: matrices.std.small.memory: '4GB' {QUANTITY_WORDS}"]


# --------------------------------------------------------------------------- series


SERIES_TEXT = """\
prefix: u
version: 1
class: general.purpose
displayName: General Purpose
description: For most workloads.
icon: icon-u
ratio: "1:4"
"""


def series(replace: str = "", by: str = "", more: str = "") -> list[str]:
    """What the explainer says of the series above with ``replace`` replaced ``by``, and ``more`` lines."""
    text = SERIES_TEXT.replace(replace, by) if replace else SERIES_TEXT
    return problems(SERIES, text + more, "series/u.yaml")


def test_a_series_with_its_seven_required_keys_is_accepted():
    assert series() == []


def test_a_series_with_every_key_is_accepted():
    assert series(more="""\
matrix: standard
sizes: {from: small, to: 2xlarge, exclude: [large]}
features: {numa: true, hugepages: 1Gi, overcommitPercent: 100, gpus: false, dedicatedCPUPlacement: true}
spec: {cpu: {model: host-passthrough}}
variants: {1gi: {hugepages: 1Gi}, abcdefgh: {}}
deprecated: false
""") == []


def test_an_empty_series_is_refused_with_every_required_key_named():
    assert problems(SERIES, "{}\n", "series/u.yaml") == [
        f"series/u.yaml:1:1: missing required key '{key}'"
        for key in ("prefix", "version", "class", "displayName", "description", "icon", "ratio")]


def test_a_series_without_a_ratio_is_refused_with_the_field_named():
    assert series('ratio: "1:4"\n', "") == ["series/u.yaml:1:1: missing required key 'ratio'"]


@pytest.mark.parametrize("ratio", ["1:4", "2:1.25", "1:0.5", "16:128", "1:04", "1:00.5"])
def test_a_ratio_of_whole_vcpus_to_memory_greater_than_zero_is_accepted(ratio: str):
    assert series('"1:4"', f'"{ratio}"') == []


@pytest.mark.parametrize("ratio", ["1:0", "1:0.0", "0:4", "01:4", "1:4.", "1:4:4", "1.5:4", "4", "1:-4", "1 : 4"])
def test_a_ratio_of_no_memory_no_vcpu_or_not_written_v_colon_m_is_refused(ratio: str):
    assert series('"1:4"', f'"{ratio}"') == [f"series/u.yaml:7:8: ratio: {RATIO_WORDS}, got '{ratio}'"]


@pytest.mark.parametrize("ratio", ["1:" + "9" * 39, "9" * 20 + ":" + "9" * 20, "1:0." + "0" * 37 + "1"])
def test_a_ratio_of_40_digits_is_accepted(ratio: str):
    assert series('"1:4"', f'"{ratio}"') == []


@pytest.mark.parametrize("ratio", ["1:" + "9" * 40, "9" * 41 + ":4", "1:0." + "0" * 38 + "1", "1:" + "4" * 1_000_000],
                         ids=["memory", "vcpus", "fraction", "a million digits"])
def test_a_ratio_of_more_than_40_digits_is_refused_before_it_is_read(ratio: str):
    shown = ratio if len(ratio) <= 60 else f"{ratio[:60]}... ({len(ratio) - 60} more characters)"
    assert series('"1:4"', f'"{ratio}"') == [
        f"series/u.yaml:7:8: ratio: expected a vCPU:memory ratio of at most 40 digits, got {shown!r}"]


def test_a_long_ratio_that_is_no_ratio_is_refused_once_as_no_ratio():
    ratio = "1:x" + "4" * 100
    assert series('"1:4"', f'"{ratio}"') == [
        f"series/u.yaml:7:8: ratio: {RATIO_WORDS}, got '{ratio[:60]}... (43 more characters)'"]


def test_a_ratio_written_as_a_number_is_refused_with_the_example():
    assert series('"1:4"', "4") == [f"series/u.yaml:7:8: ratio: {RATIO_WORDS}, got 4"]


@pytest.mark.parametrize("prefix", ["c", "cx", "c-x", "abcdefghijklmnop"])
def test_a_prefix_of_up_to_16_lowercase_letters_and_inner_dashes_is_accepted(prefix: str):
    assert series("prefix: u", f"prefix: {prefix}") == []


@pytest.mark.parametrize("prefix", ["abcdefghijklmnopq", "-c", "c-", "c1", "Cx", "''"])
def test_a_prefix_too_long_or_with_anything_but_lowercase_letters_is_refused(prefix: str):
    shown = "''" if prefix == "''" else f"'{prefix}'"
    assert series("prefix: u", f"prefix: {prefix}") == [f"series/u.yaml:1:9: prefix: {PREFIX_WORDS}, got {shown}"]


@pytest.mark.parametrize("version, message", [
    ("0", "expected a number at least 1, got 0"),
    ("10000", "expected a number at most 9999, got 10000"),
    ("1.0", "expected a whole number, got 1.0"),
    ("true", "expected a whole number, got the boolean true"),
    ('"1"', "expected a whole number, got '1'"),
])
def test_a_version_is_a_whole_number_from_1_to_9999(version: str, message: str):
    assert series("version: 1", "version: 9999") == []
    assert series("version: 1", f"version: {version}") == [f"series/u.yaml:2:10: version: {message}"]


def test_class_and_icon_are_label_values():
    assert series("class: general.purpose", "class: -general") == [
        f"series/u.yaml:3:8: class: '-general' {LABEL_WORDS}"]
    assert series("icon: icon-u", "icon: icon u") == [f"series/u.yaml:6:7: icon: 'icon u' {LABEL_WORDS}"]


def test_a_display_name_is_not_empty():
    assert series("General Purpose", "''") == ["series/u.yaml:4:14: displayName: expected a non-empty string, got ''"]


def test_a_description_is_not_blank_and_at_most_65536_characters():
    assert DESCRIPTION_MAX == 65_536
    assert series("For most workloads.", "'" + "x" * 65_536 + "'") == []
    assert series("For most workloads.", "'   '") == [
        f"series/u.yaml:5:14: description: {DESCRIPTION_WORDS}, got '   '"]
    assert series("For most workloads.", "'" + "x" * 65_537 + "'") == [
        f"series/u.yaml:5:14: description: {DESCRIPTION_WORDS}, got '{'x' * 60}... (65477 more characters)'"]


@pytest.mark.parametrize("sizes", ["all", "[small]", "[small, 2xlarge]", "{}", "{from: small}", "{exclude: []}"])
def test_sizes_are_all_a_list_of_size_names_or_a_range(sizes: str):
    assert series(more=f"sizes: {sizes}\n") == []


@pytest.mark.parametrize("sizes, got", [
    ("none", "'none'"),
    ("[]", "a list"),
    ("[small, Big]", "a list"),
    ("{from: small, upto: large}", "a mapping"),
    ("{from: Small}", "a mapping"),
    ("{exclude: [Big]}", "a mapping"),
    ("5", "5"),
])
def test_sizes_of_another_shape_are_refused_with_the_three_shapes_named(sizes: str, got: str):
    assert series(more=f"sizes: {sizes}\n") == [f"series/u.yaml:8:8: sizes: {SIZES_WORDS}, got {got}"]


def test_the_features_a_series_may_name_are_the_feature_table():
    assert set(catalog.FEATURE_FLAGS["properties"]) == set(FEATURES)
    assert catalog.FEATURE_FLAGS["properties"] == {name: dict(f.schema) for name, f in FEATURES.items()}
    assert series(more="features: {numa: yes, hugepages: 4Mi, overcommitPercent: 101, gpu: true}\n") == [
        "series/u.yaml:8:34: features.hugepages: expected one of 2Mi, 1Gi, got '4Mi'",
        "series/u.yaml:8:58: features.overcommitPercent: expected a number at most 100, got 101",
        f"series/u.yaml:8:63: features.gpu: unknown key 'gpu' (did you mean 'gpus'?); expected one of: {FEATURE_KEYS}",
    ]


def test_a_variant_suffix_is_up_to_8_lowercase_letters_and_digits_with_feature_flags():
    assert series(more="variants: {1gi: {hugepages: 1Gi}, TooLong: {}, abcdefghi: {}, x: {numa: 1}}\n") == [
        "series/u.yaml:8:11: variants: expected a variant suffix of lowercase letters and digits such as 1gi, "
        "got 'TooLong'",
        "series/u.yaml:8:11: variants: expected a variant suffix of lowercase letters and digits such as 1gi, "
        "got 'abcdefghi'",
        "series/u.yaml:8:73: variants.x.numa: expected true or false, got 1",
    ]


def test_matrix_spec_and_deprecated_have_their_types():
    assert series(more="deprecated: 1\nmatrix: 5\nspec: []\n") == [
        "series/u.yaml:9:9: matrix: expected a string, got 5",
        "series/u.yaml:10:7: spec: expected a mapping, got a list",
        "series/u.yaml:8:13: deprecated: expected true, false or a mapping with since and replacement, got 1",
    ]


def test_a_misspelt_series_key_is_refused_with_the_closest_key_and_every_known_one():
    assert series(more="featres: {}\n") == [
        "series/u.yaml:8:1: featres: unknown key 'featres' (did you mean 'features'?); expected one of: class, "
        "deprecated, deprecatedSizes, description, displayName, features, icon, matrix, prefix, ratio, sizes, spec, "
        "variants, version"]


def test_a_series_file_that_is_a_list_is_refused_whole():
    assert problems(SERIES, "- prefix: u\n", "series/u.yaml") == ["series/u.yaml:1:1: expected a mapping, got a list"]


def test_a_deprecation_and_deprecated_sizes_hold_their_values_to_their_forms():
    # jsonschema visits the sizes of deprecatedSizes in no fixed order; reports sort problems by line and column
    assert sorted(series(more="deprecated: {since: 'v 1', replacement: U1}\n"
                              "deprecatedSizes: {Medium: true, large: {replacement: x..y}, small: yes please}\n")) == [
        "series/u.yaml:8:21: deprecated.since: expected a catalog release such as v1.3.0, got 'v 1'",
        "series/u.yaml:8:41: deprecated.replacement: expected a series name such as u1, got 'U1'",
        "series/u.yaml:9:19: deprecatedSizes.Medium: expected a size of the series as its names end, such as medium "
        "or medium1gi, got 'Medium'",
        "series/u.yaml:9:54: deprecatedSizes.large.replacement: expected an object name of lower-case letters, "
        "digits, '-' and '.' such as u1.medium, got 'x..y'",
        "series/u.yaml:9:68: deprecatedSizes.small: expected true, false or a mapping with since and replacement, "
        "got 'yes please'",
    ]
    assert series(more="deprecated: {}\ndeprecatedSizes: {medium: {since: v1, replacment: u1.large}}\n") == [
        "series/u.yaml:8:13: deprecated: expected at least one entry, got an empty mapping",
        "series/u.yaml:9:39: deprecatedSizes.medium.replacment: unknown key 'replacment' in a size's deprecation; "
        "did you mean 'replacement'?",
    ]


def test_retired_names_are_held_to_their_form():
    assert problems(CATALOG, """
        vendor: a
        version: b
        retired:
          instancetypes:
            Bad: {since: v1}
            ok.one: {replacement: u1.small}
          services: {}
        """, "catalog.yaml") == [
        "catalog.yaml:5:5: retired.instancetypes.Bad: expected an object name of lower-case letters, digits, '-' "
        "and '.' such as u1.medium, got 'Bad'",
        "catalog.yaml:6:5: retired.instancetypes.ok.one: missing required key 'since'",
        "catalog.yaml:7:3: retired.services: unknown key 'services'; expected one of: instancetypes, preferences",
    ]
