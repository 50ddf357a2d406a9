"""Problems are values: every check yields them, a reporter prints them.

A problem always says where it is. Catalog input is located by file, line and
column plus the dotted key path (``series/cx.yaml:14:5: sizes.large.memory``);
a generated or user-supplied document by file, document index and name plus a
JSON path (``bundles/x.yaml#3 (cx1.large) $.spec.cpu.guest``).
"""

from __future__ import annotations

import re
from typing import Iterable, Tuple, Union

from .escape import text
from .frozen import frozen

PathPart = Union[str, int]
Path = Tuple[PathPart, ...]

#: Most characters of a file's content a message quotes: a message about a key or
#: value ten megabytes long must not print it.
EXCERPT = 60
#: Most characters of one key of a key path, of a file's or an object's name in a
#: location, and of one word of a message (a value quoted without excerpt()):
#: Kubernetes names run to 253, real paths to a few hundred.
PATH_EXCERPT = 300
#: Most characters of any message: a backstop for content quoted without excerpt().
MAX_MESSAGE = 1000
#: Most characters of any line a report in text, github or a command's own format
#: (markdown) prints: the backstop for a line whose parts were each bounded (a
#: location, a message) and for a product's lines (report.show).
MAX_LINE = 4000

_LONG_WORD = re.compile(rf"\S{{{PATH_EXCERPT + 1},}}")


def _more(count: int) -> str:
    return f"... ({count} more character{'s' if count != 1 else ''})"


def excerpt(value: str, limit: int = EXCERPT) -> str:
    """``value``, or its first ``limit`` characters and how many more there are, on one line (escape.text)."""
    if len(value) <= limit:
        return text(value)
    return text(value[:limit]) + _more(len(value) - limit)


def shortened(value: str, limit: int) -> str:
    """``value``, or its first ``limit`` characters and how many more there are, as written (not escaped).

    For a writer that escapes the value itself in its own format
    (escape.github_property for a GitHub annotation's file).
    """
    return value if len(value) <= limit else value[:limit] + _more(len(value) - limit)


def bounded_message(message: str) -> str:
    """A message with every word over PATH_EXCERPT characters an excerpt, then the whole at most MAX_MESSAGE.

    A value a check quotes without excerpt() (an 847-character token in a label,
    a 5,000-character path) is one word: it is cut where it is, and the message
    around it still reads.
    """
    if len(message) > PATH_EXCERPT:
        message = _LONG_WORD.sub(lambda word: excerpt(word.group(), PATH_EXCERPT), message)
    return excerpt(message, MAX_MESSAGE) if len(message) > MAX_MESSAGE else message


def bounded_lines(report: str, limit: int = MAX_LINE) -> str:
    """``report`` with every line over ``limit`` characters cut to ``limit``, saying how many more it had.

    A report whose lines all fit (nearly every one) is looked through once, in
    C, and returned as it is: a line start followed by ``limit`` + 1 characters
    other than a line break is searched for, which fails at each line's start
    after at most ``limit`` characters.
    """
    if len(report) <= limit or not re.search(rf"(?m)^.{{{limit + 1}}}", report):
        return report
    keep = limit - 32  # room for "... (N more characters)", N below 10**9
    return "\n".join(line if len(line) <= limit else line[:keep] + _more(len(line) - keep)
                     for line in report.split("\n"))


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


@frozen
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
            where = f"{excerpt(self.file, PATH_EXCERPT)}#{self.doc}"
            if self.name:
                where += f" ({excerpt(self.name, PATH_EXCERPT)})"
            return f"{where} {jsonpath(self.path)}" if self.path else where
        where = excerpt(self.file, PATH_EXCERPT)
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {dotted(self.path)}" if self.path else where

    def file_line(self) -> str:
        """``file:line:column`` as far as they are known (``file#doc`` for a document without a line)."""
        where = shortened(self.file, PATH_EXCERPT)
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


@frozen
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
        if len(self.message) > PATH_EXCERPT:
            object.__setattr__(self, "message", bounded_message(self.message))

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
