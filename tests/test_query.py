"""generator/query/__init__.py: which catalog objects a Query picks, criterion by criterion."""

from __future__ import annotations

from fractions import Fraction

import pytest

from generator.model import INSTANCETYPE_KINDS, PREFERENCE_KINDS, CatalogObject
from generator.problems import Location
from generator.query import Query, parse_selector

GIB = 1024 ** 3


def instancetype(name: str, group: str, cpu: int, memory: int, only_kinds: tuple[str, ...] = (),
                 **labels: str) -> CatalogObject:
    return CatalogObject("instancetype", name, group, labels, {}, {}, Location("series/x.yaml"),
                         facts={"cpu": cpu, "memory": memory}, only_kinds=only_kinds)


def preference(name: str, group: str) -> CatalogObject:
    return CatalogObject("preference", name, group, {}, {}, {}, Location("preferences/x.yaml"))


U_SMALL = instancetype("u1.small", "u", 1, 2 * GIB, **{"instancetype.kubevirt.io/size": "small"})
U_LARGE = instancetype("u1.large", "u", 2, 8 * GIB, **{"instancetype.kubevirt.io/size": "large"})
CX_LARGE = instancetype("cx1.large", "cx", 2, 4 * GIB, **{"instancetype.kubevirt.io/size": "large"})
FEDORA = preference("fedora", "fedora")
CATALOG = [U_SMALL, U_LARGE, CX_LARGE, FEDORA]


def names(query: Query, objects=CATALOG) -> list[str]:
    return [o.name for o in query.select(objects)]


def test_the_default_query_picks_every_instancetype_in_the_order_given():
    assert names(Query()) == ["u1.small", "u1.large", "cx1.large"]
    assert names(Query(), [CX_LARGE, U_SMALL]) == ["cx1.large", "u1.small"]


def test_a_query_for_preferences_picks_the_preferences_only():
    assert names(Query(family="preference")) == ["fedora"]


@pytest.mark.parametrize("series, expected", [
    (("u",), ["u1.small", "u1.large"]),       # a series by its prefix (the object's group)
    (("cx1",), ["cx1.large"]),                # by its versioned name (the name before the dot)
    (("u", "cx"), ["u1.small", "u1.large", "cx1.large"]),
    (("o",), []),
    (("large",), []),                         # a size is no series
])
def test_series_are_picked_by_prefix_or_versioned_name(series, expected):
    assert names(Query(series=series)) == expected


def test_vcpus_and_memory_each_narrow_to_an_exact_match():
    assert names(Query(cpu=2)) == ["u1.large", "cx1.large"]
    assert names(Query(cpu=3)) == []
    assert names(Query(memory=Fraction(8 * GIB))) == ["u1.large"]
    assert names(Query(cpu=2, memory=Fraction(4 * GIB))) == ["cx1.large"]
    assert names(Query(cpu=1, memory=Fraction(8 * GIB))) == []


def test_an_object_without_a_memory_fact_has_none_and_matches_only_zero():
    bare = CatalogObject("instancetype", "n1.x", "n", {}, {}, {}, Location("s.yaml"), facts={"cpu": 1})
    assert names(Query(memory=Fraction(0)), [bare]) == ["n1.x"]
    assert names(Query(memory=Fraction(GIB)), [bare]) == []


def test_every_requirement_of_the_selector_must_hold():
    assert names(Query(selector=parse_selector("instancetype.kubevirt.io/size=large"))) == ["u1.large", "cx1.large"]
    assert names(Query(series=("u",), selector=parse_selector("instancetype.kubevirt.io/size=large"))) == [
        "u1.large"]
    assert names(Query(selector=parse_selector("instancetype.kubevirt.io/size=large,!instancetype.kubevirt.io/size"))
                 ) == []


def test_an_object_kept_in_its_namespaced_kind_only_is_not_listed():
    """The list shows cluster objects; one an old bundle kept only as a namespaced kind has none."""
    namespaced = instancetype("u1.old", "u", 1, GIB, only_kinds=(INSTANCETYPE_KINDS[1],))
    clustered = instancetype("u1.kept", "u", 1, GIB, only_kinds=(INSTANCETYPE_KINDS[0],))
    assert names(Query(), [namespaced, clustered]) == ["u1.kept"]
    odd = preference("p", "p")
    assert odd.kinds == PREFERENCE_KINDS and names(Query(family="preference"), [odd]) == ["p"]
