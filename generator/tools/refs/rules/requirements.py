"""A VirtualMachine's instancetype does not meet its preference's requirements (``spec.requirements``).

An object naming both an instancetype and a preference (a VirtualMachine's
matchers, a DataSource's inference labels) is refused by KubeVirt when the
instancetype offers fewer vCPUs or less memory than the preference requires. The
check is the one ``citgen expand`` and ``citgen validate --matrix`` apply
(tools/vmexpand/requirements.py), with KubeVirt's words; the required
architecture is the VirtualMachine's to meet, not the instancetype's, and is left
to ``citgen expand``. Objects defined in the manifests themselves are not sized
here.

Example::

    vm.yaml:8:11: spec.instancetype.name: VirtualMachine win names instancetype 'u1.small' and preference 'windows.11', which KubeVirt refuses together: insufficient CPU resources of 1 vCPU provided by instance type, preference requires 2 vCPU [requirements]
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping, Sequence

from ....problems import Problem
from ....quantity import QuantityError
from ...vmexpand.requirements import check as unmet
from ..target import Resolution
from .base import JudgeContext, names, quoted

ID = "requirements"

#: The requirements an instancetype meets or not; the architecture is the VirtualMachine's.
OF_INSTANCETYPE = ("cpu", "memory")


def _spec(obj: Mapping[str, Any]) -> Mapping[str, Any] | None:
    spec = obj.get("spec")
    return spec if isinstance(spec, Mapping) else None


def check(resolutions: Sequence[Resolution], ctx: JudgeContext) -> Iterator[Problem]:
    owners: dict[str, dict[str, list[Resolution]]] = {}
    for one in resolutions:
        if one.found is not None:
            owners.setdefault(one.reference.owner.key, {}).setdefault(one.reference.family, []).append(one)
    said: set[tuple[str, object, str]] = set()
    for families in owners.values():
        for instancetype in families.get("instancetype", ()):
            for preference in families.get("preference", ()):
                it_spec, pref_spec = _spec(instancetype.found or {}), _spec(preference.found or {})
                if it_spec is None or pref_spec is None:
                    continue
                try:
                    error = unmet(it_spec, pref_spec, {})
                except (QuantityError, TypeError, ValueError):
                    continue  # a bundle's malformed object: validate's to report
                if error is None or error.reason not in OF_INSTANCETYPE:
                    continue
                reference, preferred = instancetype.reference, str(preference.reference.name)  # found: named
                key = (reference.owner.key, reference.location, preferred)  # one place holds one name
                if key in said:
                    continue
                said.add(key)
                yield Problem(reference.location, (
                    f"{names(reference)} and preference {quoted(preferred)}, which KubeVirt refuses together: "
                    f"{error.message}"), ID)
