"""The GN series' GPU device: what a device name must be, and when GPU series are built.

virt-operator deploys the release bundles on every cluster, most of which have
no GPUs; an instancetype asking for a device no node advertises leaves its VMs
unschedulable. So a series whose instancetypes take their GPUs from the
catalog's ``parameters.gpu`` (the ``gpus`` feature, which GN uses) is built
only when a device is configured: ``--gpu-device``, ``parameters.gpu`` in
catalog.yaml, or an overlay's ``parameters``. Without one the default build is
exactly upstream's object set.

The device is checked where it is written (the option, the catalog.yaml line,
the overlay line) with the same words, so every way of setting it fails alike.
GN is the NVIDIA series; a device of another vendor belongs in a series of the
vendor's own, which names it in ``spec.gpus`` (docs/vendor-guide.md shows one).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..model import Series
from ..objectmeta import qualified_name_errors

#: The GN series asks for NVIDIA devices only.
NVIDIA_PREFIX = "nvidia.com/"
#: How to get a GN build, for the build summary and messages.
HOW_TO_ENABLE = "pass --gpu-device nvidia.com/<model> or set parameters.gpu.deviceName"
#: A GPU count in a file that names no device (catalog.yaml, an overlay).
COUNT_WITHOUT_DEVICE = ("sets how many GPUs each GN instancetype gets, but no GPU device is configured, so GN "
                        "is not built; set parameters.gpu.deviceName (nvidia.com/<model>) too")
#: Where a vendor learns to define a GPU series of their own.
OWN_SERIES = ("for another vendor's GPUs, add a series of your own in an overlay (series.add, with "
              "spec.gpus naming your device; see \"A GPU series of your own\" in docs/vendor-guide.md)")


def extended_resource_problem(device: str) -> str | None:
    """Why ``device`` is not an extended-resource name Kubernetes accepts, or None.

    An extended resource is a qualified name with a domain: a DNS-1123
    subdomain, '/', and a name of at most 63 of [A-Za-z0-9_.-] starting and
    ending alphanumeric. Device plugins advertise GPUs under such names
    (``nvidia.com/A400``); a name without a domain is a native resource and
    can never be a GPU.
    """
    expected = ("expected an extended resource name: a domain such as nvidia.com, '/', and at most 63 "
                "letters, digits, '-', '_' or '.' starting and ending with a letter or digit "
                "(such as nvidia.com/A400)")
    if device == "":
        return f"{expected}, got an empty name"
    if "/" not in device or qualified_name_errors(device):
        return f"{expected}, got {device!r}"
    return None


def device_problem(device: str) -> str | None:
    """Why ``device`` cannot be the GN series' device, or None when it can.

    Only a string gets here: the formats of catalog.yaml and overlays say that a
    device name is one, and an option is read as text.
    """
    problem = extended_resource_problem(device)
    if problem is not None:
        return problem
    if not device.startswith(NVIDIA_PREFIX):
        return (f"{device!r} is not an NVIDIA device: GN is the NVIDIA series and asks for devices "
                f"under {NVIDIA_PREFIX}; {OWN_SERIES}")
    return None


def needs_device(series: Series) -> bool:
    """Whether the series takes its GPUs from parameters.gpu (the ``gpus`` feature)."""
    return bool(series.features.get("gpus")) or any(v.features.get("gpus") for v in series.variants)


def configured(parameters: Mapping[str, Any]) -> bool:
    """Whether the parameters name a GPU device, so that GPU series are built."""
    return bool((parameters.get("gpu") or {}).get("deviceName"))


def left_out(series: Iterable[Series], parameters: Mapping[str, Any]) -> list[Series]:
    """The series a build leaves out because no GPU device is configured."""
    if configured(parameters):
        return []
    return [s for s in series if needs_device(s)]


def series_of(name: str, series: Iterable[Series]) -> Series | None:
    """The series of ``series`` an instancetype name belongs to (``gn1.xlarge``: gn1), or that names it (gn, gn1)."""
    head = name.split(".", 1)[0]
    return next((s for s in series if head in (s.name, s.prefix)), None)


def opt_in_note(name: str, series: Iterable[Series]) -> str | None:
    """Why ``name`` is missing when it belongs to a series left out for want of a GPU device; None otherwise.

    ``series`` are those left out (``left_out``). Every command that meets such a name
    (refs, expand, list, diff, the upgrade report) explains it in these words rather
    than calling the name unknown, suggesting another series' or calling its VMs broken.
    """
    found = series_of(name, series)
    if found is None:
        return None
    return f"{name} belongs to {series_note(found)}" if "." in name else f"{name} is {series_note(found)}"


def series_note(series: Series) -> str:
    """``the GN series, which is built only with a GPU device (...)``: what opt_in_note says of a series."""
    return (f"the {series.prefix.upper()} series, which is built only with a GPU device "
            f"(--gpu-device nvidia.com/<model>, or parameters.gpu.deviceName in the catalog)")


def left_out_note(series: Iterable[Series]) -> str:
    """The build summary's words for series left out, or '' when none were."""
    names = [s.prefix.upper() for s in series]
    if not names:
        return ""
    return f"{', '.join(names)} series left out: no GPU device configured; {HOW_TO_ENABLE}"
