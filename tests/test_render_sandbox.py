"""render/sandbox.py and render/limits.py on their own: the bounds, in process, on small templates.

tests/test_render_limits.py runs whole builds of hostile catalogs in a child
process; these render a line through the environment directly, with small
limits, so each bound is pinned at its edge (the largest value allowed, the
smallest refused) and an operation that takes a size is seen to be refused
before it runs: the environment never sees the value it would have made.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from generator.errors import InputError
from generator.render.limits import MAX_INT_BITS, Limits, TemplateLimitError
from generator.render.sandbox import environment

SIZE = 1000
TOO_LARGE = ("template exceeded a limit: {} would be longer than 1000 characters or items "
             "(set CITGEN_TEMPLATE_MAX_SIZE to raise the limit)")


@pytest.fixture
def env(tmp_path: Path):
    return environment([tmp_path], Limits(size=SIZE, iterations=50))


def render(env, source: str, **values: Any) -> str:
    return env.from_string(source).render(**values)


def refused(env, source: str, **values: Any) -> str:
    with pytest.raises(TemplateLimitError) as raised:
        render(env, source, **values)
    return str(raised.value)


def made(env, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every value the environment checks after making it, from now on."""
    seen: list[Any] = []
    checked = env.checked

    def spy(value: Any, what: str) -> Any:
        seen.append(value)
        return checked(value, what)

    monkeypatch.setattr(env, "checked", spy)
    return seen


# -- sequence times count, either way round

@pytest.mark.parametrize("source", ["{{ s * n }}", "{{ n * s }}"])
@pytest.mark.parametrize("seq", ["x", [1], ("a",)], ids=["str", "list", "tuple"])
def test_a_sequence_times_a_count_is_bounded_whichever_comes_first(env, source, seq) -> None:
    assert refused(env, source, s=seq, n=SIZE + 1) == TOO_LARGE.format("the result of '*'")
    result = render(env, "{{ (" + source[3:-3] + ") | length }}", s=seq, n=SIZE // 2)
    assert result == str(SIZE // 2)


@pytest.mark.parametrize("source", ["{{ 'x' * n }}", "{{ n * 'x' }}", "{{ n * [1] }}", "{{ n * ('a',) }}",
                                    "{{ [1] * n }}", "{{ ('a',) * n }}"])
def test_a_count_too_large_to_make_is_refused_before_it_is_made(env, source) -> None:
    """2 ** 63 copies cannot be made at all (Python says OverflowError); the bound refuses them first."""
    assert refused(env, source, n=2 ** 63) == TOO_LARGE.format("the result of '*'")


def test_a_refused_product_is_never_made(env, monkeypatch) -> None:
    seen = made(env, monkeypatch)
    assert refused(env, "{{ n * s }}", s="ab", n=SIZE) == TOO_LARGE.format("the result of '*'")
    assert refused(env, "{{ s * n }}", s="ab", n=SIZE) == TOO_LARGE.format("the result of '*'")
    assert not any(isinstance(value, str) and len(value) > SIZE for value in seen)


def test_the_size_limit_is_inclusive(env) -> None:
    """'ab' * 500 is exactly 1000 characters: allowed; 'ab' * 501 is not."""
    assert len(render(env, "{{ 500 * s }}", s="ab")) == SIZE
    assert len(render(env, "{{ s * 500 }}", s="ab")) == SIZE
    assert refused(env, "{{ 501 * s }}", s="ab") == TOO_LARGE.format("the result of '*'")


def test_a_negative_or_zero_count_makes_an_empty_sequence(env) -> None:
    assert render(env, "[{{ n * s }}|{{ s * 0 }}|{{ (n * l) | length }}]", s="x" * SIZE, n=-(10 ** 18),
                  l=[1] * SIZE) == "[||0]"


# -- whole numbers

def test_a_product_of_numbers_too_large_is_refused_before_it_is_made(env, monkeypatch) -> None:
    seen = made(env, monkeypatch)
    big = 2 ** (MAX_INT_BITS // 2 + 1)
    message = refused(env, "{{ a * b }}", a=big, b=big)
    assert message == (f"template exceeded a limit: the result of '*' would be a number of more than "
                       f"{MAX_INT_BITS} bits")
    assert seen == []


def test_a_power_too_large_is_refused_before_it_is_made(env, monkeypatch) -> None:
    seen = made(env, monkeypatch)
    # the prediction is the exponent times the base's bits: 2 (two bits) ** 2048 is just within
    assert refused(env, "{{ 2 ** n }}", n=MAX_INT_BITS // 2 + 1) == (
        f"template exceeded a limit: the result of '**' would be a number of more than {MAX_INT_BITS} bits")
    assert refused(env, "{{ 3 ** n }}", n=10 ** 100).endswith(f"more than {MAX_INT_BITS} bits")
    assert seen == []
    assert render(env, "{{ (2 ** n) > 0 }} {{ 1 ** m }} {{ (-1) ** m }} {{ 2 ** -m }}", n=MAX_INT_BITS // 2,
                  m=10 ** 100) == "True 1 1 0.0"


# -- text built with ~, %, format and join

def test_text_joined_with_a_tilde_is_refused_before_it_is_made(env, monkeypatch) -> None:
    seen = made(env, monkeypatch)
    assert refused(env, "{{ a ~ b }}", a="x" * 600, b="y" * 401) == TOO_LARGE.format("the text built with '~'")
    assert seen == []
    assert len(render(env, "{{ a ~ b }}", a="x" * 600, b="y" * 400)) == SIZE


def test_printf_widths_are_counted_before_formatting(env, monkeypatch) -> None:
    seen = made(env, monkeypatch)
    assert refused(env, "{{ '%2000d' % 1 }}") == TOO_LARGE.format("the result of '%'")
    assert refused(env, "{{ '%*d' % (2000, 1) }}") == TOO_LARGE.format("the result of '%'")
    assert seen == []
    assert render(env, "{{ '%5d|%-3s|%%' % (42, 'a') }}") == "   42|a  |%"


@pytest.mark.parametrize("method", ["center", "ljust", "rjust", "zfill"])
def test_a_width_too_large_to_make_is_refused_before_it_is_made(env, monkeypatch, method) -> None:
    seen = made(env, monkeypatch)
    for width in (SIZE + 1, 2 ** 63):  # 2 ** 63 characters cannot be made at all (OverflowError)
        assert refused(env, "{{ s.%s(n) }}" % method, s="1", n=width) == \
            TOO_LARGE.format(f"the result of str.{method}()")
    assert seen == []


def test_str_methods_that_take_a_width(env) -> None:
    assert refused(env, "{{ s.center(n) }}", s="x", n=SIZE + 1) == TOO_LARGE.format("the result of str.center()")
    assert refused(env, "{{ s.zfill(n) }}", s="1", n=SIZE + 1) == TOO_LARGE.format("the result of str.zfill()")
    assert refused(env, "{{ s.replace('a', r) }}", s="a" * 10, r="b" * 100) == \
        TOO_LARGE.format("the result of str.replace()")
    assert len(render(env, "{{ s.ljust(n) }}", s="x", n=SIZE)) == SIZE


def test_join_counts_its_parts_and_separators(env) -> None:
    assert refused(env, "{{ items | join(',') }}", items=["x" * 100] * 10) == \
        TOO_LARGE.format("the result of the join filter")  # 1000 characters and 9 commas
    assert len(render(env, "{{ items | join('') }}", items=["x" * 100] * 10)) == SIZE


def test_filters_that_take_a_size_are_refused_from_their_arguments(env) -> None:
    assert refused(env, "{{ 'x' | center(n) }}", n=SIZE + 1) == TOO_LARGE.format("the result of the center filter")
    assert refused(env, "{{ s | indent(n, true) }}", s="a\nb", n=600) == \
        TOO_LARGE.format("the result of the indent filter")


# -- loops, literals, depth, the rendered text

def test_loop_iterations_are_counted_to_the_limit(env) -> None:
    assert render(env, "{% for i in range(50) %}.{% endfor %}") == "." * 50
    assert refused(env, "{% for i in range(51) %}.{% endfor %}") == (
        "template exceeded a limit: more than 50 loop iterations in one rendering "
        "(set CITGEN_TEMPLATE_MAX_ITERATIONS to raise the limit)")


def test_iterations_are_counted_per_rendering(env) -> None:
    template = env.from_string("{% for i in range(30) %}.{% endfor %}")
    assert template.render() == template.render() == "." * 30


def test_a_literal_holding_variables_is_checked(env) -> None:
    assert refused(env, "{{ [s, s] | length }}", s="x" * 600) == TOO_LARGE.format("a list the template builds")
    assert refused(env, "{{ {'a': s, 'b': s} | length }}", s="x" * 600) == TOO_LARGE.format("a dict the template builds")


def test_the_rendered_text_is_bounded(env) -> None:
    assert refused(env, "{{ s }}{{ s }}", s="x" * 600) == TOO_LARGE.format("the rendered text")
    assert len(render(env, "{{ s }}{{ s }}", s="x" * 500)) == SIZE


def test_calls_nest_at_most_max_depth(env) -> None:
    source = ("{% macro down(n) %}{% if n > 0 %}{{ down(n - 1) }}{% else %}bottom{% endif %}{% endmacro %}"
              "{{ down(depth) }}")
    assert render(env, source, depth=99) == "bottom"  # 100 calls: down(99) ... down(0)
    assert refused(env, source, depth=100) == (
        "template exceeded a limit: calls (macros, caller(), recursive loops) nested more than 100 deep")


# -- the limits themselves

def test_limits_from_the_environment() -> None:
    assert Limits.from_environ({}) == Limits()
    assert Limits.from_environ({"CITGEN_TEMPLATE_MAX_SIZE": "5", "CITGEN_TEMPLATE_SECONDS": "0.5"}) == \
        Limits(size=5, seconds=0.5)


@pytest.mark.parametrize("variable, text, expected", [
    ("CITGEN_TEMPLATE_MAX_SIZE", "0", "a whole number at least 1"),
    ("CITGEN_TEMPLATE_MAX_ITERATIONS", "-1", "a whole number at least 1"),
    ("CITGEN_TEMPLATE_MAX_MEMORY", "1.5", "a whole number at least 1"),
    ("CITGEN_TEMPLATE_SECONDS", "0", "a number of seconds greater than 0"),
    ("CITGEN_TEMPLATE_TOTAL_SECONDS", "inf", "a number of seconds greater than 0"),
    ("CITGEN_TEMPLATE_SECONDS", "soon", "a number of seconds greater than 0"),
])
def test_limits_that_are_not_numbers_or_not_positive(variable, text, expected) -> None:
    with pytest.raises(InputError) as raised:
        Limits.from_environ({variable: text})
    assert str(raised.value) == f"{variable}: expected {expected}, got {text!r}"


# -- single operations whose cost is not their result's size (issue 25)

def test_printf_of_bytes_is_counted_before_formatting(env, monkeypatch) -> None:
    seen = made(env, monkeypatch)
    assert refused(env, "{{ b % 1 }}", b=b"%2000d") == TOO_LARGE.format("the result of '%'")
    assert refused(env, "{{ b % (2000, 1) }}", b=b"%*d") == TOO_LARGE.format("the result of '%'")
    assert seen == []
    assert render(env, "{{ (b % 42) | length }}", b=b"%5d") == "5"


PUNYCODE = ("template exceeded a limit: str.encode() with 'punycode' takes time that grows faster than its input; "
            "at most 256 characters are taken (UTF-8, ASCII, Latin-1, UTF-16, UTF-32 and single-byte codecs "
            "take any)")


def test_a_codec_slower_than_its_input_is_bounded_before_it_runs(env) -> None:
    long, short = "\u00e9" * 257, "\u00e9" * 256
    assert refused(env, "{{ s.encode('punycode') }}", s=long) == PUNYCODE
    assert refused(env, "{{ s.encode(encoding='PunyCode') }}", s=long) == PUNYCODE.replace("'punycode'",
                                                                                          "'PunyCode'")
    assert render(env, "{{ s.encode('punycode') | length }}", s=short) == str(len(short.encode("punycode")))


@pytest.mark.parametrize("codec", ["utf-8", "UTF8", "latin-1", "utf-16-le", "cp1252", "iso8859-15"])
def test_linear_codecs_take_any_length(env, codec) -> None:
    text = "e" * 400  # past the 256 a slower codec may take; within the 1000 of the result in every one
    assert render(env, "{{ s.encode(c).decode(c) | length }}", s=text, c=codec) == "400"
