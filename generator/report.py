"""Reporters: the same list of Problems printed for a person, a program or GitHub.

Problems are sorted before they reach a reporter and every reporter is a pure
function of them, so the same input always prints the same bytes, which lets
CI diff reports and tests compare them exactly.
"""

from __future__ import annotations

import json
from typing import Callable, Dict, Sequence

from .problems import Location, Problem, jsonpath

FORMATS = ("text", "json", "github")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def summary(problems: Sequence[Problem], documents: int) -> str:
    """One line saying how it went: ``2 problems in 1 of 244 documents``."""
    if not problems:
        return f"no problems in {_plural(documents, 'document')}"
    touched = {(p.location.file, p.location.doc) for p in problems if p.location.doc is not None}
    where = f"{len(touched)} of {_plural(documents, 'document')}"
    return f"{_plural(len(problems), 'problem')} in {where}"


def text(problems: Sequence[Problem], documents: int) -> str:
    """One line per problem as ``str(problem)`` shows it, then the summary line."""
    lines = [str(p) for p in problems]
    lines.append(summary(problems, documents))
    return "\n".join(lines) + "\n"


def _record(problem: Problem) -> Dict[str, object]:
    loc = problem.location
    return {
        "file": loc.file,
        "line": loc.line,
        "column": loc.column,
        "document": loc.doc,
        "name": loc.name,
        "path": jsonpath(loc.path) if loc.doc is not None else ".".join(map(str, loc.path)) or None,
        "rule": problem.rule,
        "message": problem.message,
    }


def json_report(problems: Sequence[Problem], documents: int) -> str:
    """A JSON list with one object per problem (file, line, column, document, name, path, rule, message)."""
    return json.dumps([_record(p) for p in problems], indent=2) + "\n"


def _escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(value: str) -> str:
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")


def _where(loc: Location) -> str:
    """The part of a location GitHub's file and line do not show: document and path."""
    if loc.doc is None:
        return ".".join(map(str, loc.path))
    where = f"#{loc.doc}" + (f" ({loc.name})" if loc.name else "")
    return f"{where} {jsonpath(loc.path)}" if loc.path else where


def github(problems: Sequence[Problem], documents: int) -> str:
    """GitHub Actions ``::error`` workflow commands, one per problem, then a notice with the summary."""
    lines = []
    for problem in problems:
        loc = problem.location
        props = [f"file={_escape_property(loc.file)}"]
        if loc.line is not None:
            props.append(f"line={loc.line}")
            if loc.column is not None:
                props.append(f"col={loc.column}")
        props.append(f"title={_escape_property(problem.rule)}")
        where = _where(loc)
        message = f"{where}: {problem.message}" if where else problem.message
        lines.append(f"::error {','.join(props)}::{_escape_data(message)}")
    lines.append(f"::notice title=citgen validate::{_escape_data(summary(problems, documents))}")
    return "\n".join(lines) + "\n"


REPORTERS: Dict[str, Callable[[Sequence[Problem], int], str]] = {
    "text": text,
    "json": json_report,
    "github": github,
}


def render(problems: Sequence[Problem], documents: int, fmt: str = "text") -> str:
    """The report of ``problems`` found in ``documents`` objects in format ``fmt``."""
    return REPORTERS[fmt](problems, documents)
