"""--retain-from, function by function: small old bundles written here, exact results and messages.

tests/test_expand_retain.py builds real catalogs and releases; these call
generator.expand.retain directly so that each rule of what is carried over, how,
and what is refused is pinned to a value.

Private helpers, tested on purpose: grouping and merging retained objects (_group, _facts,
_merge_twins, _unusable) has cases no released bundle holds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import InputError
from generator.expand.retain import _facts, _group, _merge_twins, _unusable, retained_note, retained_objects
from generator.model import CatalogObject
from generator.problems import Location, Problem
from generator.source.documents import BundleDoc

API = "instancetype.kubevirt.io/v1beta1"
CIT = "VirtualMachineClusterInstancetype"
NIT = "VirtualMachineInstancetype"
CPREF = "VirtualMachineClusterPreference"
NPREF = "VirtualMachinePreference"
DEPRECATED = "instancetype.kubevirt.io/deprecated"
ALL_KINDS = f"{CIT}, {NIT}, {CPREF}, {NPREF}"


def doc(data, index: int = 0, file: str = "old.yaml") -> BundleDoc:
    return BundleDoc(file, index, data)


def obj(kind: str, name: str, *, labels=None, annotations=None, spec=None, **top) -> dict:
    """A bundle object as released, with only the fields given."""
    meta: dict = {"name": name}
    if labels is not None:
        meta["labels"] = labels
    if annotations is not None:
        meta["annotations"] = annotations
    data = {"apiVersion": API, "kind": kind, "metadata": meta, **top}
    if spec is not None:
        data["spec"] = spec
    return data


def catalog(family: str, name: str, only_kinds: tuple = ()) -> CatalogObject:
    return CatalogObject(family=family, name=name, group=name, labels={}, annotations={}, spec={},
                         location=Location("catalog"), only_kinds=only_kinds)


# --- _group: the series or family, read off the name --------------------------------------------

@pytest.mark.parametrize(("family", "name", "group"), [
    ("instancetype", "u1.small", "u"),  # the series version is not part of the series
    ("instancetype", "cx12.2xlarge", "cx"),  # every trailing digit goes
    ("instancetype", "legacy3", "legacy"),  # a name without a dot is its own head
    ("instancetype", "m1.large.x1", "m"),  # only the part before the first dot counts
    ("instancetype", "n2d1.medium", "n2d"),  # only trailing digits go
    ("preference", "centos.stream9.dpdk", "centos"),  # a preference family is the first part, as is
    ("preference", "fedora2.x", "fedora2"),  # digits of a preference family stay
    ("preference", "alpine", "alpine"),
])
def test_group_is_the_name_head_with_an_instancetype_series_version_dropped(family, name, group):
    assert _group(family, name) == group


# --- _facts: what listings show, read off the spec ---------------------------------------------

def test_instancetype_facts_are_read_off_spec_and_class_label():
    spec = {"cpu": {"guest": 2, "dedicatedCPUPlacement": True, "isolateEmulatorThread": True},
            "memory": {"guest": "4Gi", "hugepages": {"pageSize": "2Mi"}}}
    meta = {"labels": {"instancetype.kubevirt.io/class": "compute.exclusive"}}
    assert _facts("instancetype", meta, spec) == {
        "retained": True, "cpu": 2, "memory": 4 * 1024**3, "class": "compute.exclusive",
        "features": ("dedicatedCPUPlacement", "hugepages", "isolateEmulatorThread")}


def test_instancetype_facts_of_an_empty_spec_are_unknown_with_class_dash():
    assert _facts("instancetype", {}, {}) == {
        "retained": True, "cpu": None, "memory": None, "class": "-", "features": ()}


def test_instancetype_memory_that_is_no_quantity_is_unknown_not_an_error():
    facts = _facts("instancetype", {"labels": {}}, {"cpu": {"guest": 1}, "memory": {"guest": "lots"}})
    assert facts["memory"] is None
    assert facts["cpu"] == 1
    assert facts["class"] == "-"


def test_preference_facts_are_read_off_requirements_and_display_name():
    spec = {"requirements": {"cpu": {"guest": 1}, "memory": {"guest": "1536Mi"}}, "preferredArchitecture": "x"}
    meta = {"annotations": {"openshift.io/display-name": "CentOS 7"}}
    assert _facts("preference", meta, {**spec, "requirements": {**spec["requirements"],
                                                                  "architecture": "amd64"}}) == {
        "retained": True, "cpu": 1, "memory": 1536 * 1024**2, "displayName": "CentOS 7",
        "architecture": "amd64"}


def test_preference_facts_without_requirements_or_annotations_are_empty():
    assert _facts("preference", {}, {}) == {
        "retained": True, "cpu": None, "memory": None, "displayName": "", "architecture": None}
    # requirements given but no memory or cpu in them
    assert _facts("preference", {"annotations": {}}, {"requirements": {"memory": {}}}) == {
        "retained": True, "cpu": None, "memory": None, "displayName": "", "architecture": None}
    assert _facts("preference", {}, {"requirements": {"memory": {"guest": "much"}}})["memory"] is None


# --- _unusable: what cannot be carried over exactly as released ---------------------------------

def refused(data, index: int = 3) -> Problem:
    problem = _unusable(doc(data, index))
    assert problem is not None
    return problem


def test_a_complete_object_is_usable():
    assert _unusable(doc(obj(CIT, "u1.small", labels={"a": "b"}, annotations={"c": "d"},
                             spec={"cpu": {"guest": 1}}))) is None


def test_labels_annotations_and_spec_may_be_absent():
    assert _unusable(doc({"apiVersion": API, "kind": NPREF, "metadata": {"name": "p"}})) is None


@pytest.mark.parametrize("kind", [CIT, NIT, CPREF, NPREF])
def test_each_catalog_kind_is_usable(kind):
    assert _unusable(doc(obj(kind, "x"))) is None


def test_an_object_of_another_kind_is_refused_listing_the_kinds():
    problem = refused({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}})
    assert problem.location == Location("old.yaml", None, None, ("kind",), 3, "x", "ConfigMap")
    assert problem.message == f"expected one of the kinds {ALL_KINDS}"
    assert str(problem) == f"old.yaml#3 (x) $.kind: expected one of the kinds {ALL_KINDS}"


@pytest.mark.parametrize("data", [["a", "list"], "a scalar", None])
def test_a_document_that_is_no_mapping_is_refused_at_its_kind(data):
    problem = refused(data, index=0)
    assert problem.location == Location("old.yaml", None, None, ("kind",), 0, None)
    assert problem.message == f"expected one of the kinds {ALL_KINDS}"


def test_an_object_of_another_api_version_is_refused_naming_both_versions():
    problem = refused({**obj(CPREF, "legacy.os"), "apiVersion": "instancetype.kubevirt.io/v1alpha2"})
    assert problem.location == Location("old.yaml", None, None, ("apiVersion",), 3, "legacy.os", CPREF)
    assert problem.message == (
        f"{CPREF} legacy.os is instancetype.kubevirt.io/v1alpha2, expected {API}: an object is carried "
        f"over only as released, so convert it to {API} first")


def test_an_unnamed_object_without_api_version_is_refused_as_unnamed_and_none():
    problem = refused({"kind": NIT, "metadata": {}})
    assert problem.location.path == ("apiVersion",)
    assert problem.message == (
        f"{NIT} (unnamed) is None, expected {API}: an object is carried over only as released, "
        f"so convert it to {API} first")


def test_a_top_level_field_a_bundle_does_not_have_is_refused_first_one_named():
    problem = refused({**obj(CIT, "u1.small"), "status": {}, "extra": 1})
    assert problem.location == Location("old.yaml", None, None, ("status",), 3, "u1.small", CIT)
    assert problem.message == ("unexpected field 'status': a bundle's object has only "
                               "apiVersion, kind, metadata, spec")


@pytest.mark.parametrize("metadata", ["x", None, ["name"]])
def test_metadata_that_is_no_mapping_is_refused(metadata):
    problem = refused({"apiVersion": API, "kind": CIT, "metadata": metadata})
    assert problem.location == Location("old.yaml", None, None, ("metadata",), 3, None, CIT)
    assert problem.message == "expected a mapping with the name, labels and annotations"


def test_missing_metadata_is_refused():
    problem = refused({"apiVersion": API, "kind": CIT})
    assert problem.location.path == ("metadata",)
    assert problem.message == "expected a mapping with the name, labels and annotations"


@pytest.mark.parametrize("meta", [{}, {"name": 7}, {"labels": {}}])
def test_an_object_without_a_string_name_is_refused(meta):
    problem = refused({"apiVersion": API, "kind": CIT, "metadata": meta})
    assert problem.location == Location("old.yaml", None, None, ("metadata", "name"), 3, None, CIT)
    assert problem.message == "expected a name"


def test_metadata_a_bundle_does_not_have_is_refused_first_one_named():
    problem = refused({"apiVersion": API, "kind": CIT,
                       "metadata": {"name": "u1.small", "namespace": "default", "uid": "1"}})
    assert problem.location == Location("old.yaml", None, None, ("metadata", "namespace"), 3, "u1.small", CIT,
                                               "default")
    assert problem.message == ("unexpected field 'namespace': a bundle's object has only "
                               "annotations, labels, name in its metadata")
    assert str(problem) == ("old.yaml#3 (u1.small) $.metadata.namespace: unexpected field 'namespace': "
                            "a bundle's object has only annotations, labels, name in its metadata")


@pytest.mark.parametrize("key", ["labels", "annotations"])
@pytest.mark.parametrize("value", [["a"], "a", None])
def test_labels_or_annotations_that_are_no_mapping_are_refused(key, value):
    data = obj(CPREF, "p")
    data["metadata"][key] = value
    problem = refused(data)
    assert problem.location == Location("old.yaml", None, None, ("metadata", key), 3, "p", CPREF)
    assert problem.message == "expected a mapping"


def test_labels_are_checked_before_annotations():
    problem = refused(obj(CPREF, "p", labels=[], annotations=[]))
    assert problem.location.path == ("metadata", "labels")


@pytest.mark.parametrize("spec", [["a"], "a", None])
def test_a_spec_that_is_no_mapping_is_refused(spec):
    problem = refused({**obj(CIT, "u1.small"), "spec": spec})
    assert problem.location == Location("old.yaml", None, None, ("spec",), 3, "u1.small", CIT)
    assert problem.message == "expected a mapping"


# --- retained_objects: what is carried over, and how ---------------------------------------------

def test_a_dropped_instancetype_is_carried_over_deprecated_and_otherwise_as_released():
    spec = {"cpu": {"guest": 2}, "memory": {"guest": "8Gi"}}
    old = doc(obj(CIT, "legacy1.large", labels={"instancetype.kubevirt.io/class": "legacy",
                                                "instancetype.kubevirt.io/common-instancetypes-version": "v1.0.0"},
                  annotations={"note": "old"}, spec=spec), index=5)
    [kept] = retained_objects([old], [])
    assert kept == CatalogObject(
        family="instancetype", name="legacy1.large", group="legacy",
        labels={"instancetype.kubevirt.io/class": "legacy",
                "instancetype.kubevirt.io/common-instancetypes-version": "v1.0.0", DEPRECATED: "true"},
        annotations={"note": "old"}, spec=spec,
        location=Location("old.yaml", None, None, (), 5, "legacy1.large", CIT),
        facts={"retained": True, "cpu": 2, "memory": 8 * 1024**3, "class": "legacy", "features": ()},
        only_kinds=(CIT,))
    assert kept.kinds == (CIT,)
    # the released mapping itself is not changed
    assert DEPRECATED not in old.data["metadata"]["labels"]


def test_a_dropped_preference_without_labels_annotations_or_spec_is_carried_over():
    [kept] = retained_objects([doc(obj(NPREF, "centos.stream8.dpdk"))], [])
    assert kept == CatalogObject(
        family="preference", name="centos.stream8.dpdk", group="centos",
        labels={DEPRECATED: "true"}, annotations={}, spec={},
        location=Location("old.yaml", None, None, (), 0, "centos.stream8.dpdk", NPREF),
        facts={"retained": True, "cpu": None, "memory": None, "displayName": "", "architecture": None},
        only_kinds=(NPREF,))


def test_a_released_deprecated_label_stays_true():
    [kept] = retained_objects([doc(obj(CPREF, "p", labels={DEPRECATED: "false"}))], [])
    assert kept.labels == {DEPRECATED: "true"}


def test_objects_the_catalog_still_produces_are_not_carried_over():
    old = [doc(obj(CIT, "u1.small"), 0), doc(obj(NIT, "u1.small"), 1),
           doc(obj(CPREF, "fedora"), 2), doc(obj(NPREF, "fedora"), 3)]
    assert retained_objects(old, [catalog("instancetype", "u1.small"), catalog("preference", "fedora")]) == []


def test_only_the_kinds_the_catalog_no_longer_produces_are_carried_over():
    old = [doc(obj(CIT, "u1.small"), 0), doc(obj(NIT, "u1.small"), 1)]
    kept = retained_objects(old, [catalog("instancetype", "u1.small", only_kinds=(CIT,))])
    assert [(o.name, o.only_kinds) for o in kept] == [("u1.small", (NIT,))]


def test_a_same_name_of_another_family_does_not_count_as_produced():
    old = [doc(obj(CPREF, "shared"), 0)]
    kept = retained_objects(old, [catalog("instancetype", "shared")])
    assert [(o.family, o.name, o.only_kinds) for o in kept] == [("preference", "shared", (CPREF,))]


def test_identical_cluster_and_namespaced_copies_become_one_object_of_both_kinds_in_kind_order():
    spec = {"cpu": {"guest": 1}}
    old = [doc(obj(NIT, "legacy1.small", labels={"a": "1"}, annotations={"b": "2"}, spec=spec), 0),
           doc(obj(CIT, "legacy1.small", labels={"a": "1"}, annotations={"b": "2"}, spec=spec), 1)]
    [kept] = retained_objects(old, [])
    assert kept.only_kinds == (CIT, NIT)
    # the first copy is the one kept, with its own location
    assert kept.location == Location("old.yaml", None, None, (), 0, "legacy1.small", NIT)


@pytest.mark.parametrize("change", [
    {"labels": {"a": "2"}, "annotations": {"b": "2"}, "spec": {"cpu": {"guest": 1}}},
    {"labels": {"a": "1"}, "annotations": {"b": "3"}, "spec": {"cpu": {"guest": 1}}},
    {"labels": {"a": "1"}, "annotations": {"b": "2"}, "spec": {"cpu": {"guest": 2}}},
])
def test_copies_that_differ_stay_apart_each_in_its_kind(change):
    old = [doc(obj(CIT, "legacy1.small", labels={"a": "1"}, annotations={"b": "2"}, spec={"cpu": {"guest": 1}}), 0),
           doc(obj(NIT, "legacy1.small", **change), 1)]
    kept = retained_objects(old, [])
    assert [o.only_kinds for o in kept] == [(CIT,), (NIT,)]


def test_every_unusable_object_is_reported_and_nothing_is_kept():
    old = [doc(obj(CIT, "good"), 0),
           doc({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"}}, 1),
           doc({**obj(CPREF, "p"), "status": {}}, 2),
           # refused even though the catalog still produces it
           doc({**obj(NIT, "u1.small"), "apiVersion": "v1alpha1"}, 3)]
    with pytest.raises(InputError) as raised:
        retained_objects(old, [catalog("instancetype", "u1.small")])
    assert [str(p) for p in raised.value.problems] == [
        f"old.yaml#1 (cm) $.kind: expected one of the kinds {ALL_KINDS}",
        "old.yaml#2 (p) $.status: unexpected field 'status': a bundle's object has only "
        "apiVersion, kind, metadata, spec",
        f"old.yaml#3 (u1.small) $.apiVersion: {NIT} u1.small is v1alpha1, expected {API}: an object is "
        f"carried over only as released, so convert it to {API} first",
    ]


# --- _merge_twins directly ---------------------------------------------------------------------

def retained(family: str, name: str, kind: str, **fields) -> CatalogObject:
    values = {"labels": {}, "annotations": {}, "spec": {}, **fields}
    return CatalogObject(family=family, name=name, group=name, location=Location("old.yaml"),
                         only_kinds=(kind,), **values)


def test_merge_twins_keeps_order_and_merges_only_same_family_name_and_content():
    objects = [retained("preference", "p", NPREF), retained("instancetype", "i", NIT),
               retained("preference", "p", CPREF), retained("instancetype", "j", CIT),
               retained("instancetype", "i", CIT, spec={"x": 1})]
    merged = _merge_twins(objects)
    assert [(o.family, o.name, o.only_kinds) for o in merged] == [
        ("preference", "p", (CPREF, NPREF)), ("instancetype", "i", (NIT,)),
        ("instancetype", "j", (CIT,)), ("instancetype", "i", (CIT,))]


def test_merge_twins_of_nothing_is_nothing():
    assert _merge_twins([]) == []


# --- retained_note ----------------------------------------------------------------------------

def finding(release) -> Problem:
    return Problem(Location("b.yaml", doc=0), "m", rule="r", since="v1.1.0", older_release=release)


def test_the_note_on_one_finding_is_singular():
    assert retained_note([finding("v1.0.0")], Path("out")) == (
        "note: 1 finding on retained objects comes from rules newer than their release v1.0.0 and does "
        "not count; `citgen validate out/common-instancetypes-all-bundle.yaml` lists them")


def test_the_note_on_several_findings_is_plural_with_each_release_once_in_order():
    findings = [finding("v1.2.0"), finding("v1.0.0"), finding("v1.2.0")]
    assert retained_note(findings, Path("/tmp/b")) == (
        "note: 3 findings on retained objects come from rules newer than their release v1.0.0, v1.2.0 and do "
        "not count; `citgen validate /tmp/b/common-instancetypes-all-bundle.yaml` lists them")


def test_the_note_on_no_findings_is_plural_and_a_missing_release_is_empty():
    assert retained_note([], Path("o")) == (
        "note: 0 findings on retained objects come from rules newer than their release  and do "
        "not count; `citgen validate o/common-instancetypes-all-bundle.yaml` lists them")
    assert retained_note([finding(None), finding("v1.0.0")], Path("o")).startswith(
        "note: 2 findings on retained objects come from rules newer than their release , v1.0.0 and do ")
