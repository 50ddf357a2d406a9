"""The limits of one rendering and its running budget (generator/render/limits.py), called in-process.

``Limits.from_environ`` reads each bound from its variable; ``Budget`` counts the
iterations, time and memory of one rendering and refuses the first one past its
limit with the message a user reads. The clock and the peak memory are fakes
here, so each bound is tried exactly at the limit and one step past it.
"""

from __future__ import annotations

import math
import resource
from types import SimpleNamespace

import pytest

from generator.errors import InputError
from generator.render import limits
from generator.render.limits import (
    MEMORY_EVERY,
    Budget,
    Limits,
    TemplateLimitError,
    peak_memory,
    too_large,
    too_many_bits,
)

MiB = 1024 * 1024


class FakeClock:
    """A monotonic clock that reads what the test sets."""

    def __init__(self, now: float = 100.0):
        self.now = now
        self.reads = 0

    def monotonic(self) -> float:
        self.reads += 1
        return self.now


class FakePeak:
    """The process's peak memory as the test sets it, and how often it was read."""

    def __init__(self, peak: int = 500 * MiB):
        self.peak = peak
        self.reads = 0

    def __call__(self) -> int:
        self.reads += 1
        return self.peak


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(limits, "time", SimpleNamespace(monotonic=fake.monotonic))
    return fake


@pytest.fixture
def peak(monkeypatch: pytest.MonkeyPatch) -> FakePeak:
    fake = FakePeak()
    monkeypatch.setattr(limits, "peak_memory", fake)
    return fake


def refusal(environ: dict[str, str]) -> str:
    with pytest.raises(InputError) as raised:
        Limits.from_environ(environ)
    return str(raised.value)


# --------------------------------------------------------------------------- Limits.from_environ


def test_without_any_variable_the_limits_are_the_defaults():
    assert Limits.from_environ({}) == Limits(size=1_000_000, iterations=1_000_000, memory=256, seconds=10.0,
                                             total_seconds=60.0)


def test_the_limits_are_read_from_the_process_environment_by_default(monkeypatch):
    monkeypatch.setenv("CITGEN_TEMPLATE_MAX_ITERATIONS", "77")
    assert Limits.from_environ() == Limits(iterations=77)


@pytest.mark.parametrize("variable, field, text, value", [
    ("CITGEN_TEMPLATE_MAX_SIZE", "size", "2000000", 2_000_000),
    ("CITGEN_TEMPLATE_MAX_ITERATIONS", "iterations", "5", 5),
    ("CITGEN_TEMPLATE_MAX_MEMORY", "memory", "1", 1),
    ("CITGEN_TEMPLATE_SECONDS", "seconds", "0.5", 0.5),
    ("CITGEN_TEMPLATE_TOTAL_SECONDS", "total_seconds", "1e-9", 1e-9),
], ids=["size", "iterations", "memory", "seconds", "total seconds"])
def test_each_variable_sets_its_limit_and_only_that_one(variable, field, text, value):
    assert Limits.from_environ({variable: text}) == Limits(**{field: value})


@pytest.mark.parametrize("variable, field", [
    ("CITGEN_TEMPLATE_SECONDS", "seconds"), ("CITGEN_TEMPLATE_TOTAL_SECONDS", "total_seconds"),
])
def test_seconds_given_as_a_whole_number_are_a_float(variable, field):
    value = getattr(Limits.from_environ({variable: "3"}), field)
    assert (value, type(value)) == (3.0, float)


@pytest.mark.parametrize("variable, field", [
    ("CITGEN_TEMPLATE_MAX_SIZE", "size"), ("CITGEN_TEMPLATE_MAX_ITERATIONS", "iterations"),
    ("CITGEN_TEMPLATE_MAX_MEMORY", "memory"),
])
def test_a_count_is_a_whole_number(variable, field):
    value = getattr(Limits.from_environ({variable: "1"}), field)
    assert (value, type(value)) == (1, int)


def test_every_variable_set_at_once_sets_every_limit():
    environ = {"CITGEN_TEMPLATE_MAX_SIZE": "10", "CITGEN_TEMPLATE_MAX_ITERATIONS": "20",
               "CITGEN_TEMPLATE_MAX_MEMORY": "30", "CITGEN_TEMPLATE_SECONDS": "4.5",
               "CITGEN_TEMPLATE_TOTAL_SECONDS": "50"}
    assert Limits.from_environ(environ) == Limits(10, 20, 30, 4.5, 50.0)


@pytest.mark.parametrize("variable", ["CITGEN_TEMPLATE_MAX_SIZE", "CITGEN_TEMPLATE_MAX_ITERATIONS",
                                      "CITGEN_TEMPLATE_MAX_MEMORY"])
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


# --------------------------------------------------------------------------- the messages


def test_too_large_names_what_the_limit_and_its_variable():
    error = too_large("the result of '*'", Limits(size=123))
    assert isinstance(error, TemplateLimitError)
    assert str(error) == ("template exceeded a limit: the result of '*' would be longer than 123 characters or "
                          "items (set CITGEN_TEMPLATE_MAX_SIZE to raise the limit)")


def test_too_many_bits_names_what_and_the_limit_in_bits():
    error = too_many_bits("the result of '**'")
    assert isinstance(error, TemplateLimitError)
    assert str(error) == "template exceeded a limit: the result of '**' would be a number of more than 4096 bits"


# --------------------------------------------------------------------------- peak_memory


def test_peak_memory_is_the_process_peak_resident_size_in_bytes():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    measured = peak_memory()
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    assert type(measured) is int
    assert before <= measured <= after


# --------------------------------------------------------------------------- Budget: its state


def test_a_new_budget_has_used_nothing_and_is_not_rendering():
    budget = Budget(Limits(size=5))
    assert budget.limits == Limits(size=5)
    assert (budget.iterations, budget.depth, budget.deadline, budget.started, budget.spent, budget.ticks,
            budget.memory_base) == (0, 0, math.inf, 0.0, 0.0, 0, 0)
    assert (budget.peak_iterations, budget.peak_seconds, budget.peak_text) == (0, 0.0, 0)


def test_start_resets_the_rendering_but_keeps_the_peaks_and_the_time_spent():
    budget = Budget(Limits())
    budget.iterations, budget.depth, budget.ticks, budget.memory_base = 5, 3, 7, 9
    budget.started, budget.deadline, budget.spent = 50.0, 60.0, 4.0
    budget.peak_iterations, budget.peak_seconds, budget.peak_text = 11, 2.5, 13
    budget.start()
    assert (budget.iterations, budget.depth, budget.ticks, budget.memory_base, budget.started,
            budget.deadline) == (0, 0, 0, 0, 0.0, 0.0)
    assert (budget.spent, budget.peak_iterations, budget.peak_seconds, budget.peak_text) == (4.0, 11, 2.5, 13)


def test_a_rendering_that_never_ticks_reads_no_clock(clock):
    budget = Budget(Limits())
    budget.start()
    budget.stop()
    assert (budget.started, budget.spent, budget.peak_seconds, budget.deadline) == (0.0, 0.0, 0.0, math.inf)
    assert clock.reads == 0


def test_stop_adds_the_rendering_time_to_the_total_and_keeps_the_longest(clock):
    budget = Budget(Limits())
    budget.start()
    budget.tick()
    clock.now = 102.5
    budget.stop()
    budget.start()
    clock.now = 200.0
    budget.tick()
    clock.now = 201.0
    budget.stop()
    assert (budget.spent, budget.peak_seconds, budget.deadline) == (3.5, 2.5, math.inf)


def test_stop_keeps_the_most_iterations_of_any_rendering(clock):
    budget = Budget(Limits())
    for count in (3, 5, 2):
        budget.start()
        for _ in range(count):
            budget.iteration()
        budget.stop()
    assert (budget.peak_iterations, budget.iterations) == (5, 2)


# --------------------------------------------------------------------------- Budget: time


def test_the_first_tick_starts_the_clock_of_the_rendering(clock):
    budget = Budget(Limits(seconds=10.0, total_seconds=60.0))
    budget.start()
    budget.tick()
    assert (budget.started, budget.deadline, budget.ticks) == (100.0, 110.0, 1)


def test_the_first_tick_allows_only_the_time_left_of_the_total(clock):
    budget = Budget(Limits(seconds=10.0, total_seconds=60.0))
    budget.spent = 55.0
    budget.start()
    budget.tick()
    assert budget.deadline == 105.0


def test_the_first_tick_after_the_total_is_spent_allows_no_time(clock):
    budget = Budget(Limits(seconds=10.0, total_seconds=60.0))
    budget.spent = 70.0
    budget.start()
    budget.tick()
    assert budget.deadline == 100.0


def test_outside_a_rendering_ticks_read_the_clock_but_never_start_it(clock):
    budget = Budget(Limits(seconds=0.5))
    clock.now = 1e12
    budget.tick()
    budget.tick()
    assert (budget.started, budget.deadline, budget.ticks) == (0.0, math.inf, 2)


def test_a_tick_at_the_deadline_is_in_time(clock):
    budget = Budget(Limits(seconds=0.5))
    budget.start()
    budget.tick()
    clock.now = 100.5
    budget.tick()
    assert budget.ticks == 2


def test_a_tick_past_the_deadline_stops_the_rendering(clock):
    budget = Budget(Limits(seconds=0.5))
    budget.start()
    budget.tick()
    clock.now = 100.75
    with pytest.raises(TemplateLimitError) as raised:
        budget.tick()
    assert str(raised.value) == ("template exceeded a limit: one rendering took longer than 0.5 seconds "
                                 "(set CITGEN_TEMPLATE_SECONDS to raise the limit)")


def test_a_rendering_whose_full_time_reaches_the_total_exactly_is_stopped_as_one_rendering(clock):
    budget = Budget(Limits(seconds=10.0, total_seconds=20.0))
    budget.spent = 10.0
    budget.start()
    budget.tick()
    clock.now = 111.0
    with pytest.raises(TemplateLimitError) as raised:
        budget.tick()
    assert str(raised.value) == ("template exceeded a limit: one rendering took longer than 10 seconds "
                                 "(set CITGEN_TEMPLATE_SECONDS to raise the limit)")


def test_a_rendering_cut_short_by_the_total_is_stopped_for_all_renderings(clock):
    budget = Budget(Limits(seconds=10.0, total_seconds=15.0))
    budget.spent = 10.0
    budget.start()
    budget.tick()
    assert budget.deadline == 105.0
    clock.now = 105.5
    with pytest.raises(TemplateLimitError) as raised:
        budget.tick()
    assert str(raised.value) == ("template exceeded a limit: rendering through this template took longer than "
                                 "15 seconds in all (set CITGEN_TEMPLATE_TOTAL_SECONDS to raise the limit)")


# --------------------------------------------------------------------------- Budget: memory


def test_memory_is_first_looked_at_after_memory_every_ticks(clock, peak):
    budget = Budget(Limits())
    budget.start()
    budget.ticks = MEMORY_EVERY - 2
    budget.tick()
    assert peak.reads == 0
    budget.tick()
    assert (peak.reads, budget.memory_base, budget.ticks) == (1, 500 * MiB, 1024)
    budget.tick()
    assert peak.reads == 1


def test_memory_is_looked_at_again_every_memory_every_ticks(clock, peak):
    budget = Budget(Limits())
    budget.start()
    for _ in range(2 * MEMORY_EVERY):
        budget.tick()
    assert (peak.reads, budget.ticks) == (2, 2048)


def test_memory_is_not_looked_at_outside_a_rendering(peak):
    budget = Budget(Limits(memory=1))
    budget.check_memory()
    assert (peak.reads, budget.memory_base) == (0, 0)


def test_the_first_look_at_memory_takes_the_base_of_the_rendering(peak):
    budget = Budget(Limits(memory=1))
    budget.start()
    budget.check_memory()
    peak.peak = 400 * MiB
    budget.check_memory()
    assert (peak.reads, budget.memory_base) == (1 + 1, 500 * MiB)


def test_a_rendering_may_raise_the_peak_by_exactly_its_limit(peak):
    budget = Budget(Limits(memory=3))
    budget.start()
    budget.check_memory()
    peak.peak += 3 * MiB
    budget.check_memory()
    assert budget.memory_base == 500 * MiB


def test_a_rendering_that_raises_the_peak_past_its_limit_is_stopped(peak):
    budget = Budget(Limits(memory=3))
    budget.start()
    budget.check_memory()
    peak.peak += 3 * MiB + 1
    with pytest.raises(TemplateLimitError) as raised:
        budget.check_memory()
    assert str(raised.value) == ("template exceeded a limit: one rendering took more than 3 MiB of memory "
                                 "(set CITGEN_TEMPLATE_MAX_MEMORY to raise the limit)")


def test_each_rendering_measures_from_its_own_base(peak):
    budget = Budget(Limits(memory=3))
    budget.start()
    budget.check_memory()
    peak.peak += 3 * MiB
    budget.check_memory()
    budget.stop()
    budget.start()
    budget.check_memory()
    peak.peak += 3 * MiB
    budget.check_memory()
    assert budget.memory_base == 503 * MiB


# --------------------------------------------------------------------------- Budget: iterations


def test_a_rendering_may_loop_exactly_its_limit(clock):
    budget = Budget(Limits(iterations=3))
    budget.start()
    for _ in range(3):
        budget.iteration()
    assert (budget.iterations, budget.ticks) == (3, 3)


def test_the_iteration_past_the_limit_stops_the_rendering(clock):
    budget = Budget(Limits(iterations=3))
    budget.start()
    for _ in range(3):
        budget.iteration()
    with pytest.raises(TemplateLimitError) as raised:
        budget.iteration()
    assert str(raised.value) == ("template exceeded a limit: more than 3 loop iterations in one rendering "
                                 "(set CITGEN_TEMPLATE_MAX_ITERATIONS to raise the limit)")
    assert budget.ticks == 3


def test_iterations_are_counted_afresh_for_each_rendering(clock):
    budget = Budget(Limits(iterations=3))
    for _ in range(2):
        budget.start()
        for _ in range(3):
            budget.iteration()
        budget.stop()
    assert budget.peak_iterations == 3


def test_an_iteration_past_the_deadline_stops_the_rendering_for_time(clock):
    budget = Budget(Limits(iterations=3, seconds=1.0))
    budget.start()
    budget.iteration()
    clock.now = 102.0
    with pytest.raises(TemplateLimitError) as raised:
        budget.iteration()
    assert str(raised.value) == ("template exceeded a limit: one rendering took longer than 1 seconds "
                                 "(set CITGEN_TEMPLATE_SECONDS to raise the limit)")
