"""generator/model.py: the catalog's values and the few rules they carry.

Label keys under instancetype.kubevirt.io/; a series' name from its prefix and version,
and each size's deprecation (its own, the series', the replacement's size of the same
name); the overlay lines of some items, in the order applied and each once; an object's
kinds; requirements as spec and over a base; a preference's deprecation over its family's.
"""

from __future__ import annotations

from fractions import Fraction

from generator.model import (API_VERSION, CLUSTER_KINDS, DEPRECATED_LABEL, DEPRECATED_REPLACEMENT, DEPRECATED_SINCE,
                             FAMILIES, INSTANCETYPE_KINDS, KINDS, LABEL_PREFIX, PREFERENCE_KINDS, CatalogObject,
                             Change, Deprecation, Family, PreferenceDef, Requirements, Series, label, lines_of,
                             preference_deprecation)
from generator.problems import Location

SERIES_AT, SIZE_AT, PREF_AT, FAMILY_AT = (Location("series/u.yaml", n) for n in (1, 9, 3, 2))


def test_labels_and_kinds_are_instancetype_kubevirt_io_s():
    assert (API_VERSION, LABEL_PREFIX) == ("instancetype.kubevirt.io/v1beta1", "instancetype.kubevirt.io/")
    assert label("cpu") == "instancetype.kubevirt.io/cpu" and label("") == LABEL_PREFIX
    assert (DEPRECATED_LABEL, DEPRECATED_SINCE, DEPRECATED_REPLACEMENT) == (
        "instancetype.kubevirt.io/deprecated", "instancetype.kubevirt.io/deprecated-since",
        "instancetype.kubevirt.io/deprecated-replacement")
    assert KINDS == INSTANCETYPE_KINDS + PREFERENCE_KINDS == (
        "VirtualMachineClusterInstancetype", "VirtualMachineInstancetype", "VirtualMachineClusterPreference",
        "VirtualMachinePreference")
    assert CLUSTER_KINDS == ("VirtualMachineClusterInstancetype", "VirtualMachineClusterPreference")
    assert FAMILIES == ("instancetype", "preference")


def series(deprecated: bool = False, deprecation: Deprecation | None = None,
           sizes: dict[str, Deprecation | None] | None = None) -> Series:
    return Series("u", 1, "general.purpose", "U", "d", "icon", Fraction(4), "standard", ("small", "medium"), {}, {},
                  (), deprecated, SERIES_AT, deprecation, sizes or {})


def test_a_series_is_named_by_its_prefix_and_version():
    assert series().name == "u1"


def test_a_size_of_a_current_series_is_current_unless_it_says_otherwise():
    assert series().size_deprecation("small") is None
    own = Deprecation(SIZE_AT, "v1.2.0", "u1.medium")
    assert series(sizes={"small": own}).size_deprecation("small") == own
    assert series(sizes={"small": own}).size_deprecation("medium") is None


def test_each_size_of_a_deprecated_series_is_replaced_by_its_size_in_the_replacement():
    at = Location("series/u.yaml", 3)  # where the series says it is deprecated
    deprecated = series(True, Deprecation(at, "v1.1.0", "u2", Location("series/u.yaml", 4)))
    assert deprecated.size_deprecation("small") == Deprecation(at, "v1.1.0", "u2.small", Location("series/u.yaml", 4))


def test_a_deprecated_series_without_its_own_words_deprecates_each_size_with_nothing_more():
    assert series(True).size_deprecation("small") == Deprecation(SERIES_AT)


def test_false_keeps_a_size_of_a_deprecated_series_current():
    assert series(True, Deprecation(SERIES_AT, "v1.1.0", "u2"), {"small": None}).size_deprecation("small") is None


def test_a_size_s_own_deprecation_takes_the_series_since_and_replacement_where_it_gives_none():
    whole = Deprecation(SERIES_AT, "v1.1.0", "u2")
    named = series(True, whole, {"small": Deprecation(SIZE_AT, None, "u2.medium")}).size_deprecation("small")
    assert named == Deprecation(SIZE_AT, "v1.1.0", "u2.medium")
    bare = series(True, whole, {"small": Deprecation(SIZE_AT)}).size_deprecation("small")
    assert bare == Deprecation(SIZE_AT, "v1.1.0", "u2.small")
    dated = series(True, whole, {"small": Deprecation(SIZE_AT, "v1.0.5")}).size_deprecation("small")
    assert dated == Deprecation(SIZE_AT, "v1.0.5", "u2.small")


def test_the_lines_of_items_are_in_the_order_applied_each_once():
    first, second, third = (Location("overlay.yaml", n) for n in (3, 7, 9))
    changes = [Change(("series", "u1"), second), Change(("matrix", "tiny"), third), Change(("series", "u1"), first),
               Change(("series", "o1"), second), Change(("series", "u1"), second)]
    assert lines_of(changes, ("series", "u1")) == (second, first)
    assert lines_of(changes, ("series", "o1"), ("matrix", "tiny")) == (third, second)
    assert lines_of(changes, ("preference", "fedora")) == ()


def obj(family: str, only: tuple[str, ...] = ()) -> CatalogObject:
    return CatalogObject(family, "x", "x", {}, {}, {}, Location("f"), only_kinds=only)


def test_an_object_has_both_kinds_of_its_family_unless_retained_in_some():
    assert obj("instancetype").kinds == INSTANCETYPE_KINDS
    assert obj("preference").kinds == PREFERENCE_KINDS
    assert obj("preference", ("VirtualMachinePreference",)).kinds == ("VirtualMachinePreference",)


def test_requirements_are_written_as_spec_only_where_set():
    assert Requirements().spec() == {}
    assert Requirements(cpu=2).spec() == {"requirements": {"cpu": {"guest": 2}}}
    assert Requirements(memory="2Gi").spec() == {"requirements": {"memory": {"guest": "2Gi"}}}
    assert Requirements(0, "0").spec() == {"requirements": {"cpu": {"guest": 0}, "memory": {"guest": "0"}}}


def test_requirements_over_a_base_take_from_it_only_what_they_leave_unset():
    base = Requirements(1, "1Gi", Location("family.yaml", 1))
    assert Requirements(cpu=4).over(base) == Requirements(4, "1Gi", Location("family.yaml", 1))
    assert Requirements(memory="8Gi", location=PREF_AT).over(base) == Requirements(1, "8Gi", PREF_AT)
    assert Requirements(0).over(base).cpu == 0


def family(deprecated: bool = False, deprecation: Deprecation | None = None) -> Family:
    return Family("fedora", "linux", None, None, (), Requirements(), deprecated, FAMILY_AT, deprecation=deprecation)


def preference(deprecated: bool | None = None, deprecation: Deprecation | None = None) -> PreferenceDef:
    return PreferenceDef("fedora", "fedora", "d", PREF_AT, deprecated=deprecated, deprecation=deprecation)


def test_a_preference_of_a_current_family_is_current_unless_it_says_otherwise():
    assert preference_deprecation(preference(), family()) is None
    assert preference_deprecation(preference(True), family()) == Deprecation(PREF_AT)
    own = Deprecation(PREF_AT, "v1.3.0", "fedora.new")
    assert preference_deprecation(preference(True, own), family()) == own


def test_a_preference_of_a_deprecated_family_takes_the_family_s_deprecation_unless_it_says_otherwise():
    whole = Deprecation(FAMILY_AT, "v1.1.0")
    assert preference_deprecation(preference(), family(True, whole)) == whole
    assert preference_deprecation(preference(), family(True)) == Deprecation(FAMILY_AT)
    assert preference_deprecation(preference(False), family(True, whole)) is None
    named = Deprecation(PREF_AT, None, "fedora.new")
    assert preference_deprecation(preference(True, named), family(True, whole)) == Deprecation(
        PREF_AT, "v1.1.0", "fedora.new")
    dated = Deprecation(PREF_AT, "v1.0.0")
    assert preference_deprecation(preference(True, dated), family(True, whole)) == dated


def test_a_family_s_since_reaches_a_preference_only_while_the_family_is_deprecated():
    stale = family(False, Deprecation(FAMILY_AT, "v1.1.0"))
    assert preference_deprecation(preference(True), stale) == Deprecation(PREF_AT)
