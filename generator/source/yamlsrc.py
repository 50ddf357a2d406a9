"""The one way citgen reads YAML: located, strict and bounded.

Catalog files are edited by hand, so every error must point at a file, line and
column; bundles, overlays and VirtualMachine files come from other people, and
templates render text that is read back. All of it goes through one reader,
which builds plain values straight from libyaml's event stream, iteratively
(never recursing on the shape of the input), while recording a mark for every
key path. Reading the events once lets it close, before anything is built, the
holes of plain ``yaml.safe_load``:

- duplicate keys are errors rather than silently overwritten, and keys must be text;
- lists and mappings may nest only NESTING_LIMIT deep (libyaml's composer
  recurses on the C stack and crashes the interpreter a few tens of thousands
  deep);
- an alias inside the very list or mapping it names (``a: &a [*a]``) is refused at
  the alias: it would make a value that contains itself;
- aliases may add at most ALIAS_EXPANSION_LIMIT nodes to a document (a "billion
  laughs" file), counted without expanding anything;
- a tag other than the plain JSON types (``!!python/object/apply:os.system``,
  ``!custom``) is refused rather than constructed or silently ignored;
- a stream may hold at most ``inputfiles.limits().max_documents`` documents;
- a number may have at most quantity.MAX_DIGITS digits and an exponent within
  quantity.MAX_EXPONENT, judged before it is converted;
- text may hold no character that the readers of citgen's outputs do not carry
  (UNCARRIED): YAML has them only as escapes in double-quoted text, where they
  are looked for.

Files themselves are read through inputfiles.py (regular files only, bounded in
size). No message quotes more than a short excerpt of what the file holds.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any, Iterator

import yaml
from yaml.events import (AliasEvent, DocumentStartEvent, MappingEndEvent, MappingStartEvent, ScalarEvent,
                         SequenceEndEvent, SequenceStartEvent, StreamEndEvent)
from yaml.nodes import ScalarNode
from yaml.reader import ReaderError

from ..errors import InputError
from ..frozen import frozen
from ..problems import EXCERPT, Location, Path, Problem, excerpt
from ..quantity import BOUNDS, MAX_DIGITS, within_bounds
from .inputfiles import DOCUMENTS_OPTION, DOCUMENTS_VARIABLE, limits, read_text
from .yamlclasses import Loader
from .yamldepth import crossing, is_libyaml_depth_error

#: Nodes that aliases may add beyond what is written. Real catalogs use none or a
#: few; an alias bomb needs millions.
ALIAS_EXPANSION_LIMIT = 100_000
#: Nested lists and mappings allowed in one document. Kubernetes objects nest a
#: dozen levels.
NESTING_LIMIT = 100

_TAG = "tag:yaml.org,2002:"
_STR, _MAP, _SEQ = _TAG + "str", _TAG + "map", _TAG + "seq"
_MERGE_TAG = _TAG + "merge"
_INT, _FLOAT = _TAG + "int", _TAG + "float"
#: Plain scalars that PyYAML's resolver gives types its safe constructor cannot build
#: (``=`` and ``<<`` outside a key): read as the text they are, as Kubernetes does.
_AS_TEXT = frozenset((_TAG + "value", _MERGE_TAG))
#: The tags a value may be written with: the types JSON, and so Kubernetes, knows.
SCALAR_TAGS = frozenset(_TAG + t for t in ("str", "int", "float", "bool", "null"))
ALLOWED_TAGS = ", ".join(f"!!{t}" for t in ("str", "int", "float", "bool", "null", "map", "seq"))


@dataclass
class SourceMap:
    """Marks (1-based line, column) for the value and the key at each key path."""

    file: str
    values: dict[Path, tuple[int, int]] = field(default_factory=dict)
    keys: dict[Path, tuple[int, int]] = field(default_factory=dict)

    def locate(self, path: Path, *, key: bool = False) -> Location:
        """The location of ``path``, or of its nearest written ancestor."""
        table = self.keys if key else self.values
        probe = tuple(path)
        while True:
            mark = table.get(probe) or (self.values.get(probe) if key else None)
            if mark is not None or not probe:
                break
            probe = probe[:-1]
        line, column = mark if mark else (None, None)
        return Location(self.file, line, column, tuple(path))

    def problem(self, path: Path, message: str, *, key: bool = False) -> Problem:
        return Problem(self.locate(path, key=key), message)


@frozen
class Document:
    """One YAML document: its value, where its pieces are, and its index in the stream."""

    data: Any
    source: SourceMap
    index: int


def _syntax_problem(file: str, exc: yaml.YAMLError, text: str = "") -> Problem:
    if isinstance(exc, ReaderError):  # a character YAML does not allow written as it is, at its byte offset
        line, column = _line_and_column(text, exc.position)
        return Problem(Location(file, line, column), f"malformed YAML: unacceptable character "
                                                     f"U+{exc.character:04X}: {exc.reason}")
    mark = getattr(exc, "problem_mark", None)
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
    what = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    message = f"malformed YAML: {excerpt(what, 200)}" + (f" ({excerpt(context, 200)})" if context else "")
    return Problem(Location(file, line, column), message)


def _line_and_column(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of the character at byte ``offset`` of ``text`` as UTF-8 (libyaml's offsets)."""
    before = text.encode("utf-8", "surrogatepass")[:offset].decode("utf-8", "ignore")
    return before.count("\n") + 1, len(before) - before.rfind("\n")


#: Characters no text citgen reads may hold, because the readers of its outputs do not carry
#: them: DEL, the C1 controls, U+FFFE and U+FFFF (and surrogates, which are no characters),
#: which YAML has in text only as escapes, and which kubectl kustomize refuses and Helm leaves
#: out of a release with the object holding them; and NEL (U+0085, a C1 control too), which
#: YAML 1.1 readers, kubectl kustomize's and Helm's among them, take for a line break and write
#: as a space. The other control characters, escaped, reach both intact (tests/test_text_carried.py),
#: so the escapers of every output format see to them. Written as they are, libyaml refuses
#: these itself; escaped, only double-quoted text can hold them.
UNCARRIED = re.compile("[\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def uncarried(text: str) -> str | None:
    """Why ``text`` cannot be carried to the readers of citgen's outputs (UNCARRIED), or None."""
    found = UNCARRIED.search(text)
    if found is None:
        return None
    char = found.group()
    cut = len(text) - EXCERPT
    quoted = repr(text) if cut <= 0 else repr(f"{text[:EXCERPT]}... ({cut} more character{'s' if cut != 1 else ''})")
    what = f"{'the control character ' if char <= chr(0x9f) else ''}U+{ord(char):04X} at character {found.start() + 1}"
    if char == "\x85":
        return (f"{quoted} holds {what}, a next line (NEL), which YAML 1.1 readers, kubectl kustomize's and Helm's "
                "among them, take for a line break and write as a space; write \\n for a line break, or remove it")
    return (f"{quoted} holds {what}, which YAML has in text only as an escape, and which kubectl kustomize refuses "
            "and Helm leaves out of a release with its object; remove it")


_DECIMAL_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)")
_DECIMAL_FLOAT = re.compile(r"([-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(?:[eE]([-+]?[0-9]+))?")


def _unclear_number(text: str, tag: str) -> str | None:
    """Why a number's spelling is refused, or None: JSON numbers, bounded, and nothing YAML 1.1 reads otherwise.

    YAML 1.1 reads ``010`` as 8 (octal), ``0x1A`` as 26, ``1_0`` as 10 and ``1:30`` as 90
    (base 60), where a person meant ten, a name or a time; ``.inf`` and ``.nan`` are no
    JSON numbers, so no Kubernetes object can hold them (kubectl refuses them). A number
    has at most quantity.MAX_DIGITS digits and its exponent is bounded, judged before it
    is converted (a million digits would take Python seconds, and past 4,300 it refuses in
    words of its own). A large build reads hundreds of thousands of numbers: the common
    spellings pass without a regular expression.
    """
    if tag == _INT:
        if text.isascii() and text.isdigit() and (text[0] != "0" or len(text) == 1) and len(text) <= MAX_DIGITS:
            return None
        bounded = within_bounds(text)
        if _DECIMAL_INT.fullmatch(text):
            return None if bounded else (f"expected a whole number of at most {MAX_DIGITS} digits, got "
                                         f"{excerpt(text)!r}; quote it if it is text")
        reading = _yaml11_reading(text) if bounded else "another number"  # a long one is not worked out
        return (f"{excerpt(text)!r} is not a decimal number: YAML 1.1 would read it as {reading}; write the "
                "number in decimal digits (10, not 010, 0x0a or 1_0), or quote it if it is text")
    if tag != _FLOAT:
        return None
    decimal = _DECIMAL_FLOAT.fullmatch(text)
    if decimal:
        if within_bounds(decimal[1], decimal[2]):
            return None
        return f"expected a number of {BOUNDS}, got {excerpt(text)!r}; quote it if it is text"
    if text.lower().lstrip("+-") in (".inf", ".nan"):
        return (f"{excerpt(text)!r} is no number JSON can hold, so no Kubernetes object can carry it; "
                "write a finite number, or quote it if it is text")
    return (f"{excerpt(text)!r} is not a decimal number (YAML 1.1 reads '_' and ':' in numbers); write it "
            "as 1.5 or 1.5e+3, or quote it if it is text")


def _yaml11_reading(text: str) -> str:
    try:
        return str(yaml.load(text, Loader=Loader))  # YAML 1.1 as PyYAML defines it (yamlclasses)
    except yaml.YAMLError:  # pragma: no cover - the resolver said it was an int
        return "another number"


def _shown_tag(tag: str) -> str:
    """A tag as it is written: ``!!python/name:os.system``, ``!custom``."""
    return excerpt("!!" + tag[len(_TAG):] if tag.startswith(_TAG) else tag)


_KEY_TYPES = {int: "a number", float: "a number", bool: "a boolean", type(None): "null"}

# What a mapping expects next, besides a key (the state of a fresh frame).
_KEY = object()      # a key
_DISCARD = object()  # a value to drop: its key was refused
_MERGE = object()    # the value of a merge key (<<)


class _Frame:
    """A list or mapping being built: its value, where it is, what it expects next."""

    __slots__ = ("value", "is_map", "flow", "path", "key", "anchor", "size", "log_start", "merged", "merging",
                 "index", "spread")

    def __init__(self, value: Any, flow: bool, path: Path | None, anchor: str | None, log_start: int,
                 merging: bool, spread: bool):
        self.value = value
        self.is_map = type(value) is dict
        self.flow = flow          # written in flow style ([...] or {...})
        self.path = path          # None: not recorded in the source map (a refused key or its value)
        self.key: Any = _KEY
        self.anchor = anchor
        self.size = 1             # nodes with aliases expanded: this one and everything in it
        self.log_start = log_start
        self.merged: dict[Any, Any] | None = None
        self.merging = merging    # part of a merge key's value: its marks yield to explicit keys
        self.index = 0            # items of a list so far
        self.spread = spread      # a merge key's list of mappings: its items' keys land in the mapping itself


@frozen
class _Anchor:
    """What an anchor names: its value, how many nodes it holds, and where it was written."""

    value: Any
    size: int
    path: Path | None
    log: tuple[tuple[bool, Path, tuple[int, int]], ...]
    raw: str | None  # the text of an anchored scalar, for messages about it as a key


class _Reader:
    """Builds the documents of one stream from its events; see the module docstring for what it refuses."""

    def __init__(self, text: str, file: str, locate: bool, kept: list[Problem] | None = None):
        self.text = text
        self.kept = kept  # where a document's problems go when it is handed on without what they refused
        self.loader = Loader(text)
        self.file = file
        self.locate = locate
        self.max_documents = limits().max_documents
        self.quoted = '"' in text  # without a double quote no text holds an escape, so nothing UNCARRIED
        self.resolve = self.loader.resolve
        self.constructors = self.loader.yaml_constructors

    def documents(self) -> Iterator[Document]:
        get = self.loader.get_event
        try:
            index = count = 0
            while True:
                event = get()
                kind = type(event)
                if kind is StreamEndEvent:
                    return
                if kind is not DocumentStartEvent:
                    continue
                count += 1
                if count > self.max_documents:
                    raise InputError.at(self._at(event), (
                        f"holds more than {self.max_documents} YAML documents; raise the limit with "
                        f"`citgen {DOCUMENTS_OPTION} N` or {DOCUMENTS_VARIABLE} if the file is right"))
                yield Document(self._document(get), self.source, index)
                index += 1
        except yaml.YAMLError as exc:
            if is_libyaml_depth_error(exc):  # before a document's first event: nothing of it is open yet
                raise self._too_deep(exc, None, []) from None
            raise InputError([_syntax_problem(self.file, exc, self.text)]) from None
        finally:
            self.loader.dispose()

    def _at(self, event: Any, path: Path = ()) -> Location:
        mark = event.start_mark
        return Location(self.file, mark.line + 1, mark.column + 1, path)

    def _document(self, get: Any) -> Any:
        """The value of one document, its events read up to its end; InputError for what it refuses.

        Scalars, by far the most frequent events, are handled inline on their common
        path; the other events each have a method named after what they do.
        """
        self._start_document()
        stack: list[_Frame] = []
        root: list[Any] = []
        resolve, locate, quoted = self.resolve, self.locate, self.quoted
        remembered = Loader.remembered()
        event = None
        try:
            while True:
                event = get()
                kind = type(event)
                top = stack[-1] if stack else None
                if kind is ScalarEvent:
                    self.written += 1
                    if quoted and event.style == '"':
                        self._check_text(event)
                    tag = event.tag
                    if tag is None or tag == "!":
                        tag = remembered.get((event.value, event.implicit)) or \
                            resolve(ScalarNode, event.value, event.implicit)
                        if tag in _AS_TEXT and not (tag == _MERGE_TAG and top is not None and top.key is _KEY
                                                    and top.is_map):
                            tag = _STR
                    elif tag not in SCALAR_TAGS:
                        self._refuse_tag(event, tag, "a scalar")
                        tag = _STR
                    if top is not None and top.is_map and top.key is _KEY:
                        if tag == _STR and not locate and event.anchor is None and event.value not in top.value:
                            top.key = event.value  # the common case of _key, inline
                            continue
                        value = self._key(top, event, tag)
                        if event.anchor is not None:
                            self._define(event, _Anchor(value, 1, None, (), event.value))
                        continue
                    value = event.value if tag == _STR else self._construct(event, tag)
                    path = self._child_path(top) if locate else None
                    if path is not None:
                        self._record(False, path, event, top)
                    if event.anchor is not None:
                        self._define(event, _Anchor(value, 1, path, (), event.value))
                    if top is not None and self.building and (not top.is_map or type(top.key) is str):
                        top.size += 1  # the common case of _place, inline: a large build reads a million scalars
                        if top.is_map:
                            top.value[top.key] = value
                            top.key = _KEY
                        else:
                            top.value.append(value)
                            top.index += 1
                    else:
                        self._place(stack, root, value, 1, event)
                elif kind is MappingStartEvent or kind is SequenceStartEvent:
                    self._open(event, kind is MappingStartEvent, stack, top, locate)
                elif kind is MappingEndEvent or kind is SequenceEndEvent:
                    self._close(event, stack, root)
                elif kind is AliasEvent:
                    self._alias(stack, root, event, top)
                else:  # DocumentEndEvent: the document is complete
                    return self._finish_document(root)
        except yaml.MarkedYAMLError as exc:
            if not is_libyaml_depth_error(exc):
                raise
            raise self._too_deep(exc, event, stack) from None

    def _too_deep(self, exc: yaml.MarkedYAMLError, last: Any, stack: list[_Frame]) -> InputError:
        """libyaml stopped at its own nesting limit, ahead of ours: refuse at the place ours is crossed."""
        line, column = crossing(self.text, exc.problem_mark, last.end_mark if last is not None else None,
                                len(stack), sum(frame.flow for frame in stack), NESTING_LIMIT)
        return self._deep(Location(self.file, line + 1, column + 1))

    @staticmethod
    def _deep(at: Location) -> InputError:
        return InputError.at(at, f"lists and mappings are nested more than {NESTING_LIMIT} levels deep; "
                             "refusing a document this deep")

    def _start_document(self) -> None:
        """Fresh state for a document: its source map, problems, anchors and alias counts."""
        self.source = SourceMap(self.file)
        self.problems: list[Problem] = []
        self.log: list[tuple[bool, Path, tuple[int, int]]] = []
        self.anchors: dict[str, _Anchor] = {}
        self.open_anchors: dict[str, int] = {}
        self.grown = 0       # nodes added by aliases
        self.written = 0     # nodes written
        self.building = True  # False once aliases grew too much: only counting from there
        self.grown_at: Location | None = None

    def _open(self, event: Any, is_map: bool, stack: list[_Frame], top: _Frame | None, locate: bool) -> None:
        """A mapping or list begins: check its tag, depth and place, and push a frame for it."""
        self.written += 1
        tag = event.tag
        wanted = _MAP if is_map else _SEQ
        if tag is not None and tag != "!" and tag != wanted:
            self._refuse_tag(event, tag, "a mapping" if is_map else "a list")
        if len(stack) >= NESTING_LIMIT:
            raise self._deep(self._at(event))
        as_key = top is not None and top.is_map and top.key is _KEY
        if as_key:
            self.problems.append(Problem(self._at(event, top.path or ()),
                                         "a mapping key must be a plain value, not a list or mapping"))
        path = None if as_key or not locate else self._child_path(top)
        log_start = len(self.log)
        if path is not None:
            self._record(False, path, event, top)
        if event.anchor is not None:
            if event.anchor in self.anchors or event.anchor in self.open_anchors:
                self._duplicate_anchor(event)
            self.open_anchors[event.anchor] = event.start_mark.line + 1
        merging = top is not None and (top.merging or top.key is _MERGE)
        # a list or mapping as a key is read (its own problems reported), then dropped with its value
        spread = not is_map and top is not None and top.key is _MERGE
        stack.append(_Frame({} if is_map else [], bool(event.flow_style), path, event.anchor, log_start, merging,
                            spread))

    def _close(self, event: Any, stack: list[_Frame], root: list[Any]) -> None:
        """A mapping or list ends: finish its anchor, if any, and place it in its parent."""
        frame = stack.pop()
        value = frame.value
        if frame.merged:
            value = {**frame.merged, **value}
        if frame.anchor is not None:
            del self.open_anchors[frame.anchor]
            log = tuple(self.log[frame.log_start:]) if frame.path is not None else ()
            self.anchors[frame.anchor] = _Anchor(value, frame.size, frame.path, log, None)
        parent = stack[-1] if stack else None
        if parent is not None and parent.is_map and parent.key is _KEY:
            parent.key = _DISCARD  # it was a key, refused at its start: drop its value too
            parent.size += frame.size
            return
        self._place(stack, root, value, frame.size, event)

    def _finish_document(self, root: list[Any]) -> Any:
        """The document's value, unless aliases grew it too much or problems were found in it."""
        if self.grown > ALIAS_EXPANSION_LIMIT:
            expanded = self.written + self.grown
            raise InputError.at(self.grown_at or Location(self.file), (
                f"aliases expand this document to {expanded} nodes from {self.written} written ones; "
                f"refusing documents that grow by more than {ALIAS_EXPANSION_LIMIT} nodes through aliases"))
        if self.problems:
            self._refuse(self.problems)
        return root[0] if root else None

    def _refuse(self, problems: list[Problem]) -> None:
        """A document's own problems: raised, or kept for whoever reads on without what they refused."""
        if self.kept is None:
            raise InputError(problems)
        self.kept.extend(problems)

    # ------------------------------------------------------------------ pieces of a document

    def _child_path(self, top: _Frame | None) -> Path | None:
        """The key path of the next value of ``top`` (the document root when None)."""
        if top is None:
            return ()
        if top.path is None:
            return None
        if not top.is_map:
            return top.path if top.spread else top.path + (top.index,)
        key = top.key
        if key is _MERGE:
            return top.path  # merged keys land in the mapping itself
        if key is _DISCARD or key is _KEY:
            return None
        return top.path + (key,)

    def _record(self, is_key: bool, path: Path, event: Any, top: _Frame | None) -> None:
        if self.locate:
            self._put(is_key, path, (event.start_mark.line + 1, event.start_mark.column + 1), top)

    def _put(self, is_key: bool, path: Path, mark: tuple[int, int], top: _Frame | None) -> None:
        table = self.source.keys if is_key else self.source.values
        if top is not None and (top.merging or top.key is _MERGE):
            table.setdefault(path, mark)  # a key written in the mapping itself wins over a merged one
        else:
            table[path] = mark
        self.log.append((is_key, path, mark))

    def _construct(self, event: Any, tag: str) -> Any:
        unclear = _unclear_number(event.value, tag)
        if unclear is not None:
            self.problems.append(Problem(self._at(event), unclear))
            return None
        try:
            return self.constructors[tag](self.loader, ScalarNode(tag, event.value))
        except Exception:  # a timestamp that is no date, `!!int abc`: the constructor's own words vary
            self.problems.append(Problem(self._at(event), f"cannot read {excerpt(event.value)!r} as "
                                         f"{_shown_tag(tag)}; quote it if it is text"))
            return None

    def _check_text(self, event: Any) -> None:
        """A double-quoted scalar, the only kind that can hold an escape: nothing UNCARRIED in it."""
        why = uncarried(event.value)
        if why is not None:
            self.problems.append(Problem(self._at(event), why))

    def _refuse_tag(self, event: Any, tag: str, what: str) -> None:
        known = tag in SCALAR_TAGS or tag in (_MAP, _SEQ)
        reason = f"tag {_shown_tag(tag)!r} cannot be used on {what}" if known else f"unknown tag {_shown_tag(tag)!r}"
        self.problems.append(Problem(self._at(event), f"{reason}; citgen reads only plain YAML values "
                                     f"(tags {ALLOWED_TAGS})"))

    def _duplicate_anchor(self, event: Any) -> None:
        raise InputError.at(self._at(event), f"anchor '&{excerpt(event.anchor)}' is defined twice in one document")

    def _define(self, event: Any, anchor: _Anchor) -> None:
        if event.anchor in self.anchors or event.anchor in self.open_anchors:
            self._duplicate_anchor(event)
        self.anchors[event.anchor] = anchor

    def _key(self, top: _Frame, event: Any, tag: str, raw: str | None = None, value: Any = None) -> Any:
        """A scalar (or an alias of one) where ``top`` expects a key; returns its value."""
        where = top.path or ()
        if tag == _MERGE_TAG:
            if top.merged is not None:
                self.problems.append(Problem(self._at(event, where), "a mapping may merge (<<) only once; "
                                             "merge a list of mappings instead"))
                top.key = _DISCARD
                return event.value
            top.merged = {}
            top.key = _MERGE
            return event.value
        text = event.value if raw is None else raw
        if raw is None:
            value = text if tag == _STR else self._construct(event, tag)
        if not isinstance(value, str):
            read_as = _KEY_TYPES.get(type(value), type(value).__name__)
            self.problems.append(Problem(self._at(event, where), f"mapping key {excerpt(text)!r} is read as "
                                         f"{read_as}, not text; write it in quotes ('{excerpt(text)}')"))
            top.key = _DISCARD
            return value
        if value in top.value:
            first = self.source.keys.get(where + (value,)) if top.path is not None else None
            at = f" (first at line {first[0]})" if first else ""
            self.problems.append(Problem(self._at(event, where + (value,)),
                                         f"duplicate key {excerpt(value)!r}{at}"))
            top.key = _DISCARD
            return value
        top.key = value
        if top.path is not None:
            self._record(True, top.path + (value,), event, top)
        return value

    def _place(self, stack: list[_Frame], root: list[Any], value: Any, size: int, event: Any) -> None:
        """Put a finished value into the list or mapping being built (or make it the document)."""
        if not stack:
            root.append(value)
            return
        top = stack[-1]
        top.size += size
        if not top.is_map:
            top.index += 1
            if self.building:
                top.value.append(value)
            return
        key = top.key
        top.key = _KEY
        if key is _DISCARD or not self.building:
            return
        if key is _MERGE:
            self._merge(top, value, event)
        else:
            top.value[key] = value

    def _merge(self, top: _Frame, value: Any, event: Any) -> None:
        """YAML's merge key: the keys of a mapping, or of a list of mappings (the first wins), unless written."""
        sources = value if isinstance(value, list) else [value]
        if not all(isinstance(m, dict) for m in sources):
            self.problems.append(Problem(self._at(event, top.path or ()),
                                         "a merge key (<<) takes a mapping or a list of mappings"))
            return
        assert top.merged is not None
        for mapping in sources:
            for key, item in mapping.items():
                top.merged.setdefault(key, item)

    def _alias(self, stack: list[_Frame], root: list[Any], event: Any, top: _Frame | None) -> None:
        name = event.anchor
        if name in self.open_anchors:
            raise InputError.at(self._at(event), (
                f"alias '*{excerpt(name)}' refers to the list or mapping that contains it (anchored at line "
                f"{self.open_anchors[name]}); YAML that refers to itself cannot be read"))
        anchor = self.anchors.get(name)
        if anchor is None:
            raise InputError.at(self._at(event), f"alias '*{excerpt(name)}' names no anchor defined before it")
        if top is not None and top.is_map and top.key is _KEY:  # an alias used as a key
            if isinstance(anchor.value, (dict, list)):
                self.problems.append(Problem(self._at(event, top.path or ()),
                                             "a mapping key must be a plain value, not a list or mapping"))
                top.key = _DISCARD
                return
            raw = anchor.raw if anchor.raw is not None else str(anchor.value)
            self._key(top, event, _STR if isinstance(anchor.value, str) else "", raw, anchor.value)
            return
        self.grown += anchor.size
        if self.grown > ALIAS_EXPANSION_LIMIT and self.building:
            self.building = False  # from here on only count, to say how far the document would grow
            self.grown_at = Location(self.file, *(self.source.values.get((), (None, None))))
        value = anchor.value
        if self.building and isinstance(value, (dict, list)):
            value = copy.deepcopy(value)  # each use its own value, as if written out (bounded above)
        path = self._child_path(top) if self.locate else None
        if path is not None and self.building:
            self._record(False, path, event, top)
            if anchor.path is not None and self.locate:
                base = len(anchor.path)
                for is_key, inner, mark in anchor.log[1:]:  # what is inside it, where it is written
                    self._put(is_key, path + inner[base:], mark, top)
        self._place(stack, root, value, anchor.size, event)


def iter_documents(text: str, file: str, *, kept: list[Problem] | None = None) -> Iterator[Document]:
    """Yield each document of a YAML stream with its source map.

    Raises InputError for malformed YAML and for everything the module
    docstring lists. ``kept``: a list that the problems of a document's own values
    (a duplicate key, a key that is no text, a tag, a number, a character) are
    added to instead, the document then yielded without the values they refused
    (``citgen refs`` reads on through a manifest with a duplicate key); what stops
    the reading (malformed YAML, nesting, aliases, documents) is raised all the same.
    """
    return _Reader(text, file, locate=True, kept=kept).documents()


def load_text(text: str, file: str) -> Document:
    """Load a single-document YAML file; an empty file is an empty mapping."""
    docs: list[Document] = []
    for doc in iter_documents(text, file):
        docs.append(doc)
        if len(docs) > 1:  # no need to read what follows
            raise InputError.at(Location(file, *docs[1].source.values.get((), (None, None))),
                                "expected one YAML document, found several")
    if not docs:
        return Document({}, SourceMap(file), 0)
    return docs[0]


def load_file(path: FsPath, display: str | None = None, *, within: FsPath | None = None) -> Document:
    """Load a catalog file; ``display`` is how messages name it (relative to the catalog).

    ``within``: the catalog directory, out of which a symbolic link may not lead.
    """
    name = display or str(path)
    return load_text(read_text(path, name, within=within), name)


def load_stream_fast(text: str, file: str = "the text") -> list[Any]:
    """The non-empty documents of YAML this tool rendered, without recording where values are.

    The same reader and the same refusals as every other file (a template's text
    is a vendor's input too), minus the source map, which a large build's parse
    would spend much of its time on.
    """
    return [doc.data for doc in _Reader(text, file, locate=False).documents() if doc.data is not None]
