"""generator/source/yamlsrc.py: reading YAML into plain values, with every key path located, strictly.

What a document reads as (scalars, tags, numbers, keys), where each value and key
is written (the source map), what is refused and with which message at which line
and column, and the stream functions: iter_documents, load_text, load_file and
load_stream_fast. Anchors, aliases, merge keys, alias growth and nesting depth are
in test_source_yamlsrc_aliases.py.

Private helpers, tested on purpose: _shown_tag and _syntax_problem word what libyaml reports, for
errors no document makes on every libyaml; _resolved is emptied as in a fresh process.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import pytest
import yaml
from yaml.error import Mark

from generator.errors import InputError
from generator.problems import Location, Problem
from generator.source.inputfiles import Limits, limited
from generator.source.yamlclasses import Loader
from generator.source.yamlsrc import (ALLOWED_TAGS, Document, SourceMap, _shown_tag, _syntax_problem, iter_documents,
                                      load_file, load_stream_fast, load_text)

TAGS = "citgen reads only plain YAML values (tags !!str, !!int, !!float, !!bool, !!null, !!map, !!seq)"
DECIMAL = "write the number in decimal digits (10, not 010, 0x0a or 1_0), or quote it if it is text"
FLOAT = "is not a decimal number (YAML 1.1 reads '_' and ':' in numbers); write it as 1.5 or 1.5e+3, or quote it if " \
        "it is text"
NO_JSON = "is no number JSON can hold, so no Kubernetes object can carry it; write a finite number, or quote it if " \
          "it is text"


def read(text: str) -> Document:
    """The one document of ``text``, read with its source map."""
    [doc] = iter_documents(text, "f.yaml")
    return doc


def both(text: str) -> Any:
    """The value of ``text``'s one document, which both readers must agree on."""
    value = read(text).data
    assert load_stream_fast(text, "f.yaml") == ([] if value is None else [value])
    return value


def refused(text: str, fast: bool = False) -> list[str]:
    """What reading ``text`` is refused with, one line a problem."""
    with pytest.raises(InputError) as caught:
        if fast:
            load_stream_fast(text, "f.yaml")
        else:
            list(iter_documents(text, "f.yaml"))
    return [str(p) for p in caught.value.problems]


def refused_by_both(text: str) -> list[str]:
    """The refusal of ``text`` by the located reader; the fast reader must refuse it with the same lines."""
    lines = refused(text)
    assert refused(text, fast=True) == lines
    return lines


def refused_load(text: str) -> list[str]:
    """What load_text refuses ``text`` with, one line a problem."""
    with pytest.raises(InputError) as caught:
        load_text(text, "f.yaml")
    return [str(p) for p in caught.value.problems]


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


# --------------------------------------------------------------------------- plain values


def test_a_document_reads_as_plain_values():
    assert both("a: [x, 'y', \"z\"]\nb: {c: 1, d: 1.5, e: true, f: null, g: ~, h: ''}\ni: 2024-01-02\n") == {
        "a": ["x", "y", "z"], "b": {"c": 1, "d": 1.5, "e": True, "f": None, "g": None, "h": ""},
        "i": datetime.date(2024, 1, 2)}


def test_a_document_may_be_a_scalar_or_a_list():
    assert both("just text") == "just text"
    assert both("5") == 5
    assert both("- a\n- [b]\n- {c: d}\n") == ["a", ["b"], {"c": "d"}]


def test_the_keys_of_a_mapping_keep_their_written_order():
    assert list(both("z: 1\na: 2\nm: 3\n")) == ["z", "a", "m"]


@pytest.mark.parametrize("text, value", [
    ("0", 0), ("7", 7), ("10", 10), ("-5", -5), ("+5", 5), ("-0", 0), ("123456789", 123456789),
    ("1.5", 1.5), (".5", 0.5), ("1.", 1.0), ("-1.5", -1.5), ("+1.5", 1.5), ("1.5e+3", 1500.0), ("1.5E-1", 0.15),
    ("1e3", "1e3"), ("08", "08"), ("1.2.3", "1.2.3"), ("0o17", "0o17"),
    ("true", True), ("False", False), ("yes", True), ("off", False), ("null", None), ("~", None), ("", None),
])
def test_a_plain_scalar_reads_as_yaml_1_1_types_it(text: str, value: Any):
    assert both(f"v: {text}\n") == {"v": value}
    assert type(both(f"v: {text}\n")["v"]) is type(value)


@pytest.mark.parametrize("text, reading", [
    ("010", "8"), ("01", "1"), ("00", "0"), ("0x1A", "26"), ("1_0", "10"), ("1:30", "90"), ("0b101", "5"),
    ("-010", "-8"), ("+0x0a", "10"),
])
def test_an_integer_that_is_not_written_in_decimal_digits_is_refused(text: str, reading: str):
    assert refused_by_both(f"v: {text}\n") == [
        f"f.yaml:1:4: {text!r} is not a decimal number: YAML 1.1 would read it as {reading}; {DECIMAL}"]


@pytest.mark.parametrize("text", ["١٢", "０１", "²"], ids=["arabic-indic", "fullwidth", "superscript"])
def test_an_integer_tag_on_digits_of_other_scripts_is_refused_as_no_decimal_number(text: str):
    # str.isdigit() knows these for digits, and int() reads the first two: 12 and 1
    assert refused_by_both(f"v: !!int {text}\n") == [
        f"f.yaml:1:4: {text!r} is not a decimal number: YAML 1.1 would read it as {text}; {DECIMAL}"]


@pytest.mark.parametrize("text", [".inf", "-.Inf", "+.INF", ".NaN", ".nan"])
def test_infinity_and_not_a_number_are_refused(text: str):
    assert refused_by_both(f"v: {text}\n") == [f"f.yaml:1:4: {text!r} {NO_JSON}"]


@pytest.mark.parametrize("text", ["1_0.5", "1:30.5", "1_000.0"])
def test_a_float_with_underscores_or_colons_is_refused(text: str):
    assert refused_by_both(f"v: {text}\n") == [f"f.yaml:1:4: {text!r} {FLOAT}"]


def test_every_unclear_number_of_a_document_is_reported_where_it_is():
    assert refused_by_both("a:\n  - 010\n  - 1\n  - {b: .inf}\n") == [
        f"f.yaml:2:5: '010' is not a decimal number: YAML 1.1 would read it as 8; {DECIMAL}",
        f"f.yaml:4:9: '.inf' {NO_JSON}"]


def test_a_long_unclear_number_is_quoted_as_an_excerpt():
    text = "1_" * 50 + "0"
    [line] = refused(f"v: {text}\n")
    assert line.startswith(f"f.yaml:1:4: '{text[:60]}... (41 more characters)' is not a decimal number: YAML 1.1 "
                           "would read it as ")


WHOLE = "expected a whole number of at most 40 digits"
NUMBER = "expected a number of at most 40 digits and an exponent from -99 to 99"


@pytest.mark.parametrize("text, value", [
    ("9" * 40, 10 ** 40 - 1), ("-" + "9" * 40, 1 - 10 ** 40), ("9" * 20 + "." + "9" * 20, 1e20),
    ("1.5e+99", 1.5e99), ("1.5e-99", 1.5e-99), ("9" * 39 + ".9e+99", 1e138),
    ("0." + "0" * 38 + "1e-99", 1e-138),
])
def test_a_number_at_the_bounds_is_read(text: str, value: Any):
    assert both(f"v: {text}\n") == {"v": value}


@pytest.mark.parametrize("text, message", [
    ("9" * 41, WHOLE), ("-" + "9" * 41, WHOLE), ("!!int " + "9" * 41, WHOLE),
    ("9" * 21 + "." + "9" * 20, NUMBER), ("1.0e+100", NUMBER), ("1.0e-100", NUMBER), ("!!float 1e400", NUMBER),
    ("1.0e+309", NUMBER),  # past float64: PyYAML would read infinity, Kubernetes' reader the text
])
def test_a_number_past_the_bounds_is_refused_where_it_is_written(text: str, message: str):
    written = text.rpartition(" ")[2]
    assert refused_by_both(f"v: {text}\n") == [f"f.yaml:1:4: {message}, got {written!r}; quote it if it is text"]


@pytest.mark.parametrize("text, message", [
    ("9" * 1_000_000, WHOLE), ("9" * 1_000_000 + ".5", NUMBER), ("1.0e+" + "9" * 1_000_000, NUMBER),
    ("!!float 1e-" + "9" * 1_000_000, NUMBER), ("0." + "0" * 1_000_000 + "1", NUMBER),
], ids=["digits", "fraction", "exponent", "tagged", "zeros"])
def test_a_million_digits_are_refused_before_they_are_read(text: str, message: str):
    # finishing is the proof; int() of these would refuse in Python's words, float() make 0 or infinity
    [line] = refused(f"v: {text}\n")
    assert line.startswith(f"f.yaml:1:4: {message}, got '{text.rpartition(' ')[2][:60]}... (")


@pytest.mark.parametrize("text", ["0x" + "f" * 5000, "0b" + "1" * 20_000, "1" + ":30" * 300_000, "0" + "7" * 1_000_000],
                         ids=["hex", "binary", "base 60", "octal"])
def test_a_long_number_yaml_1_1_reads_otherwise_is_refused_without_working_out_its_reading(text: str):
    # YAML 1.1's reading of them has more digits than Python prints (or takes long to make)
    [line] = refused(f"v: {text}\n")
    assert line.startswith(f"f.yaml:1:4: '{text[:60]}... (")
    assert line.endswith(f" is not a decimal number: YAML 1.1 would read it as another number; {DECIMAL}")


def test_a_key_of_more_than_40_digits_is_refused_where_it_is_written():
    assert refused("? " + "9" * 41 + "\n: v\n")[0] == f"f.yaml:1:3: {WHOLE}, got {'9' * 41!r}; quote it if it is text"


def test_the_same_scalar_reads_the_same_every_time():
    assert both("- 12345\n- 12345\n- '12345'\n- 12345\n") == [12345, 12345, "12345", 12345]
    assert both("- 12345\n") == [12345]


def test_scalars_read_for_the_first_time_are_resolved_by_their_text_and_remembered(monkeypatch):
    monkeypatch.setattr(Loader, "_resolved", {})  # as in a fresh process: nothing remembered yet
    assert both("a: 12\nb: 1.5\nc: true\nd: ~\ne: text\nf: '12'\ng: 2024-01-02\nh: <<\ni: =\n") == {
        "a": 12, "b": 1.5, "c": True, "d": None, "e": "text", "f": "12", "g": datetime.date(2024, 1, 2), "h": "<<",
        "i": "="}
    assert Loader.remembered()[("12", (True, False))] == "tag:yaml.org,2002:int"
    assert Loader.remembered()[("12", (False, True))] == "tag:yaml.org,2002:str"


def test_equals_and_merge_signs_outside_a_key_read_as_text():
    assert both("= : =\nb: <<\nc: [<<, =]\n") == {"=": "=", "b": "<<", "c": ["<<", "="]}
    assert both("<<") == "<<"
    assert both("=") == "="


# --------------------------------------------------------------------------- tags


def test_the_plain_json_tags_read_as_their_types():
    assert both("a: !!str 1\nb: !!int '2'\nc: !!float 3\nd: !!bool true\ne: !!null ''\nf: !!map {x: 1}\n"
                "g: !!seq [1]\nh: !!str\n") == {
        "a": "1", "b": 2, "c": 3.0, "d": True, "e": None, "f": {"x": 1}, "g": [1], "h": ""}


def test_the_non_specific_tag_reads_a_value_as_it_reads_untagged():
    assert both("a: ! 12\nb: ! [1]\nc: ! {d: true}\n") == {"a": 12, "b": [1], "c": {"d": True}}


def test_tags_beyond_plain_values_are_refused_where_they_are_written():
    assert refused_by_both("a: !custom x\nb: !!map y\nc: !!python/object/apply:os.system [touch]\n"
                           "d: !!set {x: null}\ne: !!seq {b: 1}\nf: !!map [1]\ng: !x [1]\nh: !!binary aGk=\n") == [
        f"f.yaml:1:4: unknown tag '!custom'; {TAGS}",
        f"f.yaml:2:4: tag '!!map' cannot be used on a scalar; {TAGS}",
        f"f.yaml:3:4: unknown tag '!!python/object/apply:os.system'; {TAGS}",
        f"f.yaml:4:4: unknown tag '!!set'; {TAGS}",
        f"f.yaml:5:4: tag '!!seq' cannot be used on a mapping; {TAGS}",
        f"f.yaml:6:4: tag '!!map' cannot be used on a list; {TAGS}",
        f"f.yaml:7:4: unknown tag '!x'; {TAGS}",
        f"f.yaml:8:4: unknown tag '!!binary'; {TAGS}",
    ]


def test_a_refused_tag_is_not_constructed_and_the_rest_of_the_document_is_still_checked():
    assert refused_by_both("a: !!python/name:os.system u\nb: 010\n") == [
        f"f.yaml:1:4: unknown tag '!!python/name:os.system'; {TAGS}",
        f"f.yaml:2:4: '010' is not a decimal number: YAML 1.1 would read it as 8; {DECIMAL}"]


def test_a_refused_tag_on_a_mapping_key_is_reported_once():
    assert refused_by_both("!custom k: v\n") == [f"f.yaml:1:1: unknown tag '!custom'; {TAGS}"]


def test_a_scalar_its_tag_cannot_build_is_refused():
    assert refused_by_both("a: !!bool maybe\nb: 2024-13-45\nc: !!int abc\nd: !!float abc\n") == [
        "f.yaml:1:4: cannot read 'maybe' as !!bool; quote it if it is text",
        "f.yaml:2:4: cannot read '2024-13-45' as !!timestamp; quote it if it is text",
        f"f.yaml:3:4: 'abc' is not a decimal number: YAML 1.1 would read it as abc; {DECIMAL}",
        f"f.yaml:4:4: 'abc' {FLOAT}",
    ]


def test_the_tags_allowed_are_listed_as_they_are_written():
    assert ALLOWED_TAGS == "!!str, !!int, !!float, !!bool, !!null, !!map, !!seq"


@pytest.mark.parametrize("tag, shown", [
    ("tag:yaml.org,2002:set", "!!set"),
    ("tag:yaml.org,2002:python/name:os.system", "!!python/name:os.system"),
    ("!custom", "!custom"),
    ("tag:example.com,2000:app/x", "tag:example.com,2000:app/x"),
    ("!" + "x" * 100, "!" + "x" * 59 + "... (41 more characters)"),
])
def test_a_tag_is_shown_as_it_is_written(tag: str, shown: str):
    assert _shown_tag(tag) == shown


# --------------------------------------------------------------------------- keys


def test_a_key_that_does_not_read_as_text_is_refused_with_how_to_quote_it():
    assert refused_by_both("1: x\ntrue: y\nnull: z\n1.5: w\n2024-01-01: v\n~: u\n'ok': t\n") == [
        "f.yaml:1:1: mapping key '1' is read as a number, not text; write it in quotes ('1')",
        "f.yaml:2:1: mapping key 'true' is read as a boolean, not text; write it in quotes ('true')",
        "f.yaml:3:1: mapping key 'null' is read as null, not text; write it in quotes ('null')",
        "f.yaml:4:1: mapping key '1.5' is read as a number, not text; write it in quotes ('1.5')",
        "f.yaml:5:1: mapping key '2024-01-01' is read as date, not text; write it in quotes ('2024-01-01')",
        "f.yaml:6:1: mapping key '~' is read as null, not text; write it in quotes ('~')",
    ]


def test_a_refused_key_in_a_nested_mapping_is_located_at_the_mapping_it_is_in():
    assert refused("a:\n  b:\n    2: x\n") == [
        "f.yaml:3:5: a.b: mapping key '2' is read as a number, not text; write it in quotes ('2')"]
    assert refused("a:\n  b:\n    2: x\n", fast=True) == [
        "f.yaml:3:5: mapping key '2' is read as a number, not text; write it in quotes ('2')"]


def test_a_key_that_is_an_unclear_number_is_refused_as_such_once():
    assert refused_by_both("010: x\n") == [
        f"f.yaml:1:1: '010' is not a decimal number: YAML 1.1 would read it as 8; {DECIMAL}",
        "f.yaml:1:1: mapping key '010' is read as null, not text; write it in quotes ('010')"]


def test_quoted_keys_that_look_like_numbers_are_text():
    assert both("'1': x\n\"true\": y\n!!str 2: z\n") == {"1": "x", "true": "y", "2": "z"}


def test_a_duplicate_key_is_refused_at_the_second_with_the_line_of_the_first():
    assert refused("a: 1\nb: 2\na: 3\nc: {d: 1, d: 2}\n") == [
        "f.yaml:3:1: a: duplicate key 'a' (first at line 1)",
        "f.yaml:4:11: c.d: duplicate key 'd' (first at line 4)"]


def test_the_fast_reader_refuses_a_duplicate_key_without_the_line_of_the_first():
    assert refused("a: 1\nb: 2\na: 3\nc: {d: 1, d: 2}\n", fast=True) == [
        "f.yaml:3:1: a: duplicate key 'a'",
        "f.yaml:4:11: d: duplicate key 'd'"]


def test_a_key_written_three_times_is_refused_twice_with_the_first_line():
    assert refused("a: 1\na: 2\na: 3\n") == [
        "f.yaml:2:1: a: duplicate key 'a' (first at line 1)",
        "f.yaml:3:1: a: duplicate key 'a' (first at line 1)"]


def test_the_same_key_in_two_mappings_is_no_duplicate():
    assert both("a: {k: 1}\nb: {k: 2}\nk: 3\n") == {"a": {"k": 1}, "b": {"k": 2}, "k": 3}


def test_a_duplicate_key_inside_the_value_of_a_refused_key_is_refused_without_a_first_line():
    assert refused_by_both("a: 1\n1:\n  a: 1\n  a: 2\n") == [
        "f.yaml:2:1: mapping key '1' is read as a number, not text; write it in quotes ('1')",
        "f.yaml:4:3: a: duplicate key 'a'"]


def test_a_long_duplicate_key_is_quoted_as_an_excerpt():
    key = "k" * 100
    assert refused(f"{key}: 1\n{key}: 2\n") == [
        f"f.yaml:2:1: {key}: duplicate key '{'k' * 60}... (40 more characters)' (first at line 1)"]


def test_a_list_or_mapping_as_a_key_is_refused_and_its_own_problems_reported():
    text = "a:\n  ? [1]\n  : x\n  {b: !c d}: y\n"
    assert refused(text) == [
        "f.yaml:2:5: a: a mapping key must be a plain value, not a list or mapping",
        "f.yaml:4:3: a: a mapping key must be a plain value, not a list or mapping",
        f"f.yaml:4:7: unknown tag '!c'; {TAGS}"]
    assert refused(text, fast=True) == [
        "f.yaml:2:5: a mapping key must be a plain value, not a list or mapping",
        "f.yaml:4:3: a mapping key must be a plain value, not a list or mapping",
        f"f.yaml:4:7: unknown tag '!c'; {TAGS}"]


def test_a_list_as_a_key_of_the_document_is_refused():
    assert refused_by_both("? [1]\n: x\n") == ["f.yaml:1:3: a mapping key must be a plain value, not a list or mapping"]


# --------------------------------------------------------------------------- where values and keys are written


def test_every_value_and_key_is_located_by_line_and_column():
    doc = read("a: [x, y, z]\nb:\n  c: 1\n  d:\n    - {e: f}\n")
    assert doc.source.values == {(): (1, 1), ("a",): (1, 4), ("a", 0): (1, 5), ("a", 1): (1, 8), ("a", 2): (1, 11),
                                 ("b",): (3, 3),
                                 ("b", "c"): (3, 6), ("b", "d"): (5, 5), ("b", "d", 0): (5, 7),
                                 ("b", "d", 0, "e"): (5, 11)}
    assert doc.source.keys == {("a",): (1, 1), ("b",): (2, 1), ("b", "c"): (3, 3), ("b", "d"): (4, 3),
                               ("b", "d", 0, "e"): (5, 8)}
    assert doc.source.file == "f.yaml"


def test_a_source_map_locates_a_path_at_its_value_or_its_key():
    source = SourceMap("f.yaml", values={(): (1, 1), ("a",): (1, 4), ("a", "b"): (2, 6)},
                       keys={("a",): (1, 1), ("a", "b"): (2, 3)})
    assert source.locate(("a", "b")) == Location("f.yaml", 2, 6, ("a", "b"))
    assert source.locate(("a", "b"), key=True) == Location("f.yaml", 2, 3, ("a", "b"))
    assert source.locate(()) == Location("f.yaml", 1, 1, ())


def test_a_source_map_locates_an_unwritten_path_at_its_nearest_written_ancestor():
    source = SourceMap("f.yaml", values={(): (1, 1), ("a",): (1, 4)}, keys={("a",): (1, 1)})
    assert source.locate(("a", "x", 3)) == Location("f.yaml", 1, 4, ("a", "x", 3))
    assert source.locate(("a", "x", 3), key=True) == Location("f.yaml", 1, 1, ("a", "x", 3))
    assert source.locate(("z",)) == Location("f.yaml", 1, 1, ("z",))
    assert source.locate(("z",), key=True) == Location("f.yaml", 1, 1, ("z",))


def test_a_key_without_a_key_mark_is_located_at_its_value():
    source = SourceMap("f.yaml", values={(): (1, 1), ("a",): (1, 4), ("a", 0): (2, 5)}, keys={("a",): (1, 1)})
    assert source.locate(("a", 0), key=True) == Location("f.yaml", 2, 5, ("a", 0))
    assert source.locate(("a", 0, "x"), key=True) == Location("f.yaml", 2, 5, ("a", 0, "x"))


def test_an_empty_source_map_locates_only_the_file():
    assert SourceMap("f.yaml").locate(("a", 1)) == Location("f.yaml", None, None, ("a", 1))
    assert SourceMap("f.yaml").locate((), key=True) == Location("f.yaml", None, None, ())


def test_a_source_map_makes_a_located_problem():
    source = read("a:\n  b: 1\n").source
    assert source.problem(("a", "b"), "wrong") == Problem(Location("f.yaml", 2, 6, ("a", "b")), "wrong")
    assert source.problem(("a", "b"), "wrong", key=True) == Problem(Location("f.yaml", 2, 3, ("a", "b")), "wrong")
    assert str(source.problem(("a", "b"), "wrong")) == "f.yaml:2:6: a.b: wrong"


# --------------------------------------------------------------------------- malformed YAML


@pytest.mark.parametrize("text, message", [
    ("a: [1\nb: 2\n", "2:2: malformed YAML: did not find expected ',' or ']' (while parsing a flow sequence)"),
    ("a: b: c\n", "1:5: malformed YAML: mapping values are not allowed in this context"),
    ("a: 'x", "1:6: malformed YAML: found unexpected end of stream (while scanning a quoted scalar)"),
    ("- a\nb: 1\n", "2:1: malformed YAML: did not find expected '-' indicator (while parsing a block collection)"),
])
def test_malformed_yaml_is_refused_where_the_parser_stopped(text: str, message: str):
    assert refused_by_both(text) == [f"f.yaml:{message}"]


def test_malformed_yaml_in_a_later_document_is_refused_after_the_earlier_ones_are_read():
    docs = iter_documents("a: 1\n---\nb: [\n", "f.yaml")
    assert next(docs).data == {"a": 1}
    with pytest.raises(InputError) as caught:
        next(docs)
    assert [str(p) for p in caught.value.problems] == [
        "f.yaml:4:1: malformed YAML: did not find expected node content (while parsing a flow node)"]


# --------------------------------------------------------------------------- text the readers of the outputs carry

ESCAPE_ONLY = "which YAML has in text only as an escape, and which kubectl kustomize refuses and Helm leaves out of " \
              "a release with its object; remove it"


@pytest.mark.parametrize("escape, char", [("\\x7F", "\x7f"), ("\\x80", "\x80"), ("\\x9F", "\x9f"),
                                          ("\\uFFFE", "\ufffe"), ("\\uFFFF", "\uffff")])
def test_text_holding_a_character_the_readers_do_not_carry_is_refused_where_it_is_written(escape: str, char: str):
    control = "the control character " if char <= "\x9f" else ""
    assert refused_by_both(f'a: 1\nb: "x{escape}y"\n') == [
        f"f.yaml:2:4: {'x' + char + 'y'!r} holds {control}U+{ord(char):04X} at character 2, {ESCAPE_ONLY}"]


def test_a_next_line_is_refused_as_the_line_break_yaml_1_1_readers_take_it_for():
    assert refused_by_both('a: "one\\Ntwo"\n') == [
        "f.yaml:1:4: 'one\\x85two' holds the control character U+0085 at character 4, a next line (NEL), which YAML "
        "1.1 readers, kubectl kustomize's and Helm's among them, take for a line break and write as a space; write "
        "\\n for a line break, or remove it"]


def test_a_key_in_a_list_or_a_long_text_is_refused_where_it_is_with_the_character_s_place():
    assert refused_by_both('- {"k\\x7F": 1}\n- ["' + "y" * 70 + '\\uFFFF"]\n') == [
        f"f.yaml:1:4: 'k\\x7f' holds the control character U+007F at character 2, {ESCAPE_ONLY}",
        f"f.yaml:2:4: '{'y' * 60}... (11 more characters)' holds U+FFFF at character 71, {ESCAPE_ONLY}"]


@pytest.mark.parametrize("text", ["tab\tand\rreturn\r\n", "bell\x07 escape\x1b[31m nul\x00", "\u2028\u2029",
                                  "\ufeff", "\u202eevil\u200f", "😀👩\u200d💻", "\ufdd0\U0001fffe\U0010ffff\ue000",
                                  "Größe 日本語", "\xa0\xff"],
                         ids=["tab and returns", "c0 controls", "separators", "bom", "bidi", "emoji", "noncharacters",
                              "letters", "latin-1"])
def test_text_the_readers_carry_is_read_as_written_whatever_its_style(text: str):
    quoted = '"' + text.encode("unicode_escape").decode("ascii").replace('"', '\\"') + '"'
    assert both(f"v: {quoted}\n") == {"v": text}
    assert both(yaml.safe_dump({"v": text}, allow_unicode=True)) == {"v": text}


def test_a_character_yaml_does_not_allow_written_as_it_is_is_refused_at_its_line_and_column():
    assert refused_by_both("a: é\nb: ü\ufffe\n") == [
        "f.yaml:2:5: malformed YAML: unacceptable character U+FFFE: control characters are not allowed"]
    assert refused_by_both("\x7f") == ["f.yaml:1:1: malformed YAML: unacceptable character U+007F: control "
                                        "characters are not allowed"]


def test_a_syntax_problem_has_the_parsers_words_context_and_place():
    mark = Mark("f", 0, 4, 7, None, None)
    error = yaml.MarkedYAMLError("while reading", None, "it broke", mark)
    assert _syntax_problem("f.yaml", error) == Problem(Location("f.yaml", 5, 8), "malformed YAML: it broke "
                                                                                   "(while reading)")
    error = yaml.MarkedYAMLError(None, None, "it broke", mark)
    assert _syntax_problem("f.yaml", error) == Problem(Location("f.yaml", 5, 8), "malformed YAML: it broke")


def test_a_syntax_problem_without_a_place_or_words_is_named_by_the_error():
    assert _syntax_problem("f.yaml", yaml.YAMLError("stream broke")) == Problem(Location("f.yaml"),
                                                                               "malformed YAML: stream broke")
    assert _syntax_problem("f.yaml", yaml.MarkedYAMLError("ctx", None, None, None)) == Problem(
        Location("f.yaml"), "malformed YAML: ctx (ctx)")


def test_a_syntax_problem_quotes_at_most_200_characters_of_the_parsers_words():
    error = yaml.MarkedYAMLError("c" * 201, None, "p" * 250, None)
    assert _syntax_problem("f.yaml", error).message == (
        f"malformed YAML: {'p' * 200}... (50 more characters) ({'c' * 200}... (1 more character))")
    error = yaml.MarkedYAMLError("c" * 200, None, "p" * 200, None)
    assert _syntax_problem("f.yaml", error).message == f"malformed YAML: {'p' * 200} ({'c' * 200})"


# --------------------------------------------------------------------------- streams of documents


def test_each_document_of_a_stream_has_its_value_source_map_and_index():
    docs = list(iter_documents("a: 1\n---\nb: 2\n--- 3\n", "f.yaml"))
    assert [(d.data, d.index) for d in docs] == [({"a": 1}, 0), ({"b": 2}, 1), (3, 2)]
    assert [d.source.values for d in docs] == [{(): (1, 1), ("a",): (1, 4)}, {(): (3, 1), ("b",): (3, 4)},
                                               {(): (4, 5)}]
    assert [d.source.file for d in docs] == ["f.yaml"] * 3


def test_an_empty_document_reads_as_none_and_an_empty_stream_has_no_documents():
    assert [(d.data, d.index) for d in iter_documents("---\n---\n---\na: 1\n", "f.yaml")] == [
        (None, 0), (None, 1), ({"a": 1}, 2)]
    assert list(iter_documents("", "f.yaml")) == []
    assert list(iter_documents("# only a comment\n", "f.yaml")) == []


def test_documents_ended_explicitly_are_read_one_by_one():
    assert [d.data for d in iter_documents("--- 1\n...\n--- 2\n...\n", "f.yaml")] == [1, 2]


def test_a_stream_may_hold_exactly_the_document_limit():
    with limited(Limits(max_documents=3)):
        assert [d.data for d in iter_documents("---\nk: 1\n" * 3, "f.yaml")] == [{"k": 1}] * 3
        assert load_stream_fast("---\nk: 1\n" * 3, "f.yaml") == [{"k": 1}] * 3


def test_a_stream_one_document_past_the_limit_is_refused_at_that_document():
    message = ("f.yaml:7:1: holds more than 3 YAML documents; raise the limit with `citgen --max-documents N` or "
               "CITGEN_MAX_DOCUMENTS if the file is right")
    with limited(Limits(max_documents=3)):
        assert refused_by_both("---\nk: 1\n" * 4) == [message]
        docs = iter_documents("---\nk: 1\n" * 4, "f.yaml")
        assert [next(docs).index for _ in range(3)] == [0, 1, 2]
        with pytest.raises(InputError):
            next(docs)


def test_empty_documents_count_towards_the_limit():
    with limited(Limits(max_documents=2)):
        assert refused_by_both("k: 1\n---\n---\n") == [
            "f.yaml:3:1: holds more than 2 YAML documents; raise the limit with `citgen --max-documents N` or "
            "CITGEN_MAX_DOCUMENTS if the file is right"]


def test_the_document_limit_is_read_when_reading_starts():
    with limited(Limits(max_documents=1)):
        docs = iter_documents("a: 1\n---\nb: 2\n", "f.yaml")
    with pytest.raises(InputError):
        list(docs)


# --------------------------------------------------------------------------- load_text, load_file, load_stream_fast


def test_load_text_reads_the_one_document_of_a_file():
    doc = load_text("a: 1\n", "series/u.yaml")
    assert (doc.data, doc.index, doc.source) == ({"a": 1}, 0, SourceMap("series/u.yaml", {(): (1, 1), ("a",): (1, 4)},
                                                                        {("a",): (1, 1)}))


def test_load_text_reads_an_empty_file_as_an_empty_mapping():
    for text in ("", "# only a comment\n"):
        doc = load_text(text, "series/u.yaml")
        assert (doc.data, doc.index, doc.source) == ({}, 0, SourceMap("series/u.yaml"))


def test_load_text_reads_a_lone_separator_as_an_empty_document():
    assert load_text("---\n", "f.yaml").data is None


def test_load_text_refuses_a_second_document_where_it_starts_without_reading_further():
    assert refused_load("a: 1\n---\nb: 2\n---\n[") == ["f.yaml:3:1: expected one YAML document, found several"]
    assert refused_load("a: 1\n--- \n\n  b: 2\n") == ["f.yaml:4:3: expected one YAML document, found several"]
    assert refused_load("a: 1\n---\n") == ["f.yaml:3:1: expected one YAML document, found several"]


def test_load_text_refuses_what_the_reader_refuses():
    assert refused_load("a: 1\na: 2\n") == ["f.yaml:2:1: a: duplicate key 'a' (first at line 1)"]


def test_load_file_names_the_file_as_told(tmp_path: Path):
    (tmp_path / "u.yaml").write_text("a: [1]\n")
    doc = load_file(tmp_path / "u.yaml", "series/u.yaml")
    assert (doc.data, doc.source.file, doc.source.values[("a", 0)]) == ({"a": [1]}, "series/u.yaml", (1, 5))
    (tmp_path / "v.yaml").write_text("a: 1\na: 2\n")
    with pytest.raises(InputError) as caught:
        load_file(tmp_path / "v.yaml", "series/v.yaml")
    assert [str(p) for p in caught.value.problems] == ["series/v.yaml:2:1: a: duplicate key 'a' (first at line 1)"]


def test_load_file_names_the_file_by_its_path_without_a_display_name(tmp_path: Path):
    (tmp_path / "u.yaml").write_text("a: 1\r\na: 2\r\n")
    with pytest.raises(InputError) as caught:
        load_file(tmp_path / "u.yaml")
    assert [str(p) for p in caught.value.problems] == [f"{tmp_path}/u.yaml:2:1: a: duplicate key 'a' (first at line 1)"]
    assert load_file(write(tmp_path / "w.yaml", "a: 1\n")).source.file == f"{tmp_path}/w.yaml"


def test_load_file_refuses_a_link_out_of_the_catalog(tmp_path: Path):
    (tmp_path / "catalog").mkdir()
    (tmp_path / "catalog" / "u.yaml").symlink_to(write(tmp_path / "secret.yaml", "a: 1\n"))
    with pytest.raises(InputError) as caught:
        load_file(tmp_path / "catalog" / "u.yaml", "u.yaml", within=tmp_path / "catalog")
    assert [str(p) for p in caught.value.problems] == [
        "u.yaml: is a symbolic link to a file outside the catalog directory; citgen reads only files inside the "
        "catalog"]
    assert load_file(tmp_path / "catalog" / "u.yaml", "u.yaml").data == {"a": 1}


def test_load_file_is_bounded_by_the_size_limit(tmp_path: Path):
    path = write(tmp_path / "u.yaml", "a: 12\n")
    with limited(Limits(max_file_size=5)):
        with pytest.raises(InputError) as caught:
            load_file(path, "u.yaml")
    assert [str(p) for p in caught.value.problems] == [
        "u.yaml: is larger than the 5 bytes limit on input files; raise it with `citgen --max-file-size SIZE` or "
        "CITGEN_MAX_FILE_SIZE if the file is right"]


def test_load_stream_fast_gives_the_values_of_the_non_empty_documents():
    assert load_stream_fast("a: 1\n---\n---\n- 2\n--- ~\n--- 0\n") == [{"a": 1}, [2], 0]


def test_load_stream_fast_names_the_text_unless_told_a_file():
    with pytest.raises(InputError) as caught:
        load_stream_fast("a: [\n")
    assert [str(p) for p in caught.value.problems] == [
        "the text:2:1: malformed YAML: did not find expected node content (while parsing a flow node)"]


def test_load_stream_fast_refuses_an_anchored_key_only_where_the_located_reader_does():
    assert both("&k a: 1\nb: *k\n") == {"a": 1, "b": "a"}
    assert refused("&k a: 1\n*k : 2\n", fast=True) == ["f.yaml:2:1: a: duplicate key 'a'"]
