"""generator/validate/rules/_objects.py: the tolerant readers rules use on objects that may be malformed.

Every reader answers None (or an empty mapping) for what is missing or of the wrong
type, and never raises: reporting a malformed field is the schema check's job.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from generator.source.documents import BundleDoc
from generator.validate.rules._objects import count, family, labels, of_family, quantity, show_bytes, split_name

from tests.ruledocs import CIT, CPREF, NIT, NPREF, instancetype, preference

GI = 1024**3


def doc(data, index: int = 0) -> BundleDoc:
    return BundleDoc("b.yaml", index, data)


# --------------------------------------------------------------------------- family, of_family


@pytest.mark.parametrize("kind, expected", [
    (CIT, "instancetype"), (NIT, "instancetype"), (CPREF, "preference"), (NPREF, "preference"),
])
def test_each_catalog_kind_belongs_to_its_family(kind: str, expected: str) -> None:
    assert family(doc({"kind": kind})) == expected


@pytest.mark.parametrize("data", [
    {"kind": "VirtualMachine"},
    {"kind": "virtualmachineclusterinstancetype"},
    {"apiVersion": "v1"},
    {"kind": None},
    ["kind", CIT],
    "VirtualMachineClusterInstancetype",
    None,
])
def test_anything_but_the_four_catalog_kinds_is_of_no_family(data) -> None:
    assert family(doc(data)) is None


def test_of_family_keeps_the_documents_of_one_family_in_their_order() -> None:
    docs = [doc(preference(), 0), doc(instancetype("u1.small"), 1), doc({"kind": "Pod"}, 2),
            doc(instancetype("u1.large", kind=NIT), 3), doc(preference("centos", kind=NPREF), 4), doc(None, 5)]
    assert [d.index for d in of_family(docs, "instancetype")] == [1, 3]
    assert [d.index for d in of_family(docs, "preference")] == [0, 4]


def test_of_family_of_no_known_family_yields_nothing() -> None:
    assert list(of_family([doc(instancetype()), doc(preference())], "vm")) == []


# --------------------------------------------------------------------------- labels


def test_labels_are_those_under_metadata() -> None:
    it = instancetype(labels={"vendor": "kubevirt.io", "cpu": "2"})
    assert labels(doc(it)) == {"instancetype.kubevirt.io/vendor": "kubevirt.io", "instancetype.kubevirt.io/cpu": "2"}


def test_labels_of_an_object_without_them_are_empty() -> None:
    assert labels(doc(instancetype())) == {}


@pytest.mark.parametrize("data", [
    {"metadata": {"labels": ["a", "b"]}},
    {"metadata": {"labels": "vendor=kubevirt.io"}},
    {"metadata": {"labels": None}},
    {"metadata": ["labels"]},
    {"labels": {"a": "b"}},
    {"spec": {"metadata": {"labels": {"a": "b"}}}},
    [{"metadata": {"labels": {"a": "b"}}}],
    None,
])
def test_labels_that_are_not_a_mapping_under_metadata_read_as_none_at_all(data) -> None:
    assert labels(doc(data)) == {}


# --------------------------------------------------------------------------- split_name


def test_split_name_splits_at_the_first_dot() -> None:
    assert split_name("cx1.2xlarge1gi") == ("cx1", "2xlarge1gi")
    assert split_name("u1.2xlarge.extra") == ("u1", "2xlarge.extra")


def test_split_name_keeps_an_empty_side() -> None:
    assert split_name(".large") == ("", "large")
    assert split_name("u1.") == ("u1", "")


@pytest.mark.parametrize("name", ["u1large", "", None])
def test_a_name_without_a_dot_does_not_split(name) -> None:
    assert split_name(name) is None


# --------------------------------------------------------------------------- count


@pytest.mark.parametrize("value", [0, 4, -3, 2**40])
def test_an_integer_is_a_count_as_it_is(value: int) -> None:
    assert count(value) == value


def test_a_float_with_an_integral_value_is_the_integer_the_api_server_stores() -> None:
    found = count(4.0)
    assert found == 4 and type(found) is int
    zero = count(-0.0)
    assert zero == 0 and type(zero) is int


@pytest.mark.parametrize("value", [4.5, 0.1, float("inf"), float("-inf"), float("nan"), True, False, "4", None,
                                   [4], Fraction(4)])
def test_anything_else_is_no_count(value) -> None:
    assert count(value) is None


# --------------------------------------------------------------------------- quantity


@pytest.mark.parametrize("value, expected", [
    ("2Gi", Fraction(2 * GI)),
    ("512Mi", Fraction(512 * 1024**2)),
    ("1.5", Fraction(3, 2)),
    ("100m", Fraction(1, 10)),
    (3, Fraction(3)),
    (0, Fraction(0)),
])
def test_a_quantity_is_its_exact_value(value, expected: Fraction) -> None:
    assert quantity(value) == expected


@pytest.mark.parametrize("value, expected", [
    (0.5, Fraction(1, 2)),
    (0.1, Fraction(1, 10)),  # not the binary float nearest 0.1
    (-0.5, Fraction(-1, 2)),
    (2.0, Fraction(2)),
    (1e-07, Fraction(1, 10**7)),
    (1e20, Fraction(10**20)),
])
def test_a_float_is_read_at_its_shortest_decimal_spelling(value: float, expected: Fraction) -> None:
    assert quantity(value) == expected


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan")])
def test_a_float_that_is_not_finite_is_no_quantity(value: float) -> None:
    assert quantity(value) is None


@pytest.mark.parametrize("value", ["2GB", "", "x", "1Gi\n", True, False, None, [1], {"a": 1}, Fraction(1, 2)])
def test_what_does_not_read_as_a_quantity_is_none(value) -> None:
    assert quantity(value) is None


# --------------------------------------------------------------------------- show_bytes


@pytest.mark.parametrize("value, expected", [
    (Fraction(8 * GI), "8Gi"),
    (Fraction(512 * 1024**2), "512Mi"),
    (Fraction(1000), "1000"),
    (Fraction(0), "0"),
])
def test_whole_bytes_are_shown_as_the_catalog_writes_memory(value: Fraction, expected: str) -> None:
    assert show_bytes(value) == expected


@pytest.mark.parametrize("value, expected", [
    (Fraction(3, 2), "1.5"),
    (Fraction(1, 3), "0.333333"),
    (Fraction(GI * 3 + 1, 2), "1.61061e+09"),
])
def test_bytes_that_are_no_whole_number_are_shown_as_a_short_float(value: Fraction, expected: str) -> None:
    assert show_bytes(value) == expected
