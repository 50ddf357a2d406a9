"""Standard streams as a shell hands them over: closed, full, narrow, non-blocking, read slowly.

Each test runs the real program (``python -m generator``) with its standard streams
arranged by the operating system, since what is tested is how citgen meets them
(generator/cli/streams.py). The matrix (tests/test_fault_matrix.py) runs every
command under the same faults; here are the cases as users wrote them down.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading
import time
from unittest.mock import ANY

import pytest

from generator.write import MANIFEST
from tests.helpers import child_env, default_build, snapshot

pytestmark = pytest.mark.heavy(6)  # seconds of a worker's time: a citgen process per case

ENV = child_env()
CLOSED_STDOUT = "citgen: cannot write the report to standard output: it is closed\n"


def citgen_with(args: list[str], **streams) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", *args], timeout=120, **{"env": ENV, **streams})


@pytest.mark.parametrize("args", [["list"], ["build", "--out", "{out}"], ["validate", "--list-rules"], ["--help"]])
def test_a_closed_standard_output_ends_the_run_with_one_line_and_status_2(tmp_path, args):
    """``citgen list >&-``: the shell closes descriptor 1, and Python starts with no sys.stdout."""
    args = [a.format(out=tmp_path / "out") for a in args]
    done = citgen_with(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                       preexec_fn=lambda: os.close(1))
    wrote = f"; the outputs were written all the same, and are in place: {tmp_path / 'out'}" if "build" in args else ""
    assert (done.returncode, done.stderr) == (2, CLOSED_STDOUT.replace("\n", f"{wrote}\n"))
    if "build" in args:  # and so they are, every file (a child given descriptor 1 for its pipe once wrote none)
        assert snapshot(tmp_path / "out") == {**default_build().files, MANIFEST: ANY}


def test_a_build_whose_three_standard_streams_are_closed_writes_every_file(tmp_path):
    """``citgen build <&- >&- 2>&-``: the pipes to the build's children get the lowest free descriptors, 0 to 2; a
    child that puts /dev/null on its standard streams must not put it over its pipe."""
    def close_all() -> None:
        for fd in (0, 1, 2):
            os.close(fd)

    done = citgen_with(["build", "--out", str(tmp_path / "out")], preexec_fn=close_all)
    assert done.returncode == 2  # the report could not be delivered
    assert snapshot(tmp_path / "out") == {**default_build().files, MANIFEST: ANY}


def test_both_streams_closed_is_status_2_and_silence(tmp_path):
    def close_both() -> None:
        os.close(1)
        os.close(2)

    done = citgen_with(["list"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=close_both)
    assert done.returncode == 2


def test_a_closed_standard_error_loses_nothing_when_nothing_is_said_there():
    done = citgen_with(["list", "-o", "name"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                       preexec_fn=lambda: os.close(2))
    assert done.returncode == 0 and "u1.large\n" in done.stdout


def test_a_refusal_that_standard_error_cannot_take_is_status_2():
    with open("/dev/full", "w") as full:
        done = citgen_with(["list", "--cpu", "many"], stdout=subprocess.PIPE, stderr=full, text=True)
    assert (done.returncode, done.stdout) == (2, "")


def test_a_reader_that_goes_away_is_said_on_standard_error():
    """``citgen list | head -1``: the pipe breaks after the first line; no traceback, status 2."""
    reader = subprocess.Popen([sys.executable, "-m", "generator", "validate", "--matrix", "--format", "json"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    assert reader.stdout is not None and reader.stderr is not None
    reader.stdout.read(10)
    reader.stdout.close()
    stderr = reader.stderr.read().decode()
    assert reader.wait(timeout=120) == 2
    assert stderr == "citgen: cannot write the report to standard output: Broken pipe\n"


def test_a_non_blocking_pipe_read_slowly_gets_the_whole_report():
    """A reader that set its pipe non-blocking and reads late: every byte arrives, in order."""
    args = ["validate", "--matrix", "--format", "json"]  # some 450 KB
    whole = citgen_with(args, stdout=subprocess.PIPE).stdout
    assert len(whole) > 4 * 65536  # several times what a pipe holds, so writes are cut short
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETFL, fcntl.fcntl(write_end, fcntl.F_GETFL) | os.O_NONBLOCK)
    got: list[bytes] = []

    def read_slowly() -> None:
        time.sleep(0.5)
        with os.fdopen(read_end, "rb") as pipe:
            while chunk := pipe.read(4096):
                got.append(chunk)
                time.sleep(0.001)

    slow = threading.Thread(target=read_slowly)
    slow.start()
    done = citgen_with(args, stdout=write_end, stderr=subprocess.PIPE)
    os.close(write_end)
    slow.join(timeout=120)
    assert (done.returncode, done.stderr) == (0, b"")
    assert b"".join(got) == whole


def test_a_narrow_standard_error_gets_escapes(tmp_path):
    done = citgen_with(["validate", str(tmp_path / "snow\u2603.yaml")], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env={**ENV, "PYTHONIOENCODING": "ascii"})
    assert done.returncode == 2
    assert b"snow\\u2603.yaml" in done.stderr + done.stdout
    assert (done.stderr + done.stdout).isascii()


def test_a_report_of_mebibytes_arrives_whole_and_escaped_where_its_stream_lacks_a_character(tmp_path):
    """Text is encoded a slice at a time, so that a long report (a cluster dump's JSON) is not held twice whole."""
    from generator.cli.streams import Delivery

    text = "".join(f"{'x' * 1000}\u2603{number}\n" for number in range(3000))  # 3 MB, a snowman every line
    with open(tmp_path / "out", "w", encoding="ascii") as narrow:
        Delivery(narrow).write(text)
    assert (tmp_path / "out").read_bytes() == text.encode("ascii", "backslashreplace")
