"""generator/source/inputfiles.py: read_stream_text, standard input read as every file is read.

``citgen refs -`` reads manifests piped in. A pipe has no size to look at before
reading, so the limit is judged from what is read: at most one byte past it, exactly
as a file that grows while it is read. What is read is decoded as every text file is
(a byte-order mark dropped, CRLF read as LF); a terminal is refused rather than waited
on, and a stream that cannot be read is refused in the reader's words.
"""

from __future__ import annotations

import io

import pytest

from generator.errors import InputError
from generator.source.inputfiles import Limits, limited, read_stream_text


class Counting(io.BytesIO):
    """A stream that remembers how many bytes were asked of it."""

    asked = 0

    def read(self, size: int | None = -1) -> bytes:
        chunk = super().read(size)
        self.asked += len(chunk)
        return chunk


class Terminal(io.BytesIO):
    def isatty(self) -> bool:
        return True


class Broken(io.BytesIO):
    def read(self, size: int | None = -1) -> bytes:
        raise OSError(5, "Input/output error")


def refusal(stream: io.BytesIO) -> list[str]:
    with pytest.raises(InputError) as caught:
        read_stream_text(stream, "<stdin>")
    return [str(problem) for problem in caught.value.problems]


def test_what_is_piped_in_is_read_as_text():
    assert read_stream_text(io.BytesIO(b"kind: List\nitems: []\n"), "<stdin>") == "kind: List\nitems: []\n"


def test_a_byte_order_mark_and_crlf_line_ends_are_read_as_every_file_reads_them():
    assert read_stream_text(io.BytesIO(b"\xef\xbb\xbfa: 1\r\nb: 2\r\n"), "<stdin>") == "a: 1\nb: 2\n"


def test_a_stream_exactly_at_the_limit_is_read():
    with limited(Limits(max_file_size=8)):
        assert read_stream_text(io.BytesIO(b"a: 12345"), "<stdin>") == "a: 12345"


def test_a_stream_past_the_limit_is_refused_having_read_one_byte_more_than_it():
    stream = Counting(b"a: 123456" + b"x" * 1000)
    with limited(Limits(max_file_size=8)):
        assert refusal(stream) == [
            "<stdin>: is larger than the 8 bytes limit on input files; raise it with `citgen --max-file-size SIZE` "
            "or CITGEN_MAX_FILE_SIZE if the file is right"]
    assert stream.asked == 9


def test_a_terminal_is_refused_instead_of_waited_on():
    assert refusal(Terminal(b"")) == [
        "<stdin>: is a terminal, not a stream of manifests; pipe them in (kubectl get vm -A -o yaml | citgen refs -) "
        "or name files"]


def test_a_stream_that_cannot_be_read_is_refused_with_the_system_s_words():
    assert refusal(Broken(b"")) == ["<stdin>: cannot read: Input/output error"]


def test_a_closed_stream_is_refused():
    stream = io.BytesIO(b"a: 1\n")
    stream.close()
    assert refusal(stream) == ["<stdin>: cannot read: the stream is closed"]


def test_a_stream_that_is_not_utf_8_is_refused_as_a_file_would_be():
    assert refusal(io.BytesIO(b"a: \xff\n")) == ["<stdin>: not UTF-8 text (invalid start byte at byte 3)"]
