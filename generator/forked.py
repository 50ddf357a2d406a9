"""A value computed by a forked child while this process goes on: a build judges its documents while it lays out
its outputs.

A build's validation and its outputs both start from the documents parsed back and
need nothing of each other. The outputs are this process's work (and another's to
write, treewriter.py); the documents are judged meanwhile on the second core by a
child forked for it, which has everything it needs in the memory it shares with
this process and sends back only its answer, pickled.

What ``Forked(compute).result()`` returns is what ``compute()`` returns, whoever
computed it: where no child can be had (no descriptor, memory or process left to the
user), where the child ends without an answer (killed, or its value cannot be
pickled), and where ``compute`` raises, it is computed again here, so that a refusal
or a fault is raised in this process, with its own traceback, as it would have been
without a child. A child still computing when the caller gives up (``cancel``: an
error elsewhere, Ctrl-C) is stopped and reaped.
"""

from __future__ import annotations

import os
import pickle
import signal
from typing import Callable, Generic, TypeVar

from .pipes import hold_only, last_word, pipe, send_all

T = TypeVar("T")


class Forked(Generic[T]):
    """``compute()`` under way in a forked child; ``result()`` waits for its value.

    Mutable on purpose: it is the computation under way (the child, its pipe).
    ``result`` or ``cancel`` must be called once, and ends the child.
    """

    def __init__(self, compute: Callable[[], T]):
        self._compute = compute
        self._pid = 0
        self._answers = -1
        try:
            reading, writing = pipe()
        except OSError:
            return  # no descriptor left: result() computes it here
        try:
            pid = os.fork()
        except OSError:  # no memory or process left to the user: result() computes it here
            os.close(reading)
            os.close(writing)
            return
        if pid == 0:  # pragma: no mutate - the child ends in os._exit
            try:
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # pragma: no mutate - Ctrl-C is the parent's
                hold_only(writing)  # pragma: no mutate
                _answer(writing, compute)  # pragma: no mutate
            finally:
                os._exit(0)  # pragma: no mutate
        os.close(writing)
        self._pid, self._answers = pid, reading

    def result(self) -> T:
        """The value, once the child has sent it; computed here where the child could not."""
        if self._pid:
            answers, self._answers = self._answers, -1  # closed by last_word, whatever happens while it reads
            answer, _ = last_word(self._pid, answers)
            self._pid = 0
            if answer:
                return pickle.loads(answer)
        return self._compute()

    def cancel(self) -> None:
        """Stop the child where it is; nothing is computed (called again, or after ``result``, it does nothing)."""
        if self._pid:
            os.kill(self._pid, signal.SIGKILL)
            if self._answers >= 0:
                os.close(self._answers)
                self._answers = -1
            os.waitpid(self._pid, 0)
            self._pid = 0


def _answer(fd: int, compute: Callable[[], object]) -> None:  # pragma: no mutate - runs in the child
    """In the child: the value, pickled; nothing where ``compute`` raised or its value cannot be pickled (the parent
    then computes it again, and meets the same)."""
    try:
        data = pickle.dumps(compute(), pickle.HIGHEST_PROTOCOL)
    except BaseException:  # noqa: BLE001 - said by computing it again in the parent
        return
    send_all(fd, data)
