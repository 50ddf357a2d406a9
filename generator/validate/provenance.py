"""Problems on bundle documents pointed back at the catalog lines behind their objects.

Validation judges the documents a build ships, so it finds each problem at a
bundle document (``common-instancetypes-all-bundle.yaml#3 (u1.large)``). A
catalog author fixes a file, not a document, so the build says which one:

- an object an overlay shaped (model.CatalogObject.shaped_by) is reported at the
  overlay line that shaped it last, naming the earlier ones. One message stands for
  every object and kind with the same lines, rule and field ("makes instancetype
  'u1.2xlarge' invalid (and 9 more: ...)"), as a vendor fixes that one line;
- an object no overlay line changed, in a catalog that overlays changed as a whole
  (an overlay's ``sizes``, ``series`` or ``preferences`` section, which decide what
  else exists, or else a setting stamped on every object), is reported at that
  section's line: a preference left unsatisfiable by a ``sizes.keep`` was not
  touched, yet the keep is what broke it. A vendor's overlays start from the built-in
  catalog, which validates, so only they can have broken it (a self-contained catalog
  with problems of its own and overlays sees those blamed on the overlays too);
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
from ..problems import Location, Problem, jsonpath
from ..source.documents import BundleDoc

#: Catalog-wide changes an untouched object's problem is blamed on, most telling first:
#: what removed instancetypes or preferences, then what is stamped on every object.
FALLBACK = (("sizes",), ("series",), ("preferences",), ("vendor", "version", "labels", "annotations"))
#: Most names of the other objects one message lists.
LISTED = 5


def catalog_wide(changes: Sequence[Change]) -> tuple[Location, ...]:
    """The overlay line a problem on an object no overlay changed is blamed on; () if there is none."""
    for keys in FALLBACK:
        found = [c.location for c in changes if c.subject[0] == "catalog" and c.subject[1] in keys]
        if found:
            return (found[-1],)
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
        lines = obj.shaped_by or (() if obj.facts.get("retained") else fallback)
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
