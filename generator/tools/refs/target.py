"""What the cluster will have: the catalog objects that references are judged against.

One loading path serves every command that needs a catalog's objects rather than
its files: ``citgen refs`` (its target, and each side of ``--from``/``--to``),
``citgen expand`` (the objects a VirtualMachine's matchers name) and ``citgen
validate --matrix`` (the pairs it expands). ``target_objects`` gives them:

- the built-in catalog's build, by default;
- the build of ``catalog`` (a catalog folder) with ``overlays`` applied;
- the build for a KubeVirt release (``kubevirt``): the objects ``citgen build
  --kubevirt`` ships for it, with what that build leaves out and why;
- or the objects of published ``bundles`` as they are.

A build is rendered and parsed back as it ships (the all-bundle), so a name is
judged against exactly what a cluster gets. ``resolve`` looks a reference up as
KubeVirt does (pkg/instancetype/find): the kind read case-insensitively as the
singular or plural of its family, no kind meaning the cluster kind, a namespaced
kind looked up in the referring object's namespace, where objects defined in the
scanned manifests themselves come first.
"""

from __future__ import annotations

import stat
from dataclasses import field
from functools import cached_property
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from ...errors import InputError
from ...expand.kubevirt import OBJECT_LEFT_OUT, Adjustment
from ...expand.lifecycle import lifecycles
from ...frozen import frozen
from ...model import CLUSTER_KINDS, INSTANCETYPE_KINDS, PREFERENCE_KINDS, Lifecycle, Retirement, Series
from ...problems import Location
from ...schemas.releases import Release
from ...source.documents import BundleDoc
from ...source.objects import STDIN, build_bundle, read_bundles
from ...source.inputfiles import lookup
from ...suggest import Index
from ...golower import go_lower
from .model import Definition, Family, Reference

#: The catalog's all-bundle: what a build output folder holds every object in.
#: What marks a folder as a catalog.
CATALOG_FILE = "catalog.yaml"

def family_of(kind: str) -> Family | None:
    """The family of a catalog object's kind; None for any other kind."""
    if kind in INSTANCETYPE_KINDS:
        return "instancetype"
    if kind in PREFERENCE_KINDS:
        return "preference"
    return None


#: The kinds of each family, the cluster kind first.
FAMILY_KINDS: Mapping[str, tuple[str, str]] = {"instancetype": INSTANCETYPE_KINDS, "preference": PREFERENCE_KINDS}
#: What KubeVirt's switch on ``strings.ToLower(kind)`` accepts in each family's matcher, and the kind it finds:
#: the singular and the plural of each kind, and nothing (the cluster kind). Nothing else, in any release.
ACCEPTED: Mapping[str, Mapping[str, str]] = {
    family: {"": kinds[0], **{spelling: kind for kind in kinds for spelling in (kind.lower(), kind.lower() + "s")}}
    for family, kinds in FAMILY_KINDS.items()
}


@frozen
class Target:
    """The objects a cluster will have, and where they come from.

    described
        The target in words, for messages: ``the built-in catalog``, ``bundle
        v1.0.0.yaml``, ``the build of catalog vendor for KubeVirt v1.8``.
    kubevirt
        The KubeVirt release built for (``--kubevirt``), None for a catalog's
        default build or bundles as published.
    left_out
        The objects a build for ``kubevirt`` leaves out, by family and name, each
        with the field that made it (and the release that brought the field).
    retirements
        The names the catalog once had and no longer has, by family and name, as
        its catalog.yaml's ``retired`` records them (a catalog's build only; a
        bundle says only what its objects' labels and annotations say).
    """

    documents: tuple[BundleDoc, ...]
    described: str
    kubevirt: Release | None = None
    left_out: Mapping[tuple[str, str], Adjustment] = field(default_factory=dict)
    retirements: Mapping[tuple[str, str], Retirement] = field(default_factory=dict)
    #: The series the build left out for want of a GPU device (load/gpu.py): a name of one is explained.
    opt_in: tuple[Series, ...] = ()
    #: The target as a summary names it: ``described`` with the catalog's version (paths.catalog_name).
    named: str = ""

    @property
    def summary_name(self) -> str:
        return self.named or self.described

    @property
    def objects(self) -> list[Any]:
        """Each document's object, as the VM expander and the matrix take them."""
        return [doc.data for doc in self.documents]

    @cached_property
    def index(self) -> Mapping[tuple[str, str], Mapping[str, Any]]:
        """Every catalog object by kind and name (the first, should a name come twice)."""
        found: dict[tuple[str, str], Mapping[str, Any]] = {}
        for doc in self.documents:
            if family_of(doc.kind or "") is not None and doc.name is not None:
                found.setdefault((doc.kind, doc.name), doc.data)
        return found

    @cached_property
    def names(self) -> Mapping[str, tuple[str, ...]]:
        """Each family's names, of either kind, sorted."""
        found: dict[str, set[str]] = {"instancetype": set(), "preference": set()}
        for kind, name in self.index:
            found[family_of(kind) or "instancetype"].add(name)
        return {family: tuple(sorted(names)) for family, names in found.items()}

    @cached_property
    def lifecycle(self) -> Mapping[tuple[str, str], Lifecycle]:
        """Every name that is not current, by family and name: deprecated objects, retired names, their replacements.

        What ``citgen list`` and the catalog page say too (expand/lifecycle.py).
        """
        return lifecycles(self.objects, self.retirements)

    def get(self, kind: str, name: str) -> Mapping[str, Any] | None:
        return self.index.get((kind, name))


# --------------------------------------------------------------------------- loading


def _shown(paths: Sequence[Path]) -> str:
    return ", ".join(str(p) for p in paths)


def target_objects(catalog: Path | None = None, overlays: Sequence[Path] = (), bundles: Sequence[Path] = (),
                   kubevirt: Release | None = None, gpu_device: str | None = None,
                   gpu_count: int | None = None, *, option: str | None = "--bundle") -> Target:
    """The objects of ``bundles`` as published, or else the build of ``catalog`` (the built-in one by default).

    ``overlays`` are applied to the catalog after those its catalog.yaml lists;
    ``kubevirt`` builds for that KubeVirt release (``citgen build --kubevirt``), and
    ``gpu_device`` and ``gpu_count`` with the GN series (``--gpu-device``).
    Bundles are objects already built, so a catalog, overlays or a release beside
    them would have nothing to build: that is an InputError.
    """
    if bundles:
        given = [name for name, value in (("--catalog", catalog), ("--overlay", overlays), ("--kubevirt", kubevirt),
                                          ("--gpu-device", gpu_device), ("--gpu-count", gpu_count)) if value]
        if given:
            verb = "chooses" if len(given) == 1 else "choose"
            raise InputError.at(Location(given[0]), f"{', '.join(given)} {verb} a build, and --bundle names objects "
                                "already built; give one or the other")
        docs = read_bundles(bundles, option=option)  # the option the bundles were given with (None: arguments)
        return Target(tuple(docs), f"bundle{'s' if len(bundles) > 1 else ''} {_shown(bundles)}")
    return _build(catalog, tuple(overlays), kubevirt, gpu_device, gpu_count)


def _build(catalog: Path | None, overlays: tuple[Path, ...], kubevirt: Release | None, gpu_device: str | None = None,
           gpu_count: int | None = None) -> Target:
    from ...expand.kubevirt import for_release
    from ...parse import parse_back
    from ...pipeline import BuildOptions, catalog_objects, left_out_series
    from ...render.bundles import render_bundles

    options = BuildOptions(catalog=catalog, overlays=overlays, gpu_device=gpu_device, gpu_count=gpu_count)
    found, version, objects = catalog_objects(options)
    left_out: dict[tuple[str, str], Adjustment] = {}
    if kubevirt is not None:
        objects, adjustments = for_release(objects, kubevirt, found.settings.spellings)
        left_out = {(a.family, a.name): a for a in adjustments if a.action == OBJECT_LEFT_OUT}
    return Target(parse_back(render_bundles(found, objects)), _described(catalog, overlays, kubevirt),
                  kubevirt, left_out, found.retirements, left_out_series(found, options),
                  _described(catalog, overlays, kubevirt, version))


def _described(catalog: Path | None, overlays: tuple[Path, ...], kubevirt: Release | None,
               version: str | None = None) -> str:
    """A build in words: ``the build for KubeVirt v1.8 of catalog vendor with overlay o.yaml``.

    Without ``catalog``, the catalog the working directory is in (``catalog ./``), else
    the built-in one (paths.py). With ``version``, as a summary names it
    (``the built-in catalog v1.8.0-dev``, ``catalog ./ v1.9.0``).
    """
    from ...paths import catalog_name

    if catalog is None:
        named = catalog_name(None, version or "").rstrip()
        described = f"the {named}" if named.startswith("built-in ") else named
    else:
        described = f"catalog {catalog}" + (f" {version}" if version else "")
    if overlays:
        described += f" with overlay{'s' if len(overlays) > 1 else ''} {_shown(overlays)}"
    if kubevirt is not None:
        described = f"the build for KubeVirt {kubevirt} of {described}"
    return described


def target_at(path: Path, option: str) -> Target:
    """What ``path`` stands for (``--from``, ``--to``): a bundle file, a build output folder or a catalog folder."""
    there = None if str(path) == STDIN else lookup(path)
    if there is None and str(path) != STDIN:
        raise InputError.at(Location(str(path)), f"no such file or folder (given as {option})")
    if there is None or not stat.S_ISDIR(there.st_mode):
        return Target(tuple(read_bundles([path], option=option)), f"bundle {_shown((path,))}")
    if lookup(path / CATALOG_FILE) is not None:
        return target_objects(catalog=path)
    bundle = build_bundle(path, str(path))
    if bundle is not None:
        return Target(tuple(read_bundles([bundle], option=option)), f"build {path}")
    return Target(tuple(read_bundles([path], option=option)), f"bundle {_shown((path,))}")  # as any folder is read


# --------------------------------------------------------------------------- resolving


@frozen
class Resolution:
    """Where one reference leads, as KubeVirt would look it up.

    kind
        The kind KubeVirt finds for the reference's kind as written; None when its
        switch refuses that kind (``got unexpected kind in PreferenceMatcher``).
    found
        The target's object; or ``local``, the definition in the scanned manifests.
    shipped_as
        For a name the target lacks as this kind: the other kind of the family it
        does ship it as (``VirtualMachineInstancetype`` named, only the cluster kind shipped).
    defined_as
        For a name neither the target nor the manifests have as this kind: the
        manifests' definition of it as the other kind of the family, where KubeVirt
        would find that one (a VirtualMachinePreference in the reference's namespace
        for a VM naming no kind, a cluster kind from anywhere).
    """

    reference: Reference
    kind: str | None
    found: Mapping[str, Any] | None = None
    local: Definition | None = None
    shipped_as: str | None = None
    defined_as: Definition | None = None

    @property
    def resolved(self) -> bool:
        return self.found is not None or self.local is not None


def matcher_kind(family: str, written: str | None) -> str | None:
    """The kind KubeVirt looks for when a matcher of ``family`` says ``written`` (None: it refuses it), the text
    lowered as Go lowers it (fold.py)."""
    return ACCEPTED[family].get(go_lower(written or ""))


class Resolver:
    """Looks references up in a target and in the objects the scanned manifests define."""

    def __init__(self, target: Target, definitions: Iterable[Definition] = ()):
        self.target = target
        self.local: dict[tuple[str, str, str | None], Definition] = {}
        self._namespaces: dict[tuple[str, str], list[str | None]] = {}
        self._indexes: dict[str, Index] = {}
        self.unserved: dict[tuple[str, str], Definition] = {}
        for one in definitions:  # a cluster kind's definition has no namespace (model.Definition)
            if not one.served:
                self.unserved.setdefault((one.family, one.name), one)
                continue
            key = (one.kind, one.name, one.namespace)
            if key not in self.local:
                self.local[key] = one
                self._namespaces.setdefault((one.kind, one.name), []).append(one.namespace)

    def resolve(self, reference: Reference) -> Resolution:
        kind = matcher_kind(reference.family, reference.kind)
        if kind is None or reference.name is None:
            return Resolution(reference, kind)
        name = reference.name
        namespace = None if kind in CLUSTER_KINDS else reference.owner.namespace
        local = self.local.get((kind, name, namespace))
        if local is not None:
            return Resolution(reference, kind, local=local)
        found = self.target.get(kind, name)
        if found is not None:
            return Resolution(reference, kind, found)
        other = next(k for k in FAMILY_KINDS[reference.family] if k != kind)
        shipped = other if self.target.get(other, name) is not None else None
        defined = None if shipped else self.local.get(
            (other, name, None if other in CLUSTER_KINDS else reference.owner.namespace))
        return Resolution(reference, kind, shipped_as=shipped, defined_as=defined)

    def namespaces(self, kind: str, name: str) -> tuple[str | None, ...]:
        """The namespaces the manifests define a namespaced ``kind`` named ``name`` in (None: without one)."""
        return tuple(sorted(self._namespaces.get((kind, name), ()), key=lambda namespace: namespace or ""))

    def names(self, family: str) -> tuple[str, ...]:
        """Every name a reference of ``family`` could mean: the target's, and those defined beside it."""
        return self.index(family).names

    def index(self, family: str) -> Index:
        """``names(family)`` indexed for suggestions (suggest.py), built once."""
        if family not in self._indexes:
            own = {d.name for d in self.local.values() if family_of(d.kind) == family}
            self._indexes[family] = Index(own.union(self.target.names[family]))
        return self._indexes[family]
