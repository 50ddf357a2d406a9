"""Preferences: OS family files composing traits, loaded into a model, expanded into objects.

The three steps are separate functions on purpose: ``load_preference_catalog``
reads files into a frozen ``PreferenceCatalog``; a vendor overlay may replace
parts of that value; ``expand_preferences`` turns it into ``CatalogObject``s.
``build_preferences`` runs them together and reports every problem of the run
in one InputError.

Labels are derived from the composed spec (architecture, minimum vCPUs and
memory) rather than written beside it, so a label can never disagree with the
spec it describes.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Mapping

from .errors import InputError
from .inputcheck import describe
from .model import CatalogObject, Family, PreferenceCatalog, PreferenceDef, Requirements, label
from .objectmeta import label_value_problem
from .problems import Location, Problem
from .quantity import QuantityError, parse
from .schema_fast import whole_number
from .traits import (
    Layer,
    compose,
    load_traits,
    parse_trait_list,
    spec_problems,
    string_list,
    suggest,
    trait_layers,
    type_name,
    unknown_keys,
)
from .yamlsrc import Document, load_file

FAMILY_KEYS = ("osType", "iconClass", "tags", "traits", "requirements", "deprecated", "preferences")
PREFERENCE_KEYS = ("displayName", "description", "basedOn", "osType", "iconClass", "tags", "traits",
                   "requirements", "spec", "overrideSpec", "deprecated")
REQUIREMENT_KEYS = ("cpu", "memory")
PROVIDER_KEYS = ("displayName", "documentationURL", "supportURL")

OS_ANNOTATION = "vm.kubevirt.io/os"
DESCRIPTION = "instancetype.kubevirt.io/description"
_NAME = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
#: A family is named by its file and groups objects in the outputs (folders, values keys).
_FAMILY_NAME = re.compile(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")


# --------------------------------------------------------------------------- loading


def _string(doc: Document, data: Mapping[str, Any], key: str, path: tuple, problems: list[Problem],
            *, as_written: bool = False) -> str | None:
    """A non-blank string, stripped; ``as_written`` keeps it exactly as its YAML scalar says
    (a description: folded or literal style and chomping decide its line breaks, not us)."""
    if key not in data:
        return None
    value = data[key]
    if not isinstance(value, str) or not value.strip():
        problems.append(doc.source.problem(path + (key,), f"{key} must be a non-empty string, got {type_name(value)}"))
        return None
    return value if as_written else value.strip()


def _bool(doc: Document, data: Mapping[str, Any], key: str, path: tuple, problems: list[Problem]) -> bool | None:
    if key not in data:
        return None
    value = data[key]
    if not isinstance(value, bool):
        problems.append(doc.source.problem(path + (key,), f"{key} must be true or false, got {type_name(value)}"))
        return None
    return value


def _requirements(doc: Document, data: Mapping[str, Any], path: tuple, problems: list[Problem]) -> Requirements:
    if "requirements" not in data:
        return Requirements()
    where = path + ("requirements",)
    value = data["requirements"]
    if not isinstance(value, dict):
        problems.append(doc.source.problem(where, "requirements must be a mapping with cpu and/or memory, "
                                           f"got {type_name(value)}"))
        return Requirements()
    problems += unknown_keys(doc, value, where, REQUIREMENT_KEYS, "requirements")
    cpu = value.get("cpu")
    if cpu is not None and (not whole_number(cpu) or cpu < 1):
        problems.append(doc.source.problem(where + ("cpu",), "expected a whole number of vCPUs (1 or more), "
                                           f"got {describe(cpu)}"))
        cpu = None
    memory = value.get("memory")
    if memory is not None:
        try:
            if isinstance(memory, bool) or not isinstance(memory, str):
                raise QuantityError(f"expected a memory quantity such as 2Gi, got {type_name(memory)}")
            if parse(memory) <= 0:
                raise QuantityError(f"expected a memory quantity greater than zero, got {memory!r}")
        except QuantityError as exc:
            problems.append(doc.source.problem(where + ("memory",), f"memory: {exc}"))
            memory = None
    return Requirements(cpu, memory, doc.source.locate(where))


def _fragment(doc: Document, data: Mapping[str, Any], key: str, path: tuple,
              problems: list[Problem]) -> tuple[Mapping[str, Any] | None, Location | None]:
    if key not in data:
        return None, None
    value = data[key]
    if not isinstance(value, dict):
        problems.append(doc.source.problem(path + (key,), f"{key} must be a mapping of preference spec keys, "
                                           f"got {type_name(value)}"))
        return None, None
    problems += spec_problems(doc, path + (key,), value)
    return value, doc.source.locate(path + (key,))


def _preference(doc: Document, family: str, name: Any, data: Any,
                problems: list[Problem]) -> PreferenceDef | None:
    path = ("preferences", name)
    if isinstance(name, str) and _NAME.match(name) and len(name) > 253:
        problems.append(doc.source.problem(path, f"preference name is {len(name)} characters long; Kubernetes "
                                           "allows at most 253", key=True))
        return None
    if not isinstance(name, str) or not _NAME.match(name):
        problems.append(doc.source.problem(path, f"preference name {name!r} must be lower-case letters, digits, "
                                           "dashes and dots, starting and ending with a letter or digit", key=True))
        return None
    if not isinstance(data, dict):
        problems.append(doc.source.problem(path, f"preference {name!r} must be a mapping, got {type_name(data)}"))
        return None
    problems += unknown_keys(doc, data, path, PREFERENCE_KEYS, f"preference {name!r}")
    description = _string(doc, data, "description", path, problems, as_written=True)
    if description is None and "description" not in data:
        problems.append(doc.source.problem(path, f"preference {name!r} needs a description: one sentence, "
                                           "in our own words, on what it is for", key=True))
    traits, found = parse_trait_list(doc, data["traits"], path + ("traits",)) if "traits" in data else ((), [])
    problems += found
    spec, spec_location = _fragment(doc, data, "spec", path, problems)
    override_spec, override_location = _fragment(doc, data, "overrideSpec", path, problems)
    return PreferenceDef(
        name=name,
        family=family,
        description=description or "",
        location=doc.source.locate(path, key=True),
        based_on=_string(doc, data, "basedOn", path, problems),
        based_on_location=doc.source.locate(path + ("basedOn",)) if "basedOn" in data else None,
        display_name=_string(doc, data, "displayName", path, problems),
        os_type=_string(doc, data, "osType", path, problems),
        os_type_location=doc.source.locate(path + ("osType",)) if "osType" in data else None,
        icon_class=_string(doc, data, "iconClass", path, problems),
        tags=string_list(doc, data["tags"], path + ("tags",), problems) if "tags" in data else None,
        traits=traits,
        requirements=_requirements(doc, data, path, problems),
        spec=spec,
        spec_location=spec_location,
        override_spec=override_spec,
        override_spec_location=override_location,
        deprecated=_bool(doc, data, "deprecated", path, problems),
    )


def load_family(path: Path, display: str,
                within: Path | None = None) -> tuple[Family | None, list[PreferenceDef], list[Problem]]:
    """Load one family file: its shared settings and its preferences, with every problem found.

    ``within``: the catalog directory, out of which a symbolic link may not lead.
    """
    try:
        doc = load_file(path, display, within=within)
    except InputError as exc:
        return None, [], list(exc.problems)
    problems: list[Problem] = []
    data = doc.data
    top = doc.source.locate(())
    if not _FAMILY_NAME.match(path.stem):
        problems.append(Problem(Location(display), f"family name {path.stem!r} (the file name) must be lower-case "
                                "letters, digits and dashes, at most 63; it names a group of the outputs"))
        return None, [], problems
    if not isinstance(data, dict):
        problems.append(Problem(top, f"a family file holds a mapping of family settings and preferences, "
                                f"got {type_name(data)}"))
        return None, [], problems
    problems += unknown_keys(doc, data, (), FAMILY_KEYS, "a family file")
    traits, found = parse_trait_list(doc, data["traits"], ("traits",)) if "traits" in data else ((), [])
    problems += found
    family = Family(
        name=path.stem,
        os_type=_string(doc, data, "osType", (), problems),
        icon_class=_string(doc, data, "iconClass", (), problems),
        tags=string_list(doc, data["tags"], ("tags",), problems) if "tags" in data else None,
        traits=traits,
        requirements=_requirements(doc, data, (), problems),
        deprecated=bool(_bool(doc, data, "deprecated", (), problems)),
        location=top,
        os_type_location=doc.source.locate(("osType",)) if "osType" in data else None,
    )
    entries = data.get("preferences")
    if not isinstance(entries, dict) or not entries:
        where = ("preferences",) if "preferences" in data else ()
        problems.append(doc.source.problem(where, "a family file needs `preferences:`, a mapping of preference "
                                           "names to their definitions"))
        return family, [], problems
    prefs = [p for name, body in entries.items()
             if (p := _preference(doc, family.name, name, body, problems)) is not None]
    return family, prefs, problems


def _load(catalog_dir: Path) -> tuple[PreferenceCatalog, list[Problem]]:
    root = catalog_dir / "preferences"
    traits, problems = load_traits(root / "traits", within=catalog_dir)
    families: dict[str, Family] = {}
    preferences: dict[str, PreferenceDef] = {}
    for path in sorted(root.glob("*.yaml")) if root.is_dir() else ():
        family, prefs, found = load_family(path, f"preferences/{path.name}", catalog_dir)
        problems += found
        if family is None:
            continue
        families[family.name] = family
        for pref in prefs:
            first = preferences.get(pref.name)
            if first is not None:
                problems.append(Problem(pref.location, f"preference {pref.name!r} is already defined at "
                                        f"{first.location.file}:{first.location.line}"))
                continue
            preferences[pref.name] = pref
    return PreferenceCatalog(traits, families, dict(sorted(preferences.items()))), problems


def load_preference_catalog(catalog_dir: Path) -> PreferenceCatalog:
    """Read ``preferences/`` of a catalog into the model; every problem found is in one InputError."""
    catalog, problems = _load(catalog_dir)
    if problems:
        raise InputError(problems)
    return catalog


# --------------------------------------------------------------------------- expansion


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
    layers = [Layer("osType", {"annotations": {OS_ANNOTATION: os_type}}, os_location,
                    fix="set the os annotation through osType")]
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


def _get(spec: Mapping[str, Any], *path: str) -> Any:
    node: Any = spec
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def _expand_one(pref: PreferenceDef, catalog: PreferenceCatalog, provider: Mapping[str, str],
                problems: list[Problem]) -> CatalogObject | None:
    family = catalog.families.get(pref.family)
    if family is None:  # only an overlay can get here: files always bring their family
        problems.append(Problem(pref.location, f"preference {pref.name!r} names family {pref.family!r}, "
                                "which the catalog does not have"))
        return None
    chain = _chain(pref, catalog, problems)
    if chain is None:
        problems += trait_layers(pref.traits, catalog.traits)[1]  # still say which names are unknown
        return None
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
    if missing:
        return None
    layers = _layers(pref, chain, family, os_type, catalog, problems)
    defaults = Layer(f"the requirements of family {family.name!r}", family.requirements.spec(),
                     family.requirements.location or family.location)
    composition = compose(layers, defaults)
    problems += composition.problems
    spec = composition.spec

    traits = [catalog.traits[r.name] for r in list(family.traits) + [r for p in chain for r in p.traits]
              if r.name in catalog.traits]
    tags = list(_inherited(chain, "tags") or family.tags or ())
    for trait in traits:
        tags += [t for t in trait.tags if t not in tags]
    deprecated = pref.deprecated if pref.deprecated is not None else family.deprecated

    cpu = _get(spec, "requirements", "cpu", "guest")
    memory = _get(spec, "requirements", "memory", "guest")
    preferred_arch = spec.get("preferredArchitecture")
    required_arch = _get(spec, "requirements", "architecture")
    labels: dict[str, str] = {label("os-type"): str(_get(spec, "annotations", OS_ANNOTATION))}
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
    problems += _label_problems(pref, labels)
    memory_bytes = None
    if memory is not None:
        try:
            memory_bytes = int(parse(memory))
        except QuantityError as exc:
            problems.append(Problem(pref.location, f"spec.requirements.memory.guest: {exc}"))

    annotations = {
        "iconClass": icon,
        "openshift.io/display-name": display_name,
        "openshift.io/provider-display-name": provider["displayName"],
        "openshift.io/documentation-url": provider["documentationURL"],
        "openshift.io/support-url": provider["supportURL"],
        "tags": ",".join(tags),
        DESCRIPTION: pref.description,
    }
    return CatalogObject(
        family="preference",
        name=pref.name,
        group=family.name,
        labels=dict(sorted(labels.items())),
        annotations=dict(sorted(annotations.items())),
        spec=spec,
        location=pref.location,
        facts={"displayName": display_name, "cpu": cpu, "memory": memory_bytes,
               "architecture": arch, "osType": os_type},
    )


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
    catalog, problems = _load(catalog_dir)
    objects, found = _expand(catalog, provider)
    problems += found
    if problems:
        raise InputError(list(dict.fromkeys(problems)))
    return objects
