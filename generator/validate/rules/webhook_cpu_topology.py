"""A preference's CPU topology is one its KubeVirt release knows, in the spelling it prefers.

From v1.4 on, virt-api's admission webhook refuses a preference whose
`spec.cpu.preferredCPUTopology` is none of `sockets`, `cores`, `threads`,
`spread`, `any` and their older spellings `preferSockets`, `preferCores`,
`preferThreads`, `preferSpread`, `preferAny` (compared case by case), and admits
the older spellings with a deprecation warning. Releases before v1.4 check no
topology: the one they do not know (v1.0 knows only the first three older
spellings; v1.1 to v1.3 all five) leaves a VM with one socket, core and thread.

Examples::

    bundle.yaml#2 (fedora) $.spec.cpu.preferredCPUTopology: KubeVirt v1.8 refuses it: unknown preferredCPUTopology Sockets [webhook-cpu-topology]
    bundle.yaml#2 (fedora) $.spec.cpu.preferredCPUTopology: KubeVirt v1.8 warns: PreferredCPUTopology preferSockets is deprecated for removal in a future release, please use sockets instead [webhook-cpu-topology]
"""

from __future__ import annotations

from typing import Iterator, Mapping, Sequence

from ...problems import Problem
from ...schemas.releases import Release
from ...source.documents import BundleDoc
from ._objects import dig, of_family
from ._webhook import refusal, warning
from .base import RuleContext

#: A rule of virt-api's admission webhook: what it says is KubeVirt's, dated by release (_webhook.py).
ADMISSION = True
ID = "webhook-cpu-topology"
TOPOLOGY = ("spec", "cpu", "preferredCPUTopology")
#: The first release whose webhook checks the topology.
CHECKED_SINCE = Release(1, 4)
#: Each deprecated spelling and the one to use instead (pkg/instancetype/preference/webhooks/admitter.go).
DEPRECATED: Mapping[str, str] = {
    "preferSockets": "sockets",
    "preferCores": "cores",
    "preferThreads": "threads",
    "preferSpread": "spread",
    "preferAny": "any",
}
SUPPORTED = frozenset(DEPRECATED) | frozenset(DEPRECATED.values())


def check(docs: Sequence[BundleDoc], ctx: RuleContext) -> Iterator[Problem]:
    if ctx.kubevirt < CHECKED_SINCE:
        return
    for doc in of_family(docs, "preference"):
        topology = dig(doc.data, *TOPOLOGY)
        if not isinstance(topology, str):
            continue  # absent, or not text: the schema's to report
        if topology not in SUPPORTED:
            yield refusal(doc, TOPOLOGY, ctx.kubevirt, f"unknown preferredCPUTopology {topology}", ID)
        elif topology in DEPRECATED:
            yield warning(doc, TOPOLOGY, ctx.kubevirt, f"PreferredCPUTopology {topology} is deprecated for "
                                                       f"removal in a future release, please use "
                                                       f"{DEPRECATED[topology]} instead", ID)
