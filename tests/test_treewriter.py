"""treewriter.py: the files handed to it written under its root by a child process, in order, the first failure
raised by finish, and in the caller's own process where no child can be started."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
from pathlib import Path, PurePosixPath

import pytest

from generator import treewriter
from generator.treewriter import TreeWriter, write_files
from tests.helpers import child_env, snapshot


def files(**named: bytes) -> dict[PurePosixPath, bytes]:
    return {PurePosixPath(name.replace("__", "/")): data for name, data in named.items()}


@pytest.fixture(autouse=True)
def forking(monkeypatch):
    """These tests are about the child: it is forked whatever this test process holds (a test runner's worker
    is far larger than citgen, and past FORK_AT_MOST a writer writes in its own process)."""
    monkeypatch.setattr(treewriter, "FORK_AT_MOST", 1 << 62)


def test_a_process_holding_more_than_the_bound_writes_the_tree_itself(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(treewriter, "FORK_AT_MOST", 0)  # every process holds more than nothing
    monkeypatch.setattr(treewriter.os, "fork", lambda: pytest.fail("a child was forked"))
    treewriter.start()
    assert treewriter._spare is None
    writer = TreeWriter(tmp_path)
    writer.add(files(a__b=b"1", c=b"2"))
    writer.finish()
    assert writer._pid == 0
    assert snapshot(tmp_path) == {"a/b": b"1", "c": b"2"}


def test_citgen_s_own_process_is_within_the_bound():
    """A build of the built-in catalog holds about 32 MiB: its writer is forked (a child pays off there)."""
    done = subprocess.run([sys.executable, "-c", (
        "from generator import treewriter\n"
        "from generator.pipeline import generate\n"
        "generate()\n"
        "print(treewriter._small_enough())\n")], capture_output=True, text=True, env=child_env(), check=True)
    assert done.stdout.strip() == "True"


def test_every_file_handed_is_written_in_its_folders_once_finish_returns(tmp_path: Path):
    writer = TreeWriter(tmp_path)
    writer.add(files(a=b"1", k__x__y=b"2"))
    writer.add(files(k__x__z=b"3", k__w=b"4" * 300_000))  # more than a pipe holds by default
    writer.finish()
    assert snapshot(tmp_path) == {"a": b"1", "k/x/y": b"2", "k/x/z": b"3", "k/w": b"4" * 300_000}


def test_the_folders_and_files_get_the_modes_the_umask_leaves(tmp_path: Path):
    previous = os.umask(0o077)
    try:
        writer = TreeWriter(tmp_path)
        writer.add(files(k__x=b"1"))
        writer.finish()
    finally:
        os.umask(previous)
    assert (os.stat(tmp_path / "k").st_mode & 0o777, os.stat(tmp_path / "k" / "x").st_mode & 0o777) == (0o700, 0o600)


def test_a_file_handed_again_is_written_again_with_its_later_bytes(tmp_path: Path):
    writer = TreeWriter(tmp_path)
    writer.add(files(a=b"first, and longer"))
    writer.add(files(a=b"second"))
    writer.finish()
    assert snapshot(tmp_path) == {"a": b"second"}


def test_the_first_failure_stops_the_writing_and_is_raised_by_finish_as_the_system_said_it(tmp_path: Path):
    writer = TreeWriter(tmp_path)
    writer.add(files(a=b"a file", a__b=b"where a is a file"))  # no folder can be made at a
    writer.add(files(c=b"after the failure"))
    with pytest.raises(FileExistsError) as raised:
        writer.finish()
    assert (raised.value.errno, raised.value.filename) == (errno.EEXIST, str(tmp_path / "a"))
    assert snapshot(tmp_path) == {"a": b"a file"}  # nothing after it


def test_abandon_stops_the_writing_and_raises_nothing(tmp_path: Path):
    writer = TreeWriter(tmp_path)
    writer.add(files(a=b"a file", a__b=b"where a is a file"))  # a failure abandon does not raise
    writer.abandon()
    assert set(snapshot(tmp_path)) <= {"a"}


def test_a_child_that_is_killed_is_said_at_finish(tmp_path: Path):
    """Kills the writer's child by its private process id: nothing public stops it but abandon()."""
    writer = TreeWriter(tmp_path)
    os.kill(writer._pid, signal.SIGKILL)
    writer.add(files(a=b"1"))  # into a pipe nobody reads: said at finish, not here
    with pytest.raises(OSError) as raised:
        writer.finish()
    assert (raised.value.errno, raised.value.strerror, raised.value.filename) == (
        errno.EIO, f"the process writing the outputs stopped (signal {signal.SIGKILL.value})", str(tmp_path))


def test_where_no_process_can_be_started_the_files_are_written_as_they_are_handed(tmp_path: Path, monkeypatch):
    def no_fork() -> int:
        raise OSError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr(treewriter.os, "fork", no_fork)
    writer = TreeWriter(tmp_path)
    writer.add(files(k__a=b"1"))
    assert snapshot(tmp_path) == {"k/a": b"1"}  # at once
    writer.add(files(k=b"a file where a folder is"))
    writer.add(files(b=b"after the failure"))
    with pytest.raises(IsADirectoryError):
        writer.finish()
    assert snapshot(tmp_path) == {"k/a": b"1"}


def test_write_files_makes_each_folder_once_before_the_first_file_in_it(tmp_path: Path, monkeypatch):
    made_here: list[str] = []
    real = os.mkdir
    monkeypatch.setattr(treewriter.os, "mkdir", lambda path, *a: (made_here.append(str(path)), real(path, *a))[1])
    made = {"."}
    write_files(tmp_path, [("x/y/a", b"1"), ("x/y/b", b"2"), ("x/c", b"3"), ("d", b"4")], made)
    assert made_here == [str(tmp_path / "x"), str(tmp_path / "x" / "y")]
    assert made == {".", "x", "x/y"}
    assert snapshot(tmp_path) == {"x/y/a": b"1", "x/y/b": b"2", "x/c": b"3", "d": b"4"}


def test_abandon_after_an_interrupted_finish_stops_the_child_and_raises_nothing(tmp_path: Path, monkeypatch):
    """Ctrl-C while finish() waits: the build's Staging abandons the writer, which must not fail on what finish()
    closed already (an OSError there would take the place of the interrupt)."""
    writer = TreeWriter(tmp_path)
    writer.add(files(a=b"1"))

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    with monkeypatch.context() as patched:
        patched.setattr(treewriter.os, "fdopen", interrupted)
        with pytest.raises(KeyboardInterrupt):
            writer.finish()
    writer.abandon()
    writer.abandon()  # and once more: nothing left to stop


# --------------------------------------------------------------------------- a child forked ahead (start)


@pytest.fixture
def spare():
    """A child forked ahead by start(), and none left behind by the test (private state, read on purpose: which
    child a writer took is seen nowhere else)."""
    treewriter.start()
    waiting = treewriter._spare
    assert waiting is not None
    yield waiting
    if treewriter._spare is not None:
        treewriter._stop(treewriter._take_spare())


def test_the_child_forked_ahead_writes_the_first_tree_and_is_then_gone(tmp_path: Path, spare, monkeypatch):
    monkeypatch.setattr(treewriter.os, "fork", lambda: pytest.fail("a second child was forked"))
    writer = TreeWriter(tmp_path)
    assert writer._pid == spare[0] and treewriter._spare is None
    writer.add(files(k__a=b"1"))
    writer.finish()
    assert snapshot(tmp_path) == {"k/a": b"1"}


def test_the_child_forked_ahead_writes_with_the_umask_and_folder_of_when_it_is_handed_its_tree(
        tmp_path: Path, spare, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the child was forked in another working directory, under another umask
    previous = os.umask(0o077)
    try:
        writer = TreeWriter(Path("out"))
    finally:
        os.umask(previous)
    (tmp_path / "out").mkdir()
    writer.add(files(k__x=b"1"))
    writer.finish()
    assert snapshot(tmp_path / "out") == {"k/x": b"1"}
    assert (os.stat(tmp_path / "out" / "k").st_mode & 0o777, os.stat(tmp_path / "out" / "k" / "x").st_mode & 0o777) \
        == (0o700, 0o600)


def test_a_child_forked_ahead_that_was_killed_meanwhile_is_replaced(tmp_path: Path, spare):
    os.kill(spare[0], signal.SIGKILL)
    os.waitid(os.P_PID, spare[0], os.WEXITED | os.WNOWAIT)  # dead, its pipes closed, and still the writer's to reap
    writer = TreeWriter(tmp_path)
    assert writer._pid not in (0, spare[0])
    writer.add(files(a=b"1"))
    writer.finish()
    assert snapshot(tmp_path) == {"a": b"1"}


def test_a_forked_process_does_not_hand_its_parents_child_a_tree(tmp_path: Path, spare):
    reader, writer_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the forked process reports through the pipe
        os.write(writer_end, b"none" if treewriter._spare is None else b"inherited")
        os._exit(0)
    os.close(writer_end)
    os.waitpid(pid, 0)
    with os.fdopen(reader, "rb") as said:
        assert said.read() == b"none"
    assert treewriter._spare == spare  # still this process's


def test_a_process_leaves_no_child_waiting_for_a_tree_behind():
    probe = ("import os\n"
             "from generator import treewriter\n"
             "treewriter.start()\n"
             "print(treewriter._spare[0], flush=True)\n")
    done = subprocess.run([sys.executable, "-c", probe], env=child_env(), capture_output=True, text=True, timeout=60)
    pid = int(done.stdout)
    with pytest.raises(ProcessLookupError):  # stopped and reaped at exit, not left to init
        os.kill(pid, 0)


def test_a_child_forked_ahead_that_someone_else_reaped_is_let_go_quietly(tmp_path: Path, spare):
    """A program that ignores SIGCHLD has its children reaped by the system: stopping one that is gone must not
    fail (the exit function that stops a waiting child, called here as the interpreter would)."""
    os.kill(spare[0], signal.SIGKILL)
    os.waitpid(spare[0], 0)
    treewriter._stop_spare_at_exit()
    assert treewriter._spare is None
    writer = TreeWriter(tmp_path)  # and the next tree gets a child of its own
    writer.add(files(a=b"1"))
    writer.finish()
    assert snapshot(tmp_path) == {"a": b"1"}
