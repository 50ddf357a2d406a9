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

from .errors import InputError
from .problems import Location, Path as KeyPath
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
    """Load user-supplied multi-document files with the safe, located loader."""
    docs: list[BundleDoc] = []
    for path in paths:
        name = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise InputError.at(Location(name), "file not found") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError.at(Location(name), f"cannot read: {exc}") from None
        docs.extend(BundleDoc(name, d.index, d.data, d.source) for d in iter_documents(text, name))
    return docs
