"""A YAML stream as the units the scan reads one at a time: its documents, and the items of a List.

``kubectl get vm,datasource -A -o yaml`` writes a whole cluster as one document, a
List whose ``items`` are the objects. Read whole by the located reader, a dump of
10,000 VirtualMachines and as many DataSources took 825 MiB, the line and column of
every key path of every object held at once. So this module first walks the
stream's events (libyaml's parser through the tool's Loader, building nothing, and
given the text a piece at a time) to learn where each document begins and ends and, in
a List document, each item; then each unit is read on its own from its slice of the
text by ``yamlsrc.iter_documents``, with every bound and refusal of the one reader, and
handed on before the next is read. Only one unit is ever built.

A slice keeps its place in the file: its first line is indented by spaces to the
column it starts at, and the lines above it are added back to every line the reader
reports (``Unit.locate``, ``_moved``). A List is read item by item only when it
holds no anchors or aliases, which could refer from one item into another (kubectl
writes none); otherwise it is read whole, as any other document.

What the reader refuses in a unit's values (a duplicate key, a tag, a number) is
handed on with the unit (``Unit.problems``), read without those values; what refuses
a whole unit (nesting, aliases) is reported and the next unit read. What stops the
parser itself (malformed YAML, nesting libyaml gives up on) ends the file: the text from
the document where the parser stopped (or the last one it read) is read again by the
reader, which stops where it did, so that the refusal is worded and placed as everywhere
else in citgen.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import partial
from typing import Any, Callable, Iterator

import yaml
from yaml.events import (AliasEvent, DocumentStartEvent, MappingEndEvent, MappingStartEvent, ScalarEvent,
                         SequenceEndEvent, SequenceStartEvent, StreamEndEvent)

from ..errors import InputError
from ..frozen import frozen
from ..problems import Location, Path, Problem
from .inputfiles import DOCUMENTS_OPTION, DOCUMENTS_VARIABLE, limits
from .yamlclasses import Loader
from .yamlsrc import SourceMap, iter_documents


@frozen
class Unit:
    """One value the scan reads: a document of a file, or an item of a List document.

    ``path`` is where ``data`` sits in its document (``()``, or ``("items", 3)``);
    ``source`` locates the key paths of ``data`` as read from its slice, whose first
    line is ``lines_before`` lines into the file. ``problems`` are those of its own
    values, which the reader left out of ``data`` (a duplicate key).
    """

    file: str
    doc: int
    path: Path
    data: Any
    source: SourceMap
    lines_before: int = 0
    problems: tuple[Problem, ...] = ()
    within: Path = ()
    #: Where in the text the unit ends: how far a reader has got.
    end: int = 0

    def locate(self, path: Path, name: str | None = None, *, key: bool = False) -> Location:
        """Where ``path`` of ``data`` is in the file: line, column, document, and its path in the document.

        The location names the object ``data`` is (its kind and namespace, and ``name``);
        ``key``: the key of ``path`` rather than its value (an unknown field is its key).
        """
        found = self.source.locate(self.within + tuple(path), key=key)
        line = found.line + self.lines_before if found.line is not None else None
        kind, namespace = _identity(self.data)
        return Location(self.file, line, found.column, self.path + tuple(path), self.doc, name, kind, namespace)

    def locator(self, path: Path, name: str | None = None) -> Location | Callable[[], Location]:
        """Where ``path`` is, as ``locate`` says it, or how to find it later where that costs little memory.

        A JSON unit's place is found by walking its text, which the read holds whole
        anyway: that walk waits until a finding asks for the place (most of a
        dump's references are never reported). A YAML unit's source map is its own,
        and large: it is used now and let go with the unit.
        """
        if not getattr(self.source, "finds_later", False):  # a source that can find places later says so
            return self.locate(path, name)
        kind, namespace = _identity(self.data)  # the object's own, not kept: its data goes with the unit
        # the fields of the Location to make, flat: a dump holds tens of thousands of these until its end
        return partial(_found_later, self.source, self.within + tuple(path), self.lines_before,
                       (self.file, self.path + tuple(path), self.doc, name, kind, namespace))

    def items(self) -> Iterator["Unit"]:
        """The items of a document that is a bare YAML list, each a unit of its own; this unit otherwise.

        Each item keeps the problems of its own values (those the reader found under its
        index); a problem of the list itself stays with its first item.
        """
        if not isinstance(self.data, list):
            yield self
            return
        depth = len(self.path)
        for number, item in enumerate(self.data):
            own = tuple(p for p in self.problems
                        if _under(p, depth) == (number,) or (number == 0 and not _under(p, depth)))
            yield replace(self, path=self.path + (number,), data=item, within=self.within + (number,), problems=own)


def _found_later(source: Any, within: Path, lines_before: int,
                 where: tuple[str, Path, int, str | None, str | None, str | None]) -> Location:
    """The Location of ``where`` (file, path, document, name, kind, namespace), at the line and column ``source``
    finds for ``within``."""
    found = source.locate(within)
    line = found.line + lines_before if found.line is not None else None
    file, path, doc, name, kind, namespace = where
    return Location(file, line, found.column, path, doc, name, kind, namespace)


def _under(problem: Problem, depth: int) -> Path:
    """The step of ``problem``'s path below a unit's own ``depth``: the index of the item it is in, or nothing."""
    return problem.location.path[depth:depth + 1]


def _identity(data: Any) -> tuple[str | None, str | None]:
    """An object's kind and namespace, as far as they are text."""
    if not isinstance(data, dict):
        return None, None
    kind, meta = data.get("kind"), data.get("metadata")
    namespace = meta.get("namespace") if isinstance(meta, dict) else None
    return (kind if isinstance(kind, str) else None), (namespace if isinstance(namespace, str) else None)


@frozen
class _Span:
    """Where a node or document is in the text: its first character and the one after its last."""

    start: int
    end: int
    line: int
    column: int


def _span(start: Any, end: Any) -> _Span:
    return _Span(start.index, end.index, start.line, start.column)


class _Pieces:
    """``text`` as a stream libyaml reads a piece at a time. Handed the whole text, PyYAML's parser keeps a
    UTF-8 copy of it for as long as it reads: a dump's size again, beside the text the units are cut from."""

    def __init__(self, text: str):
        self.text = text
        self.read_to = 0

    def read(self, size: int) -> str:
        piece = self.text[self.read_to:self.read_to + size]
        self.read_to += len(piece)
        return piece


def units(text: str, file: str) -> Iterator[Unit | Problem]:
    """The documents of ``text`` and the items of its List documents, in order, and what the reader refuses.

    ``file`` names the text in every location.
    """
    loader = Loader(_Pieces(text))
    index = 0
    resume = 0  # where the document being read, or the last one read, begins
    most = limits().max_documents
    try:
        while True:
            event = loader.get_event()
            if isinstance(event, StreamEndEvent):
                return
            if not isinstance(event, DocumentStartEvent):
                continue
            mark = event.start_mark
            resume = mark.index
            if index >= most:
                yield Problem(Location(file, mark.line + 1, mark.column + 1), (
                    f"holds more than {most} YAML documents; raise the limit with `citgen {DOCUMENTS_OPTION} N` "
                    f"or {DOCUMENTS_VARIABLE} if the file is right"))
                return
            end, items = _document(loader)
            if items is None:
                yield from _read(text, _Span(mark.index, end, mark.line, mark.column), file, index, ())
            else:
                for number, item in enumerate(items):
                    yield from _read(text, item, file, index, ("items", number))
            index += 1
    except yaml.YAMLError:
        # the parser stopped: the reader reads again from the document it stopped in (or after), and says why
        yield from _refused(text, resume, file)
    finally:
        loader.dispose()


def _document(loader: Any) -> tuple[int, list[_Span] | None]:
    """Read one document's events: where it ends, and its items when it is a List to be read item by item.

    A List here is a mapping whose ``kind`` ends in ``List`` and whose ``items`` is a
    list, with no anchors or aliases anywhere in the document and no key written twice
    at its top: a List whose own fields the reader would refuse is read whole, as any
    other document, so that the refusal is said.
    """
    depth = 0
    root_is_map = False
    expecting_key = True
    key: str | None = None
    kind: str | None = None
    items: list[_Span] | None = None
    in_items = False
    item_start: Any = None
    referring = False
    top_keys: set[str] = set()
    get = loader.get_event
    while True:
        event = get()
        cls = type(event)
        if cls is ScalarEvent or cls is AliasEvent:
            referring = referring or event.anchor is not None  # an alias's anchor: the one it names
            if depth > 2:  # most events: nothing below an item matters here
                continue
        elif cls is MappingStartEvent or cls is SequenceStartEvent:
            referring = referring or event.anchor is not None
            if depth > 2:
                depth += 1
                continue
        elif cls is MappingEndEvent or cls is SequenceEndEvent:
            depth -= 1
            if in_items and depth == 2:
                items.append(_span(item_start, event.end_mark))  # type: ignore[union-attr]
            elif in_items and depth == 1:
                in_items = False
            continue
        else:  # the document's end
            listed = items is not None and not referring and isinstance(kind, str) and kind.endswith("List")
            return event.end_mark.index, items if listed else None
        # a node starts at the root, as a key or value of the root mapping, or as an item of its items
        collection = cls is MappingStartEvent or cls is SequenceStartEvent
        if depth == 0:
            root_is_map = cls is MappingStartEvent
        elif depth == 1 and root_is_map:
            if expecting_key:
                key = event.value if cls is ScalarEvent else None
                if key is not None:
                    referring = referring or key in top_keys  # a duplicate: read whole, where it is refused
                    top_keys.add(key)
            elif key == "kind" and cls is ScalarEvent:
                kind = event.value
            elif key == "items" and cls is SequenceStartEvent:
                items, in_items = [], True
            expecting_key = not expecting_key
        elif depth == 2 and in_items:
            if collection:
                item_start = event.start_mark
            else:
                items.append(_span(event.start_mark, event.end_mark))  # type: ignore[union-attr]
        if collection:
            depth += 1


def _read(text: str, span: _Span, file: str, index: int, path: Path) -> Iterator[Unit | Problem]:
    """The one document of ``span``'s slice, as document ``index`` of the file at ``path``, or its problems."""
    return read_span(text, span.start, span.end, span.line, span.column, file, index, path)


def read_span(text: str, start: int, end: int, line: int, column: int, file: str, index: int,
              path: Path) -> Iterator[Unit | Problem]:
    """The one document of ``text[start:end]``, which starts at 0-based ``line`` and ``column`` of the file, as
    document ``index`` of the file at ``path``, or its problems.

    A block's slice is read indented to its column, as it stands in the file; a flow
    collection (``{...}``, ``[...]``: JSON) is read as it is, and what is found on its
    first line moved right by its column, so that an item far along one long line
    (minified JSON) costs no more than its own length.
    """
    flow = text[start:start + 1] in ("{", "[")
    piece = text[start:end] if flow else " " * column + text[start:end]
    shift = column if flow else 0
    kept: list[Problem] = []
    try:
        for document in iter_documents(piece, file, kept=kept):
            source = _Shifted(document.source, shift) if shift else document.source
            yield Unit(file, index, path, document.data, source, line,  # type: ignore[arg-type]
                       tuple(_moved(problem, line, path, shift) for problem in kept), end=end)
            kept.clear()
    except InputError as exc:
        yield from (_moved(problem, line, path, shift) for problem in exc.problems)


@frozen
class _Shifted:
    """A slice's source map whose first line starts ``shift`` columns into the file's line."""

    source: SourceMap
    shift: int

    def locate(self, path: Path, *, key: bool = False) -> Location:
        found = self.source.locate(path, key=key)
        return replace(found, column=found.column + self.shift) if found.line == 1 and found.column else found

    def problem(self, path: Path, message: str, *, key: bool = False) -> Problem:
        return Problem(self.locate(path, key=key), message)


def _refused(text: str, start: int, file: str) -> Iterator[Problem]:
    """Why the parser stopped, in the reader's words and at its place in the file.

    The reader reads the text again from character ``start`` on, where a document
    begins: the one the parser stopped in, or the last one it read, when it stopped
    between two. Reading the same text as the parser did, the reader stops where it
    did; what it builds before that (the document read already, with its own
    problems) was handed on, and is not again.
    """
    before = text[:start]
    line = before.count("\n")
    try:
        for _document in iter_documents(" " * (len(before) - 1 - before.rfind("\n")) + text[start:], file, kept=[]):
            pass
    except InputError as exc:
        yield from (_moved(problem, line, ()) for problem in exc.problems)


#: The line a reader's message names besides its location: where a duplicate key is first written, where an
#: alias's anchor is; the last such words of a message are the reader's own (what comes before quotes the file).
_LINE_IN_MESSAGE = re.compile(r"\((first|anchored) at line ([0-9]+)\)")


def _moved(problem: Problem, lines: int, path: Path, shift: int = 0) -> Problem:
    """``problem`` of a slice placed in its file: ``lines`` further down (and ``shift`` columns right on its first
    line), its key path under ``path``."""
    at = problem.location
    if shift and at.line == 1 and at.column is not None:
        at = replace(at, column=at.column + shift)
    line = at.line + lines if at.line is not None else None
    message = problem.message
    named = list(_LINE_IN_MESSAGE.finditer(message))
    if named and lines:
        last = named[-1]
        where = f"({last.group(1)} at line {int(last.group(2)) + lines})"
        message = message[:last.start()] + where + message[last.end():]
    return replace(problem, location=replace(at, line=line, path=path + tuple(at.path)), message=message)
