"""Every preference's requirements are met by at least one instancetype.

A preference may require a minimum of vCPUs and memory and an architecture
(``spec.requirements``); KubeVirt refuses a VM whose instancetype falls short.
A preference that no instancetype of the catalog can satisfy is unusable with
it, so each preference's requirements must be met by at least one instancetype
of the validated set, of either kind: ``spec.cpu.guest`` at least the required
vCPUs and ``spec.memory.guest`` at least the required memory (as quantities),
both in the same instancetype.

Instancetypes have no architecture field; an instancetype labelled
``instancetype.kubevirt.io/arch`` offers only that architecture, and one without
the label is taken to run on any. When the validated set holds no instancetypes
at all (a file of preferences only), there is nothing to match and this rule
is skipped.

Example::

    bundle.yaml#2 (windows.11) $.spec.requirements: no instancetype meets these requirements (64 vCPUs, 4Gi of memory): at most 32 vCPUs are offered [requirements-met]
"""

from __future__ import annotations

from bisect import bisect_left
from fractions import Fraction
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from ...model import label
from ...problems import Problem
from ...source.documents import BundleDoc
from ._objects import count, dig, family, labels, quantity, show_bytes
from .base import RuleContext

ID = "requirements-met"

_ARCH = label("arch")


class _Offers:
    """The (vCPUs, memory) pairs of some instancetypes, ready for "is there one with at least".

    Sorted by vCPUs with the best memory among all larger-or-equal vCPU counts
    precomputed, so each question is a binary search and the rule stays
    O(n log n) however many preferences ask.
    """

    def __init__(self, pairs: Iterable[Tuple[int, Fraction]]):
        ordered = sorted(pairs)
        self.cpus = [cpu for cpu, _ in ordered]
        self.best: List[Fraction] = [Fraction(0)] * len(ordered)
        running: Optional[Fraction] = None
        for i in range(len(ordered) - 1, -1, -1):
            memory = ordered[i][1]
            running = memory if running is None or memory > running else running
            self.best[i] = running

    def __bool__(self) -> bool:
        return bool(self.cpus)

    def meets(self, cpu: int, memory: Fraction) -> bool:
        i = bisect_left(self.cpus, cpu)
        return i < len(self.cpus) and self.best[i] >= memory

    def most_cpus(self) -> int:
        return self.cpus[-1]

    def most_memory(self) -> Fraction:
        return self.best[0]


def _merge(*groups: List[Tuple[int, Fraction]]) -> _Offers:
    return _Offers(pair for group in groups for pair in group)


def check(docs: Sequence[BundleDoc], ctx: RuleContext) -> Iterator[Problem]:
    anywhere: List[Tuple[int, Fraction]] = []  # instancetypes without an arch label
    by_arch: Dict[str, List[Tuple[int, Fraction]]] = {}
    preferences: List[BundleDoc] = []
    for doc in docs:
        fam = family(doc)
        if fam == "preference":
            preferences.append(doc)
        elif fam == "instancetype":
            cpu = count(dig(doc.data, "spec", "cpu", "guest"))
            memory = quantity(dig(doc.data, "spec", "memory", "guest"))
            if cpu is None or memory is None:
                continue
            arch = labels(doc).get(_ARCH)
            (by_arch.setdefault(arch, []) if isinstance(arch, str) else anywhere).append((cpu, memory))
    if not anywhere and not by_arch:
        return
    everything = _merge(anywhere, *by_arch.values())
    per_arch: Dict[str, _Offers] = {}
    for doc in preferences:
        requirements = dig(doc.data, "spec", "requirements")
        if not isinstance(requirements, dict):
            continue
        cpu = count(dig(requirements, "cpu", "guest")) or 0
        written = dig(requirements, "memory", "guest")
        memory = quantity(written) or Fraction(0)
        arch = requirements.get("architecture")
        if isinstance(arch, str) and by_arch:
            if arch not in per_arch:
                per_arch[arch] = _merge(anywhere, by_arch.get(arch, []))
            offers = per_arch[arch]
        else:
            arch, offers = None, everything
        if offers and offers.meets(cpu, memory):
            continue
        wanted = []
        if cpu:
            wanted.append(f"{cpu} vCPU{'s' if cpu != 1 else ''}")
        if memory:
            wanted.append(f"{written} of memory")
        if arch:
            wanted.append(f"architecture {arch}")
        if not offers:
            reason = f"no instancetype is offered for architecture {arch}"
        elif offers.most_cpus() < cpu:
            most = offers.most_cpus()
            reason = f"at most {most} vCPU{' is' if most == 1 else 's are'} offered"
        elif offers.most_memory() < memory:
            reason = f"at most {show_bytes(offers.most_memory())} of memory is offered"
        else:
            reason = "none has both"
        if arch and offers:
            reason += f" for architecture {arch}"
        yield Problem(
            doc.locate(("spec", "requirements")),
            f"no instancetype meets these requirements ({', '.join(wanted)}): {reason}",
            ID,
        )
