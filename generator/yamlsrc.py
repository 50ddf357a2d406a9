"""YAML loading that remembers where every value came from.

Catalog files are edited by hand, so every error must point at a file, line and
column. PyYAML's composer gives node marks; this module builds plain Python
values from the node graph while recording a mark for every key path. It also
closes two holes of plain ``yaml.safe_load``: duplicate keys are errors rather
than silently overwritten, and aliases that would expand a document far beyond
its written size (a "billion laughs" file) are refused before anything walks it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any, Iterator

import yaml

from .errors import InputError
from .problems import Location, Path, Problem
from .yamlclasses import Loader


#: Nodes that aliases may add beyond what is written. Real catalogs use none or a
#: few; an alias bomb needs millions.
ALIAS_EXPANSION_LIMIT = 100_000
#: Nested lists and mappings allowed in one document. Kubernetes objects nest a
#: dozen levels; libyaml's composer recurses on the C stack and crashes the
#: interpreter on a few tens of thousands, so depth is checked on the flat event
#: stream before anything is composed.
NESTING_LIMIT = 100


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


@dataclass(frozen=True)
class Document:
    """One YAML document: its value, where its pieces are, and its index in the stream."""

    data: Any
    source: SourceMap
    index: int


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _expanded_sizes(root: yaml.Node) -> tuple[int, int]:
    """(distinct nodes, nodes after alias expansion), computed without expanding."""
    memo: dict[int, int] = {}
    distinct = 0
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if key in memo and not done:
            continue
        children: list[yaml.Node] = []
        if isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        elif isinstance(node, yaml.MappingNode):
            children = [n for pair in node.value for n in pair]
        if not done:
            memo[key] = -1  # visiting
            distinct += 1
            stack.append((node, True))
            stack.extend((c, False) for c in children if id(c) not in memo)
        else:
            memo[key] = 1 + sum(max(memo.get(id(c), 1), 1) for c in children)
    return distinct, memo[id(root)]


_KEY_TYPES = {int: "a number", float: "a number", bool: "a boolean", type(None): "null"}


class _Builder:
    def __init__(self, loader: Any, source: SourceMap):
        self.loader = loader
        self.source = source
        self.problems: list[Problem] = []

    def build(self, node: yaml.Node, path: Path) -> Any:
        self.source.values.setdefault(path, _mark(node))
        if isinstance(node, yaml.ScalarNode):
            return self.loader.construct_object(node, deep=True)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(child, path + (i,)) for i, child in enumerate(node.value)]
        if isinstance(node, yaml.MappingNode):
            self.loader.flatten_mapping(node)  # resolves YAML merge keys (<<)
            result: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    self.problems.append(
                        Problem(Location(self.source.file, *_mark(key_node), path),
                                "a mapping key must be a plain value, not a list or mapping")
                    )
                    continue
                key = self.loader.construct_object(key_node, deep=True)
                if not isinstance(key, str):
                    read_as = _KEY_TYPES.get(type(key), type(key).__name__)
                    self.problems.append(
                        Problem(Location(self.source.file, *_mark(key_node), path),
                                f"mapping key {key_node.value!r} is read as {read_as}, "
                                f"not text; write it in quotes ('{key_node.value}')")
                    )
                    continue
                if key in result:
                    first = self.source.keys.get(path + (key,))
                    where = f" (first at line {first[0]})" if first else ""
                    self.problems.append(
                        Problem(Location(self.source.file, *_mark(key_node), path + (key,)),
                                f"duplicate key {key!r}{where}")
                    )
                    continue
                self.source.keys[path + (key,)] = _mark(key_node)
                result[key] = self.build(value_node, path + (key,))
            return result
        raise AssertionError(f"unexpected YAML node {node!r}")  # pragma: no cover


def _syntax_problem(file: str, exc: yaml.YAMLError) -> Problem:
    mark = getattr(exc, "problem_mark", None)
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
    what = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    message = f"malformed YAML: {what}" + (f" ({context})" if context else "")
    return Problem(Location(file, line, column), message)


def _check_nesting(text: str, file: str) -> None:
    """Refuse a stream nested deeper than NESTING_LIMIT, reading only its flat events."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=Loader):
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > NESTING_LIMIT:
                    raise InputError.at(
                        Location(file, event.start_mark.line + 1, event.start_mark.column + 1),
                        f"lists and mappings are nested more than {NESTING_LIMIT} levels deep; "
                        "refusing a document this deep",
                    )
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError as exc:
        raise InputError([_syntax_problem(file, exc)]) from None


def iter_documents(text: str, file: str) -> Iterator[Document]:
    """Yield each document of a YAML stream with its source map.

    Raises InputError for malformed YAML, duplicate keys, keys that are not
    text, documents nested too deep and alias bombs.
    """
    _check_nesting(text, file)
    loader = Loader(text)
    try:
        index = 0
        while loader.check_node():
            try:
                node = loader.get_node()
            except yaml.YAMLError as exc:
                raise InputError([_syntax_problem(file, exc)]) from None
            if node is None:  # an empty document between separators
                continue
            distinct, expanded = _expanded_sizes(node)
            if expanded - distinct > ALIAS_EXPANSION_LIMIT:
                raise InputError.at(
                    Location(file, *_mark(node)),
                    f"aliases expand this document to {expanded} nodes from {distinct} written "
                    f"ones; refusing documents that grow by more than {ALIAS_EXPANSION_LIMIT} "
                    "nodes through aliases",
                )
            source = SourceMap(file)
            builder = _Builder(loader, source)
            try:
                data = builder.build(node, ())
            except yaml.YAMLError as exc:
                raise InputError([_syntax_problem(file, exc)]) from None
            if builder.problems:
                raise InputError(builder.problems)
            yield Document(data, source, index)
            index += 1
    except yaml.YAMLError as exc:
        raise InputError([_syntax_problem(file, exc)]) from None
    finally:
        loader.dispose()


def load_text(text: str, file: str) -> Document:
    """Load a single-document YAML file; an empty file is an empty mapping."""
    docs = list(iter_documents(text, file))
    if not docs:
        return Document({}, SourceMap(file), 0)
    if len(docs) > 1:
        raise InputError.at(Location(file, *docs[1].source.values.get((), (None, None))),
                            "expected one YAML document, found several")
    return docs[0]


def load_file(path: FsPath, display: str | None = None) -> Document:
    """Load a catalog file; ``display`` is how messages name it (relative to the catalog)."""
    name = display or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError.at(Location(name), "file not found") from None
    except UnicodeDecodeError as exc:
        raise InputError.at(Location(name), f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise InputError.at(Location(name), f"cannot read: {exc.strerror}") from None
    return load_text(text, name)


_TAG = "tag:yaml.org,2002:"
_STR, _MAP, _SEQ = _TAG + "str", _TAG + "map", _TAG + "seq"
_SCALARS = frozenset(_TAG + t for t in ("null", "bool", "int", "float", "timestamp", "binary"))


class _Unusual(Exception):
    """A node the direct builder leaves to PyYAML's constructor (merge keys, sets, other tags)."""


def _plain(node: yaml.Node, loader: Any) -> Any:
    """The value of a composed node of plain maps, lists and scalars; _Unusual for anything else.

    A module-level function, not a closure: a closure that calls itself is a
    reference cycle, which would keep every loader alive until the cyclic
    garbage collector came by.
    """
    tag = node.tag
    if tag == _STR:
        return node.value
    if tag == _MAP:
        return {_plain(key, loader): _plain(value, loader) for key, value in node.value}
    if tag == _SEQ:
        return [_plain(item, loader) for item in node.value]
    if tag in _SCALARS:
        return loader.yaml_constructors[tag](loader, node)
    raise _Unusual(tag)


def load_stream_fast(text: str) -> list[Any]:
    """Parse YAML this tool rendered itself (no aliases, no user input) with the C loader.

    Values are built straight from the composed nodes: PyYAML's constructor, with
    its generators and merge-key handling, costs a third of a large build's parse.
    Anything beyond plain maps, lists and scalars is handed to PyYAML as before.
    """
    loader = Loader(text)
    try:
        docs = []
        while loader.check_node():
            doc = _plain(loader.get_node(), loader)
            if doc is not None:
                docs.append(doc)
        return docs
    except (_Unusual, TypeError):  # an unusual tag, or a key Python cannot hash
        return [doc for doc in yaml.load_all(text, Loader=Loader) if doc is not None]
    finally:
        loader.dispose()
