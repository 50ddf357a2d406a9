"""Validation of parsed documents: the CRD schema first, then every selected rule.

Both ``citgen validate`` and ``citgen build`` come through here, so what a user
checks by hand is exactly what a build refuses to ship. The schema check is a
rule module like the others (rules/crd_schema.py, ID ``schema``) and can be
selected like any rule; it runs first, and a rule's finding on a field the
schema already reported is dropped.

The KubeVirt release that judges (``RuleContext.kubevirt``) decides the CRD schema
and the admission webhook's rules. What the webhook admits with a warning is a
Problem of severity ``warning``: reported, not counted unless asked.

An object of an earlier catalog release is judged as that release could be
judged: a finding of a check introduced after it (``Problem.since``) is kept,
marked with the object's release, and does not count (``counted``). Otherwise
every old bundle would drown its real problems in labels it could not have had.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Iterable, List, Optional, Sequence

from ..errors import CitgenError
from ..problems import Problem, sort_problems
from ..source.documents import BundleDoc
from .rules import CHECKS, SCHEMA, RuleContext
from .rules.webhook_decode import ID as DECODE

#: The checks that stand for what the API server itself refuses before any webhook runs.
API_SERVER = frozenset({SCHEMA, "api-version", "object-metadata"})
from .rules.base import predates, release_of

__all__ = ["SCHEMA", "counted", "known_ids", "validate_documents"]


def known_ids() -> List[str]:
    """Every ID ``--rule`` accepts: the schema, then the registered rules."""
    return list(CHECKS)


def validate_documents(
    docs: Sequence[BundleDoc],
    ctx: RuleContext,
    *,
    rules: Iterable[str] | None = None,
    dated: Optional[Callable[[BundleDoc], bool]] = None,
) -> list[Problem]:
    """Every problem of ``docs``, sorted; ``rules`` limits the check to those IDs.

    ``dated`` says which documents may be judged by their own release (default:
    every one); a build passes only the objects it retained from an old bundle,
    since its own objects are always held to every check.

    Raises CitgenError (exit 2) for an unknown rule ID: a typo in ``--rule``
    must not pass as "no problems found".
    """
    selected = None if rules is None else list(dict.fromkeys(rules))
    if selected is not None:
        unknown = [r for r in selected if r not in CHECKS]
        if unknown:
            raise CitgenError(
                f"unknown rule {', '.join(map(repr, unknown))}; known rules: {', '.join(known_ids())}"
            )
    problems: list[Problem] = []
    flagged: set[tuple] = set()
    for rule_id, rule in CHECKS.items():  # the schema first
        if selected is None or rule_id in selected:
            problems.extend(p for p in rule.check(docs, ctx) if _field(p) not in flagged)
        if rule_id == SCHEMA:
            # One message per field: where the schema already objects to a field (a
            # wrong apiVersion, a misspelt key), a rule saying the same thing in other
            # words would only be noise.
            flagged = {_field(p) for p in problems}
    return sort_problems(_date(_as_kubevirt_answers(problems), docs, dated))


def _as_kubevirt_answers(problems: list[Problem]) -> list[Problem]:
    """The problems, less what the API server and webhook would not say of a refused object.

    The API server calls the webhook only for an object whose schema and metadata it
    admits, and the webhook returns warnings only with an object it admits: a refused
    object shows its refusals, never a warning. An object the webhook cannot decode
    into its Go structs is refused for that alone: its other rules do not run.
    """
    refused = {_place(p) for p in problems if not p.is_warning and _said_by_kubevirt(p)}
    undecoded = {_place(p) for p in problems if p.rule == DECODE}
    if not refused:
        return problems
    return [p for p in problems
            if not (p.is_warning and _place(p) in refused)
            and not (_place(p) in undecoded and p.rule != DECODE and _is_admission(p))]


def _place(problem: Problem) -> tuple:
    return problem.location.file, problem.location.doc


def _is_admission(problem: Problem) -> bool:
    rule = CHECKS.get(problem.rule)
    return rule is not None and rule.admission


def _said_by_kubevirt(problem: Problem) -> bool:
    """A refusal of the API server (schema, apiVersion, metadata) or of the webhook."""
    return problem.rule in API_SERVER or _is_admission(problem)


def counted(problems: Iterable[Problem], *, warnings: bool = False) -> list[Problem]:
    """The problems that decide the outcome: all but findings of checks newer than their object,
    and but warnings unless ``warnings`` asks for them to count."""
    return [p for p in problems if p.older_release is None and (warnings or not p.is_warning)]


def _date(problems: list[Problem], docs: Sequence[BundleDoc],
          dated: Optional[Callable[[BundleDoc], bool]]) -> list[Problem]:
    """Mark each finding of a check newer than its object's release with that release."""
    if not any(p.since for p in problems):
        return problems
    by_place = {(d.file, d.index): d for d in docs}
    out = []
    for problem in problems:
        doc = by_place.get((problem.location.file, problem.location.doc)) if problem.since else None
        release = release_of(doc) if doc is not None and (dated is None or dated(doc)) else None
        if release is not None and predates(release, problem.since):
            problem = replace(problem, older_release=release)
        out.append(problem)
    return out


def _field(problem: Problem) -> tuple:
    loc = problem.location
    return (loc.file, loc.doc, loc.path)
