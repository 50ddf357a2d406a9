"""Every object matches the CRD schema of its kind in the KubeVirt release judged by.

Each document is checked against the CRD schema of its kind that virt-operator of
the release installs (`--kubevirt`, the newest release by default), shipped under
generator/schemas/kubevirt/, with its metadata checked as ObjectMeta. As the API
server does under strict field validation (kubectl's default), a field the schema
does not know is an error, so a typo such as `spec.cpu.gueest` is caught rather
than silently dropped; a field that only a later release knows says which.

Examples::

    bundle.yaml#7 (cx1.large) $.spec.cpu.gueest: unknown field 'gueest'; did you mean 'guest'? [schema]
    bundle.yaml#40 (windows.11.virtio) $.spec.devices.preferredVideoType: unknown field 'preferredVideoType': KubeVirt v1.8 does not have it (it came in v1.9) [schema]
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
    """The schema's findings, one per bad field, by the schema of the context's KubeVirt release.

    validate_documents runs this check before the other rules and drops their
    findings on a field it already reported, so that one mistake reads once.
    """
    for doc in docs:
        yield from schema_problems(doc, ctx.kubevirt)
