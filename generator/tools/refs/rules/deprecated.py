"""A reference to an object the target labels deprecated: its replacement, and the release that deprecated it.

The catalog labels an object ``instancetype.kubevirt.io/deprecated: "true"`` for
a release or more before it leaves the catalog: a VirtualMachine naming it keeps
working until then, and breaks when it is re-created after. The finding names the
replacement and the release the catalog deprecated it in, where its lifecycle
data records them.

Example::

    vm.yaml:10:11: spec.preference.name: VirtualMachine web names preference 'centos.stream8', which the built-in catalog deprecated in v1.2.0; use 'centos.stream9' [deprecated]
"""

from __future__ import annotations

from typing import Iterator, Sequence

from ....problems import Problem
from ..target import Resolution
from .base import JudgeContext, names, quoted

ID = "deprecated"


def check(resolutions: Sequence[Resolution], ctx: JudgeContext) -> Iterator[Problem]:
    for one in resolutions:
        reference = one.reference
        if one.found is None or reference.name is None:
            continue
        deprecation = ctx.target.fates.deprecation(reference.family, reference.name)
        if deprecation is None:
            continue
        when = f" in {deprecation.since}" if deprecation.since else ""
        message = f"{names(reference)}, which {ctx.target.described} deprecated{when}"
        if deprecation.replacement:
            message += f"; use {quoted(deprecation.replacement)}"
        else:
            message += " (labelled instancetype.kubevirt.io/deprecated); it leaves the catalog in a later release"
        yield Problem(reference.location, message, ID)
