"""generator/cli/options.py: the option types every command shares, and the command class that reports Results.

Each test runs a small command of its own, made with ``command()`` and the types under
test, through click's CliRunner: what a user sees is the exit code and the report, so
that is what is checked, with the exact messages of the refusals. The commands are made
inside the tests, not when the file is imported, since making one (``command()``, the
command class, the shared options) is part of what is tested.
"""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from typing import Any, Callable

import click
import pytest
from click.testing import CliRunner

from generator.cli.options import (COUNT_DIGITS, FORMAT_HELP, GROUP_FORMAT, CheckedParam, CitgenCommand, CpuCount,
                                   DocumentCount, GpuCount, QuantityParam, Refused, Seconds, SelectorParam,
                                   SizeParam, catalog_build_options, command, kubevirt_option, report_format,
                                   reported, too_long, whole)
from generator.errors import InputError
from generator.problems import Location, Problem
from generator.result import Result
from generator.schemas.releases import UnknownRelease, resolve


def says_back(**given: Any) -> Result:
    """Says back what it was given, so a test sees the converted values."""
    shown = " ".join(f"{key}={value!r}" for key, value in sorted(given.items()) if value not in (None, ()))
    return Result("probe", outputs=(shown,))


def make_probe() -> click.Command:
    @command("probe")
    @click.option("-g", "--gpu-count", type=GpuCount())
    @click.option("--cpus", type=CpuCount())
    @click.option("--memory", type=QuantityParam())
    @click.option("--wait", type=Seconds(), multiple=True)
    @click.option("-l", "--selector", type=SelectorParam())
    @click.option("-n", "--name", multiple=True)
    @click.option("-o", "--out", type=click.Path())
    @click.option("--bundle", "bundles", type=click.Path(), multiple=True)
    def probe(**given: Any) -> Result:
        return says_back(**given)

    return probe


def run(*args: str) -> tuple[int, str]:
    done = CliRunner().invoke(make_probe(), list(args))
    return done.exit_code, done.output


def problems(*args: str, of: Callable[[], click.Command] = make_probe) -> list[tuple[str, str]]:
    """The refusals of a run in the json format, as (option, message)."""
    done = CliRunner().invoke(of(), [*args, "--format", "json"])
    assert done.exit_code == 2, done.output
    return [(p["file"], p["message"]) for p in json.loads(done.output)["problems"]]


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


def test_a_refusal_is_located_at_the_long_name_of_the_option_even_when_the_short_one_was_given() -> None:
    assert problems("-g", "0") == [("--gpu-count", "expected 1 to 16 GPUs, got 0")]


def test_a_cpu_count_is_one_or_more_and_says_when_it_is_too_long() -> None:
    assert run("--cpus", "1") == (0, "cpus=1\n")
    assert problems("--cpus", "0") == [("--cpus", "expected a whole number of vCPUs, 1 or more, got '0'")]
    assert problems("--cpus", "9" * 19) == [
        ("--cpus", "expected a whole number of vCPUs, 1 or more, of at most 18 digits, got '9999999999999999999'")]


def test_a_memory_quantity_is_read_as_bytes_and_must_be_more_than_nothing() -> None:
    assert run("--memory", "1Ki") == (0, "memory=Fraction(1024, 1)\n")
    assert run("--memory", "1") == (0, "memory=Fraction(1, 1)\n")
    assert problems("--memory", "0") == [("--memory", "expected an amount of memory greater than 0, got '0'")]


def test_a_memory_quantity_that_is_not_one_is_refused_with_the_quantity_s_own_message() -> None:
    assert problems("--memory", "lots") == [
        ("--memory", "'lots' is not a Kubernetes quantity (expected a number with an optional suffix Ki, Mi, Gi, Ti, "
                     "Pi, Ei, m, k, M, G, T, P, E, e.g. 2Gi or 512Mi)")]


def test_a_selector_is_parsed_into_its_requirements_and_a_wrong_one_is_refused_with_the_parser_s_message() -> None:
    assert run("-l", "app=x") == (
        0, "selector=(Requirement(key='instancetype.kubevirt.io/app', op='=', values=frozenset({'x'})),)\n")
    assert problems("--selector", "a in") == [
        ("--selector", "cannot read label selector 'a in' at character 1; expected key=value, key!=value, key, "
                       "!key, key in (a,b) or key notin (a,b), separated by commas")]


@pytest.mark.parametrize("seconds, value", [("0", 0.0), ("86400", 86400.0), ("1e3", 1000.0), (".5", 0.5),
                                            ("2.", 2.0)])
def test_seconds_are_a_number_from_zero_to_a_day(seconds: str, value: float) -> None:
    assert run("--wait", seconds) == (0, f"wait=({value!r},)\n")


@pytest.mark.parametrize("seconds", ["86400.5", "-1", "nan", "inf", "infinity", "1_0", "١٠", "1e999999",
                                     "0e100", "1e-100"])
def test_seconds_that_would_wait_for_ever_or_are_not_written_in_digits_are_refused(seconds: str) -> None:
    """``0e100`` and ``1e-100`` are finite, but their exponent is past what citgen reads in any number."""
    assert problems("--wait", seconds) == [
        ("--wait", f"expected a number of seconds from 0 to 86400, got {seconds!r}")]


def test_a_refusal_of_seconds_shows_the_first_forty_characters_of_the_value() -> None:
    assert problems("--wait", "9" * 50) == [
        ("--wait", f"expected a number of seconds from 0 to 86400, got {'9' * 40!r}")]


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


def test_each_value_of_a_repeated_text_option_is_checked_and_located_at_its_long_name() -> None:
    assert problems("-n", "fine", "-n", "a\tb") == [
        ("--name", "expected text without control characters, line breaks or direction marks, got 'a\\\\tb'")]


def test_a_path_may_hold_any_character_and_an_option_the_function_is_not_given_is_not_read() -> None:
    @command("paths")
    @click.option("-o", "--out", type=click.Path())
    @click.option("--hidden", expose_value=False)
    def paths(**given: Any) -> Result:
        return says_back(**given)

    done = CliRunner().invoke(paths, ["--out", "a\nb", "--hidden", "c\nd"])
    assert (done.exit_code, done.output) == (0, "out='a\\nb'\n")


def test_a_refusal_runs_nothing_and_is_reported_in_the_text_format_on_standard_error_by_default() -> None:
    done = CliRunner().invoke(make_probe(), ["--gpu-count", "0", "--name", "fine"])
    assert (done.exit_code, done.stdout, done.stderr) == (
        2, "", "--gpu-count: error: expected 1 to 16 GPUs, got 0 [input]\n")


def test_a_result_s_outputs_go_to_standard_output_as_they_are() -> None:
    done = CliRunner().invoke(make_probe(), ["--cpus", "2"])
    assert (done.exit_code, done.stdout, done.stderr) == (0, "cpus=2\n", "")


def test_a_command_s_own_format_wins_over_the_group_s_and_text_is_the_last_resort() -> None:
    context = click.Context(make_probe())
    assert report_format(context, None) == "text"
    context.meta[GROUP_FORMAT] = "github"
    assert report_format(context, None) == "github"
    assert report_format(context, "json") == "json"


# --------------------------------------------------------------------------- the command class


def refusing(**attrs: Any) -> click.Command:
    @command("probe", **attrs)
    def refuse_all() -> Result:
        raise InputError([Problem(Location("a.yaml"), "first"), Problem(Location("b.yaml"), "second")])

    return refuse_all


def test_a_refused_command_is_reported_under_its_name_or_the_name_given_for_reports() -> None:
    assert json.loads(CliRunner().invoke(refusing(), ["--format", "json"]).output)["command"] == "probe"
    named = CliRunner().invoke(refusing(report_name="schema import"), ["--format", "json"])
    assert json.loads(named.output)["command"] == "schema import"


def test_a_command_without_a_name_is_reported_as_citgen() -> None:
    def probe() -> Result:
        raise InputError("nothing to read")

    done = CliRunner().invoke(CitgenCommand(None, callback=probe), ["--format", "json"])
    assert (done.exit_code, json.loads(done.output)["command"]) == (2, "citgen")


def test_a_closing_ends_a_refusal_with_the_count_of_its_problems() -> None:
    done = CliRunner().invoke(refusing(closing="citgen: {problems}, nothing written"), [])
    assert (done.exit_code, done.stderr) == (2, "a.yaml: error: first [input]\nb.yaml: error: second [input]\n"
                                                "citgen: 2 problems, nothing written\n")
    assert CliRunner().invoke(refusing(), []).stderr == "a.yaml: error: first [input]\nb.yaml: error: second [input]\n"


def test_every_command_takes_every_format_and_its_own_markdown_is_explained() -> None:
    plain, own = make_probe(), refusing(formats={"markdown": "a table for a pull request"})
    assert plain.params[-1].get_help_record(click.Context(plain)) == (
        "--format [text|json|github|markdown|sarif]", FORMAT_HELP + "  [default: text, or citgen --format]")
    assert own.params[-1].get_help_record(click.Context(own)) == (
        "--format [text|json|github|markdown|sarif]",
        FORMAT_HELP + " Here markdown is a table for a pull request.  [default: text, or citgen --format]")


def test_a_command_that_returns_no_result_is_a_programming_error_named_after_the_command() -> None:
    @command("probe")
    def returns_nothing() -> None:
        return None

    done = CliRunner().invoke(returns_nothing, [])
    assert isinstance(done.exception, TypeError)
    assert str(done.exception) == "probe returned None, not a Result"


# --------------------------------------------------------------------------- the shared options


def make_builder() -> click.Command:
    @command("probe")
    @catalog_build_options
    @kubevirt_option("Build for this KubeVirt release")
    def probe(**given: Any) -> Result:
        return Result("probe", outputs=(repr(sorted(given.items())),))

    return probe


def test_the_build_options_are_named_and_explained_in_this_order() -> None:
    builder = make_builder()
    context = click.Context(builder)
    assert [param.get_help_record(context) for param in builder.params[:-1]] == [
        ("--catalog DIRECTORY", "Catalog directory, or 'builtin' for the built-in catalog (default: the catalog the "
                                "working directory is in, the nearest folder from it up holding catalog.yaml; else "
                                "the built-in one)."),
        ("--version TEXT", "Catalog version stamped as the common-instancetypes-version label (default: "
                           "catalog.yaml's version, or --release where there is one)."),
        ("--gpu-device nvidia.com/MODEL", "NVIDIA GPU device of the GN series, which is built only when a device is "
                                          "configured (here or as parameters.gpu.deviceName)."),
        ("--gpu-count COUNT", "GPUs per GN instancetype, 1 to 16 (default: parameters.gpu.count, else 1); needs a "
                              "device."),
        ("--retain-from BUNDLE", "Old bundle (a file, a folder, - or a pipe) whose objects the catalog no longer "
                                 "defines are carried over exactly as released (instancetype.kubevirt.io/v1beta1 "
                                 "only), labelled deprecated. Repeatable."),
        ("--overlay FILE", "Overlay file changing the catalog without copying it; applied in order. Repeatable."),
        ("--os-labels", "Label every preference os.template.kubevirt.io/<short-id>: \"true\" for each libosinfo OS "
                        "release its osinfo claim names, as catalog.yaml's osLabels does (off by default: upstream's "
                        "objects have no such labels)."),
        ("--kubevirt vX.Y", "Build for this KubeVirt release (default: the newest release citgen knows; v1.8, 1.8 "
                            "and v1.8.4 all mean v1.8)."),
    ]


def test_the_build_options_default_to_nothing_given() -> None:
    done = CliRunner().invoke(make_builder(), [])
    assert (done.exit_code, done.output) == (0, "[('catalog', None), ('gpu_count', None), ('gpu_device', None), "
                                                "('kubevirt', None), ('os_labels', False), ('overlays', ()), "
                                                "('retain_from', ()), "
                                                "('version', None)]\n")


def test_the_build_options_hand_over_paths_counts_a_release_and_repeated_files_in_order() -> None:
    done = CliRunner().invoke(make_builder(), [
        "--catalog", "c", "--version", "v9", "--gpu-device", "nvidia.com/X", "--gpu-count", "2",
        "--retain-from", "b.yaml", "--retain-from", "a.yaml", "--overlay", "o2", "--overlay", "o1",
        "--kubevirt", "1.8.4"])
    assert (done.exit_code, done.output) == (0, repr([
        ("catalog", Path("c")), ("gpu_count", 2), ("gpu_device", "nvidia.com/X"), ("kubevirt", resolve("v1.8")),
        ("os_labels", False), ("overlays", (Path("o2"), Path("o1"))), ("retain_from", (Path("b.yaml"), Path("a.yaml"))),
        ("version", "v9")]) + "\n")


def test_a_directory_given_for_an_overlay_is_refused_at_the_option_with_every_other_bad_path(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("x")
    done = CliRunner().invoke(make_builder(), ["--overlay", ".", "--catalog", str(tmp_path / "a-file")])
    assert (done.exit_code, done.stderr.splitlines()) == (2, [
        f"--catalog: error: Directory '{tmp_path / 'a-file'}' is a file. [input]",
        "--overlay: error: File '.' is a directory. [input]"])


def test_a_folder_given_for_a_bundle_is_read_as_every_folder_of_objects_is() -> None:
    done = CliRunner().invoke(make_builder(), ["--retain-from", "."])
    assert done.exit_code == 0, done.output  # the builder only echoes its options; reading is the pipeline's


def test_the_gpu_count_and_the_release_are_refused_as_problems_like_every_checked_option() -> None:
    with pytest.raises(UnknownRelease) as unknown:
        resolve("v0.1")
    assert problems("--gpu-count", "0", "--kubevirt", "v0.1", of=make_builder) == [
        ("--gpu-count", "expected 1 to 16 GPUs, got 0"), ("--kubevirt", str(unknown.value))]


# --------------------------------------------------------------------------- a checked type on its own


def test_a_checked_type_is_told_the_long_name_of_its_option() -> None:
    class Named(CheckedParam):
        name = "NAME"

        def check(self, value: str, option: str) -> str:
            raise ValueError(f"{option} takes no {value!r}")

    @command("probe")
    @click.option("-x", "--example", type=Named())
    def probe(**given: Any) -> Result:
        return says_back(**given)

    assert problems("-x", "y", of=lambda: probe) == [("--example", "--example takes no 'y'")]


def test_a_checked_type_passes_a_default_that_is_no_text_through_as_it_is() -> None:
    @command("probe")
    @click.option("--lock-timeout", type=Seconds(), default=60.0)
    def probe(**given: Any) -> Result:
        return says_back(**given)

    assert CliRunner().invoke(probe, []).output == "lock_timeout=60.0\n"


def test_a_checked_type_called_on_its_own_locates_its_refusal_at_its_name() -> None:
    assert GpuCount()("0") == Refused((Problem(Location("COUNT"), "expected 1 to 16 GPUs, got 0"),))
    assert GpuCount()("3") == 3


# --------------------------------------------------------------------------- a relative path without a working directory


def test_a_deleted_working_directory_refuses_each_relative_path_and_keeps_the_absolute_ones(tmp_path, monkeypatch):
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    assert problems("-o", "out", "--bundle", "/abs.yaml", "--bundle", "b.yaml", "--cpus", "2") == [
        ("--bundle", "'b.yaml' is a relative path, but the working directory cannot be used (it was deleted); give "
                     "an absolute path or change to a directory that exists"),
        ("--out", "'out' is a relative path, but the working directory cannot be used (it was deleted); give an "
                  "absolute path or change to a directory that exists"),
    ]
    assert run("--out", "/abs", "--bundle", "/b.yaml", "--cpus", "2") == (
        0, "bundles=('/b.yaml',) cpus=2 out='/abs'\n")


@pytest.mark.parametrize("error, reason", [
    (PermissionError(errno.EACCES, "Permission denied"), "permission denied"),
    (OSError("Stale NFS File Handle"), "stale nfs file handle"),
])
def test_a_working_directory_that_cannot_be_read_is_named_by_its_error(monkeypatch, error, reason):
    """os.getcwd is stood in for: a directory that cannot be read but by a user who is not root is hard to make."""
    def getcwd() -> str:
        raise error

    monkeypatch.setattr(os, "getcwd", getcwd)
    assert problems("-o", "out") == [
        ("--out", f"'out' is a relative path, but the working directory cannot be used ({reason}); give an absolute "
                  "path or change to a directory that exists")]


# --------------------------------------------------------------------------- the group's options: usage errors


def make_plain() -> click.Command:
    @click.command()
    @click.option("--documents", type=DocumentCount(), envvar="PROBE_DOCUMENTS", default=10)
    @click.option("--size", type=SizeParam(), envvar="PROBE_SIZE", default=1024)
    def plain(documents: int, size: int) -> None:
        click.echo(f"{documents} {size}")

    return plain


def test_group_options_are_counts_and_sizes_people_write() -> None:
    done = CliRunner().invoke(make_plain(), ["--documents", "1", "--size", "2Mi"])
    assert (done.exit_code, done.output) == (0, f"1 {2 * 1024 * 1024}\n")
    assert CliRunner().invoke(make_plain(), []).output == "10 1024\n"


@pytest.mark.parametrize("option, value, message", [
    ("--documents", "0", "expected a whole number of documents, 1 or more, got '0'"),
    ("--documents", "9" * 19, "expected a whole number of documents, 1 or more, of at most 18 digits, got "
                              "'9999999999999999999'"),
    ("--size", "lots", "expected a size such as 64MiB, 200Mi or 1G, got 'lots'"),
])
def test_a_usage_error_names_the_environment_variable_when_that_set_the_value(option, value, message) -> None:
    variable = f"PROBE_{option[2:].upper()}"
    by_option = CliRunner().invoke(make_plain(), [option, value])
    by_environment = CliRunner().invoke(make_plain(), [], env={variable: value})
    assert by_option.exit_code == by_environment.exit_code == 2
    assert by_option.stderr == ("Usage: plain [OPTIONS]\nTry 'plain --help' for help.\n\n"
                                f"Error: Invalid value for '{option}': {message}\n")
    assert by_environment.stderr.splitlines()[-1] == f"Error: Invalid value for {variable}: {message}"


@pytest.mark.parametrize("kind, value, message", [
    (DocumentCount, "0", "expected a whole number of documents, 1 or more, got '0'"),
    (SizeParam, "lots", "expected a size such as 64MiB, 200Mi or 1G, got 'lots'"),
])
def test_a_group_option_type_called_on_its_own_refuses_with_its_message(kind, value, message) -> None:
    with pytest.raises(click.BadParameter) as refused:
        kind()(value)
    assert refused.value.format_message() == f"Invalid value: {message}"


def test_a_plain_command_reports_a_citgen_error_as_its_problems_and_exit_code() -> None:
    @click.command()
    @reported
    def refusing() -> None:
        raise InputError("nothing to read")

    done = CliRunner().invoke(refusing, [])
    assert done.exit_code == 2
    assert "nothing to read" in done.output
    assert done.exception is None or isinstance(done.exception, SystemExit)
