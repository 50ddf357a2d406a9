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
from typing import Callable, Iterable, List, Mapping, Optional, Sequence

from ..errors import CitgenError
from ..problems import Problem, sort_problems
from ..source.documents import BundleDoc
from .rules import CHECKS, SCHEMA, Rule, RuleContext
from .rules._objects import family
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
    twins = _twins(docs)
    for rule_id, rule in CHECKS.items():  # the schema first
        if selected is None or rule_id in selected:
            problems.extend(p for p in _run(rule, docs, ctx, twins) if _field(p) not in flagged)
        if rule_id == SCHEMA:
            # One message per field: where the schema already objects to a field (a
            # wrong apiVersion, a misspelt key), a rule saying the same thing in other
            # words would only be noise.
            flagged = {_field(p) for p in problems}
    return sort_problems(_date(_as_kubevirt_answers(problems), docs, dated))


def _twins(docs: Sequence[BundleDoc]) -> dict[int, int]:
    """Each document that is an earlier one's twin, by position, with the earlier one's position.

    A twin is the same object as the other kind of its family: a build parses a
    cluster document once and makes its namespaced twin of the very same metadata
    and spec (parse.py), so "the same" is asked of the objects themselves, not of
    their contents, and costs nothing to tell.
    """
    first_of: dict[tuple[int, int], int] = {}
    twins: dict[int, int] = {}
    for i, doc in enumerate(docs):
        data = doc.data
        if type(data) is not dict:
            continue
        spec, metadata = data.get("spec"), data.get("metadata")
        if type(spec) is not dict or type(metadata) is not dict:
            continue
        j = first_of.setdefault((id(spec), id(metadata)), i)
        if j == i:
            continue
        other = docs[j].data
        if (family(doc) is not None and family(doc) == family(docs[j]) and doc.kind != docs[j].kind
                and data.keys() == other.keys() and all(key == "kind" or data[key] is other[key] for key in data)):
            twins[i] = j
    return twins


def _run(rule: Rule, docs: Sequence[BundleDoc], ctx: RuleContext, twins: Mapping[int, int]) -> list[Problem]:
    """``rule``'s problems of ``docs``, a twin judged only where the rule found something in its first.

    A rule that judges each document by itself, and a document and its twin alike
    (``Rule.twins_alike``), has nothing to say of a twin whose first it passed: half
    a build's documents are such twins, and skipping them halves most rules' time.
    """
    if not twins or rule.twins_alike is None or not rule.twins_alike(ctx):
        return list(rule.check(docs, ctx))
    found = list(rule.check([doc for i, doc in enumerate(docs) if i not in twins], ctx))
    judged = {_place(p) for p in found}
    again = [docs[i] for i, first in twins.items() if (docs[first].file, docs[first].index) in judged]
    return found + list(rule.check(again, ctx)) if again else found


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
