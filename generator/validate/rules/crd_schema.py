"""Every object matches the schema of its kind.

Each document is checked against the structural JSON Schema of its kind, generated
from KubeVirt's OpenAPI document and shipped under generator/schemas/. As with
`kubeconform -strict`, a field the schema does not know is an error, so a typo such
as `spec.cpu.gueest` is caught rather than silently dropped by the API server.

Example::

    bundle.yaml#7 (cx1.large) $.spec.cpu.gueest: unknown field 'gueest'; did you mean 'guest'? [schema]
"""

from __future__ import annotations

from typing import Iterator, Sequence

from ...problems import Problem
from ...schemas import RULE, schema_problems
from ...source.documents import BundleDoc
from .base import RuleContext

#: The schema check's ID, as the schemas module names its problems.
ID = RULE


def check(docs: Sequence[BundleDoc], ctx: RuleContext) -> Iterator[Problem]:
    """The schema's findings, one per bad field; it needs nothing from the context.

    validate_documents runs this check before the other rules and drops their
    findings on a field it already reported, so that one mistake reads once.
    """
    for doc in docs:
        yield from schema_problems(doc)
