"""Each instancetype keeps its series' vCPU to memory ratio, or is a declared exception.

A series promises a fixed amount of memory per vCPU (u1: 4Gi, cx1: 2Gi, m1:
8Gi), which is what makes sizes of one series comparable. An instancetype
``<series><version>.<size>`` must have ``spec.memory.guest`` equal to
``spec.cpu.guest`` times its series' ratio, compared as quantities, unless its
size is one the series declares as an exception with fixed memory (the small
sizes of u1, such as ``nano`` with 512Mi).

The ratios and exceptions come from the catalog: the one built, or the one
``citgen validate --catalog`` names. Files validated without ``--catalog`` are
held to the built-in catalog's ratios only when their vendor is the built-in
catalog's: a vendor's overlay may change a series' ratio, and a bundle does not
record the ratios it was built with. An instancetype of a series the context
does not know, as in a user's file with series of its own, is skipped: there
is no ratio to compare against. Objects whose vCPUs or memory
are missing or malformed are left to the schema check.

Example::

    bundle.yaml#0 (u1.large) $.spec.memory.guest: 2 vCPUs with '4Gi' of memory break series u1's ratio of 4Gi per vCPU (expected 8Gi), and large is not a declared exception [series-ratio]
"""

from __future__ import annotations

from typing import Iterator, Sequence

from ...problems import Problem
from ...quantity import gib
from ...source.documents import BundleDoc
from ._objects import count, dig, family, quantity, show_bytes, split_name
from .base import RuleContext

ID = "series-ratio"


def check(docs: Sequence[BundleDoc], ctx: RuleContext) -> Iterator[Problem]:
    if not ctx.series:
        return
    per_cpu = {name: gib(series.ratio) for name, series in ctx.series.items()}
    for doc in docs:
        if family(doc) != "instancetype":
            continue
        parts = split_name(doc.name)
        if parts is None or parts[0] not in ctx.series:
            continue
        name, size = parts
        series = ctx.series[name]
        if size in series.exceptions:
            continue
        cpus = count(dig(doc.data, "spec", "cpu", "guest"))
        written = dig(doc.data, "spec", "memory", "guest")
        memory = quantity(written)
        if cpus is None or memory is None:
            continue
        expected = cpus * per_cpu[name]
        if memory != expected:
            yield Problem(
                doc.locate(("spec", "memory", "guest")),
                f"{cpus} vCPU{'s' if cpus != 1 else ''} with {written!r} of memory break series "
                f"{name}'s ratio of {show_bytes(per_cpu[name])} per vCPU "
                f"(expected {show_bytes(expected)}), and {size} is not a declared exception",
                ID,
            )
