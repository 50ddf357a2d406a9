"""SARIF 2.1.0: any command's findings as the Static Analysis Results Interchange Format (OASIS).

GitHub code scanning, and the tools kube-linter, checkov and trivy publish for,
read this log: one run of citgen, the rules it reported under, and one result per
finding, located in its file (an artifact URI relative to where citgen ran, as
given, and a region of line and column) and at its object (a logical location:
``Kind/namespace/name`` and the JSON path). A finding of an option or of standard
input has no file and is given by its message only. The log is a pure function of
the Result: the same findings give the same bytes.
"""

from __future__ import annotations

import os
from typing import Any, Sequence
from urllib.parse import quote

from . import __version__
from .problems import Location, Problem, jsonpath
from .result import Result

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
VERSION = "2.1.0"
INFORMATION_URI = "https://github.com/kubevirt/common-instancetypes"

#: SARIF's level for each severity a finding has (a newer rule's finding is a note).
LEVELS = {"error": "error", "warning": "warning", "note": "note"}


def _uri(file: str) -> str:
    """A file as an artifact URI: a relative path stays relative (percent-encoded), an absolute one is a file URI."""
    if os.path.isabs(file):
        return "file://" + quote(file)
    return quote(file)


def _in_file(loc: Location) -> bool:
    return not (loc.file.startswith(("-", "<")) or loc.file == "citgen" or loc.file.startswith("'"))


def _location(problem: Problem) -> list[dict[str, Any]]:
    loc = problem.location
    found: dict[str, Any] = {}
    if _in_file(loc):
        physical: dict[str, Any] = {"artifactLocation": {"uri": _uri(loc.file)}}
        if loc.line is not None:
            physical["region"] = {"startLine": loc.line, **({"startColumn": loc.column} if loc.column else {})}
        found["physicalLocation"] = physical
    if loc.doc is not None and (loc.kind or loc.name):
        name = "/".join(part for part in (loc.kind, loc.namespace, loc.name) if part)
        found["logicalLocations"] = [{"fullyQualifiedName": name + (jsonpath(loc.path) if loc.path else ""),
                                      "name": loc.name or name, "kind": "object"}]
    elif loc.path:
        found["logicalLocations"] = [{"fullyQualifiedName": ".".join(map(str, loc.path)), "kind": "member"}]
    return [found] if found else []


def _level(problem: Problem) -> str:
    return "note" if problem.older_release is not None else LEVELS.get(problem.severity, "error")


def _descriptions() -> dict[str, str]:
    """The one-line description of each validation rule, for the rules a run reported under."""
    from .validate.rules import CHECKS  # only a SARIF report names them

    return {rule.id: rule.summary for rule in CHECKS.values()}


def sarif_log(result: Result, findings: Sequence[Problem]) -> dict[str, Any]:
    """The SARIF log of one citgen run: ``result``'s command and exit code, and ``findings`` as its results."""
    ids = sorted({p.rule for p in findings})
    described = _descriptions() if ids else {}
    rules = [{"id": rule, **({"shortDescription": {"text": described[rule]}} if rule in described else {})}
             for rule in ids]
    index = {rule: number for number, rule in enumerate(ids)}
    results = []
    for problem in findings:
        message = problem.message
        if problem.older_release is not None:
            message += f" (rule since {problem.since}, newer than the object's release {problem.older_release})"
        results.append({"ruleId": problem.rule, "ruleIndex": index[problem.rule], "level": _level(problem),
                        "message": {"text": message}, "locations": _location(problem)})
    invocation = {"executionSuccessful": not result.unusable, "exitCode": result.exit_code,
                  "commandLine": f"citgen {result.command}",
                  "toolExecutionNotifications": [{"message": {"text": line}, "level": "note"}
                                                 for line in (*result.outputs, *result.notes)]}
    return {"$schema": SCHEMA, "version": VERSION, "runs": [{
        "tool": {"driver": {"name": "citgen", "version": __version__, "informationUri": INFORMATION_URI,
                            "rules": rules}},
        "invocations": [invocation],
        "results": results,
    }]}
