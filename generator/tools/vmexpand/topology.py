"""Guest CPU topology from a preference, and KubeVirt's spread check.

An instancetype gives a number of vCPUs; the preference says how the guest
should see them: all as sockets (the default), cores or threads, or *spread*
over sockets and cores (and threads) by a ratio. A spread the vCPU count cannot
be divided into is refused before anything is applied, with KubeVirt's message.
"""

from __future__ import annotations

from typing import Any, Mapping

from ._tree import get
from .conflicts import ExpandError

SOCKETS, CORES, THREADS, SPREAD, ANY = "sockets", "cores", "threads", "spread", "any"

#: Older spellings KubeVirt still accepts, mapped to what they mean now.
_DEPRECATED = {
    "preferSockets": SOCKETS,
    "preferCores": CORES,
    "preferThreads": THREADS,
    "preferSpread": SPREAD,
    "preferAny": ANY,
}

ACROSS_SOCKETS_CORES = "SocketsCores"
ACROSS_CORES_THREADS = "CoresThreads"
ACROSS_SOCKETS_CORES_THREADS = "SocketsCoresThreads"

DEFAULT_SPREAD_RATIO = 2
THREADS_PER_CORE = 2

#: Where KubeVirt points a spread refusal: the instancetype's vCPU count.
GUEST_PATH = "instancetype.spec.cpu.guest"

_RATIO_NAMES = "Spec.PreferSpreadSocketToCoreRatio or Spec.CPU.PreferSpreadOptions.Ratio"
SPREAD_SOCKETS_CORES_MESSAGE = (
    "{vcpus} vCPUs provided by the instance type are not divisible by the "
    + _RATIO_NAMES
    + " of {ratio} provided by the preference"
)
SPREAD_CORES_THREADS_MESSAGE = (
    "{vcpus} vCPUs provided by the instance type are not divisible by the number of threads per core {ratio}"
)
SPREAD_SOCKETS_CORES_THREADS_MESSAGE = (
    "{vcpus} vCPUs provided by the instance type are not divisible by the number of threads per core "
    "{threads} and " + _RATIO_NAMES + " of {ratio}"
)


def preferred_topology(preference: Mapping[str, Any] | None) -> str:
    """The preference's topology, sockets when it names none, deprecated names normalised."""
    topology = get(preference, "cpu", "preferredCPUTopology") or SOCKETS
    return _DEPRECATED.get(topology, topology)


def spread_options(preference: Mapping[str, Any] | None) -> tuple[int, str]:
    """(ratio, across) for a spread topology, with KubeVirt's defaults and precedence."""
    ratio = get(preference, "preferSpreadSocketToCoreRatio") or DEFAULT_SPREAD_RATIO
    across = get(preference, "cpu", "spreadOptions", "across") or ACROSS_SOCKETS_CORES
    explicit = get(preference, "cpu", "spreadOptions", "ratio")
    if explicit is not None:
        ratio = explicit
    return int(ratio), across


def check_spread(instancetype: Mapping[str, Any] | None, preference: Mapping[str, Any] | None) -> ExpandError | None:
    """Refuse a spread the instancetype's vCPUs cannot be divided into; None when it fits."""
    if instancetype is None or preferred_topology(preference) != SPREAD:
        return None
    vcpus = int(get(instancetype, "cpu", "guest", default=0))
    ratio, across = spread_options(preference)
    message = None
    if across in (ACROSS_SOCKETS_CORES, ACROSS_CORES_THREADS):
        if ratio == 0 or vcpus % ratio:
            template = SPREAD_SOCKETS_CORES_MESSAGE if across == ACROSS_SOCKETS_CORES else SPREAD_CORES_THREADS_MESSAGE
            message = template.format(vcpus=vcpus, ratio=ratio)
    elif across == ACROSS_SOCKETS_CORES_THREADS:
        if vcpus % THREADS_PER_CORE or ratio == 0 or (vcpus // THREADS_PER_CORE) % ratio:
            message = SPREAD_SOCKETS_CORES_THREADS_MESSAGE.format(vcpus=vcpus, threads=THREADS_PER_CORE, ratio=ratio)
    if message is None:
        return None
    return ExpandError(GUEST_PATH, message, "topology")


def guest_topology(vcpus: int, preference: Mapping[str, Any] | None) -> dict[str, int]:
    """Sockets, cores and threads for ``vcpus`` as the preference lays them out.

    Only called once :func:`check_spread` accepted the pair, so the divisions
    below are exact.
    """
    layout = {"sockets": 1, "cores": 1, "threads": 1}
    if vcpus == 1:
        return layout
    topology = preferred_topology(preference)
    if topology == CORES:
        layout["cores"] = vcpus
    elif topology in (SOCKETS, ANY):
        layout["sockets"] = vcpus
    elif topology == THREADS:
        layout["threads"] = vcpus
    elif topology == SPREAD:
        ratio, across = spread_options(preference)
        if across == ACROSS_SOCKETS_CORES:
            layout["cores"], layout["sockets"] = ratio, vcpus // ratio
        elif across == ACROSS_CORES_THREADS:
            layout["threads"], layout["cores"] = ratio, vcpus // ratio
        elif across == ACROSS_SOCKETS_CORES_THREADS:
            layout["threads"], layout["cores"] = THREADS_PER_CORE, ratio
            layout["sockets"] = vcpus // THREADS_PER_CORE // ratio
    return layout
