"""query/selector.py on its own: label selectors as ``kubectl get -l`` reads them."""

from __future__ import annotations

import pytest

from generator.errors import InputError
from generator.query.selector import Requirement, matches, parse_selector

P = "instancetype.kubevirt.io/"
LABELS = {P + "cpu": "4", P + "memory": "16Gi", P + "numa": "true", "example.com/team": "a"}


def picks(selector: str, labels: dict = LABELS) -> bool:
    return matches(parse_selector(selector), labels)


def test_each_form_of_requirement() -> None:
    assert parse_selector("cpu=4, memory==16Gi,gpus!=true,numa,!hugepages,cpu in (2, 4),size notin (nano)") == (
        Requirement(P + "cpu", "=", frozenset({"4"})),
        Requirement(P + "memory", "=", frozenset({"16Gi"})),
        Requirement(P + "gpus", "!=", frozenset({"true"})),
        Requirement(P + "numa", "exists"),
        Requirement(P + "hugepages", "!exists"),
        Requirement(P + "cpu", "in", frozenset({"2", "4"})),
        Requirement(P + "size", "notin", frozenset({"nano"})),
    )


def test_a_key_with_a_prefix_is_taken_as_written() -> None:
    assert parse_selector("example.com/team=a") == (Requirement("example.com/team", "=", frozenset({"a"})),)


@pytest.mark.parametrize("selector, picked", [
    ("cpu=4", True), ("cpu=2", False), ("cpu==4", True), ("cpu!=4", False), ("cpu!=2", True),
    ("gpus!=true", True),  # != also matches when the label is absent
    ("numa", True), ("gpus", False), ("!gpus", True), ("!numa", False),
    ("cpu in (2,4)", True), ("cpu in (2,8)", False), ("gpus in (true)", False),
    ("cpu notin (2,8)", True), ("cpu notin (4)", False), ("gpus notin (true)", True),
    ("cpu=4,numa", True), ("cpu=4,!numa", False), ("", True),
    ("example.com/team=a", True), ("team=a", False), ("cpu=", False), ("hugepages=", False),
])
def test_what_a_selector_picks(selector, picked) -> None:
    assert picks(selector) is picked


def test_an_empty_value_matches_an_empty_label() -> None:
    assert picks("cpu=", {P + "cpu": ""})
    assert picks("cpu in (,)", {P + "cpu": ""}) is False  # empty items are dropped from a set


@pytest.mark.parametrize("selector, at", [("cpu=4,,numa", 7), ("=4", 1), ("cpu in 4", 1), ("cpu in (4", 1),
                                          ("cpu=4 numa", 1), ("cpu=(4)", 1), ("!", 1), ("cpu=4,!", 7)])
def test_a_selector_that_cannot_be_read_names_the_character(selector, at) -> None:
    with pytest.raises(InputError) as raised:
        parse_selector(selector)
    assert str(raised.value) == (f"--selector: cannot read label selector {selector!r} at character {at}; expected "
                                 "key=value, key!=value, key, !key, key in (a,b) or key notin (a,b), separated by "
                                 "commas")
