"""One step of a large build run in a forked child while the parent does the next one.

A build's validation and its outputs both only read the parsed documents, and
neither needs the other: validation says whether the outputs may replace the
old ones, the outputs are what would replace them. On a machine with a second
core a large build validates in a child process, forked once the documents are
parsed, while the parent makes the kustomize tree and the Helm chart and writes
them into the hidden staging directory; the parent then takes the child's
problems and only swaps the outputs in if there are none. Python threads could
not do this: both steps are pure Python and would take turns on one core.

fork() gives the child every parsed document without copying or pickling it;
only the problems come back, pickled through a pipe. Whatever goes wrong in the
child (an exception, a crash, a kill) makes the parent run the step itself, so
the answer, or the exception with its traceback, is what a serial build gives.
Small builds, single-core machines and systems without fork (or where forking
a Python process is unsafe, as on macOS) run the step in the parent, at
``result()``, exactly as before.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
from typing import Callable, Generic, TypeVar

T = TypeVar("T")

#: Documents from which a build validates in a child: below it, forking and
#: collecting cost more than the overlap saves (a 2,000-document build validates
#: in about a tenth of a second).
THRESHOLD = 2000


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def worth_forking(documents: int) -> bool:
    """Whether a step over ``documents`` documents should run in a child on this machine."""
    return sys.platform.startswith("linux") and hasattr(os, "fork") and cores() > 1 and documents >= THRESHOLD


def beside(work: Callable[[], T], documents: int) -> "Pending[T]":
    """``work`` over ``documents`` documents, started in a child when that pays on this machine.

    The one call the pipeline makes: whether it forks is this module's business.
    """
    return Pending(work, fork=worth_forking(documents))


class Pending(Generic[T]):
    """A step's result, computed in a forked child or, failing that, by ``result()`` itself.

    Use it as a context manager: leaving the block early (an error in the
    parent's own work) stops and reaps the child.
    """

    def __init__(self, work: Callable[[], T], fork: bool):
        self._work = work
        self._pid: int | None = None
        self._pipe: int | None = None
        if fork:
            self._start()

    def _start(self) -> None:
        reader, writer = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: do the work, send the answer, and leave without cleanup
            os.close(reader)
            status = 1
            try:
                payload = pickle.dumps(self._work(), protocol=pickle.HIGHEST_PROTOCOL)
                with os.fdopen(writer, "wb") as pipe:
                    pipe.write(payload)
                status = 0
            except BaseException:  # the parent runs the work itself and reports what happens
                pass
            finally:
                os._exit(status)
        os.close(writer)
        self._pid, self._pipe = pid, reader

    def __enter__(self) -> "Pending[T]":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop()

    def result(self) -> T:
        """The child's answer when it gave one; otherwise the work, done here."""
        if self._pid is not None and self._pipe is not None:
            with os.fdopen(self._pipe, "rb") as pipe:
                self._pipe = None
                payload = pipe.read()
            _, status = os.waitpid(self._pid, 0)
            self._pid = None
            if os.waitstatus_to_exitcode(status) == 0:
                try:
                    return pickle.loads(payload)
                except Exception:  # a truncated answer: fall through and do it here
                    pass
        return self._work()

    def _stop(self) -> None:
        if self._pipe is not None:
            os.close(self._pipe)
            self._pipe = None
        if self._pid is not None:
            try:
                os.kill(self._pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(self._pid, 0)
            self._pid = None
