"""What an upgrade of the catalog does to the references of some manifests (``citgen refs --from OLD --to NEW``).

virt-operator deletes the catalog objects that leave the bundle it deploys. A
VirtualMachine already running keeps its stored copy (the ControllerRevision its
``revisionName`` or ``status.instancetypeRef.controllerRevisionRef`` names) and runs
on; what breaks is creating it again from its manifest (a GitOps re-sync, a new
cluster, a restore) and every VM that has no revision yet. Each reference is looked
up in OLD and in NEW, as the judge looks it up (target.Resolver: the objects the
manifests define themselves resolve on both sides), and the report lists, by
object, with the references to each:

- what the upgrade breaks: names that resolve in OLD and not in NEW;
- what NEW deprecates that is still named: objects current in OLD, labelled
  deprecated in NEW (with the replacement and release NEW's data gives);
- what still resolves but now means something else: the same name with another
  class, number of vCPUs, memory or dedicated CPUs (upstream once turned its
  neutral n1 sizes into the network class).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from ... import escape
from ...frozen import frozen
from ...load.gpu import opt_in_note
from ...model import Lifecycle, label
from ...problems import MAX_MESSAGE, PATH_EXCERPT, Problem, excerpt, sort_problems
from ...quantity import QuantityError, parse as parse_quantity
from .model import Reference, Scan
from .rules.base import history, owner_text, quoted, short_of_current
from .target import Resolution, Resolver, Target

BREAKS, DEPRECATES, CHANGES = "upgrade-breaks", "upgrade-deprecates", "upgrade-changes"
CLASS_LABEL = label("class")

#: What a name's meaning is made of, for an instancetype: how each is read off the object, and shown.
MEANING = ("class", "vCPUs", "memory", "dedicated CPUs")


@frozen
class Named:
    """One object of the upgrade's report and the references that name it.

    ``what`` says what happens to it: why it no longer resolves, its deprecation,
    or how its meaning changed (``vCPUs 1 -> 4``).
    """

    family: str
    name: str
    kind: str
    references: tuple[Reference, ...]
    what: str

    @property
    def count(self) -> int:
        return len(self.references)

    def record(self) -> dict[str, Any]:
        return {"family": self.family, "name": self.name, "kind": self.kind, "what": self.what,
                "references": self.count,
                "places": [{"file": r.location.file, "line": r.location.line, "column": r.location.column,
                            "document": r.location.doc, "owner": {"kind": r.owner.kind, "name": r.owner.name,
                                                                  "namespace": r.owner.namespace}}
                           for r in self.references]}


@frozen
class Upgrade:
    """What upgrading from ``old`` to ``new`` does to the references of a scan."""

    old: Target
    new: Target
    breaks: tuple[Named, ...]
    deprecates: tuple[Named, ...]
    changes: tuple[Named, ...]
    checked: int
    unchecked: int
    files: int
    skipped: int

    @property
    def found(self) -> bool:
        return bool(self.breaks or self.deprecates or self.changes)

    @property
    def counts(self) -> dict[str, int]:
        return {"references": self.checked + self.unchecked, "checked": self.checked, "unchecked": self.unchecked,
                "files": self.files, "skipped": self.skipped,
                "breaks": sum(n.count for n in self.breaks), "breaksObjects": len(self.breaks),
                "deprecates": sum(n.count for n in self.deprecates), "deprecatesObjects": len(self.deprecates),
                "changes": sum(n.count for n in self.changes), "changesObjects": len(self.changes)}

    def problems(self) -> list[Problem]:
        """Each reference of the report as a located finding, for annotations and programs, in file order."""
        found = []
        for rule, entries, verb in ((BREAKS, self.breaks, "no longer resolves"),
                                    (DEPRECATES, self.deprecates, "is deprecated"),
                                    (CHANGES, self.changes, "now means something else")):
            for entry in entries:
                for reference in entry.references:
                    found.append(Problem(reference.location, (
                        f"names {entry.family} {quoted(entry.name)}, which {verb} "
                        f"after the upgrade to {self.new.described}: {entry.what}"), rule))
        return sort_problems(found)


# --------------------------------------------------------------------------- comparing


def _meaning(obj: Mapping[str, Any]) -> dict[str, Any]:
    """What an instancetype's name stands for: its class label, vCPUs, memory and dedicated CPUs."""
    meta = obj.get("metadata")
    labels = meta.get("labels") if isinstance(meta, Mapping) else None
    spec = obj.get("spec") if isinstance(obj.get("spec"), Mapping) else {}
    cpu = spec.get("cpu") if isinstance(spec.get("cpu"), Mapping) else {}
    memory = spec.get("memory") if isinstance(spec.get("memory"), Mapping) else {}
    guest = memory.get("guest")
    try:
        amount: Any = parse_quantity(str(guest))
    except QuantityError:  # none, or no quantity: compared as written
        amount = guest
    return {"class": labels.get(CLASS_LABEL) if isinstance(labels, Mapping) else None,
            "vCPUs": cpu.get("guest"), "memory": (amount, guest),
            "dedicated CPUs": bool(cpu.get("dedicatedCPUPlacement"))}


def _shown(key: str, value: Any) -> str:
    if key == "memory":
        return str(value[1]) if value[1] is not None else "none"
    if key == "dedicated CPUs":
        return "yes" if value else "no"
    return "none" if value is None else str(value)


def meaning_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """How an instancetype's meaning differs between two releases: ``vCPUs 1 -> 4``, one entry per part."""
    before, after = _meaning(old), _meaning(new)
    changed = []
    for key in MEANING:
        same = before[key][0] == after[key][0] if key == "memory" else before[key] == after[key]
        if not same:
            changed.append(f"{key} {excerpt(_shown(key, before[key]))} -> {excerpt(_shown(key, after[key]))}")
    return changed


def _grouped(items: Iterable[tuple[Resolution, str]]) -> tuple[Named, ...]:
    """References to the same object (family, name and the kind found) as one entry, sorted by name."""
    groups: dict[tuple[str, str, str], tuple[list[Reference], str]] = {}
    for resolution, what in items:
        reference = resolution.reference
        key = (reference.family, str(reference.name), str(resolution.kind))  # both known: it resolved before
        groups.setdefault(key, ([], what))[0].append(reference)
    return tuple(Named(family, name, kind, tuple(refs), what)
                 for (family, name, kind), (refs, what) in sorted(groups.items(), key=lambda item: (item[0][1],
                                                                                                     item[0])))


def _why_gone(resolution: Resolution, new: Target) -> str:
    reference = resolution.reference
    family, name = reference.family, str(reference.name)  # known: it resolved before
    if resolution.shipped_as is not None:
        return f"{new.described} ships it only as a {resolution.shipped_as}"
    left = new.left_out.get((family, name))
    if left is not None:
        brought = f"came in KubeVirt {left.since}" if left.since else "is in no KubeVirt release citgen knows"
        return f"{new.described} leaves it out: its {left.field} {brought}"
    record = new.lifecycle.get((family, name))
    if record is not None and record.status == "retired":
        return f"{new.described} does not have it: {history(record, new.lifecycle, new.described)}"
    note = opt_in_note(name, new.opt_in) if family == "instancetype" else None
    if note is not None:  # not broken by the upgrade: built without the GPU device the series needs
        return f"{new.described} does not have it: {note}"
    return f"{new.described} does not have it"


def _deprecation(record: Lifecycle, new: Target) -> str:
    said = "deprecated"
    if record.since:
        said += f" in {record.since}"
    if record.current is not None:
        said += f"; use {quoted(record.current)}"
    elif record.chain:
        said += f"; {short_of_current(record, new.lifecycle, new.described)}"
    return said


def upgrade(scan: Scan, old: Target, new: Target) -> Upgrade:
    """Every reference of ``scan`` looked up in ``old`` and in ``new``: what the upgrade breaks, deprecates, changes."""
    before, after = Resolver(old, scan.definitions), Resolver(new, scan.definitions)
    breaks: list[tuple[Resolution, str]] = []
    deprecates: list[tuple[Resolution, str]] = []
    changes: list[tuple[Resolution, str]] = []
    for reference in scan.references:
        if reference.name is None:
            continue
        was, now = before.resolve(reference), after.resolve(reference)
        if not was.resolved:
            continue  # broken before the upgrade already: the judge's to report
        if not now.resolved:
            breaks.append((now, _why_gone(now, new)))
            continue
        if was.found is None or now.found is None:
            continue  # defined in the manifests themselves: the upgrade does not touch it
        # a name both sides hold has a lifecycle record only when it is deprecated there
        deprecation = new.lifecycle.get((reference.family, reference.name))
        if deprecation is not None and (reference.family, reference.name) not in old.lifecycle:
            deprecates.append((now, _deprecation(deprecation, new)))
        if reference.family == "instancetype":
            changed = meaning_changes(was.found, now.found)
            if changed:
                changes.append((now, ", ".join(changed)))
    unchecked = sum(1 for reference in scan.references if reference.name is None)
    return Upgrade(old, new, _grouped(breaks), _grouped(deprecates), _grouped(changes),
                   len(scan.references) - unchecked, unchecked, scan.files, len(scan.skipped))


# --------------------------------------------------------------------------- reporting


_SECTIONS = (("breaks", "Names that no longer resolve", "what the upgrade breaks"),
             ("deprecates", "Names the new catalog deprecates", "still named, now deprecated"),
             ("changes", "Names that now mean something else", "same name, another object"))

KEPT_RUNNING = ("A VirtualMachine already running keeps the copy of its instancetype and preference it stored "
                "(its ControllerRevision) and runs on; what breaks is creating it again from its manifest "
                "(a GitOps re-sync, a new cluster, a restore), and every VirtualMachine that has none yet.")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def summary(result: Upgrade) -> str:
    """The line that closes an upgrade's report."""
    counts = result.counts
    said = (f"from {result.old.summary_name} to {result.new.summary_name}: "
            f"{_plural(counts['breaks'], 'reference')} to {_plural(counts['breaksObjects'], 'object')} broken, "
            f"{counts['deprecates']} to {_plural(counts['deprecatesObjects'], 'object')} newly deprecated, "
            f"{counts['changes']} to {_plural(counts['changesObjects'], 'object')} changed in meaning; "
            f"{_plural(result.checked, 'reference')} checked")
    if result.unchecked:
        said += f", {result.unchecked} unchecked"
    said += f", {_plural(result.files, 'file')} read"
    if result.skipped:
        said += f", {result.skipped} skipped"
    return said


def render_text(result: Upgrade) -> str:
    """The upgrade's report for people, after its findings (one line per place, report.py): each section's objects
    with their count and what changes."""
    lines: list[str] = []
    for attribute, title, _ in _SECTIONS:
        entries: Sequence[Named] = getattr(result, attribute)
        if not entries:
            continue
        lines.append(f"{title}:")
        for entry in entries:
            lines.append(escape.text(f"  {entry.family} {excerpt(entry.name, PATH_EXCERPT)} ({entry.kind}), "
                                     f"{_plural(entry.count, 'reference')}: {excerpt(entry.what, MAX_MESSAGE)}"))
        lines.append("")
    if result.breaks:
        lines += [KEPT_RUNNING, ""]
    lines.append(summary(result))
    return "\n".join(lines) + "\n"


def render_markdown(result: Upgrade) -> str:
    """The upgrade's report as a pull-request comment: a table per section, every name escaped."""
    md, code, cell = escape.markdown, escape.markdown_code, escape.markdown_cell
    heading = "no reference changes" if not result.found else "references this upgrade breaks or changes"
    lines = [f"### citgen refs: {heading}", "",
             f"From {md(result.old.summary_name)} to {md(result.new.summary_name)}.", ""]
    for attribute, title, _ in _SECTIONS:
        entries: Sequence[Named] = getattr(result, attribute)
        if not entries:
            continue
        lines += [f"#### {title}", "", "| object | references | what | named in |", "| --- | ---: | --- | --- |"]
        for entry in entries:
            places = ", ".join(f"{code(r.location.file_line())} ({md(owner_text(r.owner))})" for r in entry.references[:5])
            if entry.count > 5:
                places += f", and {entry.count - 5} more"
            lines.append(f"| {cell(code(excerpt(entry.name, PATH_EXCERPT)))} {cell(md(entry.family))} | "
                         f"{entry.count} | {cell(md(excerpt(entry.what, MAX_MESSAGE)))} | {cell(places)} |")
        lines.append("")
    if result.breaks:
        lines += [md(KEPT_RUNNING), ""]
    lines.append(md(summary(result)))
    return "\n".join(lines) + "\n"


def record(result: Upgrade) -> dict[str, Any]:
    """The JSON report's own keys."""
    return {"from": result.old.described, "to": result.new.described,
            "breaks": [n.record() for n in result.breaks],
            "deprecates": [n.record() for n in result.deprecates],
            "changes": [n.record() for n in result.changes]}


__all__ = ["Named", "Upgrade", "meaning_changes", "record", "render_markdown", "render_text", "summary", "upgrade"]
