"""How outputs/releases.py reads the build and keeps what it made: documents, objects as given, memos.

Every build makes the releases' differences, for the chart and for the kustomize
tree alike, so outputs/releases.py reads the build's own parsed documents rather
than its text, takes the operations off the objects when the templates wrote them
as given, and keeps the differences of a catalog built again in the same process.
None of that may change a byte of what is written; these tests pin what each
shortcut takes for granted, and that it is taken: the same documents, the same
differences (the very same objects), a memo that forgets what it must.
"""

from __future__ import annotations

import gc
from dataclasses import replace
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.model import OlderValue
from generator.outputs import releases
from generator.outputs.context import OutputContext
from generator.outputs.kustomize import template_dirs
from generator.outputs.releases import ALL_BUNDLE, _content_key, _verbatim, documents_by_key, release_deltas
from generator.pipeline import Build
from generator.schemas.releases import Release, known
from generator.source.documents import BundleDoc
from tests.helpers import default_build


def context(build: Build | None = None, **changes) -> OutputContext:
    """A new context of ``build`` (the built-in catalog's): a producer gets one per build."""
    build = build or default_build()
    fields = dict(catalog=build.catalog, version=build.version, objects=build.objects, bundles=build.bundles,
                  documents=build.documents)
    fields.update(changes)
    return OutputContext(**fields)


@pytest.fixture(autouse=True)
def nothing_known(monkeypatch):
    """Each test starts with no catalog's differences kept (the default build, which keeps its own, made first)."""
    default_build()
    monkeypatch.setattr(releases, "_KNOWN", {})


# --------------------------------------------------------------------------- the build's documents


def bundle_doc(index: int, data) -> BundleDoc:
    return BundleDoc(ALL_BUNDLE, index, data)


def test_the_documents_are_the_ones_the_pipeline_parsed_not_the_text_again():
    """The bundle's text is not read at all when the parsed documents are given."""
    given = [bundle_doc(0, {"kind": "VirtualMachineClusterPreference", "metadata": {"name": "fedora"}})]
    ctx = context(documents=given, bundles={ALL_BUNDLE: "this: [is not read\n"})
    assert documents_by_key(ctx) == {("VirtualMachineClusterPreference", "fedora"): given[0].data}


def test_without_parsed_documents_the_all_bundle_is_parsed():
    text = ("kind: VirtualMachineClusterPreference\nmetadata:\n  name: fedora\n---\n"
            "kind: VirtualMachineClusterInstancetype\nmetadata:\n  name: u1.small\nspec: {cpu: {guest: 1}}\n")
    found = documents_by_key(context(documents=(), bundles={ALL_BUNDLE: text}))
    assert found == {
        ("VirtualMachineClusterPreference", "fedora"): {"kind": "VirtualMachineClusterPreference",
                                                         "metadata": {"name": "fedora"}},
        ("VirtualMachineClusterInstancetype", "u1.small"): {"kind": "VirtualMachineClusterInstancetype",
                                                            "metadata": {"name": "u1.small"},
                                                            "spec": {"cpu": {"guest": 1}}}}


def test_documents_that_are_not_mappings_are_skipped_and_one_without_metadata_has_no_name():
    given = [bundle_doc(0, ["a", "list"]), bundle_doc(1, None), bundle_doc(2, {"kind": "K"}),
             bundle_doc(3, {"kind": "K", "metadata": None})]
    assert documents_by_key(context(documents=given)) == {("K", None): {"kind": "K", "metadata": None}}


def test_an_all_bundle_that_is_not_yaml_is_refused_naming_it():
    with pytest.raises(InputError) as caught:
        documents_by_key(context(documents=(), bundles={ALL_BUNDLE: "kind: [unclosed\n"}))
    [problem] = caught.value.problems
    assert problem.location.file == ALL_BUNDLE
    assert problem.message.startswith("rendered bundle is not valid YAML: ")


# --------------------------------------------------------------------------- objects written as given


def test_every_object_of_the_built_in_catalog_is_written_as_given():
    """The built-in templates add nothing: every operation is read off the objects."""
    build = default_build()
    by_key = documents_by_key(context(build))
    assert all(_verbatim(o, by_key[(o.kinds[0], o.name)]) for o in build.objects)


def fedora_document() -> tuple:
    build = default_build()
    obj = next(o for o in build.objects if o.name == "fedora")
    document = documents_by_key(context(build))[(obj.kinds[0], obj.name)]
    return obj, document


@pytest.mark.parametrize("change", [
    pytest.param(lambda d: d.update(status={}), id="a key of its own at the top"),
    pytest.param(lambda d: d.pop("apiVersion"), id="a top key missing"),
    pytest.param(lambda d: d["metadata"].update(namespace="vms"), id="a key of its own in the metadata"),
    pytest.param(lambda d: d["metadata"].pop("annotations"), id="no annotations"),
    pytest.param(lambda d: d["metadata"]["labels"].update({"example.com/team": "a"}), id="a label of its own"),
    pytest.param(lambda d: d["metadata"]["annotations"].update({"example.com/note": "a"}),
                 id="an annotation of its own"),
    pytest.param(lambda d: d["spec"].update(extra={}), id="a spec field of its own"),
])
def test_a_document_with_anything_the_object_does_not_have_is_not_written_as_given(change):
    obj, document = fedora_document()
    changed = {**document, "metadata": {k: dict(v) if isinstance(v, dict) else v
                                        for k, v in document["metadata"].items()}, "spec": dict(document["spec"])}
    change(changed)
    assert _verbatim(obj, document) and not _verbatim(obj, changed)


@pytest.mark.parametrize("metadata", [None, ["name", "labels", "annotations"], "fedora"])
def test_a_document_whose_metadata_is_not_a_mapping_is_not_written_as_given(metadata):
    obj, document = fedora_document()
    assert not _verbatim(obj, {**document, "metadata": metadata})


# --------------------------------------------------------------------------- what the memo's key holds


def test_contexts_of_the_same_build_have_the_same_key():
    build = default_build()
    assert _content_key(context(build), template_dirs(context(build))) == _content_key(
        context(build), template_dirs(context(build)))


def key_with(**changes) -> tuple:
    ctx = context(**changes)
    return _content_key(ctx, template_dirs(ctx))


def with_spellings(change) -> dict:
    """A context's fields whose catalog's spellings are ``change(spellings)``."""
    catalog = default_build().catalog
    settings = replace(catalog.settings, spellings=tuple(change(list(catalog.settings.spellings))))
    return {"catalog": replace(catalog, settings=settings)}


def essential(name: str, fields) -> dict:
    """A context's fields where object ``name`` is essential for ``fields`` (none: not essential)."""
    objects = [replace(o, facts={**o.facts, "essential": fields}) if o.name == name else o
               for o in default_build().objects]
    return {"objects": objects}


def more_text() -> dict:
    bundles = default_build().bundles
    return {"bundles": {**bundles, ALL_BUNDLE: bundles[ALL_BUNDLE] + "#\n"}}


@pytest.mark.parametrize("changes", [  # each made when its test runs: the build is not made at collection
    pytest.param(more_text, id="the all-bundle's text"),
    pytest.param(lambda: essential("fedora.s390x.secex", (("spec", "preferredLaunchSecurity"), ("spec", "cpu"))),
                 id="the fields that make an object essential"),
    pytest.param(lambda: essential("fedora.s390x.secex", ()), id="an object no longer essential"),
    pytest.param(lambda: essential("fedora", (("spec", "cpu"),)), id="an object made essential"),
    pytest.param(lambda: with_spellings(lambda s: s[1:]), id="a spelling fewer"),
    pytest.param(lambda: with_spellings(lambda s: [replace(s[0], writes=s[0].writes[:1])] + s[1:]),
                 id="what a spelling writes"),
    pytest.param(lambda: with_spellings(lambda s: s[:1] + [replace(s[1], when={})] + s[2:]),
                 id="when a spelling applies"),
    pytest.param(lambda: with_spellings(lambda s: [replace(s[0], values={"x": OlderValue("v1.5", "y")})] + s[1:]),
                 id="the values a spelling dates"),
])
def test_anything_the_differences_depend_on_changes_the_key(changes):
    assert key_with(**changes()) != key_with()


def test_where_a_spelling_is_written_does_not_change_the_key():
    moved = with_spellings(lambda s: [replace(s[0], location=replace(s[0].location, line=99))] + s[1:])
    assert key_with(**moved) == key_with()


def test_other_template_directories_change_the_key(tmp_path: Path):
    ctx = context()
    assert _content_key(ctx, [tmp_path, *template_dirs(ctx)]) != _content_key(ctx, template_dirs(ctx))


# --------------------------------------------------------------------------- what is kept, and for how long


def deltas(ctx: OutputContext, dirs=None) -> tuple:
    return release_deltas(ctx, template_dirs(ctx) if dirs is None else dirs)


def test_a_context_asked_again_gets_the_very_same_differences():
    ctx = context()
    assert deltas(ctx) is deltas(ctx)


def test_the_same_catalog_built_again_reuses_what_was_made():
    first, again = deltas(context()), deltas(context())
    assert len(first) == len(known()) and all(a is b for a, b in zip(first, again))


def test_a_context_built_for_an_older_release_gets_that_release_and_the_ones_before_it():
    older = deltas(context(kubevirt=Release(1, 3)))
    assert [d.release for d in older] == [r for r in known() if r <= Release(1, 3)]
    assert all(a is b for a, b in zip(older, deltas(context())))  # the same catalog: made once


def test_a_context_forgotten_is_forgotten_by_the_memo_too():
    ctx = context()
    deltas(ctx)
    key = id(ctx)
    assert key in releases._MADE
    del ctx
    gc.collect()
    assert key not in releases._MADE


def test_only_the_last_four_catalogs_are_kept(tmp_path: Path):
    dirs = [[tmp_path / str(n), *template_dirs(context())] for n in range(5)]
    made = [deltas(context(), d) for d in dirs]
    assert len(releases._KNOWN) == 4
    assert all(a is b for a, b in zip(deltas(context(), dirs[4]), made[4]))  # the newest is kept
    assert not any(a is b for a, b in zip(deltas(context(), dirs[0]), made[0]))  # the oldest was let go


@pytest.mark.parametrize("room, kept", [(0, True), (-1, False)])
def test_a_catalog_whose_all_bundle_is_larger_than_the_limit_is_not_kept(monkeypatch, room: int, kept: bool):
    monkeypatch.setattr(releases, "_KNOWN_TEXT", len(default_build().bundles[ALL_BUNDLE]) + room)
    deltas(context())
    assert len(releases._KNOWN) == (1 if kept else 0)


def test_a_catalog_whose_templates_add_to_an_object_is_not_kept():
    """Its differences depend on its templates' text, which the key does not hold."""
    build = default_build()
    documents = list(build.documents)
    documents[0] = replace(documents[0], data={**documents[0].data, "status": {}})
    deltas(context(documents=documents))
    assert releases._KNOWN == {}


def test_a_build_without_an_all_bundle_is_not_kept():
    build = default_build()
    deltas(context(bundles={k: v for k, v in build.bundles.items() if k != ALL_BUNDLE}))
    assert releases._KNOWN == {}
