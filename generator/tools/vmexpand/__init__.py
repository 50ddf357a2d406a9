"""Expanding a VirtualMachine with an instancetype and a preference, as KubeVirt does.

The steps and their order are KubeVirt's, so a VM this accepts is one a cluster
accepts and the printed result is what ``virtctl expand`` prints:

1. mutate: architecture, machine type, a disk per volume, the default network
   (:mod:`.mutate`);
2. refuse a spread CPU topology the instancetype's vCPUs cannot be divided into
   (:mod:`.topology`);
3. write the instancetype into the VM; any field both set is a conflict
   (:mod:`.instancetype`);
4. fill what the VM leaves unset from the preference (:mod:`.preference`);
5. check the preference's requirements (:mod:`.requirements`);
6. drop the matchers, so the result can be applied as it is.

Everything works on plain dicts; the caller's objects are never changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...frozen import frozen
from ...model import INSTANCETYPE_KINDS, PREFERENCE_KINDS
from ...quantity import QuantityError
from ._tree import get, path, tree_copy
from .conflicts import ExpandError
from .instancetype import apply_instancetype
from .mutate import DEFAULT_ARCHITECTURE, DEFAULT_NETWORK_INTERFACE, UnsupportedArchitecture, mutate
from .preference import apply_preference
from .requirements import check as check_requirements
from .topology import check_spread

__all__ = [
    "ExpandError",
    "ExpandResult",
    "MatcherError",
    "UnusableInput",
    "expand",
    "expand_with",
    "resolve",
]


class UnusableInput(ValueError):
    """The VM, instancetype or preference cannot be expanded as written (not a KubeVirt mistake)."""


class MatcherError(UnusableInput):
    """A VM's instancetype or preference matcher names nothing in the given documents."""

    def __init__(self, which: str, message: str):
        super().__init__(message)
        self.which = which  # "instancetype" or "preference": the matcher at fault


@frozen
class ExpandResult:
    """Either the expanded VirtualMachine or KubeVirt's reasons for refusing it."""

    vm: dict | None
    errors: tuple[ExpandError, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def error(self) -> str | None:
        """The first refusal's message, as the cross-product check reports one per pair."""
        return self.errors[0].message if self.errors else None


def _spec_of(obj: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """Accept either a whole object or just its spec; an absent one stays None."""
    if obj is None:
        return None
    if not isinstance(obj, Mapping):
        raise UnusableInput(f"expected a mapping, got {type(obj).__name__}")
    spec = obj.get("spec") if "kind" in obj else obj
    if not isinstance(spec, Mapping):
        raise UnusableInput(f"{obj.get('kind', 'object')} has no spec mapping")
    return spec


def _refuse(errors: Iterable[ExpandError]) -> ExpandResult:
    return ExpandResult(None, tuple(errors))


def _drop_empty_metadata(template: dict) -> None:
    """Leave out the empty annotations and metadata that applying created, as Go's omitempty does."""
    metadata = template.get("metadata")
    if isinstance(metadata, dict) and metadata.get("annotations") == {}:
        del metadata["annotations"]
    if metadata == {}:
        del template["metadata"]


def expand(
    vm: Mapping[str, Any],
    instancetype: Mapping[str, Any] | None,
    preference: Mapping[str, Any] | None,
    *,
    arch: str = DEFAULT_ARCHITECTURE,
    network_interface: str = DEFAULT_NETWORK_INTERFACE,
) -> ExpandResult:
    """Expand ``vm`` with the given instancetype and preference (objects or bare specs).

    ``arch`` is the cluster's default architecture, used when neither the VM nor
    the preference names one. Raises :class:`UnusableInput` for input KubeVirt's
    schema would reject before expansion (no template, a bad quantity).
    """
    if not isinstance(vm, Mapping) or not isinstance(vm.get("spec"), Mapping):
        raise UnusableInput("the VirtualMachine has no spec")
    if not isinstance(get(vm, "spec", "template"), Mapping):
        raise UnusableInput("the VirtualMachine has no spec.template")
    it_spec = _spec_of(instancetype)
    pref_spec = _spec_of(preference)

    expanded = tree_copy(vm)
    template = path(expanded, "spec", "template")
    vmi_spec = path(template, "spec")
    metadata = path(template, "metadata")
    try:
        mutate(vmi_spec, pref_spec, arch=arch, network_interface=network_interface)
        spread = check_spread(it_spec, pref_spec)
        if spread is not None:
            return _refuse([spread])
        if it_spec is not None:
            conflicts = apply_instancetype(it_spec, pref_spec, vmi_spec, metadata)
            if conflicts:
                return _refuse(conflicts)
        apply_preference(pref_spec, vmi_spec, metadata)
        unmet = check_requirements(it_spec, pref_spec, vmi_spec)
    except (QuantityError, UnsupportedArchitecture) as exc:
        raise UnusableInput(str(exc)) from None
    except (TypeError, ValueError, AttributeError) as exc:
        raise UnusableInput(f"cannot expand: a value has the wrong type ({exc})") from None
    if unmet is not None:
        return _refuse([unmet])

    _drop_empty_metadata(template)
    expanded["spec"].pop("instancetype", None)
    expanded["spec"].pop("preference", None)
    return ExpandResult(expanded)


# -- resolving matchers -------------------------------------------------------------------

#: Matcher kinds KubeVirt accepts (compared lower-case), and the object kind each finds.
_INSTANCETYPE_MATCHER_KINDS = {
    "": INSTANCETYPE_KINDS[0],
    "virtualmachineclusterinstancetype": INSTANCETYPE_KINDS[0],
    "virtualmachineclusterinstancetypes": INSTANCETYPE_KINDS[0],
    "virtualmachineinstancetype": INSTANCETYPE_KINDS[1],
    "virtualmachineinstancetypes": INSTANCETYPE_KINDS[1],
}
_PREFERENCE_MATCHER_KINDS = {
    "": PREFERENCE_KINDS[0],
    "virtualmachineclusterpreference": PREFERENCE_KINDS[0],
    "virtualmachineclusterpreferences": PREFERENCE_KINDS[0],
    "virtualmachinepreference": PREFERENCE_KINDS[1],
    "virtualmachinepreferences": PREFERENCE_KINDS[1],
}


def _find(matcher: Any, which: str, kinds: Mapping[str, str], objects: Iterable[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    if matcher is None:
        return None
    if not isinstance(matcher, Mapping):
        raise MatcherError(which, f"spec.{which} must be a mapping")
    if matcher.get("inferFromVolume"):
        raise MatcherError(which, f"spec.{which}.inferFromVolume needs the cluster's volumes; name the {which} instead")
    name = matcher.get("name")
    if not name:
        raise MatcherError(which, f"spec.{which}.name is required")
    matcher_kind = str(matcher.get("kind") or "")
    kind = kinds.get(matcher_kind.lower())
    if kind is None:
        label = "InstancetypeMatcher" if which == "instancetype" else "PreferenceMatcher"
        raise MatcherError(which, f"got unexpected kind in {label}: {matcher_kind}")
    for obj in objects:
        meta = obj.get("metadata") if isinstance(obj, Mapping) else None
        if isinstance(obj, Mapping) and obj.get("kind") == kind and isinstance(meta, Mapping) and meta.get("name") == name:
            return obj
    raise MatcherError(which, f'{kind} "{name}" not found')


def resolve(vm: Mapping[str, Any], objects: Iterable[Mapping[str, Any]]) -> tuple[Mapping[str, Any] | None, Mapping[str, Any] | None]:
    """The instancetype and preference objects ``vm``'s matchers name, looked up in ``objects``.

    A matcher without a kind means the cluster-wide kind, as KubeVirt's defaults do.
    """
    objects = list(objects)
    spec = vm.get("spec") if isinstance(vm, Mapping) else None
    if not isinstance(spec, Mapping):
        raise UnusableInput("the VirtualMachine has no spec")
    instancetype = _find(spec.get("instancetype"), "instancetype", _INSTANCETYPE_MATCHER_KINDS, objects)
    preference = _find(spec.get("preference"), "preference", _PREFERENCE_MATCHER_KINDS, objects)
    return instancetype, preference


def expand_with(
    vm: Mapping[str, Any],
    objects: Iterable[Mapping[str, Any]],
    *,
    arch: str = DEFAULT_ARCHITECTURE,
) -> ExpandResult:
    """Resolve ``vm``'s matchers against ``objects`` (bundle documents' data) and expand it."""
    instancetype, preference = resolve(vm, objects)
    return expand(vm, instancetype, preference, arch=arch)
