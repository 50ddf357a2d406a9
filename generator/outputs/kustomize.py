"""The kustomize tree: the catalog as remote bases a GitOps repo can take whole or in part.

Layout (under ``kustomize/``)::

    kustomization.yaml                     everything: the all-bundle
    instancetypes/cluster/kustomization.yaml      one kind: its bundle
    instancetypes/cluster/u/kustomization.yaml    one series of that kind
    instancetypes/cluster/u/u.yaml                its documents
    preferences/namespaced/windows/...            one preference family

Resource files hold the very documents of the bundles, cut out of the rendered
texts, so a kustomization can never drift from the bundle it stands for: the
root lists the four kinds in the all-bundle's order, each kind lists its groups
in the order of first appearance, and ``sortOptions: fifo`` keeps that order.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Mapping, Sequence

import jinja2

from ..errors import InputError
from ..model import CLUSTER_KINDS, INSTANCETYPE_KINDS, PREFERENCE_KINDS, CatalogObject
from ..paths import builtin_catalog
from ..problems import Location
from ..render import environment, template_error
from ..source.yamlsrc import load_stream_fast
from .context import OutputContext

ROOT = "kustomize"
TEMPLATE = "kustomize/kustomization.yaml.j2"

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
    """The catalog's templates first, then the built-in ones, as the bundles are rendered (Helm's too)."""
    dirs = [ctx.catalog.root / "templates"]
    if builtin_catalog() / "templates" != dirs[0]:
        dirs.append(builtin_catalog() / "templates")
    return dirs


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
        if not GROUP_NAME.match(obj.group):
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
    """Renders kustomization.yaml files with the tool's one Jinja environment."""

    def __init__(self, ctx: OutputContext):
        self.env = environment(template_dirs(ctx))
        self.version = ctx.version
        try:
            self.template = self.env.get_template(TEMPLATE)
        except jinja2.TemplateNotFound:
            raise InputError.at(Location("templates/" + TEMPLATE), "template not found") from None
        except jinja2.TemplateSyntaxError as exc:
            raise template_error(exc, TEMPLATE, self.env, "templates/" + TEMPLATE) from None

    def render(self, title: str, resources: Sequence[str]) -> bytes:
        try:
            text = self.template.render(title=title, resources=list(resources), version=self.version)
        except Exception as exc:  # any failure inside a template is the template's fault
            raise template_error(exc, TEMPLATE, self.env, "templates/" + TEMPLATE) from None
        return text.encode()


def kustomize_files(ctx: OutputContext) -> Mapping[str, bytes]:
    """Every file of the kustomize tree, keyed by its path inside the output directory."""
    render = _Kustomizations(ctx)
    files: dict[str, bytes] = {}
    for kind, groups in kind_groups(ctx).items():
        base = f"{ROOT}/{KIND_DIRS[kind]}"
        for group, texts in groups.items():
            files[f"{base}/{group}/{group}.yaml"] = "".join(texts).encode()
            files[f"{base}/{group}/kustomization.yaml"] = render.render(
                f"{group}: its {_scope(kind)} {kind} objects", [f"{group}.yaml"])
        files[f"{base}/kustomization.yaml"] = render.render(
            f"Every {_scope(kind)} {kind} object; each sub-directory is one series or family.", list(groups))
    files[f"{ROOT}/kustomization.yaml"] = render.render(
        "The whole catalog: every object of the all-bundle.", list(KIND_DIRS.values()))
    return dict(sorted(files.items()))
