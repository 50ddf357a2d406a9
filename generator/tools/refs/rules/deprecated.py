"""A reference to an object the target labels deprecated: the release that deprecated it, and what to use instead.

The catalog labels an object ``instancetype.kubevirt.io/deprecated: "true"`` for
a release or more before it leaves the catalog: a VirtualMachine naming it keeps
working until then, and breaks when it is re-created after. The finding names the
release that deprecated it and the object to use instead, from the catalog's
lifecycle data (the ``deprecated-since`` and ``deprecated-replacement``
annotations a build writes beside the label, and catalog.yaml's ``retired`` for an
object a build keeps with ``--retain-from``), the replacement followed to an
object that is current.

Example::

    vm.yaml:10:11: spec.preference.name: VirtualMachine web names preference 'centos.stream8', which the built-in catalog deprecated in v1.1.0; use 'centos.stream9' [deprecated]
"""

from __future__ import annotations

from typing import Iterator, Sequence

from ....problems import Problem
from ..target import Resolution
from .base import JudgeContext, names, quoted, short_of_current

ID = "deprecated"


def check(resolutions: Sequence[Resolution], ctx: JudgeContext) -> Iterator[Problem]:
    for one in resolutions:
        reference = one.reference
        if one.found is None or reference.name is None:
            continue
        record = ctx.target.lifecycle.get((reference.family, reference.name))
        if record is None or record.status != "deprecated":
            continue
        message = f"{names(reference)}, which {ctx.target.described} deprecated"
        if record.since:
            message += f" in {record.since}"
        if record.retired:
            message += f" and its catalog retired in {record.retired} (kept as released)"
        if record.current is not None:
            message += f"; use {quoted(record.current)}"
            if record.replacement != record.current:
                message += f" (its replacement {quoted(record.replacement or '')} is not current either)"
        elif record.chain:
            message += f"; {short_of_current(record, ctx.target.lifecycle, ctx.target.described)}"
        else:
            message += " (labelled instancetype.kubevirt.io/deprecated, no replacement named); it leaves the " \
                       "catalog in a later release"
        yield Problem(reference.location, message, ID)
