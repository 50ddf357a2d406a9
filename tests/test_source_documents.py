"""generator/source/documents.py: BundleDoc (kind, name, locate) and read_bundles with its refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import InputError
from generator.problems import Location
from generator.source.documents import BundleDoc, read_bundles
from generator.source.yamlsrc import SourceMap

OBJECT = {"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": "VirtualMachineClusterInstancetype",
          "metadata": {"name": "u1.small"}, "spec": {"cpu": {"guest": 1}}}

OBJECT_TEXT = ("apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterInstancetype\n"
               "metadata:\n  name: u1.small\nspec:\n  cpu:\n    guest: 1\n")

EXPECTED = "expected YAML documents that are mappings with apiVersion, kind and metadata"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp_path as the current directory, so files are named relative to it, as a user names them."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(folder: Path, name: str, text: str) -> Path:
    (folder / name).write_text(text, encoding="utf-8")
    return Path(name)


def refusal(path: Path) -> str:
    with pytest.raises(InputError) as raised:
        read_bundles([path])
    assert len(raised.value.problems) == 1
    return str(raised.value)


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
                                                            "u1.small")
    assert str(doc.locate(("spec", "cpu", "guest"))) == "bundle.yaml#3 (u1.small) $.spec.cpu.guest"


def test_locating_without_a_path_gives_the_document_itself():
    assert BundleDoc("bundle.yaml", 0, OBJECT).locate() == Location("bundle.yaml", None, None, (), 0, "u1.small")


def test_a_document_without_a_name_is_located_without_one():
    assert BundleDoc("bundle.yaml", 1, ["a list"]).locate() == Location("bundle.yaml", None, None, (), 1, None)
    assert str(BundleDoc("bundle.yaml", 1, ["a list"]).locate()) == "bundle.yaml#1"


def test_a_path_given_as_a_list_is_located_as_a_tuple():
    assert BundleDoc("bundle.yaml", 0, OBJECT).locate(["spec", 0]).path == ("spec", 0)


def test_a_document_with_a_source_map_adds_the_line_and_column_of_the_path():
    source = SourceMap("other-name.yaml", values={(): (4, 1), ("spec",): (8, 3), ("spec", "cpu"): (9, 5)})
    doc = BundleDoc("bundle.yaml", 2, OBJECT, source)
    # the document's own file, index and name; the source map adds only line and column
    assert doc.locate(("spec", "cpu")) == Location("bundle.yaml", 9, 5, ("spec", "cpu"), 2, "u1.small")


def test_a_path_the_source_map_lacks_is_located_at_its_nearest_written_parent():
    source = SourceMap("bundle.yaml", values={(): (4, 1), ("spec",): (8, 3)})
    doc = BundleDoc("bundle.yaml", 2, OBJECT, source)
    assert doc.locate(["spec", "memory", "guest"]) == Location("bundle.yaml", 8, 3, ("spec", "memory", "guest"), 2,
                                                               "u1.small")


# --------------------------------------------------------------------------- read_bundles


def test_every_document_of_every_file_in_order_with_its_index_in_its_own_file(here):
    first = write(here, "first.yaml", "---\n" + OBJECT_TEXT + "---\n" + OBJECT_TEXT.replace("u1.small", "u1.large"))
    second = write(here, "second.yaml", OBJECT_TEXT.replace("u1.small", "o1.small"))
    docs = read_bundles([first, second])
    assert [(d.file, d.index, d.name) for d in docs] == [
        ("first.yaml", 0, "u1.small"), ("first.yaml", 1, "u1.large"), ("second.yaml", 0, "o1.small")]
    assert docs[0].data == OBJECT


def test_read_documents_keep_their_source_map_so_they_are_located_by_line(here):
    path = write(here, "b.yaml", OBJECT_TEXT + "---\n" + OBJECT_TEXT)
    docs = read_bundles([path])
    assert docs[1].locate(("spec", "cpu", "guest")) == Location("b.yaml", 15, 12, ("spec", "cpu", "guest"), 1,
                                                                "u1.small")
    assert docs[0].source is not None and docs[0].source.file == "b.yaml"


def test_no_files_give_no_documents():
    assert read_bundles([]) == []


def test_a_file_with_one_mapping_among_other_documents_is_read_whole(here):
    path = write(here, "b.yaml", "---\n# nothing\n---\n" + OBJECT_TEXT + "---\n- a\n---\n5\n")
    docs = read_bundles([path])
    assert [d.data for d in docs] == [None, OBJECT, ["a"], 5]
    assert [d.index for d in docs] == [0, 1, 2, 3]


def test_an_empty_file_is_refused(here):
    path = write(here, "empty.yaml", "")
    assert refusal(path) == f"empty.yaml: no Kubernetes objects: the file is empty; {EXPECTED}"


def test_a_file_of_comments_and_document_separators_is_refused(here):
    path = write(here, "nothing.yaml", "# only a comment\n---\n---\n")
    assert refusal(path) == ("nothing.yaml: no Kubernetes objects: the file holds only comments and document "
                             f"separators; {EXPECTED}")


def test_a_file_of_one_scalar_is_refused(here):
    path = write(here, "scalar.yaml", "hello\n")
    assert refusal(path) == f"scalar.yaml: no Kubernetes objects: the file holds a scalar; {EXPECTED}"


def test_a_file_of_one_list_is_refused(here):
    path = write(here, "list.yaml", "- kind: VirtualMachinePreference\n")
    assert refusal(path) == f"list.yaml: no Kubernetes objects: the file holds a list; {EXPECTED}"


def test_a_file_of_lists_and_scalars_names_each_kind_once_in_the_order_found(here):
    path = write(here, "mixed.yaml", "---\n- 1\n---\n# empty\n---\n- 2\n---\ntext\n---\n3\n")
    assert refusal(path) == f"mixed.yaml: no Kubernetes objects: the file holds a list and a scalar; {EXPECTED}"
    path = write(here, "mixed2.yaml", "---\ntext\n---\n- 1\n")
    assert refusal(path) == f"mixed2.yaml: no Kubernetes objects: the file holds a scalar and a list; {EXPECTED}"


def test_a_scalar_beside_empty_documents_is_named_without_them(here):
    path = write(here, "b.yaml", "---\n---\n5\n")
    assert refusal(path) == f"b.yaml: no Kubernetes objects: the file holds a scalar; {EXPECTED}"


def test_a_file_without_objects_is_refused_even_after_good_files(here):
    good = write(here, "good.yaml", OBJECT_TEXT)
    empty = write(here, "empty.yaml", "")
    with pytest.raises(InputError) as raised:
        read_bundles([good, empty])
    assert [p.location for p in raised.value.problems] == [Location("empty.yaml")]


def test_malformed_yaml_is_refused_naming_the_file_as_given(here):
    path = write(here, "broken.yaml", "a: [1\n")
    with pytest.raises(InputError) as raised:
        read_bundles([path])
    assert [p.location.file for p in raised.value.problems] == ["broken.yaml"]
    assert str(raised.value).startswith("broken.yaml:2:1: malformed YAML")


def test_a_missing_file_is_refused_naming_it(here):
    with pytest.raises(InputError) as raised:
        read_bundles([Path("absent.yaml")])
    assert str(raised.value) == "absent.yaml: file not found"
