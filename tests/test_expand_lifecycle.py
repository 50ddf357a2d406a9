"""Deprecated objects and retired names on the objects and as records (expand/lifecycle.py).

What the data says of a deprecation becomes two annotations beside the deprecated label; a
retained object gets its replacement from catalog.yaml's ``retired``; ``lifecycles`` reads it all
back, from a build's objects or from any bundle's, the records ``citgen refs``, ``citgen list`` and
the catalog page share.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from generator.expand.instancetypes import instancetype_objects
from generator.expand.lifecycle import deprecation_annotations, held_replacement, lifecycles
from generator.expand.preferences import expand_preferences
from generator.model import Deprecation, Lifecycle, Retirement, label
from generator.pipeline import BuildOptions, catalog_objects, load_all
from generator.problems import Location
from tests.conftest import SHARED, shared_file
from tests.helpers import default_build, read_yaml_stream

HERE = Location("o.yaml", 1, 1)
SINCE, REPLACEMENT = label("deprecated-since"), label("deprecated-replacement")


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def overlaid(text: str) -> BuildOptions:
    Path("o.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    return BuildOptions(overlays=(Path("o.yaml"),))


def retirement(family: str, name: str, since: str, replacement: str | None = None,
               renamed: bool = False) -> Retirement:
    return Retirement(family, name, since, HERE, replacement, None, renamed)


def document(kind: str, name: str, labels: dict | None = None, annotations: dict | None = None) -> dict:
    return {"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": kind,
            "metadata": {"name": name, "labels": labels or {}, "annotations": annotations or {}}, "spec": {}}


DEPRECATED = {label("deprecated"): "true"}


# --------------------------------------------------------------------------- on the objects


def test_a_deprecation_becomes_the_annotations_of_what_it_says():
    assert deprecation_annotations(None) == {}
    assert deprecation_annotations(Deprecation(HERE)) == {}
    assert deprecation_annotations(Deprecation(HERE, "v1.9.0")) == {SINCE: "v1.9.0"}
    assert deprecation_annotations(Deprecation(HERE, "v1.9.0", "u1.medium")) == {
        SINCE: "v1.9.0", REPLACEMENT: "u1.medium"}
    assert deprecation_annotations(Deprecation(HERE, replacement="u1.medium")) == {REPLACEMENT: "u1.medium"}


def test_instancetypes_carry_the_label_and_the_annotations_of_their_series_or_size():
    catalog, _ = load_all(overlaid("""\
        series:
          change:
            o1:
              deprecated: {since: v1.9.0, replacement: u1}
              deprecatedSizes: {nano: {replacement: u1.micro}, small: false}
            u1:
              deprecatedSizes: {2xmedium: true}
        """))
    objects = {o.name: o for o in instancetype_objects(catalog)}
    assert {k: v for k, v in objects["o1.medium"].annotations.items() if "deprecated" in k} == {
        SINCE: "v1.9.0", REPLACEMENT: "u1.medium"}
    assert objects["o1.nano"].annotations[REPLACEMENT] == "u1.micro"
    assert objects["o1.medium"].labels[label("deprecated")] == "true"
    assert label("deprecated") not in objects["o1.small"].labels
    assert [k for k in objects["o1.small"].annotations if "deprecated" in k] == []
    assert objects["u1.2xmedium"].labels[label("deprecated")] == "true"
    assert [k for k in objects["u1.2xmedium"].annotations if "deprecated" in k] == []  # true says nothing more
    assert label("deprecated") not in objects["u1.medium"].labels


def test_preferences_carry_their_own_or_their_family_s_deprecation():
    _, preferences = load_all(overlaid("""\
        preferences:
          change:
            opensuse.leap: {deprecated: {since: v1.9.0, replacement: opensuse.tumbleweed}}
            cirros: {deprecated: true}
        """))
    objects = {o.name: o for o in expand_preferences(preferences, provider=default_build().catalog.settings.provider)}
    assert objects["opensuse.leap"].labels[label("deprecated")] == "true"
    assert {k: v for k, v in objects["opensuse.leap"].annotations.items() if "deprecated" in k} == {
        SINCE: "v1.9.0", REPLACEMENT: "opensuse.tumbleweed"}
    assert list(objects["opensuse.leap"].annotations) == sorted(objects["opensuse.leap"].annotations)
    assert (objects["cirros"].labels[label("deprecated")], SINCE in objects["cirros"].annotations) == ("true", False)


def test_the_default_build_deprecates_nothing_as_upstream_today():
    assert [o.name for o in default_build().objects if label("deprecated") in o.labels] == []
    assert [o.name for o in default_build().objects if SINCE in o.annotations or REPLACEMENT in o.annotations] == []


# --------------------------------------------------------------------------- retained objects


def test_a_retained_object_is_replaced_by_the_first_name_of_its_chain_the_build_holds():
    retired = {("preference", "centos.8.stream"): retirement("preference", "centos.8.stream", "v0.4.0",
                                                             "centos.stream8", renamed=True),
               ("preference", "centos.stream8"): retirement("preference", "centos.stream8", "v1.2.1",
                                                            "centos.stream9"),
               ("preference", "centos.7"): retirement("preference", "centos.7", "v1.2.1")}
    assert held_replacement("preference", "centos.8.stream", retired, ["centos.stream8", "centos.stream9"]) == \
        "centos.stream8"
    assert held_replacement("preference", "centos.8.stream", retired, ["centos.stream9"]) == "centos.stream9"
    assert held_replacement("preference", "centos.8.stream", retired, ["fedora"]) is None
    assert held_replacement("preference", "centos.7", retired, ["rhel.7"]) is None
    assert held_replacement("preference", "fedora", retired, ["fedora"]) is None


def test_a_retained_object_gets_the_replacement_catalog_yaml_names():
    release = shared_file(SHARED / "reference" / "releases" / "v1.0.0-common-instancetypes-all-bundle.yaml")
    _, _, objects = catalog_objects(BuildOptions(retain_from=(release,)))
    retained = {o.name: o for o in objects if o.facts.get("retained")}
    assert {k: v for k, v in retained["centos.stream8"].annotations.items() if "deprecated" in k} == {
        SINCE: "v1.2.1", REPLACEMENT: "centos.stream9"}
    assert retained["centos.7.desktop"].annotations[REPLACEMENT] == "rhel.7.desktop"
    assert [k for k in retained["gn1.xlarge"].annotations if "deprecated" in k] == []  # GN is not retired


# --------------------------------------------------------------------------- the records


def test_a_build_s_records_are_its_deprecated_objects_and_the_retired_names_it_does_not_hold():
    catalog, _, objects = catalog_objects(overlaid("""\
        series:
          change:
            o1: {deprecated: {since: v1.9.0, replacement: u1}}
        preferences:
          change:
            cirros: {deprecated: {since: v1.9.0, replacement: alpine}}
            alpine: {deprecated: {replacement: debian}}
        """))
    records = lifecycles(objects, catalog.retirements)
    assert records[("instancetype", "o1.medium")] == Lifecycle(
        "instancetype", "o1.medium", "deprecated", "v1.9.0", "u1.medium", ("u1.medium",), "u1.medium")
    assert records[("preference", "cirros")] == Lifecycle(
        "preference", "cirros", "deprecated", "v1.9.0", "alpine", ("alpine", "debian"), "debian")
    assert records[("preference", "centos.8.stream")] == Lifecycle(
        "preference", "centos.8.stream", "retired", "v0.4.0", "centos.stream8", ("centos.stream8", "centos.stream9"),
        "centos.stream9", retired="v0.4.0", renamed=True)
    assert records[("instancetype", "server.micro")] == Lifecycle(
        "instancetype", "server.micro", "retired", "v0.4.0", "u1.nano", ("u1.nano",), "u1.nano", retired="v0.4.0")
    assert ("instancetype", "u1.medium") not in records
    assert list(records) == sorted(records)
    assert {r.status for r in records.values()} == {"deprecated", "retired"}


def test_the_built_in_catalog_s_retired_names_each_lead_to_an_object_it_builds():
    build = default_build()
    records = lifecycles(build.objects, build.catalog.retirements)
    assert {name: record.current for (_, name), record in records.items()} == {
        "highperformance.large": "d1.large", "highperformance.medium": "d1.medium", "highperformance.small": "d1.small",
        "server.large": "u1.large", "server.medium": "u1.medium", "server.micro": "u1.nano",
        "server.small": "u1.small", "server.tiny": "u1.small",
        "centos.7": "rhel.7", "centos.7.desktop": "rhel.7.desktop",
        "centos.8.stream": "centos.stream9", "centos.8.stream.desktop": "centos.stream9.desktop",
        "centos.9.stream": "centos.stream9", "centos.9.stream.desktop": "centos.stream9.desktop",
        "centos.stream8": "centos.stream9", "centos.stream8.desktop": "centos.stream9.desktop",
        "centos.stream8.dpdk": "centos.stream9.dpdk"}


def test_a_bundle_s_objects_are_read_as_documents_and_twins_count_once():
    docs = [document("VirtualMachineClusterPreference", "old", DEPRECATED,
                     {SINCE: "v2.0.0", REPLACEMENT: "new"}),
            document("VirtualMachinePreference", "old", DEPRECATED, {SINCE: "v2.0.0", REPLACEMENT: "new"}),
            document("VirtualMachineClusterPreference", "new"),
            document("VirtualMachineClusterInstancetype", "new", DEPRECATED),
            {"kind": "ConfigMap", "metadata": {"name": "x", "labels": DEPRECATED}},
            {"kind": "VirtualMachineClusterPreference", "metadata": "not a mapping"}]
    assert lifecycles(docs) == {
        ("instancetype", "new"): Lifecycle("instancetype", "new", "deprecated"),
        ("preference", "old"): Lifecycle("preference", "old", "deprecated", "v2.0.0", "new", ("new",), "new")}


def test_a_bundle_s_chain_that_goes_round_or_leads_outside_it_has_no_current_object():
    docs = [document("VirtualMachineClusterPreference", "a", DEPRECATED, {REPLACEMENT: "b"}),
            document("VirtualMachineClusterPreference", "b", DEPRECATED, {REPLACEMENT: "a"}),
            document("VirtualMachineClusterPreference", "c", DEPRECATED, {REPLACEMENT: "gone"})]
    records = lifecycles(docs)
    assert (records[("preference", "a")].chain, records[("preference", "a")].current) == (("b", "a"), None)
    assert (records[("preference", "c")].chain, records[("preference", "c")].current) == (("gone",), None)


def test_an_older_bundle_s_deprecated_object_takes_its_replacement_from_the_retired_names():
    bundle = shared_file(SHARED / "reference" / "releases" / "other" / "upstream-v1.2.0-kustomize-build.yaml")
    records = lifecycles(read_yaml_stream(bundle), default_build().catalog.retirements)
    assert records[("preference", "centos.stream8")] == Lifecycle(
        "preference", "centos.stream8", "deprecated", None, "centos.stream9", ("centos.stream9",), "centos.stream9",
        retired="v1.2.1")
    assert records[("preference", "centos.7")].current == "rhel.7"
    assert records[("instancetype", "gn1.xlarge")] == Lifecycle("instancetype", "gn1.xlarge", "deprecated")
    assert records[("instancetype", "server.medium")].status == "retired"  # v1.2.0 no longer had it


def test_a_held_object_catalog_yaml_says_was_renamed_is_renamed_when_it_names_the_new_name():
    retired = {("preference", "old"): retirement("preference", "old", "v2.0.0", "new", renamed=True)}
    new = document("VirtualMachineClusterPreference", "new")
    says_new = document("VirtualMachineClusterPreference", "old", DEPRECATED, {REPLACEMENT: "new"})
    says_other = document("VirtualMachineClusterPreference", "old", DEPRECATED, {REPLACEMENT: "other"})
    assert lifecycles([says_new, new], retired)[("preference", "old")].renamed is True
    assert lifecycles([document("VirtualMachineClusterPreference", "old", DEPRECATED), new],
                      retired)[("preference", "old")].renamed is True
    assert lifecycles([says_other, new], retired)[("preference", "old")].renamed is False


def test_a_retired_chain_that_goes_round_among_names_the_build_does_not_hold_gives_no_replacement():
    retired = {("preference", "a"): retirement("preference", "a", "v1.0.0", "b"),
               ("preference", "b"): retirement("preference", "b", "v1.0.0", "c"),
               ("preference", "c"): retirement("preference", "c", "v1.0.0", "b")}
    assert held_replacement("preference", "a", retired, ["fedora"]) is None
    assert held_replacement("preference", "b", retired, ["fedora"]) is None
    assert held_replacement("preference", "a", retired, ["c"]) == "c"


def test_of_twins_the_first_deprecated_copy_speaks_for_the_name():
    cluster, namespaced = "VirtualMachineClusterPreference", "VirtualMachinePreference"
    first = document(cluster, "old", DEPRECATED, {REPLACEMENT: "new"})
    later = document(namespaced, "old", DEPRECATED, {SINCE: "v3.0.0", REPLACEMENT: "other"})
    current = document(namespaced, "old")
    assert lifecycles([first, later]) == lifecycles([first, current]) == lifecycles([current, first]) == {
        ("preference", "old"): Lifecycle("preference", "old", "deprecated", None, "new", ("new",))}
    assert lifecycles([current, later]) == {
        ("preference", "old"): Lifecycle("preference", "old", "deprecated", "v3.0.0", "other", ("other",))}


def test_what_a_bundle_s_object_cannot_mean_is_passed_over():
    """An object of another kind, a name that is no text, labels or annotations that are no mapping, and
    empty or non-text annotation values say nothing; the objects after them are still read."""
    docs = [{"kind": "ConfigMap", "metadata": {"name": "x", "labels": DEPRECATED}},
            {"kind": "VirtualMachineClusterPreference", "metadata": {"name": 7, "labels": DEPRECATED}},
            {"kind": "VirtualMachineClusterPreference", "metadata": {"name": "bare", "labels": None,
                                                                      "annotations": None}},
            {"kind": "VirtualMachineClusterPreference", "metadata": {"name": "listed", "labels": ["deprecated"],
                                                                      "annotations": ["x"]}},
            document("VirtualMachineClusterPreference", "old", DEPRECATED, {SINCE: "", REPLACEMENT: 2})]
    assert lifecycles(docs) == {("preference", "old"): Lifecycle("preference", "old", "deprecated")}


def test_a_long_chain_of_retired_names_leads_each_to_the_current_object():
    count = 2000  # issue 41: followed again from every name, this took 39 s
    retired = {("preference", f"old-{i}"): Retirement("preference", f"old-{i}", "v1.0.0", Location("catalog.yaml"),
                                                     f"old-{i + 1}" if i + 1 < count else "fedora")
               for i in range(count)}
    found = lifecycles([{"kind": "VirtualMachineClusterPreference", "metadata": {"name": "fedora"}}], retired)
    assert {record.current for record in found.values()} == {"fedora"}
    assert [len(found[("preference", f"old-{i}")].chain) for i in (0, count - 1)] == [count, 1]
    assert found[("preference", "old-0")].chain[-1] == "fedora"
