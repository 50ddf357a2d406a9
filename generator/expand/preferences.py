"""Preferences expanded: each definition, its basedOn chain and its family's defaults composed with
its traits into one catalog object.

Loading (load/preferences.py) reads what the files say; this step decides what each
preference becomes from the model. ``build_preferences`` runs both and reports every
problem of the run in one InputError.

Labels are derived from the composed spec (architecture, minimum vCPUs and
memory) rather than written beside it, so a label can never disagree with the
spec it describes. Each object carries the overlay lines that changed the
preference, one it is based on or a trait it uses (model.Change), so that
validation can point a problem on it at them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from ..errors import InputError
from ..frozen import frozen
from ..load.preferences import read_preference_catalog
from ..load.traits import suggest
from ..merge import dig
from ..model import (CatalogObject, Family, PreferenceCatalog, PreferenceDef, Requirements, label, lines_of,
                     preference_deprecation)
from ..objectmeta import label_value_problem
from ..problems import Location, Problem
from ..quantity import QuantityError, parse
from .lifecycle import deprecation_annotations
from .traits import Layer, compose, trait_layers

PROVIDER_KEYS = ("displayName", "documentationURL", "supportURL")
OS_ANNOTATION = "vm.kubevirt.io/os"
DESCRIPTION = "instancetype.kubevirt.io/description"


def _chain(pref: PreferenceDef, catalog: PreferenceCatalog, problems: list[Problem]) -> list[PreferenceDef] | None:
    """The preference and the ones it is based on, root first; None when the chain is broken."""
    chain = [pref]
    while chain[0].based_on is not None:
        current = chain[0]
        base = catalog.preferences.get(current.based_on)
        where = current.based_on_location or current.location
        siblings = [n for n, p in catalog.preferences.items() if p.family == current.family]
        if base is None or base.family != current.family:
            problems.append(Problem(where, f"basedOn names {current.based_on!r}, which is not a preference of "
                                    f"this file{suggest(current.based_on, siblings)}"))
            return None
        if base in chain:
            loop = chain[:chain.index(base) + 1]
            cycle = " -> ".join([current.name] + [p.name for p in reversed(loop)])
            problems.append(Problem(where, f"basedOn goes round in a circle: {cycle}"))
            return None
        chain.insert(0, base)
    return chain


def _inherited(chain: list[PreferenceDef], attribute: str) -> Any:
    for pref in reversed(chain):
        value = getattr(pref, attribute)
        if value is not None:
            return value
    return None


def _layers(pref: PreferenceDef, chain: list[PreferenceDef], family: Family, os_type: str,
            catalog: PreferenceCatalog, problems: list[Problem]) -> list[Layer]:
    os_location = next((p.os_type_location for p in reversed(chain) if p.os_type is not None),
                       family.os_type_location) or pref.location
    # the first layer: nothing comes before it to conflict with, so it needs no advice of its own
    layers = [Layer("osType", {"annotations": {OS_ANNOTATION: os_type}}, os_location)]
    refs = list(family.traits) + [ref for p in chain for ref in p.traits]
    found_layers, found = trait_layers(refs, catalog.traits)
    layers += found_layers
    problems += found
    requirements = Requirements()
    for p in chain:
        requirements = p.requirements.over(requirements)
    if requirements.spec():
        layers.append(Layer(f"the requirements of {pref.name!r}", requirements.spec(),
                            requirements.location or pref.location,
                            fix="set the value under overrideSpec instead"))
    for p in chain:
        if p.spec:
            layers.append(Layer(f"the spec of {p.name!r}", p.spec, p.spec_location or p.location,
                                fix="move it under overrideSpec"))
    for p in chain:  # an empty overrideSpec is a layer too: it replaces nothing, which is refused
        if p.override_spec is not None:
            layers.append(Layer(f"the overrideSpec of {p.name!r}", p.override_spec,
                                p.override_spec_location or p.location, override=True,
                                stale="changes no value an earlier layer set, and an overrideSpec must "
                                "replace one; move what it sets under spec, or remove it"))
    return layers


def _label_problems(pref: PreferenceDef, labels: Mapping[str, str]) -> list[Problem]:
    found = ((key, label_value_problem(value)) for key, value in labels.items())
    return [Problem(pref.location, f"label {key}: {problem}") for key, problem in found if problem]


@frozen
class _Identity:
    """What a preference inherits along its basedOn chain, or from its family, before composing."""

    os_type: str
    icon: str
    display_name: str


def _family_and_chain(pref: PreferenceDef, catalog: PreferenceCatalog,
                      problems: list[Problem]) -> tuple[Family, list[PreferenceDef]] | None:
    """The preference's family and basedOn chain, root first; None (with problems) when either is missing."""
    family = catalog.families.get(pref.family)
    if family is None:  # only an overlay can get here: files always bring their family
        problems.append(Problem(pref.location, f"preference {pref.name!r} names family {pref.family!r}, "
                                "which the catalog does not have"))
        return None
    chain = _chain(pref, catalog, problems)
    if chain is None:
        problems += trait_layers(pref.traits, catalog.traits)[1]  # still say which names are unknown
        return None
    return family, chain


def _identity(pref: PreferenceDef, chain: list[PreferenceDef], family: Family,
              problems: list[Problem]) -> _Identity | None:
    """osType, iconClass and displayName as inherited; None (with a problem for each) when one is unset."""
    os_type = _inherited(chain, "os_type") or family.os_type
    icon = _inherited(chain, "icon_class") or family.icon_class
    display_name = _inherited(chain, "display_name")
    missing = [(what, where) for what, value, where in (
        ("osType", os_type, "the preference, a preference it is based on, or the family"),
        ("iconClass", icon, "the preference, a preference it is based on, or the family"),
        ("displayName", display_name, "the preference or a preference it is based on"),
    ) if value is None]
    for what, where in missing:
        problems.append(Problem(pref.location, f"preference {pref.name!r} has no {what}; set it on {where}"))
    return None if missing else _Identity(os_type, icon, display_name)


def _tags(chain: list[PreferenceDef], family: Family, catalog: PreferenceCatalog) -> list[str]:
    """The inherited tags, then each trait's tags not already there, in the order the traits apply."""
    tags = list(_inherited(chain, "tags") or family.tags or ())
    for ref in list(family.traits) + [r for p in chain for r in p.traits]:
        trait = catalog.traits.get(ref.name)
        if trait is not None:
            tags += [t for t in trait.tags if t not in tags]
    return tags


def _shaped_by(chain: list[PreferenceDef], family: Family, catalog: PreferenceCatalog) -> tuple:
    """The overlay lines that changed the preference, a preference it is based on, or a trait it uses."""
    traits = [r.name for r in list(family.traits) + [r for p in chain for r in p.traits] if r.name in catalog.traits]
    return lines_of(catalog.changes, *(("preference", p.name) for p in chain), *(("trait", t) for t in traits))


def _spec_labels(spec: Mapping[str, Any], deprecated: bool) -> tuple[dict[str, str], str | None]:
    """The labels read off the composed spec, and the architecture they name (preferred over required)."""
    cpu = dig(spec, "requirements", "cpu", "guest")
    memory = dig(spec, "requirements", "memory", "guest")
    preferred_arch = spec.get("preferredArchitecture")
    required_arch = dig(spec, "requirements", "architecture")
    labels: dict[str, str] = {label("os-type"): str(dig(spec, "annotations", OS_ANNOTATION))}
    if cpu is not None:
        labels[label("required-cpu")] = str(cpu)
    if memory is not None:
        labels[label("required-memory")] = str(memory)
    if preferred_arch is not None:
        labels[label("preferred-architecture")] = str(preferred_arch)
    if required_arch is not None:
        labels[label("required-architecture")] = str(required_arch)
    arch = preferred_arch if preferred_arch is not None else required_arch
    if arch is not None:
        labels[label("arch")] = str(arch)
    if deprecated:
        labels[label("deprecated")] = "true"
    return labels, arch


def _memory_bytes(pref: PreferenceDef, memory: Any, problems: list[Problem]) -> int | None:
    """The required guest memory in bytes, for queries and the fit checks; None when unset or unreadable."""
    if memory is None:
        return None
    try:
        return int(parse(memory))
    except QuantityError as exc:
        problems.append(Problem(pref.location, f"spec.requirements.memory.guest: {exc}"))
        return None


def _annotations(pref: PreferenceDef, identity: _Identity, tags: list[str],
                 provider: Mapping[str, str]) -> dict[str, str]:
    return {
        "iconClass": identity.icon,
        "openshift.io/display-name": identity.display_name,
        "openshift.io/provider-display-name": provider["displayName"],
        "openshift.io/documentation-url": provider["documentationURL"],
        "openshift.io/support-url": provider["supportURL"],
        "tags": ",".join(tags),
        DESCRIPTION: pref.description,
    }


def _expand_one(pref: PreferenceDef, catalog: PreferenceCatalog, provider: Mapping[str, str],
                problems: list[Problem]) -> CatalogObject | None:
    """One preference composed from its family, its chain, its traits and its own fields."""
    found = _family_and_chain(pref, catalog, problems)
    if found is None:
        return None
    family, chain = found
    identity = _identity(pref, chain, family, problems)
    if identity is None:
        return None
    defaults = Layer(f"the requirements of family {family.name!r}", family.requirements.spec(),
                     family.requirements.location or family.location)
    composition = compose(_layers(pref, chain, family, identity.os_type, catalog, problems), defaults)
    problems += composition.problems
    spec = composition.spec
    deprecation = preference_deprecation(pref, family)
    labels, arch = _spec_labels(spec, deprecation is not None)
    problems += _label_problems(pref, labels)
    cpu = dig(spec, "requirements", "cpu", "guest")
    memory = _memory_bytes(pref, dig(spec, "requirements", "memory", "guest"), problems)
    return CatalogObject(
        family="preference",
        name=pref.name,
        group=family.name,
        labels=dict(sorted(labels.items())),
        annotations=dict(sorted({**_annotations(pref, identity, _tags(chain, family, catalog), provider),
                                 **deprecation_annotations(deprecation)}.items())),
        spec=spec,
        location=pref.location,
        facts={"displayName": identity.display_name, "cpu": cpu, "memory": memory,
               "architecture": arch, "osType": identity.os_type,
               "essential": _essential_fields(chain, family, catalog),
               **_osinfo_facts(chain, family)},
        shaped_by=_shaped_by(chain, family, catalog),
    )


def _osinfo_facts(chain: list[PreferenceDef], family: Family) -> dict[str, Any]:
    """The OS the preference is for: its own ``osinfo``, over the ones it is based on, over its family's.

    ``osinfo`` holds the short-ids the data names (tables, pages), ``osinfoClaim`` the whole
    claim (the osinfo rule); a preference without one has neither.
    """
    claim = family.osinfo
    for pref in chain:
        if pref.osinfo is not None:
            claim = pref.osinfo.over(claim)
    return {} if claim is None or not claim.names_os else {"osinfo": claim.short_ids, "osinfoClaim": claim}


def _essential_fields(chain: list[PreferenceDef], family: Family,
                      catalog: PreferenceCatalog) -> tuple[tuple[str, ...], ...]:
    """The fields set by the preference's essential traits: a release without one of them cannot build it."""
    fields: set[tuple[str, ...]] = set()
    for ref in list(family.traits) + [ref for p in chain for ref in p.traits]:
        trait = catalog.traits.get(ref.name)
        if trait is not None and trait.essential:
            fields.update(_paths(trait.spec, ("spec",)))
    return tuple(sorted(fields))


def _paths(fragment: Mapping[str, Any], prefix: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every key path of a spec fragment, a mapping's own path before those inside it."""
    found = []
    for key, value in fragment.items():
        path = prefix + (key,)
        found.append(path)
        if isinstance(value, Mapping):
            found += _paths(value, path)
    return found


def _provider_problems(provider: Mapping[str, str]) -> list[Problem]:
    return [Problem(Location("catalog.yaml", path=("provider", key)),
                    f"provider.{key} must be a non-empty string (it is an annotation of every preference)")
            for key in PROVIDER_KEYS if not isinstance(provider.get(key), str) or not provider.get(key)]


def _expand(catalog: PreferenceCatalog, provider: Mapping[str, str]) -> tuple[list[CatalogObject], list[Problem]]:
    problems = _provider_problems(provider)
    if problems:
        return [], problems
    objects = []
    for name in sorted(catalog.preferences):
        obj = _expand_one(catalog.preferences[name], catalog, provider, problems)
        if obj is not None:
            objects.append(obj)
    return objects, list(dict.fromkeys(problems))


def expand_preferences(catalog: PreferenceCatalog, *, provider: Mapping[str, str]) -> list[CatalogObject]:
    """Compose every preference of the model into a CatalogObject, sorted by name."""
    objects, problems = _expand(catalog, provider)
    if problems:
        raise InputError(problems)
    return objects


def build_preferences(catalog_dir: Path, *, provider: Mapping[str, str]) -> list[CatalogObject]:
    """Load and expand the preferences of a catalog; all problems of the run in one InputError.

    ``provider`` is catalog.yaml's ``provider:`` mapping (displayName,
    documentationURL, supportURL).
    """
    catalog, problems = read_preference_catalog(catalog_dir)
    objects, found = _expand(catalog, provider)
    problems += found
    if problems:
        raise InputError(list(dict.fromkeys(problems)))
    return objects
