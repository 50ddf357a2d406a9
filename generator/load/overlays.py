"""Vendor overlays: small files that change a loaded catalog instead of a copy of it.

A vendor who forks a catalog to rename a label or drop a few sizes inherits
every upstream change as a merge conflict. An overlay states only the
difference (source/formats/overlay.py is its schema, docs/vendor-guide.md its guide)
and is applied to the frozen model, so the upstream data stays where it is.

Within one overlay the steps run in a fixed order, whatever the order of the
keys in the file: settings; new size matrices; series and sizes dropped or
kept; new series; changed series; new traits; preferences dropped or kept; new
preferences; changed preferences. Removals therefore trim what the catalog had
and never a vendor's own additions of the same file. Overlays apply one after
the other, each to the result of the ones before it.

Applying an overlay changes the model and nothing else. A mistake in the
overlay itself (an unknown series, a bad key, a contradiction) is a Problem at
its file, line and column, raised before anything is expanded. Whether the
catalog it makes is valid is for the build's one validation to say, on the
documents that ship: each change is recorded as a model.Change (which item,
which overlay line), expansion carries those lines to the objects, and a
problem on an object an overlay shaped is reported at the overlay line(s) that
shaped it (validate/provenance.py), so a vendor does not have to trace a bundle
document back to the line they wrote.
"""

from __future__ import annotations

import fnmatch
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from ..errors import InputError
from ..merge import merge_patch
from ..model import (LABEL_PREFIX, Catalog, Change, Family, PreferenceCatalog, PreferenceDef, Requirements, Series,
                     Trait, TraitRef, Variant)
from ..objectmeta import annotation_key_problem, annotations_size_problem, label_key_problem
from ..problems import Location, Path as KeyPath, Problem
from ..source.formats import OVERLAY
from ..source.inputcheck import read_checked
from ..source.yamlsrc import Document, SourceMap
from . import catalog as load
from .catalog import parse_ratio, select_sizes
from .gpu import COUNT_WITHOUT_DEVICE, device_problem
from .lifecycle import RETIRED_SECTIONS, deprecation_of, merged, retirements_of, sizes_deprecated
from .traits import spec_problems, suggest

#: Annotations the catalog writes on its objects; an overlay changes them through
#: the setting that produces them, never by stamping a second value over them.
RESERVED_ANNOTATIONS = {
    "iconClass": "preferences.change (iconClass)",
    "tags": "preferences.change (tags)",
    "openshift.io/display-name": "preferences.change (displayName)",
    "openshift.io/provider-display-name": "provider.displayName",
    "openshift.io/documentation-url": "provider.documentationURL",
    "openshift.io/support-url": "provider.supportURL",
}
_GLOB = set("*?[")
#: Top-level keys recorded as changes of the catalog as a whole (``("catalog", key)``): the
#: settings, and the sections deciding which instancetypes and preferences exist. Where a
#: problem on an object no overlay line changed is blamed is validate/provenance.py's choice.
_CATALOG_KEYS = ("vendor", "version", "labels", "annotations", "parameters", "provider", "sizes", "series",
                 "preferences")


class _Rebased(SourceMap):
    """An overlay's source map seen from a catalog file's paths.

    Loading code written for series/*.yaml reports at paths such as
    ``("sizes", "from")``; seen through this view they land on the overlay line
    the same value was written at (``series.change.cx.sizes.from``).
    """

    def __init__(self, parent: SourceMap, old: KeyPath, new: KeyPath):
        super().__init__(parent.file, parent.values, parent.keys)
        self.old, self.new = tuple(old), tuple(new)

    def locate(self, path: KeyPath, *, key: bool = False) -> Location:
        path = tuple(path)
        if path[:len(self.old)] == self.old:
            path = self.new + path[len(self.old):]
        return super().locate(path, key=key)


#: The keys of a ``change`` entry that patch a mapping: each leaf they write is a line of its own.
PATCHES = ("spec", "overrideSpec", "requirements")


def _leaves(patch: Mapping[str, Any]) -> list[KeyPath]:
    """The key paths of every value a merge patch writes (a mapping with keys is not a leaf, an empty one is)."""
    leaves: list[KeyPath] = []
    for key, value in patch.items():
        if isinstance(value, Mapping) and value:
            leaves += [(key, *rest) for rest in _leaves(value)]
        else:
            leaves.append((key,))
    return leaves


def _names(items: Iterable[str]) -> str:
    return ", ".join(sorted(items))


class _Overlay:
    """One overlay file applied to one catalog state; problems are collected, not raised."""

    def __init__(self, doc: Document, catalog: Catalog, preferences: PreferenceCatalog):
        self.doc = doc
        self.data: Mapping[str, Any] = doc.data
        self.catalog = catalog
        self.prefs = preferences
        self.problems: list[Problem] = []
        # What this overlay changed of each half of the model, and the overlay line responsible.
        self.catalog_changes: list[Change] = []
        self.pref_changes: list[Change] = []

    # ------------------------------------------------------------------ helpers

    def at(self, *path: Any, key: bool = False) -> Location:
        return self.doc.source.locate(path, key=key)

    def problem(self, path: KeyPath, message: str, *, key: bool = False) -> None:
        self.problems.append(self.doc.source.problem(path, message, key=key))

    def record(self, kind: str, name: str, location: Location) -> None:
        """Note that the overlay line at ``location`` changed the model item ``(kind, name)``."""
        changes = self.pref_changes if kind in ("preference", "trait") else self.catalog_changes
        changes.append(Change((kind, name), location))

    def written(self, base: KeyPath, body: Mapping[str, Any]) -> list[Location]:
        """The lines of what a ``change`` entry at ``base`` writes: each key, and each leaf of a patch.

        Each is recorded as a change of its own, so that a problem is blamed on the line
        that decided the field it is about (validate/provenance.py), not on another line
        of the same item, nor on another overlay that changed the item elsewhere.
        """
        paths: list[KeyPath] = []
        for key, value in body.items():
            if key in PATCHES and isinstance(value, Mapping) and value:
                paths += [(*base, key, *leaf) for leaf in _leaves(value)]
            else:
                paths.append((*base, key))
        return [self.at(*path, key=True) for path in paths] or [self.at(*base, key=True)]

    def section(self, name: str) -> Mapping[str, Any]:
        return self.data.get(name) or {}

    def rebased(self, data: Any, old: KeyPath, new: KeyPath) -> Document:
        return Document(data, _Rebased(self.doc.source, old, new), 0)

    def find_series(self, name: str, path: KeyPath, *, key: bool) -> Series | None:
        """A series by name (``cx1``) or, when only one series has it, by prefix (``cx``)."""
        series = self.catalog.series
        found = [s for s in series if s.name == name] or [s for s in series if s.prefix == name]
        if len(found) == 1:
            return found[0]
        if found:
            self.problem(path, f"prefix {name!r} names several series ({_names(s.name for s in found)}); "
                         "write the series name", key=key)
        else:
            known = [s.name for s in series] + [s.prefix for s in series]
            self.problem(path, f"unknown series {name!r}{suggest(name, known)} "
                         f"(series: {_names(s.name for s in series)})", key=key)
        return None

    def set_series(self, series: Sequence[Series]) -> None:
        self.catalog = replace(self.catalog, series=tuple(series))

    # ------------------------------------------------------------------ settings

    def settings(self) -> None:
        settings = self.catalog.settings
        changes: dict[str, Any] = {}
        for key in ("vendor", "version"):
            if key in self.data:
                changes[key] = self.data[key]
        labels = self.data.get("labels", {})
        annotations = self.data.get("annotations", {})
        # Key syntax is judged here, with the keys the catalog keeps for itself, so that one
        # run names every key to change (objectmeta.py holds the API server's syntax).
        for section, keys, key_problem in (("labels", labels, label_key_problem),
                                           ("annotations", annotations, annotation_key_problem)):
            for key in keys:
                problem = key_problem(key)
                if problem:
                    self.problem((section, key), f"{problem}; a key looks like example.com/team", key=True)
        too_big = annotations_size_problem(annotations)
        if too_big:
            self.problem(("annotations",), too_big, key=True)
        for key in labels:
            if key.startswith(LABEL_PREFIX):
                self.problem(("labels", key), f"labels under {LABEL_PREFIX} are the catalog's own; set the "
                             "vendor label with `vendor:` and leave the others to the catalog", key=True)
        for key in annotations:
            if key.startswith(LABEL_PREFIX):
                self.problem(("annotations", key), f"annotations under {LABEL_PREFIX} are the catalog's own "
                             "(displayName and description come from the series or preference)", key=True)
            elif key in RESERVED_ANNOTATIONS:
                self.problem(("annotations", key), f"the catalog sets annotation {key!r} itself; change it "
                             f"through {RESERVED_ANNOTATIONS[key]}", key=True)
        if labels:
            changes["extra_labels"] = dict(sorted({**settings.extra_labels, **labels}.items()))
        if annotations:
            changes["extra_annotations"] = dict(sorted({**settings.extra_annotations, **annotations}.items()))
        gpu = self.section("parameters").get("gpu")
        if gpu:
            merged = {**(settings.parameters.get("gpu") or {}), **gpu}
            found = device_problem(gpu["deviceName"]) if "deviceName" in gpu else None
            if found:
                self.problem(("parameters", "gpu", "deviceName"), found)
            elif "deviceName" not in merged:
                self.problem(("parameters", "gpu"), COUNT_WITHOUT_DEVICE, key=True)
            changes["parameters"] = {**settings.parameters, "gpu": merged}
            for series in self.catalog.series:  # the GPU parameters shape every GPU series
                if series.features.get("gpus") or any(v.features.get("gpus") for v in series.variants):
                    self.record("series", series.name, self.at("parameters", "gpu"))
        if "spellings" in self.data:
            own = load.spellings_of(self.doc)
            fields = {spelling.field for spelling in own}
            changes["spellings"] = (*(s for s in settings.spellings if s.field not in fields), *own)
        if "retired" in self.data:
            self.retire()
        if "provider" in self.data:
            changes["provider"] = {**settings.provider, **self.data["provider"]}
            for name in self.prefs.preferences:  # the provider is an annotation of every preference
                self.record("preference", name, self.at("provider"))
        if changes:
            self.catalog = replace(self.catalog, settings=replace(settings, **changes))

    def retire(self) -> None:
        """``retired``: entries added or replacing the catalog's of their name; null takes one away."""
        found = retirements_of(self.data["retired"], self.doc.source, ("retired",), self.problems)
        for family, name in (key for key, retirement in found.items() if retirement is None):
            if (family, name) not in self.catalog.retirements:
                section = next(s for s, f in RETIRED_SECTIONS.items() if f == family)
                self.problem(("retired", section, name), f"{name!r} is no retired {family} of the catalog: there "
                             "is no entry to take away", key=True)
        self.catalog = replace(self.catalog, retirements=merged(self.catalog.retirements, found.items()))

    # ------------------------------------------------------------------ sizes and series

    def add_matrices(self) -> None:
        added = self.section("matrices").get("add", {})
        for name in added:
            if name in self.catalog.matrices:
                self.problem(("matrices", "add", name), f"size matrix {name!r} already exists; a new matrix "
                             f"needs a name of its own (defined: {_names(self.catalog.matrices)})", key=True)
        fresh = {k: v for k, v in added.items() if k not in self.catalog.matrices}
        if fresh:
            doc = self.rebased({"matrices": fresh}, ("matrices",), ("matrices", "add"))
            matrices = {**self.catalog.matrices, **load._matrices(doc)}
            self.catalog = replace(self.catalog, matrices=matrices)
            for name in fresh:
                self.record("matrix", name, self.at("matrices", "add", name, key=True))

    def select_series(self) -> None:
        section = self.section("series")
        # Both lists name series of the catalog as it was, whichever is applied first.
        chosen: dict[str, dict[str, int]] = {}
        for op in ("keep", "drop"):
            if op in section:
                chosen[op] = {}
                for i, name in enumerate(section[op]):
                    if (found := self.find_series(name, ("series", op, i), key=False)) is not None:
                        chosen[op].setdefault(found.name, i)
        self.contradictions("series", chosen, "series")
        kept, dropped = chosen.get("keep"), chosen.get("drop", {})
        self.set_series([s for s in self.catalog.series
                         if (kept is None or s.name in kept) and s.name not in dropped])

    def contradictions(self, section: str, chosen: Mapping[str, Mapping[str, int]], what: str) -> None:
        """Names an overlay both keeps and drops: it cannot mean both, so neither is guessed."""
        kept, dropped = chosen.get("keep", {}), chosen.get("drop", {})
        for name in sorted(set(kept) & set(dropped), key=lambda n: dropped[n]):
            self.problem((section, "drop", dropped[name]), f"{what} {name!r} is both kept ({section}.keep"
                         f"[{kept[name]}]) and dropped; name it in one of the two lists")

    def instancetypes_left(self, before: Sequence[Series]) -> None:
        """An overlay that removes every series leaves a catalog of no instancetypes: refused."""
        if self.catalog.series or not before or self.problems:
            return  # with a problem already found, the series left are only guesswork
        # Only series.keep and series.drop remove series: one of them did it.
        where = ("series", "keep") if "keep" in self.section("series") else ("series", "drop")
        self.problem(where, f"leaves the catalog without instancetypes (it removes every series: "
                     f"{_names(s.name for s in before)}); keep at least one, or add one under series.add", key=True)

    def select_sizes(self) -> None:
        """Sizes kept or dropped across the catalog.

        Recorded as a catalog-wide change (``("catalog", "sizes")``), not as a change
        of each series: removing sizes breaks no instancetype that is left, only what
        needs one of those removed (a preference's requirements), and a series an
        overlay line did change must still be blamed on that line.
        """
        section = self.section("sizes")
        if not section:
            return
        known = {size.name for matrix in self.catalog.matrices.values() for size in matrix.sizes}
        before = len(self.problems)
        chosen: dict[str, set[str]] = {}
        for op in ("keep", "drop"):
            names = set()
            for i, name in enumerate(section.get(op, [])):
                if name in known:
                    names.add(name)
                else:
                    self.problem(("sizes", op, i), f"unknown size {name!r}{suggest(name, known)} "
                                 f"(sizes: {_names(known)})")
            if op in section:
                chosen[op] = names
        self.contradictions("sizes", {op: {name: section[op].index(name) for name in names}
                                      for op, names in chosen.items()}, "size")
        if len(self.problems) > before:
            return  # with a name unknown, which series would be emptied is only guesswork
        series = []
        for one in self.catalog.series:
            sizes = [s for s in one.sizes if ("keep" not in chosen or s in chosen["keep"])
                     and s not in chosen.get("drop", ())]
            if sizes:
                series.append(replace(one, sizes=tuple(sizes)))
                continue
            op = "keep" if "keep" in section else "drop"
            self.problem(("sizes", op), f"leaves series {one.name!r} without sizes (it has: "
                         f"{', '.join(one.sizes)}); drop the series with series.drop, or keep one of its sizes",
                         key=True)
            series.append(one)  # kept as it was, so later steps do not report it missing too
        self.set_series(series)

    def add_series(self) -> None:
        for prefix, body in self.section("series").get("add", {}).items():
            base = ("series", "add", prefix)
            if body.get("prefix", prefix) != prefix:
                self.problem(base + ("prefix",), f"prefix {body['prefix']!r} differs from the key {prefix!r} "
                             "it is added under; leave prefix out or make them equal")
                continue
            name = f"{prefix}{body['version']}"
            if any(s.name == name for s in self.catalog.series):
                self.problem(base, f"series {name!r} is already in the catalog; change it under "
                             "series.change, or give the new series another prefix or version", key=True)
                continue
            matrix = body.get("matrix", "standard")
            if matrix not in self.catalog.matrices:
                self.problem(base + ("matrix",), self.unknown_matrix(matrix))
                continue
            loaded = load._series(self.rebased({**body, "prefix": prefix}, (), base),
                                  self.catalog.matrices, self.problems)
            if loaded is not None:
                self.set_series([*self.catalog.series, loaded])
                self.record("series", loaded.name, self.at(*base, key=True))

    def unknown_matrix(self, name: str) -> str:
        return (f"unknown size matrix {name!r}{suggest(name, self.catalog.matrices)} (defined: "
                f"{_names(self.catalog.matrices)}; add one under matrices.add)")

    def change_series(self) -> None:
        for name, body in self.section("series").get("change", {}).items():
            base = ("series", "change", name)
            found = self.find_series(name, base, key=True)
            if found is None:
                continue
            changed = self.changed_series(found, body, base)
            if changed is None:
                continue
            self.set_series([changed if s is found else s for s in self.catalog.series])
            if changed.name != found.name:  # a new version: what shaped the series shapes it still
                earlier = [c for c in (*self.catalog.changes, *self.catalog_changes)
                           if c.subject == ("series", found.name)]
                for change in earlier:
                    self.record("series", changed.name, change.location)
            for line in self.written(base, body):
                self.record("series", changed.name, line)

    def changed_series(self, series: Series, body: Mapping[str, Any], base: KeyPath) -> Series | None:
        before = len(self.problems)
        changes: dict[str, Any] = {}
        for key, attribute in (("version", "version"), ("class", "cls"), ("displayName", "display_name"),
                               ("icon", "icon")):
            if key in body:
                changes[attribute] = body[key]
        if "deprecated" in body:
            changes["deprecated"], changes["deprecation"] = deprecation_of(body["deprecated"], self.doc.source,
                                                                           base + ("deprecated",))
        if "description" in body:
            changes["description"] = body["description"]  # as written, like series/*.yaml
        if "ratio" in body:
            changes["ratio"] = parse_ratio(body["ratio"])
        if "matrix" in body or "sizes" in body:
            matrix_name = body.get("matrix", series.matrix)
            matrix = self.catalog.matrices.get(matrix_name)
            if matrix is None:
                self.problem(base + ("matrix",), self.unknown_matrix(matrix_name))
            else:
                # A new matrix without a selection offers all of its sizes (select_sizes of None).
                changes["matrix"] = matrix_name
                changes["sizes"] = select_sizes(body.get("sizes"), matrix, self.rebased(body, (), base),
                                                self.problems)
        if "features" in body:
            features = dict(series.features)
            for flag, value in body["features"].items():
                if value is None:
                    features.pop(flag, None)
                else:
                    features[flag] = value
            changes["features"] = features
        if "variants" in body:
            changes["variants"] = tuple(Variant(suffix, flags, self.at(*base, "variants", suffix))
                                        for suffix, flags in sorted(body["variants"].items()))
        if "spec" in body:
            changes["spec"] = merge_patch(series.spec, body["spec"])
        if len(self.problems) > before:
            return None
        changed = replace(series, **changes)
        if "deprecatedSizes" in body:  # judged against the sizes and variants the series now has
            sizes = sizes_deprecated(body["deprecatedSizes"], self.doc.source, base + ("deprecatedSizes",), changed,
                                     self.problems)
            if len(self.problems) > before:
                return None
            changed = replace(changed, deprecated_sizes=sizes)
        if changed.name != series.name and any(s.name == changed.name for s in self.catalog.series):
            self.problem(base + ("version",), f"series {changed.name!r} is already in the catalog")
            return None
        return changed

    # ------------------------------------------------------------------ traits and preferences

    def add_traits(self) -> None:
        traits = dict(self.prefs.traits)
        for name, body in self.section("traits").get("add", {}).items():
            if name in traits:
                self.problem(("traits", "add", name), f"trait {name!r} already exists; a new trait needs a "
                             "name of its own", key=True)
                continue
            # Reported here, once, at the trait; still added, so that its users do not call it unknown.
            self.problems += spec_problems(self.doc, ("traits", "add", name, "spec"), body["spec"])
            traits[name] = Trait(name, body["description"].strip(), body["spec"], tuple(body.get("tags", ())),
                                 self.at("traits", "add", name, key=True), bool(body.get("essential")))
            self.record("trait", name, self.at("traits", "add", name, key=True))
        self.prefs = replace(self.prefs, traits=dict(sorted(traits.items())))

    def match_preferences(self, op: str) -> dict[str, int]:
        """Preference names a drop/keep list matches, each with the index of the entry that matched it."""
        names = list(self.prefs.preferences)
        matched: dict[str, int] = {}
        for i, pattern in enumerate(self.section("preferences").get(op, [])):
            if _GLOB & set(pattern):
                hits = fnmatch.filter(names, pattern)
                if not hits:
                    self.problem(("preferences", op, i), f"pattern {pattern!r} matches no preference")
            elif pattern in self.prefs.preferences:
                hits = [pattern]
            else:
                hits = []
                self.problem(("preferences", op, i), f"unknown preference {pattern!r}{suggest(pattern, names)}")
            for hit in hits:
                matched.setdefault(hit, i)
        return matched

    def select_preferences(self) -> None:
        section = self.section("preferences")
        if "keep" not in section and "drop" not in section:
            return
        current = self.prefs.preferences
        removed: dict[str, KeyPath] = {}
        kept = self.match_preferences("keep") if "keep" in section else None
        dropped = self.match_preferences("drop")
        if kept is not None:
            removed.update({n: ("preferences", "keep") for n in current if n not in kept})
            # Kept by a pattern and dropped by name is an exception to the pattern
            # (keep windows.*, drop windows.xp); kept by its name, it is a contradiction.
            named = {n: i for i, n in reversed(list(enumerate(section["keep"]))) if n in current}
            self.contradictions("preferences", {"keep": named, "drop": dropped}, "preference")
        for name, i in dropped.items():
            removed.setdefault(name, ("preferences", "drop", i))
        remaining = {n: p for n, p in current.items() if n not in removed}
        for name, pref in remaining.items():
            if pref.based_on in removed:
                where = removed[pref.based_on]
                self.problem(where, f"removes {pref.based_on!r}, which {name!r} is based on; "
                             f"remove {name!r} too, or keep both", key=len(where) == 2)
        self.prefs = replace(self.prefs, preferences=remaining)

    def trait_refs(self, entries: Sequence[Any], path: KeyPath) -> tuple[TraitRef, ...]:
        refs = []
        for i, entry in enumerate(entries):
            name, override = (entry, False) if isinstance(entry, str) else (entry["trait"], entry.get("override", False))
            if name not in self.prefs.traits:
                self.problem(path + (i,), f"unknown trait {name!r}{suggest(name, self.prefs.traits)} (traits: "
                             "the files of preferences/traits/ and those added under traits.add)")
                continue
            refs.append(TraitRef(name, override, self.at(*path, i)))
        return tuple(refs)

    def preference_fields(self, body: Mapping[str, Any], base: KeyPath) -> dict[str, Any]:
        """PreferenceDef fields for what ``body`` writes, located at the overlay."""
        fields: dict[str, Any] = {}
        for key, attribute in (("displayName", "display_name"), ("description", "description"),
                               ("iconClass", "icon_class")):
            if key in body:  # a description is kept as written, like in preferences/*.yaml
                fields[attribute] = body[key] if key == "description" else body[key].strip()
        if "basedOn" in body:
            fields["based_on"] = body["basedOn"]
            fields["based_on_location"] = self.at(*base, "basedOn")
        if "osType" in body:
            fields["os_type"] = body["osType"].strip()
            fields["os_type_location"] = self.at(*base, "osType")
        if "tags" in body:
            fields["tags"] = tuple(body["tags"])
        if "traits" in body:
            fields["traits"] = self.trait_refs(body["traits"], base + ("traits",))
        if "requirements" in body:
            value = body["requirements"]
            fields["requirements"] = Requirements(value.get("cpu"), value.get("memory"),
                                                  self.at(*base, "requirements"))
        for key, attribute in (("spec", "spec"), ("overrideSpec", "override_spec")):
            if key in body:
                fields[attribute] = body[key]
                fields[f"{attribute}_location"] = self.at(*base, key)
        if "deprecated" in body:
            fields["deprecated"], fields["deprecation"] = deprecation_of(body["deprecated"], self.doc.source,
                                                                         base + ("deprecated",))
        return fields

    def family_of(self, name: str, added: Mapping[str, Any], seen: tuple = ()) -> tuple[str, bool]:
        """(family, whether it was named explicitly) for a preference being added.

        ``family:`` if written; else the family of the preference it is based on;
        else the first part of its name (``acme-linux`` for ``acme-linux.arm64``).
        """
        body = added[name]
        if "family" in body:
            return body["family"], True
        base = body.get("basedOn")
        if base in self.prefs.preferences:
            return self.prefs.preferences[base].family, False
        if base in added and base not in seen:
            return self.family_of(base, added, seen + (name,))
        return name.split(".")[0], False

    def add_preferences(self) -> None:
        added = self.section("preferences").get("add", {})
        preferences = dict(self.prefs.preferences)
        families = dict(self.prefs.families)
        for name, body in added.items():
            base = ("preferences", "add", name)
            if name in preferences:
                self.problem(base, f"preference {name!r} already exists; change it under preferences.change",
                             key=True)
                continue
            based_on = body.get("basedOn")
            if based_on is not None and based_on not in preferences and based_on not in added:
                self.problem(base + ("basedOn",), f"unknown preference {based_on!r}"
                             f"{suggest(based_on, [*preferences, *added])}")
                continue
            family, explicit = self.family_of(name, added)
            if family not in families:
                if explicit:
                    self.problem(base + ("family",), f"unknown family {family!r}{suggest(family, families)} "
                                 f"(families: {_names(families)}); leave family out to start a new one")
                    continue
                families[family] = Family(family, None, None, None, (), Requirements(), False,
                                          self.at(*base, key=True))
            fields = self.preference_fields(body, base)
            preferences[name] = PreferenceDef(name=name, family=family, location=self.at(*base, key=True),
                                              **fields)
            self.record("preference", name, self.at(*base, key=True))
        self.prefs = replace(self.prefs, families=families, preferences=dict(sorted(preferences.items())))

    def change_preferences(self) -> None:
        preferences = dict(self.prefs.preferences)
        for name, body in self.section("preferences").get("change", {}).items():
            base = ("preferences", "change", name)
            pref = preferences.get(name)
            if pref is None:
                self.problem(base, f"unknown preference {name!r}{suggest(name, preferences)}", key=True)
                continue
            if body.get("basedOn") is not None and body["basedOn"] not in preferences:
                self.problem(base + ("basedOn",), f"unknown preference {body['basedOn']!r}"
                             f"{suggest(body['basedOn'], preferences)}")
                continue
            fields = self.preference_fields(body, base)
            if "spec" in fields:
                fields["spec"] = merge_patch(pref.spec or {}, fields["spec"])
            if "override_spec" in fields:
                fields["override_spec"] = merge_patch(pref.override_spec or {}, fields["override_spec"])
            if "requirements" in fields:
                fields["requirements"] = fields["requirements"].over(pref.requirements)
            if "addTraits" in body:
                added = self.trait_refs(body["addTraits"], base + ("addTraits",))
                fields["traits"] = tuple(fields.get("traits", pref.traits)) + added
            preferences[name] = replace(pref, **fields)
            for line in self.written(base, body):
                self.record("preference", name, line)
        self.prefs = replace(self.prefs, preferences=preferences)

    # ------------------------------------------------------------------ applying

    def apply(self) -> None:
        before = self.catalog.series
        for key in _CATALOG_KEYS:
            if self.data.get(key):
                self.record("catalog", key, self.at(key, key=True))
        for step in (self.settings, self.add_matrices, self.select_series, self.select_sizes,
                     self.add_series, self.change_series, self.add_traits, self.select_preferences,
                     self.add_preferences, self.change_preferences):
            step()
        self.instancetypes_left(before)

    def result(self) -> tuple[Catalog, PreferenceCatalog]:
        """The changed model, with this overlay's changes recorded after those of the overlays before it."""
        return (replace(self.catalog, changes=self.catalog.changes + tuple(self.catalog_changes)),
                replace(self.prefs, changes=self.prefs.changes + tuple(self.pref_changes)))


def load_overlay(path: Path) -> Document:
    """Read an overlay file and check it against the overlay format; InputError if it breaks it."""
    doc, problems = read_checked(Path(path), str(path), OVERLAY)
    if problems or doc is None:
        raise InputError(problems)
    return doc


def apply_overlay(catalog: Catalog, preferences: PreferenceCatalog,
                  doc: Document) -> tuple[Catalog, PreferenceCatalog]:
    """One overlay applied to the model, its changes recorded; InputError naming its lines if it is wrong."""
    if not doc.data:  # an empty overlay, as `citgen init` writes it, changes nothing
        return catalog, preferences
    step = _Overlay(doc, catalog, preferences)
    step.apply()
    if step.problems:
        raise InputError(step.problems)
    return step.result()


def apply_overlays(catalog: Catalog, preferences: PreferenceCatalog,
                   paths: Iterable[Path]) -> tuple[Catalog, PreferenceCatalog]:
    """Apply overlay files in order, each to the result of those before it."""
    for path in paths:
        catalog, preferences = apply_overlay(catalog, preferences, load_overlay(Path(path)))
    return catalog, preferences
