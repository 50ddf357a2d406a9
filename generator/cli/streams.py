"""The standard streams every command writes through: a report is delivered whole, or the run says so.

Everything citgen prints (a command's report, click's help and usage errors, a
version line) goes to ``sys.stdout`` or ``sys.stderr``. While the command line runs
(cli/__init__.py, ``CitgenGroup.main``) both are replaced by a ``Delivery``, so that
the ways a stream can fail are handled in this one place rather than by each writer:

- a stream that is closed (``citgen list >&-``: Python then has no ``sys.stdout``)
  or that takes nothing more (``/dev/full``, a reader that went away) records why,
  and what is left goes nowhere, so that not even Python's last flush prints a
  traceback;
- a stream that takes only part of a write (a pipe set non-blocking by the process
  that reads it, a slow reader) is waited for and given the rest: nothing is cut;
- a character the stream's encoding lacks is written as its escape (``\\u2603``).

When the command is done, ``delivered`` says whether both streams took everything;
the group turns a lost report into exit status 2 and one line on the stream that
still works. That line, and the one a run interrupted by Ctrl-C ends with
(``interrupted``), name what the run had already put in place (write.py ``record``):
a lost report or a late Ctrl-C does not undo a build whose outputs were swapped in.
"""

from __future__ import annotations

import io
import os
import select
import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator, TextIO

from .. import write
from ..frozen import frozen
from ..problems import PATH_EXCERPT, excerpt

#: The exit status of a run whose report could not be delivered whole.
NOT_DELIVERED = 2
#: How much text is encoded at a time: a long report (the JSON of a cluster dump) is not held a second time whole.
_SLICE = 1 << 20


class Delivery(io.TextIOBase):
    """One standard stream as citgen writes to it: whole writes, escaped characters, failures recorded.

    ``stream`` is the stream Python opened (None when the descriptor was closed before
    citgen started). Where it has a file descriptor, text is encoded here and written
    to the descriptor until every byte is taken; otherwise (a test's captured stream)
    it is handed to the stream.
    """

    def __init__(self, stream: TextIO | None):
        super().__init__()
        self.stream = stream
        #: Why the stream takes no more text (None while it takes everything).
        self.broken: str | None = None if stream is not None else "it is closed"
        #: Whether some text written to it did not arrive.
        self.lost = False
        self.target = getattr(stream, "encoding", None) or "utf-8"
        self.fd = _descriptor(stream)

    # what click and print look at
    @property
    def encoding(self) -> str:  # type: ignore[override]
        """What writers may hand over: any text (characters the stream lacks are escaped here)."""
        return "utf-8"

    @property
    def errors(self) -> str:  # type: ignore[override]
        return "strict"

    def isatty(self) -> bool:
        try:
            return self.stream is not None and self.stream.isatty()
        except (OSError, ValueError):
            return False

    def writable(self) -> bool:
        return True

    @property
    def buffer(self) -> "_Bytes":
        """Where bytes go (click writes a shell's completion script so): delivered as text is, unencoded."""
        return _Bytes(self)

    def fileno(self) -> int:
        if self.fd is None:
            raise io.UnsupportedOperation("fileno")
        return self.fd

    @property
    def failure(self) -> str | None:
        """Why text written to this stream did not all arrive; None if it all did."""
        return self.broken if self.lost else None

    def write(self, text: str) -> int:
        if not isinstance(text, str):  # how click tells a text stream from a binary one
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if text:
            self._guarded(self._text, text)
        return len(text)

    def write_bytes(self, data: bytes) -> None:
        """``data`` as it is: whole, or the failure recorded as for text."""
        if data:
            self._guarded(self._bytes, data)

    def flush(self) -> None:
        if self.broken is None and self.fd is None:  # a stream of None is broken from the start
            self._guarded(lambda _: self.stream.flush(), None)  # type: ignore[union-attr]

    def _guarded(self, deliver: Callable[[Any], None], what: Any) -> None:
        """Deliver ``what``, or record that it was lost and why."""
        if self.broken is not None:
            self.lost = True
            return
        try:
            deliver(what)
        except OSError as exc:
            self._fail(exc.strerror or str(exc))
        except (ValueError, AttributeError):  # the stream was closed under us
            self._fail("it is closed")

    def _text(self, text: str) -> None:
        for start in range(0, len(text), _SLICE):
            data = text[start:start + _SLICE].encode(self.target, "backslashreplace")
            if self.fd is None:
                self.stream.write(data.decode(self.target))  # type: ignore[union-attr]
            else:
                self._bytes(data)

    def _bytes(self, data: bytes) -> None:
        if self.fd is None:
            self.stream.buffer.write(data)  # type: ignore[union-attr]
            return
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.fd, view):]
            except BlockingIOError:  # a non-blocking descriptor whose reader is behind: wait for it
                select.select([], [self.fd], [])

    def _fail(self, reason: str) -> None:
        self.broken, self.lost = reason, True
        if self.fd is not None:  # what Python still holds for it must not fail again at exit
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, self.fd)
                os.close(devnull)
            except OSError:
                pass


class _Bytes:
    """The binary side of a Delivery, as click looks for it (``stream.buffer``)."""

    def __init__(self, text: Delivery):
        self.text = text

    def write(self, data: bytes) -> int:
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"a bytes-like object is required, not {type(data).__name__}")
        self.text.write_bytes(bytes(data))
        return len(data)

    def flush(self) -> None:
        self.text.flush()


def _descriptor(stream: Any) -> int | None:
    """The file descriptor under ``stream``, with what Python buffered for it written out first."""
    if stream is None:
        return None
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return None
    try:
        stream.flush()
    except (OSError, ValueError):
        pass
    return fd if isinstance(fd, int) and fd >= 0 else None


@frozen
class Outcome:
    """What became of the two streams while a command ran: why each failed, None if it took everything.

    ``written`` names what the command put in place meanwhile (output folders, files).
    """

    stdout: str | None
    stderr: str | None
    written: tuple[str, ...] = ()

    @property
    def whole(self) -> bool:
        return self.stdout is None and self.stderr is None

    def tell(self) -> None:
        """Say, on whichever stream still works, that the report was not delivered, and what was written."""
        if self.stdout is not None and self.stderr is None:
            _last_word(sys.stderr, f"citgen: cannot write the report to standard output: {self.stdout}"
                                   f"{_written_note(self.written, 'all the same')}\n")


def _written_note(written: tuple[str, ...], when: str) -> str:
    """``; the outputs were written WHEN, and are in place: bundles`` where a run put something in place, else ''."""
    if not written:
        return ""
    shown = ", ".join(excerpt(path, PATH_EXCERPT) for path in written[:3]) + (
        f" and {len(written) - 3} more" if len(written) > 3 else "")
    return f"; the outputs were written {when}, and are in place: {shown}"


def interrupted() -> str:
    """The line a run ended by Ctrl-C ends with: what it had put in place, if anything, is in place still."""
    return f"citgen: interrupted{_written_note(tuple(str(path) for path in write.written()), 'before it')}\n"


def _last_word(stream: Any, line: str) -> None:
    try:
        stream.write(line)
        stream.flush()
    except (OSError, ValueError, AttributeError):
        pass


@contextmanager
def delivered() -> Iterator[list[Outcome]]:
    """``sys.stdout`` and ``sys.stderr`` as Deliveries while the block runs; the Outcome after it.

    The list it yields holds the Outcome once the block is done (a context manager
    cannot return a value after its block otherwise). The streams Python opened are
    put back afterwards, so that a test running many commands in one process ends
    each with the streams it started with.
    """
    before = sys.stdout, sys.stderr
    write.forget()  # a run begins: what it writes is recorded from here
    out, err = Delivery(sys.stdout), Delivery(sys.stderr)
    sys.stdout, sys.stderr = out, err  # type: ignore[assignment]
    outcome: list[Outcome] = []
    try:
        yield outcome
    finally:
        out.flush()
        err.flush()
        sys.stdout, sys.stderr = before
        outcome.append(Outcome(out.failure, err.failure, tuple(str(path) for path in write.written())))
