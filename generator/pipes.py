"""Pipes to citgen's child processes (the rendering child, the writer), as wide as the system lets them be.

A pipe holds 64 KiB by default: a parent handing a child more than that waits until
the child reads it, and a child answering waits for the parent. Both of citgen's
children are given whole batches that the other side is not waiting for (a build's
objects to render, its files to write), so their pipes are widened to hold such a
batch whole, and neither side waits for the other while it has work of its own.
"""

from __future__ import annotations

import fcntl

#: What a widened pipe holds: the built-in catalog's largest batch (its rendered bundles, about 600 KiB) whole.
PIPE_SIZE = 1 << 20


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
