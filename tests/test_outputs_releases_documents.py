"""How outputs/releases.py reads the build: its parsed documents, and the objects its templates wrote as given.

Every build makes the releases' differences, for the chart and for the kustomize
tree alike, so outputs/releases.py reads the build's own parsed documents rather
than its text, and takes the operations off the objects when the templates wrote
them as given. Neither may change a byte of what is written; these tests pin what
each shortcut takes for granted.
"""

from __future__ import annotations


import pytest

from generator.errors import InputError
from generator.outputs.context import OutputContext
from generator.outputs.releases import ALL_BUNDLE, documents_by_key, written_as_given
from generator.pipeline import Build
from generator.source.documents import BundleDoc
from tests.helpers import default_build


def context(build: Build | None = None, **changes) -> OutputContext:
    """A new context of ``build`` (the built-in catalog's): a producer gets one per build."""
    build = build or default_build()
    fields = dict(catalog=build.catalog, version=build.version, objects=build.objects, bundles=build.bundles,
                  documents=build.documents)
    fields.update(changes)
    return OutputContext(**fields)


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
    assert all(written_as_given(o, by_key[(o.kinds[0], o.name)]) for o in build.objects)


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
    assert written_as_given(obj, document) and not written_as_given(obj, changed)


@pytest.mark.parametrize("metadata", [None, ["name", "labels", "annotations"], "fedora"])
def test_a_document_whose_metadata_is_not_a_mapping_is_not_written_as_given(metadata):
    obj, document = fedora_document()
    assert not written_as_given(obj, {**document, "metadata": metadata})
