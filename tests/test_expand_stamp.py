"""generator/expand/stamp.py: the vendor and version labels every object carries, and an overlay's own."""

from __future__ import annotations

from generator.expand.stamp import stamp
from generator.model import CatalogObject
from generator.problems import Location

VENDOR = "instancetype.kubevirt.io/vendor"
VERSION = "instancetype.kubevirt.io/common-instancetypes-version"


def obj(name: str, labels: dict | None = None, annotations: dict | None = None,
        family: str = "instancetype") -> CatalogObject:
    return CatalogObject(family=family, name=name, group=name.split(".")[0], labels=labels or {},
                         annotations=annotations or {}, spec={"cpu": {"guest": 1}},
                         location=Location("series/u.yaml", 3, 1), facts={"cpu": 1}, only_kinds=(),
                         shaped_by=(Location("overlay.yaml", 2, 1),))


def test_every_object_gets_the_vendor_and_the_catalog_version_labels():
    out = stamp([obj("u1.small"), obj("o1.small")], "example.com", "v1.2.3")
    assert [dict(o.labels) for o in out] == [{VENDOR: "example.com", VERSION: "v1.2.3"}] * 2


def test_an_objects_own_labels_are_kept_beside_the_stamped_ones():
    out = stamp([obj("u1.small", {"instancetype.kubevirt.io/cpu": "1"})], "kubevirt.io", "v1.0.0")
    assert dict(out[0].labels) == {"instancetype.kubevirt.io/cpu": "1", VENDOR: "kubevirt.io", VERSION: "v1.0.0"}


def test_the_stamped_labels_win_over_what_the_object_says():
    out = stamp([obj("u1.small", {VENDOR: "someone-else", VERSION: "old"})], "kubevirt.io", "v1.0.0")
    assert dict(out[0].labels) == {VENDOR: "kubevirt.io", VERSION: "v1.0.0"}


def test_a_vendors_own_labels_are_added_to_every_object():
    out = stamp([obj("u1.small"), obj("o1.small")], "example.com", "v2", labels={"example.com/tier": "gold"})
    assert [dict(o.labels) for o in out] == [{"example.com/tier": "gold", VENDOR: "example.com", VERSION: "v2"}] * 2


def test_the_objects_labels_win_over_a_vendors_own():
    out = stamp([obj("u1.small", {"example.com/tier": "silver"})], "example.com", "v2",
                labels={"example.com/tier": "gold", "example.com/zone": "a"})
    assert dict(out[0].labels) == {"example.com/tier": "silver", "example.com/zone": "a", VENDOR: "example.com",
                                   VERSION: "v2"}


def test_the_stamped_labels_win_over_a_vendors_own():
    out = stamp([obj("u1.small")], "example.com", "v2", labels={VENDOR: "spoofed", VERSION: "v0"})
    assert dict(out[0].labels) == {VENDOR: "example.com", VERSION: "v2"}


def test_a_vendors_own_annotations_are_added_and_the_objects_win_over_them():
    out = stamp([obj("u1.small", annotations={"instancetype.kubevirt.io/description": "Small."})], "v", "1",
                annotations={"instancetype.kubevirt.io/description": "Overlay's.", "example.com/owner": "team"})
    assert dict(out[0].annotations) == {"instancetype.kubevirt.io/description": "Small.", "example.com/owner": "team"}


def test_annotations_are_left_as_they_are_without_a_vendors_own():
    out = stamp([obj("u1.small", annotations={"example.com/note": "n"})], "v", "1")
    assert dict(out[0].annotations) == {"example.com/note": "n"}


def test_empty_vendor_labels_and_annotations_add_nothing():
    out = stamp([obj("u1.small", {"a": "1"}, {"b": "2"})], "v", "1", labels={}, annotations={})
    assert dict(out[0].labels) == {"a": "1", VENDOR: "v", VERSION: "1"}
    assert dict(out[0].annotations) == {"b": "2"}


def test_stamping_changes_nothing_but_labels_and_annotations_and_keeps_the_order():
    given = [obj("u1.small"), obj("windows.2k22", family="preference"), obj("cx1.large")]
    out = stamp(given, "v", "1")
    assert [o.name for o in out] == ["u1.small", "windows.2k22", "cx1.large"]
    for before, after in zip(given, out):
        assert (after.family, after.group, after.spec, after.location, after.facts, after.only_kinds,
                after.shaped_by) == (before.family, before.group, before.spec, before.location, before.facts,
                                     before.only_kinds, before.shaped_by)


def test_the_given_objects_and_mappings_are_left_unchanged():
    given = obj("u1.small", {"a": "1"}, {"b": "2"})
    labels, annotations = {"c": "3"}, {"d": "4"}
    out = stamp([given], "v", "1", labels=labels, annotations=annotations)
    assert dict(given.labels) == {"a": "1"} and dict(given.annotations) == {"b": "2"}
    assert labels == {"c": "3"} and annotations == {"d": "4"}
    assert out[0] is not given


def test_no_objects_give_an_empty_list():
    assert stamp([], "v", "1", labels={"a": "1"}) == []


OS = "os.template.kubevirt.io/"


def preference(name: str, osinfo: tuple[str, ...]) -> CatalogObject:
    return CatalogObject(family="preference", name=name, group=name.split(".")[0], labels={}, annotations={},
                         spec={}, location=Location("preferences/rhel.yaml", 3, 1), facts={"osinfo": osinfo})


def test_os_labels_are_added_only_when_asked():
    out = stamp([preference("rhel.9", ("rhel9.0", "rhel9.1"))], "kubevirt.io", "v1")
    assert not any(key.startswith(OS) for key in out[0].labels)


def test_each_os_release_a_preference_claims_is_a_label_of_common_templates_spelling():
    out = stamp([preference("rhel.9", ("rhel9.0", "rhel9.1")), obj("u1.small")], "kubevirt.io", "v1",
                with_os_labels=True)
    assert {k: v for k, v in out[0].labels.items() if k.startswith(OS)} == {OS + "rhel9.0": "true",
                                                                           OS + "rhel9.1": "true"}
    assert dict(out[1].labels) == {VENDOR: "kubevirt.io", VERSION: "v1"}  # an instancetype claims no OS


def test_a_preference_without_a_claim_gets_no_os_label():
    out = stamp([preference("legacy", ())], "kubevirt.io", "v1", with_os_labels=True)
    assert dict(out[0].labels) == {VENDOR: "kubevirt.io", VERSION: "v1"}


def test_a_line_s_releases_are_labels_when_the_database_is_given():
    from pathlib import Path

    from generator.model import OsinfoClaim
    from generator.osinfo.model import OsinfoDatabase, OsRelease

    def release(short_id: str, version: str) -> OsRelease:
        return OsRelease(f"http://redhat.com/rhel/{version}", (short_id,), short_id, None, "linux", "rhel", version,
                         None, (), (), (), (), frozenset(), Location("os.xml"))

    db = OsinfoDatabase(Path("db"), "1", (release("rhel9.0", "9.0"), release("rhel9.1", "9.1"),
                                          release("rhel8.6", "8.6")))
    claim = OsinfoClaim((), "rhel9", {}, Location("preferences/rhel.yaml", 4, 5))
    line = CatalogObject(family="preference", name="rhel.9", group="rhel", labels={}, annotations={}, spec={},
                         location=Location("preferences/rhel.yaml", 3, 1), facts={"osinfo": (), "osinfoClaim": claim})
    assert not any(k.startswith(OS) for k in stamp([line], "v", "1", with_os_labels=True)[0].labels)
    out = stamp([line], "v", "1", with_os_labels=True, osinfo=db)
    assert {k: v for k, v in out[0].labels.items() if k.startswith(OS)} == {OS + "rhel9.0": "true",
                                                                           OS + "rhel9.1": "true"}
