"""Every kind of input file is explained by the one explainer, in its words.

Each case writes one file of a kind into a copy of the built-in catalog with three
mistakes, an unknown key, a missing required key and a value of the wrong type, and
reads the catalog through the loader that reads that kind in a build. The problems
come back located, one per mistake, in the explainer's words (source/inputcheck.py):
"unknown key 'x' (did you mean 'y'?)", "missing required key 'x'", "expected a whole
number, got 1.0". In family and trait files an unknown key's message names the
mapping ("in a family file", "in preference 'alpine'", "in a trait"): the words these
files had before they had a schema, which tests/test_load_traits.py and tests/cases/broken/
quote. The schemas carry those words (source/formats/preferences.py) and the same
explainer applies them.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.load.catalog import load_catalog
from generator.load.overlays import load_overlay
from generator.load.preferences import read_preference_catalog
from generator.problems import sort_problems
from generator.source import formats
from generator.tools.refs.places import load_places
from tests.helpers import copy_catalog

SERIES_KEYS = "class, deprecated, deprecatedSizes, description, displayName, features, icon, matrix, prefix, ratio, " \
              "sizes, spec, variants, version"
OVERLAY_KEYS = "annotations, labels, matrices, parameters, preferences, provider, retired, series, sizes, spellings, " \
               "traits, vendor, version"

CASES = {
    "catalog.yaml": ("catalog.yaml", """
        vendor: example.com
        versoin: v1
        provider:
          displayName: Example
          documentationURL: https://example.org/docs
          supportURL: 5
        """, [
        "catalog.yaml:1:1: missing required key 'version'",
        "catalog.yaml:2:1: versoin: unknown key 'versoin' (did you mean 'version'?); expected one of: extends, "
        "osLabels, overlays, parameters, policy, provider, retired, spellings, vendor, version",
        "catalog.yaml:6:15: provider.supportURL: expected a string, got 5",
    ]),
    "size matrices": ("series/sizes.yaml", """
        matrices:
          standard:
            nano: {cpu: 1}
            micro: {cpu: 1, memory: 1Gi, memroy: 2Gi}
            small: 1.0
        """, [
        "series/sizes.yaml:3:5: matrices.standard.nano: missing required key 'memory'",
        "series/sizes.yaml:4:34: matrices.standard.micro.memroy: unknown key 'memroy' (did you mean 'memory'?); "
        "expected one of: cpu, memory",
        "series/sizes.yaml:5:12: matrices.standard.small: expected a whole number, got 1.0",
    ]),
    "series": ("series/u.yaml", """
        prefix: u
        version: "1"
        class: general.purpose
        displayName: General Purpose
        description: For most workloads.
        icon: icon-u
        featres: {}
        """, [
        "series/u.yaml:1:1: missing required key 'ratio'",
        "series/u.yaml:2:10: version: expected a whole number, got '1'",
        f"series/u.yaml:7:1: featres: unknown key 'featres' (did you mean 'features'?); expected one of: {SERIES_KEYS}",
    ]),
    "preference family file": ("preferences/alpine.yaml", """
        osType: linux
        iconclass: icon-alpine
        traits: rng
        """, [
        "preferences/alpine.yaml:1:1: missing required key 'preferences'",
        "preferences/alpine.yaml:2:1: iconclass: unknown key 'iconclass' in a family file; did you mean 'iconClass'?",
        "preferences/alpine.yaml:3:9: traits: expected a list, got 'rng'",
    ]),
    "preference": ("preferences/alpine.yaml", """
        osType: linux
        preferences:
          alpine:
            displayName: Alpine
            iconclass: icon-alpine
            spec: 3
        """, [
        "preferences/alpine.yaml:3:3: preferences.alpine: missing required key 'description'",
        "preferences/alpine.yaml:5:5: preferences.alpine.iconclass: unknown key 'iconclass' in preference 'alpine'; "
        "did you mean 'iconClass'?",
        "preferences/alpine.yaml:6:11: preferences.alpine.spec: expected a mapping, got 3",
    ]),
    "trait": ("preferences/traits/rng.yaml", """
        description: 5
        specs:
          devices:
            preferredRng: {}
        """, [
        "preferences/traits/rng.yaml:1:1: missing required key 'spec'",
        "preferences/traits/rng.yaml:1:14: description: expected text that is not blank, at most 65536 characters "
        "(it becomes an annotation of each object, and an object's annotations hold 256 KiB at most), got 5",
        "preferences/traits/rng.yaml:2:1: specs: unknown key 'specs' in a trait; did you mean 'spec'?",
    ]),
    "overlay": ("overlay.yaml", """
        vendr: example.com
        series:
          change:
            u:
              version: 2.0
        preferences:
          add:
            fedora.arm:
              displayName: Fedora on arm
        """, [
        f"overlay.yaml:1:1: vendr: unknown key 'vendr' (did you mean 'vendor'?); expected one of: {OVERLAY_KEYS}",
        "overlay.yaml:5:16: series.change.u.version: expected a whole number, got 2.0",
        "overlay.yaml:8:5: preferences.add.fedora.arm: missing required key 'description'",
    ]),
    "citgen refs configuration": ("refs.yaml", """
        name:
          - preference=ConfigMap/forklift-*:data.*
        names:
          - family: preferences
            kind: ConfigMap
            path: data.*
          - instancetype=VMInstance.apps.cozystack.io
        """, [
        "refs.yaml:1:1: name: unknown key 'name' (did you mean 'names'?); expected one of: names",
        "refs.yaml:4:13: names[0].family: expected one of instancetype, preference, got 'preferences'",
        "refs.yaml:7:5: names[1]: 'instancetype=VMInstance.apps.cozystack.io': no ':' before the path; expected "
        "FAMILY=KIND[.GROUP][/NAME]:PATH, such as preference=ConfigMap/forklift-*-osmap:data.*",
    ]),
}


def explained(root: Path, file: str) -> list[str]:
    """What the loader of ``file``'s kind reports about the catalog at ``root``, in order."""
    if file == "refs.yaml":
        with pytest.raises(InputError) as caught:
            load_places(root / file, file)
        return [str(p) for p in caught.value.problems]
    if file == "overlay.yaml":
        with pytest.raises(InputError) as caught:
            load_overlay(Path(file))
        return [str(p) for p in caught.value.problems]
    if file.startswith("preferences/"):
        return [str(p) for p in sort_problems(read_preference_catalog(root)[1])]
    with pytest.raises(InputError) as caught:
        load_catalog(root)
    return [str(p) for p in caught.value.problems]


@pytest.mark.parametrize("kind", list(CASES))
def test_each_kind_of_input_file_is_explained_in_one_wording(kind: str, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch):
    file, text, expected = CASES[kind]
    root = copy_catalog(tmp_path / "catalog")
    (root / file).write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    monkeypatch.chdir(root)  # overlays are named as given on the command line
    assert explained(root, file) == expected


def test_the_cases_cover_every_schema_of_the_formats():
    """A new kind of input file gets a case here: FILE_KINDS lists every schema a loader reads."""
    covered = {"catalog.yaml": formats.CATALOG, "size matrices": formats.SIZES, "series": formats.SERIES,
               "preference family file": formats.FAMILY, "preference": formats.FAMILY, "trait": formats.TRAIT,
               "overlay": formats.OVERLAY, "citgen refs configuration": formats.REFS_CONFIG}
    assert set(covered) == set(CASES)
    assert {id(schema) for schema in covered.values()} == {id(schema) for schema in formats.FILE_KINDS.values()}


# --------------------------------------------------------------------------- how a value and a count are said


def test_a_value_with_a_control_character_shows_it_escaped_once():
    from generator.source.inputcheck import describe

    assert describe(" \t ") == "' \\t '"  # read: ' \t ', a tab between two spaces
    assert describe("a\\tb") == "'a\\\\tb'"  # a backslash and a t, told apart from a tab
    assert describe("\x1b[31m") == "'\\x1b[31m'"
    assert describe("it's") == '"it\'s"'


def test_a_long_value_is_cut_and_says_how_much_more_there_was():
    from generator.problems import EXCERPT
    from generator.source.inputcheck import describe

    assert describe("x" * EXCERPT) == repr("x" * EXCERPT)
    assert describe("x" * (EXCERPT + 3)) == repr("x" * EXCERPT + "... (3 more characters)")
    assert describe("x" * (EXCERPT + 1)) == repr("x" * EXCERPT + "... (1 more character)")
    assert describe(10 ** (EXCERPT + 1)) == "1" + "0" * (EXCERPT - 1) + "... (2 more characters)"
    assert describe(10 ** EXCERPT) == "1" + "0" * (EXCERPT - 1) + "... (1 more character)"


@pytest.mark.parametrize("least, found, said", [
    (1, 0, "expected at least one entry, got an empty mapping"),
    (2, 1, "expected at least 2 entries, got 1"),
    (3, 0, "expected at least 3 entries, got 0"),
])
def test_a_mapping_with_too_few_entries_is_told_how_many_it_needs(least, found, said):
    """Private helper, tested on purpose: _at_least's message for every bound, which no format holds all of."""
    from generator.source.inputcheck import _at_least

    assert _at_least(least, found, "entry", "entries", "mapping") == said
