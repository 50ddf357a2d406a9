"""Parsing the rendered bundles back: the shortcut for twins gives what a full parse gives."""

from __future__ import annotations

from generator.model import INSTANCETYPE_KINDS, KINDS, PREFERENCE_KINDS
from generator.parse import parse_back
from generator.pipeline import BuildOptions, catalog_objects
from generator.render.bundles import ALL_BUNDLE, ALL_ORDER, Rendered, render_bundles
from generator.source.yamlsrc import load_stream_fast

CLUSTER_IT, NAMESPACED_IT = INSTANCETYPE_KINDS


def doc(kind: str, name: str, cpu: int) -> str:
    return (f"---\napiVersion: instancetype.kubevirt.io/v1beta1\nkind: {kind}\nmetadata:\n  name: {name}\n"
            f"spec:\n  cpu:\n    guest: {cpu}\n  memory:\n    guest: 1Gi\n")


def rendered(by_kind: dict[str, list[str]]) -> Rendered:
    full = {kind: by_kind.get(kind, []) for kind in KINDS}
    return Rendered(full, {f"{ALL_BUNDLE}.yaml": "".join(t for k in ALL_ORDER for t in full[k])})


def parsed(r: Rendered) -> list:
    return [d.data for d in parse_back(r)]


def full_parse(r: Rendered) -> list:
    return load_stream_fast(r.bundles[f"{ALL_BUNDLE}.yaml"])


def test_the_built_in_catalog_parses_as_a_whole_stream_would():
    catalog, _version, objects = catalog_objects(BuildOptions())
    r = render_bundles(catalog, objects)
    assert parsed(r) == full_parse(r)


def test_a_namespaced_document_that_differs_beyond_its_kind_is_parsed_on_its_own():
    r = rendered({CLUSTER_IT: [doc(CLUSTER_IT, "a1.small", 1)], NAMESPACED_IT: [doc(NAMESPACED_IT, "a1.small", 2)]})
    assert parsed(r) == full_parse(r)
    assert parsed(r)[1]["spec"]["cpu"]["guest"] == 2


def test_documents_in_one_kind_only_and_twins_in_another_order():
    r = rendered({
        CLUSTER_IT: [doc(CLUSTER_IT, "a1.small", 1), doc(CLUSTER_IT, "b1.small", 1)],
        NAMESPACED_IT: [doc(NAMESPACED_IT, "b1.small", 1)],
        PREFERENCE_KINDS[1]: ["---\napiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachinePreference\n"
                              "metadata:\n  name: p\nspec: {}\n"],
    })
    assert parsed(r) == full_parse(r)
    assert [d["kind"] for d in parsed(r)] == [CLUSTER_IT, CLUSTER_IT, NAMESPACED_IT, "VirtualMachinePreference"]


def test_text_that_is_not_one_document_each_falls_back_to_the_whole_stream():
    two_in_one = doc(CLUSTER_IT, "a1.small", 1) + doc(CLUSTER_IT, "a1.large", 2)
    r = rendered({CLUSTER_IT: [two_in_one]})
    assert [d["metadata"]["name"] for d in parsed(r)] == ["a1.small", "a1.large"]
    no_newline = rendered({CLUSTER_IT: [doc(CLUSTER_IT, "a1.small", 1).rstrip("\n")]})
    assert parsed(no_newline) == full_parse(no_newline)
