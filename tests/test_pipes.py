"""pipes.py: a pipe to one of citgen's children widened to hold a whole batch, where the system allows it."""

from __future__ import annotations

import fcntl
import os
import sys

import pytest

from generator import pipes
from generator.pipes import PIPE_SIZE, pipe, widen

#: Linux's fcntl to read a pipe's size (F_GETPIPE_SZ), which Python's fcntl module names from 3.10 on.
GET_SIZE = getattr(fcntl, "F_GETPIPE_SZ", 1032)


@pytest.fixture
def ends():
    ends = os.pipe()
    yield ends
    for fd in ends:
        os.close(fd)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="only Linux sizes pipes")
def test_a_widened_pipe_holds_a_whole_batch_without_a_reader(ends):
    reading, writing = ends
    widen(writing)
    assert fcntl.fcntl(reading, GET_SIZE) == PIPE_SIZE  # either end: it is one pipe
    os.set_blocking(writing, False)
    assert os.write(writing, b"x" * (600 << 10)) == 600 << 10  # the built-in catalog's bundles, nobody reading


def test_where_the_system_refuses_the_size_the_pipe_keeps_its_own(ends, monkeypatch):
    """Past /proc/sys/fs/pipe-max-size Linux refuses an unprivileged process (EPERM); root may go past it, so the
    refusal is the system call's, made here."""
    def refused(fd: int, command: int, size: int) -> int:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(pipes.fcntl, "fcntl", refused)
    widen(ends[1])  # nothing raised: the pipe is as it was
    monkeypatch.undo()
    assert os.write(ends[1], b"x") == 1


def test_a_system_without_pipe_sizes_leaves_the_pipe_as_it_is(ends, monkeypatch):
    monkeypatch.delattr(fcntl, "F_SETPIPE_SZ", raising=False)
    widen(ends[1])  # nothing to do, and nothing raised
    assert os.write(ends[1], b"x") == 1


def test_a_pipe_s_ends_are_past_the_standard_streams_and_not_inherited_by_a_program_run():
    made = pipe()
    try:
        assert min(made) > 2 and not any(os.get_inheritable(fd) for fd in made)
        os.write(made[1], b"x")
        assert os.read(made[0], 1) == b"x"
    finally:
        for fd in made:
            os.close(fd)


def test_a_process_whose_standard_streams_are_closed_gets_pipes_past_them():
    """The same where the system would give the standard streams' numbers (0 to 2) to the next descriptors."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the forked process answers with its exit status
        try:
            for fd in (0, 1, 2):
                os.close(fd)
            ends = [*pipe(), *pipe()]
            os._exit(0 if min(ends) > 2 and not any(os.get_inheritable(fd) for fd in ends) else 1)
        except BaseException:
            os._exit(2)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
