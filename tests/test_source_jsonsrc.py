"""generator/source/jsonsrc.py: standard JSON only, decoded as every input file is.

Python's reader takes NaN, Infinity and -Infinity; JSON has none of them, so a
document holding one is refused at its line and column, as is a number past the
bounds of every number citgen reads (40 digits, an exponent from -99 to 99). A
byte-order mark and CRLF line ends, as an editor saves them, read as the file
without them.
"""

from __future__ import annotations

import pytest

from generator.errors import InputError
from generator.source.jsonsrc import json_document

NOT_JSON = "is not a JSON number (JSON has no NaN or Infinity, though Python's reader takes them); no schema can be " \
           "built from it"


def refusal(raw: bytes) -> list[str]:
    with pytest.raises(InputError) as caught:
        json_document(raw, "swagger.json", "an OpenAPI document")
    return [str(p) for p in caught.value.problems]


def test_a_json_document_is_read():
    assert json_document(b'{"a": [1, 2.5, "x", null, true]}', "f.json", "a schema file") == \
        {"a": [1, 2.5, "x", None, True]}


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused_where_they_are_written(token: str):
    raw = f'{{\n  "definitions": {{\n    "v1.A": {{"maximum": {token}}}\n  }}\n}}\n'.encode()
    assert refusal(raw) == [f"swagger.json:3:25: {token} {NOT_JSON}"]


def test_the_first_one_read_is_the_one_named_and_words_in_strings_are_not_numbers():
    raw = b'{"NaN": "Infinity", "b": [1,\n NaN, Infinity]}'
    assert refusal(raw) == [f"swagger.json:2:2: NaN {NOT_JSON}"]


def test_a_string_with_escaped_quotes_before_it_does_not_hide_it():
    raw = b'{"a": "say \\"NaN\\"", "b": -Infinity}'
    assert refusal(raw) == [f"swagger.json:1:27: -Infinity {NOT_JSON}"]


@pytest.mark.parametrize("raw, where", [
    (b"\n[NaN]", "2:2"),  # a line break first of all counts too
    (b"[1e400-1]", "1:2"),  # the number the reader read, though the text goes on
])
def test_the_refused_number_is_located_as_the_reader_read_it(raw: bytes, where: str):
    assert refusal(raw)[0].startswith(f"swagger.json:{where}: ")


def test_a_byte_order_mark_and_crlf_line_ends_read_as_the_document_without_them():
    plain = b'{\n  "a": 1,\n  "b": "two"\n}\n'
    assert json_document(b"\xef\xbb\xbf" + plain.replace(b"\n", b"\r\n"), "f.json", "x") == {"a": 1, "b": "two"}


def test_a_nan_after_a_byte_order_mark_and_crlf_is_located_as_the_editor_shows_it():
    raw = b'\xef\xbb\xbf{\r\n  "a": NaN\r\n}\r\n'
    assert refusal(raw) == [f"swagger.json:2:8: NaN {NOT_JSON}"]


def test_what_is_not_json_is_refused_in_the_reader_s_words():
    assert refusal(b"{not json") == [
        "swagger.json: not a JSON document: Expecting property name enclosed in double quotes: line 1 column 2 "
        "(char 1)"]


def test_a_document_nested_deeper_than_the_reader_goes_is_refused_as_what_it_should_have_been():
    assert refusal(b"[" * 1_000_000) == [
        "swagger.json: not an OpenAPI document: nested deeper than Python's JSON reader goes"]


def test_text_that_is_not_utf_8_is_refused_as_every_input_file_is():
    assert refusal(b'{"a": "\xff"}') == ["swagger.json: not UTF-8 text (invalid start byte at byte 7)"]


@pytest.mark.parametrize("number, value", [("9" * 40, 10 ** 40 - 1), ("-" + "9" * 40, 1 - 10 ** 40), ("1.5e99", 1.5e99),
                                           ("1.5E-99", 1.5e-99), ("9" * 20 + "." + "9" * 20, 1e20)])
def test_a_number_at_the_bounds_is_read(number: str, value: object):
    assert json_document(f'{{"a": {number}}}'.encode(), "f.json", "x") == {"a": value}


@pytest.mark.parametrize("number, message", [
    ("9" * 41, "expected a whole number of at most 40 digits"),
    ("-" + "9" * 41, "expected a whole number of at most 40 digits"),
    ("1e400", "expected a number of at most 40 digits and an exponent from -99 to 99"),
    ("1.5e-100", "expected a number of at most 40 digits and an exponent from -99 to 99"),
    ("9" * 21 + "." + "9" * 20, "expected a number of at most 40 digits and an exponent from -99 to 99"),
])
def test_a_number_past_the_bounds_is_refused_where_it_is_written(number: str, message: str):
    raw = f'{{"s": "{number}",\n "a": [1, {number}]}}'.encode()  # the same text in a string is no number
    assert refusal(raw) == [f"swagger.json:2:11: {message}, got {number!r}"]


@pytest.mark.parametrize("number", ["9" * 1_000_000, "1e" + "9" * 1_000_000, "0." + "0" * 1_000_000 + "1"],
                         ids=["digits", "exponent", "fraction"])
def test_a_million_digits_are_refused_before_they_are_read(number: str):
    # finishing is the proof: int() would refuse in Python's words, float() make infinity or 0
    [line] = refusal(f'{{"a": {number}}}'.encode())
    assert line.startswith("swagger.json:1:7: expected a ") and f", got '{number[:60]}... (" in line
