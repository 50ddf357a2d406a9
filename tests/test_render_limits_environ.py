"""The limits of a build's rendering (generator/render/limits.py), called in-process.

``Limits.from_environ`` reads each bound from its variable and refuses a value
that is not a number of the right kind; ``exceeded`` writes the message a user
reads when a rendering goes past one (tests/test_render_limits.py sees them
stop whole builds).
"""

from __future__ import annotations

import pytest

from generator.errors import InputError
from generator.render.limits import Limits, exceeded


def refusal(environ: dict[str, str]) -> str:
    with pytest.raises(InputError) as raised:
        Limits.from_environ(environ)
    return str(raised.value)


# --------------------------------------------------------------------------- Limits.from_environ


def test_without_any_variable_the_limits_are_the_defaults():
    assert Limits.from_environ({}) == Limits(size=1_000_000, memory=256, seconds=10.0, total_seconds=60.0)


def test_the_limits_are_read_from_the_process_environment_by_default(monkeypatch):
    monkeypatch.setenv("CITGEN_TEMPLATE_MAX_MEMORY", "77")
    assert Limits.from_environ() == Limits(memory=77)


@pytest.mark.parametrize("variable, field, text, value", [
    ("CITGEN_TEMPLATE_MAX_SIZE", "size", "2000000", 2_000_000),
    ("CITGEN_TEMPLATE_MAX_MEMORY", "memory", "1", 1),
    ("CITGEN_TEMPLATE_SECONDS", "seconds", "0.5", 0.5),
    ("CITGEN_TEMPLATE_TOTAL_SECONDS", "total_seconds", "1e-9", 1e-9),
], ids=["size", "memory", "seconds", "total seconds"])
def test_each_variable_sets_its_limit_and_only_that_one(variable, field, text, value):
    assert Limits.from_environ({variable: text}) == Limits(**{field: value})


@pytest.mark.parametrize("variable, field", [
    ("CITGEN_TEMPLATE_SECONDS", "seconds"), ("CITGEN_TEMPLATE_TOTAL_SECONDS", "total_seconds"),
])
def test_seconds_given_as_a_whole_number_are_a_float(variable, field):
    value = getattr(Limits.from_environ({variable: "3"}), field)
    assert (value, type(value)) == (3.0, float)


@pytest.mark.parametrize("variable, field", [
    ("CITGEN_TEMPLATE_MAX_SIZE", "size"), ("CITGEN_TEMPLATE_MAX_MEMORY", "memory"),
])
def test_a_count_is_a_whole_number(variable, field):
    value = getattr(Limits.from_environ({variable: "1"}), field)
    assert (value, type(value)) == (1, int)


def test_every_variable_set_at_once_sets_every_limit():
    environ = {"CITGEN_TEMPLATE_MAX_SIZE": "10", "CITGEN_TEMPLATE_MAX_MEMORY": "30", "CITGEN_TEMPLATE_SECONDS": "4.5",
               "CITGEN_TEMPLATE_TOTAL_SECONDS": "50"}
    assert Limits.from_environ(environ) == Limits(10, 30, 4.5, 50.0)


@pytest.mark.parametrize("variable", ["CITGEN_TEMPLATE_MAX_SIZE", "CITGEN_TEMPLATE_MAX_MEMORY"])
@pytest.mark.parametrize("text", ["0", "-1", "1.5", "lots", "", "inf"])
def test_a_count_that_is_not_a_whole_number_of_at_least_one_is_refused(variable, text):
    assert refusal({variable: text}) == f"{variable}: expected a whole number at least 1, got {text!r}"


@pytest.mark.parametrize("variable", ["CITGEN_TEMPLATE_SECONDS", "CITGEN_TEMPLATE_TOTAL_SECONDS"])
@pytest.mark.parametrize("text", ["0", "0.0", "-0.5", "soon", "", "inf", "nan", "-inf"])
def test_seconds_that_are_not_a_finite_number_above_zero_are_refused(variable, text):
    assert refusal({variable: text}) == f"{variable}: expected a number of seconds greater than 0, got {text!r}"


@pytest.mark.parametrize("variable, field", [
    ("CITGEN_TEMPLATE_MAX_SIZE", "size"), ("CITGEN_TEMPLATE_SECONDS", "seconds"),
])
def test_a_number_of_40_characters_is_read(variable, field):
    assert getattr(Limits.from_environ({variable: "0" * 39 + "7"}), field) == 7


@pytest.mark.parametrize("variable, expected", [
    ("CITGEN_TEMPLATE_MAX_SIZE", "a whole number at least 1 of at most 40 digits"),
    ("CITGEN_TEMPLATE_SECONDS",
     "a number of seconds greater than 0 of at most 40 digits and an exponent from -99 to 99"),
])
def test_a_number_of_41_digits_is_refused_without_reading_it(variable, expected):
    text = "0" * 40 + "7"
    assert refusal({variable: text}) == f"{variable}: expected {expected}, got {text!r}"


@pytest.mark.parametrize("text", ["1e100", "1e-100", "1e" + "9" * 1_000_000])
def test_seconds_with_an_exponent_past_99_are_refused_without_reading_them(text):
    assert refusal({"CITGEN_TEMPLATE_SECONDS": text}).startswith(
        "CITGEN_TEMPLATE_SECONDS: expected a number of seconds greater than 0 of at most 40 digits and an exponent "
        f"from -99 to 99, got '{text[:60]}")


@pytest.mark.parametrize("variable", ["CITGEN_TEMPLATE_MAX_SIZE", "CITGEN_TEMPLATE_SECONDS"])
@pytest.mark.parametrize("text", ["١٠", "１０", "1_0", " 10", "10 "])
def test_a_number_is_written_in_ascii_digits_only(variable, text):
    expected = "a whole number at least 1" if variable.endswith("SIZE") else "a number of seconds greater than 0"
    assert refusal({variable: text}) == f"{variable}: expected {expected}, got {text!r}"


def test_seconds_may_have_a_point_and_an_exponent():
    assert Limits.from_environ({"CITGEN_TEMPLATE_SECONDS": "1.5e1"}).seconds == 15.0


def test_a_long_refused_value_is_shown_shortened():
    text = "x" * 200
    message = refusal({"CITGEN_TEMPLATE_MAX_MEMORY": text})
    assert message == ("CITGEN_TEMPLATE_MAX_MEMORY: expected a whole number at least 1, got "
                       f"'{'x' * 60}... (140 more characters)'")


def test_every_refused_variable_is_reported_at_once_in_order_of_its_name():
    environ = {"CITGEN_TEMPLATE_SECONDS": "soon", "CITGEN_TEMPLATE_MAX_SIZE": "0",
               "CITGEN_TEMPLATE_MAX_ITERATIONS": "12"}
    assert refusal(environ) == (
        "CITGEN_TEMPLATE_MAX_SIZE: expected a whole number at least 1, got '0'\n"
        "CITGEN_TEMPLATE_SECONDS: expected a number of seconds greater than 0, got 'soon'")


def test_unrelated_variables_are_ignored():
    assert Limits.from_environ({"CITGEN_TEMPLATE": "0", "PATH": "/bin"}) == Limits()


def test_the_loop_limit_of_earlier_versions_is_ignored():
    """CITGEN_TEMPLATE_MAX_ITERATIONS fed the loop counting the time limits replaced."""
    assert Limits.from_environ({"CITGEN_TEMPLATE_MAX_ITERATIONS": "lots"}) == Limits()


# --------------------------------------------------------------------------- the messages


def test_a_limit_names_what_was_rendered_the_bound_and_its_variable():
    assert exceeded("'u1.large' as VirtualMachineInstancetype", "took longer than 10 seconds", "seconds") == (
        "template exceeded a limit: rendering 'u1.large' as VirtualMachineInstancetype took longer than 10 "
        "seconds (set CITGEN_TEMPLATE_SECONDS to raise the limit)")


def test_a_limit_of_a_rendering_of_no_object_says_one_rendering():
    assert exceeded(None, "took more than 256 MiB of memory", "memory") == (
        "template exceeded a limit: one rendering took more than 256 MiB of memory "
        "(set CITGEN_TEMPLATE_MAX_MEMORY to raise the limit)")
