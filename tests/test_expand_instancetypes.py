"""expand/instancetypes.py on its own: series x sizes x variants, with labels read off the spec."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from generator.errors import InputError
from generator.expand.instancetypes import feature_labels, instancetype, instancetype_objects, series_objects, unique
from generator.model import Catalog, CatalogObject, Series, Settings, Size, SizeMatrix, Variant
from generator.problems import Location

GiB = 1024 ** 3
HERE = Location("series/x.yaml", 1, 1)
P = "instancetype.kubevirt.io/"
SIZES = SizeMatrix("standard", (Size("nano", 1, GiB // 2, HERE), Size("small", 1, None, HERE),
                                Size("large", 2, None, HERE), Size("xlarge", 4, None, HERE)), HERE)


def series(name: str = "cx1", ratio: Fraction = Fraction(2), sizes: tuple[str, ...] = ("small", "large"),
           features: dict | None = None, variants: tuple[Variant, ...] = (), spec: dict | None = None,
           deprecated: bool = False) -> Series:
    return Series(prefix=name.rstrip("0123456789"), version=int(name[len(name.rstrip("0123456789")):]), cls="compute.exclusive",
                  display_name="Compute Exclusive", description="Dedicated cores.", icon="pficon-registry",
                  ratio=ratio, matrix="standard", sizes=sizes, features=features or {}, spec=spec or {},
                  variants=variants, deprecated=deprecated, location=Location(f"series/{name}.yaml", 1, 1))


def catalog(*all_series: Series, parameters: dict | None = None) -> Catalog:
    settings = Settings(vendor="kubevirt.io", version="v1.0.0", parameters=parameters or {}, provider={},
                        location=Location("catalog.yaml"))
    return Catalog(root=Path("."), settings=settings, matrices={"standard": SIZES}, series=all_series)


def made(obj: CatalogObject) -> dict[str, Any]:
    return {"name": obj.name, "labels": {k[len(P):]: v for k, v in obj.labels.items()}, "spec": obj.spec}


def test_memory_is_the_ratio_times_the_vcpus_unless_the_size_fixes_it() -> None:
    half = series("o1", Fraction(1, 2), ("nano", "large", "xlarge"))
    assert [(o.name, o.spec["memory"]["guest"], o.facts["memory"]) for o in series_objects(half, catalog(half), {})] \
        == [("o1.nano", "512Mi", GiB // 2), ("o1.large", "1Gi", GiB), ("o1.xlarge", "2Gi", 2 * GiB)]


def test_labels_say_what_the_spec_holds() -> None:
    obj = instancetype(series(), SIZES.sizes[2], "", {"dedicatedCPUPlacement": True, "hugepages": "1Gi"}, {})
    assert made(obj) == {
        "name": "cx1.large",
        "labels": {"class": "compute.exclusive", "version": "1", "cpu": "2", "memory": "4Gi", "size": "large",
                   "icon-pf": "pficon-registry", "dedicatedCPUPlacement": "true", "hugepages": "1Gi"},
        "spec": {"cpu": {"guest": 2, "dedicatedCPUPlacement": True},
                 "memory": {"guest": "4Gi", "hugepages": {"pageSize": "1Gi"}}}}
    assert obj.annotations == {P + "displayName": "Compute Exclusive", P + "description": "Dedicated cores."}
    assert obj.group == "cx"
    assert obj.facts == {"cpu": 2, "memory": 4 * GiB, "series": "cx1", "class": "compute.exclusive",
                         "features": ("dedicatedCPUPlacement", "hugepages")}


def test_a_deprecated_series_labels_every_object() -> None:
    old = series(deprecated=True)
    assert {o.labels.get(P + "deprecated") for o in series_objects(old, catalog(old), {})} == {"true"}
    assert {P + "deprecated" in o.labels for o in series_objects(series(), catalog(), {})} == {False}


def test_the_series_spec_is_merged_over_the_features_and_read_for_labels() -> None:
    """A series spec that adds NUMA by hand gets the numa label, as a feature flag would."""
    own = series(spec={"cpu": {"numa": {"guestMappingPassthrough": {}}}, "ioThreadsPolicy": "auto"})
    obj = series_objects(own, catalog(own), {})[0]
    assert obj.spec == {"cpu": {"guest": 1, "numa": {"guestMappingPassthrough": {}}},
                        "memory": {"guest": "2Gi"}, "ioThreadsPolicy": "auto"}
    assert obj.labels[P + "numa"] == "true"


@pytest.mark.parametrize("spec, labels", [
    ({}, {}),
    ({"cpu": {"dedicatedCPUPlacement": True}}, {"dedicatedCPUPlacement": "true"}),
    ({"cpu": {"dedicatedCPUPlacement": False}}, {}),
    ({"cpu": {"isolateEmulatorThread": True}}, {"isolateEmulatorThread": "true"}),
    ({"cpu": {"numa": {"guestMappingPassthrough": {}}}}, {"numa": "true"}),
    ({"cpu": {"numa": {}}}, {}),
    ({"cpu": {"realtime": {}}}, {"realtime": "true"}),
    ({"memory": {"hugepages": {"pageSize": "2Mi"}}}, {"hugepages": "2Mi"}),
    ({"memory": {"hugepages": {}}}, {}),
    ({"gpus": [{"name": "gpu1", "deviceName": "nvidia.com/A400"}]}, {"gpus": "true"}),
    ({"gpus": []}, {}),
])
def test_feature_labels(spec, labels) -> None:
    assert feature_labels(spec) == labels


def test_sizes_the_series_offers_times_each_variant_in_matrix_order() -> None:
    with_variant = series(sizes=("large", "small"), features={"hugepages": "2Mi"},
                          variants=(Variant("1gi", {"hugepages": "1Gi"}, HERE),))
    objects = series_objects(with_variant, catalog(with_variant), {})
    assert [(o.name, o.labels[P + "size"], o.labels[P + "hugepages"]) for o in objects] == [
        ("cx1.small", "small", "2Mi"), ("cx1.small1gi", "small1gi", "1Gi"),
        ("cx1.large", "large", "2Mi"), ("cx1.large1gi", "large1gi", "1Gi")]


def test_gpu_series_are_built_only_with_a_device() -> None:
    gn = series("gn1", Fraction(4), ("xlarge",), features={"gpus": True})
    plain = series("u1", Fraction(4), ("small",))
    assert [o.name for o in instancetype_objects(catalog(gn, plain))] == ["u1.small"]
    both = instancetype_objects(catalog(gn, plain), {"gpu": {"deviceName": "nvidia.com/A400", "count": 2}})
    assert [o.name for o in both] == ["gn1.xlarge", "u1.small"]
    assert both[0].spec["gpus"] == [{"name": "gpu1", "deviceName": "nvidia.com/A400"},
                                    {"name": "gpu2", "deviceName": "nvidia.com/A400"}]
    from_settings = instancetype_objects(catalog(gn, parameters={"gpu": {"deviceName": "nvidia.com/H100"}}))
    assert [o.spec["gpus"] for o in from_settings] == [[{"name": "gpu1", "deviceName": "nvidia.com/H100"}]]


def test_objects_are_sorted_by_name_and_a_name_made_twice_is_refused() -> None:
    a, b = series("u1", Fraction(4), ("small",)), series("cx1", Fraction(2), ("small",))
    assert [o.name for o in instancetype_objects(catalog(a, b))] == ["cx1.small", "u1.small"]
    twice = series("u1", Fraction(4), ("small",))
    with pytest.raises(InputError) as raised:
        unique(series_objects(a, catalog(a), {}) + series_objects(twice, catalog(twice), {}))
    assert str(raised.value) == "series/u1.yaml:1:1: instancetype 'u1.small' is defined twice (also by series/u1.yaml:1)"


def test_max_sockets_match_the_vcpus_of_each_size() -> None:
    sockets = series(sizes=("small", "large", "xlarge"), features={"maxSocketsMatchVCPUs": True})
    assert [(o.name, o.spec["cpu"]) for o in series_objects(sockets, catalog(sockets), {})] == [
        ("cx1.small", {"guest": 1, "maxSockets": 1}), ("cx1.large", {"guest": 2, "maxSockets": 2}),
        ("cx1.xlarge", {"guest": 4, "maxSockets": 4})]


def test_every_name_made_twice_is_named_and_the_rest_still_checked() -> None:
    a = series("u1", Fraction(4), ("small", "large"))
    with pytest.raises(InputError) as raised:
        unique(series_objects(a, catalog(a), {}) * 2)
    assert str(raised.value) == (
        "series/u1.yaml:1:1: instancetype 'u1.large' is defined twice (also by series/u1.yaml:1)\n"
        "series/u1.yaml:1:1: instancetype 'u1.small' is defined twice (also by series/u1.yaml:1)")
