"""Objects of a bundle: what validation, expansion and diffing work on.

Generated bundles are parsed back from their rendered text, so what is checked is
exactly what is shipped; a user's file, read by the one reader of objects
(objects.py), keeps its source map so messages can add line numbers.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from ..frozen import frozen
from ..problems import Location, Path as KeyPath
from .yamlsrc import SourceMap


@frozen
class BundleDoc:
    """One object of a bundle, with the file it came from and its 0-based index there."""

    file: str
    index: int
    data: Any
    source: SourceMap | None = None
    #: Where the object is in its document (``("items", 3)`` in a List), and where the source map has it
    #: (a List item is read from its own slice of the file, ``lines_before`` lines into it).
    at: KeyPath = ()
    lines_before: int = 0
    within: KeyPath = ()

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

    @cached_property
    def namespace(self) -> str | None:
        meta = self.data.get("metadata") if isinstance(self.data, dict) else None
        namespace = meta.get("namespace") if isinstance(meta, dict) else None
        return namespace if isinstance(namespace, str) else None

    def locate(self, path: KeyPath = ()) -> Location:
        """Where ``path`` of this object is: file, line and column, document, the object, its JSON path."""
        line = column = None
        if self.source is not None:
            found = self.source.locate(self.within + tuple(path))
            line, column = found.line, found.column
            if line is not None:
                line += self.lines_before
        kind = self.kind if isinstance(self.kind, str) else None
        return Location(self.file, line, column, self.at + tuple(path), self.index, self.name, kind, self.namespace)
