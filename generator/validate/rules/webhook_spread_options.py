"""A preference that spreads vCPUs does so across levels, and at a ratio, KubeVirt supports.

From v1.3 on, virt-api's admission webhook checks a preference whose topology
spreads vCPUs (`preferSpread`; from v1.4 also `spread`): `spec.cpu.spreadOptions.across`
must be `SocketsCores`, `CoresThreads` or `SocketsCoresThreads` (compared case by
case; SocketsCores when absent), and across `CoresThreads` the ratio must be 2, for
one core of two threads. The ratio is `spreadOptions.ratio`, or else the older
`spec.preferSpreadSocketToCoreRatio`, or else 2; it is reported at
`spreadOptions.ratio` wherever it came from, as KubeVirt reports it.

Examples::

    bundle.yaml#4 (rhel.9) $.spec.cpu.spreadOptions.across: KubeVirt v1.8 refuses it: across SocketsThreads is not supported [webhook-spread-options]
    bundle.yaml#4 (rhel.9) $.spec.cpu.spreadOptions.ratio: KubeVirt v1.8 refuses it: only a ratio of 2 (1 core 2 threads) is allowed when spreading vCPUs over cores and threads [webhook-spread-options]
"""

from __future__ import annotations

from typing import Any, Iterator, Optional, Sequence

from ...problems import Path, Problem
from ...schemas.releases import Release
from ...source.documents import BundleDoc
from ._objects import dig, of_family
from ._webhook import refusal
from .base import RuleContext

#: A rule of virt-api's admission webhook: what it says is KubeVirt's, dated by release (_webhook.py).
ADMISSION = True
ID = "webhook-spread-options"
ACROSS = ("spec", "cpu", "spreadOptions", "across")
RATIO = ("spec", "cpu", "spreadOptions", "ratio")
SUPPORTED_ACROSS = ("SocketsCores", "CoresThreads", "SocketsCoresThreads")
CORES_THREADS_RATIO = "only a ratio of 2 (1 core 2 threads) is allowed when spreading vCPUs over cores and threads"
#: The first release whose webhook checks spread options, and the one that adds the spelling `spread`.
CHECKED_SINCE, SPREAD_SPELLING_SINCE = Release(1, 3), Release(1, 4)
_DEFAULT_RATIO = 2


def _spreads(data: Any, release: Release) -> bool:
    topology = dig(data, "spec", "cpu", "preferredCPUTopology")
    return topology == "preferSpread" or (topology == "spread" and release >= SPREAD_SPELLING_SINCE)


def _ratio(data: Any) -> Any:
    """KubeVirt's GetSpreadOptions: spreadOptions.ratio, else preferSpreadSocketToCoreRatio unless 0, else 2."""
    ratio = dig(data, "spec", "preferSpreadSocketToCoreRatio")
    ratio = _DEFAULT_RATIO if ratio in (None, 0) else ratio
    options = dig(data, "spec", "cpu", "spreadOptions")
    if isinstance(options, dict) and options.get("ratio") is not None:
        ratio = options["ratio"]
    return ratio


def refused(data: Any, release: Release) -> Optional[tuple[Path, str]]:
    """(where, the webhook's message) if ``release``'s webhook refuses the spread options of ``data``."""
    if not _spreads(data, release) or not isinstance(dig(data, "spec", "cpu", "spreadOptions"), dict):
        return None
    across = dig(data, *ACROSS)
    if not isinstance(across, str):
        return None  # absent: SocketsCores, which the webhook takes with any ratio; else the schema's to report
    if across not in SUPPORTED_ACROSS:
        return ACROSS, f"across {across} is not supported"
    ratio = _ratio(data)
    if across == "CoresThreads" and not isinstance(ratio, bool) and isinstance(ratio, (int, float)) and ratio != 2:
        return RATIO, CORES_THREADS_RATIO
    return None


def check(docs: Sequence[BundleDoc], ctx: RuleContext) -> Iterator[Problem]:
    if ctx.kubevirt < CHECKED_SINCE:
        return
    for doc in of_family(docs, "preference"):
        found = refused(doc.data, ctx.kubevirt)
        if found is not None:
            yield refusal(doc, found[0], ctx.kubevirt, found[1], ID)
