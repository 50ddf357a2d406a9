"""generator/cli/__init__.py: the ``citgen`` group: its commands, loaded when they run, and what escapes them.

Every command of citgen reports its own Result; the group reports, in its --format, a
CitgenError that escapes a plain click command, and Ctrl-C. Those cases run on a copy of
the group with such commands added, so that the group the other tests use stays as it is.
"""

from __future__ import annotations

import ast
import copy
import io
import json
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from generator.cli import LAZY_COMMANDS, CitgenGroup, main
from generator.errors import InputError
from generator.problems import Location
from tests.helpers import child_env

COMMANDS = ["build", "diff", "expand", "init", "list", "osinfo", "readme", "refs", "schema", "site", "validate"]


def test_help_lists_every_command_by_name_each_once():
    assert main.list_commands(click.Context(main)) == COMMANDS == sorted({"build", *LAZY_COMMANDS})
    shown = CliRunner().invoke(main, ["--help"]).output.split("Commands:\n")[1].splitlines()
    assert [line.split()[0] for line in shown] == COMMANDS


@pytest.mark.parametrize("name", sorted(LAZY_COMMANDS))
def test_a_command_is_loaded_when_first_asked_for_and_kept(name):
    group = CitgenGroup(name="citgen")
    first = group.get_command(click.Context(group), name)
    assert isinstance(first, click.Command) and group.commands == {name: first}
    assert group.get_command(click.Context(group), name) is first
    assert group.get_command(click.Context(group), "nothing") is None


def test_a_build_imports_no_other_command_s_modules(tmp_path):
    """What ``citgen build`` imports is what it runs (click's lazy loading of commands)."""
    probe = ("import atexit, sys\n"
             "atexit.register(lambda: print(sorted(m for m in sys.modules if m.startswith('generator.'))))\n"
             "from generator.entry import main\n"
             f"main(args=['build', '--out', {str(tmp_path / 'out')!r}], prog_name='citgen')\n")
    done = subprocess.run([sys.executable, "-c", probe], env=child_env(), capture_output=True, text=True, timeout=120)
    imported = ast.literal_eval(done.stdout.splitlines()[-1])
    assert "generator.cli.build" in imported and (tmp_path / "out" / "CHECKSUMS.sha256").is_file()
    assert [m for m in imported if m.startswith(("generator.cli.", "generator.tools."))
            and m != "generator.cli.build" and m.rpartition(".")[2] not in {"options", "streams", "version"}] == []


@click.command("plain")
def plain() -> None:
    raise InputError.at(Location("here"), "broken")


@click.command("stop")
def stop() -> None:
    raise KeyboardInterrupt


@pytest.fixture
def group() -> click.Group:
    """citgen's group, with a plain click command that raises a CitgenError and one that Ctrl-C stops."""
    copied = copy.copy(main)
    copied.commands = {**main.commands, "plain": plain, "stop": stop}
    return copied


@pytest.mark.parametrize(("given", "stdout", "stderr"), [
    ([], "", "here: error: broken [input]\ncitgen: 1 problem\n"),
    (["--format", "github"], "::error file=here,title=input::broken\n::notice title=citgen plain::citgen: 1 problem\n",
     ""),
])
def test_a_citgen_error_escaping_a_plain_command_is_reported_in_the_groups_format(group, given, stdout, stderr):
    run = CliRunner().invoke(group, [*given, "plain"])
    assert (run.exit_code, run.stdout, run.stderr) == (2, stdout, stderr)


def test_a_citgen_error_escaping_a_plain_command_is_a_json_report_of_that_command(group):
    report = json.loads(CliRunner().invoke(group, ["--format", "json", "plain"]).stdout)
    assert {key: report[key] for key in ("command", "exitCode", "notes", "ok")} == {
        "command": "plain", "exitCode": 2, "notes": ["citgen: 1 problem"], "ok": False}
    assert [(p["file"], p["message"]) for p in report["problems"]] == [("here", "broken")]


def test_ctrl_c_in_a_command_ends_the_run_with_one_line_and_status_130(group):
    run = CliRunner().invoke(group, ["stop"])
    assert (run.exit_code, run.stdout, run.stderr) == (130, "", "citgen: interrupted\n")


def run_main(monkeypatch: pytest.MonkeyPatch, stdout: io.StringIO, *args: str) -> tuple[int | str | None, str]:
    """``citgen ARGS`` through the group's own ``main``, arguments given as click's ``main(args)`` takes them."""
    said = io.StringIO()
    monkeypatch.setattr("sys.stdout", stdout)
    monkeypatch.setattr("sys.stderr", said)
    with pytest.raises(SystemExit) as ended:
        main.main(list(args), "citgen")
    return ended.value.code, said.getvalue()


def test_the_group_runs_the_arguments_it_is_given(monkeypatch):
    out = io.StringIO()
    assert run_main(monkeypatch, out, "list", "-o", "name", "--series", "rt", "--cpu", "1") == (0, "")
    assert out.getvalue() == "rt1.medium\nrt1.micro\nrt1.small\n"


class BrokenPipe(io.StringIO):
    """A standard output whose reader has gone: every write fails as a closed pipe's does."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_report_that_cannot_be_delivered_ends_the_run_with_status_2_and_says_why(monkeypatch):
    assert run_main(monkeypatch, BrokenPipe(), "list", "-o", "name", "--series", "rt", "--cpu", "1") == (
        2, "citgen: cannot write the report to standard output: Broken pipe\n")


@pytest.mark.parametrize(("words", "started"), [
    (["build", "--out", "OUT"], True),
    (["--format", "json", "build", "--check", "--out", "OUT"], True),
    (["build", "--help"], False),
    (["build", "-h"], False),
    (["list"], False),
])
def test_a_rendering_command_forks_its_rendering_child_before_its_module_is_imported(monkeypatch, tmp_path, words,
                                                                                     started):
    """The child imports jinja2 on the second core while the build's modules are imported (render/process.py)."""
    from generator.render import process

    group = copy.copy(main)
    group.commands = {}  # as a fresh process has it: no command loaded yet
    seen = []
    monkeypatch.setattr(process, "start", lambda: seen.append(sorted(group.commands)))
    CliRunner().invoke(group, [str(tmp_path / "out") if word == "OUT" else word for word in words])
    assert seen == ([[]] if started else [])  # started once, with no command loaded yet
