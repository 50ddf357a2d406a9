"""generator/entry.py: the ``citgen`` program around the command line: its exit status, and Ctrl-C.

Run in this process, with the command line (``generator.cli.main``) replaced where a case needs
it to end in a way no input makes it end (Ctrl-C while it is being imported or run). That a real
process ends so is tests/test_cli_streams.py's and tests/test_layout.py's. ``program``, which ends
its process, runs in processes of its own.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import generator.cli
import generator.cli.build  # loaded lazily by the command line: here, so that a case may replace a part of it
from generator.entry import INTERRUPTED, main
from tests.helpers import child_env


def exit_status(**kwargs: Any) -> int | str | None:
    with pytest.raises(SystemExit) as ended:
        main(**kwargs)
    return ended.value.code


def test_the_command_line_runs_with_the_arguments_given_and_its_status_is_the_programs(capsys):
    assert exit_status(args=["list", "-o", "name", "--series", "rt", "--cpu", "1"], prog_name="citgen") == 0
    assert capsys.readouterr().out == "rt1.medium\nrt1.micro\nrt1.small\n"
    assert exit_status(args=["list", "--cpu", "0"], prog_name="citgen") == 2


def test_a_command_line_that_returns_ends_the_program_with_status_0(monkeypatch):
    given: list[dict[str, Any]] = []
    monkeypatch.setattr(generator.cli, "main", lambda **kwargs: given.append(kwargs))
    assert exit_status(args=["x"], prog_name="citgen") == 0
    assert given == [{"args": ["x"], "prog_name": "citgen"}]


def interrupted(**kwargs: Any) -> None:
    raise KeyboardInterrupt


def test_ctrl_c_ends_the_program_with_one_line_and_status_130(monkeypatch, capsys):
    monkeypatch.setattr(generator.cli, "main", interrupted)
    assert exit_status() == INTERRUPTED == 130
    assert capsys.readouterr() == ("", "citgen: interrupted\n")


class Unwritable(io.StringIO):
    """A standard error that cannot take the line: closed (ValueError) or gone (OSError, a broken pipe)."""

    def __init__(self, error: Exception):
        super().__init__()
        self.error = error

    def write(self, text: str) -> int:
        raise self.error


@pytest.mark.parametrize("error", [OSError(32, "Broken pipe"), ValueError("I/O operation on closed file")])
def test_ctrl_c_with_standard_error_gone_still_ends_with_status_130(monkeypatch, error):
    monkeypatch.setattr(generator.cli, "main", interrupted)
    monkeypatch.setattr("sys.stderr", Unwritable(error))
    assert exit_status() == 130


def test_ctrl_c_said_on_a_standard_error_that_buffers_is_flushed(monkeypatch):
    flushed: list[str] = []

    class Buffering(io.StringIO):
        def flush(self) -> None:
            flushed.append(self.getvalue())

    monkeypatch.setattr(generator.cli, "main", interrupted)
    monkeypatch.setattr("sys.stderr", Buffering())
    assert exit_status() == 130
    assert flushed == ["citgen: interrupted\n"]


def test_ctrl_c_just_after_the_outputs_were_swapped_in_says_they_are_in_place(monkeypatch, capsys, tmp_path: Path):
    """A bare "interrupted" (status 130) suggested nothing had happened, where the new outputs were in place."""
    def interrupted_while_reporting(*args: Any) -> None:  # Ctrl-C as the report of the build is being made
        raise KeyboardInterrupt

    monkeypatch.setattr(generator.cli.build, "built", interrupted_while_reporting)
    out = tmp_path / "out"
    assert exit_status(args=["build", "--out", str(out)], prog_name="citgen") == INTERRUPTED
    assert capsys.readouterr() == ("", f"citgen: interrupted; the outputs were written before it, and are in place: "
                                       f"{out}\n")
    assert (out / "CHECKSUMS.sha256").is_file()


def test_ctrl_c_before_anything_was_written_says_only_interrupted(monkeypatch, capsys, tmp_path: Path):
    """What an earlier run of the same process wrote is not this run's."""
    assert exit_status(args=["init", str(tmp_path / "catalog")], prog_name="citgen") == 0
    monkeypatch.setattr(generator.cli.build, "generate", lambda *args, **kwargs: interrupted())
    capsys.readouterr()
    assert exit_status(args=["build", "--out", str(tmp_path / "out")], prog_name="citgen") == INTERRUPTED
    assert capsys.readouterr() == ("", "citgen: interrupted\n")


def test_the_program_imports_nothing_before_its_guard_but_itself():
    """Ctrl-C while a module loads before the guard is a traceback: typing took 4 ms there, now nothing does.
    (Python's own start and the console script's `import re` come before this module and are Python's.)"""
    probe = "import sys; before = set(sys.modules); import generator.entry; print(sorted(set(sys.modules) - before))"
    done = subprocess.run([sys.executable, "-c", probe], env=child_env(), capture_output=True, text=True, timeout=60)
    assert done.stdout == "['__future__', 'generator', 'generator.entry']\n"


def test_a_run_lets_the_collector_look_at_new_objects_after_tens_of_thousands_not_every_700():
    """Every young pass of the cyclic collector walked the modules and catalog a run had just made and kept, to free
    nothing: a run raises the young generation's threshold, and leaves the older ones' as Python has them."""
    probe = ("import gc\n"
             "older = gc.get_threshold()[1:]\n"
             "from generator.entry import main\n"
             "try:\n"
             "    main(args=['list', '-o', 'name', '--series', 'rt', '--cpu', '1'], prog_name='citgen')\n"
             "except SystemExit:\n"
             "    print(gc.get_threshold() == (50_000, *older), gc.get_threshold()[0] > 700)\n")
    done = subprocess.run([sys.executable, "-c", probe], env=child_env(), capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines()[-1] == "True True", done.stderr


def test_the_objects_of_a_run_are_out_of_the_collectors_sight_before_the_interpreter_ends():
    """The interpreter's last collection went through the whole heap (20 to 40 ms of a build) only for the system to
    take the memory back: a run freezes what it made as its last exit function, once however often main runs."""
    probe = ("import atexit, gc\n"
             "calls, freeze = [], gc.freeze\n"
             "gc.freeze = lambda: (calls.append(1), freeze())[1]  # counted\n"
             "atexit.register(lambda: print('at the end:', len(calls), gc.get_freeze_count() > 0))  # runs last\n"
             "from generator.entry import main\n"
             "for _ in range(2):\n"
             "    try:\n"
             "        main(args=['list', '-o', 'name', '--series', 'rt', '--cpu', '1'], prog_name='citgen')\n"
             "    except SystemExit:\n"
             "        print('during the run:', len(calls), gc.get_freeze_count() > 0)\n")
    done = subprocess.run([sys.executable, "-c", probe], env=child_env(), capture_output=True, text=True, timeout=60)
    listed = ["rt1.medium", "rt1.micro", "rt1.small"]
    assert done.stdout.splitlines() == [*listed, "during the run: 0 False", *listed, "during the run: 0 False",
                                        "at the end: 1 True"], done.stderr


# --------------------------------------------------------------------------- program(): the process ends at once


def program_run(body: str, *args: str) -> subprocess.CompletedProcess:
    """``program()`` in a process of its own (it ends the process), after ``body`` (a module-level setup)."""
    probe = f"{body}\nfrom generator.entry import program\nprogram(args={list(args)!r}, prog_name='citgen')\n"
    return subprocess.run([sys.executable, "-c", probe], env=child_env(), capture_output=True, text=True, timeout=60)


def test_the_program_ends_with_the_command_line_s_status_and_output_and_its_exit_functions_run():
    ran = program_run("import atexit, sys\natexit.register(lambda: print('exit function ran', file=sys.stderr))",
                      "list", "-o", "name", "--series", "rt", "--cpu", "1")
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, "rt1.medium\nrt1.micro\nrt1.small\n", "exit function ran\n")
    refused = program_run("", "list", "--cpu", "0")
    assert refused.returncode == 2 and refused.stderr.endswith("citgen: 1 problem\n")


def test_the_program_ends_without_the_interpreter_s_teardown_of_every_object():
    """What the interpreter would free one object at a time on its way out, the system takes back at once: an
    object's finalizer that only the teardown would call is not called."""
    body = ("import sys\n"
            "class Kept:\n"
            "    def __del__(self):\n"
            "        sys.stderr.write('freed at the teardown\\n')\n"
            "kept = Kept()")
    ran = program_run(body, "list", "-o", "name", "--series", "rt", "--cpu", "1")
    assert (ran.returncode, ran.stderr) == (0, "")


def test_a_thread_still_running_ends_the_program_as_the_interpreter_ends_it():
    """The interpreter waits for a thread that is not a daemon: so does the program, and the thread's work is done."""
    body = ("import sys, threading, time\n"
            "threading.Thread(target=lambda: (time.sleep(0.3), sys.stderr.write('the thread ended\\n'))).start()")
    ran = program_run(body, "list", "-o", "name", "--series", "rt", "--cpu", "1")
    assert (ran.returncode, ran.stderr) == (0, "the thread ended\n")


def test_what_cannot_be_written_at_the_end_is_said_as_the_interpreter_says_it_and_the_status_is_the_same():
    """Standard output on a full disk, and an exit function that writes to it: the program ends as ``main`` under
    the interpreter does, the same status and the same words on standard error."""
    def run(entry: str) -> tuple[int, str]:
        probe = ("import sys, atexit\n"
                 "atexit.register(lambda: sys.stdout.write('late'))\n"
                 f"from generator.entry import {entry}\n"
                 f"{entry}(args=['list', '-o', 'name', '--series', 'rt', '--cpu', '0'], prog_name='citgen')\n")
        with open("/dev/full", "w") as full:
            ran = subprocess.run([sys.executable, "-c", probe], env=child_env(), stdout=full, stderr=subprocess.PIPE,
                                 text=True, timeout=60)
        return ran.returncode, re.sub(r" at 0x[0-9a-f]+", "", ran.stderr)

    status, said = run("program")
    assert (status, said) == run("main")
    assert status == 2 and "No space left on device" in said
