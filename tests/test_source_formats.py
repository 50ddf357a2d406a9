"""generator/source/formats/__init__.py: every kind of input file and its schema, in one place (FILE_KINDS).

The package is data: the schemas of catalog.py, preferences.py, overlay.py and refs.py under the
names people know the files by. Each test checks a document of a kind with the one
explainer (source/inputcheck.py): a file of each kind is accepted, a file that is no
mapping is refused by each, and the words a schema node may carry (``x-expected``,
``x-message``, ``x-in``, ``x-required``, ``x-at-key``) come out as the package's
docstring says.
"""

from __future__ import annotations

import textwrap
from typing import Any, Mapping

import pytest

from generator.source import formats
from generator.source.formats import CATALOG, FAMILY, FILE_KINDS, OVERLAY, REFS_CONFIG, SERIES, SIZES, TRAIT
from generator.source.inputcheck import schema_problems
from generator.source.yamlsrc import load_text


def problems(schema: Mapping[str, Any], text: str, file: str = "f.yaml") -> list[str]:
    """What the explainer says about ``text`` (dedented) read as ``file`` against ``schema``."""
    document = load_text(textwrap.dedent(text).lstrip("\n"), file)
    return [str(p) for p in schema_problems(document, schema)]


#: A file of each kind that its format accepts, by the kind's name in FILE_KINDS.
ACCEPTED = {
    "catalog.yaml": "vendor: example.com\nversion: v1\n",
    "size matrices (series/sizes.yaml)": "matrices: {standard: {small: 1, large: {cpu: 4, memory: 8Gi}}}\n",
    "series (series/*.yaml)": "prefix: u\nversion: 1\nclass: general.purpose\ndisplayName: U\ndescription: d\n"
                              "icon: icon-u\nratio: '1:4'\n",
    "preference family (preferences/*.yaml)": "preferences: {fedora: {description: Fedora Linux.}}\n",
    "trait (preferences/traits/*.yaml)": "description: Random.\nspec: {devices: {preferredRng: {}}}\n",
    "overlay": "vendor: example.com\nseries: {drop: [u]}\n",
    "citgen refs configuration": "names: ['preference=ConfigMap/osmap:data.*', {family: instancetype, kind: VMInstance, "
                                 "path: spec.instanceType}]\n",
}


def test_the_kinds_of_input_file_are_named_as_people_know_them_in_order():
    assert list(FILE_KINDS) == [
        "catalog.yaml",
        "size matrices (series/sizes.yaml)",
        "series (series/*.yaml)",
        "preference family (preferences/*.yaml)",
        "trait (preferences/traits/*.yaml)",
        "overlay",
        "citgen refs configuration",
    ]


def test_each_kind_is_the_schema_its_module_holds():
    from generator.source.formats import catalog, overlay, preferences, refs

    assert [id(schema) for schema in FILE_KINDS.values()] == [
        id(catalog.CATALOG), id(catalog.SIZES), id(catalog.SERIES), id(preferences.FAMILY), id(preferences.TRAIT),
        id(overlay.OVERLAY), id(refs.REFS_CONFIG)]


def test_the_package_exports_the_schemas_and_the_table_of_kinds():
    assert sorted(formats.__all__) == ["CATALOG", "FAMILY", "FILE_KINDS", "OVERLAY", "REFS_CONFIG", "SERIES", "SIZES",
                                       "TRAIT"]
    exported = {name: getattr(formats, name) for name in formats.__all__}
    assert exported == {"CATALOG": CATALOG, "FAMILY": FAMILY, "FILE_KINDS": FILE_KINDS, "OVERLAY": OVERLAY,
                        "REFS_CONFIG": REFS_CONFIG, "SERIES": SERIES, "SIZES": SIZES, "TRAIT": TRAIT}
    assert [id(exported[name]) for name in ("CATALOG", "SIZES", "SERIES", "FAMILY", "TRAIT", "OVERLAY",
                                            "REFS_CONFIG")] == [
        id(schema) for schema in FILE_KINDS.values()]


@pytest.mark.parametrize("kind", list(ACCEPTED))
def test_a_file_of_each_kind_is_accepted(kind: str):
    assert problems(FILE_KINDS[kind], ACCEPTED[kind]) == []


@pytest.mark.parametrize("kind", list(FILE_KINDS))
def test_a_file_of_any_kind_that_is_a_list_is_refused_whole(kind: str):
    assert problems(FILE_KINDS[kind], "- a\n") == ["f.yaml:1:1: expected a mapping, got a list"]


@pytest.mark.parametrize("kind, text, message", [
    ("catalog.yaml", "vendor: x\nversion: v1\nvendorr: y\n",
     "f.yaml:3:1: vendorr: unknown key 'vendorr' (did you mean 'vendor'?); expected one of: extends, osLabels, "
     "overlays, parameters, policy, provider, retired, spellings, vendor, version"),
    ("size matrices (series/sizes.yaml)", "matrices: {s: {small: 1}}\nmatrix: 1\n",
     "f.yaml:2:1: matrix: unknown key 'matrix' (did you mean 'matrices'?); expected one of: matrices"),
    ("preference family (preferences/*.yaml)", "preferences: {a: {description: d}}\nostype: linux\n",
     "f.yaml:2:1: ostype: unknown key 'ostype' in a family file; did you mean 'osType'?"),
    ("trait (preferences/traits/*.yaml)", "description: d\nspec: {a: 1}\ntag: [x]\n",
     "f.yaml:3:1: tag: unknown key 'tag' in a trait; did you mean 'tags'?"),
    ("overlay", "seires: {drop: [u]}\n",
     "f.yaml:1:1: seires: unknown key 'seires' (did you mean 'series'?); expected one of: annotations, labels, "
     "matrices, parameters, preferences, provider, retired, series, sizes, spellings, traits, vendor, version"),
])
def test_an_unknown_key_is_named_with_the_closest_key_in_the_mapping_named_by_x_in(kind: str, text: str,
                                                                                   message: str):
    assert problems(FILE_KINDS[kind], text) == [message]


def test_x_expected_says_what_a_value_must_be_whatever_check_it_fails():
    kind = FILE_KINDS["series (series/*.yaml)"]
    base = ACCEPTED["series (series/*.yaml)"]
    words = 'expected a vCPU:memory ratio in GiB such as "1:4"'
    assert problems(kind, base.replace("'1:4'", "'1:0'")) == [f"f.yaml:7:8: ratio: {words}, got '1:0'"]
    assert problems(kind, base.replace("'1:4'", "4")) == [f"f.yaml:7:8: ratio: {words}, got 4"]


def test_x_message_fills_in_the_name_and_the_kind_of_the_value():
    assert problems(FAMILY, "osType: 5\npreferences: {a: {description: d}}\n") == [
        "f.yaml:1:9: osType: osType must be a non-empty string, got a number"]


def test_x_message_by_failed_keyword_fills_in_the_length_and_x_at_key_reports_at_the_key():
    assert problems(FAMILY, f"preferences:\n  {'a' * 254}: {{description: d}}\n") == [
        f"f.yaml:2:3: preferences.{'a' * 254}: preference name is 254 characters long; Kubernetes allows at most 253"]


def test_x_message_may_quote_what_the_explainer_would_have_said():
    assert problems(FAMILY, "requirements: {memory: 0Gi}\npreferences: {a: {description: d}}\n") == [
        "f.yaml:1:24: requirements.memory: memory: expected a memory quantity greater than zero, got '0Gi'"]


def test_x_required_words_a_missing_key_in_its_own_words_and_others_keep_the_one_wording():
    assert problems(TRAIT, "{}\n") == [
        "f.yaml:1:1: a trait needs a one-line description (a non-empty string)",
        "f.yaml:1:1: missing required key 'spec'",
    ]


@pytest.mark.parametrize("schema, required", [
    (CATALOG, ["vendor", "version"]),
    (SIZES, ["matrices"]),
    (SERIES, ["prefix", "version", "class", "displayName", "description", "icon", "ratio"]),
    (FAMILY, ["preferences"]),
])
def test_an_empty_file_is_refused_with_each_key_its_kind_requires(schema: Mapping[str, Any], required: list[str]):
    assert problems(schema, "{}\n") == [f"f.yaml:1:1: missing required key '{key}'" for key in required]


def test_an_empty_overlay_changes_nothing_and_is_accepted():
    assert problems(OVERLAY, "{}\n") == []
