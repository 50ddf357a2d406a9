"""generator/tools/refs/params.py: template parameters, ``${NAME}`` and ``${{NAME}}``, resolved through their defaults.

A parameter's default is its non-empty ``value``; one that is generated, required or
has no value is known only when the template is processed, and a name that uses it is
unchecked, with the reason. A parameter the template does not define is a mistake for
a strict engine (virt-template) and text left as written for OpenShift.
"""

from __future__ import annotations

import pytest

from generator.tools.refs.params import (STRING_PARAMETER, WHOLE_PARAMETER, Parameter, Parameters, Resolved,
                                         parameters, resolve)

ITEMS = [
    {"name": "IT", "value": "u1.small"},
    {"name": "GEN", "generate": "expression", "from": "[a-z]{8}"},
    {"name": "REQ", "required": True},
    {"name": "NONE"},
    {"name": "EMPTY", "value": ""},
    {"value": "no name"},
    "not a mapping",
    {"name": 3, "value": "a number"},
    {"name": "NUMBER", "value": 3},
    {"name": "GEN_EMPTY", "generate": ""},
    {"name": "REQ_TEXT", "required": "true"},
]


def strict() -> Parameters:
    """ITEMS as virt-template reads them, made in each test that uses them (mutmut ties a function to the tests
    that call it, and a value made at import is made by none)."""
    return parameters(ITEMS, "virt-template", strict=True, at=("parameters",))


def lenient() -> Parameters:
    return parameters(ITEMS, "OpenShift", strict=False, at=("parameters",))

NO_DEFAULT = "has no default value: it is empty unless given when the template is processed"


def test_each_named_parameter_has_its_default_or_why_it_has_none():
    assert strict() == Parameters("virt-template", {
        "IT": Parameter("IT", "u1.small", None, ("parameters", 0, "value")),
        "GEN": Parameter("GEN", None, "is generated (expression) when the template is processed"),
        "REQ": Parameter("REQ", None, "is required and has no default: it is given when the template is processed"),
        "NONE": Parameter("NONE", None, NO_DEFAULT),
        "EMPTY": Parameter("EMPTY", None, NO_DEFAULT),
        "NUMBER": Parameter("NUMBER", None, NO_DEFAULT),
        "GEN_EMPTY": Parameter("GEN_EMPTY", None, NO_DEFAULT),
        "REQ_TEXT": Parameter("REQ_TEXT", None, NO_DEFAULT),
    }, True)


def test_of_two_parameters_of_one_name_the_later_counts():
    given = parameters([{"name": "A", "value": "first"}, {"name": "A", "value": "second"}], "e", strict=True, at=())
    assert given.known == {"A": Parameter("A", "second", None, (1, "value"))}


@pytest.mark.parametrize("items", ["a string", None, {"name": "A"}])
def test_parameters_that_are_no_list_are_none(items: object):
    assert parameters(items, "e", strict=False, at=()) == Parameters("e", {}, False)


def test_text_without_a_parameter_is_itself():
    assert resolve("u1.small", strict()) == Resolved("u1.small")
    assert resolve("x${{IT}}", strict()) == Resolved("x${{IT}}")  # ${{...}} only as the whole string


@pytest.mark.parametrize("text", ["${IT}", "${{IT}}"])
def test_one_parameter_as_the_whole_text_is_its_default_written_where_its_value_is(text: str):
    assert resolve(text, strict()) == Resolved("u1.small", parameter="IT", at=("parameters", 0, "value"))


def test_parameters_inside_text_are_replaced_each_time_and_the_first_is_named():
    assert resolve("pre-${IT}-post", strict()) == Resolved("pre-u1.small-post", parameter="IT")
    assert resolve("${IT}.${IT}", strict()) == Resolved("u1.small.u1.small", parameter="IT")


@pytest.mark.parametrize("text, name", [("${GEN}", "GEN"), ("x-${REQ}", "REQ"), ("${NONE}", "NONE"),
                                        ("${{EMPTY}}", "EMPTY")])
def test_a_parameter_without_a_default_leaves_the_text_unchecked_saying_why(text: str, name: str):
    found = resolve(text, strict())
    assert (found.text, found.parameter, found.undefined) == (None, name, None)
    assert found.unchecked == f"parameter {name} {strict().known[name].missing}"


def test_of_two_parameters_the_first_without_a_default_decides():
    assert resolve("${IT}-${GEN}-${REQ}", strict()) == Resolved(
        None, "parameter GEN is generated (expression) when the template is processed", "GEN")


def test_an_undefined_parameter_is_a_mistake_for_a_strict_engine_and_text_left_as_written_for_openshift():
    assert resolve("${ZZ}", strict()) == Resolved(None, "${ZZ} names no parameter of the template", "ZZ",
                                                undefined="ZZ")
    assert resolve("${{ZZ}}", strict()) == Resolved(None, "${{ZZ}} names no parameter of the template", "ZZ",
                                                  undefined="ZZ")
    assert resolve("${IT}-${ZZ}", lenient()) == Resolved(
        None, "${ZZ} names no parameter of the template; OpenShift leaves it as written", "ZZ")


def test_a_parameter_name_is_letters_digits_and_underscores():
    assert STRING_PARAMETER.findall("${A_1} ${a-b} ${} ${{B}}") == ["A_1"]
    assert WHOLE_PARAMETER.fullmatch("${{B_2}}").group(1) == "B_2" and WHOLE_PARAMETER.fullmatch("${{B}} ") is None
