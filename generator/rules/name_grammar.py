"""Names are valid Kubernetes names and instancetypes are named <series><version>.<size>.

Every object's ``metadata.name`` must be a DNS subdomain name as Kubernetes
requires (at most 253 characters of lowercase letters, digits, ``-`` and
``.``, starting and ending with a letter or digit). Instancetype names must
also follow the catalog's grammar, which UIs and the size and series rules
rely on: a series (lowercase letters), its version (digits), a dot, and the
size (lowercase letters and digits, dashes inside), for example ``u1.medium``
or ``cx1.2xlarge1gi``.

Example::

    bundle.yaml#0 (U1.Small) $.metadata.name: 'U1.Small' is not a valid Kubernetes name: use at most 253 lowercase letters, digits, '-' and '.', starting and ending with a letter or digit [name-grammar]
"""

from __future__ import annotations

import re
from typing import Iterator, Sequence

from ..documents import BundleDoc
from ..problems import Problem
from ._objects import dig, family
from .base import RuleContext

ID = "name-grammar"

_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
_INSTANCETYPE = re.compile(r"^[a-z]+[0-9]+\.[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_PATH = ("metadata", "name")


def check(docs: Sequence[BundleDoc], ctx: RuleContext) -> Iterator[Problem]:
    for doc in docs:
        if not isinstance(doc.data, dict):
            continue
        name = dig(doc.data, *_PATH)
        if name is None:
            yield Problem(doc.locate(("metadata",)), "metadata.name is missing", ID)
            continue
        if not isinstance(name, str):
            yield Problem(doc.locate(_PATH), f"metadata.name must be a string, not {name!r}", ID)
            continue
        if len(name) > 253 or not _SUBDOMAIN.match(name):
            yield Problem(
                doc.locate(_PATH),
                f"{name!r} is not a valid Kubernetes name: use at most 253 lowercase letters, "
                "digits, '-' and '.', starting and ending with a letter or digit",
                ID,
            )
        elif family(doc) == "instancetype" and not _INSTANCETYPE.match(name):
            yield Problem(
                doc.locate(_PATH),
                f"instancetype name {name!r} does not follow <series><version>.<size>, "
                "e.g. u1.medium or cx1.2xlarge1gi",
                ID,
            )
