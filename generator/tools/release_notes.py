"""A diff as the catalog section of a GitHub release: Markdown a maintainer pastes as it is.

The text report (tools/diff.py) is for a terminal; a release page is read by people
deciding whether to upgrade. They look for their series or their OS, so every
list is grouped by kind and then by series (the part of a name before its first
dot: ``u1`` for ``u1.large``, ``rhel`` for ``rhel.9``). A cluster-wide kind and its
namespaced twin almost always change alike; such entries share one heading naming
both kinds instead of repeating every line.

Removed objects come with the same warning as the text report: VirtualMachines
keep naming them after a bundle stops shipping them. An object whose only change
is the deprecated label it gained is listed under "Newly deprecated" and not again
under "Changed"; one that changed in other ways too is in both.

Names and kinds come from the bundles compared and may be any text: names and
values are code spans (escape.markdown_code), series and kinds Markdown text
(escape.markdown), so none can end its line, start a workflow command, a
heading or a link, or write HTML into the release.
"""

from __future__ import annotations

import json
from typing import Any, Sequence

from .. import escape
from ..problems import PATH_EXCERPT, excerpt, jsonpath
from .diff import ABSENT, DEPRECATED_LABEL, Diff, Entry

#: A heading level below the release's own title (GitHub renders a release body's ``##`` as its sections).
SECTION = "###"


def _value(value: Any) -> str:
    if value is ABSENT:
        return "*absent*"
    return escape.markdown_code(json.dumps(value, sort_keys=True, ensure_ascii=False))


def _shown(value: Any) -> str:
    """A value as the page shows it: an excerpt of its JSON, as a code span."""
    if value is ABSENT:
        return "*absent*"
    return escape.markdown_code(excerpt(json.dumps(value, sort_keys=True, ensure_ascii=False), PATH_EXCERPT))


def _name(name: str) -> str:
    """A name, a series or a kind from the bundles, as an excerpt: a name runs to 253 characters in Kubernetes."""
    return excerpt(name, PATH_EXCERPT)


def series_of(name: str) -> str:
    """The series (or OS) an object belongs to: its name up to the first dot."""
    return name.partition(".")[0]


def _said(entry: Entry) -> tuple:
    return (entry.name, entry.deprecated, tuple((c.path, _value(c.old), _value(c.new)) for c in entry.changes))


def _by_kinds(entries: Sequence[Entry]) -> list[tuple[tuple[str, ...], list[Entry]]]:
    """Entries grouped under the kinds they were found in, twins that say the same thing merged.

    The result keeps the order of first appearance, which is the diff's order (by
    name, then kind), so the same diff always gives the same page.
    """
    kinds_of: dict[tuple, list[str]] = {}
    first: dict[tuple, Entry] = {}
    for entry in entries:
        key = _said(entry)
        kinds_of.setdefault(key, []).append(entry.kind)
        first.setdefault(key, entry)
    sections: dict[tuple[str, ...], list[Entry]] = {}
    for key, kinds in kinds_of.items():
        sections.setdefault(tuple(kinds), []).append(first[key])
    return sorted(sections.items())  # by kinds: no two sections have the same


def _by_series(entries: Sequence[Entry]) -> list[tuple[str, list[Entry]]]:
    grouped: dict[str, list[Entry]] = {}
    for entry in entries:
        grouped.setdefault(series_of(entry.name), []).append(entry)
    return sorted(grouped.items())


def _kinds(kinds: Sequence[str]) -> str:
    """A heading's kinds: a bundle's kind is any text, so it is Markdown text like a series."""
    return " and ".join(escape.markdown(_name(kind)) for kind in kinds)


def _names(entries: Sequence[Entry], mark_deprecated: bool) -> str:
    return ", ".join(escape.markdown_code(_name(e.name)) + (" (deprecated)" if mark_deprecated and e.deprecated else "")
                     for e in entries)


def _listed(title: str, entries: Sequence[Entry], mark_deprecated: bool = True) -> list[str]:
    """A section of names only: one line per series."""
    if not entries:
        return []
    lines = ["", f"{SECTION} {title}"]
    for kinds, in_kinds in _by_kinds(entries):
        lines += ["", f"#### {_kinds(kinds)}", ""]
        lines += [f"- **{escape.markdown(_name(series))}**: {_names(group, mark_deprecated)}"
                  for series, group in _by_series(in_kinds)]
    return lines


def _only_deprecated(entry: Entry) -> bool:
    """Whether gaining the deprecated label is all that changed: such an object is listed as newly deprecated only."""
    return all(c.path == ("metadata", "labels", DEPRECATED_LABEL) for c in entry.changes)


def _changed(entries: Sequence[Entry]) -> list[str]:
    """The changed objects, each with its fields' old and new values."""
    if not entries:
        return []
    lines = ["", f"{SECTION} Changed"]
    for kinds, in_kinds in _by_kinds(entries):
        lines += ["", f"#### {_kinds(kinds)}"]
        for series, group in _by_series(in_kinds):
            lines += ["", f"**{escape.markdown(_name(series))}**", ""]
            for entry in group:
                lines.append(f"- {escape.markdown_code(_name(entry.name))}")
                lines += [f"  - {escape.markdown_code(jsonpath(c.path))}: {_shown(c.old)} → {_shown(c.new)}"
                          for c in entry.changes]
    return lines


def _count(entries: Sequence[Entry]) -> int:
    """Objects, a cluster kind and its namespaced twin that changed alike counting once (as in the text report)."""
    return sum(len(group) for _kinds, group in _by_kinds(entries))


def render_markdown(diff: Diff) -> str:
    """The release-note section for ``diff``: a summary line, then added, removed, changed, newly deprecated."""
    title = f"{SECTION} Catalog changes"
    if diff.equal:
        return f"{title}\n\nNo objects were added, removed or changed.\n"
    changed = [e for e in diff.changed if not _only_deprecated(e)]
    counts = [_count(entries) for entries in (diff.added, diff.removed, changed, diff.newly_deprecated)]
    lines = [title, "", "{} added, {} removed, {} changed, {} newly deprecated.".format(*counts)]
    lines += _listed("Added", diff.added)
    lines += _listed("Removed", diff.removed)
    if diff.removed:
        lines += ["", "> [!WARNING]", "> VirtualMachines that name a removed object (`spec.instancetype.name`, "
                  "`spec.preference.name`) keep naming it after the upgrade. A catalog built with "
                  "`citgen build --retain-from` keeps shipping such objects, labelled deprecated."]
    lines += _changed(changed)
    lines += _listed("Newly deprecated", diff.newly_deprecated, mark_deprecated=False)
    if diff.ignored_labels:
        lines += ["", "Labels not compared: " + ", ".join(map(escape.markdown_code, diff.ignored_labels)) + "."]
    return "\n".join(lines) + "\n"
