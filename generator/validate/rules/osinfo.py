"""Each preference agrees with libosinfo's database about its OS.

A preference of a catalog that names its OS (``osinfo:`` in its family file,
docs/catalog-format.md) is judged against what libosinfo's database says of
every release it stands for, on the preference's architecture
(``spec.preferredArchitecture``, else ``spec.requirements.architecture``; amd64
is osinfo's x86_64, arm64 its aarch64; none means amd64):

- ``spec.requirements`` below the OS's minimum vCPUs or memory: an error
  (checks ``min-cpu``, ``min-memory``); below what it recommends: a warning
  (``rec-cpu``, ``rec-memory``). A requirement left out is not judged.
- a firmware the OS does not boot: UEFI (``spec.firmware.preferredEfi``) or
  Secure Boot for an OS without it, BIOS for one that boots only with UEFI: an
  error (``efi``, ``secure-boot``, ``bios``). Where the database does not say,
  nothing is found.
- a virtio device preferred for an OS the database lists devices for, none of
  them that device: a warning (``virtio-disk``, ``virtio-net``, ``virtio-rng``,
  ``virtio-input``, ``virtio-gpu``, ``virtio-scsi``), since osinfo's device lists
  are known to trail the drivers. A kind of device no OS of the database lists
  is not judged.

A difference the catalog means is accepted in its data, with the reason beside
it (``osinfo: {accept: {rec-memory: "..."}}``), and then not reported. The names
the data gives are checked too: an OS or line the database does not know is an
error naming the nearest short-ids, or a warning when it is newer than the
database (``rhel10`` in a database whose newest RHEL is 9.1).

The rule runs only where a database was found (``--osinfo-db``, then libosinfo's
folders) and on a catalog's own preferences (``citgen validate`` without FILEs,
``citgen build``): a file of objects carries no claims. Each preference is judged
once, as its cluster-wide kind (twins-identical holds its namespaced twin to it).

Example::

    common-instancetypes-all-bundle.yaml: error: VirtualMachineClusterPreference rhel.9.arm64 (document 94) $.spec.requirements.memory.guest: requires 1536Mi of memory, less than the 2Gi rhel9.0 needs at least on aarch64 (osinfo database 20221203); raise it, or accept min-memory with the reason under osinfo (defined in preferences/rhel.yaml:56) [osinfo]
    preferences/rhel.yaml:14:32: error: preferences.rhel.7.osinfo.os[0]: libosinfo OS 'rhel7.10' is no OS of the osinfo database 20221203; did you mean rhel7.0, rhel7.1, rhel5.10? [osinfo]
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Iterator, Optional, Sequence

from ...model import PREFERENCE_KINDS
from ...osinfo.checks import CHECKS
from ...problems import WARNING, Problem
from ...source.documents import BundleDoc
from ._objects import count, dig, family, quantity, show_bytes
from .base import RuleContext

if TYPE_CHECKING:  # the database's model and claims: imported where a database judges (check), not by every build
    from ...osinfo.claims import OsinfoContext
    from ...osinfo.model import OsRelease

ID = "osinfo"

#: KubeVirt's architecture names as osinfo writes them.
ARCHES = {"amd64": "x86_64", "arm64": "aarch64", "s390x": "s390x", "ppc64le": "ppc64le"}
DEFAULT_ARCH = "amd64"

#: What a preference's devices prefer, as (JSON path, the value that asks for it or None for any), by check.
DEVICES: dict[str, tuple[tuple[str, ...], Optional[str]]] = {
    "virtio-disk": (("spec", "devices", "preferredDiskBus"), "virtio"),
    "virtio-scsi": (("spec", "devices", "preferredDiskBus"), "scsi"),
    "virtio-net": (("spec", "devices", "preferredInterfaceModel"), "virtio"),
    "virtio-rng": (("spec", "devices", "preferredRng"), None),
    "virtio-input": (("spec", "devices", "preferredInputBus"), "virtio"),
    "virtio-gpu": (("spec", "devices", "preferredVideoType"), "virtio"),
}
_CPU = ("spec", "requirements", "cpu", "guest")
_MEMORY = ("spec", "requirements", "memory", "guest")
_EFI = ("spec", "firmware", "preferredEfi")


def _arch(doc: BundleDoc) -> str:
    spec = doc.data.get("spec") if isinstance(doc.data.get("spec"), dict) else {}
    named = spec.get("preferredArchitecture") or dig(spec, "requirements", "architecture") or DEFAULT_ARCH
    return ARCHES.get(named, named) if isinstance(named, str) else ARCHES[DEFAULT_ARCH]


def _database_name(ctx: OsinfoContext) -> str:
    return f"osinfo database {ctx.database.version}"


def _advice(check: str) -> str:
    return f"or accept {check} with the reason under osinfo"


def _resources(doc: BundleDoc, oses: Sequence[OsRelease], arch: str, accepted: frozenset[str],
               ctx: OsinfoContext) -> Iterator[Problem]:
    """Requirements below the minimum (errors) or the recommendation (warnings) of the most demanding release."""
    cpu = count(dig(doc.data, *_CPU))
    memory = quantity(dig(doc.data, *_MEMORY))
    for level, check_cpu, check_memory, wording, severity in (
            ("minimum", "min-cpu", "min-memory", "needs at least", "error"),
            ("recommended", "rec-cpu", "rec-memory", "recommends", WARNING)):
        wanted = [(getattr(os, level)(arch), os) for os in oses]
        most_cpu = max(((v[0], os) for v, os in wanted if v[0] is not None), default=None, key=lambda p: p[0])
        most_memory = max(((v[1], os) for v, os in wanted if v[1] is not None), default=None, key=lambda p: p[0])
        if cpu is not None and most_cpu is not None and cpu < most_cpu[0] and check_cpu not in accepted:
            needed, os = most_cpu
            yield Problem(doc.locate(_CPU), f"requires {cpu} vCPU{'s' if cpu != 1 else ''}, fewer than the "
                          f"{needed} {os.short_id} {wording} on {arch} ({_database_name(ctx)}); raise it, "
                          f"{_advice(check_cpu)}", ID, severity=severity)
        if memory is not None and most_memory is not None and memory < most_memory[0] and \
                check_memory not in accepted:
            needed, os = most_memory
            yield Problem(doc.locate(_MEMORY), f"requires {show_bytes(memory)} of memory, less than the "
                          f"{show_bytes(Fraction(needed))} {os.short_id} {wording} on {arch} "
                          f"({_database_name(ctx)}); raise it, {_advice(check_memory)}", ID, severity=severity)


def _firmware(doc: BundleDoc, oses: Sequence[OsRelease], arch: str, accepted: frozenset[str],
              ctx: OsinfoContext) -> Iterator[Problem]:
    """A firmware the database says a release does not boot with."""
    efi = dig(doc.data, *_EFI)
    asked = ["efi", "secure-boot"] if isinstance(efi, dict) and efi.get("secureBoot") is True else \
        ["efi"] if efi is not None else ["bios"]
    for kind in asked:
        refusing = [os.short_id for os in oses if os.supports_firmware(arch, kind) is False]
        if refusing and kind not in accepted:
            what = {"efi": "UEFI", "secure-boot": "Secure Boot", "bios": "BIOS (no preferredEfi)"}[kind]
            where = doc.locate(_EFI if efi is not None else ("spec",))
            yield Problem(where, f"prefers {what}, which {', '.join(refusing)} on {arch} does not boot with "
                          f"({_database_name(ctx)}); change the firmware, {_advice(kind)}", ID)


def _known_kinds(ctx: OsinfoContext) -> frozenset[str]:
    """The kinds of device at least one OS of the database lists: only those can be judged."""
    from ...osinfo.model import DRIVERS

    listed = frozenset().union(*(os.devices | os.installable_devices for os in ctx.database.oses))
    return frozenset(kind for kind, ids in DRIVERS.items() if ids & listed)


def _devices(doc: BundleDoc, oses: Sequence[OsRelease], accepted: frozenset[str], known: frozenset[str],
             ctx: OsinfoContext) -> Iterator[Problem]:
    """A virtio device preferred for a release whose listed devices hold none of its kind."""
    from ...osinfo.model import DRIVERS

    for check, (path, value) in DEVICES.items():
        found = dig(doc.data, *path)
        if found is None or (value is not None and found != value) or check in accepted:
            continue
        kind = check if check in DRIVERS else None
        if kind is None or kind not in known:
            continue
        lacking = [os.short_id for os in oses if os.has_driver(kind) is False]
        if lacking:
            yield Problem(doc.locate(path), f"prefers {check.replace('-', ' ')}, which the "
                          f"{_database_name(ctx)} lists no driver for in {', '.join(lacking)}; change the device, "
                          f"{_advice(check)}", ID, severity=WARNING)


def check(docs: Sequence[BundleDoc], ctx: RuleContext) -> Iterator[Problem]:
    osinfo = ctx.osinfo
    if osinfo is None:
        return
    from ...osinfo.claims import name_problems, releases

    yield from name_problems(osinfo.claims.values(), osinfo.database)
    known = _known_kinds(osinfo)
    clustered = {doc.name for doc in docs if doc.kind == PREFERENCE_KINDS[0]}
    for doc in docs:
        claim = osinfo.claims.get(doc.name) if family(doc) == "preference" else None
        if claim is None or (doc.kind != PREFERENCE_KINDS[0] and doc.name in clustered):
            continue
        oses = releases(claim, osinfo.database)
        if not oses:
            continue
        accepted = frozenset(claim.accepted) & frozenset(CHECKS)
        arch = _arch(doc)
        yield from _resources(doc, oses, arch, accepted, osinfo)
        yield from _firmware(doc, oses, arch, accepted, osinfo)
        yield from _devices(doc, oses, accepted, known, osinfo)
