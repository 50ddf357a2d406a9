"""render/sandbox.py's calls: every function and method a template calls, str.format, and the call depth.

With a size limit of 1000, each call that takes a size is pinned at its
edge, a refused one is seen never to run (the spy sees every value the
environment checks after making it), and a result too large names the call.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from markupsafe import Markup

from generator.render.limits import Limits
from generator.render.sandbox import environment
from tests.test_render_sandbox import SIZE, TOO_LARGE, made, refused, render


@pytest.fixture
def env(tmp_path: Path):
    return environment([tmp_path], Limits(size=SIZE, iterations=50))


def never_longer(seen: list[Any]) -> bool:
    return not any(isinstance(value, (str, bytes)) and len(value) > SIZE for value in seen)


class Maker:
    """A callable without a ``__name__`` of its own, making ``n`` characters."""

    def __call__(self, n: int, fill: str = "x") -> str:
        return fill * n


def make(n: int) -> str:
    return "x" * n


# -- results of functions and callables

def test_a_function_whose_result_is_too_large_is_named(env) -> None:
    assert render(env, "{{ make(n) | length }}", make=make, n=SIZE) == str(SIZE)
    assert refused(env, "{{ make(n) }}", make=make, n=SIZE + 1) == TOO_LARGE.format("the result of make()")


def test_a_callable_without_a_name_is_named_by_its_type(env) -> None:
    assert refused(env, "{{ maker(n) }}", maker=Maker(), n=SIZE + 1) == TOO_LARGE.format("the result of Maker()")


def test_keyword_arguments_reach_the_function(env) -> None:
    assert render(env, "{{ maker(3, fill='y') }}", maker=Maker()) == "yyy"


def test_a_number_too_large_from_a_function_is_refused(env) -> None:
    assert render(env, "{{ (f() > 0) }}", f=lambda: 2 ** 4095) == "True"  # 4096 bits
    assert refused(env, "{{ f() }}", f=lambda: 2 ** 4096) == (
        "template exceeded a limit: the result of <lambda>() would be a number of more than 4096 bits")


def test_a_generator_from_a_function_is_counted_as_it_yields(env) -> None:
    def texts(n: int):
        return ("" for _ in range(n))

    assert render(env, "{{ texts(n) | list | length }}", texts=texts, n=SIZE - 1) == str(SIZE - 1)
    assert refused(env, "{{ texts(n) | list | length }}", texts=texts, n=SIZE + 1) == TOO_LARGE.format(
        "the result of texts()")


def test_range_is_an_ordinary_call(env) -> None:
    assert render(env, "{{ range(5000) | length }}") == "5000"


# -- int.to_bytes

def test_int_to_bytes_is_refused_before_it_is_made(env, monkeypatch) -> None:
    seen = made(env, monkeypatch)
    assert refused(env, "{{ n.to_bytes(1001, 'big') }}", n=1) == TOO_LARGE.format("the result of int.to_bytes()")
    assert never_longer(seen)
    assert render(env, "{{ n.to_bytes(1000, 'big') | length }}", n=1) == "1000"


def test_other_int_methods_are_ordinary_calls(env) -> None:
    assert render(env, "{{ n.bit_length() }} {{ n.to_bytes(length=2, byteorder='big') | length }}", n=5) == "3 2"


# -- lipsum

def test_lipsum_is_refused_from_its_paragraphs_and_words(env) -> None:
    """Each word is counted as 16 characters: 2 paragraphs of at most 30 words are 2 * 31 * 16 = 992."""
    assert 0 < int(render(env, "{{ lipsum(2, false, 5, 30) | length }}")) <= 992
    assert 0 < int(render(env, "{{ lipsum(n=2, html=false, min=5, max=30) | length }}")) <= 992
    assert refused(env, "{{ lipsum(2, false, 5, 31) }}") == TOO_LARGE.format("the result of lipsum()")
    assert refused(env, "{{ lipsum(3, false, 5, 30) }}") == TOO_LARGE.format("the result of lipsum()")
    assert refused(env, "{{ lipsum() }}") == TOO_LARGE.format("the result of lipsum()")  # 5 of at most 100


def test_lipsum_exactly_at_the_limit_is_allowed(tmp_path) -> None:
    env = environment([tmp_path], Limits(size=992))
    assert 0 < int(render(env, "{{ lipsum(2, false, 5, 30) | length }}")) <= 992


# -- recursive loops and the depth of calls

TREE = "{% for x in tree recursive %}{{ x.n }}{% if x.c is defined %}({{ loop(x.c) }}){% endif %}{% endfor %}"


def test_a_recursive_loop_renders_its_children(env) -> None:
    tree = [{"n": 1, "c": [{"n": 2, "c": [{"n": 3}]}, {"n": 4}]}, {"n": 5}]
    assert render(env, TREE, tree=tree) == "1(2(3)4)5"


def test_a_recursive_loop_counts_every_item_it_iterates(env) -> None:
    assert render(env, TREE, tree=[{"n": 0, "c": [{"n": 1}] * 49}]) == "0(" + "1" * 49 + ")"  # 50 items
    assert refused(env, TREE, tree=[{"n": 0, "c": [{"n": 1}] * 50}]) == (
        "template exceeded a limit: more than 50 loop iterations in one rendering "
        "(set CITGEN_TEMPLATE_MAX_ITERATIONS to raise the limit)")


def test_a_recursive_loop_takes_only_the_children(env) -> None:
    with pytest.raises(TypeError, match=r"^LoopContext.__call__\(\) takes 2 positional arguments but 3 were given$"):
        render(env, TREE.replace("loop(x.c)", "loop(x.c, 1)"), tree=[{"n": 1, "c": [{"n": 2}]}])


DOWN = "{% macro down(n) %}{% if n > 0 %}{{ down(n - 1) }}{% else %}.{% endif %}{% endmacro %}"
DEEP = "template exceeded a limit: calls (macros, caller(), recursive loops) nested more than 100 deep"


def test_the_depth_of_calls_is_restored_when_they_return(env) -> None:
    assert render(env, DOWN + "{{ down(50) }}{{ s.upper() }}{{ down(99) }}{{ down(99) }}", s="a") == ".A.."


def test_calls_that_returned_do_not_make_room_for_deeper_ones(env) -> None:
    assert refused(env, DOWN + "{{ down(5) }}{{ s.upper() }}{{ down(100) }}", s="a") == DEEP


# -- str and bytes methods

JOINED = TOO_LARGE.format("the result of str.join()")


def test_str_join_is_refused_before_it_is_made(env, monkeypatch) -> None:
    seen = made(env, monkeypatch)
    assert refused(env, "{{ ','.join(parts) }}", parts=["x" * 500, "y" * 500]) == JOINED
    assert refused(env, "{{ ''.join(parts) }}", parts=["x" * 600, "y" * 401]) == JOINED
    assert refused(env, "{{ ','.join(parts) }}", parts=["x" * 333] * 3) == JOINED
    assert never_longer(seen)


def test_str_join_counts_one_separator_fewer_than_parts(env) -> None:
    assert render(env, "{{ ','.join(parts) }}", parts=["x" * SIZE]) == "x" * SIZE
    assert render(env, "{{ ','.join(parts) }}", parts=["x" * 499, "y" * 500]) == "x" * 499 + "," + "y" * 500
    assert render(env, "{{ '--'.join(parts) }}", parts=["a", "b", "c"]) == "a--b--c"


def test_str_join_of_a_generator_counts_its_items(env) -> None:
    assert render(env, "[{{ ''.join(texts) }}]", texts=("" for _ in range(SIZE))) == "[]"
    assert refused(env, "{{ ''.join(texts) }}", texts=("" for _ in range(SIZE + 1))) == JOINED
    assert refused(env, "{{ sep.join(texts) }}", sep=b"", texts=(b"" for _ in range(SIZE + 1))) == TOO_LARGE.format(
        "the result of bytes.join()")


def test_str_join_of_what_is_not_text_fails_as_python_says(env) -> None:
    with pytest.raises(TypeError, match=r"^sequence item 1: expected str instance, int found$"):
        render(env, "{{ ''.join(parts) }}", parts=["x" * SIZE, 5])


def test_a_result_too_large_is_named_by_its_method(env) -> None:
    assert render(env, "{{ s.encode('utf-8') | length }}", s="\u00e9" * 500) == "1000"
    assert refused(env, "{{ s.encode('utf-8') }}", s="\u00e9" * 501) == TOO_LARGE.format("the result of str.encode()")


def test_encoding_takes_utf8_when_no_codec_is_named(env) -> None:
    assert render(env, "{{ s.encode() | length }}", s="e" * 300) == "300"
    assert render(env, "{{ b.decode() | length }}", b=b"e" * 300) == "300"


def test_a_slow_codec_is_bounded_when_decoding_too(env) -> None:
    assert refused(env, "{{ b.decode('punycode') }}", b=b"a" * 257) == (
        "template exceeded a limit: bytes.decode() with 'punycode' takes time that grows faster than its input; "
        "at most 256 characters are taken (UTF-8, ASCII, Latin-1, UTF-16, UTF-32 and single-byte codecs "
        "take any)")
    assert render(env, "{{ b.decode('punycode') | length }}", b=b"a" * 256) == str(len(b"a" * 256))


TRANSLATED = TOO_LARGE.format("the result of str.translate()")


def test_translate_is_refused_from_its_longest_replacement(env, monkeypatch) -> None:
    seen = made(env, monkeypatch)
    assert render(env, "{{ s.translate(table) }}", s="a" * 250, table={97: "xyzw"}) == "xyzw" * 250
    assert refused(env, "{{ s.translate(table) }}", s="a" * 251, table={97: "xyzw"}) == TRANSLATED
    assert never_longer(seen)


def test_translate_with_a_list_for_a_table(env, monkeypatch) -> None:
    seen = made(env, monkeypatch)
    table = [None] * 97 + ["xyzw"]
    assert render(env, "{{ s.translate(table) }}", s="a" * 250, table=table) == "xyzw" * 250
    assert refused(env, "{{ s.translate(table) }}", s="a" * 251, table=table) == TRANSLATED
    assert never_longer(seen)


def test_translate_without_longer_replacements_takes_the_whole_limit(env) -> None:
    assert render(env, "{{ s.translate(table) }}", s="a" * SIZE, table={97: 98}) == "b" * SIZE
    assert render(env, "{{ s.translate(table) }}", s="a" * SIZE, table={97: None}) == ""
    assert render(env, "{{ s.translate(table) }}", s="a" * SIZE, table={}) == "a" * SIZE


def test_translate_with_what_is_not_a_table_fails_as_python_says(env) -> None:
    with pytest.raises(TypeError, match=r"^'int' object is not subscriptable$"):
        render(env, "{{ s.translate(5) }}", s="a")


def test_a_width_given_by_keyword_is_predicted(env, monkeypatch) -> None:
    """One tab and its width: 1 + 999 is the most; expandtabs makes 999 spaces of it."""
    seen = made(env, monkeypatch)
    assert refused(env, "{{ s.expandtabs(tabsize=n) }}", s="\t", n=SIZE) == TOO_LARGE.format(
        "the result of str.expandtabs()")
    assert never_longer(seen)
    assert render(env, "{{ s.expandtabs(tabsize=n) | length }}", s="\t", n=SIZE - 1) == str(SIZE - 1)


# -- str.format and str.format_map

FORMATTED = TOO_LARGE.format("the result of str.format()")


def test_format_counts_its_text_and_each_field(env) -> None:
    """'{}' is 2 characters: with a field of 998 the result may be 1000."""
    assert render(env, "{{ '{}'.format(s) }}", s="x" * 998) == "x" * 998
    assert refused(env, "{{ '{}'.format(s) }}", s="x" * 999) == FORMATTED


def test_format_adds_up_its_fields(env) -> None:
    assert len(render(env, "{{ '{}{}'.format(a, b) }}", a="x" * 500, b="y" * 496)) == 996
    assert refused(env, "{{ '{}{}'.format(a, b) }}", a="x" * 500, b="y" * 497) == FORMATTED


def test_a_field_width_is_refused_before_it_is_made(env, monkeypatch) -> None:
    seen = made(env, monkeypatch)
    assert refused(env, "{{ '{:>2000}'.format(s) }}", s="") == FORMATTED
    assert never_longer(seen)
    assert render(env, "{{ '{:>990}'.format(s) }}", s="ab") == " " * 988 + "ab"


def test_format_longer_than_its_fields_were_counted_is_checked_when_made(env) -> None:
    """A number of 1000 bits is counted as 714 characters; in binary with a '_' every 4 digits it is 1249."""
    assert refused(env, "{{ '{:_b}'.format(n) }}", n=2 ** 1000 - 1) == TOO_LARGE.format("the result of format()")


def test_format_writes_its_fields(env) -> None:
    assert render(env, "{{ '{}-{x}-{:03d}'.format('a', 7, x='b') }}") == "a-b-007"


def test_format_of_markup_escapes_its_fields(env) -> None:
    assert render(env, "{{ m.format(s) }}", m=Markup("<b>{}</b>"), s="<") == "<b>&lt;</b>"
    wrapped = env.getattr(Markup("<b>{}</b>"), "format")
    assert type(wrapped("<")) is Markup


def test_format_map_takes_one_mapping(env) -> None:
    assert render(env, "{{ '{a}-{b}'.format_map(d) }}", d={"a": 1, "b": 2}) == "1-2"


@pytest.mark.parametrize("arguments", ["", "d, d", "d, x=1", "x=1"])
def test_format_map_with_other_arguments_is_refused(env, arguments) -> None:
    with pytest.raises(TypeError, match=r"^format_map\(\) takes exactly one argument$"):
        render(env, "{{ '{a}'.format_map(" + arguments + ") }}", d={"a": 1})


def test_format_map_is_bounded_as_format_is(env) -> None:
    assert refused(env, "{{ '{a}'.format_map(d) }}", d={"a": "x" * 998}) == FORMATTED
    assert render(env, "{{ '{a}'.format_map(d) }}", d={"a": "x" * 997}) == "x" * 997


def test_format_of_what_is_not_text_is_an_ordinary_method(env) -> None:
    assert render(env, "{{ d.items() | list }}", d={"format": 1}) == "[('format', 1)]"
