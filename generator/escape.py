"""One escaper per output format: what citgen prints of its inputs, made safe where it is printed.

Names, display names, descriptions and paths come from files anyone may have
written: a catalog, an overlay, a bundle handed to ``diff`` or ``validate``. Each
format has its own ways for such text to take over what surrounds it: a line
break starts a line GitHub Actions runs as a workflow command (``::error``), a
``|`` adds a table column, ``<img onerror=...>`` is HTML a Markdown page shows,
``</script>`` ends the script that carries a page's data, a terminal escape
(``\\x1b[31m``) or a right-to-left override (U+202E) rewrites what a reader sees.

Every writer of a format escapes through the function of that format here, and
nothing else escapes, so that a fix to one format reaches all its writers:

- ``text``: reports for people (text reports, ``diff``, ``list``, ``validate --matrix``);
- ``markdown`` and ``markdown_code`` (``markdown_cell`` for a table's cells):
  release notes, README tables, the Helm chart's README;
- ``html`` and ``html_script``: the catalog page;
- ``json_text``: every JSON citgen writes, reports and files alike;
- ``github_data`` and ``github_property``: GitHub Actions workflow commands;
- ``cel_string``: CEL string literals (the admission policy's expressions).

The module is a foundation (docs/architecture.md): it imports nothing of ours, so
the problems, the outputs, the reporters and the tools can all use it.
"""

from __future__ import annotations

import io
import json as _json
import re
from typing import Any, Callable


def _escaped(char: str) -> str:
    """One character as Python writes it in a string literal: ``\\n``, ``\\x1b``, ``\\u202e``, ``\\U000e0001``."""
    return repr(char)[1:-1]


def text(value: str) -> str:
    """``value`` on one line, every character a reader cannot see written as its escape.

    What Python calls not printable is escaped: control characters (``\\n``,
    ``\\r``, ``\\x1b``, ``\\x07``), line and paragraph separators (``\\u2028``),
    format characters, among them the bidirectional marks, overrides and
    isolates (``\\u200f``, ``\\u202e``, ``\\u2066``...), and characters Unicode
    does not assign. A line break in a name therefore cannot start a line of
    its own, a terminal escape cannot colour or erase a report, and a
    right-to-left override cannot reverse the text after it. A space is kept;
    any other printable character, non-ASCII ones included, is kept as it is.

    Text that starts with ``::`` (after spaces) has its first colon written
    ``\\x3a``: a writer may put a value at the start of a line (a name in
    ``validate --matrix``, a file in a report), and GitHub Actions runs any line
    of a step's output that starts so as a workflow command, whatever format
    citgen was asked for. The result is printable and starts with no ``::``, so
    escaping it again changes nothing.
    """
    shown = value if value.isprintable() else "".join(char if char.isprintable() else _escaped(char) for char in value)
    if shown[:1] in (" ", ":") and shown.lstrip(" ").startswith("::"):
        blanks = len(shown) - len(shown.lstrip(" "))
        shown = f"{shown[:blanks]}\\x3a{shown[blanks + 1:]}"
    return shown


#: What Markdown inline text writes escaped: each character that opens or closes
#: something in CommonMark or GitHub's Markdown. A backslash comes first so that
#: the escapes of text() stay visible (``\\x1b`` renders as ``\x1b``); ``<``, ``>``
#: and ``&`` are written as entities, so no raw HTML, autolink or entity of the
#: input's own is left; ``[`` and ``]`` escaped mean no link or image can form,
#: which is why ``(`` and ``)`` are left as they are (a display name's
#: ``(amd64)`` reads as written in the README's source); ``|`` cannot end a
#: table's cell, ``#`` cannot make a heading, ``$`` cannot start GitHub's maths.
#: ``@`` and ``#`` are followed by a zero-width space (``&#8203;``): GitHub reads
#: ``@name`` and ``#123`` in the rendered text, after every Markdown escape is
#: undone, as a mention that notifies someone and a reference to an issue; the
#: space between keeps both from forming, and an e-mail address from linking.
_MARKDOWN = str.maketrans({
    "\\": "\\\\", "`": "\\`", "*": "\\*", "_": "\\_", "[": "\\[", "]": "\\]", "|": "\\|",
    "#": "\\#&#8203;", "~": "\\~", "$": "\\$", "<": "&lt;", ">": "&gt;", "&": "&amp;", "@": "@&#8203;",
})

#: Where a bare address would link (GitHub's autolinks: ``https://x``,
#: ``www.x``, ``mailto:x``; a protocol-relative ``//x`` to other renderers'):
#: a colon between a letter and what is not a space (the end of a scheme), the
#: dot after ``www``, a slash before a slash. Each is written backslash-escaped,
#: which renders as the character itself but is no longer part of the text an
#: autolink is looked for in. The rest is kept as written: a dot (``kubevirt.io``,
#: ``u1.medium``: GitHub links no bare domain), a colon before a space (``it: its``).
_AUTOLINK = re.compile(r"(?<=[A-Za-z]):(?=\S)|(?<=[Ww]{3})\.|/(?=/)")
#: What would begin a block at a line's start, where Markdown text may be put:
#: a list item (``-``, ``+``, ``1.``, ``1)``), a thematic break or setext
#: underline (``---``, ``===``), or four spaces, an indented code block (the
#: first space is written ``&#32;``). ``#``, ``>``, ``*``, ``_``, ``~`` and
#: backticks are escaped wherever they are.
_BLOCK_START = re.compile(r"^ (?=   )|^( *)([-+=]|\d{1,9}[.)](?= |$))")


def markdown(value: str) -> str:
    """``value`` as Markdown inline text (a table cell, a heading, a list item) that reads as written.

    The text is put on one line first (``text``, which also keeps it from
    starting with ``::``, a GitHub workflow command), then every character that
    would be Markdown is escaped (``_MARKDOWN``), so it can open no link, image,
    emphasis, code span, HTML tag or table column; no bare address in it is an
    autolink (``_AUTOLINK``), no ``@name`` a mention and no ``#123`` a
    reference; put at a line's start, it can begin no heading, list, quote or
    thematic break (``_BLOCK_START``). Rendered, it reads as ``text(value)``
    with a zero-width space after each ``@`` and ``#``.
    """
    shown = _AUTOLINK.sub(r"\\\g<0>", text(value).translate(_MARKDOWN))
    return _BLOCK_START.sub(_block_start, shown, count=1)


def _block_start(match: re.Match[str]) -> str:
    if match.group(2) is None:
        return "&#32;"
    return f"{match.group(1)}{match.group(2)[:-1]}\\{match.group(2)[-1]}"


def markdown_code(value: str) -> str:
    """``value`` as a Markdown code span that shows it as written, whatever backticks it holds (CommonMark 6.1).

    The text is put on one line first (``text``): a line break inside a span
    would let the text end the paragraph and write Markdown of its own. The
    fence is one backtick longer than the longest run inside, and a space each
    side keeps a backtick at an edge from joining the fence; a span that starts
    and ends with a space loses one of each when rendered, so it gets one more
    (a span of spaces only is kept as it is). Inside a span nothing else is
    Markdown: ``<``, ``*`` or ``[`` show as themselves.
    """
    shown = text(value)
    longest = run = 0
    for char in shown:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    edge = shown[:1] == "`" or shown[-1:] == "`" or (shown[:1] == " " and shown[-1:] == " " and shown.strip() != "")
    padded = f" {shown} " if edge else shown
    return f"{fence}{padded}{fence}"


def markdown_cell(cell: str) -> str:
    """A table cell's Markdown (made with ``markdown`` and ``markdown_code``) as a GitHub table writes it.

    A table splits its rows at every ``|`` that no backslash precedes, code
    spans included, and then drops exactly one backslash before each ``|``
    before it reads the cell's Markdown (cmark-gfm's ``unescape_pipes``). So
    every ``|`` is written ``\\|``, whatever the cell holds: a code span shows
    its ``|`` as written, and text that ``markdown`` wrote as ``\\|`` reads as
    ``|`` still. The cell stays one column, and reads as its Markdown; it is
    put on one line too (``text``, which changes no escaper's output), so no
    cell can end its row.
    """
    return text(cell).replace("|", "\\|")


def html(value: str) -> str:
    """``value`` as HTML text or an attribute's value in double or single quotes.

    The text is put on one line first (``text``), so a bidirectional override
    or a control character is shown as its escape and cannot turn the page's
    text around, then ``&``, ``<``, ``>``, ``"`` and ``'`` are written as
    character references: no tag or attribute can begin.
    """
    import html as _html  # only the page is HTML: the other commands do not import it

    return _html.escape(text(value))  # quotes too: quote=True is html.escape's default


#: What JSON inside an HTML <script> element writes as escapes: ``<`` begins every
#: sequence that ends the element or changes how it is read (``</script>``,
#: ``<!--``, ``<script``), and U+2028 and U+2029 end a line in older JavaScript.
_SCRIPT = str.maketrans({"<": "\\u003c", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def html_script(data: str) -> str:
    """JSON text (from ``json_text``) made safe as the content of an HTML ``<script>`` element.

    Those characters occur in JSON only inside strings, where ``\\u003c`` means
    the same ``<``: the script reads the same data.
    """
    return data.translate(_SCRIPT)


def json_text(value: Any, *, indent: int | None = None, sort_keys: bool = False,
              separators: tuple[str, str] | None = None, default: Callable[[Any], Any] | None = None) -> str:
    """``value`` as JSON, every character outside printable ASCII written as ``\\uXXXX``.

    JSON is read by programs, which get every string back exactly; people who
    read it in a terminal, a log or a review see every control character,
    bidirectional mark and line separator as an escape instead of its effect.
    Only ASCII is written, so the text passes through any stream's encoding
    unchanged (a narrow encoding's own escapes, ``\\U0001f680``, are no JSON).
    The layout arguments are ``json.dumps``'s, and so is the text.

    With an indent, ``json.dumps`` gathers every piece of the text (a key, a comma, a
    line's indent) in one list before it joins them: the report of a cluster dump's
    40,000 references was 1.5 million pieces, 127 MiB for 17 MiB of text. Written into
    a buffer as they come, only the text is held.
    """
    # ASCII only: ensure_ascii=True is json's default
    encoder = _json.JSONEncoder(indent=indent, sort_keys=sort_keys, separators=separators, default=default)
    if indent is None:
        return encoder.encode(value)  # in one piece, by the C encoder
    text = io.StringIO()
    for piece in encoder.iterencode(value):
        text.write(piece)
    return text.getvalue()


#: What the GitHub Actions runner decodes in a workflow command's data: ``%`` and
#: the line breaks, which would otherwise end the command.
_GITHUB_DATA = {"%": "%25", "\r": "%0D", "\n": "%0A"}
#: In a property's value, also the characters that end the value (``,``) or the properties (``:``).
_GITHUB_PROPERTY = {**_GITHUB_DATA, ":": "%3A", ",": "%2C"}


def _github(value: str, table: dict[str, str]) -> str:
    return "".join(table.get(char) or (char if char.isprintable() else _escaped(char)) for char in value)


def github_data(value: str) -> str:
    """``value`` as the message of a workflow command (after its ``::``), as the runner reads it.

    ``%``, carriage returns and line feeds are percent-encoded as the runner
    requires (it decodes them, so a message keeps its lines in the annotation),
    and every other character ``text`` escapes is written as that escape: a
    terminal escape or a bidirectional mark does not reach the log as itself.
    """
    return _github(value, _GITHUB_DATA)


def github_property(value: str) -> str:
    """``value`` as a workflow command's property (``file=``, ``title=``): as ``github_data``, and ``:`` and ``,``."""
    return _github(value, _GITHUB_PROPERTY)


def _cel_escape(char: str) -> str:
    """One character as a CEL string literal writes it by its code point, never as a surrogate pair."""
    point = ord(char)
    if 0xD800 <= point <= 0xDFFF:  # a lone surrogate (Python can hold one) is no Unicode text: CEL has none
        return "\\uFFFD"
    return f"\\u{point:04X}" if point <= 0xFFFF else f"\\U{point:08X}"


#: What a CEL string literal cannot write as itself: all but printable ASCII, and the quote and the backslash.
_CEL_ESCAPED = re.compile(r'[^\x20\x21\x23-\x5b\x5d-\x7e]')
_CEL_SHORT = {'"': '\\"', "\\": "\\\\"}


def cel_string(value: str) -> str:
    """``value`` as a CEL string literal in double quotes that reads back as ``value``.

    As CEL's language definition writes string literals (cel-spec's
    langdef.md, "String and Bytes Values"): ``\\"`` and ``\\\\`` for the quote
    and the backslash, and every character outside printable ASCII as its
    code point, ``\\uXXXX`` in the Basic Multilingual Plane and ``\\UXXXXXXXX``
    beyond it. JSON writes a character beyond the plane as two ``\\u``
    surrogates, which CEL does not define: cel-go 0.23 and later (Kubernetes
    1.33 and later) and Google's C++ CEL refuse the expression. A lone
    surrogate is no character at all and is written as U+FFFD. Every
    character being ASCII, no line break, bidirectional mark or terminal
    escape of the value is in the expression's text as itself.
    """
    return '"' + _CEL_ESCAPED.sub(lambda found: _CEL_SHORT.get(found[0]) or _cel_escape(found[0]), value) + '"'
