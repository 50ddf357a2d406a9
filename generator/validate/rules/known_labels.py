"""Labels under instancetype.kubevirt.io/ are ones the catalog defines.

UIs and ``kubectl get -l`` select instancetypes and preferences by these labels,
so a misspelt key (``instancetype.kubevirt.io/cpus``) is a filter that silently
matches nothing. Known keys: class, version, vendor, cpu, memory, size, icon-pf,
dedicatedCPUPlacement, isolateEmulatorThread, numa, hugepages, realtime, gpus,
deprecated, common-instancetypes-version, os-type, arch, required-cpu,
required-memory, preferred-architecture, required-architecture. Labels under
other prefixes are the owner's business and are not checked.

Example::

    bundle.yaml#0 (u1.small) $.metadata.labels['instancetype.kubevirt.io/cpus']: unknown label 'instancetype.kubevirt.io/cpus' (did you mean 'instancetype.kubevirt.io/cpu'?) [known-labels]
"""

from __future__ import annotations

from typing import Iterator, Sequence

from ...model import LABEL_PREFIX
from ...problems import Problem
from ...source.documents import BundleDoc
from ...suggest import Index, nearest
from ._objects import LABELS, labels
from .base import RuleContext

ID = "known-labels"

#: Short names (after the prefix) of every label the catalog may carry.
KNOWN = frozenset(
    {
        "class", "version", "vendor", "cpu", "memory", "size", "icon-pf",
        "dedicatedCPUPlacement", "isolateEmulatorThread", "numa", "hugepages",
        "realtime", "gpus", "deprecated", "common-instancetypes-version",
        "os-type", "arch", "required-cpu", "required-memory",
        "preferred-architecture", "required-architecture",
    }
)
_INDEX = Index(KNOWN)


def check(docs: Sequence[BundleDoc], ctx: RuleContext) -> Iterator[Problem]:
    for doc in docs:
        for key in labels(doc):
            if not isinstance(key, str) or not key.startswith(LABEL_PREFIX):
                continue
            short = key[len(LABEL_PREFIX):]
            if short in KNOWN:
                continue
            close = nearest(short, _INDEX)
            hint = f" (did you mean {LABEL_PREFIX + close[0]!r}?)" if close else ""
            yield Problem(doc.locate(LABELS + (key,)), f"unknown label {key!r}{hint}", ID)
