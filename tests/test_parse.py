"""parse.py on its own: what the rendered text parses to, and when the twin shortcut may be taken.

Each case writes the rendered texts by hand and checks the documents against a
parse of the whole all-bundle stream, which is what a consumer of the bundle
reads; ``one_each`` says whether the shortcut (each cluster parse serving its
namespaced twin) was taken.
"""

from __future__ import annotations

import pytest

from generator.errors import InputError
from generator.model import INSTANCETYPE_KINDS, KINDS, PREFERENCE_KINDS
from generator.parse import parse_back, parse_rendered
from generator.render.bundles import ALL_BUNDLE, ALL_ORDER, Rendered
from generator.source.yamlsrc import load_stream_fast

CIT, NIT = INSTANCETYPE_KINDS
CPREF, NPREF = PREFERENCE_KINDS
ALL = f"{ALL_BUNDLE}.yaml"


def doc(kind: str, name: str, extra: str = "") -> str:
    return f"---\napiVersion: instancetype.kubevirt.io/v1beta1\nkind: {kind}\nmetadata:\n  name: {name}\n{extra}"


def rendered(by_kind: dict[str, list[str]]) -> Rendered:
    full = {kind: by_kind.get(kind, []) for kind in KINDS}
    return Rendered(full, {ALL: "".join(t for k in ALL_ORDER for t in full[k])})


def shortcut_taken(r: Rendered) -> bool:
    """Whether each rendered text was found to be one document, so twins could share a parse.

    parse_rendered says so by handing each kind's texts to the outputs.
    """
    return bool(parse_rendered(r).texts)


def parse(by_kind: dict[str, list[str]]) -> tuple[list, bool]:
    r = rendered(by_kind)
    docs = parse_back(r)
    assert [d.data for d in docs] == load_stream_fast(r.bundles[ALL])  # what a consumer reads
    assert [(d.file, d.index) for d in docs] == [(ALL, i) for i in range(len(docs))]
    return [d.data for d in docs], shortcut_taken(r)


def test_twins_share_a_parse_and_come_in_the_all_bundles_order() -> None:
    data, one_each = parse({CIT: [doc(CIT, "a.x")], NIT: [doc(NIT, "a.x")], CPREF: [doc(CPREF, "p")],
                            NPREF: [doc(NPREF, "p")]})
    assert one_each
    assert [(d["kind"], d["metadata"]["name"]) for d in data] == [(CIT, "a.x"), (CPREF, "p"), (NIT, "a.x"),
                                                                  (NPREF, "p")]
    assert data[2]["metadata"] is data[0]["metadata"]  # the namespaced twin reuses the cluster parse


def test_a_twin_differing_beyond_its_kind_line_is_parsed_on_its_own() -> None:
    data, one_each = parse({CIT: [doc(CIT, "a.x", "spec:\n  x: 1\n")], NIT: [doc(NIT, "a.x", "spec:\n  x: 2\n")]})
    assert one_each
    assert [d["spec"]["x"] for d in data] == [1, 2]
    assert data[1]["metadata"] is not data[0]["metadata"]


def test_a_document_in_one_kind_only() -> None:
    data, one_each = parse({NIT: [doc(NIT, "old.x")], CPREF: [doc(CPREF, "p")]})
    assert one_each
    assert [d["kind"] for d in data] == [CPREF, NIT]


@pytest.mark.parametrize("text", [
    "apiVersion: v1\nkind: X\n",  # no document start
    doc(CIT, "a.x") + doc(CIT, "b.x"),  # two documents in one text
    doc(CIT, "a.x").rstrip("\n"),  # no final line break
])
def test_texts_that_are_not_one_document_each_fall_back_to_the_whole_stream(text) -> None:
    _data, one_each = parse({CIT: [text]})
    assert not one_each


def test_a_namespaced_text_that_is_not_one_document_falls_back_too() -> None:
    _data, one_each = parse({CIT: [doc(CIT, "a.x")], NIT: [doc(NIT, "a.x") + doc(NIT, "b.x")]})
    assert not one_each


def test_text_that_is_not_yaml_is_located_in_the_all_bundle() -> None:
    with pytest.raises(InputError) as raised:
        parse_rendered(rendered({CIT: [doc(CIT, "a.x", "spec: [unclosed\n")]}))
    [problem] = raised.value.problems
    assert problem.location.file == f"rendered {ALL}"
    assert problem.location.line == 7


def test_twin_documents_that_are_no_mappings_are_parsed_each_on_its_own() -> None:
    """A list is valid YAML: it is shipped as written, for validation to refuse, not called "not YAML"."""
    text = "---\n[a,\nkind: {}\n]\n"
    data, one_each = parse({CIT: [text.format(CIT)], NIT: [text.format(NIT)]})
    assert one_each
    assert data == [["a", {"kind": CIT}], ["a", {"kind": NIT}]]


def test_the_same_text_rendered_for_both_kinds_is_parsed_as_written_for_each() -> None:
    """A template that writes the cluster kind for both: the namespaced bundle ships it so, and it is read so."""
    data, one_each = parse({CIT: [doc(CIT, "a.x")], NIT: [doc(CIT, "a.x")]})
    assert one_each
    assert [d["kind"] for d in data] == [CIT, CIT]
