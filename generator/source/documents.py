"""Parsed documents of a bundle: what validation, expansion and diffing work on.

Generated bundles are parsed back from their rendered text, so what is checked is
exactly what is shipped; a user's file keeps its source map so messages can add
line numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Iterable

from ..errors import InputError
from ..problems import Location, Path as KeyPath
from .inputfiles import read_text
from .yamlsrc import SourceMap, iter_documents


@dataclass(frozen=True)
class BundleDoc:
    """One object of a bundle, with the file it came from and its 0-based index there."""

    file: str
    index: int
    data: Any
    source: SourceMap | None = None

    # Every rule asks each document for its kind and name, so both are worked out
    # once (a frozen dataclass still lets cached_property keep its answer).
    @cached_property
    def kind(self) -> str | None:
        return self.data.get("kind") if isinstance(self.data, dict) else None

    @cached_property
    def name(self) -> str | None:
        if not isinstance(self.data, dict):
            return None
        meta = self.data.get("metadata")
        name = meta.get("name") if isinstance(meta, dict) else None
        return name if isinstance(name, str) else None

    def locate(self, path: KeyPath = ()) -> Location:
        """Where ``path`` of this document is: file, document index and name, JSON path."""
        line = column = None
        if self.source is not None:
            found = self.source.locate(tuple(path))
            line, column = found.line, found.column
        return Location(self.file, line, column, tuple(path), self.index, self.name)


def read_bundles(paths: Iterable[Path]) -> list[BundleDoc]:
    """Load user-supplied multi-document files with the bounded, located reader.

    A file without a single Kubernetes object (empty, only comments or ``---``, a
    scalar or a list) is refused: checking, comparing or keeping nothing would
    pass silently where the wrong file was named.
    """
    docs: list[BundleDoc] = []
    for path in paths:
        name = str(path)
        found = [BundleDoc(name, d.index, d.data, d.source) for d in iter_documents(read_text(path, name), name)]
        if not any(isinstance(d.data, dict) for d in found):
            what = "is empty" if not found else "holds only comments and document separators" \
                if all(d.data is None for d in found) else f"holds {_kinds(found)}"
            raise InputError.at(Location(name), f"no Kubernetes objects: the file {what}; expected YAML "
                                "documents that are mappings with apiVersion, kind and metadata")
        docs.extend(found)
    return docs


def _kinds(found: list[BundleDoc]) -> str:
    """What the documents of a file without a mapping are, in words: ``a list and a scalar``."""
    words = dict.fromkeys("a list" if isinstance(d.data, list) else "a scalar" for d in found if d.data is not None)
    return " and ".join(words)
