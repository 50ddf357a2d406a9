"""Traits: small, named preference spec fragments, read from their files (composed in expand/traits.py).

A preference is written as a list of traits rather than a spec so that a fact
such as "Windows guests want Hyper-V enlightenments" is stated once. Problems are
collected, never raised one at a time, so a catalog author sees every mistake of a
run together. What a trait file and a trait list must look like is their format
(source/formats/preferences.py), explained by source/inputcheck.py; this module
builds the model from what fits it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterable, Mapping

from ..model import Trait, TraitRef
from ..problems import Location, Path as KeyPath, Problem
from ..source.formats.preferences import TRAIT, TRAIT_NAME
from ..source.inputcheck import present, read_checked
from ..source.inputfiles import yaml_files
from ..source.yamlsrc import Document
from ..suggest import Index, did_you_mean


# --------------------------------------------------------------------------- helpers


def suggest(word: str, known: Iterable[str] | Index) -> str:
    """A ``; did you mean 'x'?`` suffix when ``word`` looks like a typo of a known name (suggest.py: by spelling,
    difflib's likeness; pass an Index built once where many words are looked up in one large set)."""
    return did_you_mean(word, known)


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

    It is still known by name then, so preferences listing it do not also report
    "unknown trait". ``within``: the catalog directory, out of which a symbolic link
    may not lead.
    """
    name = path.stem
    doc, problems = read_checked(path, display, TRAIT, within=within)
    if not re.fullmatch(TRAIT_NAME["pattern"], name):
        problems.append(Problem(Location(display), f"trait name {name!r} (the file name) must be lower-case "
                                "letters, digits and dashes"))
    if doc is None:
        return Trait(name, "", {}, (), Location(display)), problems
    data = doc.data
    spec = data.get("spec", {})
    if spec:
        problems += spec_problems(doc, ("spec",), spec)
    tags = tuple(tag for _, tag in present(data.get("tags", [])))
    return Trait(name, data.get("description", "").strip(), spec, tags, doc.source.locate(()),
                 bool(data.get("essential"))), problems


def load_traits(traits_dir: Path, display_dir: str = "preferences/traits",
                within: Path | None = None) -> tuple[dict[str, Trait], list[Problem]]:
    """Every ``*.yaml`` of the traits folder, by name, and the problems found loading them."""
    traits: dict[str, Trait] = {}
    problems: list[Problem] = []
    for path in yaml_files(traits_dir, display_dir):
        trait, found = load_trait(path, f"{display_dir}/{path.name}", within)
        problems += found
        traits[trait.name] = trait
    return traits, problems


# --------------------------------------------------------------------------- trait lists


def trait_refs(doc: Document, value: list[Any], path: KeyPath) -> tuple[TraitRef, ...]:
    """A checked ``traits:`` list whose entries are ``name`` or ``{trait: name, override: true}``."""
    refs = []
    for i, entry in present(value):
        name, override = (entry["trait"], entry.get("override", False)) if isinstance(entry, Mapping) \
            else (entry, False)
        refs.append(TraitRef(name, override, doc.source.locate(path + (i,))))
    return tuple(refs)


