"""How yamltext keeps long text within upstream's line limit: which strings fit where they start
(each limit exactly and one past it, at every depth), the style a string that does not fit is
given, the width the emitter folds at, and what goes to PyYAML's own dump instead.

Strings of one word (``x`` repeated) show a boundary plainly: a string that fits stays on its
key's line, one that does not is moved to a folded block of its own.

Private helpers, tested on purpose: the boundaries of _block_ok and _folding_ok are single
characters and columns, which only a direct call can place exactly.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from generator.render.yamltext import LINE_LIMIT, _block_ok, _dump, _folding_ok, _Long, yaml_block

LOADERS = (yaml.SafeLoader, getattr(yaml, "CSafeLoader", yaml.SafeLoader))


@pytest.fixture(autouse=True)
def fresh_style_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no remembered styles, so the styles it checks are worked out, not recalled."""
    monkeypatch.setattr(_Long, "_seen", {})


def x(n: int) -> str:
    return "x" * n


def words(n: int) -> str:
    return " ".join(["word"] * n)


def reads_back(block: str, value: Any) -> bool:
    """Does ``block`` (from yaml_block(value, 2)) read back as ``value`` under a key, with each loader?"""
    return all(yaml.load("m:" + block + "\n", Loader=loader) == {"m": value} for loader in LOADERS)


# --------------------------------------------------------------------------- what a block scalar can carry

@pytest.mark.parametrize(("value", "newlines", "ok"), [
    ("a\nb", 1, True),
    ("a\n\nb", 1, False),  # newlines + 1 line breaks in a row
    ("a\n\n\nb", 3, True),  # two blank lines: a literal block can carry them
    ("a\n\n\n\nb", 3, False),  # three cannot pass the lint
    ("a\n\n\nb", 2, False),  # a folded block writes one more blank line
    ("a\n", 3, True),  # one trailing line break is stripped by "|-"
    ("a\n\n", 3, False),  # more would be kept with "|+"
    ("\n", 3, False),  # a lone line break would end the document with "..."
    ("", 3, True),
    ("a\rb", 3, False),
    ("a\x85b", 3, False),
    ("a\u2028b", 3, False),
    ("a\u2029b", 3, False),
])
def test_what_a_block_scalar_can_carry(value: str, newlines: int, ok: bool) -> None:
    assert _block_ok(value, newlines) is ok


@pytest.mark.parametrize(("value", "ok"), [
    ("a b c", True),
    ("a  b", False),  # the emitter may fold after the first space and leave it trailing
    ("a\n\nb", True),
    ("a\n\n\nb", False),
    ("a\rb", False),
    ("intro\n more", True),  # a line that starts with a space but holds no other: nothing to fold
    ("intro\n more words", False),  # the emitter could fold it, and a reader would keep that line break
    (" leading words", False),
    (" leading", True),
])
def test_what_a_folded_block_can_carry(value: str, ok: bool) -> None:
    assert _folding_ok(value) is ok


# --------------------------------------------------------------------------- the style a string needs

@pytest.mark.parametrize(("value", "column", "style", "word"), [
    (x(18), 0, None, 0),  # ends at 18, its quotes at 20: fits a limit of 20
    (x(19), 0, ">", 19),  # one past: a folded block of its own
    (x(16), 2, None, 0),
    (x(17), 2, ">", 17),
    ("ab  cd " * 4, 0, None, 6),  # two spaces in a row: the emitter quotes and folds it
    ("ab cd\r" * 4, 0, None, 8),  # a carriage return: no block can carry it
    (" ab cd ef gh ij kl mn", 0, None, 2),  # starts with a space: a folded block would keep its breaks
    ("ab cdef g\x01h ij kl mn", 0, ">", 6),  # an escape counts its columns
])
def test_the_style_of_text_on_one_line(value: str, column: int, style: str | None, word: int) -> None:
    long = _Long(20)
    assert long._style(value, column, 2) == style
    assert long.word == word


@pytest.mark.parametrize(("value", "style", "word"), [
    ("short\nlines", "|", 0),
    ("a\n" + "b c" + x(15), "|", 0),  # its longest line ends at the limit, 2 + 18 = 20
    ("a\n" + "b c" + x(16), ">", 17),  # one past, and foldable at its space
    ("a\n" + x(30), "|", 0),  # too long, but one word that no style could break
    ("a\n " + x(30) + " ", "|", 0),  # spaces around one word do not make it two
    ("a\n" + x(30) + " X", ">", 30),  # but a space before a letter does
    ("a\n" + x(30) + " \t", ">", 30),  # and a space before a tab
    ("a\n\n\nb", "|", 0),
    ("a\n\n\n\nb", '"', 0),  # three blank lines: for neither block
    ("a\n\n\n" + "b " * 20, '"', 0),  # a literal block cannot fold, a folded one would add a blank line
    ("a\n\n" + "b " * 20 + "c", ">", 4),  # the blank line (and the line break made a space) noted
    ("a\nb  c " + "b " * 20, '"', 0),
    ("a\n b c d e f g h i j k l", '"', 0),
])
def test_the_style_of_text_with_line_breaks(value: str, style: str, word: int) -> None:
    long = _Long(20)
    assert long._style(value, 0, 2) == style
    assert long.word == word


def test_a_style_keeps_the_longest_word_of_every_string_of_the_dump() -> None:
    long = _Long(20)
    assert long.style(x(19), 0, 2) == ">"
    assert long.word == 19
    assert long.style(x(17) + " a", 0, 2) == ">"
    assert long.word == 19


def test_a_style_worked_out_is_remembered_with_its_longest_word() -> None:
    assert _Long(20).style(x(19), 0, 2) == ">"
    assert _Long._seen == {(x(19), 0, 2, 20): (">", 19)}


def test_a_remembered_style_is_not_worked_out_again() -> None:
    _Long._seen[(x(19), 0, 2, 20)] = ("|", 7)
    long = _Long(20)
    assert long.style(x(19), 0, 2) == "|"
    assert long.word == 7


def test_the_memory_of_styles_starts_over_when_full() -> None:
    _Long._seen.update({(str(i), 0, 0, 0): (None, 0) for i in range(_Long.MEMORY - 1)})
    assert _Long(20).style(x(19), 0, 2) == ">"
    assert len(_Long._seen) == _Long.MEMORY
    assert _Long(20).style(x(20), 0, 2) == ">"
    assert _Long._seen == {(x(20), 0, 2, 20): (">", 20)}


# --------------------------------------------------------------------------- the width the emitter folds at

def test_with_nothing_to_fold_the_width_is_unlimited() -> None:
    assert _Long(100).width() == 1 << 16


def test_the_width_leaves_room_for_the_longest_word_and_a_closing_quote() -> None:
    long = _Long(100)
    long._words("ab abcd a")
    assert long.word == 4
    assert long.width() == 93


def test_the_width_is_never_below_what_the_emitter_accepts() -> None:
    long = _Long(10)
    long._words("abcde")
    assert long.width() == 5


def test_a_shorter_word_later_does_not_lower_the_longest() -> None:
    long = _Long(100)
    long._words("abcdef")
    long._words("ab")
    assert long.word == 6


@pytest.mark.parametrize(("text", "longest"), [
    ("ab cd e", 2),
    ("ab  cd e", 6),  # the emitter does not fold at two spaces: the words around them are one
    ("ab\tcd e", 8),  # a tab is no place to fold, and is written \t (counted as an escape)
    ("ab\x01cd e", 8),  # ASCII, but not printable: counted escaped
    ("é\U0001f680 a", 11),
])
def test_the_longest_word_is_counted_as_the_emitter_folds_it(text: str, longest: int) -> None:
    long = _Long(100)
    long._words(text)
    assert long.word == longest


# --------------------------------------------------------------------------- where a string fits, at each depth

@pytest.mark.parametrize(("value", "written"), [
    ({"k": x(113)}, "k: " + x(113) + "\n"),  # "k: " and the text end at 116, room for quotes
    ({"k": x(114)}, "k: >-\n  " + x(114) + "\n"),
    ([x(116)], "- " + x(116) + "\n"),
    ([x(117)], "- >-\n  " + x(117) + "\n"),
    ([{"k": x(111)}], "- k: " + x(111) + "\n"),  # a mapping in a list starts two in
    ([{"k": x(112)}], "- k: >-\n    " + x(112) + "\n"),
    ({"a": {"k": x(111)}}, "a:\n  k: " + x(111) + "\n"),  # a mapping under a key is indented two
    ({"a": {"k": x(112)}}, "a:\n  k: >-\n    " + x(112) + "\n"),
    ({"a": [x(116)]}, "a:\n- " + x(116) + "\n"),  # a list under a key starts under it
    ({"a": [x(117)]}, "a:\n- >-\n  " + x(117) + "\n"),
    ([[x(114)]], "- - " + x(114) + "\n"),
    ([[x(115)]], "- - >-\n    " + x(115) + "\n"),
    (x(118), x(118) + "\n"),
    (x(119), ">-\n  " + x(119) + "\n"),
])
def test_a_string_stays_on_its_line_exactly_while_it_fits(value: Any, written: str) -> None:
    assert _dump(value, 0) == written


def test_the_limit_is_the_line_limit_less_the_indent_the_caller_adds() -> None:
    assert LINE_LIMIT == 120
    assert yaml_block({"k": x(109)}, 4) == "\n    k: " + x(109)
    assert yaml_block({"k": x(110)}, 4) == "\n    k: >-\n      " + x(110)


@pytest.mark.parametrize(("value", "written"), [
    (["a\nb"], "- |-\n  a\n  b\n"),
    ({"k": "a\nb"}, "k: |-\n  a\n  b\n"),
    ("a\nb", "|-\n  a\n  b\n"),
])
def test_a_short_string_with_a_line_break_is_a_literal_block(value: Any, written: str) -> None:
    assert _dump(value, 0) == written


def test_without_an_indent_nothing_is_folded() -> None:
    value = {"k": words(40), "l": [words(40)], "m": {"o": words(40)}}
    assert _dump(value) == f"k: {words(40)}\nl:\n- {words(40)}\nm:\n  o: {words(40)}\n"


def test_booleans_numbers_and_null_are_written_as_pyyaml_writes_them() -> None:
    value = [{"k": "a", "l": [True, False, None]}, [1, "b"]]
    assert _dump(value, 2) == "- k: a\n  l:\n  - true\n  - false\n  - null\n- - 1\n  - b\n"


def test_a_float_anywhere_sends_the_value_to_pyyaml() -> None:
    assert _dump([{"k": False}, 1.5], 2) == "- k: false\n- 1.5\n"
    assert _dump(1.5, 2) == "1.5\n"


# --------------------------------------------------------------------------- long text as the bundles write it

def test_a_line_of_text_too_long_for_a_literal_block_makes_the_whole_text_a_folded_block() -> None:
    value = {"k": "short line\n" + words(25)}
    block = yaml_block(value, 2)
    assert block == (
        "\n  k: >-"
        "\n    short line"
        "\n"
        "\n    word word word word word word word word word word word word word word word word word word word word word"
        " word"
        "\n    word word word")
    assert reads_back(block, value)


def test_long_text_that_starts_with_a_space_is_quoted_and_folded_by_the_emitter() -> None:
    """The bug this pins: it was a folded block, whose line that starts with a space a reader does not
    unfold, so the text came back with a line break in place of a space."""
    value = {"k": " " + words(24)}
    block = yaml_block(value, 2)
    assert block == (
        "\n  k: ' word word word word word word word word word word word word word word word word word word word word"
        " word word"
        "\n    word word'")
    assert reads_back(block, value)


def test_a_long_line_that_starts_with_a_space_after_a_line_break_is_double_quoted() -> None:
    value = {"k": "intro\n " + words(24)}
    block = yaml_block(value, 2)
    assert block == (
        '\n  k: "intro\\n word word word word word word word word word word word word word word word word word word'
        ' word word wor\\'
        '\n    d word word word"')
    assert reads_back(block, value)


def test_a_short_line_that_starts_with_a_space_stays_in_a_folded_block() -> None:
    value = {"k": "intro " + words(24) + "\n more"}
    block = yaml_block(value, 2)
    assert block == (
        "\n  k: >-"
        "\n    intro word word word word word word word word word word word word word word word word word word word"
        " word"
        "\n    word word word word"
        "\n     more")
    assert reads_back(block, value)


# --------------------------------------------------------------------------- what PyYAML's dump writes instead

def test_a_key_that_is_not_a_string_goes_to_pyyaml_folding_forty_columns_inside_the_limit() -> None:
    text = " ".join(["a"] * 60)
    assert _dump({1: text}, 2) == "1: " + text[:77] + "\n  " + text[78:] + "\n"  # folds past column 78


def test_pyyaml_folds_no_narrower_than_the_emitter_accepts() -> None:
    assert _dump({1: "a b c d e f g"}, 78) == "1: a b\n  c d e\n  f g\n"  # 120 - 78 - 40 < 5: folds past column 5


def test_pyyaml_writes_its_keys_sorted() -> None:
    assert yaml_block({2: "b", 1: "a"}, 2) == "\n  1: a\n  2: b"


def test_pyyaml_writes_unicode_as_it_is() -> None:
    assert yaml_block({1: "é ünï"}, 2) == "\n  1: é ünï"
    assert _dump({1: "日本語"}) == "1: 日本語\n"


def test_a_mapping_seen_twice_goes_to_pyyaml_with_an_anchor() -> None:
    shared = {"k": "v"}
    assert _dump([shared, shared], 2) == "- &id001\n  k: v\n- *id001\n"


# --------------------------------------------------------------------------- the block as a template puts it

def test_an_empty_collection_is_written_inline() -> None:
    assert yaml_block({}, 2) == " {}"
    assert yaml_block(None, 2) == " {}"
    assert yaml_block([], 2) == " []"


def test_a_block_keeps_what_its_last_line_ends_with() -> None:
    assert yaml_block({"k": "a\xa0"}, 2) == "\n  k: a\xa0"  # a no-break space is text, not white space
    assert yaml_block({"k": "AX"}, 2) == "\n  k: AX"


def test_an_empty_line_of_a_block_gets_no_indent() -> None:
    assert yaml_block({"k": "a\n\nb", "l": [1]}, 2) == "\n  k: |-\n    a\n\n    b\n  l:\n  - 1"
