"""The pipes between citgen and its children (the rendering child, the writer), and what a child holds open.

A pipe's ends are numbered past the standard streams (``pipe``): where a shell closed
one, the system would give its number to the next descriptor, and a child that puts
/dev/null on its standard streams (``hold_only``) would put it over its own pipe and
read nothing: a build whose three streams were closed once swapped in an output
folder holding none of its files.

A pipe holds 64 KiB by default: a parent handing a child more than that waits until
the child reads it, and a child answering waits for the parent. Both of citgen's
children are given whole batches that the other side is not waiting for (a build's
objects to render, its files to write), so their pipes are widened (``widen``) to hold
such a batch whole, and neither side waits for the other while it has work of its own.
"""

from __future__ import annotations

import fcntl
import os

#: What a widened pipe holds: the built-in catalog's largest batch (its rendered bundles, about 600 KiB) whole.
PIPE_SIZE = 1 << 20


def pipe() -> tuple[int, int]:
    """A pipe (its reading end, its writing end) whose ends are not standard streams, nor inherited by a program
    a child would run.

    A shell may have closed standard input, output or error, whose numbers the system
    then gives the next descriptors made: a child that puts /dev/null on its standard
    streams (``hold_only``) would put it over its own pipe, and read nothing from it.
    OSError where no descriptor is left; nothing is left open then.
    """
    made = os.pipe()
    ends: list[int] = []
    try:
        for fd in made:
            ends.append(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3))
    except OSError:
        for fd in ends:
            os.close(fd)
        raise
    finally:
        for fd in made:
            os.close(fd)
    return ends[0], ends[1]


def widen(fd: int) -> None:
    """Let the pipe ``fd`` is an end of hold ``PIPE_SIZE`` bytes (Linux, within ``/proc/sys/fs/pipe-max-size``).

    Where the system will not (another system, a lower limit), the pipe keeps its size:
    one side then waits for the other sooner, and nothing else changes.
    """
    setting = getattr(fcntl, "F_SETPIPE_SZ", None)  # Linux only
    if setting is not None:
        try:
            fcntl.fcntl(fd, setting, PIPE_SIZE)
        except OSError:
            pass


def send_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` to the pipe ``fd``, waiting while it is full."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def last_word(pid: int, fd: int) -> tuple[bytes, int]:
    """Everything a child writes to the pipe ``fd`` until it closes its end, then its wait status once it has
    ended. ``fd`` is closed, whatever happens while it is read (an interrupt)."""
    try:
        reader = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with reader:
        said = reader.read()
    return said, os.waitpid(pid, 0)[1]


def hold_only(*keep: int) -> None:  # pragma: no mutate - runs in a child, where mutmut records nothing
    """In a forked child: none of its parent's files held open but ``keep`` (a reader of the parent's output waits
    for their end, a lock for its release, the parent's other children for the end of their pipes), its standard
    streams on /dev/null."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    low = 3
    for fd in sorted(keep):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, os.sysconf("SC_OPEN_MAX"))
