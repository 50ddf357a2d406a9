"""What the chart's Go templates read (outputs/helm.py `chart_data`, `releases_data` and their JSON).

``catalog/objects.json`` holds every object as the templates select on it (name,
series and size or family, deprecated, the scopes of its kinds) with its document
from the all-bundle, the kind left to the template; and what the build was made
with. ``catalog/kubevirt.json`` holds each KubeVirt release as the objects it
leaves out and the operations on those it changes. Both are JSON, one object or
one release's changed object a line; the exact bytes are checked on small data.

Private helpers, tested on purpose: the chart's data files are written by _dump_data,
_dump_releases, _entry and _chart_op, line by line, which a chart shows only through Helm.
"""

from __future__ import annotations

import copy
import dataclasses
import json

import pytest

from generator import escape
from generator.model import CatalogObject, label
from generator.outputs.context import OutputContext
from generator.outputs.helm import (
    _chart_op, _dump_data, _dump_releases, _entry, chart_data, chart_files, releases_data,
)
from generator.outputs.kustomize import template_dirs
from generator.outputs.releases import Changed, Op, ReleaseDelta, release_deltas
from generator.pipeline import BuildOptions, generate
from generator.problems import Location
from generator.schemas.releases import Release
from tests.helpers import default_build

IT = ("VirtualMachineClusterInstancetype", "VirtualMachineInstancetype")
PREF = ("VirtualMachineClusterPreference", "VirtualMachinePreference")


def context() -> OutputContext:
    build = default_build()
    return OutputContext(build.catalog, build.version, build.objects, build.bundles, documents=build.documents)


def obj(family: str, name: str, group: str, labels: dict | None = None, only_kinds: tuple = ()) -> CatalogObject:
    return CatalogObject(family, name, group, labels or {}, {}, {}, Location("x.yaml"), only_kinds=only_kinds)


def document(kind: str, name: str) -> dict:
    return {"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": kind, "metadata": {"name": name},
            "spec": {"x": kind}}


# --------------------------------------------------------------------------- _entry


def test_an_instancetype_entry_names_its_series_size_and_scopes_with_its_document_without_kind():
    documents = {(IT[0], "u1.2xlarge"): document(IT[0], "u1.2xlarge")}
    entry = _entry(obj("instancetype", "u1.2xlarge", "u"), documents)
    assert entry == {"name": "u1.2xlarge", "group": "u", "series": "u1", "size": "2xlarge", "deprecated": False,
                     "kinds": ["cluster", "namespaced"],
                     "document": {"apiVersion": "instancetype.kubevirt.io/v1beta1", "metadata": {"name": "u1.2xlarge"},
                                  "spec": {"x": IT[0]}}}
    assert list(entry) == ["name", "group", "series", "size", "deprecated", "kinds", "document"]


def test_an_entry_leaves_the_bundle_document_as_it_was():
    documents = {(IT[0], "u1.small"): document(IT[0], "u1.small")}
    before = copy.deepcopy(documents)
    _entry(obj("instancetype", "u1.small", "u"), documents)
    assert documents == before


def test_a_preference_entry_names_its_family():
    documents = {(PREF[0], "rhel.9"): document(PREF[0], "rhel.9")}
    entry = _entry(obj("preference", "rhel.9", "rhel"), documents)
    assert entry == {"name": "rhel.9", "family": "rhel", "deprecated": False, "kinds": ["cluster", "namespaced"],
                     "document": {"apiVersion": "instancetype.kubevirt.io/v1beta1", "metadata": {"name": "rhel.9"},
                                  "spec": {"x": PREF[0]}}}
    assert list(entry) == ["name", "family", "deprecated", "kinds", "document"]


def test_only_the_deprecated_label_true_makes_an_entry_deprecated():
    documents = {(PREF[0], "p"): document(PREF[0], "p")}
    for value, deprecated in (("true", True), ("false", False), ("True", False), (None, False)):
        labels = {label("deprecated"): value} if value is not None else {label("other"): "true"}
        assert _entry(obj("preference", "p", "p", labels), documents)["deprecated"] is deprecated, value


def test_an_object_kept_in_one_kind_only_has_that_scope_and_that_kinds_document():
    documents = {(IT[1], "u1.old"): document(IT[1], "u1.old"), (PREF[0], "p.old"): document(PREF[0], "p.old")}
    entry = _entry(obj("instancetype", "u1.old", "u", only_kinds=(IT[1],)), documents)
    assert entry["kinds"] == ["namespaced"] and entry["document"]["spec"] == {"x": IT[1]}
    entry = _entry(obj("preference", "p.old", "p", only_kinds=(PREF[0],)), documents)
    assert entry["kinds"] == ["cluster"] and entry["document"]["spec"] == {"x": PREF[0]}


def test_a_document_without_a_kind_is_taken_as_it_is():
    documents = {(IT[0], "u1.small"): {"metadata": {"name": "u1.small"}}}
    assert _entry(obj("instancetype", "u1.small", "u"), documents)["document"] == {"metadata": {"name": "u1.small"}}


def test_an_instancetype_name_without_a_dot_has_an_empty_size():
    documents = {(IT[0], "odd"): document(IT[0], "odd")}
    entry = _entry(obj("instancetype", "odd", "odd"), documents)
    assert (entry["series"], entry["size"]) == ("odd", "")


# --------------------------------------------------------------------------- chart_data


def test_chart_data_holds_every_object_in_bundle_order_and_what_the_build_was_made_with():
    ctx = context()
    data = chart_data(ctx)
    assert list(data) == ["built", "instancetypes", "preferences"]
    assert data["built"] == {"vendor": "kubevirt.io", "gpuDeviceName": ""}
    assert [e["name"] for e in data["instancetypes"]] == [o.name for o in ctx.objects if o.family == "instancetype"]
    assert [e["name"] for e in data["preferences"]] == [o.name for o in ctx.objects if o.family == "preference"]
    assert (len(data["instancetypes"]), len(data["preferences"])) == (65, 57)


def test_each_entry_document_is_the_bundle_document_without_its_kind():
    ctx = context()
    data = chart_data(ctx)
    bundle = {(d.data["kind"], d.data["metadata"]["name"]): d.data for d in ctx.documents}
    for entry in data["instancetypes"] + data["preferences"]:
        kind = IT[0] if "series" in entry else PREF[0]
        assert entry["document"] == {k: v for k, v in bundle[(kind, entry["name"])].items() if k != "kind"}
    first = data["instancetypes"][0]
    assert {k: v for k, v in first.items() if k != "document"} == {
        "name": "cx1.2xlarge", "group": "cx", "series": "cx1", "size": "2xlarge", "deprecated": False,
        "kinds": ["cluster", "namespaced"]}


def test_the_chart_data_of_a_build_with_a_gpu_device_names_it():
    build = generate(BuildOptions(gpu_device="nvidia.com/A400"))
    ctx = OutputContext(build.catalog, build.version, build.objects, build.bundles, documents=build.documents)
    assert chart_data(ctx)["built"] == {"vendor": "kubevirt.io", "gpuDeviceName": "nvidia.com/A400"}


def test_the_chart_data_of_a_build_without_parsed_documents_parses_the_bundle():
    ctx = dataclasses.replace(context(), documents=())
    assert chart_data(ctx) == chart_data(context())


def test_objects_json_is_the_chart_data_one_object_a_line():
    ctx = context()
    text = chart_files(ctx)["catalog/objects.json"]
    assert json.loads(text) == chart_data(ctx)
    assert text == _dump_data(chart_data(ctx))
    lines = text.decode().splitlines()
    assert lines[:3] == ["{", '"built":{"vendor":"kubevirt.io","gpuDeviceName":""},', '"instancetypes":[']
    assert len(lines) == 1 + 1 + (1 + 65 + 1) + (1 + 57 + 1) + 1


def test_dump_data_writes_compact_json_one_list_item_a_line():
    # JSON is written by escape.json_text: what is not printable ASCII is an escape, which Helm's fromJson reads back
    data = {"built": {"vendor": "é", "n": 1}, "instancetypes": [{"a": 1}, {"b": [1, 2]}], "preferences": []}
    assert _dump_data(data) == (
        '{\n"built":{"vendor":"\\u00e9","n":1},\n"instancetypes":[\n{"a":1},\n{"b":[1,2]}\n],\n"preferences":[]\n}\n'
    ).encode()


# --------------------------------------------------------------------------- releases_data


def op_list(change: Changed) -> list[dict]:
    return [_chart_op(op) for op in change.ops[change.obj.kinds[0]]]


def test_a_chart_operation_is_its_op_its_path_as_keys_and_a_value_unless_it_removes():
    assert _chart_op(Op("remove", ("spec", "cpu"))) == {"op": "remove", "path": ["spec", "cpu"]}
    assert _chart_op(Op("add", ("spec", "a"), None)) == {"op": "add", "path": ["spec", "a"], "value": None}
    assert _chart_op(Op("replace", ("spec",), {"b": 1})) == {"op": "replace", "path": ["spec"], "value": {"b": 1}}
    assert list(_chart_op(Op("add", ("x",), 1))) == ["op", "path", "value"]


def small_deltas() -> tuple[ReleaseDelta, ...]:
    it, old_it = obj("instancetype", "u1.small", "u"), obj("instancetype", "u1.old", "u")
    pref, gone = obj("preference", "rhel.9", "rhel"), obj("preference", "rhel.10", "rhel")
    change_it = Changed(it, {IT[0]: (Op("remove", ("spec", "cpu", "maxSockets")),),
                             IT[1]: (Op("remove", ("spec", "namespaced-only")),)}, ("why",))
    change_pref = Changed(pref, {PREF[0]: (Op("add", ("spec", "é"), True),), PREF[1]: ()}, ())
    return (ReleaseDelta(Release(1, 0), (old_it, gone), (change_it, change_pref), {}),
            ReleaseDelta(Release(1, 1), (gone,), (change_it,), {}),
            ReleaseDelta(Release(1, 2), (), (), {}))


def test_releases_data_lists_each_release_as_left_out_names_and_operations_of_the_first_kind():
    data = releases_data(small_deltas())
    assert data == {
        "newest": "v1.2",
        "releases": ["v1.0", "v1.1", "v1.2"],
        "changes": {
            "v1.0": {"leftOut": {"instancetypes": ["u1.old"], "preferences": ["rhel.10"]},
                     "instancetypes": {"u1.small": [{"op": "remove", "path": ["spec", "cpu", "maxSockets"]}]},
                     "preferences": {"rhel.9": [{"op": "add", "path": ["spec", "é"], "value": True}]}},
            "v1.1": {"leftOut": {"instancetypes": [], "preferences": ["rhel.10"]},
                     "instancetypes": {"u1.small": [{"op": "remove", "path": ["spec", "cpu", "maxSockets"]}]},
                     "preferences": {}},
            "v1.2": {"leftOut": {"instancetypes": [], "preferences": []}, "instancetypes": {}, "preferences": {}},
        },
    }
    assert list(data) == ["newest", "releases", "changes"]
    assert list(data["changes"]["v1.0"]) == ["leftOut", "instancetypes", "preferences"]


def test_releases_changing_an_object_alike_share_one_list_of_operations():
    data = releases_data(small_deltas())
    first, second = (data["changes"][r]["instancetypes"]["u1.small"] for r in ("v1.0", "v1.1"))
    assert first is second


def test_releases_data_of_the_built_in_catalog():
    ctx = context()
    data = releases_data(release_deltas(ctx, template_dirs(ctx)))
    assert data["newest"] == "v1.9"
    assert data["releases"] == [f"v1.{n}" for n in range(10)]
    assert data["changes"]["v1.0"]["leftOut"] == {
        "instancetypes": [], "preferences": ["fedora.s390x.secex", "rhel.10.s390x.secex", "rhel.9.s390x.secex"]}
    assert data["changes"]["v1.0"]["instancetypes"]["cx1.2xlarge"] == [
        {"op": "remove", "path": ["spec", "cpu", "maxSockets"]}]
    assert data["changes"]["v1.9"] == {"leftOut": {"instancetypes": [], "preferences": []},
                                       "instancetypes": {}, "preferences": {}}


def test_kubevirt_json_is_the_releases_data():
    ctx = context()
    text = chart_files(ctx)["catalog/kubevirt.json"]
    assert json.loads(text) == releases_data(release_deltas(ctx, template_dirs(ctx)))


def test_dump_releases_writes_one_release_s_left_out_names_a_line_and_one_changed_object_a_line():
    assert _dump_releases(releases_data(small_deltas())).decode() == (
        '{\n'
        '"newest":"v1.2",\n'
        '"releases":["v1.0","v1.1","v1.2"],\n'
        '"changes":{\n'
        '"v1.0":{\n'
        '"leftOut":{"instancetypes":["u1.old"],"preferences":["rhel.10"]},\n'
        '"instancetypes":{\n'
        '"u1.small":[{"op":"remove","path":["spec","cpu","maxSockets"]}]\n'
        '},\n'
        '"preferences":{\n'
        '"rhel.9":[{"op":"add","path":["spec","\\u00e9"],"value":true}]\n'
        '}\n'
        '},\n'
        '"v1.1":{\n'
        '"leftOut":{"instancetypes":[],"preferences":["rhel.10"]},\n'
        '"instancetypes":{\n'
        '"u1.small":[{"op":"remove","path":["spec","cpu","maxSockets"]}]\n'
        '},\n'
        '"preferences":{}\n'
        '},\n'
        '"v1.2":{\n'
        '"leftOut":{"instancetypes":[],"preferences":[]},\n'
        '"instancetypes":{},\n'
        '"preferences":{}\n'
        '}\n'
        '}\n'
        '}\n')


def test_dump_releases_names_each_object_even_when_objects_share_one_list_of_operations():
    """Each line is cached by its list of operations; two objects with the same list keep their own names.

    Private helpers, tested on purpose: the chart's data files are written by _dump_data, _dump_releases, _entry and
    _chart_op, line by line, which a chart shows only through Helm.
    """
    ops = [{"op": "remove", "path": ["a"]}]
    data = {"newest": "v1.0", "releases": ["v1.0"], "changes": {"v1.0": {
        "leftOut": {}, "instancetypes": {"x": ops, "y": list(ops), "z": ops}, "preferences": {}}}}
    assert _dump_releases(data).decode() == (
        '{\n"newest":"v1.0",\n"releases":["v1.0"],\n"changes":{\n"v1.0":{\n"leftOut":{},\n"instancetypes":{\n'
        '"x":[{"op":"remove","path":["a"]}],\n"y":[{"op":"remove","path":["a"]}],\n'
        '"z":[{"op":"remove","path":["a"]}]\n},\n"preferences":{}\n}\n}\n}\n')
    assert json.loads(_dump_releases(data)) == data


def test_operations_shared_by_several_releases_are_encoded_once(monkeypatch: pytest.MonkeyPatch):
    """The point of sharing one list per changed object: its JSON is made once, not once per release.

    Private helpers, tested on purpose: the chart's data files are written by _dump_data, _dump_releases, _entry and
    _chart_op, line by line, which a chart shows only through Helm.
    """
    data = releases_data(small_deltas())
    shared = data["changes"]["v1.0"]["instancetypes"]["u1.small"]
    encoded = []
    json_text = escape.json_text

    def counting(value, *args, **kwargs):
        encoded.append(value)
        return json_text(value, *args, **kwargs)

    monkeypatch.setattr(escape, "json_text", counting)
    text = _dump_releases(data)
    monkeypatch.undo()
    assert sum(value is shared for value in encoded) == 1
    assert json.loads(text) == data
