"""Problems on bundle documents pointed back at the catalog lines behind their objects.

Validation judges the documents a build ships, so it finds each problem at a
bundle document (``common-instancetypes-all-bundle.yaml#3 (u1.large)``). A
catalog author fixes a file, not a document, so the build says which one:

- an object an overlay shaped (model.CatalogObject.shaped_by) is reported at the
  overlay line that decided the field the problem is about: of the lines that shaped
  the object, those that wrote the field, a field inside it or one around it
  (``decided``: a leaf of a ``spec`` patch, a key such as ``displayName`` the
  annotations, ``series.add`` the whole object), the last of them, naming the earlier
  ones. Another overlay that changed the same object elsewhere takes none of the blame,
  however many overlays there are. One message stands for every object and kind with
  the same lines, rule and field ("makes instancetype 'u1.2xlarge' invalid (and 9
  more: ...)"), as a vendor fixes that one line;
- an object no overlay line changed (or none of whose lines wrote the field), in a
  catalog that overlays changed as a whole
  (an overlay's ``sizes``, ``series`` or ``preferences`` section, which decide what
  else exists, or else a setting stamped on every object), is reported at that
  section's line: a preference left unsatisfiable by a ``sizes.keep`` was not
  touched, yet the keep is what broke it. A vendor's overlays start from the built-in
  catalog, which validates, so only they can have broken it (a self-contained catalog
  with problems of its own and overlays sees those blamed on the overlays too); where
  no such section changed, the lines that shaped the object are blamed after all;
- any other problem keeps its document and gains "(defined in file:line)".

This replaces a second, trial validation of every overlay's result: the one
validation of a build is the one that points at the overlays. Objects retained
from an old bundle were not made from the catalog and are only ever pointed at
where they were defined.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence, Union

from ..model import Change, CatalogObject
from ..problems import Location, Path as KeyPath, Problem, jsonpath
from ..source.documents import BundleDoc

#: Catalog-wide changes an untouched object's problem is blamed on, most telling first:
#: what removed instancetypes or preferences, then what is stamped on every object.
FALLBACK = (("sizes",), ("series",), ("preferences",), ("vendor", "version", "labels", "annotations"))
#: Most names of the other objects one message lists.
LISTED = 5


_WHOLE: tuple[KeyPath, ...] = ((),)
_ANNOTATIONS: tuple[KeyPath, ...] = (("metadata", "annotations"),)
_METADATA: tuple[KeyPath, ...] = (("metadata",),)
#: What each key of an overlay's ``change`` entry decides of the objects the item becomes: the
#: patches (load/overlays.py's PATCHES) the fields under them, a key not named here the whole object.
_SERIES_KEYS = {"spec": ("spec",), "displayName": _ANNOTATIONS, "description": _ANNOTATIONS,
                "icon": _ANNOTATIONS, "class": _METADATA, "deprecated": _METADATA, "deprecatedSizes": _METADATA}
_PREFERENCE_KEYS = {"spec": ("spec",), "overrideSpec": ("spec",), "requirements": ("spec", "requirements"),
                    "displayName": _ANNOTATIONS, "description": _ANNOTATIONS, "iconClass": _ANNOTATIONS,
                    "tags": _ANNOTATIONS, "deprecated": _METADATA}
#: Settings that shape items, by their overlay path: the GPU parameters GPU series, the provider preferences.
_SETTINGS = {("parameters", "gpu"): (("spec", "gpus"), ("metadata",)), ("provider",): _ANNOTATIONS}


def decided(line: Location) -> tuple[KeyPath, ...]:
    """The fields of an object that the overlay line at ``line`` decides, as JSON paths; ``((),)``: all of it.

    ``series.change.u.spec.cpu.model`` decides ``$.spec.cpu.model``; ``series.change.u.displayName``
    the annotations; ``series.add.z``, ``series.change.u.sizes`` or a line of no known
    section, the whole object.
    """
    path = line.path
    if path in _SETTINGS:
        return _SETTINGS[path]
    if len(path) < 4 or path[1] != "change" or path[0] not in ("series", "preferences"):
        return _WHOLE
    keys = _SERIES_KEYS if path[0] == "series" else _PREFERENCE_KEYS
    field = keys.get(path[3])
    if field is None:
        return _WHOLE
    if field and isinstance(field[0], str):  # a patch: the leaf written below it
        return ((*field, *path[4:]),)
    return field


def _overlaps(one: KeyPath, other: KeyPath) -> bool:
    """Whether one path is within the other (the same field, a field inside it, or around it)."""
    n = min(len(one), len(other))
    return tuple(one[:n]) == tuple(other[:n])


def deciding(lines: tuple[Location, ...], path: KeyPath) -> tuple[Location, ...]:
    """Of the lines that shaped an object, those that decided the field at ``path``, in the order applied.

    Empty when none of them wrote that field: the problem is then not of their making.
    """
    return tuple(line for line in lines if any(_overlaps(field, path) for field in decided(line)))


def catalog_wide(changes: Sequence[Change]) -> tuple[Location, ...]:
    """The overlay lines a problem on an object no overlay changed is blamed on, the last blamed; () if none.

    Of the first kind in FALLBACK that any overlay wrote, every such line in the order
    applied: with two overlays narrowing the sizes, either may have removed what the
    object needs, so the last is blamed and the earlier named ("also shaped by").
    """
    for keys in FALLBACK:
        found = [c.location for c in changes if c.subject[0] == "catalog" and c.subject[1] in keys]
        if found:
            return tuple(dict.fromkeys(found))
    return ()


def point_at_sources(problems: Sequence[Problem], objects: Sequence[CatalogObject],
                     changes: Sequence[Change] = (), documents: Sequence[BundleDoc] = ()) -> list[Problem]:
    """``problems`` pointed at the overlay lines or the catalog file behind each object, in the same order.

    ``changes`` are the catalog's (model.Catalog.changes): they decide where a
    problem on an object no overlay line changed is blamed. ``documents`` are the
    validated ones: a problem's document says its kind, so that an instancetype and
    a preference of one name (a retained one, say) are told apart.
    """
    defined = {(kind, o.name): o for o in objects for kind in o.kinds}
    by_name = {o.name: o for o in objects}
    kinds = {(d.file, d.index): d.kind for d in documents}
    fallback = catalog_wide(changes)
    slots: list[Union[Problem, tuple]] = []
    groups: dict[tuple, list[tuple[Problem, CatalogObject]]] = {}
    for problem in problems:
        name = problem.location.name or ""
        kind = kinds.get((problem.location.file, problem.location.doc))
        obj = defined.get((kind, name)) if kind is not None else by_name.get(name)
        if obj is None or problem.older_release is not None:
            slots.append(problem)
            continue
        lines = () if obj.facts.get("retained") else (
            deciding(obj.shaped_by, problem.location.path) or fallback or obj.shaped_by)
        if not lines:
            slots.append(_defined_in(problem, obj))
            continue
        key = (lines, problem.rule, problem.location.path, problem.severity)  # a warning never joins an error
        if key not in groups:
            groups[key] = []
            slots.append(key)
        groups[key].append((problem, obj))
    return [slot if isinstance(slot, Problem) else _blamed(slot[0], groups[slot]) for slot in slots]


def _defined_in(problem: Problem, obj: CatalogObject) -> Problem:
    source = obj.location
    if source.file == problem.location.file:
        return problem
    where = source.file + (f":{source.line}" if source.line else "")
    return replace(problem, message=f"{problem.message} (defined in {where})")


def _blamed(lines: tuple[Location, ...], members: list[tuple[Problem, CatalogObject]]) -> Problem:
    """One problem at the last of ``lines`` for every object (and kind) of ``members``."""
    first, obj = members[0]
    others = sorted({o.name for _problem, o in members} - {obj.name})
    more = ""
    if others:
        more = f" (and {len(others)} more: {', '.join(others[:LISTED])}{', ...' if len(others) > LISTED else ''})"
    earlier = ""
    if len(lines) > 1:
        earlier = " (also shaped by " + ", ".join(f"{loc.file}:{loc.line}" for loc in lines[:-1]) + ")"
    verdict = "draw a warning" if first.is_warning else "invalid"
    message = f"makes {obj.family} {obj.name!r} {verdict}{more}: {jsonpath(first.location.path)}: {first.message}"
    return Problem(lines[-1], message + earlier, first.rule, since=first.since, severity=first.severity)
