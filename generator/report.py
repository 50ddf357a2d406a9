"""Reporters: the same Problems printed for a person, a program, GitHub, a pull request or code scanning.

One convention for every command (docs/errors.md, "The report convention"):

- **text**: one line per finding, as compilers and linters write them, so that
  editors and terminals jump to it: ``FILE:LINE:COL: SEVERITY: MESSAGE [RULE]``,
  the object (``Kind namespace/name``) and its JSON path opening the message
  (``finding_line``). Findings are a checking command's output, on standard output;
  what stops a run is on standard error, in the same lines.
- **json**: one object (``envelope``), or a validation's list of records;
- **github**: workflow commands, an annotation per finding and ``::notice`` for the rest;
- **markdown**: a pull-request comment (a command's own rendition where it has one);
- **sarif**: SARIF 2.1.0 (sarif.py), for GitHub code scanning.

Problems are sorted before they reach a reporter and every reporter is a pure
function of them, so the same input always prints the same bytes, which lets
CI diff reports and tests compare them exactly. A finding of a check newer than
its object's release is a ``note``: shown in every format, never counted.

``show(result, fmt)`` prints any command's Result (result.py) in any format, so
every command reports the same way; ``render`` is the validation report.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Dict, Sequence

from . import escape
from .frozen import frozen
from .problems import (PATH_EXCERPT, Location, Problem, bounded_lines, dotted, excerpt, jsonpath, shortened,
                       sort_problems)
from .result import Result

#: Every format every command reports in (--format, on the group or the command).
FORMATS = ("text", "json", "github", "markdown", "sarif")


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
    """How many objects the problems are on (the items of a List share their document)."""
    return len({(p.location.file, p.location.doc, p.location.path[:2] if p.location.path[:1] == ("items",) else ())
                for p in problems if p.location.doc is not None})


def _releases(newer: Sequence[Problem]) -> str:
    found = sorted({p.older_release or "" for p in newer})
    return f"release{'s' if len(found) > 1 else ''} {', '.join(found)}"


def summary(problems: Sequence[Problem], documents: int, subject: str | None = None) -> str:
    """One line saying how it went: ``2 problems in 1 of 244 documents``, after what was judged where it is named
    (``built-in catalog v1.8.0-dev: no problems in 244 documents``).

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
    return f"{subject}: {line}" if subject else line


SEVERITY_NOTE = "note"


def severity(problem: Problem) -> str:
    """How a finding counts, as compilers and linters say it: ``error``, ``warning``, or ``note`` for a finding of a
    check newer than its object's release (shown, never counted)."""
    return SEVERITY_NOTE if problem.older_release is not None else problem.severity


def place(loc: Location) -> str:
    """Where a finding is, as editors and terminals jump to it: ``FILE:LINE:COL`` as far as they are known.

    An option (``--out``) or the run itself (``citgen``) stands where a file would.
    """
    where = excerpt(loc.file, PATH_EXCERPT)
    if loc.line is not None:
        where += f":{loc.line}"
        if loc.column is not None:
            where += f":{loc.column}"
    return where


def subject(loc: Location) -> str:
    """What in the file a finding is about, before its message: the object (``Kind namespace/name``) and its JSON
    path, or a catalog file's key path; the document's number where no line says which object it is."""
    if loc.doc is None:
        return dotted(loc.path)
    named = f"{loc.namespace}/{loc.name}" if loc.namespace and loc.name else loc.name
    parts = [excerpt(part, PATH_EXCERPT) for part in (loc.kind, named) if part]
    if loc.line is None:
        parts.append(f"(document {loc.doc})")
    if loc.path:
        parts.append(jsonpath(loc.path))
    return " ".join(parts)


def finding_line(problem: Problem) -> str:
    """One finding on one line, the same in every command: ``FILE:LINE:COL: SEVERITY: MESSAGE [RULE]``.

    The object and JSON path open the message (``VirtualMachineClusterInstancetype
    u1.large $.spec.cpu.guest: ...``); a finding of a check newer than its object's
    release says so at its end.
    """
    about = subject(problem.location)
    message = f"{about}: {problem.message}" if about else problem.message
    if problem.older_release is not None:
        message += f" (rule since {problem.since}, newer than the object's release {problem.older_release})"
    return escape.text(f"{place(problem.location)}: {severity(problem)}: {message} [{problem.rule}]")


#: A finding said at more places than this (the same rule, severity and message: one unknown name in a
#: cluster's thousands of VirtualMachines) is shown at its first GROUP_SHOWN places in text, and counted.
GROUP_FROM = 20
GROUP_SHOWN = 5
#: Most characters of the message a group's count quotes.
GROUP_EXCERPT = 200


def text(problems: Sequence[Problem], documents: int | None = None, subject: str | None = None) -> str:
    """One line per finding (``finding_line``), then, for a validation of ``documents`` objects, its summary.

    A report of thousands of findings stays one a person can read: a finding said at
    more than GROUP_FROM places is shown at its first GROUP_SHOWN and then counted
    (``citgen: 4995 more places of the finding above ...``); JSON, SARIF and GitHub
    list every place.
    """
    groups = Counter(_group(p) for p in problems)
    shown: Counter[tuple[str, str, str]] = Counter()
    lines = []
    for problem in problems:
        key = _group(problem)
        shown[key] += 1
        if groups[key] <= GROUP_FROM or shown[key] <= GROUP_SHOWN:
            lines.append(finding_line(problem))
    for key, count in groups.items():
        if count > GROUP_FROM:
            quoted = excerpt(key[2], GROUP_EXCERPT)
            lines.append(escape.text(f"citgen: {count - GROUP_SHOWN} more places of the {key[0]} {quoted!r} "
                                     f"[{key[1]}] not shown; --format json or sarif lists every place"))
    if documents is not None:
        lines.append(escape.text(summary(problems, documents, subject)))
    return "".join(f"{line}\n" for line in lines)


def _group(problem: Problem) -> tuple[str, str, str]:
    """What makes two findings the same one at two places: severity, rule and message."""
    return severity(problem), problem.rule, problem.message


def _record(problem: Problem) -> Dict[str, object]:
    loc = problem.location
    return {
        "file": loc.file,
        "line": loc.line,
        "column": loc.column,
        "document": loc.doc,
        "kind": loc.kind,
        "namespace": loc.namespace,
        "name": loc.name,
        "path": jsonpath(loc.path) if loc.doc is not None else ".".join(map(str, loc.path)) or None,
        "rule": problem.rule,
        "severity": problem.severity,
        "message": problem.message,
        "since": problem.since,
        "newerThanRelease": problem.older_release,
    }


def json_report(problems: Sequence[Problem], documents: int) -> str:
    """A JSON list with one object per problem (file, line, column, document, kind, namespace, name, path, rule,
    severity, message).

    ``since`` is the release that introduced the check, or null for a check as old
    as the catalog; ``newerThanRelease`` is the object's release when the check is
    newer than it, in which case the finding does not count (null otherwise).
    """
    return escape.json_text([_record(p) for p in problems], indent=2) + "\n"


def _is_file(loc: Location) -> bool:
    """Whether a location is in a file a code-scanning tool can annotate (not an option, the run or a stream)."""
    return not (loc.file.startswith(("-", "<")) or loc.file == "citgen")


def annotation(problem: Problem) -> str:
    """One problem as a GitHub Actions workflow command: file, line and column as properties.

    An error is ``::error``, a warning ``::warning``, a finding of a check newer than
    its object's release ``::notice``.
    """
    loc = problem.location
    about = subject(loc)
    props = [f"file={escape.github_property(shortened(loc.file, PATH_EXCERPT))}"] if _is_file(loc) else []
    if not props:
        about = f"{loc.file}: {about}" if about else loc.file
    if loc.line is not None and props:
        props.append(f"line={loc.line}")
        if loc.column is not None:
            props.append(f"col={loc.column}")
    props.append(f"title={escape.github_property(problem.rule)}")
    message = f"{about}: {problem.message}" if about else problem.message
    if problem.older_release is not None:
        message += f" (rule since {problem.since}, newer than the object's release {problem.older_release})"
    level = {"note": "notice"}.get(severity(problem), severity(problem))
    return f"::{level} {','.join(props)}::{escape.github_data(message)}"


def notice(command: str, line: str) -> str:
    """A line a command says, as a GitHub notice titled with the command."""
    return f"::notice title={escape.github_property(f'citgen {command}')}::{escape.github_data(line)}"


def github(problems: Sequence[Problem], documents: int, subject: str | None = None) -> str:
    """GitHub Actions workflow commands, one per problem, then a notice with the summary."""
    lines = [annotation(p) for p in problems]
    lines.append(notice("validate", summary(problems, documents, subject)))
    return "\n".join(lines) + "\n"


REPORTERS: Dict[str, Callable[[Sequence[Problem], int], str]] = {
    "text": text,
    "json": json_report,
    "github": github,
}


def render(problems: Sequence[Problem], documents: int, fmt: str = "text") -> str:
    """The report of ``problems`` found in ``documents`` objects in format ``fmt`` (text, json or github)."""
    return REPORTERS[fmt](sort_problems(problems), documents)


# --- any command's Result -----------------------------------------------------------------------

@frozen
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
    """The text report, for people: findings, product and what the command says on standard output.

    Findings are a checking command's output: one line each (``finding_line``) on
    standard output, a validation's closed by its summary; what stopped a run
    (a refusal, exit 2) is on standard error in the same lines, and so are the
    notes. Each line said is one line (escape.text); the product is its writer's,
    which escapes what it quotes.
    """
    outputs = _lines([escape.text(line) for line in result.outputs])
    notes = _lines([escape.text(line) for line in result.notes])
    if result.unusable or result.pipeable:
        return Shown(result.product + outputs, text(_findings(result)) + notes)
    findings = text(_findings(result), result.documents if result.is_report else None, result.subject)
    return Shown(findings + result.product + outputs, notes)


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
    """GitHub Actions workflow commands on standard output: one annotation per finding, notices for the rest.

    A validation's findings are annotated as ``github`` above does; any other
    command's findings become annotations, its product is printed as it is, and
    what it says (outputs and notes) becomes ``::notice title=citgen <command>``.
    """
    if result.is_report:  # the summary, then what else the text says (the osinfo database a validation used)
        said = [notice(result.command, line) for line in (*result.outputs, *result.notes)]
        return Shown(github(_findings(result), result.documents or 0, result.subject) + _lines(said))
    lines = [annotation(p) for p in _findings(result)]
    lines += [notice(result.command, line) for line in (*result.outputs, *result.notes)]
    return Shown(inert(result.product) + _lines(lines))


def show_markdown(result: Result) -> Shown:
    """Markdown for a pull-request comment or a release: the command's own rendition where it has one (``diff``'s
    release notes, ``refs``' upgrade table), else its findings as a table and its product as a block."""
    rendition = result.renditions.get("markdown")
    if rendition is not None and not result.unusable:
        return Shown(rendition + _lines([escape.markdown(line) for line in result.outputs]),
                     _lines([escape.text(line) for line in result.notes]))
    return Shown(markdown_report(result))


def markdown_report(result: Result) -> str:
    """Any Result in Markdown: a heading, a table of its findings (every cell escaped), its product, what it says."""
    md, code, cell = escape.markdown, escape.markdown_code, escape.markdown_cell
    findings = _findings(result)
    counted = _plural(len(findings), "finding") if findings else "nothing found"
    heading = f"### citgen {md(result.command)}: {counted}"
    lines = [heading, ""]
    if findings:
        lines += ["| where | severity | finding | rule |", "| --- | --- | --- | --- |"]
        for p in findings:
            about = subject(p.location)
            message = f"{about}: {p.message}" if about else p.message
            lines.append(f"| {cell(code(place(p.location)))} | {severity(p)} | {cell(md(message))} | "
                         f"{cell(code(p.rule))} |")
        lines.append("")
    if result.is_report and result.documents is not None:
        lines += [md(summary(findings, result.documents, result.subject)), ""]
    if result.product:
        lines += ["```text", result.product.rstrip("\n").replace("```", "`\u200b``"), "```", ""]
    lines += [md(line) for line in (*result.outputs, *result.notes)]
    return "\n".join(lines).rstrip("\n") + "\n"


def show_sarif(result: Result) -> Shown:
    """SARIF 2.1.0 on standard output, for GitHub code scanning and every tool that reads it (sarif.py)."""
    from .sarif import sarif_log  # only a SARIF report needs it

    return Shown(escape.json_text(sarif_log(result, _findings(result)), indent=2) + "\n")


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
    import hashlib  # only a github report that holds a command line's text needs it

    token = hashlib.sha256(text.encode()).hexdigest()
    ending = "" if text.endswith("\n") else "\n"
    return f"::stop-commands::{token}\n{text}{ending}::{token}::\n"


#: How each --format shows a Result.
SHOWN: Dict[str, Callable[[Result], Shown]] = {
    "text": show_text,
    "json": show_json,
    "github": show_github,
    "markdown": show_markdown,
    "sarif": show_sarif,
}


def show(result: Result, fmt: str = "text") -> Shown:
    """``result`` in format ``fmt``, one of FORMATS: every command reports in every format.

    No line is longer than problems.MAX_LINE but in JSON and SARIF, whose values
    are whole for the programs that read them (docs/errors.md).
    """
    shown = SHOWN[fmt](result)
    return shown if fmt in ("json", "sarif") else Shown(bounded_lines(shown.stdout), bounded_lines(shown.stderr))
