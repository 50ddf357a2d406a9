"""Instancetypes are named <series><version>.<size>.

Instancetype names follow the catalog's grammar, which UIs and the size and
series rules rely on: a series (lowercase letters), its version (digits), a
dot, and the size (lowercase letters and digits, dashes inside), for example
``u1.medium`` or ``cx1.2xlarge1gi``. Whether a name is one Kubernetes accepts
at all (a DNS subdomain) is object-metadata's to say; a name it refuses is
not looked at here.

Example::

    bundle.yaml#1 (large) $.metadata.name: instancetype name 'large' does not follow <series><version>.<size>, e.g. u1.medium or cx1.2xlarge1gi [name-grammar]
"""

from __future__ import annotations

import re
from typing import Iterator, Sequence

from ...objectmeta import name_problem
from ...problems import Problem
from ...source.documents import BundleDoc
from ._objects import family
from .base import RuleContext

ID = "name-grammar"

_INSTANCETYPE = re.compile(r"[a-z]+[0-9]+\.[a-z0-9]([-a-z0-9]*[a-z0-9])?")
_PATH = ("metadata", "name")


def check(docs: Sequence[BundleDoc], ctx: RuleContext) -> Iterator[Problem]:
    for doc in docs:
        name = doc.name  # None unless a string
        if not name or family(doc) != "instancetype" or name_problem(name):
            continue
        if not _INSTANCETYPE.fullmatch(name):
            yield Problem(
                doc.locate(_PATH),
                f"instancetype name {name!r} does not follow <series><version>.<size>, "
                "e.g. u1.medium or cx1.2xlarge1gi",
                ID,
            )
