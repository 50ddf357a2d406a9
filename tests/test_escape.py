"""escape.py: one escaper per output format, each case as the format's reader sees it.

What a format's reader does with the result is the point, so each case says what
the input would have done unescaped: a line of its own, a table column, a link,
HTML, a script's end, a reversed line. tests/test_escape_writers.py feeds every
writer of each format the same hostile text and checks what they print.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings, strategies as st

from generator import escape
from tests.markdown_reader import MARKDOWN_HOSTILE, assert_inert, linked, read, shown

# --------------------------------------------------------------------------- text


@pytest.mark.parametrize("value, shown", [
    ("u1.large", "u1.large"),
    ("Größe, 日本語 ✓", "Größe, 日本語 ✓"),  # readable text is kept, whatever its script
    ("two\nlines", "two\\nlines"),
    ("back\rto the start", "back\\rto the start"),
    ("\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m"),  # a terminal would colour the rest of the report
    ("bell\x07", "bell\\x07"),
    ("tab\there", "tab\\there"),
    ("\x7f\x85", "\\x7f\\x85"),  # DEL and NEL, a line break to some readers
    ("\u202egnp.exe", "\\u202egnp.exe"),  # right-to-left override: would read 'exe.png'
    ("\u200fmark", "\\u200fmark"),
    ("\u2066isolate\u2069", "\\u2066isolate\\u2069"),
    ("a\u2028b\u2029c", "a\\u2028b\\u2029c"),  # line and paragraph separators
    ("zero\u200bwidth", "zero\\u200bwidth"),
    ("\U000e0001tag", "\\U000e0001tag"),  # a format character outside the BMP
    ("non\xa0breaking", "non\\xa0breaking"),  # looks like a space and is not one
    (" spaced ", " spaced "),
    ("::add-mask::secret", "\\x3a:add-mask::secret"),  # at a line's start, GitHub Actions would run it
    ("  ::error::x", "  \\x3a:error::x"),  # the runner trims blanks before it reads a command
    ("::", "\\x3a:"),
    (":one colon", ":one colon"),
    ("u1 + ::x", "u1 + ::x"),  # inside a line, nothing to run
    (" X::y", " X::y"),  # only blanks before the colons make a command
    ("C:\\dir\nnext", "C:\\dir\\nnext"),  # a backslash is kept as written beside an escape
])
def test_text_writes_what_a_reader_cannot_see_as_its_escape(value: str, shown: str):
    assert escape.text(value) == shown


@given(st.text())
def test_text_is_one_printable_line_and_escaping_it_again_changes_nothing(value: str):
    shown = escape.text(value)
    assert shown.isprintable()
    assert len(shown.splitlines()) <= 1
    assert not shown.lstrip(" ").startswith("::")
    assert escape.text(shown) == shown


# --------------------------------------------------------------------------- markdown


@pytest.mark.parametrize("value, shown", [
    ("Fedora (amd64)", "Fedora (amd64)"),  # a README's display names read as written in its source
    ("Red Hat Enterprise Linux 9", "Red Hat Enterprise Linux 9"),
    ("Ubuntu 22.04", "Ubuntu 22.04"),
    ("1:4", "1:4"),
    ("<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"),  # HTML the page would show
    ("a & b", "a &amp; b"),
    ("&lt;", "&amp;lt;"),  # an entity of the input's own shows as written
    ("[x](y)", "\\[x\\](y)"),  # a link
    ("![x](y)", "!\\[x\\](y)"),  # an image
    ("](javascript:x)", "\\](javascript\\:x)"),  # the end of a link the text before it began
    ("`code`", "\\`code\\`"),
    ("a | b", "a \\| b"),  # a column of its own in a table
    ("*bold* _em_ ~del~", "\\*bold\\* \\_em\\_ \\~del\\~"),
    ("$x^2$", "\\$x^2\\$"),  # GitHub's maths
    ("# heading", "\\#&#8203; heading"),
    ("@kubevirt/maintainers", "@&#8203;kubevirt/maintainers"),  # a mention GitHub would notify
    ("fixes #123", "fixes \\#&#8203;123"),  # a reference GitHub would link to an issue
    ("https://evil.example/x", "https\\:\\//evil.example/x"),  # GitHub's autolinks
    ("www.evil.example", "www\\.evil.example"),
    ("WWW.1.example", "WWW\\.1.example"),
    ("mailto:me@evil.example", "mailto\\:me@&#8203;evil.example"),
    ("//evil.example", "\\//evil.example"),  # markdown-it's linkify links a protocol-relative address
    ("note: this", "note: this"),  # a colon before a space is no scheme
    ("- item", "\\- item"),  # at a line's start, a list
    ("  + item", "  \\+ item"),
    ("1. item", "1\\. item"),
    ("2) item", "2\\) item"),
    ("---", "\\---"),  # a thematic break, or under a line a heading
    ("1.5 GiB", "1.5 GiB"),
    ("::error file=x::y", "\\\\x3a\\:error file=x\\::y"),  # at a line's start, a workflow command; renders \x3a:
    ("  ::error", "  \\\\x3a\\:error"),
    ("x::y", "x\\::y"),
    (":one", ":one"),
    ("back\\slash", "back\\\\slash"),
    ("x\n::error file=x::y", "x\\\\n\\::error file=x\\::y"),  # one line; renders as x\n::error...
    ("\x1b[31m", "\\\\x1b\\[31m"),  # renders as \x1b[31m
    ("\u202eevil", "\\\\u202eevil"),
])
def test_markdown_text_opens_nothing_and_renders_as_written(value: str, shown: str):
    assert escape.markdown(value) == shown


@given(st.text())
def test_markdown_text_is_one_line_without_a_tag_or_an_unescaped_bracket(value: str):
    shown = escape.markdown(value)
    assert len(shown.splitlines()) <= 1
    assert "<" not in shown and ">" not in shown
    assert not shown.lstrip(" ").startswith(("::", "#"))
    # every character that opens something is escaped: no run of backslashes before it has an even length
    for match in re.finditer(r"(\\*)([`*_\[\]|#~$])", shown.replace("&#8203;", "")):
        assert len(match.group(1)) % 2 == 1, shown


#: Where a writer puts Markdown text: inside a line, at a line's start, as a heading, a list item,
#: emphasised, in a table's cell (through escape.markdown_cell, as tables.markdown_table writes it).
PLACES = (
    "x {} x", "{}", "### {}", "- {}", "**{}**: names",
    "| a | b |\n| --- | --- |\n| x | {} |",
)


def _in_cell(place: str, value: str) -> str:
    shown = escape.markdown(value)
    return place.format(escape.markdown_cell(shown) if place.startswith("|") else shown)


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("value", [*MARKDOWN_HOSTILE, "- evil", "1. evil", "---", "    evil", "> evil", "# evil"])
def test_markdown_text_read_by_a_commonmark_renderer_is_the_text_itself(place: str, value: str):
    found = assert_inert(_in_cell(place, value), shows=[value.strip()])
    assert found.codes == []  # no indented code block either


@settings(max_examples=300)
@given(st.text())
def test_any_text_reads_back_as_itself_with_nothing_of_markdown_made(value: str):
    found = read(f"x {escape.markdown(value)} x")
    assert (found.addresses, found.html, found.emphasised, found.codes) == ([], [], [], [])
    assert found.text == f"x {shown(value)} x"
    assert linked(found.text) == []


@pytest.mark.parametrize("value, span", [
    ("plain", "`plain`"),
    ("a`b", "``a`b``"),
    ("``x", "``` ``x ```"),
    ("ends`", "`` ends` ``"),
    (" ", "` `"),
    (" a ", "`  a  `"),
    ("<img src=x>", "`<img src=x>`"),  # nothing is Markdown or HTML inside a span
    ("x\n::error file=x::y", "`x\\n::error file=x::y`"),  # a line break would end the paragraph
    ("\u202e", "`\\u202e`"),
])
def test_code_spans_survive_backticks_and_line_breaks(value: str, span: str):
    assert escape.markdown_code(value) == span


@given(st.text())
def test_a_code_span_is_one_line_its_fence_longer_than_any_backtick_run_inside(value: str):
    span = escape.markdown_code(value)
    assert len(span.splitlines()) == 1
    fence = re.match(r"`+", span).group()
    inside = span[len(fence):-len(fence)]
    assert span.endswith(fence) and fence not in inside


@pytest.mark.parametrize("cell, written", [
    ("a | b", "a \\| b"),
    ("`a|b`", "`a\\|b`"),  # GitHub drops one backslash before each pipe, code spans included
    (escape.markdown("a|b"), "a\\\\|b"),  # still reads as a|b
    ("two\nlines", "two\\nlines"),  # a cell never ends its row
])
def test_a_table_cell_writes_every_pipe_escaped_and_stays_on_its_row(cell: str, written: str):
    assert escape.markdown_cell(cell) == written


def _columns(row: str) -> int:
    """How many cells GitHub reads in a table row: it splits at every ``|`` no backslash precedes."""
    return len(re.split(r"(?<!\\)\|", row)) - 2


@given(st.lists(st.text(), min_size=1, max_size=4))
def test_a_row_of_escaped_cells_has_as_many_columns_as_cells(values: list[str]):
    cells = [escape.markdown_cell(escape.markdown(v)) for v in values] + [
        escape.markdown_cell(escape.markdown_code(v)) for v in values]
    assert _columns("| " + " | ".join(cells) + " |") == 2 * len(values)


# --------------------------------------------------------------------------- HTML


@pytest.mark.parametrize("value, shown", [
    ("General Purpose", "General Purpose"),
    ("<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"),
    ("\" onmouseover=\"x", "&quot; onmouseover=&quot;x"),  # out of an attribute in double quotes
    ("' x='", "&#x27; x=&#x27;"),
    ("a & b", "a &amp; b"),
    ("\u202eevil\nline", "\\u202eevil\\nline"),  # the page's text is not turned around either
])
def test_html_begins_no_tag_or_attribute(value: str, shown: str):
    assert escape.html(value) == shown


def test_json_in_a_script_element_cannot_end_it_or_open_a_comment():
    data = {"description": "</script><script>alert(1)</script><!-- \u2028\u2029"}
    inside = escape.html_script(escape.json_text(data))
    assert "<" not in inside and "\u2028" not in inside and "\u2029" not in inside
    assert json.loads(inside) == data  # the script reads the same data


def test_html_script_also_takes_json_written_with_raw_separators():
    assert escape.html_script('"\u2028<"') == '"\\u2028\\u003c"'


# --------------------------------------------------------------------------- JSON


def test_json_is_ascii_and_reads_back_as_the_same_value():
    value = {"name": "x\n::error", "é": "\u202eevil \x1b[31m \x7f ✓ \U0001F680"}
    written = escape.json_text(value)
    assert written.isascii() and written.isprintable()
    assert "\\u202e" in written and "\\u001b" in written and "\\u007f" in written and "\\ud83d\\ude80" in written
    assert json.loads(written) == value


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                           lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=20)


@given(JSON_VALUES, st.sampled_from([None, 0, 1, 2]), st.booleans())
def test_json_is_the_text_json_dumps_writes_in_every_layout(value, indent, sort_keys):
    assert escape.json_text(value, indent=indent, sort_keys=sort_keys) == json.dumps(value, indent=indent,
                                                                                    sort_keys=sort_keys)


def test_json_takes_json_dumps_s_layout():
    value = {"b": [1, 2], "a": None}
    assert escape.json_text(value, indent=2, sort_keys=True) == json.dumps(value, indent=2, sort_keys=True)
    assert escape.json_text(value, separators=(",", ":")) == '{"b":[1,2],"a":null}'
    assert escape.json_text({"when": object()}, default=lambda v: "then") == '{"when": "then"}'


# --------------------------------------------------------------------------- GitHub workflow commands


@pytest.mark.parametrize("value, data", [
    ("50% done", "50%25 done"),
    ("one\r\ntwo\rthree", "one%0D%0Atwo%0Dthree"),  # the runner decodes these: the message keeps its lines
    ("a::b, c", "a::b, c"),
    ("\x1b[31mred", "\\x1b[31mred"),  # the log would colour it
    ("\u202eevil", "\\u202eevil"),
    ("C:\\dir\x07", "C:\\dir\\x07"),  # a backslash is kept as written beside an escape
])
def test_github_data_encodes_what_ends_a_command_and_escapes_what_a_reader_cannot_see(value: str, data: str):
    assert escape.github_data(value) == data


def test_a_github_property_also_encodes_what_ends_a_value_or_the_properties():
    assert escape.github_property("a,b:c.yaml\n%") == "a%2Cb%3Ac.yaml%0A%25"


@given(st.text())
def test_github_data_is_one_printable_line(value: str):
    data = escape.github_data(value)
    assert data.isprintable() and len(data.splitlines()) <= 1
    assert "," not in escape.github_property(value) and ":" not in escape.github_property(value)
