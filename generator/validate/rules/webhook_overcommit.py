"""An instancetype does not overcommit memory that is backed by hugepages.

virt-api's admission webhook, at every release from v1.0 on, refuses an
instancetype whose `spec.memory.overcommitPercent` is not 0 while it asks for
`spec.memory.hugepages` (an empty `hugepages: {}` asks for them too): hugepages
cannot be overcommitted. It also refuses a percentage outside 0 to 100, which the
CRD schema refuses first (the schema check reports it).

Example::

    bundle.yaml#5 (cx1.large) $.spec.memory.overcommitPercent: KubeVirt v1.8 refuses it: spec.memory.overcommitPercent and spec.memory.hugepages should not be requested together. [webhook-overcommit]
"""

from __future__ import annotations

from typing import Iterator, Sequence

from ...problems import Problem
from ...source.documents import BundleDoc
from ._objects import dig, family
from ._webhook import refusal
from .base import RuleContext

#: A rule of virt-api's admission webhook: what it says is KubeVirt's, dated by release (_webhook.py).
ADMISSION = True
ID = "webhook-overcommit"
PERCENT = ("spec", "memory", "overcommitPercent")


def check(docs: Sequence[BundleDoc], ctx: RuleContext) -> Iterator[Problem]:
    for doc in docs:
        if family(doc) != "instancetype":
            continue
        percent = dig(doc.data, *PERCENT)
        if isinstance(percent, bool) or not isinstance(percent, (int, float)) or not float(percent).is_integer():
            continue  # absent, or of a type the schema refuses
        percent = int(percent)
        if percent < 0 or percent > 100:
            yield refusal(doc, PERCENT, ctx.kubevirt,
                          f"spec.memory.overcommitPercent '{percent}': must be in range between 0 and 100.", ID)
        memory = dig(doc.data, "spec", "memory")
        if percent != 0 and isinstance(memory, dict) and memory.get("hugepages") is not None:
            yield refusal(doc, PERCENT, ctx.kubevirt, "spec.memory.overcommitPercent and spec.memory.hugepages "
                                                      "should not be requested together.", ID)
