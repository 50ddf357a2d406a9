"""The Result of a command decides its exit code, in one place, from what the command found."""

from __future__ import annotations

import pytest

from generator.errors import CitgenError, InputError, ValidationFailed
from generator.problems import Location, Problem
from generator.result import Result

PROBLEM = Problem(Location("bundle.yaml", 3, 5, ("spec",), 0, "u1.large", "VirtualMachineClusterInstancetype"),
                  "unknown field 'x'", "schema")
LINE = "bundle.yaml:3:5: error: VirtualMachineClusterInstancetype u1.large $.spec: unknown field 'x' [schema]"
NEWER = Problem(Location("old.yaml", None, None, (), 0, "u1.large"), "label size is missing",
                "labels-match-spec", since="v1.1.0", older_release="v1.0.0")


@pytest.mark.parametrize(
    ("result", "code"),
    [
        (Result("build", outputs=("wrote 9 files to bundles",)), 0),
        (Result("validate", newer_rule_findings=(NEWER,), documents=1), 0),  # never counted
        (Result("validate", problems=(PROBLEM,), documents=1), 1),
        (Result("diff", found=True), 1),
        (Result("readme", found=True, notes=("README.md is out of date",)), 1),
        (Result("build", problems=(PROBLEM,), unusable=True), 2),
        (Result("list", unusable=True), 2),
    ],
    ids=["clean", "only-newer-findings", "problems", "differences", "stale", "refused-with-problems", "unusable"],
)
def test_the_exit_code_is_0_clean_1_found_2_unusable(result: Result, code: int):
    assert (result.exit_code, result.ok) == (code, code == 0)


def test_an_input_error_is_an_unusable_result_closed_by_its_count():
    error = InputError([PROBLEM, PROBLEM])
    result = Result.refused("build", error, "citgen: {problems}, nothing written")
    assert (result.command, result.problems, result.exit_code) == ("build", (PROBLEM, PROBLEM), 2)
    assert result.notes == ("citgen: 2 problems, nothing written",)
    assert Result.refused("list", InputError([PROBLEM]), "citgen: {problems}").notes == ("citgen: 1 problem",)
    assert Result.refused("init", CitgenError("no room")).notes == ()


def test_a_refusal_of_what_was_checked_is_a_finding_not_unusable_input():
    result = Result.refused("expand", ValidationFailed([PROBLEM]))
    assert (result.unusable, result.exit_code) == (False, 1)


def test_only_a_validation_that_ran_is_a_report():
    assert Result("validate", problems=(PROBLEM,), documents=3).is_report
    assert not Result("validate", problems=(PROBLEM,), documents=3, unusable=True).is_report
    assert not Result("expand", problems=(PROBLEM,)).is_report


def test_a_plain_click_command_in_the_earlier_style_still_reports_without_a_traceback():
    import click
    from click.testing import CliRunner

    from generator.cli.options import reported

    @click.command()
    @reported
    def legacy() -> None:
        raise InputError([PROBLEM])

    result = CliRunner().invoke(legacy, [])
    assert (result.exit_code, result.stderr) == (
        2, f"{LINE}\n")


def test_the_group_reports_a_citgen_error_that_a_plain_command_lets_escape():
    import click
    from click.testing import CliRunner

    from generator.cli import CitgenGroup

    @click.group(cls=CitgenGroup)
    def group() -> None:
        pass

    @group.command()
    def plain() -> None:
        raise InputError([PROBLEM])

    result = CliRunner().invoke(group, ["plain"])
    assert (result.exit_code, result.stderr) == (
        2, f"{LINE}\ncitgen: 1 problem\n")
