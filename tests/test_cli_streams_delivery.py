"""generator/cli/streams.py in this process: a Delivery over each kind of stream a shell or a caller hands over.

tests/test_cli_streams.py runs the program with its streams arranged by the operating
system; here each kind is made in the test (a closed stream, /dev/full, a pipe set
non-blocking, a stream with no descriptor, one that is not even a file), so that what
the Delivery does with it is seen directly and quickly.
"""

from __future__ import annotations

import fcntl
import io
import os
import sys
import threading
import time
from typing import Any

import pytest

from generator.cli.streams import Delivery, Outcome, delivered


class Plain:
    """A stream that is not a file: it takes text and has no encoding, descriptor or buffer."""

    def __init__(self) -> None:
        self.written: list[str] = []

    def write(self, text: str) -> int:
        self.written.append(text)
        return len(text)

    def flush(self) -> None:
        self.written.append("<flush>")


class Numbered(Plain):
    """A stream whose fileno() says ``number``."""

    def __init__(self, number: Any) -> None:
        super().__init__()
        self.number = number

    def fileno(self) -> Any:
        return self.number


class Failing(Plain):
    """A stream without a descriptor whose writes fail as a full disk's do."""

    def write(self, text: str) -> int:
        raise OSError(28, "No space left on device")


def test_a_closed_stream_takes_nothing_and_says_so_once_something_was_written_to_it() -> None:
    closed = Delivery(None)
    assert (closed.broken, closed.failure) == ("it is closed", None)
    closed.flush()
    assert closed.write("") == 0 and closed.failure is None
    assert closed.write("report\n") == 7
    assert closed.failure == "it is closed"
    with pytest.raises(io.UnsupportedOperation, match="^fileno$"):
        closed.fileno()
    assert not closed.isatty()


def test_a_stream_that_is_no_file_gets_the_text_as_it_is_and_its_flushes() -> None:
    plain = Plain()
    delivery = Delivery(plain)
    assert delivery.write("snow\u2603\n") == 6
    delivery.flush()
    assert plain.written == ["snow\u2603\n", "<flush>"]
    assert delivery.failure is None


def test_writers_are_told_any_text_is_taken_and_the_stream_escapes_what_it_lacks() -> None:
    delivery = Delivery(io.StringIO())
    assert (delivery.encoding, delivery.errors, delivery.writable()) == ("utf-8", "strict", True)


def test_text_to_a_stream_without_a_descriptor_is_escaped_to_its_encoding() -> None:
    raw = io.BytesIO()
    narrow = io.TextIOWrapper(raw, encoding="ascii")
    Delivery(narrow).write("snow\u2603\n")
    narrow.flush()
    assert raw.getvalue() == b"snow\\u2603\n"


def test_bytes_go_to_the_buffer_of_a_stream_without_a_descriptor_unencoded() -> None:
    raw = io.BytesIO()
    delivery = Delivery(io.TextIOWrapper(raw, encoding="ascii"))
    assert delivery.buffer.write(b"\xff\x00") == 2
    delivery.buffer.write(memoryview(b"!"))
    delivery.buffer.flush()
    assert raw.getvalue() == b"\xff\x00!"


def test_only_text_is_written_as_text_and_only_bytes_as_bytes() -> None:
    delivery = Delivery(io.StringIO())
    with pytest.raises(TypeError, match="^write\\(\\) argument must be str, not bytes$"):
        delivery.write(b"x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="^a bytes-like object is required, not str$"):
        delivery.buffer.write("x")  # type: ignore[arg-type]


def test_a_file_gets_what_python_buffered_for_it_first_then_the_text_escaped_to_its_encoding(tmp_path) -> None:
    with open(tmp_path / "out", "w", encoding="ascii") as narrow:
        narrow.write("before ")
        delivery = Delivery(narrow)
        assert delivery.fileno() == narrow.fileno()
        delivery.write("snow\u2603\n")
        delivery.buffer.write(b"\xff")
    assert (tmp_path / "out").read_bytes() == b"before snow\\u2603\n\xff"


@pytest.mark.parametrize("number, descriptor", [(0, 0), (5, 5), (-1, None), ("5", None)])
def test_a_descriptor_is_a_number_from_zero(number: Any, descriptor: int | None) -> None:
    delivery = Delivery(Numbered(number))
    if descriptor is None:
        with pytest.raises(io.UnsupportedOperation):
            delivery.fileno()
    else:
        assert delivery.fileno() == descriptor


def test_a_terminal_is_a_terminal_and_a_stream_closed_under_the_delivery_is_not() -> None:
    main, side = os.openpty()
    with os.fdopen(side, "w") as terminal:
        assert Delivery(terminal).isatty()
    os.close(main)
    closed = io.StringIO()
    delivery = Delivery(closed)
    closed.close()
    assert not delivery.isatty()


def test_a_full_device_is_recorded_and_its_descriptor_takes_what_python_still_writes_there() -> None:
    with open("/dev/full", "w") as full:
        delivery = Delivery(full)
        assert delivery.write("report\n") == 7
        assert delivery.failure == "No space left on device"
        delivery.write("more\n")
        delivery.buffer.write(b"more")
        assert delivery.failure == "No space left on device"
        assert os.write(full.fileno(), b"at exit") == 7  # /dev/null now, not /dev/full


def test_a_stream_without_a_descriptor_that_fails_is_recorded_as_it_failed() -> None:
    delivery = Delivery(Failing())
    delivery.write("report\n")
    assert delivery.failure == "No space left on device"


def test_a_stream_that_takes_no_writes_is_recorded_with_its_reason() -> None:
    delivery = Delivery(io.TextIOWrapper(io.BufferedReader(io.BytesIO(b""))))
    delivery.write("report\n")
    assert delivery.failure == "not writable"


def test_a_stream_closed_under_the_delivery_is_recorded_as_closed_when_it_is_flushed() -> None:
    closed = io.TextIOWrapper(io.BytesIO())
    delivery = Delivery(closed)
    closed.close()
    delivery.flush()
    assert delivery.failure == "it is closed"


def test_a_non_blocking_pipe_whose_reader_is_late_is_waited_for_and_gets_every_byte() -> None:
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETFL, fcntl.fcntl(write_end, fcntl.F_GETFL) | os.O_NONBLOCK)
    got: list[bytes] = []

    def read_late() -> None:
        time.sleep(0.05)  # the writer has filled the pipe (64 KiB) by now and is told to wait
        with os.fdopen(read_end, "rb") as pipe:
            while chunk := pipe.read(65536):
                got.append(chunk)

    reader = threading.Thread(target=read_late)
    reader.start()
    text = "".join(f"line {number}\n" for number in range(40_000))  # some 400 KB
    with os.fdopen(write_end, "w") as pipe:
        delivery = Delivery(pipe)
        delivery.write(text)
        assert delivery.failure is None
    reader.join(timeout=60)
    assert b"".join(got) == text.encode()


@pytest.mark.parametrize("outcome, whole, told", [
    (Outcome(None, None), True, ""),
    (Outcome("Broken pipe", None), False, "citgen: cannot write the report to standard output: Broken pipe\n"),
    (Outcome(None, "it is closed"), False, ""),
    (Outcome("it is closed", "it is closed"), False, ""),
    (Outcome("Broken pipe", None, ("bundles",)), False, "citgen: cannot write the report to standard output: Broken "
                                                         "pipe; the outputs were written all the same, and are in "
                                                         "place: bundles\n"),
    (Outcome("Broken pipe", None, ("a", "b", "c", "d\ne")), False, "citgen: cannot write the report to standard "
                                                                  "output: Broken pipe; the outputs were written all "
                                                                  "the same, and are in place: a, b, c and 1 more\n"),
])
def test_a_lost_report_is_told_on_standard_error_while_that_works(monkeypatch, outcome, whole, told) -> None:
    stderr = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stderr)
    outcome.tell()
    assert (outcome.whole, stderr.getvalue()) == (whole, told)


def test_telling_on_a_standard_error_closed_meanwhile_says_nothing_and_raises_nothing(monkeypatch) -> None:
    closed = io.StringIO()
    closed.close()
    monkeypatch.setattr(sys, "stderr", closed)
    Outcome("Broken pipe", None).tell()


def test_while_delivered_both_streams_are_deliveries_and_afterwards_the_outcome_says_what_was_lost(monkeypatch):
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    with delivered() as outcome:
        assert isinstance(sys.stdout, Delivery) and isinstance(sys.stderr, Delivery)
        print("report")
        print("note", file=sys.stderr)
        out.close()
        print("lost")
    assert (sys.stdout, sys.stderr) == (out, err)
    assert outcome == [Outcome("it is closed", None)]
    assert err.getvalue() == "note\n"
