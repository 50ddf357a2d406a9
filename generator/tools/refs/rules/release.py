"""An object the catalog has, but its build for the KubeVirt release given (``--kubevirt``) leaves out.

A build for an older KubeVirt release leaves out an object whose essential
field the release's API server does not know (an IBM Secure Execution preference
without launch security is not one): virt-operator of that release never deploys
it. The finding names the field and the KubeVirt release that brought it.

Example::

    vm.yaml:9:11: spec.preference.name: VirtualMachine secure names preference 'fedora.s390x.secex', which the build of the built-in catalog for KubeVirt v1.8 leaves out: its spec.preferredLaunchSecurity came in KubeVirt v1.9 [release]
"""

from __future__ import annotations

from typing import Iterator, Sequence

from ....problems import Problem
from ..target import Resolution
from .base import JudgeContext, names

ID = "release"


def check(resolutions: Sequence[Resolution], ctx: JudgeContext) -> Iterator[Problem]:
    for one in resolutions:
        reference = one.reference
        if (reference.name is None or one.kind is None or one.resolved or one.shipped_as is not None
                or one.defined_as is not None):
            continue
        left = ctx.target.left_out.get((reference.family, reference.name))
        if left is None:
            continue
        brought = (f"came in KubeVirt {left.since}" if left.since is not None
                   else "is in no KubeVirt release citgen knows")
        yield Problem(reference.location, f"{names(reference)}, which {ctx.target.described} leaves out: its "
                                          f"{left.field} {brought}", ID)
