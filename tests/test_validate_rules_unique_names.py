"""The unique-names rule on its own: a name appears once per kind."""

from __future__ import annotations

from generator.validate.rules import unique_names

from tests.ruledocs import CIT, CPREF, NIT, findings, obj


def test_one_name_in_several_kinds_is_no_duplicate() -> None:
    assert findings(unique_names, obj(CIT, "u1.large"), obj(NIT, "u1.large"), obj(CPREF, "u1.large")) == []


def test_every_repeat_names_the_first() -> None:
    assert findings(unique_names, obj(CIT, "u1.large"), obj(CIT, "u1.small"), obj(CIT, "u1.large"),
                    obj(CIT, "u1.large")) == [
        "b.yaml#2 (u1.large) $.metadata.name: duplicate VirtualMachineClusterInstancetype name 'u1.large' "
        "(first defined at b.yaml#0) [unique-names]",
        "b.yaml#3 (u1.large) $.metadata.name: duplicate VirtualMachineClusterInstancetype name 'u1.large' "
        "(first defined at b.yaml#0) [unique-names]"]


def test_objects_without_a_kind_or_name_are_not_compared() -> None:
    nameless = obj(CIT, None)
    kindless = obj(CIT, "u1.large")
    del kindless["kind"]
    assert findings(unique_names, nameless, nameless, kindless, kindless, "text", "text") == []


def test_duplicates_after_an_object_without_a_name_are_found() -> None:
    assert findings(unique_names, obj(CIT, None), obj(CIT, "u1.large"), obj(CIT, "u1.large")) == [
        "b.yaml#2 (u1.large) $.metadata.name: duplicate VirtualMachineClusterInstancetype name 'u1.large' "
        "(first defined at b.yaml#1) [unique-names]"]
