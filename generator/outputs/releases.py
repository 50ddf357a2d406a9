"""Every KubeVirt release's objects, as differences from the build's: what the chart and the components apply.

A GitOps user takes the committed outputs, not a build of their own, so the one
chart and the one kustomize tree serve every release citgen knows. Shipping a
copy of the catalog per release would make the chart ten times its size (Helm
keeps a release's chart in a Secret of at most 1 MiB), and a tree per release
ten trees to keep apart; what changes between releases is a few fields of some
objects and a few whole objects. So each release is written as its differences
from the build's objects:

- the objects the release leaves out (expand/kubevirt.py: an object an
  ``essential`` field of which the release lacks);
- for each object it changes, the JSON-patch operations (add, remove, replace)
  that turn the object's document, as the bundles have it, into the document
  ``citgen build --kubevirt <release>`` writes.

The release's objects are :func:`~generator.expand.kubevirt.for_release` of the
build's, the same call the pipeline makes for ``--kubevirt``. Where the catalog's
templates write an object's spec, labels and annotations as they are given (the
built-in ones do; checked on each object's document in the build), the
operations are read off the objects; otherwise the changed object is rendered
with the catalog's templates and parsed back, so the operations are read off the
very documents that build ships. Only paths through mappings are followed: a
list that differs is replaced whole.

The differences are from the build's objects. The default build is for the
newest release, so there each release's differences lead to exactly its
``--kubevirt`` build, and the newest release changes nothing. A build for an
older release (``OutputContext.kubevirt``) starts from that release's objects,
and serves it and the releases before it: what a newer release would add is
not in its objects.

Every build makes these outputs, so the work is kept small without changing a
byte: only the fields some release lacks are looked at (schemas/dated.py);
for_release is asked only about objects a release may change (it lacks one of
their fields or values), and once per object for releases that answer every
question for_release would ask alike (_Shape), which then share one Changed;
and the operations are read only off what for_release rewrote (it shares the
rest of a spec with the build's object).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..errors import InputError
from ..expand.kubevirt import Adjustment, for_release
from ..frozen import frozen
from ..model import CatalogObject, Spelling
from ..problems import Location
from ..render import Renderer
from ..render.searchpath import search_path
from ..schemas import has_field
from ..schemas.dated import Dated, dated_spec
from ..schemas.releases import Release, known
from ..source.yamlsrc import load_stream_fast
from .context import OutputContext

ALL_BUNDLE = "common-instancetypes-all-bundle.yaml"


@frozen
class Op:
    """One JSON-patch operation (RFC 6902) on a document: ``path`` is the keys from its root."""

    op: str  # "add", "remove" or "replace"
    path: tuple[str, ...]
    value: Any = None

    @property
    def pointer(self) -> str:
        """The path as a JSON pointer (RFC 6901): ``/metadata/labels/instancetype.kubevirt.io~1cpu``."""
        return "".join("/" + key.replace("~", "~0").replace("/", "~1") for key in self.path)

    def record(self) -> dict[str, Any]:
        """The operation as JSON patch writes it (``path`` a JSON pointer)."""
        out: dict[str, Any] = {"op": self.op, "path": self.pointer}
        if self.op != "remove":
            out["value"] = self.value
        return out


@frozen
class Changed:
    """One object a release changes: the operations on each of its kinds' documents, and why."""

    obj: CatalogObject  # the build's object
    ops: Mapping[str, tuple[Op, ...]]  # kind -> operations, for each kind the object is rendered as
    why: tuple[str, ...]  # its adjustments, as a build for the release reports them


@frozen
class ReleaseDelta:
    """What turns the build's objects into ``release``'s: objects left out, objects changed, in build order."""

    release: Release
    left_out: tuple[CatalogObject, ...]
    changed: tuple[Changed, ...]
    why_left_out: Mapping[str, tuple[str, ...]]  # "family/name" -> its adjustments, as reported


def same(one: Any, other: Any) -> bool:
    """Equal as JSON: ``True`` and ``1``, ``1`` and ``1.0`` differ, as they do in a document."""
    if isinstance(one, dict) and isinstance(other, dict):
        return one.keys() == other.keys() and all(same(value, other[key]) for key, value in one.items())
    if isinstance(one, list) and isinstance(other, list):
        return len(one) == len(other) and all(map(same, one, other))
    return type(one) is type(other) and one == other


def diff(old: Mapping[str, Any], new: Mapping[str, Any], path: tuple[str, ...] = ()) -> list[Op]:
    """The operations that turn ``old`` into ``new``: removals first, then additions and replacements.

    A key in both whose values are both mappings is followed; any other value
    that differs is replaced whole (lists included).
    """
    ops = [Op("remove", path + (str(key),)) for key in old if key not in new]
    for key, value in new.items():
        where = path + (str(key),)
        if key not in old:
            ops.append(Op("add", where, value))
        elif value is old[key]:
            continue  # a value for_release left as it was: it shares it, unchanged
        elif isinstance(value, dict) and isinstance(old[key], dict):
            ops += diff(old[key], value, where)
        elif not same(old[key], value):
            ops.append(Op("replace", where, value))
    return ops


def documents_by_key(ctx: OutputContext) -> dict[tuple[str, str], dict]:
    """The build's all-bundle parsed back, by (kind, name)."""
    try:
        docs = [d.data for d in ctx.documents] if ctx.documents else load_stream_fast(ctx.bundles[ALL_BUNDLE])
    except Exception as exc:  # a template produced text that is not YAML
        raise InputError.at(Location(ALL_BUNDLE), f"rendered bundle is not valid YAML: {exc}") from None
    return {(d.get("kind"), (d.get("metadata") or {}).get("name")): d for d in docs if isinstance(d, dict)}


def _key(obj: CatalogObject | Adjustment) -> str:
    return f"{obj.family}/{obj.name}"


class _Documents:
    """Each changed object's document as the release's build writes it, as operations on the build's.

    Where the catalog's templates wrote an object's spec, labels and annotations
    as they were given (the built-in templates do; checked on the build's own
    document of the object), the operations are read off the object itself.
    Otherwise the changed object is rendered with the catalog's templates and
    parsed back. Either way only its first kind is looked at: an object's kinds
    differ in ``kind`` alone (the twins-identical rule holds every build to
    that), so the same operations serve each of them.
    """

    def __init__(self, template_dirs: Sequence[Path], documents: Mapping[tuple[str, str], dict],
                 verbatim: Sequence[bool]):
        self.dirs = template_dirs
        self.documents = documents
        self.verbatim = verbatim  # of each object of the build, by its index
        self.renderer: Renderer | None = None  # made only for a catalog whose templates need it
        self.seen: dict[str, tuple[Op, ...]] = {}

    def ops(self, index: int, old: CatalogObject, new: CatalogObject) -> tuple[Op, ...]:
        kind = old.kinds[0]
        document = self.documents[(kind, old.name)]
        if self.verbatim[index]:
            return tuple(diff(old.labels, new.labels, ("metadata", "labels"))
                         + diff(old.annotations, new.annotations, ("metadata", "annotations"))
                         + diff(old.spec, new.spec, ("spec",)))
        key = json.dumps([new.family, new.name, kind, new.labels, new.annotations, new.spec],
                         sort_keys=True, default=str)
        found = self.seen.get(key)
        if found is None:
            if self.renderer is None:
                self.renderer = Renderer(self.dirs)
            docs = load_stream_fast(self.renderer.render(new, kind), f"{new.name} as {kind}")
            if len(docs) != 1 or not isinstance(docs[0], dict):
                raise InputError.at(Location(ALL_BUNDLE), f"{new.name} as {kind}: the template did not render "
                                    "one document")
            found = self.seen[key] = tuple(diff(document, docs[0]))
        return found


#: What a document holds when a template writes an object as it is given.
_TOP, _METADATA = {"apiVersion", "kind", "metadata", "spec"}, {"name", "labels", "annotations"}


def written_as_given(obj: CatalogObject, document: Mapping[str, Any]) -> bool:
    """Whether ``document`` is ``obj`` as given: its spec, labels and annotations, and nothing else.

    Compared with ``==``, which takes ``1`` for ``True``: a template writes values
    through the yaml filters, which keep each value's type.
    """
    metadata = document.get("metadata")
    return (document.keys() == _TOP and isinstance(metadata, dict) and metadata.keys() == _METADATA
            and document["spec"] == obj.spec and metadata["labels"] == obj.labels
            and metadata["annotations"] == obj.annotations)


@lru_cache(maxsize=None)  # the schemas are package data
def _lacking(kind: str, path: tuple[str, ...]) -> frozenset[int]:
    """The releases whose schema of ``kind`` lacks the field at ``path``, as indexes into known()."""
    return frozenset(i for i, release in enumerate(known()) if not has_field(kind, path, release))


_ABSENT = object()
#: What a spec holds besides mappings: told apart without asking the Mapping ABC, which is slow.
_PLAIN = (str, int, float, list, type(None))


def _is_mapping(value: Any) -> bool:
    return type(value) is dict or (not isinstance(value, _PLAIN) and isinstance(value, Mapping))


def _get(spec: Mapping[str, Any], path: Sequence[str]) -> Any:
    """The value at ``path``; _ABSENT where there is none."""
    node: Any = spec
    for key in path:
        if not _is_mapping(node) or key not in node:
            return _ABSENT
        node = node[key]
    return node


def _dated_sets(kind: str, spec: Mapping[str, Any]) -> list[frozenset[int]]:
    """For each field of ``spec`` some release lacks, the releases that lack it (indexes into known()).

    Only the dated fields are looked at (schemas/dated.py); where a schema takes
    any key, and for a kind without that tree, every key is asked of the schemas.
    A key no release has is left out: a build for a release never changes it.
    """
    try:
        tree: Dated | None = dated_spec(kind)
    except KeyError:
        tree = None
    sets: list[frozenset[int]] = []
    stack: list[tuple[tuple[str, ...], Mapping[str, Any], Dated | None]] = [(("spec",), spec, tree)]
    while stack:
        prefix, node, here = stack.pop()
        if here is None or here.open:
            for key, value in node.items():
                path = prefix + (key,)
                lacking = _lacking(kind, path)
                if lacking and len(lacking) < len(known()):
                    sets.append(lacking)
                if _is_mapping(value):
                    stack.append((path, value, None))
            continue
        for key, child in here.children.items():
            if key not in node:
                continue
            if child.lacking:
                sets.append(child.lacking)
            value = node[key]
            if child.leads_somewhere and _is_mapping(value):
                stack.append((prefix + (key,), value, child))
    return sets


class _Shape:
    """What for_release's answer for an object can depend on, release by release.

    for_release asks of a release only whether its schema has a field (the
    object's own fields, and the fields and older spellings catalog.yaml's
    ``spellings`` list for them) and whether it is older than the release that
    brought a value. Two releases that answer every such question alike for an
    object make the same object of it, so for_release is asked once per
    distinct answer (``signatures``, one per release); and a release that lacks
    none of its fields and none of its values changes nothing (``changes``).
    Objects that ask the same questions share one shape (:func:`_shape_of`).
    """

    __slots__ = ("changes", "signatures")

    def __init__(self, sets: tuple[frozenset[int], ...], thresholds: tuple[int, ...], changes: frozenset[int]):
        self.changes = changes
        self.signatures = tuple((tuple(index in lacking for lacking in sets), tuple(index < t for t in thresholds))
                                for index in range(len(known())))


def value_since(spelling: Spelling) -> dict[str, int]:
    """For each value of ``spelling`` that came after its field, the index of the first release that has it
    (all of them known: len(known()))."""
    return {name: sum(1 for r in known() if r < Release.parse(older.since)) for name, older in spelling.values.items()}


def _shape_of(obj: CatalogObject, spellings: Sequence[tuple[Spelling, dict[str, int]]],
              interned: dict[tuple, _Shape]) -> _Shape:
    """The shape of ``obj``; ``spellings`` each with its value_since."""
    kind = obj.kinds[0]
    sets = _dated_sets(kind, obj.spec)
    changes: set[int] = set().union(*sets)
    thresholds: list[int] = []
    for spelling, since in spellings:
        value = _get(obj.spec, spelling.field[1:])
        if value is _ABSENT:
            continue  # for_release looks at a spelling only for a field the object has
        sets += [_lacking(kind, spelling.field)] + [_lacking(kind, older.path) for older in spelling.writes]
        if spelling.values:
            thresholds += sorted(since.values())
            if isinstance(value, str) and value in since:
                changes |= set(range(since[value]))  # the releases before the one that brought it
    key = (tuple(sets), tuple(thresholds), frozenset(changes))
    found = interned.get(key)
    if found is None:
        found = interned[key] = _Shape(*key)
    return found


def _delta(index: int, release: Release, objects: Sequence[CatalogObject], shapes: Sequence[_Shape],
           members: Mapping[_Shape, Sequence[int]], memo: dict[tuple[int, tuple], Any],
           spellings: Sequence[Spelling], documents: _Documents) -> ReleaseDelta:
    """``release``'s differences.

    ``memo`` keeps, per object and signature, for_release's answer and what was
    made of it: a release that changes an object as the one before it did gets the
    very same Changed, so the outputs can format it once.
    """
    candidates = sorted(n for shape, indexes in members.items() if index in shape.changes for n in indexes)
    asked = [objects[n] for n in candidates if (n, shapes[n].signatures[index]) not in memo]
    if asked:
        kept, adjustments = for_release(asked, release, spellings)
        mine = {_key(o): o for o in kept}
        why: dict[str, list[str]] = {}
        for found in adjustments:  # said alike for every release that changes the object alike
            why.setdefault(_key(found), []).append(str(found))
        for n in candidates:
            signature = shapes[n].signatures[index]
            if (n, signature) not in memo:
                old = objects[n]
                memo[(n, signature)] = _made(n, old, mine.get(_key(old)), tuple(why.get(_key(old), ())), documents)
    left_out, changed, why_left_out = [], [], {}
    for n in candidates:
        made = memo[(n, shapes[n].signatures[index])]
        if made is None:
            continue
        if isinstance(made, Changed):
            changed.append(made)
        else:
            left_out.append(objects[n])
            why_left_out[_key(objects[n])] = made
    return ReleaseDelta(release, tuple(left_out), tuple(changed), why_left_out)


def _made(n: int, old: CatalogObject, new: CatalogObject | None, reasons: tuple[str, ...],
          documents: _Documents) -> Changed | tuple[str, ...] | None:
    """What one answer of for_release comes to: the reasons an object is left out, its Changed, or None."""
    if new is None:
        return reasons
    if new is old:
        return None
    ops = documents.ops(n, old, new)
    return Changed(old, dict.fromkeys(old.kinds, ops), reasons) if ops else None


def build_deltas(ctx: OutputContext) -> tuple[ReleaseDelta, ...]:
    """The build's release_deltas, made once for the chart and the kustomize components together."""
    return ctx.once("release deltas", lambda: release_deltas(ctx, search_path(ctx.catalog.root)))


def release_deltas(ctx: OutputContext, template_dirs: Sequence[Path]) -> tuple[ReleaseDelta, ...]:
    """Every release citgen knows, oldest first, as its differences from the build's objects."""
    by_key = documents_by_key(ctx)
    verbatim = [written_as_given(o, by_key[(o.kinds[0], o.name)]) if (o.kinds[0], o.name) in by_key else False
                for o in ctx.objects]
    spellings = ctx.catalog.settings.spellings
    documents = _Documents(template_dirs, by_key, verbatim)
    interned: dict[tuple, _Shape] = {}
    dated = [(spelling, value_since(spelling)) for spelling in spellings]
    shapes = [_shape_of(o, dated, interned) for o in ctx.objects]
    members: dict[_Shape, list[int]] = {}
    for n, shape in enumerate(shapes):
        if shape.changes:
            members.setdefault(shape, []).append(n)
    memo: dict[tuple[int, tuple], Any] = {}
    return tuple(_delta(i, release, ctx.objects, shapes, members, memo, spellings, documents)
                 for i, release in enumerate(known()) if release <= ctx.kubevirt)
