"""outputs/kustomize.py on its own: cutting the bundles into documents and the documents into groups.

``split_documents`` cuts a rendered bundle at each ``---`` and keeps each
document's text as rendered (what stands before the first ``---`` goes with the
first document, a chunk without a document is dropped, a chunk that is not one
mapping is refused), naming each chunk from documents already parsed when there
is one per chunk. ``kind_groups`` takes each kind's documents from the rendered
texts when the build gives them, from its bundle otherwise, and sorts them into
the objects' groups in order of first appearance; a group that cannot name a
directory, or a document that is no catalog object of its bundle, is refused.

Private helper, tested on purpose: _check_groups refuses group names that the built-in catalog never
has, so its rules are pinned here on names of the tests' own.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import pytest

from generator.errors import InputError
from generator.model import CatalogObject
from generator.outputs.context import OutputContext
from generator.outputs.kustomize import BUNDLE_OF_KIND, _check_groups, _documents_of, kind_groups, split_documents
from generator.problems import Location
from generator.source.documents import BundleDoc
from tests.helpers import default_build

CI = "VirtualMachineClusterInstancetype"
NI = "VirtualMachineInstancetype"
CP = "VirtualMachineClusterPreference"
NP = "VirtualMachinePreference"


def obj(family: str, name: str, group: str, **more: Any) -> CatalogObject:
    return CatalogObject(family, name, group, {}, {}, {}, Location(f"{family}s/{group}.yaml", 3), **more)


def doc(kind: str, name: str) -> str:
    return f"---\nkind: {kind}\nmetadata:\n  name: {name}\n"


def context(objects: Sequence[CatalogObject], bundles: Mapping[str, str], documents: Sequence[BundleDoc] = (),
            texts: Mapping[str, Sequence[str]] | None = None) -> OutputContext:
    return OutputContext(default_build().catalog, "v0.0.1", objects, bundles, documents=documents,
                         texts=texts or {})


def refused(call, *args: Any) -> str:
    with pytest.raises(InputError) as raised:
        call(*args)
    [problem] = raised.value.problems
    return str(problem)


# --------------------------------------------------------------------------- split_documents


def test_each_document_keeps_its_text_as_rendered_with_its_kind_and_name():
    text = doc(CI, "u1.small") + "---\nkind: B\nmetadata: {name: 'b'}  # a comment\n"
    assert split_documents(text, "x.yaml") == [
        (CI, "u1.small", doc(CI, "u1.small")),
        ("B", "b", "---\nkind: B\nmetadata: {name: 'b'}  # a comment\n"),
    ]


def test_text_before_the_first_document_start_stays_with_the_first_document():
    text = "# printed by a template\n\n" + doc("A", "a") + doc("B", "b")
    assert split_documents(text, "x.yaml") == [
        ("A", "a", "# printed by a template\n\n" + doc("A", "a")),
        ("B", "b", doc("B", "b")),
    ]


def test_text_before_the_only_document_stays_with_it():
    assert split_documents("# printed by a template\n" + doc("A", "a"), "x.yaml") == [
        ("A", "a", "# printed by a template\n" + doc("A", "a"))]


def test_a_single_document_without_a_document_start_is_one_chunk():
    assert split_documents("kind: A\nmetadata: {name: a}", "x.yaml") == [("A", "a", "kind: A\nmetadata: {name: a}\n")]


def test_only_a_line_that_starts_with_three_dashes_and_a_space_or_its_end_starts_a_document():
    first = "---\t# a tab\nkind: A\nmetadata: {name: a}\ns: |\n  ---\n---x: 1\n"
    assert split_documents(first + "--- # a space\nkind: B\n", "x.yaml") == [
        ("A", "a", first), ("B", "None", "--- # a space\nkind: B\n")]


def test_a_chunk_that_holds_no_document_is_dropped():
    text = doc("A", "a") + "---\n# only a comment\n" + "---\n" + doc("B", "b")
    assert split_documents(text, "x.yaml") == [
        ("A", "a", doc("A", "a")),
        ("B", "b", doc("B", "b")),
    ]


def test_an_empty_bundle_has_no_documents():
    assert split_documents("", "x.yaml") == []
    assert split_documents("---\n# nothing\n", "x.yaml") == []


def test_the_last_document_gets_a_final_line_break():
    assert split_documents(doc("A", "a") + "---\nkind: B", "x.yaml")[-1] == ("B", "None", "---\nkind: B\n")


def test_a_document_without_a_name_or_kind_is_named_none():
    text = "---\nkind: A\n---\nkind: B\nmetadata: null\n---\nmetadata: {name: c}\n"
    assert [(kind, name) for kind, name, _ in split_documents(text, "x.yaml")] == [
        ("A", "None"), ("B", "None"), ("None", "c")]


def test_names_and_kinds_are_written_as_text():
    assert split_documents("---\nkind: 7\nmetadata: {name: 1.5}\n", "x.yaml")[0][:2] == ("7", "1.5")


def test_a_chunk_that_is_not_a_mapping_is_refused_naming_the_bundle():
    message = "b.yaml: a rendered document could not be cut out of the bundle"
    assert refused(split_documents, doc("A", "a") + "---\n- 1\n- 2\n", "b.yaml") == message
    assert refused(split_documents, "---\nplain text\n", "b.yaml") == message


def test_a_chunk_that_yaml_reads_as_two_documents_is_refused():
    # a carriage return alone breaks a line for YAML, not for the cut: one chunk, two documents
    assert refused(split_documents, "kind: A\r---\rkind: B\r", "b.yaml") == (
        "b.yaml: a rendered document could not be cut out of the bundle")


def test_documents_parsed_already_name_the_chunks_when_there_is_one_per_chunk():
    text = doc("A", "a") + doc("B", "b")
    parsed = [{"kind": "P", "metadata": {"name": "p"}}, {"kind": "Q"}]
    assert split_documents(text, "x.yaml", parsed) == [("P", "p", doc("A", "a")), ("Q", "None", doc("B", "b"))]


def test_documents_parsed_already_are_not_used_when_their_count_differs():
    text = doc("A", "a") + doc("B", "b")
    for parsed in ([{"kind": "P"}], [{"kind": "P"}] * 3, []):
        assert split_documents(text, "x.yaml", parsed) == [("A", "a", doc("A", "a")), ("B", "b", doc("B", "b"))]


def test_a_parsed_document_that_is_not_a_mapping_is_refused():
    assert refused(split_documents, doc("A", "a"), "b.yaml", [["a"]]) == (
        "b.yaml: a rendered document could not be cut out of the bundle")
    assert refused(split_documents, doc("A", "a"), "b.yaml", [None]) == (
        "b.yaml: a rendered document could not be cut out of the bundle")


# --------------------------------------------------------------------------- groups


def test_a_group_that_cannot_name_a_directory_is_refused_at_its_object():
    objects = [obj("instancetype", "u1.small", "u"), obj("preference", "Fedora", "Fedora")]
    assert refused(_check_groups, objects) == (
        "preferences/Fedora.yaml:3: preference Fedora: group 'Fedora' cannot name a kustomize directory "
        "(lower-case letters, digits, '.' and '-')")


@pytest.mark.parametrize("group", ["u", "cx", "a.b-c", "9", "rhel.9"])
def test_groups_of_lower_case_letters_digits_dots_and_dashes_are_accepted(group: str):
    assert _check_groups([obj("instancetype", "x", group)]) is None


@pytest.mark.parametrize("group", ["", "-u", "u-", ".u", "u.", "u/v", "U", "u v", "u_v"])
def test_groups_that_start_or_end_with_a_dot_or_dash_or_hold_other_characters_are_refused(group: str):
    assert refused(_check_groups, [obj("instancetype", "x", group)]) == (
        f"instancetypes/{group}.yaml:3: instancetype x: group {group!r} cannot name a kustomize directory "
        "(lower-case letters, digits, '.' and '-')")


CATALOG = [obj("instancetype", "cx1.large", "cx"), obj("instancetype", "u1.large", "u"),
           obj("instancetype", "u1.small", "u"), obj("preference", "fedora", "fedora")]
BUNDLES = {
    BUNDLE_OF_KIND[CI]: doc(CI, "u1.small") + doc(CI, "cx1.large") + doc(CI, "u1.large"),
    BUNDLE_OF_KIND[NI]: doc(NI, "cx1.large") + doc(NI, "u1.small"),
    BUNDLE_OF_KIND[CP]: doc(CP, "fedora"),
    BUNDLE_OF_KIND[NP]: doc(NP, "fedora"),
}


def test_each_kind_lists_its_groups_in_order_of_first_appearance_with_their_texts():
    assert kind_groups(context(CATALOG, BUNDLES)) == {
        CI: {"u": [doc(CI, "u1.small"), doc(CI, "u1.large")], "cx": [doc(CI, "cx1.large")]},
        NI: {"cx": [doc(NI, "cx1.large")], "u": [doc(NI, "u1.small")]},
        CP: {"fedora": [doc(CP, "fedora")]},
        NP: {"fedora": [doc(NP, "fedora")]},
    }
    assert list(kind_groups(context(CATALOG, BUNDLES))) == [CI, NI, CP, NP]


def test_a_kind_without_a_bundle_has_no_groups():
    assert kind_groups(context(CATALOG, {BUNDLE_OF_KIND[CP]: doc(CP, "fedora")})) == {
        CI: {}, NI: {}, CP: {"fedora": [doc(CP, "fedora")]}, NP: {}}


def test_the_groups_are_checked_before_the_bundles_are_cut():
    assert refused(kind_groups, context([obj("instancetype", "u1.small", "U")], {})) == (
        "instancetypes/U.yaml:3: instancetype u1.small: group 'U' cannot name a kustomize directory "
        "(lower-case letters, digits, '.' and '-')")


def test_a_document_no_object_of_the_catalog_stands_for_is_refused():
    bundles = {**BUNDLES, BUNDLE_OF_KIND[NI]: doc(NI, "u1.small") + doc(NI, "n1.large")}
    assert refused(kind_groups, context(CATALOG, bundles)) == (
        f"common-instancetypes-bundle.yaml: {NI} 'n1.large' is not a catalog object of this bundle")


def test_a_document_of_another_kind_in_a_kinds_bundle_is_refused():
    bundles = {**BUNDLES, BUNDLE_OF_KIND[CI]: doc(CI, "u1.small") + doc(NI, "u1.large")}
    assert refused(kind_groups, context(CATALOG, bundles)) == (
        f"common-clusterinstancetypes-bundle.yaml: {NI} 'u1.large' is not a catalog object of this bundle")


def test_an_object_is_of_its_own_kinds_only():
    only = [obj("instancetype", "u1.small", "u", only_kinds=(NI,))]
    assert kind_groups(context(only, {BUNDLE_OF_KIND[NI]: doc(NI, "u1.small")}))[NI] == {"u": [doc(NI, "u1.small")]}
    assert refused(kind_groups, context(only, {BUNDLE_OF_KIND[CI]: doc(CI, "u1.small")})) == (
        f"common-clusterinstancetypes-bundle.yaml: {CI} 'u1.small' is not a catalog object of this bundle")


def documents_of(names: Mapping[str, Sequence[str]]) -> list[BundleDoc]:
    """The all-bundle's documents as the pipeline parses them: each kind's, in the all-bundle's order."""
    out = []
    for kind in (CI, CP, NI, NP):
        for name in names.get(kind, []):
            out.append(BundleDoc("common-instancetypes-all-bundle.yaml", len(out),
                                 {"kind": kind, "metadata": {"name": name}}))
    return out


def test_the_documents_the_pipeline_parsed_name_the_chunks_of_each_bundle():
    # the bundles' texts say other names: the parsed documents are the ones read
    bundles = {BUNDLE_OF_KIND[CI]: doc(CI, "x") + doc(CI, "y"), BUNDLE_OF_KIND[CP]: doc(CP, "z")}
    documents = documents_of({CI: ["u1.small", "cx1.large"], CP: ["fedora"]})
    assert kind_groups(context(CATALOG, bundles, documents)) == {
        CI: {"u": [doc(CI, "x")], "cx": [doc(CI, "y")]}, NI: {}, CP: {"fedora": [doc(CP, "z")]}, NP: {}}


def test_the_rendered_texts_are_the_documents_when_each_was_parsed_as_one():
    texts = {CI: ["kind: A  # u1.small as rendered\n", "kind: B  # cx1.large, no line break"], CP: ["fedora\n"]}
    documents = documents_of({CI: ["u1.small", "cx1.large"], CP: ["fedora"]})
    assert kind_groups(context(CATALOG, {}, documents, texts)) == {
        CI: {"u": ["kind: A  # u1.small as rendered\n"], "cx": ["kind: B  # cx1.large, no line break\n"]},
        NI: {}, CP: {"fedora": ["fedora\n"]}, NP: {}}


def test_without_the_parsed_documents_the_rendered_texts_are_not_used():
    texts = {CI: ["the text of u1.small\n", "the text of cx1.large\n", "the text of u1.large\n"]}
    assert kind_groups(context(CATALOG, BUNDLES, (), texts))[CI] == {
        "u": [doc(CI, "u1.small"), doc(CI, "u1.large")], "cx": [doc(CI, "cx1.large")]}


def test_rendered_texts_of_another_count_than_the_documents_are_not_used():
    bundles = {BUNDLE_OF_KIND[CI]: doc(CI, "u1.small") + doc(CI, "cx1.large")}
    documents = documents_of({CI: ["u1.small", "cx1.large"]})
    texts = {CI: ["only one text\n"]}
    assert kind_groups(context(CATALOG, bundles, documents, texts))[CI] == {
        "u": [doc(CI, "u1.small")], "cx": [doc(CI, "cx1.large")]}


def test_a_rendered_text_whose_document_is_not_a_mapping_is_refused():
    ctx = context(CATALOG, {}, texts={CI: ["- a\n"]})
    assert refused(_documents_of, ctx, CI, [["a"]]) == (
        "common-clusterinstancetypes-bundle.yaml: a rendered document is not a mapping")


def test_a_bundle_cut_without_texts_is_named_in_its_refusal():
    ctx = context(CATALOG, {BUNDLE_OF_KIND[NI]: doc(NI, "u1.small") + "---\n- a list\n"})
    assert refused(_documents_of, ctx, NI, None) == (
        "common-instancetypes-bundle.yaml: a rendered document could not be cut out of the bundle")


def test_documents_taken_from_rendered_texts_are_named_by_their_parsed_documents():
    ctx = context(CATALOG, {}, texts={NP: ["one", "two\n", "three"]})
    parsed = [{"kind": NP, "metadata": {"name": "a"}}, {"kind": NP, "metadata": None}, {"metadata": {"name": 2}}]
    assert _documents_of(ctx, NP, parsed) == [(NP, "a", "one\n"), (NP, "None", "two\n"), ("None", "2", "three\n")]


def test_documents_of_a_kind_without_texts_or_bundle_are_none():
    assert _documents_of(context(CATALOG, {}), NP, None) == []
    assert _documents_of(context(CATALOG, {}, texts={CI: ["x\n"]}), NP, []) == []


def test_the_default_build_cuts_its_bundles_into_the_same_groups_with_or_without_texts():
    build = default_build()
    with_texts = OutputContext(build.catalog, build.version, build.objects, build.bundles,
                               documents=build.documents, texts={CI: []})
    without = OutputContext(build.catalog, build.version, build.objects, build.bundles)
    groups = kind_groups(without)
    assert kind_groups(with_texts) == groups
    assert list(groups[CI]) == ["cx", "d", "m", "n", "o", "rt", "u"]
    assert all("".join(t for g in groups[kind].values() for t in g) == build.bundles[BUNDLE_OF_KIND[kind]]
               for kind in groups)
