"""forked.py: a value computed by a forked child while the caller goes on, the same as computed here, which is where
it is computed when no child can be had, the child ends without an answer, or the computation raises."""

from __future__ import annotations

import errno
import os
import signal
import time

import pytest

from generator import forked
from generator.forked import Forked


def test_the_value_is_computed_by_a_child_and_handed_back():
    here = os.getpid()
    value = Forked(lambda: {"pid": os.getpid(), "items": [1, "two", (3.0,)]}).result()
    assert value["items"] == [1, "two", (3.0,)] and value["pid"] != here


def test_the_caller_goes_on_while_the_child_computes():
    started = time.monotonic()
    running = Forked(lambda: time.sleep(0.3) or "done")
    assert time.monotonic() - started < 0.25  # the child sleeps, not the caller
    assert running.result() == "done"


def test_where_no_child_can_be_forked_the_value_is_computed_here(monkeypatch):
    def no_fork() -> int:
        raise OSError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr(forked.os, "fork", no_fork)
    assert Forked(os.getpid).result() == os.getpid()


def test_where_no_pipe_can_be_had_the_value_is_computed_here(monkeypatch):
    def no_pipe() -> tuple[int, int]:
        raise OSError(errno.EMFILE, "Too many open files")

    monkeypatch.setattr(forked, "pipe", no_pipe)
    assert Forked(os.getpid).result() == os.getpid()


def test_what_the_computation_raises_is_raised_here_as_it_would_be_without_a_child():
    calls: list[int] = []

    def refuse() -> None:
        calls.append(os.getpid())
        raise ValueError("refused")

    with pytest.raises(ValueError, match="refused"):
        Forked(refuse).result()
    assert calls == [os.getpid()]  # the child's call is its own; the one that raised is this process's


def test_a_value_that_cannot_be_pickled_is_computed_here():
    value = Forked(lambda: (os.getpid(), lambda: "a function")).result()
    assert value[0] == os.getpid() and value[1]() == "a function"


def test_a_child_killed_meanwhile_leaves_the_value_to_be_computed_here():
    """Kills the child by its private process id: nothing public stops it but cancel()."""
    here = os.getpid()
    running = Forked(lambda: (time.sleep(5) if os.getpid() != here else None) or os.getpid())  # the child sleeps
    os.kill(running._pid, signal.SIGKILL)
    assert running.result() == here


def test_cancel_stops_the_child_at_once_and_then_does_nothing():
    running = Forked(lambda: time.sleep(5))
    started = time.monotonic()
    running.cancel()
    running.cancel()
    assert time.monotonic() - started < 2


def test_cancel_after_the_result_does_nothing():
    running = Forked(lambda: 42)
    assert running.result() == 42
    running.cancel()


def test_the_child_holds_none_of_its_parent_s_files_open():
    """A reader of a pipe this process writes to sees its end as soon as this process closes it, however long the
    child computes: the child holds only its own answer open (a build's writer and lock are such files)."""
    reading, writing = os.pipe()
    running = Forked(lambda: time.sleep(0.5) or "done")
    os.close(writing)
    started = time.monotonic()
    assert os.read(reading, 1) == b"" and time.monotonic() - started < 0.4
    os.close(reading)
    assert running.result() == "done"
