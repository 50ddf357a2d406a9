"""The catalog's objects as a KubeVirt release accepts them (``citgen build --kubevirt vX.Y``).

Fields arrive in KubeVirt release by release, and an API server refuses an object
with a field its release's CRD schema lacks (or prunes it). A build for an older
release therefore changes each object that has such a field, and says so:

- where the catalog lists an older spelling of the field (catalog.yaml's
  ``spellings``), the older fields are written instead: ``preferredEfi`` becomes
  ``preferredUseEfi`` and ``preferredUseSecureBoot`` before v1.4;
- where a value of the field came later than the field (``preferredCPUTopology:
  spread``, v1.4), its older value is written, or the field is left out when the
  release has none;
- where a trait marked ``essential`` set the field, the object is left out: an IBM
  Secure Execution preference without launch security is not one;
- any other field the release lacks is left out, with the labels the catalog
  derives from it alone (``preferred-architecture`` from ``preferredArchitecture``).

Which release brought a field is read off the shipped schemas; what to do instead
is the catalog's data, never a list here. Every change is an Adjustment, listed by
the build's summary and its JSON report. The newest release changes nothing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Mapping, Sequence

from ..frozen import frozen
from ..merge import dig
from ..model import CatalogObject, Spelling, label
from ..schemas import has_every_field, has_field, introduced
from ..schemas.dated import Dated, dated_spec
from ..schemas.releases import Release, known

#: Labels the catalog reads off one spec field alone: left out with the field.
DERIVED_LABELS: Mapping[tuple[str, ...], str] = {
    ("spec", "preferredArchitecture"): label("preferred-architecture"),
    ("spec", "requirements", "architecture"): label("required-architecture"),
}
LEFT_OUT, RESPELT, OBJECT_LEFT_OUT = "left out", "respelt", "object left out"


@frozen
class Adjustment:
    """What a build for ``release`` did to one object because the release lacks a field or value.

    ``action`` is ``left out`` (the field), ``respelt`` (its older spelling, ``as``,
    written instead) or ``object left out``; ``since`` is the release that brought
    the field or value, None when no release citgen knows has it.
    """

    family: str
    name: str
    field: str
    action: str
    since: Release | None
    release: Release
    written: str = ""

    def __str__(self) -> str:
        brought = f"KubeVirt {self.since}" if self.since else "no KubeVirt release citgen knows"
        what = f"{self.family} {self.name}: {self.field} ({brought})"
        if self.action == RESPELT:
            return f"{what} written as {self.written}"
        return f"{what} {self.action}"

    def record(self) -> dict[str, Any]:
        return {"family": self.family, "name": self.name, "field": self.field, "action": self.action,
                "since": str(self.since) if self.since else None, "writtenAs": self.written or None}


def for_release(objects: Sequence[CatalogObject], release: Release,
                spellings: Sequence[Spelling]) -> tuple[list[CatalogObject], list[Adjustment]]:
    """``objects`` as ``release`` accepts them, and every change that took."""
    if has_every_field(release) and all(Release.parse(v.since) <= release for s in spellings
                                        for v in s.values.values()):
        return list(objects), []  # nothing any release has is missing here (the newest, as a rule)
    kept: list[CatalogObject] = []
    adjustments: list[Adjustment] = []
    by_field = {spelling.field: spelling for spelling in spellings}
    for obj in objects:
        changed, found = _one(obj, release, by_field)
        adjustments += found
        if changed is not None:
            kept.append(changed)
    return kept, adjustments


def oldest_accepting(obj: CatalogObject) -> Release | None:
    """The oldest release whose schema has every field of ``obj`` as built (None: no release citgen knows)."""
    kind = obj.kinds[0]
    oldest = known()[0]
    for path in _fields(obj.spec, ("spec",)):
        since = introduced(kind, path)
        if since is None:
            return None
        oldest = max(oldest, since)
    return oldest


class _Builder:
    """The changes to one object, collected while its spec is rewritten.

    The spec is copied as it is written: a mapping is copied, with the mappings
    above it, only where a field is removed or written, so the rewritten spec
    shares everything else with the object's (which is never changed).
    """

    def __init__(self, obj: CatalogObject, release: Release):
        self.obj, self.release = obj, release
        self.kind = obj.kinds[0]
        self.spec: dict[str, Any] = dict(obj.spec)
        self.owned: dict[int, dict[str, Any]] = {id(self.spec): self.spec}  # the mappings copied here
        self.adjustments: list[Adjustment] = []
        self.removed: list[tuple[str, ...]] = []
        try:
            self.index: int | None = known().index(release)
            self.tree: Dated | None = dated_spec(self.kind)
        except (ValueError, KeyError):  # a release or kind without the tree: every key is asked
            self.index, self.tree = None, None

    def note(self, path: Sequence[str], action: str, since: Release | None, written: str = "") -> None:
        self.adjustments.append(Adjustment(self.obj.family, self.obj.name, ".".join(path), action, since,
                                           self.release, written))

    def knows(self, path: tuple[str, ...]) -> bool:
        return has_field(self.kind, path, self.release)

    def own(self, node: dict[str, Any], key: str) -> Any:
        """``node[key]``, copied first when it is a mapping this builder has not copied yet."""
        value = node[key]
        if isinstance(value, Mapping) and id(value) not in self.owned:
            value = node[key] = dict(value)
            self.owned[id(value)] = value
        return value

    def put(self, path: Sequence[str], value: Any) -> None:
        """Write ``value`` at ``path`` (below spec), making the mappings on the way."""
        node = self.spec
        for key in path[:-1]:
            if key not in node:
                node[key] = {}
                self.owned[id(node[key])] = node[key]
            node = self.own(node, key)
        node[path[-1]] = value

    def pop(self, path: Sequence[str]) -> Any:
        """Remove the value at ``path`` (below spec), and the mappings it leaves empty."""
        parents = [self.spec]
        for key in path[:-1]:
            parents.append(self.own(parents[-1], key))
        value = parents[-1].pop(path[-1])
        for depth in range(len(path) - 2, -1, -1):
            if parents[depth + 1]:
                break
            parents[depth].pop(path[depth])
        return value


def _one(obj: CatalogObject, release: Release,
         spellings: Mapping[tuple[str, ...], Spelling]) -> tuple[CatalogObject | None, list[Adjustment]]:
    builder = _Builder(obj, release)
    essential = {tuple(path) for path in obj.facts.get("essential", ())}
    for path in _missing(builder.spec, ("spec",), builder, builder.tree) if essential else ():
        if path in essential:
            return None, [Adjustment(obj.family, obj.name, ".".join(path), OBJECT_LEFT_OUT,
                                     introduced(builder.kind, path), release)]
    for spelling in spellings.values():  # values that came after their field
        if spelling.values:
            _older_value(builder, spelling)
    for path in _missing(builder.spec, ("spec",), builder, builder.tree):
        spelling = spellings.get(path)
        value = builder.pop(path[1:])
        builder.removed.append(path)
        since = introduced(builder.kind, path)
        written = _write_older(builder, spelling, value) if spelling is not None else []
        if written:
            builder.note(path, RESPELT, since, ", ".join(written))
        else:
            builder.note(path, LEFT_OUT, since)
    if not builder.adjustments:
        return obj, []
    derived = {DERIVED_LABELS.get(path) for path in builder.removed}
    labels = {key: value for key, value in obj.labels.items() if key not in derived}
    return replace(obj, spec=builder.spec, labels=labels), builder.adjustments


def _missing(spec: Mapping[str, Any], prefix: tuple[str, ...], builder: _Builder,
             tree: Dated | None) -> list[tuple[str, ...]]:
    """The outermost fields of ``spec`` that a later release has and the release built for lacks.

    A field no release has (a misspelt key) is left as it is: the build's validation
    refuses it with the field perhaps meant. ``tree`` (schemas/dated.py) names the
    keys that can be such a field or lead to one; without it, or where it is open,
    every key is asked of the schemas.
    """
    found = []
    if tree is None or tree.open:
        for key, value in spec.items():
            path = prefix + (key,)
            if not builder.knows(path):
                if introduced(builder.kind, path) is not None:
                    found.append(path)
            elif type(value) is dict:
                found += _missing(value, path, builder, None)
        return found
    for key, value in spec.items():  # the spec's order: the order the build reports its changes in
        child = tree.children.get(key)
        if child is None:
            continue  # in every release with nothing dated below it, or in none
        if builder.index in child.lacking:
            found.append(prefix + (key,))
        elif child.leads_somewhere and type(value) is dict:
            found += _missing(value, prefix + (key,), builder, child)
    return found


def _fields(spec: Mapping[str, Any], prefix: tuple[str, ...]) -> Iterable[tuple[str, ...]]:
    for key, value in spec.items():
        yield prefix + (key,)
        if type(value) is dict:
            yield from _fields(value, prefix + (key,))


def _older_value(builder: _Builder, spelling: Spelling) -> None:
    """Replace a value the release does not know yet by its older spelling, or leave the field out."""
    value = dig(builder.spec, *spelling.field[1:])
    if not isinstance(value, str) or value not in spelling.values or not builder.knows(spelling.field):
        return
    current, since = value, None
    while current is not None and current in spelling.values:
        older = spelling.values[current]
        brought = Release.parse(older.since)  # a release citgen does not know yet is later than all it knows
        if builder.release >= brought:
            break
        since = since or brought
        current = older.was
    if current == value:
        return
    shown = f"{'.'.join(spelling.field)}: {value}"
    if current is None:
        builder.pop(spelling.field[1:])
        builder.removed.append(spelling.field)
        builder.note(spelling.field, LEFT_OUT, since, "")
        builder.adjustments[-1] = replace(builder.adjustments[-1], field=shown)
        return
    builder.put(spelling.field[1:], current)
    builder.note(spelling.field, RESPELT, since, f"{'.'.join(spelling.field)}: {current}")
    builder.adjustments[-1] = replace(builder.adjustments[-1], field=shown)


def _write_older(builder: _Builder, spelling: Spelling, value: Any) -> list[str]:
    """Write the older fields that say what ``value`` said, where the release knows them; what was written."""
    sub = value if type(value) is dict else {}
    for key, allowed in spelling.when.items():
        if sub.get(key) not in allowed:
            return []
    written = []
    for older in spelling.writes:
        if older.source is not None:
            if older.source not in sub:
                continue
            new = sub[older.source]
        else:
            new = older.value
        if not builder.knows(older.path) or dig(builder.spec, *older.path[1:]) is not None:
            continue
        builder.put(older.path[1:], _copy(new))
        written.append(f"{'.'.join(older.path)}: {_show(new)}")
    return written


def _copy(value: Any) -> Any:
    """A copy of a spec's value: its mappings and lists new, its scalars shared (they are immutable)."""
    if type(value) is dict:
        return {key: _copy(item) for key, item in value.items()}
    if type(value) is list:
        return [_copy(item) for item in value]
    return value


def _show(value: Any) -> str:
    if value is True or value is False:
        return "true" if value else "false"
    return str(value)
