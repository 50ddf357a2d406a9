"""generator/source/documents.py: BundleDoc (kind, name, namespace, locate); reading them is test_source_objects.py."""

from __future__ import annotations


import pytest

from generator.problems import Location
from generator.source.documents import BundleDoc
from generator.source.yamlsrc import SourceMap

OBJECT = {"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": "VirtualMachineClusterInstancetype",
          "metadata": {"name": "u1.small"}, "spec": {"cpu": {"guest": 1}}}

OBJECT_TEXT = ("apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterInstancetype\n"
               "metadata:\n  name: u1.small\nspec:\n  cpu:\n    guest: 1\n")

KIND = "VirtualMachineClusterInstancetype"


# --------------------------------------------------------------------------- BundleDoc.kind and .name


def test_the_kind_of_a_mapping_is_its_kind_field():
    assert BundleDoc("b.yaml", 0, OBJECT).kind == "VirtualMachineClusterInstancetype"


def test_a_mapping_without_a_kind_has_none():
    assert BundleDoc("b.yaml", 0, {"metadata": {"name": "x"}}).kind is None


@pytest.mark.parametrize("data", [None, "VirtualMachineClusterInstancetype", ["kind"], 5])
def test_a_document_that_is_no_mapping_has_neither_kind_nor_name(data):
    doc = BundleDoc("b.yaml", 0, data)
    assert doc.kind is None
    assert doc.name is None


def test_the_name_of_a_mapping_is_its_metadata_name():
    assert BundleDoc("b.yaml", 0, OBJECT).name == "u1.small"


@pytest.mark.parametrize("data", [
    {"kind": "VirtualMachinePreference"},                          # no metadata
    {"metadata": None},                                            # metadata: (empty)
    {"metadata": ["name", "u1.small"]},                            # metadata that is no mapping
    {"metadata": {"labels": {}}},                                  # metadata without a name
    {"metadata": {"name": 5}},                                     # a name that is no text
    {"metadata": {"name": None}},
    {"name": "u1.small"},                                          # a name, but not under metadata
], ids=["no-metadata", "null-metadata", "list-metadata", "no-name", "number-name", "null-name", "top-level-name"])
def test_a_mapping_without_a_textual_metadata_name_has_no_name(data):
    assert BundleDoc("b.yaml", 0, data).name is None


def test_an_empty_name_is_still_a_name():
    assert BundleDoc("b.yaml", 0, {"metadata": {"name": ""}}).name == ""


# --------------------------------------------------------------------------- BundleDoc.locate


def test_a_document_without_a_source_map_is_located_by_index_only():
    doc = BundleDoc("bundle.yaml", 3, OBJECT)
    assert doc.locate(("spec", "cpu", "guest")) == Location("bundle.yaml", None, None, ("spec", "cpu", "guest"), 3,
                                                            "u1.small", KIND)
    assert str(doc.locate(("spec", "cpu", "guest"))) == "bundle.yaml#3 (u1.small) $.spec.cpu.guest"


def test_locating_without_a_path_gives_the_document_itself():
    assert BundleDoc("bundle.yaml", 0, OBJECT).locate() == Location("bundle.yaml", None, None, (), 0, "u1.small", KIND)


def test_a_document_without_a_name_is_located_without_one():
    assert BundleDoc("bundle.yaml", 1, ["a list"]).locate() == Location("bundle.yaml", None, None, (), 1, None)
    assert str(BundleDoc("bundle.yaml", 1, ["a list"]).locate()) == "bundle.yaml#1"


def test_a_path_given_as_a_list_is_located_as_a_tuple():
    assert BundleDoc("bundle.yaml", 0, OBJECT).locate(["spec", 0]).path == ("spec", 0)


def test_a_document_with_a_source_map_adds_the_line_and_column_of_the_path():
    source = SourceMap("other-name.yaml", values={(): (4, 1), ("spec",): (8, 3), ("spec", "cpu"): (9, 5)})
    doc = BundleDoc("bundle.yaml", 2, OBJECT, source)
    # the document's own file, index and name; the source map adds only line and column
    assert doc.locate(("spec", "cpu")) == Location("bundle.yaml", 9, 5, ("spec", "cpu"), 2, "u1.small", KIND)


def test_a_path_the_source_map_lacks_is_located_at_its_nearest_written_parent():
    source = SourceMap("bundle.yaml", values={(): (4, 1), ("spec",): (8, 3)})
    doc = BundleDoc("bundle.yaml", 2, OBJECT, source)
    assert doc.locate(["spec", "memory", "guest"]) == Location("bundle.yaml", 8, 3, ("spec", "memory", "guest"), 2,
                                                               "u1.small", KIND)


def test_the_namespace_of_an_object_is_located_with_it():
    data = {**OBJECT, "kind": "VirtualMachineInstancetype", "metadata": {"name": "u1.small", "namespace": "ns"}}
    assert BundleDoc("b.yaml", 0, data).locate().namespace == "ns"
    assert BundleDoc("b.yaml", 0, {**OBJECT, "metadata": {"name": "x", "namespace": 5}}).locate().namespace is None
