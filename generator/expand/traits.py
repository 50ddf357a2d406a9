"""Trait composition: layers of spec fragments merged in order, conflicts located at the layer
that caused them.

Loading a trait (load/traits.py) checks its file; composing is part of expansion: it
decides what a preference's spec becomes from its traits, its family and itself.
Because several traits touch the same spec keys (a disk bus, a CPU topology), the
order of the list matters and silent last-one-wins would hide mistakes: composition
refuses a layer that changes a value an earlier layer set, unless that layer is
marked as an override.
"""

from __future__ import annotations

import copy
from dataclasses import field
from typing import Any, Iterable, Mapping, Sequence

from .. import quantity
from ..frozen import frozen
from ..load.traits import suggest
from ..model import Trait, TraitRef
from ..problems import Location, Path as KeyPath, Problem, dotted


@frozen
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


@frozen
class Composition:
    """The merged spec and the problems found merging it."""

    spec: dict[str, Any]
    problems: tuple[Problem, ...] = field(default_factory=tuple)


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
    from ..model import PREFERENCE_KINDS
    from ..schemas import quantity_at

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


#: Values that are never changed in place: a layer's value of one of these types is owned as it is, not copied.
_ATOMS = (str, int, float, bool, type(None))


def _owned(value: Any) -> Any:
    """``value`` for the composition to keep: a copy where it is a mapping or list (the layer's data stays the
    catalog's), itself otherwise."""
    return value if isinstance(value, _ATOMS) else copy.deepcopy(value)


class _Composer:
    """Applies layers in order, remembering which layer set each leaf.

    ``below`` counts, for each path, the leaves owned strictly under it, so that
    whether a leaf would be set over an earlier subtree (or ``{}`` under one) is a
    lookup rather than a pass over every leaf set so far.
    """

    def __init__(self) -> None:
        self.owner: dict[KeyPath, tuple[Any, Layer]] = {}
        self.below: dict[KeyPath, int] = {}
        self.problems: list[Problem] = []

    def _set(self, path: KeyPath, value: Any, layer: Layer) -> None:
        if path not in self.owner:
            for i in range(1, len(path)):
                self.below[path[:i]] = self.below.get(path[:i], 0) + 1
        self.owner[path] = (_owned(value), layer)

    def _drop(self, path: KeyPath) -> None:
        if self.owner.pop(path, None) is not None:
            for i in range(1, len(path)):
                left = self.below[path[:i]] - 1
                if left:
                    self.below[path[:i]] = left
                else:
                    del self.below[path[:i]]

    def _under(self, path: KeyPath) -> list[tuple[KeyPath, Any, Layer]]:
        """The leaves owned strictly under ``path``, in the order they were set."""
        if not self.below.get(path):
            return []
        n = len(path)
        return [(p, v, lay) for p, (v, lay) in self.owner.items() if len(p) > n and p[:n] == path]

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
            found += self._under(path)
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
                self._drop(where)
            for i in range(1, len(path)):  # a refined `{}` ancestor is no longer a leaf
                if path[:i] in self.owner and self.owner[path[:i]][0] == {}:
                    self._drop(path[:i])
            if value == {} and self.below.get(path):
                continue  # `{}` adds nothing to an existing subtree
            self._set(path, value, layer)
        if layer.override and not replaced:
            self.problems.append(Problem(layer.location, f"{layer.label} {layer.stale}"))

    def fill(self, defaults: Mapping[str, Any], layer: Layer) -> None:
        """Set each default leaf nothing has set yet; defaults never conflict."""
        for path, value in leaves(defaults):
            if any(path[:i] in self.owner for i in range(1, len(path) + 1)):
                continue
            if self.below.get(path):
                continue
            self._set(path, value, layer)

    def result(self) -> dict[str, Any]:
        """The composed spec, its keys sorted; it shares nothing with the layers (their values were copied as they
        were set) and the composer is not used after."""
        out: dict[str, Any] = {}
        for path, (value, _layer) in self.owner.items():
            node = out
            for key in path[:-1]:
                node = node.setdefault(key, {})
            node[path[-1]] = value
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
