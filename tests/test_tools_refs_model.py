"""generator/tools/refs/model.py: the values the scan hands the judge.

They are frozen values: equal when their fields are, usable as keys, each field as
documented (a Reference's ``unchecked`` and ``parameter`` are None unless given; an
Owner's key tells apart two objects of one name).
"""

from __future__ import annotations

import dataclasses
from typing import get_args

import pytest

from generator.problems import Location, Problem
from generator.tools.refs.model import Definition, Family, Owner, Reference, Scan

WEB = Owner("vm.yaml#0", "VirtualMachine", "web", "vms")
AT = Location("vm.yaml", 8, 11, ("spec", "preference", "name"))


def test_the_two_families():
    assert get_args(Family) == ("instancetype", "preference")


def test_a_reference_is_unchecked_and_without_a_parameter_unless_given():
    reference = Reference("preference", "fedora", None, WEB, AT, "spec.preference")
    assert (reference.unchecked, reference.parameter) == (None, None)
    unknown = Reference("preference", None, None, WEB, AT, "spec.preference", unchecked="parameter P has no default",
                        parameter="P")
    assert dataclasses.astuple(unknown)[-2:] == ("parameter P has no default", "P")


def test_two_owners_of_one_name_in_two_documents_are_two_keys():
    other = Owner("vm.yaml#1", "VirtualMachine", "web", "vms")
    assert WEB != other and len({WEB, other, Owner("vm.yaml#0", "VirtualMachine", "web", "vms")}) == 2


def test_the_values_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        WEB.name = "db"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        Definition("preference", "VirtualMachinePreference", "mine", None, AT).namespace = "x"  # type: ignore[misc]


def test_a_scan_holds_what_was_read_in_its_fields_order():
    reference = Reference("instancetype", "u1.small", "VirtualMachineClusterInstancetype", WEB, AT, "spec.instancetype")
    definition = Definition("preference", "VirtualMachinePreference", "mine", "vms", Location("p.yaml", 1))
    problem = Problem(Location("bad.yaml", 1), "malformed YAML")
    scan = Scan((reference,), (definition,), 2, ("notes.txt",), (problem,))
    assert [f.name for f in dataclasses.fields(Scan)] == ["references", "definitions", "files", "skipped", "problems",
                                                           "notes", "read"]
    assert scan.notes == ()  # what the reader says of a kustomization it read as plain files
    assert scan == Scan((reference,), (definition,), 2, ("notes.txt",), (problem,))
    assert scan != Scan((reference, reference), (definition,), 2, ("notes.txt",), (problem,))
