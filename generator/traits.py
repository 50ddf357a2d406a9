"""Traits: small, named preference spec fragments, and their ordered composition.

A preference is written as a list of traits rather than a spec so that a fact
such as "Windows guests want Hyper-V enlightenments" is stated once. Because
several traits touch the same spec keys (a disk bus, a CPU topology), the order
of the list matters and silent last-one-wins would hide mistakes: composition
refuses a layer that changes a value an earlier layer set, unless that layer is
marked as an override. Problems are collected, never raised one at a time, so a
catalog author sees every mistake of a run together.
"""

from __future__ import annotations

import copy
import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from . import quantity
from .errors import InputError
from .problems import Location, Path as KeyPath, Problem, dotted
from .model import Trait, TraitRef
from .yamlsrc import Document, load_file

#: Keys a trait file may hold.
TRAIT_KEYS = ("description", "spec", "tags")
_TRAIT_NAME = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?$")


@dataclass(frozen=True)
class Layer:
    """One step of a composition: a spec fragment, who wrote it and where it was asked for.

    ``label`` names the layer in messages ("trait 'sata-disk'"); ``location`` is
    where the layer was listed, which is where a conflict is reported; ``fix``
    tells the author how to mark this layer as an override, ``stale`` what is wrong
    with an override that replaces nothing and how to mend it.
    """

    label: str
    spec: Mapping[str, Any]
    location: Location
    override: bool = False
    fix: str = "mark it as an override"
    stale: str = "is marked as an override but changes no value an earlier layer set; drop the override mark"


@dataclass(frozen=True)
class Composition:
    """The merged spec and the problems found merging it."""

    spec: dict[str, Any]
    problems: tuple[Problem, ...] = field(default_factory=tuple)


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
    from .model import API_VERSION, PREFERENCE_KINDS
    from .schema import check_object

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


def _same(a: Any, b: Any, path: KeyPath = ()) -> bool:
    """Equal and of the same type (YAML's ``true`` must not pass for ``1``), or the same quantity.

    ``path`` is where the values are in a preference's spec: where KubeVirt's
    schema holds a quantity (``requirements.memory.guest``), ``4Gi`` and ``4096Mi``
    are the same memory; anywhere else two spellings are two values.
    """
    if _quantity_at(path) and quantity.same(a, b):
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k], path + (k,)) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y, path + (i,)) for i, (x, y) in enumerate(zip(a, b)))
    return a == b


def _quantity_at(path: KeyPath) -> bool:
    """Whether a preference's spec holds a quantity at ``path`` (a path inside ``spec``)."""
    from .model import PREFERENCE_KINDS
    from .schema import quantity_at

    return quantity_at(PREFERENCE_KINDS[0], ("spec", *path))


def leaves(spec: Mapping[str, Any], base: KeyPath = ()) -> Iterable[tuple[KeyPath, Any]]:
    """Every (path, value) whose value is not a non-empty mapping.

    An empty mapping is a leaf: in a preference ``preferredRng: {}`` means
    "attach one, with defaults", and a later layer may refine it with keys.
    """
    for key, value in spec.items():
        if isinstance(value, dict) and value:
            yield from leaves(value, base + (key,))
        else:
            yield base + (key,), value


def _show(value: Any) -> str:
    return "{}" if value == {} and isinstance(value, dict) else repr(value)


class _Composer:
    """Applies layers in order, remembering which layer set each leaf."""

    def __init__(self) -> None:
        self.owner: dict[KeyPath, tuple[Any, Layer]] = {}
        self.problems: list[Problem] = []

    def _conflicts(self, path: KeyPath, value: Any) -> list[tuple[KeyPath, Any, Layer]]:
        """Earlier leaves this value cannot coexist with (same path, ancestor or descendant)."""
        found = []
        for i in range(1, len(path)):  # an ancestor set to a plain value
            held = self.owner.get(path[:i])
            if held is not None and held[0] != {}:
                found.append((path[:i], held[0], held[1]))
        held = self.owner.get(path)
        if held is not None and not _same(held[0], value, path):
            if not (value == {} and isinstance(held[0], dict)):
                found.append((path, held[0], held[1]))
        if held is None and value != {}:  # a plain value over an earlier subtree
            n = len(path)
            found += [(p, v, lay) for p, (v, lay) in self.owner.items() if len(p) > n and p[:n] == path]
        return found

    def apply(self, layer: Layer) -> None:
        replaced = False
        for path, value in leaves(layer.spec):
            conflicts = self._conflicts(path, value)
            if conflicts and not layer.override:
                for where, old, earlier in conflicts:
                    self.problems.append(Problem(layer.location, (
                        f"{layer.label} sets {dotted(path)} to {_show(value)}, but {earlier.label} "
                        f"(listed at {_short(earlier.location)}) already set {dotted(where)} to "
                        f"{_show(old)}; {layer.fix} if it is meant to replace that value")))
                continue
            held = self.owner.get(path)
            if not conflicts and held is not None and _same(held[0], value, path):
                continue  # the same value (4096Mi for 4Gi): the layer that set it first stays its owner
            for where, _old, _earlier in conflicts:
                replaced = True
                self.owner.pop(where, None)
            for i in range(1, len(path)):  # a refined `{}` ancestor is no longer a leaf
                if path[:i] in self.owner and self.owner[path[:i]][0] == {}:
                    self.owner.pop(path[:i])
            if value == {} and any(len(p) > len(path) and p[:len(path)] == path for p in self.owner):
                continue  # `{}` adds nothing to an existing subtree
            self.owner[path] = (copy.deepcopy(value), layer)
        if layer.override and not replaced:
            self.problems.append(Problem(layer.location, f"{layer.label} {layer.stale}"))

    def fill(self, defaults: Mapping[str, Any], layer: Layer) -> None:
        """Set each default leaf nothing has set yet; defaults never conflict."""
        for path, value in leaves(defaults):
            if any(path[:i] in self.owner for i in range(1, len(path) + 1)):
                continue
            if any(len(p) > len(path) and p[:len(path)] == path for p in self.owner):
                continue
            self.owner[path] = (copy.deepcopy(value), layer)

    def result(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for path, (value, _layer) in self.owner.items():
            node = out
            for key in path[:-1]:
                node = node.setdefault(key, {})
            node[path[-1]] = copy.deepcopy(value)
        return sort_keys(out)


def _short(location: Location) -> str:
    return f"{location.file}:{location.line}" if location.line is not None else location.file


def sort_keys(value: Any) -> Any:
    """The same value with every mapping's keys in sorted order, for deterministic output."""
    if isinstance(value, dict):
        return {k: sort_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [sort_keys(v) for v in value]
    return value


def compose(layers: Sequence[Layer], defaults: Layer | None = None) -> Composition:
    """Merge ``layers`` in order, then fill what is still unset from ``defaults``.

    A layer may set a value an earlier one set to the same value, or refine an
    empty mapping with keys. Setting a different value is a problem naming both
    layers, unless the later layer is an override; an override that replaces
    nothing is also a problem, so a stale mark does not linger in the catalog.
    """
    composer = _Composer()
    for layer in layers:
        composer.apply(layer)
    if defaults is not None:
        composer.fill(defaults.spec, defaults)
    return Composition(composer.result(), tuple(dict.fromkeys(composer.problems)))


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


def trait_layers(refs: Sequence[TraitRef], traits: Mapping[str, Trait]) -> tuple[list[Layer], list[Problem]]:
    """The layers a list of trait references stands for; unknown names are problems."""
    layers, problems = [], []
    for ref in refs:
        trait = traits.get(ref.name)
        if trait is None:
            problems.append(Problem(ref.location, f"unknown trait {ref.name!r}{suggest(ref.name, traits)}"
                                    " (traits are the files of preferences/traits/)"))
            continue
        layers.append(Layer(f"trait {ref.name!r}", trait.spec, ref.location, ref.override,
                            f"write it as {{trait: {ref.name}, override: true}}"))
    return layers, problems
