"""render/sandbox.py's values: the environment as made, literals, '~', operators and the rendered text.

Each bound is pinned at its edge with a size limit of 1000, and an operation
that takes a size is seen to be refused before it runs (the spy sees every
value the environment checks after making it).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from markupsafe import Markup

from generator.render.limits import LARGE_VALUE, MAX_INT_BITS, Budget, Limits
from generator.render.sandbox import environment
from tests.test_render_sandbox import SIZE, TOO_LARGE, made, refused, render

TILDE = TOO_LARGE.format("the text built with '~'")
RENDERED = TOO_LARGE.format("the rendered text")


@pytest.fixture
def env(tmp_path: Path):
    return environment([tmp_path], Limits(size=SIZE, iterations=50))


# -- the environment as made

def test_templates_are_read_from_the_folders_given(tmp_path) -> None:
    (tmp_path / "t.j2").write_text("{{ n }}\n")
    env = environment([tmp_path], Limits())
    assert env.get_template("t.j2").render(n=1) == "1\n"


def test_an_earlier_folder_wins(tmp_path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    (first / "t.j2").write_text("first")
    (second / "t.j2").write_text("second")
    (second / "u.j2").write_text("only second")
    env = environment([first, second], Limits())
    assert env.get_template("t.j2").render() == "first"
    assert env.get_template("u.j2").render() == "only second"


def test_an_undefined_value_is_an_error(env) -> None:
    with pytest.raises(Exception, match=r"^'missing' is undefined$"):
        render(env, "{{ missing }}")


def test_values_are_written_as_they_are(env) -> None:
    assert render(env, "{{ s }}", s="<a & b>") == "<a & b>"


def test_a_trailing_newline_is_kept(env) -> None:
    assert render(env, "a\n") == "a\n"


def test_the_limits_come_from_the_environment_variables_when_not_given(tmp_path, monkeypatch) -> None:
    for variable in Limits.VARIABLES.values():
        monkeypatch.delenv(variable, raising=False)
    assert environment([tmp_path]).limits == Limits()
    monkeypatch.setenv("CITGEN_TEMPLATE_MAX_SIZE", "5")
    env = environment([tmp_path])
    assert env.limits == Limits(size=5)
    assert refused(env, "{{ s * 6 }}", s="x") == (
        "template exceeded a limit: the result of '*' would be longer than 5 characters or items "
        "(set CITGEN_TEMPLATE_MAX_SIZE to raise the limit)")


def test_a_template_renders_a_mapping_given_as_its_values(env) -> None:
    assert env.from_string("{{ a }}{{ b }}").render({"a": 1}, b=2) == "12"


# -- values the environment checks

def test_a_large_value_makes_the_budget_look_at_memory(tmp_path, monkeypatch) -> None:
    env = environment([tmp_path], Limits(size=LARGE_VALUE * 2))
    looked: list[int] = []
    monkeypatch.setattr(Budget, "check_memory", lambda budget: looked.append(1))
    render(env, "{{ s * n }}", s="x", n=LARGE_VALUE - 1)
    assert looked == []
    render(env, "{{ s * n }}", s="x", n=LARGE_VALUE)
    assert looked == [1]


# -- literals

def test_a_tuple_holding_variables_is_checked(env) -> None:
    assert refused(env, "{{ (s, s) | length }}", s="x" * 600) == TOO_LARGE.format("a tuple the template builds")
    assert render(env, "{{ (s, s) | length }}", s="x" * 499) == "2"


def test_a_literal_of_constants_is_not_checked(env, monkeypatch) -> None:
    seen = made(env, monkeypatch)
    assert render(env, "{{ [1, 2] }}{{ (1, 2) }}{{ {'a': 1} }}") == "[1, 2](1, 2){'a': 1}"
    assert seen == []


def test_a_literal_of_constants_is_as_large_as_its_source(env) -> None:
    long = "x" * (SIZE + 1)
    assert render(env, "{{ [('" + long + "' | yaml_scalar)] | length }}") == "1"


def test_a_literal_of_constants_known_only_when_rendering_is_checked(env) -> None:
    """Under an autoescape decided when rendering, Jinja cannot fold a filter's result into a constant."""
    long = "x" * (SIZE + 1)
    source = "{% autoescape flag %}{{ [('" + long + "' | yaml_scalar)] | length }}{% endautoescape %}"
    assert refused(env, source, flag=False) == TOO_LARGE.format("a list the template builds")


def test_names_assigned_from_a_tuple_are_not_values_to_check(env) -> None:
    source = "{% set a, b = pair %}{{ b }}{{ a }}{% for k, v in d.items() %}{{ k }}={{ v }}{% endfor %}"
    assert render(env, source, pair=(1, 2), d={"x": 3}) == "21x=3"


# -- text built with ~

def test_tilde_writes_numbers_and_text(env) -> None:
    assert render(env, "{{ n ~ s ~ n }}", n=1, s="a") == "1a1"


def test_tilde_with_markup_keeps_it_unless_escaping(env) -> None:
    assert render(env, "{{ m ~ s }}", m=Markup("<b>"), s="<") == "<b><"
    assert render(env, "{% autoescape true %}{{ m ~ s }}{% endautoescape %}", m=Markup("<b>"), s="<") == "<b>&lt;"


def test_escaping_that_makes_tilde_text_too_long_is_refused(env) -> None:
    source = "{% autoescape true %}{{ m ~ s }}{% endautoescape %}"
    assert len(render(env, source, m=Markup("b"), s="<" * 249)) == 997
    assert refused(env, source, m=Markup("b"), s="<" * 300) == TILDE


# -- operators

def test_a_sequence_times_one_is_bounded_by_the_sequence(env, monkeypatch) -> None:
    seen = made(env, monkeypatch)
    assert refused(env, "{{ s * 1 }}", s="x" * (SIZE + 1)) == TOO_LARGE.format("the result of '*'")
    assert seen == []


def test_a_product_of_exactly_the_most_bits_is_allowed(env) -> None:
    """2 ** 2047 has 2048 bits: two of them add up to 4096, which is allowed."""
    assert render(env, "{{ (a * b) == c }}", a=2 ** 2047, b=2 ** 2047, c=2 ** 4094) == "True"


def test_a_power_of_one_is_bounded_by_its_base(env, monkeypatch) -> None:
    seen = made(env, monkeypatch)
    assert refused(env, "{{ n ** 1 }}", n=2 ** MAX_INT_BITS) == (
        f"template exceeded a limit: the result of '**' would be a number of more than {MAX_INT_BITS} bits")
    assert seen == []


def test_printf_exactly_at_the_limit_is_allowed(env) -> None:
    """'%990s' is 5 characters, the width 990 and the value 5: 1000."""
    assert render(env, "{{ '%990s' % s }}", s="abcde") == " " * 985 + "abcde"
    assert refused(env, "{{ '%990s' % s }}", s="abcdef") == TOO_LARGE.format("the result of '%'")


def test_the_result_of_an_operator_is_checked(env) -> None:
    assert len(render(env, "{{ a + b }}", a="x" * 500, b="y" * 500)) == SIZE
    assert refused(env, "{{ a + b }}", a="x" * 500, b="y" * 501) == TOO_LARGE.format("the result of '+'")


# -- the rendered text

MACRO = "{% macro m() %}{{ a }}{{ b }}{% endmacro %}"


def test_the_text_of_a_macro_is_bounded(env) -> None:
    assert render(env, MACRO + "{% set x = m() %}{{ x | length }}", a="x" * 500, b="y" * 500) == str(SIZE)
    assert refused(env, MACRO + "{% set x = m() %}{{ x | length }}", a="x" * 500, b="y" * 501) == RENDERED


def test_the_text_of_a_macro_is_its_pieces_in_order(env) -> None:
    assert render(env, MACRO + "{{ m() }}", a="ab", b="cd") == "abcd"


def test_the_peak_of_rendered_text_is_the_longest_rendering(env) -> None:
    """A macro's text that is not written is not rendered text: its peak is that of the whole template."""
    assert render(env, MACRO + "{% set x = m() %}{{ x | length }}", a="x" * 30, b="") == "30"
    assert env.budget.peak_text == 2
    render(env, "{{ s }}", s="x" * 5)
    assert env.budget.peak_text == 5
    render(env, "{{ s }}", s="x" * 3)
    assert env.budget.peak_text == 5


# -- constants: filters run when rendering, never while compiling

def test_text_built_with_tilde_from_constant_filters_is_bounded(env) -> None:
    """Jinja would join constant parts while compiling, where no bound holds; they are joined when rendering."""
    assert refused(env, "{{ ('x' | center(600)) ~ ('y' | center(600)) }}") == TILDE
    assert render(env, "{{ ('x' | center(3)) ~ ('y' | center(3)) }}") == " x  y "


def test_a_literal_of_constant_filters_is_checked(env) -> None:
    assert refused(env, "{{ [('x' | center(600)), ('y' | center(600))] | length }}") == TOO_LARGE.format(
        "a list the template builds")
    assert render(env, "{{ [('x' | center(3)), ('y' | center(3))] }}") == "[' x ', ' y ']"


def test_no_filter_runs_while_a_template_is_compiled(env, monkeypatch) -> None:
    seen = made(env, monkeypatch)
    template = env.from_string("{{ 'x' | center(5) }}{{ [1, 2] | sum }}")
    assert seen == []
    assert template.render() == "  x  3"
    assert seen == ["  x  ", 3]
