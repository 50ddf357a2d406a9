"""generator/cli/options.py: the option types every command shares, and the command class that reports Results.

Each test runs a small command of its own, made with ``command()`` and the types under
test, through click's CliRunner: what a user sees is the exit code and the report, so
that is what is checked, with the exact messages of the refusals.
"""

from __future__ import annotations

import json
from typing import Any

import click
import pytest
from click.testing import CliRunner

from generator.cli.options import (COUNT_DIGITS, GROUP_FORMAT, CpuCount, DocumentCount, GpuCount, QuantityParam,
                                   Seconds, SizeParam, command, report_format, reported, too_long, whole)
from generator.errors import InputError
from generator.result import Result


@command("probe")
@click.option("--gpu-count", type=GpuCount())
@click.option("--cpus", type=CpuCount())
@click.option("--memory", type=QuantityParam())
@click.option("--wait", type=Seconds(), multiple=True)
@click.option("--name")
def probe(**given: Any) -> Result:
    """Says back what it was given, so a test sees the converted values."""
    shown = " ".join(f"{key}={value!r}" for key, value in sorted(given.items()) if value not in (None, ()))
    return Result("probe", outputs=(shown,))


def run(*args: str) -> tuple[int, str]:
    done = CliRunner().invoke(probe, list(args))
    return done.exit_code, done.output


def problems(*args: str) -> list[tuple[str, str]]:
    """The refusals of a run in the json format, as (option, message)."""
    code, output = run(*args, "--format", "json")
    assert code == 2
    return [(p["file"], p["message"]) for p in json.loads(output)["problems"]]


@pytest.mark.parametrize("text, number", [
    ("0", 0), ("16", 16), ("9" * COUNT_DIGITS, int("9" * COUNT_DIGITS)),
    ("9" * (COUNT_DIGITS + 1), None), ("١٦", None), ("４", None), (" 4 ", None), ("1_0", None), ("-1", None),
    ("", None), ("1.0", None),
])
def test_a_whole_number_is_ascii_digits_and_at_most_eighteen_of_them(text: str, number: int | None) -> None:
    assert whole(text) == number


def test_only_a_run_of_digits_too_long_is_told_its_length() -> None:
    assert too_long("1" * 19) == ", of at most 18 digits"
    assert too_long("1" * 18) == ""
    assert too_long("x" * 19) == ""


@pytest.mark.parametrize("count", ["1", "16"])
def test_the_gpu_count_takes_one_to_sixteen(count: str) -> None:
    assert run("--gpu-count", count) == (0, f"gpu_count={int(count)}\n")


@pytest.mark.parametrize("count, message", [
    ("0", "expected 1 to 16 GPUs, got 0"),
    ("17", "expected 1 to 16 GPUs, got 17"),
    ("two", "expected a whole number of GPUs, got 'two'"),
    ("1" * 19, "expected 1 to 16 GPUs, got '1111111111111111111'"),
])
def test_the_gpu_count_refuses_what_is_not_one_to_sixteen(count: str, message: str) -> None:
    assert problems("--gpu-count", count) == [("--gpu-count", message)]


def test_a_cpu_count_is_one_or_more_and_says_when_it_is_too_long() -> None:
    assert run("--cpus", "1") == (0, "cpus=1\n")
    assert problems("--cpus", "0") == [("--cpus", "expected a whole number of vCPUs, 1 or more, got '0'")]
    assert problems("--cpus", "9" * 19) == [
        ("--cpus", "expected a whole number of vCPUs, 1 or more, of at most 18 digits, got '9999999999999999999'")]


def test_a_memory_quantity_is_read_as_bytes_and_must_be_more_than_nothing() -> None:
    assert run("--memory", "1Ki") == (0, "memory=Fraction(1024, 1)\n")
    assert problems("--memory", "0") == [("--memory", "expected an amount of memory greater than 0, got '0'")]


@pytest.mark.parametrize("seconds, value", [("0", 0.0), ("86400", 86400.0), ("1e3", 1000.0), (".5", 0.5),
                                            ("2.", 2.0)])
def test_seconds_are_a_number_from_zero_to_a_day(seconds: str, value: float) -> None:
    assert run("--wait", seconds) == (0, f"wait=({value!r},)\n")


@pytest.mark.parametrize("seconds", ["86400.5", "-1", "nan", "inf", "infinity", "1_0", "١٠", "1e999999"])
def test_seconds_that_would_wait_for_ever_or_are_not_written_in_digits_are_refused(seconds: str) -> None:
    assert problems("--wait", seconds) == [
        ("--wait", f"expected a number of seconds from 0 to 86400, got {seconds!r}")]


def test_of_a_repeated_option_only_the_value_refused_is_reported_and_the_others_are_kept() -> None:
    assert run("--wait", "1", "--wait", "2") == (0, "wait=(1.0, 2.0)\n")
    assert problems("--wait", "1", "--wait", "nan") == [
        ("--wait", "expected a number of seconds from 0 to 86400, got 'nan'")]


def test_every_refused_option_is_reported_at_once_not_only_the_first() -> None:
    assert problems("--gpu-count", "17", "--cpus", "0", "--name", "a\nb") == [
        ("--cpus", "expected a whole number of vCPUs, 1 or more, got '0'"),
        ("--gpu-count", "expected 1 to 16 GPUs, got 17"),
        ("--name", "expected text without control characters, line breaks or direction marks, got 'a\\\\nb'"),
    ]


def test_a_refusal_runs_nothing_and_is_reported_in_the_text_format_by_default() -> None:
    code, output = run("--gpu-count", "0", "--name", "fine")
    assert code == 2
    assert "--gpu-count: expected 1 to 16 GPUs, got 0" in output
    assert "gpu_count" not in output and "name='fine'" not in output


def test_a_command_s_own_format_wins_over_the_group_s_and_text_is_the_last_resort() -> None:
    context = click.Context(probe)
    assert report_format(context, None) == "text"
    context.meta[GROUP_FORMAT] = "github"
    assert report_format(context, None) == "github"
    assert report_format(context, "json") == "json"


@click.command()
@click.option("--documents", type=DocumentCount(), envvar="PROBE_DOCUMENTS", default=10)
@click.option("--size", type=SizeParam(), default=1024)
def plain(documents: int, size: int) -> None:
    click.echo(f"{documents} {size}")


def test_group_options_are_counts_and_sizes_people_write() -> None:
    done = CliRunner().invoke(plain, ["--documents", "3", "--size", "2Mi"])
    assert (done.exit_code, done.output) == (0, f"3 {2 * 1024 * 1024}\n")
    assert CliRunner().invoke(plain, []).output == "10 1024\n"


def test_a_usage_error_names_the_environment_variable_when_that_set_the_value() -> None:
    by_option = CliRunner().invoke(plain, ["--documents", "0"])
    by_environment = CliRunner().invoke(plain, [], env={"PROBE_DOCUMENTS": "0"})
    assert by_option.exit_code == by_environment.exit_code == 2
    message = "expected a whole number of documents, 1 or more, got '0'"
    assert f"Invalid value for '--documents': {message}" in by_option.output
    assert f"Invalid value for PROBE_DOCUMENTS: {message}" in by_environment.output


def test_a_plain_command_reports_a_citgen_error_as_its_problems_and_exit_code() -> None:
    @click.command()
    @reported
    def refusing() -> None:
        raise InputError("nothing to read")

    done = CliRunner().invoke(refusing, [])
    assert done.exit_code == 2
    assert "nothing to read" in done.output
    assert done.exception is None or isinstance(done.exception, SystemExit)
