"""A JSON stream as the units the one reader of objects hands on, at the JSON parser's speed.

``kubectl get vm,datasource -A -o json`` writes a cluster as one JSON List: 93 MiB for
10,000 VirtualMachines and as many DataSources, or one line of 41 MiB when minified.
JSON is YAML, and stream.py reads it as YAML, but PyYAML's parser is written for
YAML's generality: seconds per ten megabytes. This module reads the same text with
Python's JSON decoder, whose parser is in C: the top-level mapping's keys and values,
and a List's items (or a bare list's), each decoded on its own by
``JSONDecoder.raw_decode`` from where the last one ended, so that no item waits for
the whole document and each item's place in the text is known.

The units are those stream.py gives for the same text: the same data, document
and path, each located in the file. A unit's keys are located only when asked
(``JsonSource``, the source map of a unit here): the item's text is walked by its
JSON structure, skipping the values beside the path with the same C decoder, to the
character the path's value (or key) starts at, and its line and column are counted
from there. Where a line break is, is counted once as the reading goes, so the work
is linear in the text however long its lines.

What this reader does not judge as stream.py would (a duplicate key, which Python's
decoder lets the last of win; a number longer than quantity.MAX_DIGITS digits; NaN
and Infinity, which JSON does not have; an escaped control character or half of a
surrogate pair), it does not decide either: the text is then read by stream.py, which
refuses it in its words and at its place, exactly as it refuses the same text written
as YAML. So are texts that are not JSON at all. ``read`` returns None for them.
"""

from __future__ import annotations

import json
import re
from array import array
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterator

from ..frozen import frozen
from ..problems import Location, Path, Problem
from ..quantity import within_bounds
from .inputfiles import DOCUMENTS_OPTION, DOCUMENTS_VARIABLE, limits
from .stream import Unit, read_span

_BLANK = re.compile(r"[ \t\n\r]*")
_LINE_BREAK = re.compile("\n")
_BLANKS = frozenset(" \t\n\r")
#: An escape the YAML reader judges (a control character, half of a surrogate pair): such an item is its to read.
_JUDGED_ESCAPE = re.compile(r"\\u(00[01][0-9a-fA-F]|007[fF]|[dD][89a-fA-F][0-9a-fA-F]{2})")


class _Elsewhere(Exception):
    """The text holds what stream.py judges: it is read there instead."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _Elsewhere("a duplicate key")
    return found


def _integer(text: str) -> int:
    if not within_bounds(text):
        raise _Elsewhere("a long number")
    return int(text)


def _real(text: str) -> float:
    number, _, exponent = text.lower().partition("e")
    if not within_bounds(number, exponent or None):
        raise _Elsewhere("a long number")
    return float(text)


def _constant(text: str) -> Any:
    raise _Elsewhere(f"{text}, which JSON does not have")


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_int=_integer, parse_float=_real,
                            parse_constant=_constant)
_SKIP = json.JSONDecoder()  # for walking to a path: values are skipped, not judged


class _Lines:
    """Where each line of a text starts, counted once, forward: the line and column of any offset read in order."""

    def __init__(self, text: str):
        self.text = text
        self.offset = 0
        self.line = 0  # 0-based line of ``offset``
        self.line_start = 0

    def at(self, offset: int) -> tuple[int, int]:
        """The 0-based line and column of ``offset``, which is at or after the last one asked."""
        text = self.text
        breaks = text.count("\n", self.offset, offset)
        if breaks:
            self.line += breaks
            self.line_start = text.rindex("\n", self.offset, offset) + 1
        self.offset = offset
        return self.line, offset - self.line_start


@frozen
class JsonSource:
    """The source map of one unit read from JSON: where a key path of its value is, found when asked.

    ``start`` and ``end`` bound the unit's text; ``column`` is the column its first
    character is at. Lines are counted from the unit's first line, as a slice's
    source map counts them (Unit.locate adds the lines above it). What one walk to
    a path learns (where each key of a mapping is, where each item of a list starts,
    where the unit's lines break) serves the next, so that finding the places of all
    of a unit's references costs about one reading of its text, however many there are.
    """

    file: str
    text: str
    start: int
    end: int
    column: int
    _walked: "_Walked" = field(default_factory=lambda: _Walked(), compare=False, repr=False)

    #: Its places are found by walking the text the read holds anyway: Unit.locator keeps the source, not the
    #: place, until a finding asks for it.
    finds_later: ClassVar[bool] = True

    def locate(self, path: Path, *, key: bool = False) -> Location:
        offset = self._walk(tuple(path), key)
        breaks = self._walked.line_breaks(self.text, self.start, self.end)
        line = bisect_left(breaks, offset)  # the line breaks before it
        column = offset - (breaks[line - 1] + 1) if line else self.column + offset - self.start
        return Location(self.file, line + 1, column + 1, tuple(path))

    def problem(self, path: Path, message: str, *, key: bool = False) -> Problem:
        return Problem(self.locate(path, key=key), message)

    def _walk(self, path: Path, key: bool) -> int:
        """The offset of ``path``'s value (or key), or of its nearest ancestor written."""
        text, walked = self.text, self._walked
        at = found = _blank(text, self.start)
        for depth, step in enumerate(path):
            opening = text[at:at + 1]
            if isinstance(step, str) and opening == "{":
                mapping = walked.mappings.get(at)
                if mapping is None:
                    mapping = walked.mappings[at] = _Mapping(_blank(text, at + 1))
                place = mapping.find(text, step)
                if place is None:
                    return found
                if key and depth == len(path) - 1:
                    return place[0]
                at = place[1]
            elif isinstance(step, int) and opening == "[":
                items = walked.lists.get(at)
                if items is None:
                    items = walked.lists[at] = _Items([_blank(text, at + 1)])
                item = items.find(text, step)
                if item is None:
                    return found
                at = item
            else:
                return found
            found = at
        return found


@dataclass
class _Walked:
    """What walks through one unit's text have learnt so far, for the next walk."""

    mappings: dict[int, "_Mapping"] = field(default_factory=dict)
    lists: dict[int, "_Items"] = field(default_factory=dict)
    breaks: "array[int] | None" = None

    def line_breaks(self, text: str, start: int, end: int) -> "array[int]":
        """Where the unit's line breaks are, in order: found in one pass, the first time a line is asked for."""
        if self.breaks is None:
            self.breaks = array("q", (found.start() for found in _LINE_BREAK.finditer(text, start, end)))
        return self.breaks


@dataclass
class _Mapping:
    """What is known of one JSON object's keys: where each read so far is (key, value), and where to read on."""

    read_to: int
    keys: dict[str, tuple[int, int]] = field(default_factory=dict)

    def find(self, text: str, name: str) -> tuple[int, int] | None:
        if name in self.keys:
            return self.keys[name]
        at = self.read_to
        while text[at:at + 1] == '"':
            found, after = _SKIP.raw_decode(text, at)
            value = _blank(text, _blank(text, after) + 1)  # past the colon
            self.keys.setdefault(found, (at, value))
            at = self.read_to = _next(text, _SKIP.raw_decode(text, value)[1])
            if found == name:
                return self.keys[name]
        return None


@dataclass
class _Items:
    """What is known of one JSON array: where each item read so far starts (the last: where to read on)."""

    starts: list[int]

    def find(self, text: str, index: int) -> int | None:
        """Where item ``index`` starts; None when the array has fewer items."""
        starts = self.starts
        while len(starts) <= index and text[starts[-1]:starts[-1] + 1] not in ("]", ""):
            starts.append(_next(text, _SKIP.raw_decode(text, starts[-1])[1]))
        if index < len(starts) and text[starts[index]:starts[index] + 1] not in ("]", ""):
            return starts[index]
        return None


def _next(text: str, at: int) -> int:
    """Past the blanks and the comma after a value: where the next key or item starts (or the closing bracket)."""
    at = _blank(text, at)
    return _blank(text, at + 1) if text[at:at + 1] == "," else at


def _blank(text: str, at: int) -> int:
    if text[at:at + 1] not in _BLANKS:
        return at
    return _BLANK.match(text, at).end()  # type: ignore[union-attr]


def read(text: str, file: str) -> Iterator[Unit | Problem] | None:
    """The units of ``text`` when it is one JSON document this reader can take; None to have stream.py read it.

    The document's shape is judged first (its top-level keys, where its items are and
    end), each item then decoded as it is handed on: an item that holds what stream.py
    judges is read by it, in place, and the rest read on.
    """
    start = _blank(text, 0)
    if text[start:start + 1] not in ("{", "["):
        return None
    try:
        items, path = _shape(text, start)
    except (_Elsewhere, ValueError, RecursionError):
        return None
    if items is None:
        try:
            data, end = _decode(text, start)
        except (_Elsewhere, ValueError, RecursionError):
            return None
        return iter((_unit(text, file, (), data, start, end, _Lines(text)),))
    return _items(text, file, items, path)


def _shape(text: str, start: int) -> tuple[int | None, Path]:
    """Where the document's items are (a bare list's, or a List's) and their path; None for one object."""
    if text[start] == "[":
        _ending(text, _list_end(text, start))
        return start, ()
    keys: dict[str, Any] = {}
    items_at: int | None = None
    at = _blank(text, start + 1)
    while text[at:at + 1] == '"':
        name, after = _SKIP.raw_decode(text, at)
        if name in keys:
            raise _Elsewhere("a duplicate key")
        value = _blank(text, _blank(text, after) + 1)
        if name == "items" and text[value:value + 1] == "[":
            items_at, keys[name], end = value, [], _list_end(text, value)
        else:
            keys[name], end = _decode(text, value)
        at = _blank(text, end)
        at = _blank(text, at + 1) if text[at:at + 1] == "," else at
    if text[at:at + 1] != "}":
        raise ValueError("not one JSON object")
    _ending(text, at + 1)
    kind = keys.get("kind")
    listed = items_at is not None and isinstance(kind, str) and kind.endswith("List")
    return (items_at, ("items",)) if listed else (None, ())


def _list_end(text: str, at: int) -> int:
    """The offset after the list at ``at``, its items decoded one at a time and let go (no list of them is built)."""
    most = limits().max_documents
    at = _blank(text, at + 1)
    number = 0
    while text[at:at + 1] != "]":
        if number >= most:
            raise _Elsewhere(f"more than {most} items; {DOCUMENTS_OPTION} or {DOCUMENTS_VARIABLE}")
        at = _blank(text, _SKIP.raw_decode(text, at)[1])
        number += 1
        if text[at:at + 1] == ",":
            at = _blank(text, at + 1)
        elif text[at:at + 1] != "]":
            raise ValueError("items not separated by commas")
    return at + 1


def _decode(text: str, at: int) -> tuple[Any, int]:
    data, end = _DECODER.raw_decode(text, at)
    if text.find("\\u", at, end) != -1 and _JUDGED_ESCAPE.search(text, at, end):
        raise _Elsewhere("an escape the YAML reader judges")
    return data, end


def _ending(text: str, at: int) -> None:
    """Nothing but blanks may follow the document: a second document is stream.py's to read."""
    if _blank(text, at) != len(text):
        raise ValueError("more than one JSON document")


def _items(text: str, file: str, at: int, path: Path) -> Iterator[Unit | Problem]:
    """Each item of the list at ``at`` (whose shape _shape judged), a unit of document 0 at ``path + (n,)``.

    An item holding what stream.py judges is read by stream.py from its own text.
    """
    lines = _Lines(text)
    at = _blank(text, at + 1)
    number = 0
    while text[at:at + 1] != "]":
        try:
            data, end = _decode(text, at)
        except (_Elsewhere, ValueError, RecursionError):
            end = _SKIP.raw_decode(text, at)[1]
            line, column = lines.at(at)
            yield from read_span(text, at, end, line, column, file, 0, (*path, number))
        else:
            yield _unit(text, file, (*path, number), data, at, end, lines)
        number += 1
        at = _blank(text, end)
        at = _blank(text, at + 1) if text[at:at + 1] == "," else at


def _unit(text: str, file: str, path: Path, data: Any, start: int, end: int, lines: _Lines) -> Unit:
    line, column = lines.at(start)
    source = JsonSource(file, text, start, end, column)
    return Unit(file, 0, path, data, source, line, end=end)  # type: ignore[arg-type]  # a source map in kind
