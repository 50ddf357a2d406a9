"""The series-ratio rule on its own: memory is the series' GiB per vCPU, except for declared sizes."""

from __future__ import annotations

from fractions import Fraction

from generator.validate.rules import series_ratio
from generator.validate.rules.base import RuleContext, SeriesRatio

from tests.ruledocs import CPREF, NIT, findings, instancetype, obj

CTX = RuleContext(series={"u1": SeriesRatio(Fraction(4), frozenset({"nano", "medium1gi"})),
                          "cx1": SeriesRatio(Fraction(2)),
                          "o1": SeriesRatio(Fraction(1, 2))})


def test_memory_at_the_ratio_passes_however_it_is_written() -> None:
    assert findings(series_ratio, instancetype("u1.large", 2, "8Gi"), instancetype("u1.xlarge", 4, "16384Mi"),
                    instancetype("o1.large", 3, "1536Mi"), instancetype("cx1.small", 1, 2 * 1024 ** 3),
                    ctx=CTX) == []


def test_memory_above_or_below_the_ratio() -> None:
    assert findings(series_ratio, instancetype("u1.large", 2, "9Gi"), instancetype("cx1.large", 1, "1Gi"),
                    ctx=CTX) == [
        "b.yaml#0 (u1.large) $.spec.memory.guest: 2 vCPUs with '9Gi' of memory break series u1's ratio of "
        "4Gi per vCPU (expected 8Gi), and large is not a declared exception [series-ratio]",
        "b.yaml#1 (cx1.large) $.spec.memory.guest: 1 vCPU with '1Gi' of memory break series cx1's ratio of "
        "2Gi per vCPU (expected 2Gi), and large is not a declared exception [series-ratio]"]


def test_a_fraction_of_a_gib_per_vcpu() -> None:
    assert findings(series_ratio, instancetype("o1.large", 3, "1Gi"), ctx=CTX) == [
        "b.yaml#0 (o1.large) $.spec.memory.guest: 3 vCPUs with '1Gi' of memory break series o1's ratio of "
        "512Mi per vCPU (expected 1536Mi), and large is not a declared exception [series-ratio]"]


def test_declared_exceptions_are_exact_sizes() -> None:
    """nano and medium1gi are exempt; medium (not declared) is held to the ratio."""
    assert findings(series_ratio, instancetype("u1.nano", 1, "512Mi"), instancetype("u1.medium1gi", 1, "1Gi"),
                    instancetype("u1.medium", 1, "1Gi"), ctx=CTX) == [
        "b.yaml#2 (u1.medium) $.spec.memory.guest: 1 vCPU with '1Gi' of memory break series u1's ratio of "
        "4Gi per vCPU (expected 4Gi), and medium is not a declared exception [series-ratio]"]


def test_what_the_rule_cannot_judge_is_left_alone() -> None:
    """Series it does not know, preferences, malformed values and names without a size."""
    assert findings(series_ratio, instancetype("n1.large", 2, "1Gi"), instancetype("u1.large", "two", "8Gi"),
                    instancetype("u1.large", 2, "lots"), obj(CPREF, "u1.large"), obj(NIT, "u1large"),
                    instancetype("U1.large", 2, "1Gi"), ctx=CTX) == []


def test_without_series_nothing_is_checked() -> None:
    assert findings(series_ratio, instancetype("u1.large", 2, "1Gi")) == []


def test_the_namespaced_kind_is_held_to_the_ratio_too() -> None:
    assert findings(series_ratio, instancetype("cx1.large", 2, "3Gi", kind=NIT), ctx=CTX) == [
        "b.yaml#0 (cx1.large) $.spec.memory.guest: 2 vCPUs with '3Gi' of memory break series cx1's ratio of "
        "2Gi per vCPU (expected 4Gi), and large is not a declared exception [series-ratio]"]


def test_instancetypes_not_held_to_a_ratio_do_not_stop_the_check_of_the_ones_after_them() -> None:
    """A preference, a name of no known series, a size without a dot and unreadable sizes are passed over."""
    unreadable = instancetype("cx1.small", "two", "lots")
    assert findings(series_ratio, obj(CPREF, "u1.large"), instancetype("zz1.large", 2, "1Gi"),
                    instancetype("nodot", 2, "1Gi"), unreadable, instancetype("u1.large", 2, "9Gi"), ctx=CTX) == [
        "b.yaml#4 (u1.large) $.spec.memory.guest: 2 vCPUs with '9Gi' of memory break series u1's ratio of "
        "4Gi per vCPU (expected 8Gi), and large is not a declared exception [series-ratio]"]
