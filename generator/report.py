"""Reporters: the same list of Problems printed for a person, a program or GitHub.

Problems are sorted before they reach a reporter and every reporter is a pure
function of them, so the same input always prints the same bytes, which lets
CI diff reports and tests compare them exactly.

Findings of checks newer than the release of the object they are on (an old
bundle's labels a later release introduced) are reported apart, after the real
problems, so that the real problems stand out and none of them hides among
hundreds of findings that an old release could not have avoided.

``show(result, fmt)`` prints any command's Result (result.py) in any format, so
every command reports the same way; ``render`` and the three functions below it
are the validation report that ``validate`` prints as its own output.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Any, Callable, Dict, Sequence

from . import escape
from .problems import Location, Problem, jsonpath, sort_problems
from .result import Result

FORMATS = ("text", "json", "github")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _split(problems: Sequence[Problem]) -> tuple[list[Problem], list[Problem]]:
    """The problems that count, and the findings of checks newer than their object's release."""
    return ([p for p in problems if p.older_release is None and not p.is_warning],
            [p for p in problems if p.older_release is not None])


def _warnings(problems: Sequence[Problem]) -> list[Problem]:
    """What KubeVirt admits with a warning: shown, not counted."""
    return [p for p in problems if p.is_warning and p.older_release is None]


def _touched(problems: Sequence[Problem]) -> int:
    return len({(p.location.file, p.location.doc) for p in problems if p.location.doc is not None})


def _releases(newer: Sequence[Problem]) -> str:
    found = sorted({p.older_release or "" for p in newer})
    return f"release{'s' if len(found) > 1 else ''} {', '.join(found)}"


def summary(problems: Sequence[Problem], documents: int) -> str:
    """One line saying how it went: ``2 problems in 1 of 244 documents``.

    Findings from newer rules are counted apart: ``no problems in 142 documents;
    240 findings from rules newer than release v1.0.0 in 142 of them, not counted``.

    A catalog's own output (``citgen validate --catalog DIR``) may have problems
    pointed at the overlay lines behind their objects rather than at documents; those
    are counted apart: ``1 problem in 244 documents, pointed at the catalog's lines``.
    """
    real, newer = _split(problems)
    on_documents = [p for p in real if p.location.doc is not None]
    pointed = len(real) - len(on_documents)
    if not real:
        line = f"no problems in {_plural(documents, 'document')}"
    elif not pointed:
        line = f"{_plural(len(real), 'problem')} in {_touched(real)} of {_plural(documents, 'document')}"
    elif not on_documents:
        line = f"{_plural(pointed, 'problem')} in {_plural(documents, 'document')}, pointed at the catalog's lines"
    else:
        line = (f"{_plural(len(real), 'problem')} in {_plural(documents, 'document')}: {len(on_documents)} in "
                f"{_touched(real)} of them, {pointed} pointed at the catalog's lines")
    warned = _warnings(problems)
    if warned:
        line += f"; {_plural(len(warned), 'warning')} in {_touched(warned)} of them, not counted"
    if newer:
        line += (f"; {_plural(len(newer), 'finding')} from rules newer than {_releases(newer)} "
                 f"in {_touched(newer)} of them, not counted")
    return line


def _newer_line(problem: Problem) -> str:
    """A finding of a newer check: as any problem, with the release that introduced the check."""
    return escape.text(f"{problem.location}: {problem.message} [{problem.rule}, since {problem.since}]")


def text(problems: Sequence[Problem], documents: int) -> str:
    """One line per problem as ``str(problem)`` shows it, newer-rule findings apart, then the summary."""
    real, newer = _split(problems)
    warned = _warnings(problems)
    lines = [escape.text(str(p)) for p in real]
    if warned:
        if real:
            lines.append("")
        lines.append("warnings (KubeVirt admits these objects and warns; not counted without --warnings-as-errors):")
        lines += [escape.text(str(p)) for p in warned]
        lines.append("")
    if newer:
        if real and not warned:  # after warnings, their closing blank line already sets this apart
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
        "severity": problem.severity,
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
    return escape.json_text([_record(p) for p in problems], indent=2) + "\n"


def _where(loc: Location) -> str:
    """The part of a location GitHub's file and line do not show: document and path."""
    if loc.doc is None:
        return ".".join(map(str, loc.path))
    where = f"#{loc.doc}" + (f" ({loc.name})" if loc.name else "")
    return f"{where} {jsonpath(loc.path)}" if loc.path else where


def annotation(problem: Problem) -> str:
    """One problem as a GitHub Actions workflow command: file, line and column as properties.

    A finding of a check newer than its object's release is a ``::warning``.
    """
    loc = problem.location
    where = _where(loc)
    if loc.file.startswith("-") or loc.file == "citgen":  # an option, or the run itself: no file to annotate
        props, where = [], f"{loc.file}: {where}" if where else loc.file
    else:
        props = [f"file={escape.github_property(loc.file)}"]
    if loc.line is not None:
        props.append(f"line={loc.line}")
        if loc.column is not None:
            props.append(f"col={loc.column}")
    props.append(f"title={escape.github_property(problem.rule)}")
    message = f"{where}: {problem.message}" if where else problem.message
    if problem.is_warning and problem.older_release is None:
        return f"::warning {','.join(props)}::{escape.github_data(message)}"
    if problem.older_release is None:
        return f"::error {','.join(props)}::{escape.github_data(message)}"
    # shown, but not as an error: the object's release predates the check
    message += f" (rule since {problem.since}, newer than the object's release {problem.older_release})"
    return f"::warning {','.join(props)}::{escape.github_data(message)}"


def notice(command: str, line: str) -> str:
    """A line a command says, as a GitHub notice titled with the command."""
    return f"::notice title={escape.github_property(f'citgen {command}')}::{escape.github_data(line)}"


def github(problems: Sequence[Problem], documents: int) -> str:
    """GitHub Actions ``::error`` workflow commands, one per problem, then a notice with the summary.

    A finding of a check newer than its object's release is a ``::warning``.
    """
    lines = [annotation(p) for p in problems]
    lines.append(notice("validate", summary(problems, documents)))
    return "\n".join(lines) + "\n"


REPORTERS: Dict[str, Callable[[Sequence[Problem], int], str]] = {
    "text": text,
    "json": json_report,
    "github": github,
}


def render(problems: Sequence[Problem], documents: int, fmt: str = "text") -> str:
    """The report of ``problems`` found in ``documents`` objects in format ``fmt``."""
    return REPORTERS[fmt](problems, documents)


# --- any command's Result -----------------------------------------------------------------------

@dataclass(frozen=True)
class Shown:
    """A Result as printed: what goes to standard output and what to standard error."""

    stdout: str = ""
    stderr: str = ""


def _lines(lines: Sequence[str]) -> str:
    return "".join(f"{line}\n" for line in lines)


def _findings(result: Result) -> list[Problem]:
    """A validation's problems, warnings and newer-rule findings in one list, in the order of its report."""
    return sort_problems([*result.problems, *result.warnings, *result.newer_rule_findings])


def show_text(result: Result) -> Shown:
    """The text report, for people: the product and what the command says on standard output.

    A validation's findings are its report and go to standard output with their
    summary (``text`` above); problems that stopped a command go to standard error
    as ``error: <location>: <message>``, warnings as ``warning: ...``, followed by
    the notes. Each problem and each line said is one line (escape.text); the
    product is its writer's, which escapes what it quotes.
    """
    stdout = (text(_findings(result), result.documents or 0) if result.is_report else "") + result.product
    errors = "" if result.is_report else "".join(
        [f"error: {escape.text(str(p))}\n" for p in result.problems]
        + [f"warning: {escape.text(str(p))}\n" for p in result.warnings])
    outputs = _lines([escape.text(line) for line in result.outputs])
    notes = _lines([escape.text(line) for line in result.notes])
    return Shown(stdout + outputs, errors + notes)


def envelope(result: Result) -> Dict[str, Any]:
    """The JSON report of any command: the common keys, then the command's own keys beside them."""
    common: Dict[str, Any] = {
        "command": result.command,
        "ok": result.ok,
        "exitCode": result.exit_code,
        "problems": [_record(p) for p in result.problems],
        "newerRuleFindings": [_record(p) for p in result.newer_rule_findings],
        "warnings": [_record(p) for p in result.warnings],
        "outputs": list(result.outputs),
        "notes": list(result.notes),
        "counts": dict(result.counts),
    }
    return {**result.data, **common}


def show_json(result: Result) -> Shown:
    """The JSON report, for programs: one object (``envelope``) on standard output.

    Two reports keep the shape scripts parsed before the common object existed: a
    validation's findings are a list of problem records (the items of ``problems``
    in the common object), and ``validate --matrix`` is a list of pairs.
    """
    if result.json_document is not None:
        return Shown(escape.json_text(result.json_document, indent=2) + "\n")
    if result.is_report:
        return Shown(json_report(_findings(result), result.documents or 0))
    return Shown(escape.json_text(envelope(result), indent=2, sort_keys=True) + "\n")


def show_github(result: Result) -> Shown:
    """GitHub Actions workflow commands on standard output: an ``::error`` per problem, notices for the rest.

    A validation's findings are annotated as ``github`` above does; any other
    command's problems become ``::error`` lines, its product is printed as it is,
    and what it says (outputs and notes) becomes ``::notice title=citgen <command>``.
    """
    if result.is_report:
        return Shown(github(_findings(result), result.documents or 0))
    lines = [annotation(p) for p in (*result.problems, *result.warnings)]
    lines += [notice(result.command, line) for line in (*result.outputs, *result.notes)]
    return Shown(inert(result.product) + _lines(lines))


def inert(text: str) -> str:
    """A product printed in a GitHub Actions log, no line of it a workflow command.

    The runner reads every line of a step's output that starts with ``::`` (after
    blanks) as a command: ``::add-mask::``, ``::stop-commands::``. A product's lines
    are ours, with names and values written on one line (escape.text), but
    should one start so, the product is printed between ``::stop-commands::TOKEN``
    and ``::TOKEN::``, GitHub's way to print text it must not run. The token is the
    product's SHA-256: the same output for the same input, and no text can hold
    the token of itself.
    """
    if not any(line.lstrip().startswith("::") for line in text.splitlines()):
        return text
    token = hashlib.sha256(text.encode()).hexdigest()
    ending = "" if text.endswith("\n") else "\n"
    return f"::stop-commands::{token}\n{text}{ending}::{token}::\n"


#: How each --format shows a Result.
SHOWN: Dict[str, Callable[[Result], Shown]] = {
    "text": show_text,
    "json": show_json,
    "github": show_github,
}


def show(result: Result, fmt: str = "text") -> Shown:
    """``result`` in format ``fmt``: one of FORMATS, or a format of the command's own (``renditions``).

    A command's own format shows its product that way and everything else as text
    does; a Result without that rendition (a refusal) is shown as text.
    """
    if fmt in SHOWN:
        return SHOWN[fmt](result)
    rendition = result.renditions.get(fmt)
    if rendition is None:
        return show_text(result)
    return show_text(replace(result, product=rendition))
