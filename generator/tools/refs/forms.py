"""The forms a reference to a catalog object takes in a manifest, each a small registered function.

A form reads one object and yields what it finds there: References, Definitions, and
Problems with a value that cannot be a name. A form that wraps other objects (a
pool's VirtualMachine template, a template's objects) yields them as ``Inner``
objects, which are read with the same forms in turn, under the wrapper as their owner
and with the template's parameters. Forms are registered by the API group and kind
of the object they read (FORMS), as the validation rules are by ID; every object,
whatever its kind, and every value that is no Kubernetes object (a bare list of
DataImportCron templates) is also read for

- the inference labels (``labels``), wherever a ``metadata.labels`` mapping carries them;
- VirtualMachine-shaped specs (``vm_shaped``): a mapping whose ``spec`` holds an
  ``instancetype`` or ``preference`` matcher, anywhere in an object of a kind no form
  reads (cluster-api's KubevirtMachineTemplate, ``spec.template.spec.virtualMachineTemplate``);
- the places the user named (places.py).

Each is documented in docs/refs.md with the API version and the source file it
follows. Strings are never parsed: a manifest inside a block string (a Tekton task's
script) is text, and ``$(params.x)``, ``{{ }}`` and ``${X}`` outside a template, and a
documentation scaffold's ``<instance-type>``, are placeholders another tool (or the
reader) fills in, counted as unchecked.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Callable, Iterable, Iterator, Sequence, Union

from ...frozen import frozen
from ...problems import Location, Path, Problem, excerpt, jsonpath
from ...source.inputcheck import describe
from ...suggest import nearest
from ...golower import go_lower
from .model import Definition, Family, Owner, Reference
from .params import Parameters, Resolved, parameters, resolve
from .places import Place
from ...source.stream import Unit

#: What a form finds.
Found = Union[Reference, Definition, Problem]
#: The two families, in the order references are reported.
FAMILIES: tuple[Family, ...] = ("instancetype", "preference")
#: The inference label of each family (KubeVirt's staging/src/kubevirt.io/api/instancetype/register.go);
#: its kind label is the same key with ``-kind``.
LABELS: dict[Family, str] = {family: f"instancetype.kubevirt.io/default-{family}" for family in FAMILIES}
#: The API group of the catalog's kinds.
INSTANCETYPE_GROUP = "instancetype.kubevirt.io"
#: The four kinds of catalog objects, and the family of each.
DEFINED: dict[str, Family] = {
    "VirtualMachineInstancetype": "instancetype",
    "VirtualMachineClusterInstancetype": "instancetype",
    "VirtualMachinePreference": "preference",
    "VirtualMachineClusterPreference": "preference",
}
#: How alike (difflib's ratio) a kind of the catalog's group must be to one of the four to be taken as meaning it.
MEANT = 0.9
#: Text another tool (or a reader) replaces before a manifest is applied: envsubst's and Flux's ``${X}``,
#: Tekton's ``$(params.x)``, Helm's, Jinja's and Go's ``{{ }}``, and documentation's ``<instance-type>``
#: (no Kubernetes name holds ``<`` or ``>``; words between them, not markup such as ``<img src=x>``).
PLACEHOLDER = re.compile(r"\$\{[^}]*\}|\$\([^)]*\)|\{\{.*?\}\}|<[A-Za-z][A-Za-z0-9 _.-]*>")


@frozen
class Obj:
    """An object the forms read, and what they need to know of where it is.

    ``path`` is where ``data`` sits in its unit. ``kind`` and ``group`` are its own,
    or those its wrapper implies (a pool's template is a VirtualMachine). ``owner_kind``,
    ``owner_name`` and ``namespace`` describe the object a reference in it is reported
    on (the wrapper, for an object a wrapper holds) and the namespace its objects land
    in; ``params`` are the parameters of the template it is in.
    """

    unit: Unit
    path: Path
    data: dict[str, Any]
    kind: str | None
    group: str | None
    owner_kind: str
    owner_name: str | None
    namespace: str | None
    params: Parameters | None = None

    def locate(self, path: Path) -> Location:
        """Where ``path`` of this object is in its file."""
        return self.unit.locate(self.path + path, self.owner_name)

    def place_of(self, found: Resolved, path: Path) -> Location | Callable[[], Location]:
        """Where a name is written (the default of the one parameter it is, or ``path`` of this object), or how to
        find it when a finding asks (Unit.locator)."""
        return self.unit.locator(found.at if found.at is not None else self.path + path, self.owner_name)

    def owner(self, holder: Path) -> Owner:
        """The owner of the references written in the mapping at ``holder``."""
        key = f"{self.unit.file}#{self.unit.doc} {jsonpath(self.unit.path + self.path + holder)}"
        return Owner(key, self.owner_kind, self.owner_name, self.namespace)


@frozen
class Inner:
    """An object inside another (a template's VirtualMachine), read with the same forms."""

    obj: Obj


FormFunction = Callable[[Obj], Iterable[Union[Found, Inner]]]


@frozen
class Form:
    """A registered form: its ID, the objects it reads (API group, kind) and its function; ``summary`` is its
    docstring's first line."""

    id: str
    kinds: tuple[tuple[str, str], ...]
    find: FormFunction

    @property
    def summary(self) -> str:
        lines = (self.find.__doc__ or "").strip().splitlines()
        return lines[0] if lines else ""


#: Every form by the (API group, kind) it reads; the core group is "".
FORMS: dict[tuple[str, str], Form] = {}


def form(form_id: str, *kinds: tuple[str, str]) -> Callable[[FormFunction], FormFunction]:
    """Register the decorated function as the form of objects of these (API group, kind)s."""
    def register(find: FormFunction) -> FormFunction:
        registered = Form(form_id, kinds, find)
        for kind in kinds:
            assert kind not in FORMS, f"two forms read {kind}"
            FORMS[kind] = registered
        return find
    return register


# --------------------------------------------------------------------------- reading a unit


def is_object(data: Any) -> bool:
    """Whether ``data`` is a Kubernetes object: a mapping with an apiVersion and a kind."""
    return isinstance(data, dict) and isinstance(data.get("apiVersion"), str) and isinstance(data.get("kind"), str)


def group_of(api_version: Any) -> str | None:
    """The API group of an apiVersion (``""`` for the core group's ``v1``), None when there is none."""
    return api_version.rpartition("/")[0] if isinstance(api_version, str) else None


def read_unit(unit: Unit, places: Sequence[Place] = ()) -> Iterator[Found]:
    """Everything the forms find in a document, or an item of a List: in an object, or in each mapping of a list."""
    data = unit.data
    if isinstance(data, dict):
        yield from read_object(_top(unit, (), data), places)
    elif isinstance(data, list):
        for index, item in enumerate(data):
            if isinstance(item, dict):
                yield from read_object(_top(unit, (index,), item), places)


def _top(unit: Unit, path: Path, data: dict[str, Any]) -> Obj:
    """The object ``data`` at ``path`` of a unit, the owner of what is written in it (a bare list's item has no
    kind: its owner's kind is empty)."""
    kind = data.get("kind") if isinstance(data.get("kind"), str) else None
    metadata = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    name, namespace = metadata.get("name"), metadata.get("namespace")
    return Obj(unit, path, data, kind, group_of(data.get("apiVersion")), kind or "",
               name if isinstance(name, str) else None, namespace if isinstance(namespace, str) else None)


def read_object(obj: Obj, places: Sequence[Place] = ()) -> Iterator[Found]:
    """What every form finds in ``obj`` and the objects inside it: its kind's form, the labels, the places."""
    known = FORMS.get((obj.group, obj.kind))
    if known is None and obj.group == INSTANCETYPE_GROUP and obj.kind is not None and not obj.kind.endswith("List"):
        yield from unserved(obj)
    inside: set[Path] = set()
    if known is not None:
        for item in known.find(obj):
            if isinstance(item, Inner):
                inside.add(item.obj.path[len(obj.path):])
                yield from read_object(item.obj, places)
            else:
                yield item
    yield from _walk(obj, inside, vm_shaped=known is None)
    yield from _places(obj, places)


def _walk(obj: Obj, inside: set[Path], *, vm_shaped: bool) -> Iterator[Found]:
    """The inference labels of every ``metadata.labels`` in ``obj`` and, when ``vm_shaped``, every VM-shaped spec.

    The objects a form hands on as inner ones (``inside``) are read on their own. The
    server's record of who set which field (``metadata.managedFields``) is not walked: it
    holds field names, never labels or a spec. Each mapping's place is kept as (key,
    parent's place) and made a path only where a form finds something: a cluster dump's
    objects hold many mappings and few references. (A ``status`` is walked: a
    HyperConverged's lists the data import crons in effect, defaults included.)
    """
    metadata = obj.data.get("metadata")
    stack: list[tuple[Any, _Place]] = [(obj.data, None)]
    while stack:
        value, place = stack.pop()
        if isinstance(value, dict):
            if inside and _path(place) in inside:
                continue
            labelled = value.get("metadata")
            if isinstance(labelled, dict) and isinstance(labelled.get("labels"), dict):
                path = _path(place)
                yield from labels(obj, path, path + ("metadata", "labels"))
            if vm_shaped and _has_matcher(value.get("spec")):
                yield from matchers(obj, _path(place))
            skip = "managedFields" if value is metadata else None
            children = [(child, (key, place)) for key, child in value.items()
                        if isinstance(child, (dict, list)) and key != skip]
        else:
            children = [(child, (index, place)) for index, child in enumerate(value) if isinstance(child, (dict, list))]
        children.reverse()  # the first child is read first
        stack += children


#: Where the walk is: the key or index that led here and the place of what holds it; None at the object.
_Place = "tuple[str | int, _Place] | None"


def _path(place: Any) -> Path:
    """The path from the object to ``place``."""
    steps: list[str | int] = []
    while place is not None:
        step, place = place
        steps.append(step)
    return tuple(reversed(steps))


def _has_matcher(spec: Any) -> bool:
    """Whether a ``spec`` holds an instancetype or preference matcher: a mapping with a name or inferFromVolume."""
    return isinstance(spec, dict) and any(
        isinstance(spec.get(family), dict) and ("name" in spec[family] or "inferFromVolume" in spec[family])
        for family in FAMILIES)


def _dig(data: Any, path: Path) -> Any:
    """The value at ``path`` in ``data``, None where there is none (an item of a list is one the walk found)."""
    for step in path:
        if isinstance(data, dict) and isinstance(step, str):
            data = data.get(step)
        elif isinstance(data, list) and isinstance(step, int):
            data = data[step]
        else:
            return None
    return data


# --------------------------------------------------------------------------- the pieces every form uses


def matchers(obj: Obj, holder: Path) -> Iterator[Found]:
    """``spec.instancetype`` and ``spec.preference`` of the VirtualMachine (or its template) at ``holder``.

    KubeVirt's InstancetypeMatcher and PreferenceMatcher (staging/src/kubevirt.io/api/core/v1/types.go):
    ``name`` and ``kind`` (an empty kind is the cluster kind); ``revisionName`` names a
    stored copy, not a catalog object. A matcher with only ``inferFromVolume`` names
    nothing yet: KubeVirt fills it in from the volume's labels when the VM is created, so
    it is counted as unchecked (the labels are references where they are written).
    """
    spec = _dig(obj.data, holder + ("spec",))
    if not isinstance(spec, dict):
        return
    owner = obj.owner(holder)
    for family in FAMILIES:
        matcher = spec.get(family)
        if not isinstance(matcher, dict):
            continue
        at = holder + ("spec", family)
        if matcher.get("name") is None:
            volume = matcher.get("inferFromVolume")
            if isinstance(volume, str) and volume:
                yield Reference(family, None, None, owner, obj.place_of(Resolved(None), at + ("inferFromVolume",)),
                                f"spec.{family}",
                                unchecked=f"inferred from the labels of the source of volume {excerpt(volume)!r} "
                                          "when the VirtualMachine is created (inferFromVolume)")
            continue
        yield from reference(obj, owner, family, at + ("name",), at + ("kind",), f"spec.{family}")


def labels(obj: Obj, holder: Path, at: Path) -> Iterator[Found]:
    """The inference labels of the labels mapping at ``at``, for the object at ``holder``.

    Only the name label makes a reference; the kind label of the same mapping gives it
    its kind, and alone names nothing (KubeVirt's pkg/instancetype/infer: ``fromLabels``).
    """
    found = _dig(obj.data, at)
    if not isinstance(found, dict) or not any(LABELS[family] in found for family in FAMILIES):
        return
    owner = obj.owner(holder)
    for family in FAMILIES:
        key = LABELS[family]
        if key in found:
            yield from reference(obj, owner, family, at + (key,), at + (f"{key}-kind",), f"label {key}")


def reference(obj: Obj, owner: Owner, family: Family, name_at: Path, kind_at: Path, via: str) -> Iterator[Found]:
    """The reference whose name is at ``name_at`` (and kind at ``kind_at``) in ``obj``, with the template's
    parameters replaced; a Problem for a value that is no text. A name or kind not written (or null) is none."""
    name, kind = _dig(obj.data, name_at), _dig(obj.data, kind_at)
    if name is None:
        return
    for value, at, what in ((name, name_at, "name"), (kind, kind_at, "kind")):
        if value is not None and not isinstance(value, str):
            yield Problem(obj.locate(at), f"{via}: expected the {what} of {_article(family)} as text, got "
                                          f"{describe(value)}")
            return
    named = text_of(obj, name)
    kinded = text_of(obj, kind) if kind else Resolved(None)
    for found, at in ((named, name_at), (kinded, kind_at)):
        if found.undefined is not None:
            yield _undefined(obj, at, found.undefined)
    unchecked = named.unchecked or kinded.unchecked
    # a kind known offline is kept beside a name that is not: KubeVirt refuses `vmcp` whatever the name becomes
    yield Reference(family, None if unchecked else named.text, None if kinded.unchecked else kinded.text or None,
                    owner, obj.place_of(Resolved(None) if unchecked else named, name_at), via, unchecked,
                    named.parameter or kinded.parameter)


def text_of(obj: Obj, text: str) -> Resolved:
    """``text`` as it reaches KubeVirt: the template's parameters replaced, and unchecked when it holds a
    placeholder another tool fills in."""
    found = resolve(text, obj.params) if obj.params is not None else Resolved(text)
    if found.text is not None:
        placeholder = PLACEHOLDER.search(found.text)
        if placeholder:
            return Resolved(None, f"holds {excerpt(placeholder.group(), 40)!r}, a placeholder another tool fills "
                                  "in before the manifest is applied", found.parameter)
    return found


def _undefined(obj: Obj, at: Path, name: str) -> Problem:
    defined = ", ".join(obj.params.known) if obj.params is not None and obj.params.known else "none"
    return Problem(obj.locate(at), f"references undefined parameter {excerpt(name)}: virt-template's webhook "
                                   f"refuses the template (its parameters: {excerpt(defined, 200)})")


def _article(family: Family) -> str:
    return "an instancetype" if family == "instancetype" else "a preference"


def _inner(obj: Obj, at: Path, kind: str, group: str, params: Parameters | None = None) -> Iterator[Inner]:
    """The object at ``at`` in ``obj``, of ``kind`` unless it says its own, owned by ``obj``."""
    data = _dig(obj.data, at)
    if isinstance(data, dict):
        own = data.get("kind")
        yield Inner(replace(obj, path=obj.path + at, data=data, kind=own if isinstance(own, str) else kind,
                            group=group_of(data["apiVersion"]) if "apiVersion" in data else group,
                            params=params or obj.params))


def _places(obj: Obj, places: Sequence[Place]) -> Iterator[Found]:
    """The values at every place the user named whose objects ``obj`` is among (an object of a kind)."""
    metadata = obj.data.get("metadata")
    name = metadata.get("name") if isinstance(metadata, dict) else None
    owner: Owner | None = None
    for place in places:
        if not place.matches(obj.data.get("apiVersion"), obj.kind, name):
            continue
        for path, value in place.values(obj.data):
            if value is None:
                continue
            if not isinstance(value, str):
                yield Problem(obj.locate(path), f"place {place}: expected {_article(place.family)}'s name as text, "
                                                f"got {describe(value)}")
                continue
            if owner is None:
                owner = obj.owner(())
            found = text_of(obj, value)
            yield Reference(place.family, found.text, None, owner, obj.place_of(found, path), f"place {place}",
                            found.unchecked, found.parameter)


# --------------------------------------------------------------------------- the forms


@form("virtual-machine", ("kubevirt.io", "VirtualMachine"))
def virtual_machine(obj: Obj) -> Iterator[Found]:
    """VirtualMachine (kubevirt.io/v1): ``spec.instancetype`` and ``spec.preference``."""
    yield from matchers(obj, ())


@form("virtual-machine-pool", ("pool.kubevirt.io", "VirtualMachinePool"))
def virtual_machine_pool(obj: Obj) -> Iterator[Inner]:
    """VirtualMachinePool (pool.kubevirt.io/v1alpha1, v1beta1): the VirtualMachine of
    ``spec.virtualMachineTemplate``."""
    yield from _inner(obj, ("spec", "virtualMachineTemplate"), "VirtualMachine", "kubevirt.io")


@form("snapshot-content", ("snapshot.kubevirt.io", "VirtualMachineSnapshotContent"))
def snapshot_content(obj: Obj) -> Iterator[Inner]:
    """VirtualMachineSnapshotContent (snapshot.kubevirt.io/v1beta1, v1alpha1): the VirtualMachine of
    ``spec.source.virtualMachine``, which a restore creates again."""
    yield from _inner(obj, ("spec", "source", "virtualMachine"), "VirtualMachine", "kubevirt.io")


@form("virt-template", ("template.kubevirt.io", "VirtualMachineTemplate"))
def virt_template(obj: Obj) -> Iterator[Inner]:
    """VirtualMachineTemplate (template.kubevirt.io/v1alpha1, v1beta1): the VirtualMachine of
    ``spec.virtualMachine``, with the parameters of ``spec.parameters``."""
    at = ("spec", "parameters")
    given = parameters(_dig(obj.data, at), "virt-template", strict=True, at=obj.path + at)
    yield from _inner(obj, ("spec", "virtualMachine"), "VirtualMachine", "kubevirt.io", given)


@form("openshift-template", ("template.openshift.io", "Template"), ("", "Template"))
def openshift_template(obj: Obj) -> Iterator[Found | Inner]:
    """Template (template.openshift.io/v1, or the older ``apiVersion: v1``): every object of ``objects``, and
    the labels of ``labels`` that processing puts on each, with the parameters of ``parameters``."""
    given = parameters(obj.data.get("parameters"), "OpenShift", strict=False, at=obj.path + ("parameters",))
    within = replace(obj, params=given)
    yield from labels(within, ("labels",), ("labels",))
    objects = obj.data.get("objects")
    for index, item in enumerate(objects if isinstance(objects, list) else ()):
        if isinstance(item, dict):
            kind = item.get("kind")
            yield Inner(replace(within, path=obj.path + ("objects", index), data=item,
                                kind=kind if isinstance(kind, str) else None, group=group_of(item.get("apiVersion"))))


def meant_kind(written: str) -> str | None:
    """The kind of the catalog ``written`` stands for: the same letters in another case, its plural, or one
    spelt much alike; None when it is like none."""
    lowered = go_lower(written)
    for kind in DEFINED:
        if lowered in (kind.lower(), kind.lower() + "s"):
            return kind
    close = nearest(written, DEFINED, likeness=MEANT)
    return close[0] if close else None


def unserved(obj: Obj) -> Iterator[Found]:
    """An object of the catalog's API group whose kind is none of the four the API server serves.

    kubectl maps a manifest's kind to a resource with its case (``no matches for kind
    "VirtualMachineClusterInstanceType" in version "instancetype.kubevirt.io/v1beta1"``):
    the object is never created. A problem at its ``kind:``, with the kind it meant;
    and, for a name, a Definition that defines nothing, for the references to it.
    """
    kind = str(obj.kind)
    meant = meant_kind(kind)
    said = (f"kind {excerpt(kind)!r} is not served by {INSTANCETYPE_GROUP}: kubectl answers 'no matches for kind' "
            "and nothing is created; ")
    if meant is None:
        said += f"its kinds are {', '.join(sorted(DEFINED))}"
    else:
        lowered = go_lower(kind)
        why = (" (a kind is matched with its case)" if lowered == meant.lower()
               else " (a kind is singular)" if lowered == meant.lower() + "s" else "")
        said += f"the kind is {meant}{why}"
    yield Problem(obj.locate(("kind",)), said)
    name = _dig(obj.data, ("metadata", "name"))
    if meant is not None and isinstance(name, str):
        namespace = None if "Cluster" in meant else obj.namespace
        yield Definition(DEFINED[meant], kind, name, namespace, obj.locate(("kind",)), served=False)


@form("definition", *((INSTANCETYPE_GROUP, kind) for kind in DEFINED))
def definition(obj: Obj) -> Iterator[Found]:
    """VirtualMachine{Cluster,}{Instancetype,Preference} (instancetype.kubevirt.io): a catalog object defined
    in the manifests themselves, which the references beside it may name."""
    name = _dig(obj.data, ("metadata", "name"))
    if not isinstance(name, str) or obj.kind is None:
        return
    found = text_of(obj, name)
    if found.text is None:
        return
    namespace = None if "Cluster" in obj.kind else obj.namespace
    yield Definition(DEFINED[obj.kind], obj.kind, found.text, namespace, obj.locate(("metadata", "name")))
