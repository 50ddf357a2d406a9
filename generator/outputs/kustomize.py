"""The kustomize tree: the catalog as remote bases a GitOps repo can take whole or in part.

Layout (under ``kustomize/``)::

    kustomization.yaml                     everything: the all-bundle
    instancetypes/cluster/kustomization.yaml      one kind: its bundle
    instancetypes/cluster/u/kustomization.yaml    one series of that kind
    instancetypes/cluster/u/u.yaml                its documents
    preferences/namespaced/windows/...            one preference family
    components/kubevirt-v1.8/kustomization.yaml   the catalog as KubeVirt v1.8 accepts it
    README.md                                     how to use the tree and a component

Resource files hold the very documents of the bundles, cut out of the rendered
texts, so a kustomization can never drift from the bundle it stands for: the
root lists the four kinds in the all-bundle's order, each kind lists its groups
in the order of first appearance, and ``sortOptions: fifo`` keeps that order.

A component per KubeVirt release citgen knows turns the whole tree, or any part
of it, into that release's objects (``citgen build --kubevirt``): a kustomize
``Component`` of patches, each aimed (``target``) at one object by its kinds
and name, so that a patch whose object is not in the part a user took matches
nothing and does nothing. An object the release leaves out gets a
``$patch: delete``; an object it changes, the JSON-patch operations of
releases.py. The newest release's component holds no patch: pinning it keeps
the objects as they are until the pin moves.
"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path
from typing import Callable, Iterator, Mapping, Sequence

from ..errors import InputError
from ..model import API_VERSION, CLUSTER_KINDS, INSTANCETYPE_KINDS, PREFERENCE_KINDS, CatalogObject
from ..problems import Location
from ..render import Job, rendering, submit
from ..render.searchpath import search_path
from ..render.yamltext import LINE_LIMIT, yaml_block
from ..schemas.releases import newest
from ..source.yamlsrc import load_stream_fast
from .context import OutputContext
from .policy import component_files as policy_component
from .releases import Op, ReleaseDelta, build_deltas

ROOT = "kustomize"
TEMPLATE = "kustomize/kustomization.yaml.j2"
COMPONENT_TEMPLATE = "kustomize/component.yaml.j2"
README_TEMPLATE = "kustomize/README.md.j2"
COMPONENTS = "components"
#: How deep a patch's text is indented in a component (under ``patch: |``).
PATCH_INDENT = 6

#: Directory of each kind inside the tree, in the all-bundle's order.
KIND_DIRS = {
    INSTANCETYPE_KINDS[0]: "instancetypes/cluster",
    PREFERENCE_KINDS[0]: "preferences/cluster",
    INSTANCETYPE_KINDS[1]: "instancetypes/namespaced",
    PREFERENCE_KINDS[1]: "preferences/namespaced",
}
BUNDLE_OF_KIND = {
    INSTANCETYPE_KINDS[0]: "common-clusterinstancetypes-bundle.yaml",
    INSTANCETYPE_KINDS[1]: "common-instancetypes-bundle.yaml",
    PREFERENCE_KINDS[0]: "common-clusterpreferences-bundle.yaml",
    PREFERENCE_KINDS[1]: "common-preferences-bundle.yaml",
}
#: A group becomes a directory name and a path segment of users' remote bases.
GROUP_NAME = re.compile(r"^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$")
_DOCUMENT_START = re.compile(r"(?m)^(?=---(?:[ \t]|$))")


def template_dirs(ctx: OutputContext) -> list[Path]:
    """The catalog's templates first, then the built-in ones, as the bundles are rendered (Helm's too).

    Every folder of them checked where the path is built (render/searchpath.py): one that
    cannot be read, or is a file, is refused by its name, never replaced by the built-in one.
    """
    return search_path(ctx.catalog.root)


def split_documents(text: str, bundle: str, parsed: Sequence[object] | None = None) -> list[tuple[str, str, str]]:
    """Cut a rendered bundle into (kind, name, text) per document, keeping the text as rendered.

    Anything before the first ``---`` (a comment a template may print) stays
    with the first document; a chunk that holds no document is dropped.
    ``parsed`` may give the bundle's documents as already parsed, in order; when
    there is one per chunk they name the chunks, sparing a second parse.
    """
    chunks = [c for c in _DOCUMENT_START.split(text) if c]
    if len(chunks) > 1 and not _DOCUMENT_START.match(chunks[0]):
        chunks[:2] = [chunks[0] + chunks[1]]
    known = list(parsed) if parsed is not None and len(parsed) == len(chunks) else None
    found = []
    for i, chunk in enumerate(chunks):
        docs = [known[i]] if known is not None else load_stream_fast(chunk)
        if not docs:
            continue
        doc = docs[0]
        if len(docs) != 1 or not isinstance(doc, dict):
            raise InputError.at(Location(bundle), "a rendered document could not be cut out of the bundle")
        name = (doc.get("metadata") or {}).get("name")
        found.append((str(doc.get("kind")), str(name), chunk if chunk.endswith("\n") else chunk + "\n"))
    return found


def _check_groups(objects: Sequence[CatalogObject]) -> None:
    for obj in objects:
        if not GROUP_NAME.fullmatch(obj.group):
            raise InputError.at(obj.location, f"{obj.family} {obj.name}: group {obj.group!r} cannot name a "
                                "kustomize directory (lower-case letters, digits, '.' and '-')")


def _documents_of(ctx: OutputContext, kind: str, parsed: Sequence[object] | None) -> list[tuple[str, str, str]]:
    """(kind, name, text) of each document of ``kind``'s bundle, in order."""
    bundle = BUNDLE_OF_KIND[kind]
    texts = ctx.texts.get(kind)
    if texts is not None and parsed is not None and len(texts) == len(parsed):
        found = []
        for text, doc in zip(texts, parsed):
            if not isinstance(doc, dict):
                raise InputError.at(Location(bundle), "a rendered document is not a mapping")
            name = (doc.get("metadata") or {}).get("name")
            found.append((str(doc.get("kind")), str(name), text if text.endswith("\n") else text + "\n"))
        return found
    return split_documents(ctx.bundles.get(bundle, ""), bundle, parsed)


def kind_groups(ctx: OutputContext) -> dict[str, dict[str, list[str]]]:
    """For each kind, its groups in order of first appearance, each with its documents' texts."""
    _check_groups(ctx.objects)
    group_of = {(kind, o.name): o.group for o in ctx.objects for kind in o.kinds}
    parsed: dict[str, list[object]] = {}
    for doc in ctx.documents:  # the all-bundle holds each kind's bundle, in order
        parsed.setdefault(str(doc.kind), []).append(doc.data)
    out: dict[str, dict[str, list[str]]] = {}
    for kind, bundle in BUNDLE_OF_KIND.items():
        groups: dict[str, list[str]] = {}
        for doc_kind, name, text in _documents_of(ctx, kind, parsed.get(kind) if ctx.documents else None):
            group = group_of.get((doc_kind, name))
            if doc_kind != kind or group is None:
                raise InputError.at(Location(bundle), f"{doc_kind} {name!r} is not a catalog object of this bundle")
            groups.setdefault(group, []).append(text)
        out[kind] = groups
    return out


def _scope(kind: str) -> str:
    return "cluster-wide" if kind in CLUSTER_KINDS else "namespaced"


class _Kustomizations:
    """Renders kustomization.yaml files with the tool's one Jinja environment, in the rendering process."""

    def __init__(self, ctx: OutputContext):
        self.dirs = template_dirs(ctx)
        self.version = ctx.version

    def render(self, title: str, resources: Sequence[str]) -> bytes:
        return self.render_all({"": (title, resources)})[""]

    def render_all(self, wanted: Mapping[str, tuple[str, Sequence[str]]]) -> dict[str, bytes]:
        """A kustomization.yaml for each path: (its title, its resources), in one batch."""
        return self.start_all(wanted)()

    def start_all(self, wanted: Mapping[str, tuple[str, Sequence[str]]]) -> Callable[[], dict[str, bytes]]:
        """``render_all`` handed to the rendering process: calling the result waits for the files."""
        jobs = [Job(TEMPLATE, {"version": self.version, "title": title, "resources": list(resources)})
                for title, resources in wanted.values()]
        return self._start(list(wanted), jobs)

    def render_others(self, wanted: Mapping[str, tuple[str, Mapping[str, object]]]) -> dict[str, bytes]:
        """The tree's other templates (a component, the README) for each path: (its template, its variables),
        in one batch."""
        return self.start_others(wanted)()

    def start_others(self, wanted: Mapping[str, tuple[str, Mapping[str, object]]]) -> Callable[[], dict[str, bytes]]:
        """``render_others`` handed to the rendering process: calling the result waits for the files."""
        jobs = [Job(name, {"version": self.version, **variables}) for name, variables in wanted.values()]
        return self._start(list(wanted), jobs)

    def _start(self, paths: list[str], jobs: list[Job]) -> Callable[[], dict[str, bytes]]:
        texts = submit(self.dirs, jobs)  # rendered on the second core while the caller goes on
        return lambda: {path: text.encode() for path, text in zip(paths, texts())}


def component_dir(release: object) -> str:
    """A release's component, inside the tree: ``components/kubevirt-v1.8``."""
    return f"{COMPONENTS}/kubevirt-{release}"


#: The characters Go's regexp.QuoteMeta escapes: kustomize reads a target's name as a regular expression.
_REGEXP_META = re.compile(r"([\\.+*?()|\[\]{}^$])")
#: A name kustomize can read as a plain YAML scalar once its metacharacters are escaped.
_PLAIN_NAME = re.compile(r"^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")
#: Characters JSON leaves as they are that YAML reads as line breaks.
_YAML_BREAKS = {"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def target_name(name: str) -> str:
    """A target's ``name:`` matching exactly ``name``, as YAML: ``u1\\.large``."""
    pattern = _REGEXP_META.sub(r"\\\1", name)
    return pattern if _PLAIN_NAME.fullmatch(name) else json.dumps(pattern)


def _flow(value: object) -> str:
    """``value`` as JSON, which YAML reads as the same value, on one line."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    for char, escaped in _YAML_BREAKS.items():
        text = text.replace(char, escaped)
    return text


def _op_text(op: Op) -> str:
    """One JSON-patch operation as an item of a YAML list, a line of JSON where it fits the lint's width."""
    if op.op == "remove":  # most operations: what _flow writes of the record, without the general encoder
        line = '- {"op": "remove", "path": ' + _flow(op.pointer) + "}"
    else:
        line = "- " + _flow(op.record())
    if PATCH_INDENT + len(line) <= LINE_LIMIT:
        return line
    block = yaml_block([op.record()], PATCH_INDENT)  # folded by the emitter within the width
    return "\n".join(text[PATCH_INDENT:] for text in block.split("\n")[1:])


def _delete_text(kind: str, name: str) -> str:
    return "\n".join(["$patch: delete", f"apiVersion: {API_VERSION}", f"kind: {kind}", "metadata:",
                      f"  name: {_flow(name)}"])


def _comment(lines: Sequence[str], width: int = LINE_LIMIT - 4) -> list[str]:
    """Comment lines (without ``# ``) saying ``lines``, each on one line of the file, within the width."""
    out = []
    for line in lines:
        text = " ".join(str(line).split())  # no line break of any kind left in it
        if len(text) <= width:
            out.append(text)
        else:
            out += textwrap.wrap(text, width, subsequent_indent="  ", break_long_words=False,
                                 break_on_hyphens=False)
    return out


def _patch_text(kinds: Sequence[str], name: str, comment: Sequence[str], body: str) -> str:
    """One entry of a component's ``patches:``, as its lines in the file (a list item under ``patches:``)."""
    pad = " " * PATCH_INDENT
    lines = [f"  # {line}" for line in comment]
    lines += ["  - target:", f"      kind: {'|'.join(kinds)}", f"      name: {target_name(name)}", "    patch: |"]
    lines += [pad + line if line else line for line in body.split("\n")]
    return "\n".join(lines)


def component_patches(delta: ReleaseDelta, objects: Sequence[CatalogObject]) -> list[str]:
    """The patches of ``delta``'s component as text, one per object it leaves out or changes, in build order.

    A patch targets every kind of its object at once (``kind`` is a regular
    expression too: ``VirtualMachineClusterPreference|VirtualMachinePreference``),
    since a release treats an object's kinds alike; ``name`` is the object's name
    with its dots escaped. The patch itself is a strategic-merge ``$patch:
    delete``, or the JSON-patch operations, one JSON line each, which YAML reads
    as written.
    """
    left_out = {(o.family, o.name) for o in delta.left_out}
    changed = {(c.obj.family, c.obj.name): c for c in delta.changed}
    patches: list[str] = []
    written: dict[tuple[str, tuple[str, ...], str], str] = {}  # a release changes many objects alike

    def op_text(op: Op) -> str:
        key = (op.op, op.path, repr(op.value))  # the same repr: the same value, of the same types
        text = written.get(key)
        if text is None:
            text = written[key] = _op_text(op)
        return text

    for obj in objects:
        key = (obj.family, obj.name)
        if key in left_out:
            why = delta.why_left_out.get(f"{obj.family}/{obj.name}") or (f"{obj.name}: left out",)
            patches.append(_patch_text(obj.kinds, obj.name, _comment(why), _delete_text(obj.kinds[0], obj.name)))
        elif key in changed:
            why, ops = changed[key].why or (f"{obj.name}: changed",), changed[key].ops[obj.kinds[0]]
            patches.append(_patch_text(obj.kinds, obj.name, _comment(why), "\n".join(op_text(op) for op in ops)))
    return patches


def component_files(ctx: OutputContext, render: _Kustomizations) -> dict[str, bytes]:
    """A component per KubeVirt release, and the README that says how to use them (their templates in one batch)."""
    return _Components(ctx).start(render)()


class _Components:
    """The components and the README, made in two steps: their patches and variables, then their templates
    rendered (``start``), so that a build makes the patches while the rendering process renders the batch
    before (kustomize_batches)."""

    def __init__(self, ctx: OutputContext):
        releases = []
        self.patches_at: dict[str, list[str]] = {}
        self.wanted: dict[str, tuple[str, Mapping[str, object]]] = {}
        for delta in build_deltas(ctx):
            patches = component_patches(delta, ctx.objects)
            where = component_dir(delta.release)
            releases.append({"release": str(delta.release), "path": where, "left_out": len(delta.left_out),
                             "changed": len(delta.changed)})
            path = f"{ROOT}/{where}/kustomization.yaml"
            self.patches_at[path] = patches
            self.wanted[path] = (COMPONENT_TEMPLATE, {
                "release": str(delta.release), "patch_count": len(patches), "left_out": len(delta.left_out),
                "changed": len(delta.changed), "newest": delta.release == ctx.kubevirt})
        self.wanted[f"{ROOT}/README.md"] = (README_TEMPLATE, {
            "releases": releases, "newest": str(ctx.kubevirt), "latest": ctx.kubevirt == newest(),
            "kinds": dict(KIND_DIRS)})

    def start(self, render: _Kustomizations) -> Callable[[], dict[str, bytes]]:
        """The templates handed to the rendering process: calling the result waits for the files."""
        rendered = render.start_others(self.wanted)

        def files() -> dict[str, bytes]:
            made = rendered()
            for path, patches in self.patches_at.items():
                # the entries below `patches:`, written here: a large catalog has more than a template may write
                body = "".join(f"{patch}\n" for patch in patches).encode()
                made[path] = (made[path].rstrip(b"\n") + b"\n" + body) if patches else made[path]
            return made
        return files


def kustomize_files(ctx: OutputContext) -> Mapping[str, bytes]:
    """Every file of the kustomize tree, keyed by its path inside the output directory."""
    return dict(sorted((name, data) for batch in kustomize_batches(ctx) for name, data in batch.items()))


def kustomize_batches(ctx: OutputContext) -> Iterator[Mapping[str, bytes]]:
    """The kustomize tree in three batches, as a build hands them to the process that writes them: each group's
    documents (most of the tree's folders, cut out of texts already rendered), the kustomizations, then the
    components and README. The rendering process renders each batch of templates while this one hands on the
    files before it and makes what comes next (the releases' differences first: they may render)."""
    with rendering():  # one rendering process for the whole tree, or the build's
        render = _Kustomizations(ctx)
        resources: dict[str, bytes] = {}
        wanted: dict[str, tuple[str, Sequence[str]]] = {}  # the kustomizations, rendered in one batch
        for kind, groups in kind_groups(ctx).items():
            base = f"{ROOT}/{KIND_DIRS[kind]}"
            for group, texts in groups.items():
                resources[f"{base}/{group}/{group}.yaml"] = "".join(texts).encode()
                wanted[f"{base}/{group}/kustomization.yaml"] = (
                    f"{group}: its {_scope(kind)} {kind} objects", [f"{group}.yaml"])
            wanted[f"{base}/kustomization.yaml"] = (
                f"Every {_scope(kind)} {kind} object; each sub-directory is one series or family.", list(groups))
        wanted[f"{ROOT}/kustomization.yaml"] = (
            "The whole catalog: every object of the all-bundle.", list(KIND_DIRS.values()))
        build_deltas(ctx)  # made before a batch is owed (nothing else may render then), and kept for the chart
        kustomizations = render.start_all(wanted)
        yield resources
        components = _Components(ctx)  # its patches made while the kustomizations render
        files = kustomizations()
        rendered = components.start(render)
        yield files
        files = rendered()
        if ctx.policy is not None:  # the admission policy, a component of its own (outputs/policy.py)
            files.update({f"{ROOT}/{name}": data for name, data in policy_component(ctx.policy).items()})
        yield files
