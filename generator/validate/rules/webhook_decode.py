"""Every number fits the Go type KubeVirt's webhook decodes it into.

The CRD schemas call each count an integer (`format: int32` at most, which the API
server does not enforce), but virt-api's admission webhook decodes every object into
KubeVirt's Go structs, and Go's JSON decoder refuses a number its field cannot hold:
a negative vCPU count or spinlock count (uint32), or one above 4294967295. Such an
object is stored by no API server with KubeVirt installed. The webhook decodes
instancetypes at every release and preferences from v1.3 on (before, it left a
preference's spec unread), into the structs of its release: a field the release does
not have is skipped (the schema check refuses it). A number is judged as the API
server hands it on: beyond int64 it is a float, `2**64 - 1` arrives as `2**64`. Go
stops at the first field it cannot decode and then checks nothing else, so the other
webhook rules say nothing of such an object; citgen names every field that fails. A
value of the wrong type (`1.5`, `"2"`) is the schema check's to report.

Example::

    bundle.yaml#3 (u1.large) $.spec.cpu.guest: KubeVirt v1.8 refuses it: json: cannot unmarshal number -1 into Go struct field CPUInstancetype.spec.cpu.guest of type uint32 [webhook-decode]
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Iterator, Mapping, Sequence

from ...problems import Path, Problem
from ...schemas import has_field
from ...schemas.releases import Release
from ...source.documents import BundleDoc
from ._objects import dig, family
from ._webhook import refusal
from .base import RuleContext

#: A rule of virt-api's admission webhook: what it says is KubeVirt's, dated by release (_webhook.py).
ADMISSION = True
ID = "webhook-decode"

#: The range of each Go integer type KubeVirt's specs use (int and uint are 64 bits
#: on every architecture KubeVirt is built for).
GO_RANGES: Mapping[str, tuple[int, int]] = {
    "uint32": (0, 2**32 - 1),
    "uint": (0, 2**64 - 1),
    "int": (-(2**63), 2**63 - 1),
    "int64": (-(2**63), 2**63 - 1),
}

#: Every integer field of the v1beta1 specs: the Go struct that holds it and its Go type
#: (staging/src/kubevirt.io/api/instancetype/v1beta1/types.go and the core v1 types it
#: embeds; no field changed its type from v1.0 to v1.9).
FIELDS: Mapping[str, Mapping[Path, tuple[str, str]]] = {
    "instancetype": {
        ("spec", "cpu", "guest"): ("CPUInstancetype", "uint32"),
        ("spec", "cpu", "maxSockets"): ("CPUInstancetype", "uint32"),
        ("spec", "memory", "overcommitPercent"): ("MemoryInstancetype", "int"),
        ("spec", "ioThreads", "supplementalPoolThreadCount"): ("DiskIOThreads", "uint32"),
    },
    "preference": {
        ("spec", "preferSpreadSocketToCoreRatio"): ("VirtualMachinePreferenceSpec", "uint32"),
        ("spec", "cpu", "spreadOptions", "ratio"): ("SpreadOptions", "uint32"),
        ("spec", "requirements", "cpu", "guest"): ("CPUPreferenceRequirement", "uint32"),
        ("spec", "preferredTerminationGracePeriodSeconds"): ("VirtualMachinePreferenceSpec", "int64"),
        ("spec", "features", "preferredHyperv", "spinlocks", "spinlocks"): ("FeatureSpinlocks", "uint32"),
        ("spec", "clock", "preferredClockOffset", "utc", "offsetSeconds"): ("ClockOffsetUTC", "int"),
        ("spec", "devices", "preferredDiskBlockSize", "custom", "logical"): ("CustomBlockSize", "uint"),
        ("spec", "devices", "preferredDiskBlockSize", "custom", "physical"): ("CustomBlockSize", "uint"),
        ("spec", "devices", "preferredDiskBlockSize", "custom", "discardGranularity"): ("CustomBlockSize", "uint"),
    },
}

#: The first release whose webhook decodes each family's objects.
DECODED_SINCE = {"instancetype": Release(1, 0), "preference": Release(1, 3)}
_INT64 = GO_RANGES["int64"]


def _sent(value: int | float) -> int | float:
    """The number the webhook receives: the API server reads a JSON number as an int64
    when it is one and as a float64 otherwise, and writes that again for the webhook."""
    if isinstance(value, int) and _INT64[0] <= value <= _INT64[1]:
        return value
    return float(value)


def as_sent(value: int | float) -> str:
    """The number as the API server passes it on to the webhook, and Go's error quotes it.

    ``-1`` stays ``-1``; ``3.0`` becomes ``3``; ``2**63``, no int64, becomes the float
    written in its shortest digits, ``9223372036854776000``, and so does
    ``-(2**63) - 1`` (``-9223372036854776000``).
    """
    sent = _sent(value)
    if isinstance(sent, int):
        return str(sent)
    if abs(sent) < 1e21:  # Go writes floats below 1e21 without an exponent, in their shortest digits
        return format(Decimal(repr(sent)).normalize(), "f")
    return repr(sent)  # 1e+21: Go's and Python's shortest forms agree


def _has_field(kind: str, path: Path, release: Release) -> bool:
    try:
        return has_field(kind, path, release)
    except KeyError:  # not a kind of the release's CRDs
        return False


def _whole(value: Any) -> bool:
    """A number the schema lets through as an integer: an int, or a float of integral value."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def check(docs: Sequence[BundleDoc], ctx: RuleContext) -> Iterator[Problem]:
    release = ctx.kubevirt
    for doc in docs:
        kind = family(doc)
        if kind is None or release < DECODED_SINCE[kind] or not isinstance(doc.kind, str):
            continue
        for path, (struct, go_type) in FIELDS[kind].items():
            value = dig(doc.data, *path)
            low, high = GO_RANGES[go_type]
            if type(value) is int and _INT64[0] <= value <= _INT64[1] and low <= value <= high:
                continue  # sent as written, and it fits: nearly every number, told at once
            if not _whole(value) or not _has_field(doc.kind, path, release):
                continue  # Go's decoder skips a field its release's structs do not have
            if low <= int(Decimal(as_sent(value))) <= high:  # Go reads the digits the API server wrote
                continue
            field = ".".join(path)
            yield refusal(doc, path, release, f"json: cannot unmarshal number {as_sent(value)} into Go struct "
                                              f"field {struct}.{field} of type {go_type}", ID)
