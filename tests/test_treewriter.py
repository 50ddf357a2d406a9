"""treewriter.py: the files handed to it written under its root by a child process, in order, the first failure
raised by finish, and in the caller's own process where no child can be started."""

from __future__ import annotations

import errno
import os
import signal
from pathlib import Path, PurePosixPath

import pytest

from generator import treewriter
from generator.treewriter import TreeWriter, write_files
from tests.helpers import snapshot


def files(**named: bytes) -> dict[PurePosixPath, bytes]:
    return {PurePosixPath(name.replace("__", "/")): data for name, data in named.items()}


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
