"""generator/errors.py: one error hierarchy, whose exit codes the CLI reports.

A CitgenError carries its problems sorted, its message is their lines, and a bare
string becomes one problem located at ``citgen``; an input error exits 2, a failed
validation 1.
"""

from __future__ import annotations

from generator.errors import CitgenError, InputError, ValidationFailed
from generator.problems import Location, Problem


def test_a_string_is_one_problem_located_at_citgen():
    error = CitgenError("the lock is held")
    assert error.problems == [Problem(Location("citgen"), "the lock is held")]
    assert str(error) == "citgen: the lock is held"


def test_problems_are_kept_sorted_and_the_message_is_one_line_each():
    later, earlier = Problem(Location("b.yaml", 1), "second"), Problem(Location("a.yaml", 9), "first")
    error = CitgenError(iter([later, earlier]))
    assert error.problems == [earlier, later]
    assert str(error) == "a.yaml:9: first\nb.yaml:1: second"


def test_two_problems_at_one_place_are_both_kept():
    same = Problem(Location("a.yaml", 1), "twice")
    assert CitgenError([same, same]).problems == [same, same]


def test_exit_codes_are_two_for_input_and_usage_and_one_for_what_failed_validation():
    assert (CitgenError.exit_code, InputError.exit_code, ValidationFailed.exit_code) == (2, 2, 1)
    assert ValidationFailed("x").exit_code == 1 and InputError("x").exit_code == 2


def test_input_error_at_is_one_problem_at_a_location():
    error = InputError.at(Location("series/u.yaml", 4, 3, ("sizes",)), "expected a mapping")
    assert type(error) is InputError
    assert error.problems == [Problem(Location("series/u.yaml", 4, 3, ("sizes",)), "expected a mapping")]
    assert str(error) == "series/u.yaml:4:3: sizes: expected a mapping"


def test_both_kinds_are_citgen_errors():
    assert issubclass(InputError, CitgenError) and issubclass(ValidationFailed, CitgenError)
    assert issubclass(CitgenError, Exception) and not issubclass(ValidationFailed, InputError)
