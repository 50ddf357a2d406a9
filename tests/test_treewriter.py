"""treewriter.py: the files handed to it written under its root on a thread, in order, the first failure raised."""

from __future__ import annotations

import os
import threading
from pathlib import Path, PurePosixPath

import pytest

from generator import treewriter
from generator.treewriter import TreeWriter
from tests.helpers import snapshot


def files(**named: bytes) -> dict[PurePosixPath, bytes]:
    return {PurePosixPath(name.replace("__", "/")): data for name, data in named.items()}


def test_every_file_handed_is_written_in_its_folders_once_finish_returns(tmp_path: Path):
    writer = TreeWriter(tmp_path)
    writer.add(files(a=b"1", k__x__y=b"2"))
    writer.add(files(k__x__z=b"3", k__w=b"4"))
    writer.finish()
    assert snapshot(tmp_path) == {"a": b"1", "k/x/y": b"2", "k/x/z": b"3", "k/w": b"4"}


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
    writer.add(files(a=b"first"))
    writer.add(files(a=b"second"))
    writer.finish()
    assert snapshot(tmp_path) == {"a": b"second"}


def test_the_writing_happens_on_a_thread_of_its_own_while_the_caller_goes_on(tmp_path: Path, monkeypatch):
    """A file is opened on the writer's thread; the caller is back before the file is written."""
    opened_on, gate = [], threading.Event()

    def held_open(path, mode):
        opened_on.append(threading.current_thread())
        gate.wait(10)
        return open(path, mode)

    monkeypatch.setattr(treewriter, "open", held_open, raising=False)
    writer = TreeWriter(tmp_path)
    writer.add(files(a=b"1"))  # returns while the thread waits at the gate
    assert snapshot(tmp_path) == {}
    gate.set()
    writer.finish()
    assert snapshot(tmp_path) == {"a": b"1"}
    assert opened_on and opened_on[0] is not threading.current_thread()


def test_the_first_failure_stops_the_writing_and_is_raised_by_finish(tmp_path: Path):
    writer = TreeWriter(tmp_path)
    writer.add(files(a=b"a file", a__b=b"where a is a file"))  # no folder can be made at a
    writer.add(files(c=b"after the failure"))
    with pytest.raises(FileExistsError):
        writer.finish()
    assert snapshot(tmp_path) == {"a": b"a file"}  # nothing after it


def test_abandon_finishes_the_file_under_way_and_writes_nothing_more(tmp_path: Path, monkeypatch):
    """Reads the writer's private stop flag: the file under way is let go only once abandon() has asked the
    thread to stop, which nothing public shows while abandon() waits for the thread."""
    gate, waiting = threading.Event(), threading.Event()

    def held_open(path, mode):
        waiting.set()
        gate.wait(10)
        return open(path, mode)

    monkeypatch.setattr(treewriter, "open", held_open, raising=False)
    writer = TreeWriter(tmp_path)
    writer.add(files(a=b"1", b=b"2"))
    writer.add(files(c=b"3"))
    assert waiting.wait(10)  # the thread is writing a
    stopping = threading.Thread(target=writer.abandon)
    stopping.start()
    assert writer._stop.wait(10)
    gate.set()
    stopping.join(10)
    assert not stopping.is_alive()
    assert snapshot(tmp_path) == {"a": b"1"}


def test_a_failure_after_abandon_is_not_raised(tmp_path: Path):
    writer = TreeWriter(tmp_path)
    writer.add(files(a=b"a file", a__b=b"where a is a file"))
    writer.abandon()  # nothing raised: the caller is discarding what was written
