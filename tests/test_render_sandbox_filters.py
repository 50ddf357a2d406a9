"""render/sandbox.py's filters: sum, join, yaml_block and yaml_scalar, and the lazy sequences filters return.

Each filter is rendered through the environment with a size limit of 1000:
its result value, the largest input allowed and the smallest refused, and
that a refused join is never made (the spy sees every value the environment
checks after making it).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from markupsafe import Markup

from generator.render.limits import Limits
from generator.render.sandbox import environment
from generator.render.yamltext import yaml_block
from tests.test_render_sandbox import SIZE, TOO_LARGE, made, refused, render

SUM = TOO_LARGE.format("the result of the sum filter")
JOIN = TOO_LARGE.format("the result of the join filter")


@pytest.fixture
def env(tmp_path: Path):
    return environment([tmp_path], Limits(size=SIZE, iterations=50))


# -- sum

def test_sum_of_lists_joins_them_after_the_start(env) -> None:
    assert render(env, "{{ lists | sum(start=[0]) }}", lists=[[1, 2], [3]]) == "[0, 1, 2, 3]"


def test_sum_of_tuples_is_a_tuple(env) -> None:
    assert render(env, "{{ tuples | sum(start=()) }}", tuples=[(1, 2), (3,)]) == "(1, 2, 3)"


def test_sum_of_lists_is_bounded_by_the_start_and_the_lists_it_joins(env) -> None:
    """[0] counts 2, [[0] * k] counts k + 2: 4 + k may be at most 1000."""
    assert render(env, "{{ (lists | sum(start=[0])) | length }}", lists=[[0] * 996]) == "997"
    assert refused(env, "{{ lists | sum(start=[0]) }}", lists=[[0] * 997]) == SUM


def test_sum_of_numbers(env) -> None:
    assert render(env, "{{ numbers | sum }} {{ numbers | sum(start=10) }}", numbers=[1, 2, 3]) == "6 16"


def test_sum_of_a_range_counts_its_items(env) -> None:
    assert render(env, "{{ range(1000) | sum }}") == "499500"
    assert refused(env, "{{ range(1001) | sum }}") == SUM


def test_sum_of_a_lazy_sequence(env) -> None:
    assert render(env, "{{ texts | map('int') | sum }}", texts=["1", "2", "3"]) == "6"


def test_sum_of_an_attribute(env) -> None:
    items = [{"n": 1}, {"n": 2}]
    assert render(env, "{{ items | sum(attribute='n') }}|{{ items | sum(attribute='n', start=10) }}",
                  items=items) == "3|13"


def test_sum_of_an_attribute_holding_lists(env) -> None:
    rows = [{"tags": ["a"]}, {"tags": ["b", "c"]}]
    assert render(env, "{{ rows | sum(attribute='tags', start=[]) }}", rows=rows) == "['a', 'b', 'c']"


def test_sum_of_lists_without_a_list_start_fails_as_python_sum_does(env) -> None:
    with pytest.raises(TypeError, match=r"^unsupported operand type\(s\) for \+: 'int' and 'list'$"):
        render(env, "{{ lists | sum }}", lists=[[1]])


def test_sum_of_numbers_with_a_list_start_fails_as_python_sum_does(env) -> None:
    with pytest.raises(TypeError, match=r'^can only concatenate list \(not "int"\) to list$'):
        render(env, "{{ numbers | sum(start=[]) }}", numbers=[1, 2])


def test_sum_of_nothing_is_its_start(env) -> None:
    assert render(env, "{{ nothing | sum(start=[5]) }}", nothing=[]) == "[5]"


def test_a_sum_too_large_a_number_is_refused(env) -> None:
    assert refused(env, "{{ numbers | sum }}", numbers=[2 ** 4096]) == (
        "template exceeded a limit: the result of the sum filter would be a number of more than 4096 bits")


# -- join

def test_join_of_an_attribute(env) -> None:
    users = [{"name": "a"}, {"name": "b"}]
    assert render(env, "{{ users | join(', ', attribute='name') }}", users=users) == "a, b"


def test_join_of_an_attribute_counts_the_attribute_not_the_item(env) -> None:
    assert len(render(env, "{{ users | join(attribute='name') }}", users=[{"name": "x" * SIZE}])) == SIZE
    assert refused(env, "{{ users | join(attribute='name') }}", users=[{"name": "x" * (SIZE + 1)}]) == JOIN


def test_join_counts_one_separator_fewer_than_parts(env) -> None:
    assert render(env, "{{ parts | join(',') }}", parts=["x" * SIZE]) == "x" * SIZE
    assert len(render(env, "{{ parts | join(',') }}", parts=["x" * 499, "y" * 500])) == SIZE
    assert refused(env, "{{ parts | join(',') }}", parts=["x" * 500, "y" * 500]) == JOIN


def test_a_refused_join_is_never_made(env, monkeypatch) -> None:
    seen = made(env, monkeypatch)
    assert refused(env, "{{ parts | join(',') }}", parts=["x" * 333] * 3) == JOIN  # 999 and two commas
    assert refused(env, "{{ parts | join }}", parts=["x" * 600] * 2) == JOIN
    assert refused(env, "{{ parts | join }}", parts=["x" * 999, 10]) == JOIN
    assert not any(isinstance(value, str) and len(value) > SIZE for value in seen)


def test_join_of_a_lazy_sequence(env) -> None:
    assert render(env, "{{ words | map('upper') | join('-') }}", words=["a", "b"]) == "A-B"


def test_join_of_a_generator_counts_its_items(env) -> None:
    """An empty text counts 1, as an item of a list does."""
    assert render(env, "[{{ texts | join }}]", texts=("" for _ in range(SIZE))) == "[]"
    assert refused(env, "{{ texts | join }}", texts=("" for _ in range(SIZE + 1))) == JOIN


def test_escaping_that_makes_a_join_too_long_is_refused(env) -> None:
    source = "{% autoescape true %}{{ parts | join }}{% endautoescape %}"
    assert render(env, source, parts=[Markup("b"), "<"]) == "b&lt;"
    assert refused(env, source, parts=[Markup("b"), "<" * 300]) == JOIN


# -- yaml_block and yaml_scalar

def test_yaml_block_writes_a_block_indented(env) -> None:
    assert render(env, "{{ value | yaml_block(2) }}", value={"a": "b"}) == "\n  a: b"


def test_yaml_block_writes_an_empty_value_inline_whatever_the_indent(env) -> None:
    assert render(env, "{{ value | yaml_block('  ') }}|{{ [] | yaml_block(2) }}", value={}) == " {}| []"


def test_yaml_block_takes_exactly_a_value_and_an_indent(env) -> None:
    with pytest.raises(TypeError, match=r"^yaml_block\(\) takes 2 positional arguments but 3 were given$"):
        render(env, "{{ value | yaml_block(2, 3) }}", value={"a": "b"})
    with pytest.raises(TypeError, match=r"^yaml_block\(\) got an unexpected keyword argument 'x'$"):
        render(env, "{{ value | yaml_block(2, x=3) }}", value={"a": "b"})


def test_an_indent_of_64_is_never_refused(env) -> None:
    value = {"a": "x" * 13}  # counts 15: (15 + 1) * (64 + 1) would be past the limit
    assert render(env, "{{ value | yaml_block(64) }}", value=value) == "\n" + " " * 64 + "a: " + "x" * 13


def test_an_indent_past_64_is_refused_from_the_value_and_the_indent(env) -> None:
    value = {"a": "x" * 13}
    assert refused(env, "{{ value | yaml_block(65) }}", value=value) == TOO_LARGE.format(
        "the result of the yaml_block filter")


def test_an_indent_past_64_is_allowed_up_to_the_limit(env) -> None:
    """{'a': 'b'} counts 3: (3 + 1) * (249 + 1) is exactly 1000."""
    assert render(env, "{{ value | yaml_block(249) }}", value={"a": "b"}) == yaml_block({"a": "b"}, 249)
    assert refused(env, "{{ value | yaml_block(250) }}", value={"a": "b"}) == TOO_LARGE.format(
        "the result of the yaml_block filter")


def test_yaml_scalar_quotes_what_plain_text_would_change(env) -> None:
    assert render(env, "{{ 'yes' | yaml_scalar }} {{ 'plain' | yaml_scalar }}") == "'yes' plain"


# -- lazy sequences

def test_a_lazy_sequence_is_counted_as_it_yields(env) -> None:
    words = ["X" * 10] * 100
    assert render(env, "{{ words | map('lower') | join }}", words=words) == "x" * SIZE
    assert refused(env, "{{ words | map('lower') | join }}", words=words + ["X"]) == TOO_LARGE.format(
        "the result of the map filter")


def test_a_lazy_sequence_counts_what_all_its_items_hold(env) -> None:
    rows = [["a"] * 499] * 2  # each row counts 500
    assert render(env, "{{ rows | map('list') | map('length') | sum }}", rows=rows) == "998"
    assert refused(env, "{{ rows | map('list') | map('length') | sum }}", rows=rows + [["a"]]) == TOO_LARGE.format(
        "the result of the map filter")
