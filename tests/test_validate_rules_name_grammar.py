"""The name-grammar rule on its own: instancetype names are <series><version>.<size>."""

from __future__ import annotations

import pytest

from generator.validate.rules import name_grammar

from tests.ruledocs import CIT, CPREF, NIT, NPREF, findings, obj


def refusal(name: str, index: int = 0) -> str:
    return (f"b.yaml#{index} ({name}) $.metadata.name: instancetype name {name!r} does not follow "
            "<series><version>.<size>, e.g. u1.medium or cx1.2xlarge1gi [name-grammar]")


@pytest.mark.parametrize("name", ["u1.medium", "cx1.2xlarge1gi", "gn1.8xlarge", "rt10.large", "u1.a",
                                  "m1.x-y", "d1.4xlarge"])
def test_names_that_follow_the_grammar(name) -> None:
    assert findings(name_grammar, obj(CIT, name), obj(NIT, name)) == []


@pytest.mark.parametrize("name", ["u.medium", "1.medium", "u1", "u1medium", "u1.large.x", "u1-1.large",
                                  "u1.large-x1.y"])
def test_names_that_break_it_in_both_kinds(name) -> None:
    assert findings(name_grammar, obj(CIT, name), obj(NIT, name)) == [refusal(name, 0), refusal(name, 1)]


def test_preferences_need_not_follow_it() -> None:
    assert findings(name_grammar, obj(CPREF, "windows.11.virtio"), obj(NPREF, "fedora")) == []


def test_names_kubernetes_refuses_are_left_to_object_metadata() -> None:
    """An upper-case or overlong name is object-metadata's finding; this rule says nothing more."""
    assert findings(name_grammar, obj(CIT, "U1.Medium"), obj(CIT, "u1." + "x" * 260), obj(CIT, "u1.large-"),
                    obj(CIT, "cx1..large"), obj(CIT, None), obj(CIT, 5)) == []


def test_names_it_does_not_judge_do_not_stop_the_check_of_the_ones_after_them() -> None:
    assert findings(name_grammar, obj(CPREF, "fedora"), obj(CIT, None), obj(CIT, "U1.Medium"), obj(CIT, "u1")) == [
        refusal("u1", 3)]
