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
    # as kubectl's parser reads a set: "()" and an empty item are the empty value
    assert picks("cpu in (,)", {P + "cpu": ""}) is True
    assert picks("cpu in ()", {P + "cpu": ""}) is True
    assert picks("cpu in (4,)", {P + "cpu": ""}) is True
    assert picks("cpu notin ()", {P + "cpu": ""}) is False
    assert picks("cpu in ()", {P + "cpu": "4"}) is False


@pytest.mark.parametrize("selector, at", [("cpu=4,,numa", 7), ("=4", 1), ("cpu in 4", 1), ("cpu in (4", 1),
                                          ("cpu=4 numa", 1), ("cpu=(4)", 1), ("!", 1), ("cpu=4,!", 7)])
def test_a_selector_that_cannot_be_read_names_the_character(selector, at) -> None:
    with pytest.raises(InputError) as raised:
        parse_selector(selector)
    assert str(raised.value) == (f"--selector: cannot read label selector {selector!r} at character {at}; expected "
                                 "key=value, key!=value, key, !key, key in (a,b) or key notin (a,b), separated by "
                                 "commas")


# --------------------------------------------------------------------------- what kubectl refuses (issue 25)

LABEL_VALUE_RULE = ("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
                    "and must start and end with an alphanumeric character")
NAME_RULE = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric " \
            "character"


@pytest.mark.parametrize("text, why", [
    ("cpu in (4, -x-)", f"'-x-' is not a valid label value: {LABEL_VALUE_RULE}"),
    ("cpu!=4!=5", f"'4!=5' is not a valid label value: {LABEL_VALUE_RULE}"),
    ("a/b/c=1", f"'a/b/c' is not a valid label key: a qualified name {NAME_RULE}, with an optional DNS subdomain "
                "prefix and '/' (e.g. 'example.com/MyName')"),
    ("é=1", f"'instancetype.kubevirt.io/é' is not a valid label key: name part {NAME_RULE}"),
    ("cpu=" + "4" * 64, f"'{'4' * 64}' is not a valid label value: must be no more than 63 characters"),
    ("k" * 64, f"'instancetype.kubevirt.io/{'k' * 64}' is not a valid label key: name part must be no more than "
               "63 characters"),
    ("/cpu", "'/cpu' is not a valid label key: prefix part must be non-empty"),
])
def test_what_kubectl_refuses_in_a_selector_is_refused_in_its_words(text, why):
    with pytest.raises(InputError) as raised:
        parse_selector(text)
    quoted = text if len(text) <= 60 else f"{text[:60]}... ({len(text) - 60} more characters)"
    assert [str(p) for p in raised.value.problems] == [f"--selector: cannot read label selector {quoted!r}: {why}"]


def test_a_selector_of_120000_characters_is_quoted_as_an_excerpt():
    with pytest.raises(InputError) as raised:
        parse_selector("k" * 120_000)
    message = str(raised.value.problems[0])
    assert message.startswith(f"--selector: cannot read label selector '{'k' * 60}... (119940 more characters)': ")
    assert len(message) <= 1100


def test_the_longest_key_and_value_kubectl_takes_are_taken():
    key, value = "k" * 63, "v" * 63
    assert parse_selector(f"example.com/{key}={value}") == (Requirement(f"example.com/{key}", "=", frozenset([value])),)
    assert parse_selector("cpu=") == (Requirement("instancetype.kubevirt.io/cpu", "=", frozenset([""])),)
