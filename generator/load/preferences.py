"""Preferences: OS family files, each a list of preferences composing traits, loaded into the model.

Loading and expansion are separate steps on purpose: ``load_preference_catalog``
reads files into a frozen ``PreferenceCatalog`` (model.py); a vendor overlay may
replace parts of that value (overlays.py); ``expand_preferences``
(expand/preferences.py) turns it into ``CatalogObject``s.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Mapping

from ..errors import InputError
from ..model import Family, PreferenceCatalog, PreferenceDef, Requirements
from ..problems import Location, Problem
from ..quantity import QuantityError, parse
from ..source.inputcheck import describe
from ..source.schema_fast import whole_number
from ..source.yamlsrc import Document, load_file
from .traits import load_traits, parse_trait_list, spec_problems, string_list, type_name, unknown_keys

FAMILY_KEYS = ("osType", "iconClass", "tags", "traits", "requirements", "deprecated", "preferences")
PREFERENCE_KEYS = ("displayName", "description", "basedOn", "osType", "iconClass", "tags", "traits",
                   "requirements", "spec", "overrideSpec", "deprecated")
REQUIREMENT_KEYS = ("cpu", "memory")

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


def read_preference_catalog(catalog_dir: Path) -> tuple[PreferenceCatalog, list[Problem]]:
    """The preference catalog and every problem found reading it, so a caller can report them with others."""
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
    catalog, problems = read_preference_catalog(catalog_dir)
    if problems:
        raise InputError(problems)
    return catalog


# --------------------------------------------------------------------------- expansion


