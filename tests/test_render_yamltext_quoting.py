"""How yamltext quotes and escapes text: each character's escape, the columns an escape takes,
double-quoted text broken over lines at the limit, and the emitter's own output where the
module falls back to it.

Every case is pinned as exact text; where it matters, the text is also read back (with both
PyYAML's pure-Python loader and libyaml's) to the value that went in.

Private helper, tested on purpose: _escaped is asked about every character, most of which no catalog
value holds.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from generator.render import yamltext
from generator.render.yamltext import _double_quoted, _dump, _escaped, _escaped_length, _Long, yaml_block, yaml_scalar

LOADERS = (yaml.SafeLoader, getattr(yaml, "CSafeLoader", yaml.SafeLoader))


@pytest.fixture(autouse=True)
def fresh_style_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no remembered styles, so the styles it checks are worked out, not recalled."""
    monkeypatch.setattr(_Long, "_seen", {})


def loads(text: str) -> list[Any]:
    """``text`` as each loader reads it."""
    return [yaml.load(text, Loader=loader) for loader in LOADERS]


# --------------------------------------------------------------------------- one character in double quotes

@pytest.mark.parametrize(("char", "written"), [
    ("\\", "\\\\"),
    ('"', '\\"'),
    ("\n", "\\n"),
    ("\t", "\\t"),
    ("\x00", "\\0"),
    ("\u2028", "\\L"),  # printable, but a reader takes it for a line break
    ("\u2029", "\\P"),
    ("\x01", "\\x01"),  # two hex digits, zero-padded
    ("\r", "\\x0D"),  # upper-case hex digits
    ("\x1f", "\\x1F"),  # the last control character below the space
    (" ", " "),  # the first printable character
    ("a", "a"),
    ("~", "~"),  # the last printable ASCII character
    ("\x7f", "\\x7F"),  # DEL
    ("\x85", "\\x85"),
    ("\x9f", "\\x9F"),  # the last C1 control
    ("\xa0", "\xa0"),  # the first printable character past ASCII
    ("é", "é"),
    ("\u0100", "\u0100"),
    ("\ud7ff", "\ud7ff"),  # the last character before the surrogates
    ("\ud800", "\\uD800"),  # a lone surrogate: four hex digits
    ("\udfff", "\\uDFFF"),
    ("\ue000", "\ue000"),  # the first character after the surrogates
    ("\ufeff", "\\uFEFF"),  # the byte order mark, inside the printable range
    ("\ufffd", "\ufffd"),  # the last printable character of the BMP
    ("\ufffe", "\\uFFFE"),
    ("\uffff", "\\uFFFF"),  # the last character that takes four hex digits
    ("\U00010000", "\\U00010000"),  # the first that takes eight
    ("\U0001f680", "\\U0001F680"),
])
def test_a_character_is_written_in_double_quotes_as_yaml_writes_it(char: str, written: str) -> None:
    assert _escaped(char) == written


@pytest.mark.parametrize("char", ["\\", '"', "\n", "\t", "\x00", "\u2028", "\u2029", "\x01", "\r", "\x7f", "\x85",
                                  "\ufeff", "\ufffe", "\U0001f680", "\xa0", "é", "\ufffd"])
def test_an_escaped_character_reads_back_as_itself(char: str) -> None:
    assert loads(f'"{_escaped(char)}"') == [char, char]


# --------------------------------------------------------------------------- the columns a word takes when escaped

@pytest.mark.parametrize(("word", "columns"), [
    ("", 0),
    ("word", 4),
    ("\x1f", 4),  # a control character: \x1F
    (" ", 1),
    ("~", 1),
    ("\x7f", 4),
    ("\x9f", 4),
    ("\xa0", 1),
    ("\ud7ff", 1),
    ("\ud800", 4),
    ("\udfff", 4),
    ("\ue000", 1),
    ("\ufeff", 4),  # the byte order mark is escaped although it is in the printable range
    ("\ufffd", 1),
    ("\ufffe", 4),
    ("\uffff", 4),  # the last character counted as a short escape
    ("\U00010000", 10),  # the first counted as \U and eight digits
    ("\U0001f680", 10),
    ("a\tb", 6),
    ("\x01\x01", 8),  # each escape counts
    ("é\U0001f680\x01x", 16),
])
def test_a_word_is_counted_in_the_columns_its_escapes_take(word: str, columns: int) -> None:
    assert _escaped_length(word) == columns


# --------------------------------------------------------------------------- double-quoted text over lines

def test_double_quoted_text_that_ends_exactly_at_the_limit_stays_on_one_line() -> None:
    assert _double_quoted("abcdef", 0, 2, 8) == '"abcdef"'


def test_double_quoted_text_one_column_past_the_limit_is_continued_on_the_next_line() -> None:
    assert _double_quoted("abcdef", 0, 2, 7) == '"abcde\\\n  f"'


def test_double_quoted_text_starts_at_its_column() -> None:
    assert _double_quoted("abcdef", 3, 2, 11) == '"abcdef"'
    assert _double_quoted("abcdef", 3, 2, 10) == '"abcde\\\n  f"'


def test_a_continued_line_carries_on_at_the_block_column_and_breaks_again_at_the_limit() -> None:
    assert _double_quoted("abcdefghijklm", 0, 4, 9) == '"abcdefg\\\n    hijk\\\n    lm"'


def test_a_continued_line_takes_two_characters_however_narrow_the_limit() -> None:
    assert _double_quoted("abcdefgh", 0, 2, 3) == '"abc\\\n  de\\\n  fg\\\n  h"'


def test_a_letter_that_starts_a_continued_line_is_written_as_itself() -> None:
    assert _double_quoted("abcdeXYZ", 0, 2, 7) == '"abcde\\\n  XYZ"'


def test_a_space_that_starts_a_continued_line_is_escaped() -> None:
    text = _double_quoted("abcde fgh", 0, 2, 7)
    assert text == '"abcde\\\n  \\ fg\\\n  h"'
    assert loads(text) == ["abcde fgh"] * 2


def test_a_tab_that_starts_a_continued_line_stays_escaped() -> None:
    text = _double_quoted("abcde\tfgh", 0, 2, 7)
    assert text == '"abcde\\\n  \\tfg\\\n  h"'
    assert loads(text) == ["abcde\tfgh"] * 2


def test_an_escape_is_never_split_over_two_lines() -> None:
    assert _double_quoted("abc\x01def", 0, 2, 8) == '"abc\\\n  \\x01d\\\n  ef"'


def test_line_breaks_and_paragraph_separators_are_escaped_in_double_quotes() -> None:
    value = "a \u2028b\u2029 c\n"
    text = _double_quoted(value, 0, 2, 120)
    assert text == '"a \\Lb\\P c\\n"'
    assert loads(text) == [value, value]


# --------------------------------------------------------------------------- text only double quotes can carry

def test_text_with_a_carriage_return_and_a_line_break_is_double_quoted_by_the_module() -> None:
    assert yaml_block({"k": "one\r\ntwo"}, 2) == '\n  k: "one\\x0D\\ntwo"'


def test_two_double_quoted_texts_in_one_block_are_each_put_in_their_place() -> None:
    value = {"b": "one\r\ntwo", "a": "three\r\nfour"}
    assert _dump(value, 2) == 'a: "three\\x0D\\nfour"\nb: "one\\x0D\\ntwo"\n'


def test_a_space_before_a_paragraph_separator_survives_in_a_block() -> None:
    """The bug this pins: U+2029 was written raw, and a reader dropped the space before it."""
    value = {"k": "x\ny \u2029 z\r"}
    text = yaml_block(value, 2)
    assert text == '\n  k: "x\\ny \\P z\\x0D"'
    assert loads("m:" + text + "\n") == [{"m": value}] * 2


def test_a_space_before_a_line_separator_survives_in_a_block() -> None:
    value = {"k": " \u2028\n"}
    text = yaml_block(value, 2)
    assert text == '\n  k: " \\L\\n"'
    assert loads("m:" + text + "\n") == [{"m": value}] * 2


def test_a_value_that_holds_the_stand_in_text_is_left_whole_to_the_emitter() -> None:
    """The stand-in for the first double-quoted text would appear twice: the emitter writes it all,
    on one line per scalar, keys sorted, nested lists as blocks, Unicode as it is, and the
    characters libyaml escapes (an emoji, U+0085) escaped."""
    value = {"b": "one\r\ntwo", "a": "citgen-quoted-text-0",
             "c": ["é", "e\U0001f680", "n\x85l", " ".join(["word"] * 20)]}
    assert _dump(value, 2) == (
        'a: citgen-quoted-text-0\n'
        'b: "one\\r\\ntwo"\n'
        'c:\n'
        '- é\n'
        '- "e\\U0001F680"\n'
        '- "n\\Nl"\n'
        '- word word word word word word word word word word word word word word word word word word word word\n')


def test_the_emitter_left_to_write_everything_folds_only_past_65536_columns() -> None:
    long = " ".join(["a"] * 33000)
    text = _dump({"b": "one\r\ntwo", "a": "citgen-quoted-text-0", "c": long}, 2)
    head = "a: citgen-quoted-text-0\nb: \"one\\r\\ntwo\"\nc: "
    assert text == head + long[:65535] + "\n  " + long[65536:] + "\n"


# --------------------------------------------------------------------------- inline scalars

@pytest.mark.parametrize(("value", "written"), [
    ("4Gi", "4Gi"),
    ("", "''"),
    ("true", "'true'"),
    ("null", "'null'"),
    ("~", "'~'"),
    ("0x1F", "'0x1F'"),
    ("a: b", "'a: b'"),
    ("#x", "'#x'"),
    ("it's", "it's"),
    ("'q'", "'''q'''"),
    (" lead", "' lead'"),
    ("trail ", "'trail '"),
    ("tab\tx", '"tab\\tx"'),
    ("line\nbreak", "'line\n\n  break'"),
    ("é ünï", "é ünï"),
    ("e\U0001f680", '"e\\U0001F680"'),
    ("next\x85line", '"next\\Nline"'),
    ("a\xa0", "a\xa0"),  # a no-break space at the end is text, not white space to strip
    ("aX", "aX"),
    (True, "true"),
    (12, "12"),
    (None, "null"),
    (1.5, "1.5"),
])
def test_an_inline_scalar_is_quoted_only_where_plain_text_would_change_meaning(value: Any, written: str) -> None:
    assert yaml_scalar(value) == written
    assert loads(f"k: {written}\n") == [{"k": value}] * 2


def test_an_inline_scalar_stays_on_one_line_up_to_65536_columns() -> None:
    long = " ".join(["a"] * 33000)
    assert yaml_scalar(long) == long[:65537] + "\n  " + long[65538:]


def test_an_inline_scalar_with_a_key_that_is_not_a_string_stays_on_one_line_up_to_65536_columns() -> None:
    long = " ".join(["a"] * 33000)
    assert _dump({1: long}) == "1: " + long[:65535] + "\n  " + long[65536:] + "\n"


def test_an_inline_scalar_drops_the_document_end_of_the_pure_python_emitter(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without libyaml, the tool's Dumper is PyYAML's own, which ends a plain scalar's document with ``...``."""
    monkeypatch.setattr(yamltext, "Dumper", yaml.SafeDumper)
    assert _dump("4Gi") == "4Gi\n...\n"
    assert yaml_scalar("4Gi") == "4Gi"
    assert yaml_scalar("a\xa0") == "a\xa0"


def test_the_pure_python_emitter_writes_the_direct_nodes_as_libyaml_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its emitter, unlike libyaml's, refuses a collection without a tag: every node carries its tag."""
    value = {"b": ["x", "y z"], "a": {"c": "w", "d": []}}
    expected = "a:\n  c: w\n  d: []\nb:\n- x\n- y z\n"
    assert _dump(value, 2) == expected
    monkeypatch.setattr(yamltext, "Dumper", yaml.SafeDumper)
    assert _dump(value, 2) == expected


# --------------------------------------------------------------------------- text other readers take for numbers


@pytest.mark.parametrize("text", [
    "0o17", "0O17", "+0o17", "-0o7", "0B101", "0X1F", "0o", "0x",  # Go's base prefixes, YAML 1.2's octal
    "08", "09", "-_1", "1_e3",  # digits Go reads once its "_" are dropped (08 as the float 8)
    "1e3", "1E3", "1e+3", "-1e-3", "1.5e3", ".5e3", "1.e3",  # an exponent without YAML 1.1's sign or dot
    "y", "Y", "n", "N",  # go-yaml's booleans
])
def test_text_kubernetes_or_yaml_1_2_would_read_as_a_number_or_boolean_is_quoted(text: str):
    """kubectl and the API server read YAML with go-yaml v2: a label value 1e3 written plain arrives as 1000."""
    assert yaml_scalar(text) == f"'{text}'"
    assert yaml_block({"v": text}, 0) == f"\nv: '{text}'"
    assert loads(f"v: {yaml_scalar(text)}\n") == [{"v": text}] * 2


@pytest.mark.parametrize("text", [
    "v1.8.0", "1.2.3", "1.0.0", "2Gi", "u1.medium", "e3", "1e", "ny", "yes-no", "x1", "+x1", "_", "._", ".", "1-2",
    "abc_1",
])
def test_text_no_reader_takes_for_another_type_stays_plain(text: str):
    assert yaml_scalar(text) == text
