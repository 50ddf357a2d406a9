"""children.py: a command that renders forks its rendering and writing children as the program begins, before
its command line is imported, while the process is small; any other command forks none then."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from tests.helpers import child_env


def forks(*args: str) -> list[bool]:
    """For each fork of a ``citgen`` run (as the program runs it), whether the command line was imported by then."""
    probe = ("import os, sys\n"
             "seen, fork = [], os.fork\n"
             "def counted():\n"
             "    seen.append('generator.cli' in sys.modules)\n"
             "    return fork()\n"
             "os.fork = counted\n"
             "import atexit\n"
             "atexit.register(lambda: sys.stderr.write(f'FORKS {seen!r}\\n'))\n"
             "from generator.entry import main\n"
             f"main(args={list(args)!r}, prog_name='citgen')\n")
    done = subprocess.run([sys.executable, "-c", probe], env=child_env(), capture_output=True, text=True, timeout=120)
    line = [text for text in done.stderr.splitlines() if text.startswith("FORKS ")][-1]
    return ast.literal_eval(line[len("FORKS "):])


def test_a_build_forks_its_two_children_before_it_imports_the_command_line(tmp_path):
    assert forks("build", "--out", str(tmp_path / "out")) == [False, False]  # the renderer and the writer, early


@pytest.mark.parametrize("args", [["list", "-o", "name"], ["build", "--help"]])
def test_a_command_that_renders_nothing_forks_nothing(args):
    assert forks(*args) == []
