"""Values as YAML text: the two filters every template writes data through.

``yaml_scalar`` and ``yaml_block`` build PyYAML nodes and let its emitter quote
and escape, so no description or label can change the structure of a document;
``yaml_block`` also keeps each line within upstream's lint width. They are apart
from the renderer because the sandbox registers them in the one environment and
the renderer uses that environment: together they made an import cycle.
"""

from __future__ import annotations

import io
import re
from typing import Any, ClassVar, Mapping

import yaml

from ..source.yamlclasses import Dumper

_TAG = "tag:yaml.org,2002:"

#: The longest line upstream's yamllint configuration (``.yamllint``) accepts. A longer
#: line passes only when it holds a single word, which nothing can break.
LINE_LIMIT = 120
#: PyYAML's emitter ignores a width of twice its indent (2) or less.
_NARROWEST = 5
#: Characters a literal or folded block cannot carry as written (they would come back
#: as other line breaks or need escapes); strings holding them are left to the emitter.
_NOT_IN_BLOCKS = ("\r", "\x85", "\u2028", "\u2029")
_FOLDABLE_SPACE = re.compile(r"(?<! ) (?! )")


class _Unusual(Exception):
    """A value the direct node builder leaves to PyYAML's representer."""


class _Long:
    """The strings of one dump that may not fit on their line, and what they need.

    ``column`` is where a string's text starts in the dumped block; ``limit`` is
    the line length the block may reach before the caller indents it. A string
    that fits, and every string when no limit is asked for, is left alone.
    """

    __slots__ = ("limit", "word", "quoted")

    #: What a string written by _double_quoted stands in for while the emitter writes the rest.
    TOKEN = "citgen-quoted-text-{}"

    #: What style() found for a string where it started, and its longest word: every size of
    #: a series carries the same description, so most long strings have been seen before.
    _seen: ClassVar[dict[tuple[str, int, int, int], tuple[str | None, int]]] = {}
    MEMORY = 4096

    def __init__(self, limit: int):
        self.limit = limit
        self.word = 0  # the longest word of the strings the emitter may have to fold
        # text with line breaks that no block style can carry: token -> (text, column, block)
        self.quoted: dict[str, tuple[str, int, int]] = {}

    def style(self, value: str, column: int, block: int) -> str | None:
        """The scalar style ``value`` needs when its text starts at ``column`` and a block
        scalar's lines would start at ``block``; None lets the emitter choose as always."""
        key = (value, column, block, self.limit)
        found = self._seen.get(key)
        if found is None:
            mine = _Long(self.limit)
            found = (mine._style(value, column, block), mine.word)
            if len(self._seen) >= self.MEMORY:
                self._seen.clear()
            self._seen[key] = found
        if found[1] > self.word:
            self.word = found[1]
        return found[0]

    def _style(self, value: str, column: int, block: int) -> str | None:
        limit = self.limit
        if "\n" in value:
            lines = value.split("\n")
            if _block_ok(value, 3) and all(block + len(line) <= limit or " " not in line.strip(" ")
                                           for line in lines):
                return "|"  # each line as written: Markdown reads as it was typed
            # double quotes write a line break as \\n: single quotes would write it as a blank line
            if _folding_ok(value):
                self._words(value.replace("\n", " "))
                return ">"
            return '"'  # written by _double_quoted, which can break a line anywhere
        if column + len(value) + 2 <= limit:  # fits, quotes and all
            return None
        self._words(value)
        # a folded block starts the text on a line of its own, as the built-in series write
        # their descriptions; where a block cannot carry it, the emitter quotes and folds it
        return ">" if _folding_ok(value) else None

    def _words(self, text: str) -> None:
        """Note the longest word of ``text``, as the emitter folds it (a line break of a
        block scalar has been made a space by the caller)."""
        # the emitter folds only at a single space: words joined by a run of spaces stay on one line
        words = _FOLDABLE_SPACE.split(text) if "  " in text else text.split(" ")
        if text.isascii() and text.isprintable():
            longest = max(map(len, words))
        else:  # a character YAML escapes takes up to ten columns
            longest = max(map(_escaped_length, words))
        if longest > self.word:
            self.word = longest

    def width(self) -> int:
        """The emitter's width: it breaks at the first space past the width, so a line
        can run one word (and a closing quote) beyond it."""
        if not self.word:
            return 1 << 16  # nothing to fold: every string as it always was
        return max(_NARROWEST, self.limit - self.word - 3)


def _escaped_length(word: str) -> int:
    """The columns ``word`` takes in a double-quoted scalar: the emitter writes a character
    outside the printable Basic Multilingual Plane as an escape (``\\t``, ``\\x01``, ``\\U0001F680``)."""
    extra = 0
    for char in word:
        if not ("\x20" <= char <= "\x7e" or "\xa0" <= char <= "\ud7ff" or "\ue000" <= char <= "\ufffd") \
                or char == "\ufeff":
            extra += 9 if char > "\uffff" else 3
    return len(word) + extra


def _block_ok(value: str, newlines: int) -> bool:
    """Can a block scalar carry ``value`` and pass the lint? Not with more than two blank
    lines in a row (a folded block writes one more per line break than a literal one), nor
    with kept trailing line breaks (a lone line break is one: the emitter would end the
    document after it with ``...``), nor with breaks other than ``\\n``."""
    return ("\n" * (newlines + 1) not in value and not value.endswith("\n\n") and value != "\n"
            and not any(char in value for char in _NOT_IN_BLOCKS))


def _folding_ok(value: str) -> bool:
    """Can a folded block carry ``value`` and pass the lint? As a block can, and without two
    spaces in a row: the emitter may fold after the first of them and leave it trailing; nor
    with a line that starts with a space and holds another: the emitter may fold that line too,
    but a reader keeps the line breaks of a line that starts with a space (a more indented line)."""
    return "  " not in value and _block_ok(value, 2) and not any(
        line.startswith(" ") and " " in line[1:] for line in value.split("\n"))


def _node(value: Any, seen: set[int], long: _Long | None = None, column: int = 0, block: int = 0) -> yaml.Node:
    """The node PyYAML's SafeRepresenter would make for plain data, built without its machinery.

    The representer's per-value dispatch and alias bookkeeping were most of the
    time spent rendering; the emitter still decides every style and quote, so the
    text is the same. A value seen twice (which PyYAML would write as an alias) or
    of any other type is left to PyYAML.

    With ``long``, a string that would not fit on its line asks for a block style
    (see :meth:`_Long.style`); ``column`` is where a scalar value's text starts, and
    ``block`` where a collection's keys or dashes and a block scalar's lines start.
    """
    kind = type(value)
    if kind is str:
        return _string(value, long, column, block)
    if kind is bool:
        return yaml.ScalarNode(_TAG + "bool", "true" if value else "false")
    if kind is int:
        return yaml.ScalarNode(_TAG + "int", str(value))
    if value is None:
        return yaml.ScalarNode(_TAG + "null", "null")
    if kind is not dict and kind is not list or id(value) in seen:
        raise _Unusual(kind)
    seen.add(id(value))
    inner = block + 2
    # a string fits when it ends this far left (a block or quotes come after); None: no limit
    end = long.limit - 2 if long is not None else None
    if kind is list:  # "- " then the item: a nested collection or block two further in
        return yaml.SequenceNode(_TAG + "seq", [
            (_Scalar(_STR, v) if end is None or inner + len(v) <= end and "\n" not in v
             else _string(v, long, inner, inner)) if type(v) is str
            else _node(v, seen, long, inner, inner) for v in value], flow_style=False)
    if any(type(k) is not str for k in value):
        raise _Unusual("a key that is not a string")
    # a scalar starts after "key: ", leaving room for quotes around the key; a nested mapping
    # is indented two, a list is not (its dashes start under the key). Strings, most of the
    # values, are made here rather than in a call of _node each.
    pairs = []
    for k, v in sorted(value.items()):
        if type(v) is str:
            if end is None or block + len(k) + 4 + len(v) <= end and "\n" not in v:
                pairs.append((_Scalar(_STR, k), _Scalar(_STR, v)))
            else:
                pairs.append((_Scalar(_STR, k), _string(v, long, block + len(k) + 4, inner)))
        else:
            pairs.append((_Scalar(_STR, k), _node(v, seen, long, block + len(k) + 4,
                                                  block if type(v) is list else inner)))
    return yaml.MappingNode(_TAG + "map", pairs, flow_style=False)


_Scalar = yaml.ScalarNode
_STR = _TAG + "str"


def _string(value: str, long: _Long | None, column: int, block: int) -> yaml.ScalarNode:
    """A string's node; one too long for its line, or with line breaks, gets the style it needs.

    Text that must go in double quotes is written by _double_quoted: a token stands in
    for it while the emitter writes everything else, and _dump puts the text in its place.
    """
    if long is not None and (column + len(value) > long.limit - 2 or "\n" in value):
        style = long.style(value, column, block)
        if style == '"':
            token = _Long.TOKEN.format(len(long.quoted))
            long.quoted[token] = (value, column, block)
            return yaml.ScalarNode(_STR, token)
        return yaml.ScalarNode(_STR, value, style=style)
    return yaml.ScalarNode(_STR, value)


#: How YAML's double quotes write the characters that cannot stand for themselves. U+2028 and
#: U+2029 are printable, but a reader takes them for line breaks (and drops spaces before them).
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\x00": "\\0",
            "\u2028": "\\L", "\u2029": "\\P"}


def _escaped(char: str) -> str:
    """``char`` as it is written inside double quotes (printable as YAML 1.1 defines it)."""
    found = _ESCAPES.get(char)
    if found is not None:
        return found
    if "\x20" <= char <= "\x7e" or ("\xa0" <= char <= "\ud7ff" or "\ue000" <= char <= "\ufffd") and char != "\ufeff":
        return char
    code = ord(char)
    return f"\\x{code:02X}" if code <= 0xFF else f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}"


def _double_quoted(value: str, column: int, block: int, limit: int) -> str:
    """``value`` in double quotes, its text starting at ``column``, no line past ``limit``.

    libyaml's emitter breaks a double-quoted line only at a space, so short lines
    joined by ``\\n`` escapes would make one word too long for any line. Here a line
    may end anywhere with an escaped line break (a ``\\`` at its end, which the text
    does not keep); the next line starts at ``block``, and a space or tab there is
    escaped, since a reader drops the white space that starts a continued line.
    """
    lines: list[str] = []
    line, at = '"', column + 1
    for char in value:
        piece = _escaped(char)
        if at + len(piece) + 1 > limit and at > block + 1:  # room for the "\\" or the closing quote
            lines.append(line + "\\")
            line, at = " " * block, block
            if char in " \t":
                piece = "\\ " if char == " " else "\\t"
        line += piece
        at += len(piece)
    lines.append(line + '"')
    return "\n".join(lines)


def _dump(value: Any, indent: int | None = None) -> str:
    """``value`` as YAML text, as PyYAML writes it.

    With ``indent`` (the columns the caller will indent every line by), strings
    too long for upstream's lint are folded by the emitter at a width that keeps
    each line within LINE_LIMIT, or written as literal blocks when they hold line
    breaks; a string that fits is written as it always was. Without it, nothing
    is folded (the text goes on one line of the caller's).
    """
    long = None if indent is None else _Long(LINE_LIMIT - indent)
    try:
        node = _node(value, set(), long)
    except _Unusual:
        width = 1 << 16 if long is None else max(_NARROWEST, long.limit - 40)
        return yaml.dump(value, Dumper=Dumper, sort_keys=True, default_flow_style=False,
                         allow_unicode=True, width=width)
    stream = io.StringIO()
    dumper = Dumper(stream, default_flow_style=False, allow_unicode=True, sort_keys=True,
                    width=1 << 16 if long is None else long.width())
    try:
        dumper.open()
        dumper.serialize(node)
        dumper.close()
    finally:
        dumper.dispose()
    text = stream.getvalue()
    if long is not None and long.quoted:
        for token, (string, column, block) in long.quoted.items():
            if text.count(token) != 1:  # a value that happens to hold a token: let the emitter write it all
                return _dump_as_emitted(value)
            text = text.replace(token, _double_quoted(string, column, block, long.limit))
    return text


def _dump_as_emitted(value: Any) -> str:
    """``value`` as PyYAML's emitter writes it unaided, on one line per scalar."""
    return yaml.dump(value, Dumper=Dumper, sort_keys=True, default_flow_style=False,
                     allow_unicode=True, width=1 << 16)


def yaml_scalar(value: Any) -> str:
    """One value as an inline YAML scalar, quoted when plain text would change meaning."""
    text = _dump(value)
    if text.endswith("\n...\n"):
        text = text[: -len("\n...\n")]
    return text.rstrip("\n")


def yaml_block(value: Any, indent: int) -> str:
    """A mapping or list as a block nested ``indent`` spaces deep, starting on a new line.

    Every line stays within LINE_LIMIT once indented, unless it is one word.
    Empty collections render inline (`` {}``) so the key before them stays valid.
    """
    if not value:
        return " {}" if isinstance(value, Mapping) or value is None else " []"
    pad = " " * indent
    # split on "\n" only: str.splitlines() also breaks at U+2028 and U+0085, which the
    # dumper leaves inside quoted text, and indenting there would change the text
    text = _dump(value, indent).rstrip("\n")
    lines = text.split("\n")
    if "\n\n" in text:  # an empty line of a block or quoted scalar stays empty: no trailing spaces
        return "\n" + "\n".join(pad + line if line else line for line in lines)
    return "\n" + "\n".join(pad + line for line in lines)
