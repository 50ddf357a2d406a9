"""Compare two builds of a catalog: what a release note has to say.

A vendor releasing a new catalog needs three lists: objects added, objects
removed, and objects changed with the fields that changed. Removed objects get
a call-out of their own, because VirtualMachines refer to instancetypes and
preferences by name and keep doing so after a bundle stops shipping them
(``citgen build --retain-from`` carries them forward, labelled deprecated).

Objects are matched by (kind, name). The common-instancetypes-version label
differs between any two versions by design, so it is ignored unless asked for.
"""

from __future__ import annotations

import datetime as dt
import stat
from dataclasses import field, replace
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from ..errors import CitgenError, InputError
from ..frozen import frozen
from ..model import INSTANCETYPE_KINDS, KINDS, label
from .. import escape
from ..problems import PATH_EXCERPT, Location, Path as KeyPath, Problem, excerpt, jsonpath
from ..source.documents import BundleDoc
from ..source.objects import ALL_BUNDLE, STDIN, build_bundle, read_bundles
from ..source.inputfiles import lookup

VERSION_LABEL = label("common-instancetypes-version")
DEPRECATED_LABEL = label("deprecated")
_KIND_ORDER = {kind: i for i, kind in enumerate(KINDS)}


class _Absent:
    """The value of a field one side does not have (distinct from null)."""

    def __repr__(self) -> str:
        return "(absent)"


ABSENT: Any = _Absent()

Key = tuple  # (kind, name)


@frozen
class Change:
    """One changed field: its key path in the object, and its values on each side."""

    path: KeyPath
    old: Any = ABSENT
    new: Any = ABSENT

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": jsonpath(self.path)}
        if self.old is not ABSENT:
            out["old"] = self.old
        if self.new is not ABSENT:
            out["new"] = self.new
        return out


@frozen
class Entry:
    """One object that was added, removed or changed (``changes`` only for changed ones)."""

    kind: str
    name: str
    deprecated: bool = False  # labelled deprecated (on the side that has it; the new one if both)
    changes: tuple[Change, ...] = ()
    became_deprecated: bool = False  # a changed object labelled deprecated in the new build only

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "name": self.name}
        if self.deprecated:
            out["deprecated"] = True
        if self.changes:
            out["changes"] = [c.as_json() for c in self.changes]
        return out


@frozen
class Diff:
    old: str
    new: str
    added: tuple[Entry, ...] = ()
    removed: tuple[Entry, ...] = ()
    changed: tuple[Entry, ...] = ()
    ignored_labels: tuple[str, ...] = field(default_factory=tuple)
    #: Why removed objects are gone when NEW was built without a GPU device: one line per such series.
    opt_in: tuple[str, ...] = ()

    @property
    def equal(self) -> bool:
        return not (self.added or self.removed or self.changed)

    @property
    def newly_deprecated(self) -> tuple[Entry, ...]:
        """Changed objects that gained the deprecated label: the ones a release note should warn about."""
        return tuple(e for e in self.changed if e.became_deprecated)

    @property
    def retain_source(self) -> str:
        """What to hand to --retain-from to keep the removed objects: the old bundle file."""
        old = Path(self.old)
        return str(old / ALL_BUNDLE) if old.is_dir() else self.old


# --------------------------------------------------------------------------- reading


def bundle_files(path: Path) -> list[Path]:
    """The files a side of the comparison stands for: a bundle file, or a build's all-bundle."""
    if str(path) == STDIN:
        return [path]
    there = lookup(path, str(path))  # a link to nothing or in a loop, a folder that cannot be entered: refused
    if there is None:
        raise InputError.at(Location(str(path)), "no such file or folder")
    bundle = build_bundle(path, str(path)) if stat.S_ISDIR(there.st_mode) else None
    if bundle is not None:
        return [bundle]  # a build's folder: its all-bundle holds every object once
    return [path]  # a file, a pipe, or a folder of objects, read as every command reads them


def read_objects(path: Path) -> dict[Key, BundleDoc]:
    """Every object of a build or bundle file by (kind, name); InputError if any is unusable."""
    problems: list[Problem] = []
    objects: dict[Key, BundleDoc] = {}
    for doc in read_bundles(bundle_files(Path(path))):
        if not isinstance(doc.data, dict) or not isinstance(doc.kind, str):
            problems.append(Problem(doc.locate(("kind",)), "expected a Kubernetes object with a kind"))
            continue
        if doc.name is None:
            problems.append(Problem(doc.locate(("metadata", "name")), "expected an object with metadata.name"))
            continue
        first = objects.get((doc.kind, doc.name))
        if first is not None:
            problems.append(Problem(doc.locate(("metadata", "name")), f"{doc.kind} {doc.name!r} appears twice "
                                    f"(first as document {first.index})"))
            continue
        objects[(doc.kind, doc.name)] = doc
    if problems:
        raise InputError(problems)
    return objects


# --------------------------------------------------------------------------- comparing


def _exact(key: Any) -> tuple:
    """A mapping key as YAML tells keys apart: ``1``, ``true`` and ``1.0`` are three keys, not one."""
    return (type(key).__name__, repr(key))


def _same(old: Any, new: Any) -> bool:
    """Whether two leaves are written the same: Python's 1 == True == 1.0 are three YAML values.

    Floats compare by their spelling, so ``.nan`` equals ``.nan`` and ``-0.0``
    differs from ``0.0``, as in the bundle text; so do timestamps, which Python
    calls equal across time zones (``10:00+00:00`` and ``11:00+01:00``) where the
    API server keeps two different texts.
    """
    if type(old) is not type(new):
        return False
    if type(old) is float or isinstance(old, dt.date):
        return _text(old) == _text(new)
    return old == new


def _text(value: Any) -> str:
    """A leaf's spelling: a timestamp in ISO 8601, as YAML writes it; anything else as Python repr's it."""
    return value.isoformat() if isinstance(value, dt.date) else repr(value)


def _plain(value: Any) -> Any:
    """What JSON cannot hold as it is, as text: a YAML timestamp, which the reader makes a date."""
    if isinstance(value, dt.date):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON")


def compare(old: Any, new: Any, path: KeyPath = ()) -> list[Change]:
    """The leaf-level differences between two values; a subtree only one side has is one change."""
    if isinstance(old, dict) and isinstance(new, dict):
        olds = {_exact(k): v for k, v in old.items()}
        news = {_exact(k): v for k, v in new.items()}
        keys = {_exact(k): k for side in (new, old) for k in side}
        changes: list[Change] = []
        for exact in sorted(keys, key=lambda e: (str(keys[e]), e)):
            changes += compare(olds.get(exact, ABSENT), news.get(exact, ABSENT), path + (keys[exact],))
        return changes
    if isinstance(old, list) and isinstance(new, list):
        changes = []
        for i in range(max(len(old), len(new))):
            changes += compare(old[i] if i < len(old) else ABSENT, new[i] if i < len(new) else ABSENT, path + (i,))
        return changes
    if old is ABSENT and new is ABSENT:
        return []
    if _same(old, new):
        return []
    return [Change(path, old, new)]


def _without(data: Any, ignored: Iterable[str]) -> Any:
    """The object with the ignored labels taken out."""
    labels = data.get("metadata", {}).get("labels") if isinstance(data.get("metadata"), dict) else None
    if not isinstance(labels, dict) or not any(k in labels for k in ignored):
        return data
    kept = {k: v for k, v in labels.items() if k not in ignored}
    return {**data, "metadata": {**data["metadata"], "labels": kept}}


def _deprecated(doc: BundleDoc) -> bool:
    labels = doc.data.get("metadata", {}).get("labels") or {}
    return isinstance(labels, dict) and labels.get(DEPRECATED_LABEL) == "true"


def _order(key: Key) -> tuple:
    kind, name = key
    return (name, _KIND_ORDER.get(kind, len(KINDS)), kind)


def diff_objects(old: Mapping[Key, BundleDoc], new: Mapping[Key, BundleDoc], *, old_name: str = "OLD",
                 new_name: str = "NEW", ignored_labels: Sequence[str] = (VERSION_LABEL,)) -> Diff:
    added = tuple(Entry(k[0], k[1], _deprecated(new[k])) for k in sorted(set(new) - set(old), key=_order))
    removed = tuple(Entry(k[0], k[1], _deprecated(old[k])) for k in sorted(set(old) - set(new), key=_order))
    changed = []
    for key in sorted(set(old) & set(new), key=_order):
        changes = compare(_without(old[key].data, ignored_labels), _without(new[key].data, ignored_labels))
        if changes:
            now = _deprecated(new[key])
            changed.append(Entry(key[0], key[1], now, tuple(changes), now and not _deprecated(old[key])))
    return Diff(old_name, new_name, added, removed, tuple(changed), tuple(ignored_labels))


def diff_paths(old: Path, new: Path, *, include_version_label: bool = False) -> Diff:
    """Compare two builds (output directories) or two bundle files."""
    ignored = () if include_version_label else (VERSION_LABEL,)
    after = read_objects(new)
    found = diff_objects(read_objects(old), after, old_name=str(old), new_name=str(new), ignored_labels=ignored)
    return replace(found, opt_in=opt_in_lines(found.removed, {name for _kind, name in after}, str(new)))


def opt_in_lines(removed: Sequence[Entry], kept: set[str], new_name: str) -> tuple[str, ...]:
    """Removed instancetypes of a series built only with a GPU device, of which NEW has none: said, not guessed at.

    A build without a device leaves GN out (load/gpu.py), so a diff from a build with
    one lists every GN object removed; this says why, for each such series of the
    catalog the working directory is in (else the built-in one).
    """
    names = sorted({e.name for e in removed if e.kind in INSTANCETYPE_KINDS})
    if not names:
        return ()
    from ..load.catalog import load_catalog
    from ..load.gpu import needs_device, series_note, series_of
    from ..paths import catalog_folder

    try:
        series = [s for s in load_catalog(catalog_folder(None)).series if needs_device(s)]
    except CitgenError:  # a catalog that does not load tells nothing of the names: they stay removed as they are
        return ()
    lines = []
    for one in series:
        gone = [n for n in names if series_of(n, [one]) is one]
        if gone and not any(series_of(n, [one]) is one for n in kept):
            lines.append(f"{', '.join(gone)} belong{'s' if len(gone) == 1 else ''} to {series_note(one)}; "
                         f"{new_name} holds no {one.prefix.upper()} object, as a build without a device does not")
    return tuple(lines)


# --------------------------------------------------------------------------- reporting


def _value(value: Any) -> str:
    return "(absent)" if value is ABSENT else escape.json_text(value, sort_keys=True, default=_plain)


def _grouped(entries: Sequence[Entry]) -> list[tuple[str, list[str], Entry]]:
    """Entries of one name that say the same thing about each kind, as one line listing the kinds."""
    groups: dict[tuple, tuple[str, list[str], Entry]] = {}
    for entry in entries:
        said = tuple((c.path, _value(c.old), _value(c.new)) for c in entry.changes)
        key = (entry.name, said, entry.deprecated)
        if key not in groups:
            groups[key] = (entry.name, [], entry)
        groups[key][1].append(entry.kind)
    return list(groups.values())


def _section(title: str, mark: str, entries: Sequence[Entry], details: bool = False) -> list[str]:
    if not entries:
        return []
    groups = _grouped(entries)
    lines = [f"{title} ({len(groups)}):"]
    for name, kinds, entry in groups:
        note = " [deprecated]" if entry.deprecated and not details else ""
        kinds_said = ", ".join(excerpt(kind, PATH_EXCERPT) for kind in kinds)
        lines.append(f"  {mark} {excerpt(name, PATH_EXCERPT)} ({kinds_said}){note}")
        if details:
            lines += [f"      {jsonpath(c.path)}: {excerpt(_value(c.old), PATH_EXCERPT)} -> "
                      f"{excerpt(_value(c.new), PATH_EXCERPT)}" for c in entry.changes]
    return lines


def render_text(diff: Diff) -> str:
    """The diff for people: one line per object, its kinds listed when they changed alike.

    Counts here are of such lines (an object's cluster and namespaced kinds count
    once); render_json has one entry per document. Newly deprecated objects are
    also changed ones, and the summary counts them apart as well: they are what a
    release note has to warn about.
    """
    if diff.equal:
        return f"no differences between {excerpt(diff.old, PATH_EXCERPT)} and {excerpt(diff.new, PATH_EXCERPT)}\n"
    lines = [f"citgen diff {excerpt(diff.old, PATH_EXCERPT)} {excerpt(diff.new, PATH_EXCERPT)}"]
    for title, mark, entries, details in (("added", "+", diff.added, False), ("removed", "-", diff.removed, False),
                                          ("changed", "~", diff.changed, True),
                                          ("newly deprecated", "!", diff.newly_deprecated, False)):
        section = _section(title, mark, entries, details)
        if section:
            lines += [""] + section
    if diff.removed:
        count = len(_grouped(diff.removed))
        lines += ["", f"note: {count} removed object{'s' if count != 1 else ''} may still be referenced by existing "
                      "VirtualMachines (spec.instancetype.name, spec.preference.name). To keep shipping "
                      f"{'them' if count != 1 else 'it'}, labelled deprecated, build with "
                      f"--retain-from {escape.text(diff.retain_source)}"]
    lines += [f"note: {escape.text(line)}" for line in diff.opt_in]
    counts = [len(_grouped(entries)) for entries in (diff.added, diff.removed, diff.changed, diff.newly_deprecated)]
    lines += ["", "summary: {} added, {} removed, {} changed, {} newly deprecated".format(*counts)]
    return "\n".join(lines) + "\n"


def render_json(diff: Diff) -> str:
    out = {
        "old": diff.old,
        "new": diff.new,
        "equal": diff.equal,
        "ignoredLabels": list(diff.ignored_labels),
        "added": [e.as_json() for e in diff.added],
        "removed": [e.as_json() for e in diff.removed],
        "changed": [e.as_json() for e in diff.changed],
        "newlyDeprecated": [{"kind": e.kind, "name": e.name} for e in diff.newly_deprecated],
        "retainFrom": diff.retain_source if diff.removed else None,
        "optIn": list(diff.opt_in),
        "summary": {"added": len(diff.added), "removed": len(diff.removed), "changed": len(diff.changed),
                    "newlyDeprecated": len(diff.newly_deprecated)},
    }
    return escape.json_text(out, indent=2, sort_keys=True, default=_plain) + "\n"
