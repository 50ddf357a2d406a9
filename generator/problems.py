"""Problems are values: every check yields them, a reporter prints them.

A problem always says where it is. Catalog input is located by file, line and
column plus the dotted key path (``series/cx.yaml:14:5: sizes.large.memory``);
a generated or user-supplied document by file, document index and name plus a
JSON path (``bundles/x.yaml#3 (cx1.large) $.spec.cpu.guest``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Tuple, Union

from .escape import text

PathPart = Union[str, int]
Path = Tuple[PathPart, ...]

#: Most characters of a file's content a message quotes: a message about a key or
#: value ten megabytes long must not print it.
EXCERPT = 60
#: Most characters of one key of a key path: Kubernetes names run to 253.
PATH_EXCERPT = 300
#: Most characters of any message: a backstop for content quoted without excerpt().
MAX_MESSAGE = 1000


def excerpt(value: str, limit: int = EXCERPT) -> str:
    """``value``, or its first ``limit`` characters and how many more there are, on one line (escape.text)."""
    if len(value) <= limit:
        return text(value)
    more = len(value) - limit
    return f"{text(value[:limit])}... ({more} more character{'s' if more != 1 else ''})"


def dotted(path: Path) -> str:
    """Render a key path the way catalog authors read it: ``sizes.large[2].memory``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{excerpt(part, PATH_EXCERPT)}" if out else excerpt(str(part), PATH_EXCERPT)
    return out


def jsonpath(path: Path) -> str:
    """Render a key path as a JSON path, quoting keys that are not identifiers."""
    out = "$"
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.replace("_", "a").isalnum():
            out += f".{excerpt(part, PATH_EXCERPT)}"
        else:
            out += f"[{excerpt(part, PATH_EXCERPT)!r}]"
    return out


@dataclass(frozen=True)
class Location:
    """Where a problem is: a catalog file position or a document inside a bundle."""

    file: str
    line: int | None = None
    column: int | None = None
    path: Path = ()
    doc: int | None = None
    name: str | None = None
    #: The object's kind and namespace, where the problem is on an object: a report names it ``Kind ns/name``.
    kind: str | None = None
    namespace: str | None = None

    def __str__(self) -> str:
        if self.doc is not None:
            where = f"{text(self.file)}#{self.doc}"
            if self.name:
                where += f" ({text(self.name)})"
            return f"{where} {jsonpath(self.path)}" if self.path else where
        where = text(self.file)
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {dotted(self.path)}" if self.path else where

    def file_line(self) -> str:
        """``file:line:column`` as far as they are known (``file#doc`` for a document without a line)."""
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        elif self.doc is not None:
            where += f"#{self.doc}"
        return where

    def at(self, *more: PathPart) -> "Location":
        """The same place, one or more keys deeper (line unchanged)."""
        return Location(self.file, self.line, self.column, self.path + more, self.doc, self.name, self.kind,
                        self.namespace)


#: The severity of a finding that KubeVirt accepts with a warning.
WARNING = "warning"


@dataclass(frozen=True)
class Problem:
    """One finding: where, what, and which rule (``input`` for catalog input errors).

    ``since`` is the catalog release that introduced the check, for checks of labels
    that later releases added; an object released before it could not have passed.
    Validation sets ``older_release`` to the object's own release when it predates
    ``since``: the finding is then reported apart and does not count as a problem.

    ``severity`` is ``error``, or ``warning`` for what KubeVirt accepts with a
    warning (kubectl applies the object and prints ``Warning: ...``): shown in every
    format, counted only when the user asks for warnings to count.
    """

    location: Location
    message: str
    rule: str = "input"
    since: str | None = None
    older_release: str | None = None
    severity: str = "error"

    @property
    def is_warning(self) -> bool:
        return self.severity == WARNING

    def __post_init__(self) -> None:
        if len(self.message) > MAX_MESSAGE:
            object.__setattr__(self, "message", excerpt(self.message, MAX_MESSAGE))

    def __str__(self) -> str:
        suffix = "" if self.rule == "input" else f" [{self.rule}]"
        return f"{self.location}: {self.message}{suffix}"


def sort_problems(problems: Iterable[Problem]) -> list[Problem]:
    """Stable, reader-friendly order: by file, then document or line, then path."""

    def key(p: Problem) -> tuple:
        loc = p.location
        return (
            loc.file,
            loc.doc if loc.doc is not None else -1,
            loc.line if loc.line is not None else -1,
            loc.column if loc.column is not None else -1,
            tuple(str(x) for x in loc.path),
            p.rule,
            p.message,
        )

    return sorted(problems, key=key)
