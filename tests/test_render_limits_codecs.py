"""Which codecs a template may use on any length of text (generator/render/limits.py ``linear_codec``).

A codec whose time grows with its input (UTF-8, Latin-1, the single-byte code
pages) takes any text; one that grows faster (punycode, IDNA) or that this
module does not know to be linear takes only a short one. A name that is no
codec at all fails at once, so it is let through to fail.
"""

from __future__ import annotations

import pytest

from generator.render.limits import linear_codec

LINEAR = ["utf-8", "UTF8", "ascii", "latin-1", "iso8859-1", "utf-16", "utf-16-le", "utf-16-be", "utf-32",
          "utf-32-le", "utf-32-be", "utf-7", "unicode-escape", "raw-unicode-escape"]
SINGLE_BYTE = ["cp1252", "windows-1252", "iso8859-2", "latin2", "mac-roman", "koi8-r"]
NOT_KNOWN_LINEAR = ["punycode", "idna", "rot13", "utf-8-sig", "shift_jis", "base64", "hex", "big5"]


@pytest.mark.parametrize("name", LINEAR)
def test_a_unicode_codec_takes_time_in_proportion_to_the_text(name):
    assert linear_codec(name) is True


@pytest.mark.parametrize("name", SINGLE_BYTE)
def test_a_single_byte_codec_takes_time_in_proportion_to_the_text(name):
    assert linear_codec(name) is True


@pytest.mark.parametrize("name", NOT_KNOWN_LINEAR)
def test_a_codec_not_known_to_be_linear_is_not_taken_as_linear(name):
    assert linear_codec(name) is False


def test_a_name_that_is_no_codec_is_let_through_to_fail_at_once():
    assert linear_codec("no-such-codec") is True


@pytest.mark.parametrize("name", [None, b"utf-8", 8], ids=["none", "bytes", "number"])
def test_a_codec_name_that_is_not_a_string_is_not_taken_as_linear(name):
    assert linear_codec(name) is False
