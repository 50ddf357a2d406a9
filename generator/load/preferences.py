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
from ..model import Family, OsinfoClaim, PreferenceCatalog, PreferenceDef, Requirements
from ..problems import Location, Path as KeyPath, Problem
from ..source.formats.preferences import FAMILY, FAMILY_NAME
from ..source.inputcheck import present, read_checked
from ..source.inputfiles import yaml_files
from ..source.yamlsrc import Document
from .lifecycle import deprecation_of
from .traits import load_traits, spec_problems, trait_refs


# --------------------------------------------------------------------------- loading


def _text(data: Mapping[str, Any], key: str) -> str | None:
    """Text a person reads, without the white space around it; None when not written."""
    return data[key].strip() if key in data else None


def _tags(data: Mapping[str, Any]) -> tuple[str, ...] | None:
    return tuple(tag for _, tag in present(data["tags"])) if "tags" in data else None


def _requirements(doc: Document, data: Mapping[str, Any], path: KeyPath) -> Requirements:
    if "requirements" not in data:
        return Requirements()
    value = data["requirements"]
    return Requirements(value.get("cpu"), value.get("memory"), doc.source.locate(path + ("requirements",)))


def _osinfo(doc: Document, data: Mapping[str, Any], path: KeyPath) -> OsinfoClaim | None:
    """``osinfo:`` as written (its shape checked by the family schema): a short-id, a list, or a mapping."""
    if "osinfo" not in data:
        return None
    value, here = data["osinfo"], path + ("osinfo",)
    written: dict[str, Location] = {}
    if isinstance(value, Mapping):
        names, at = value.get("os", []), here + ("os",)
        line, since = value.get("line"), value.get("since")
        if line is not None:
            written[line] = doc.source.locate(here + ("line",))
        if since is not None:
            written.setdefault(since, doc.source.locate(here + ("since",)))
        accepted = dict(value.get("accept", {}))
        accepted_at = {check: doc.source.locate(here + ("accept", check)) for check in accepted}
    else:
        names, at, line, since, accepted, accepted_at = value, here, None, None, {}, {}
    if isinstance(names, str):
        written.setdefault(names, doc.source.locate(at))
        names = [names]
    else:
        for i, name in enumerate(names):
            written.setdefault(name, doc.source.locate(at + (i,)))
    return OsinfoClaim(tuple(dict.fromkeys(names)), line, {k: v.strip() for k, v in accepted.items()},
                       doc.source.locate(here), written, accepted_at, since)


def _fragment(doc: Document, data: Mapping[str, Any], key: str, path: KeyPath,
              problems: list[Problem]) -> tuple[Mapping[str, Any] | None, Location | None]:
    """A spec fragment, checked against KubeVirt's schema where it is written, and where that is."""
    if key not in data:
        return None, None
    problems += spec_problems(doc, path + (key,), data[key])
    return data[key], doc.source.locate(path + (key,))


def _preference(doc: Document, family: str, name: str, data: Mapping[str, Any],
                problems: list[Problem]) -> PreferenceDef:
    path = ("preferences", name)
    deprecated, deprecation = (deprecation_of(data["deprecated"], doc.source, path + ("deprecated",))
                               if "deprecated" in data else (None, None))
    spec, spec_location = _fragment(doc, data, "spec", path, problems)
    override_spec, override_location = _fragment(doc, data, "overrideSpec", path, problems)
    return PreferenceDef(
        name=name,
        family=family,
        # exactly as the YAML scalar says: its style decides the line breaks
        description=data.get("description", ""),
        location=doc.source.locate(path, key=True),
        based_on=_text(data, "basedOn"),
        based_on_location=doc.source.locate(path + ("basedOn",)) if "basedOn" in data else None,
        display_name=_text(data, "displayName"),
        os_type=_text(data, "osType"),
        os_type_location=doc.source.locate(path + ("osType",)) if "osType" in data else None,
        icon_class=_text(data, "iconClass"),
        tags=_tags(data),
        traits=trait_refs(doc, data.get("traits", []), path + ("traits",)),
        requirements=_requirements(doc, data, path),
        spec=spec,
        spec_location=spec_location,
        override_spec=override_spec,
        override_spec_location=override_location,
        deprecated=deprecated,
        deprecation=deprecation,
        osinfo=_osinfo(doc, data, path),
    )


def load_family(path: Path, display: str,
                within: Path | None = None) -> tuple[Family | None, list[PreferenceDef], list[Problem]]:
    """Load one family file: its shared settings and its preferences, with every problem found.

    What breaks the family format (source/formats/preferences.py) is reported and
    left out, and the rest is loaded, so that one run also shows what the rest
    leads to. ``within``: the catalog directory, out of which a symbolic link may
    not lead.
    """
    if not re.fullmatch(FAMILY_NAME, path.stem):
        return None, [], [Problem(Location(display), f"family name {path.stem!r} (the file name) must be "
                                  "lower-case letters, digits and dashes, at most 63; it names a group of the outputs")]
    doc, problems = read_checked(path, display, FAMILY, within=within)
    if doc is None:
        return None, [], problems
    data = doc.data
    deprecated, deprecation = deprecation_of(data.get("deprecated", False), doc.source, ("deprecated",))
    family = Family(
        name=path.stem,
        os_type=_text(data, "osType"),
        icon_class=_text(data, "iconClass"),
        tags=_tags(data),
        traits=trait_refs(doc, data.get("traits", []), ("traits",)),
        requirements=_requirements(doc, data, ()),
        deprecated=deprecated,
        location=doc.source.locate(()),
        os_type_location=doc.source.locate(("osType",)) if "osType" in data else None,
        deprecation=deprecation,
        osinfo=_osinfo(doc, data, ()),
    )
    prefs = [_preference(doc, family.name, name, body, problems)
             for name, body in data.get("preferences", {}).items()]
    return family, prefs, problems


def read_preference_catalog(catalog_dir: Path) -> tuple[PreferenceCatalog, list[Problem]]:
    """The preference catalog and every problem found reading it, so a caller can report them with others."""
    root = catalog_dir / "preferences"
    traits, problems = load_traits(root / "traits", within=catalog_dir)
    families: dict[str, Family] = {}
    preferences: dict[str, PreferenceDef] = {}
    for path in yaml_files(root, "preferences"):
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


