"""generator/expand/kubevirt.py: the catalog's objects as an older KubeVirt release accepts them.

Each test builds a few objects by hand, with spellings written as catalog.yaml
writes them, and asks for one release. Which release brought a field comes from
the shipped CRD schemas (spec.firmware.preferredEfi v1.4, spec.cpu.spreadOptions
v1.3, spec.preferredArchitecture v1.7, spec.preferredLaunchSecurity v1.9).
"""

from __future__ import annotations

from typing import Any

from generator.expand.kubevirt import LEFT_OUT, OBJECT_LEFT_OUT, RESPELT, for_release, oldest_accepting
from generator.model import CatalogObject, OlderField, OlderValue, Spelling, label
from generator.problems import Location
from generator.schemas.releases import Release, newest

V1_0, V1_1, V1_3, V1_4, V1_8 = Release(1, 0), Release(1, 1), Release(1, 3), Release(1, 4), Release(1, 8)
HERE = Location("catalog.yaml")

EFI = Spelling(("spec", "firmware", "preferredEfi"), HERE, writes=(
    OlderField(("spec", "firmware", "preferredUseEfi"), value=True),
    OlderField(("spec", "firmware", "preferredUseSecureBoot"), source="secureBoot")))
SPREAD = Spelling(("spec", "cpu", "spreadOptions"), HERE, when={"across": ("SocketsCores", None)},
                  writes=(OlderField(("spec", "preferSpreadSocketToCoreRatio"), source="ratio"),))
TOPOLOGY = Spelling(("spec", "cpu", "preferredCPUTopology"), HERE, values={
    "spread": OlderValue("v1.4", "preferSpread"), "sockets": OlderValue("v1.4", "preferSockets"),
    "preferSpread": OlderValue("v1.1")})
SPELLINGS = (EFI, SPREAD, TOPOLOGY)


def preference(name: str = "fedora", labels: dict[str, str] | None = None, essential: tuple = (),
               **spec: Any) -> CatalogObject:
    return CatalogObject("preference", name, "fedora", labels or {}, {}, spec, HERE,
                         facts={"essential": essential})


def instancetype(name: str = "cx1.large", **spec: Any) -> CatalogObject:
    return CatalogObject("instancetype", name, "cx", {}, {}, {"cpu": {"guest": 2}, "memory": {"guest": "4Gi"},
                                                              **spec}, HERE)


def built(release: Release, *objects: CatalogObject) -> tuple[list[CatalogObject], list[str]]:
    kept, adjustments = for_release(objects, release, SPELLINGS)
    return kept, [str(a) for a in adjustments]


def test_the_newest_release_changes_nothing():
    objects = [preference(firmware={"preferredEfi": {"secureBoot": True}}, preferredLaunchSecurity={}),
               instancetype(cpu={"guest": 2, "maxSockets": 2})]
    kept, said = built(newest(), *objects)
    assert kept == objects and said == []


def test_efi_before_v1_4_is_written_as_the_two_flags_of_its_time():
    kept, said = built(V1_3, preference(firmware={"preferredEfi": {"secureBoot": False}}))
    assert kept[0].spec == {"firmware": {"preferredUseEfi": True, "preferredUseSecureBoot": False}}
    assert said == ["preference fedora: spec.firmware.preferredEfi (KubeVirt v1.4) written as "
                    "spec.firmware.preferredUseEfi: true, spec.firmware.preferredUseSecureBoot: false"]


def test_a_sub_field_with_no_older_spelling_is_not_written_and_secure_boot_keeps_its_default():
    kept, said = built(V1_3, preference(firmware={"preferredEfi": {"persistent": True}}))
    assert kept[0].spec == {"firmware": {"preferredUseEfi": True}}  # EFI{}: Secure Boot on by default
    assert said == ["preference fedora: spec.firmware.preferredEfi (KubeVirt v1.4) written as "
                    "spec.firmware.preferredUseEfi: true"]


def test_efi_from_v1_4_on_is_kept_as_written():
    kept, said = built(V1_4, preference(firmware={"preferredEfi": {"secureBoot": True}}))
    assert kept[0].spec == {"firmware": {"preferredEfi": {"secureBoot": True}}} and said == []


def test_spread_options_across_sockets_and_cores_become_the_older_ratio():
    spec = {"cpu": {"preferredCPUTopology": "preferSpread", "spreadOptions": {"ratio": 4}}}
    kept, said = built(V1_1, preference(**spec))
    assert kept[0].spec == {"cpu": {"preferredCPUTopology": "preferSpread"}, "preferSpreadSocketToCoreRatio": 4}
    assert said == ["preference fedora: spec.cpu.spreadOptions (KubeVirt v1.3) written as "
                    "spec.preferSpreadSocketToCoreRatio: 4"]


def test_spread_options_the_older_ratio_cannot_say_are_left_out():
    spec = {"cpu": {"preferredCPUTopology": "preferSpread",
                    "spreadOptions": {"across": "SocketsCoresThreads", "ratio": 4}}}
    kept, said = built(V1_1, preference(**spec))
    assert kept[0].spec == {"cpu": {"preferredCPUTopology": "preferSpread"}}
    assert said == ["preference fedora: spec.cpu.spreadOptions (KubeVirt v1.3) left out"]


def test_an_older_field_the_release_lacks_too_is_not_written():
    """preferSpreadSocketToCoreRatio came in v1.1: on v1.0 the spread options are only left out."""
    kept, said = built(V1_0, preference(cpu={"spreadOptions": {"ratio": 2}}))
    assert kept[0].spec == {}
    assert said == ["preference fedora: spec.cpu.spreadOptions (KubeVirt v1.3) left out"]


def test_a_value_newer_than_its_field_takes_its_older_spelling():
    kept, said = built(V1_3, preference(cpu={"preferredCPUTopology": "spread"}))
    assert kept[0].spec == {"cpu": {"preferredCPUTopology": "preferSpread"}}
    assert said == ["preference fedora: spec.cpu.preferredCPUTopology: spread (KubeVirt v1.4) written as "
                    "spec.cpu.preferredCPUTopology: preferSpread"]


def test_a_value_whose_older_spelling_is_newer_still_is_left_out():
    kept, said = built(V1_0, preference(cpu={"preferredCPUTopology": "spread"}))
    assert kept[0].spec == {}  # the mapping it leaves empty goes with it
    assert said == ["preference fedora: spec.cpu.preferredCPUTopology: spread (KubeVirt v1.4) left out"]


def test_a_value_of_the_release_is_kept():
    kept, said = built(V1_4, preference(cpu={"preferredCPUTopology": "sockets"}))
    assert kept[0].spec == {"cpu": {"preferredCPUTopology": "sockets"}} and said == []
    kept, said = built(V1_1, preference(cpu={"preferredCPUTopology": "preferSpread"}))
    assert kept[0].spec == {"cpu": {"preferredCPUTopology": "preferSpread"}} and said == []


def test_a_field_without_a_spelling_is_left_out_with_the_labels_read_off_it():
    labels = {label("preferred-architecture"): "arm64", label("required-architecture"): "arm64",
              label("arch"): "arm64"}
    obj = preference("fedora.arm64", labels, preferredArchitecture="arm64",
                     requirements={"architecture": "arm64", "cpu": {"guest": 1}})
    kept, said = built(Release(1, 6), obj)
    assert kept[0].spec == {"requirements": {"cpu": {"guest": 1}}}
    assert kept[0].labels == {label("arch"): "arm64"}  # still what its name says
    assert said == ["preference fedora.arm64: spec.preferredArchitecture (KubeVirt v1.7) left out",
                    "preference fedora.arm64: spec.requirements.architecture (KubeVirt v1.7) left out"]


def test_an_object_whose_essential_field_the_release_lacks_is_left_out():
    secex = preference("fedora.s390x.secex", essential=(("spec", "preferredLaunchSecurity"),),
                       preferredLaunchSecurity={}, firmware={"preferredEfi": {}})
    kept, adjustments = for_release([secex, preference()], V1_8, SPELLINGS)
    assert [o.name for o in kept] == ["fedora"]
    assert [(a.name, a.field, a.action, str(a.since)) for a in adjustments] == [
        ("fedora.s390x.secex", "spec.preferredLaunchSecurity", OBJECT_LEFT_OUT, "v1.9")]
    assert str(adjustments[0]) == ("preference fedora.s390x.secex: spec.preferredLaunchSecurity (KubeVirt v1.9) "
                                   "object left out")


def test_the_same_field_set_by_no_essential_trait_is_only_left_out():
    kept, said = built(V1_8, preference(preferredLaunchSecurity={}))
    assert kept[0].spec == {}
    assert said == ["preference fedora: spec.preferredLaunchSecurity (KubeVirt v1.9) left out"]


def test_a_field_no_release_has_is_left_for_validation_to_refuse():
    obj = instancetype(cpu={"guest": 2, "dedicatedCpuPlacement": True})
    kept, said = built(V1_0, obj)
    assert kept == [obj] and said == []


def test_instancetype_fields_are_left_out_too():
    kept, said = built(V1_0, instancetype(cpu={"guest": 2, "maxSockets": 2}, annotations={"a": "b"}))
    assert kept[0].spec == {"cpu": {"guest": 2}, "memory": {"guest": "4Gi"}}
    assert said == ["instancetype cx1.large: spec.cpu.maxSockets (KubeVirt v1.3) left out",
                    "instancetype cx1.large: spec.annotations (KubeVirt v1.1) left out"]


def test_the_objects_given_are_not_changed():
    obj = preference(firmware={"preferredEfi": {"secureBoot": True}})
    built(V1_0, obj)
    assert obj.spec == {"firmware": {"preferredEfi": {"secureBoot": True}}}


def test_an_adjustment_record_is_what_json_reports():
    _, adjustments = for_release([preference(cpu={"preferredCPUTopology": "spread"})], V1_3, SPELLINGS)
    assert [a.record() for a in adjustments] == [{
        "family": "preference", "name": "fedora", "field": "spec.cpu.preferredCPUTopology: spread",
        "action": RESPELT, "since": "v1.4", "writtenAs": "spec.cpu.preferredCPUTopology: preferSpread"}]
    _, adjustments = for_release([preference(preferredArchitecture="amd64")], V1_3, SPELLINGS)
    assert adjustments[0].record()["action"] == LEFT_OUT and adjustments[0].record()["writtenAs"] is None


def test_the_oldest_release_accepting_an_object_is_that_of_its_newest_field():
    assert oldest_accepting(instancetype()) == V1_0
    assert oldest_accepting(instancetype(cpu={"guest": 2, "maxSockets": 2})) == V1_3
    assert oldest_accepting(preference(firmware={"preferredEfi": {}}, devices={"preferredVideoType": "vga"})) \
        == Release(1, 9)
    assert oldest_accepting(preference(firmware={"preferredEfy": {}})) is None  # no release has that field


def test_a_value_of_a_release_citgen_does_not_know_yet_takes_its_older_spelling_on_every_known_one():
    future = Spelling(("spec", "cpu", "preferredCPUTopology"), HERE,
                      values={"diagonal": OlderValue("v1.12", "spread")})
    kept, adjustments = for_release([preference(cpu={"preferredCPUTopology": "diagonal"})], newest(), (future,))
    assert kept[0].spec == {"cpu": {"preferredCPUTopology": "spread"}}
    assert [str(a) for a in adjustments] == [
        "preference fedora: spec.cpu.preferredCPUTopology: diagonal (KubeVirt v1.12) written as "
        "spec.cpu.preferredCPUTopology: spread"]


def test_building_for_the_newest_release_walks_no_object(monkeypatch):
    """The newest release has every field an older one has: the default build pays nothing for releases.

    Private state, replaced on purpose: the walk (_one) is made to fail, to show it is never taken.
    """
    import generator.expand.kubevirt as module

    monkeypatch.setattr(module, "_one", lambda *args: (_ for _ in ()).throw(AssertionError("walked")))
    objects = [preference(firmware={"preferredEfi": {}})]
    assert for_release(objects, newest(), SPELLINGS) == (objects, [])
