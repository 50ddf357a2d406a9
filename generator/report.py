"""Reporters: the same list of Problems printed for a person, a program or GitHub.

Problems are sorted before they reach a reporter and every reporter is a pure
function of them, so the same input always prints the same bytes, which lets
CI diff reports and tests compare them exactly.

Findings of checks newer than the release of the object they are on (an old
bundle's labels a later release introduced) are reported apart, after the real
problems, so that the real problems stand out and none of them hides among
hundreds of findings that an old release could not have avoided.
"""

from __future__ import annotations

import json
from typing import Callable, Dict, Sequence

from .problems import Location, Problem, jsonpath

FORMATS = ("text", "json", "github")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _split(problems: Sequence[Problem]) -> tuple[list[Problem], list[Problem]]:
    """The problems that count, and the findings of checks newer than their object's release."""
    return ([p for p in problems if p.older_release is None],
            [p for p in problems if p.older_release is not None])


def _touched(problems: Sequence[Problem]) -> int:
    return len({(p.location.file, p.location.doc) for p in problems if p.location.doc is not None})


def _releases(newer: Sequence[Problem]) -> str:
    found = sorted({p.older_release or "" for p in newer})
    return f"release{'s' if len(found) > 1 else ''} {', '.join(found)}"


def summary(problems: Sequence[Problem], documents: int) -> str:
    """One line saying how it went: ``2 problems in 1 of 244 documents``.

    Findings from newer rules are counted apart: ``no problems in 142 documents;
    240 findings from rules newer than release v1.0.0 in 142 of them, not counted``.
    """
    real, newer = _split(problems)
    if not real:
        line = f"no problems in {_plural(documents, 'document')}"
    else:
        line = f"{_plural(len(real), 'problem')} in {_touched(real)} of {_plural(documents, 'document')}"
    if newer:
        line += (f"; {_plural(len(newer), 'finding')} from rules newer than {_releases(newer)} "
                 f"in {_touched(newer)} of them, not counted")
    return line


def _newer_line(problem: Problem) -> str:
    """A finding of a newer check: as any problem, with the release that introduced the check."""
    return f"{problem.location}: {problem.message} [{problem.rule}, since {problem.since}]"


def text(problems: Sequence[Problem], documents: int) -> str:
    """One line per problem as ``str(problem)`` shows it, newer-rule findings apart, then the summary."""
    real, newer = _split(problems)
    lines = [str(p) for p in real]
    if newer:
        if real:
            lines.append("")
        lines.append(f"from rules newer than the objects' {_releases(newer)} (not counted):")
        lines += [_newer_line(p) for p in newer]
        lines.append("")
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
        "since": problem.since,
        "newerThanRelease": problem.older_release,
    }


def json_report(problems: Sequence[Problem], documents: int) -> str:
    """A JSON list with one object per problem (file, line, column, document, name, path, rule, message).

    ``since`` is the release that introduced the check, or null for a check as old
    as the catalog; ``newerThanRelease`` is the object's release when the check is
    newer than it, in which case the finding does not count (null otherwise).
    """
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
    """GitHub Actions ``::error`` workflow commands, one per problem, then a notice with the summary.

    A finding of a check newer than its object's release is a ``::warning``.
    """
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
        if problem.older_release is None:
            lines.append(f"::error {','.join(props)}::{_escape_data(message)}")
        else:  # shown, but not as an error: the object's release predates the check
            message += f" (rule since {problem.since}, newer than the object's release {problem.older_release})"
            lines.append(f"::warning {','.join(props)}::{_escape_data(message)}")
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
