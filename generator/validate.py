"""Validation of parsed documents: the CRD schema first, then every selected rule.

Both ``citgen validate`` and ``citgen build`` come through here, so what a user
checks by hand is exactly what a build refuses to ship. The schema check runs
under the rule ID ``schema`` and can be selected like any rule; it runs first,
and a rule's finding on a field the schema already reported is dropped.
"""

from __future__ import annotations

from typing import Iterable, List, Sequence

from .documents import BundleDoc
from .errors import CitgenError
from .problems import Problem, sort_problems
from .rules import RULES, RuleContext

#: The rule ID under which schema problems are reported and selected.
SCHEMA = "schema"


def known_ids() -> List[str]:
    """Every ID ``--rule`` accepts: the schema, then the registered rules."""
    return [SCHEMA, *RULES]


def validate_documents(
    docs: Sequence[BundleDoc],
    ctx: RuleContext,
    *,
    rules: Iterable[str] | None = None,
) -> list[Problem]:
    """Every problem of ``docs``, sorted; ``rules`` limits the check to those IDs.

    Raises CitgenError (exit 2) for an unknown rule ID: a typo in ``--rule``
    must not pass as "no problems found".
    """
    selected = None if rules is None else list(dict.fromkeys(rules))
    if selected is not None:
        unknown = [r for r in selected if r not in RULES and r != SCHEMA]
        if unknown:
            raise CitgenError(
                f"unknown rule {', '.join(map(repr, unknown))}; known rules: {', '.join(known_ids())}"
            )
    problems: list[Problem] = []
    if selected is None or SCHEMA in selected:
        # Imported here so the rules work on their own and the schemas are
        # only loaded when they are used.
        from .schema import schema_problems

        for doc in docs:
            problems.extend(schema_problems(doc))
    # One message per field: where the schema already objects to a field (a wrong
    # apiVersion, a misspelt key), a rule saying the same thing in other words
    # would only be noise.
    flagged = {_field(p) for p in problems}
    for rule_id, rule in RULES.items():
        if selected is None or rule_id in selected:
            problems.extend(p for p in rule.check(docs, ctx) if _field(p) not in flagged)
    return sort_problems(problems)


def _field(problem: Problem) -> tuple:
    loc = problem.location
    return (loc.file, loc.doc, loc.path)
