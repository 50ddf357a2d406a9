"""Traits: small, named preference spec fragments, read from their files (composed in expand/traits.py).

A preference is written as a list of traits rather than a spec so that a fact
such as "Windows guests want Hyper-V enlightenments" is stated once. Problems are
collected, never raised one at a time, so a catalog author sees every mistake of a
run together.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from ..errors import InputError
from ..model import Trait, TraitRef
from ..problems import Location, Path as KeyPath, Problem
from ..source.yamlsrc import Document, load_file

#: Keys a trait file may hold.
TRAIT_KEYS = ("description", "spec", "tags")
_TRAIT_NAME = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?$")


# --------------------------------------------------------------------------- helpers


def suggest(word: str, known: Iterable[str]) -> str:
    """A ``; did you mean 'x'?`` suffix when ``word`` looks like a typo of a known name."""
    close = difflib.get_close_matches(word, sorted(known), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def unknown_keys(doc: Document, mapping: Mapping[Any, Any], base: KeyPath,
                 known: Sequence[str], what: str) -> list[Problem]:
    """Problems for keys of ``mapping`` that are not in ``known``, each with a suggestion."""
    problems = []
    for key in mapping:
        if key not in known:
            hint = suggest(str(key), known) or f" (known keys: {', '.join(known)})"
            problems.append(doc.source.problem(base + (key,), f"unknown key {key!r} in {what}{hint}",
                                               key=True))
    return problems


def type_name(value: Any) -> str:
    """How a YAML author would name the type of a value."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def string_list(doc: Document, value: Any, path: KeyPath, problems: list[Problem]) -> tuple[str, ...]:
    """A list of non-empty strings without commas (tags are joined with commas)."""
    if not isinstance(value, list):
        problems.append(doc.source.problem(path, f"expected a list of strings, got {type_name(value)}"))
        return ()
    out = []
    for i, item in enumerate(value):
        if not isinstance(item, str) or not item:
            problems.append(doc.source.problem(path + (i,), f"expected a non-empty string, got {type_name(item)}"))
        elif "," in item:
            problems.append(doc.source.problem(path + (i,), f"{item!r} must not contain a comma"))
        else:
            out.append(item)
    return tuple(out)


def spec_problems(doc: Document, base: KeyPath, fragment: Mapping[str, Any]) -> list[Problem]:
    """A preference spec fragment checked against KubeVirt's schema, located where it is written.

    Checked where it is written rather than only in the rendered bundles: a trait
    with ``preferredDiskBus: 3`` is then one problem at the trait's line, not one
    per preference using it, and a whole number must be written as one (``2.0``
    is refused, as everywhere a catalog author writes a whole number).
    """
    from ..model import API_VERSION, PREFERENCE_KINDS
    from ..schemas import check_object

    probe = {"apiVersion": API_VERSION, "kind": PREFERENCE_KINDS[0], "metadata": {"name": "probe"},
             "spec": fragment}
    return [doc.source.problem(base + tuple(path[1:]), message, key=message.startswith("unknown field"))
            for path, message in check_object(probe, whole_numbers=True) if tuple(path[:1]) == ("spec",)]


# --------------------------------------------------------------------------- loading


def load_trait(path: Path, display: str, within: Path | None = None) -> tuple[Trait, list[Problem]]:
    """Load one trait file; the trait is returned even when some of it was unusable.

    ``within``: the catalog directory, out of which a symbolic link may not lead.
    """
    name = path.stem
    try:
        doc = load_file(path, display, within=within)
    except InputError as exc:
        # Still known by name, so preferences listing it do not also report "unknown trait".
        return Trait(name, "", {}, (), Location(display)), list(exc.problems)
    problems: list[Problem] = []
    top = doc.source.locate(())
    if not _TRAIT_NAME.match(name):
        problems.append(Problem(Location(display), f"trait name {name!r} (the file name) must be lower-case "
                                "letters, digits and dashes"))
    data = doc.data
    if not isinstance(data, dict):
        problems.append(Problem(top, f"a trait file holds a mapping with description and spec, got {type_name(data)}"))
        return Trait(name, "", {}, (), top), problems
    problems += unknown_keys(doc, data, (), TRAIT_KEYS, "a trait")
    description = data.get("description")
    if not isinstance(description, str) or not description.strip():
        where = ("description",) if "description" in data else ()
        problems.append(doc.source.problem(where, "a trait needs a one-line description (a non-empty string)"))
        description = ""
    spec = data.get("spec")
    if not isinstance(spec, dict) or not spec:
        where = ("spec",) if "spec" in data else ()
        got = type_name(spec) if "spec" in data else "none"
        problems.append(doc.source.problem(where, f"a trait needs a spec: a non-empty mapping of preference "
                                           f"spec keys, got {got}"))
        spec = {}
    problems += spec_problems(doc, ("spec",), spec)
    tags = string_list(doc, data["tags"], ("tags",), problems) if "tags" in data else ()
    return Trait(name, description.strip(), spec, tags, top), problems


def load_traits(traits_dir: Path, display_dir: str = "preferences/traits",
                within: Path | None = None) -> tuple[dict[str, Trait], list[Problem]]:
    """Every ``*.yaml`` of the traits folder, by name, and the problems found loading them."""
    traits: dict[str, Trait] = {}
    problems: list[Problem] = []
    if not traits_dir.is_dir():
        return traits, problems
    for path in sorted(traits_dir.glob("*.yaml")):
        trait, found = load_trait(path, f"{display_dir}/{path.name}", within)
        problems += found
        traits[trait.name] = trait
    return traits, problems


# --------------------------------------------------------------------------- composition


# --------------------------------------------------------------------------- trait lists


TRAIT_REF_KEYS = ("trait", "override")


def parse_trait_list(doc: Document, value: Any, path: KeyPath) -> tuple[tuple[TraitRef, ...], list[Problem]]:
    """Read a ``traits:`` list whose entries are ``name`` or ``{trait: name, override: true}``."""
    problems: list[Problem] = []
    if not isinstance(value, list):
        problems.append(doc.source.problem(path, f"expected a list of trait names, got {type_name(value)}"))
        return (), problems
    refs = []
    for i, entry in enumerate(value):
        where = path + (i,)
        if isinstance(entry, str) and entry:
            refs.append(TraitRef(entry, False, doc.source.locate(where)))
            continue
        if not isinstance(entry, dict):
            problems.append(doc.source.problem(where, "a trait entry is a trait name or a mapping "
                                               f"{{trait: NAME, override: true}}, got {type_name(entry)}"))
            continue
        problems += unknown_keys(doc, entry, where, TRAIT_REF_KEYS, "a trait entry")
        name = entry.get("trait")
        override = entry.get("override", False)
        if not isinstance(name, str) or not name:
            problems.append(doc.source.problem(where + (("trait",) if "trait" in entry else ()),
                                               "a trait entry needs `trait:` with the trait's name"))
            continue
        if not isinstance(override, bool):
            problems.append(doc.source.problem(where + ("override",),
                                               f"override must be true or false, got {type_name(override)}"))
            override = False
        refs.append(TraitRef(name, override, doc.source.locate(where)))
    return tuple(refs), problems


