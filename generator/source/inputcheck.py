"""Check a hand-written catalog file against the JSON Schema of its format.

A file that is right (nearly every file of every build) is recognised by the
format's compiled yes/no check (schema_fast.py). For the others jsonschema finds
what is wrong, and this module turns each finding into a Problem that names the
file, line and column and says what was expected in words a catalog author
understands (with the closest known key for a misspelt one). jsonschema is
imported only then: a build of a valid catalog does not pay for its import.
Schemas may carry ``x-expected`` on a node: a phrase used when a value there
breaks a pattern, format or range ("a ratio such as 1:4").
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from .. import quantity
from ..objectmeta import label_value_problem
from ..problems import Path, Problem
from .schema_fast import Check, compile_schema, strict_validator_class
from .yamlsrc import Document

if TYPE_CHECKING:
    import jsonschema


def _is_quantity(value: object) -> bool:
    if not isinstance(value, str):
        return True
    if quantity.parse(value) <= 0:
        raise quantity.QuantityError(f"expected a quantity greater than zero, got {value!r}")
    return True


class LabelValueError(ValueError):
    """A value that would become a label value the API server refuses."""


def _is_label_value(value: object) -> bool:
    if not isinstance(value, str):
        return True
    problem = label_value_problem(value)
    if problem:
        raise LabelValueError(problem)
    return True


#: The ``format`` values catalog files use, for the fast check and for jsonschema alike.
#: ``label-value`` is generator/objectmeta.py's check, so a class, icon, vendor or version is held
#: to exactly what the object-metadata rule holds the finished label to.
FORMATS = {"quantity": _is_quantity, "label-value": _is_label_value}

# Compiled once per schema object (schemas are module constants). An entry holds its
# schema, so the id it is keyed by cannot be taken by another object meanwhile.
_validators: dict[int, tuple[Mapping[str, Any], "jsonschema.Draft202012Validator"]] = {}
_checks: dict[int, tuple[Mapping[str, Any], Check | None]] = {}


def validator_for(schema: Mapping[str, Any]) -> "jsonschema.Draft202012Validator":
    """jsonschema's validator of ``schema``, checking the formats of FORMATS.

    Its "integer" is schema_fast.whole_number, as in the compiled check: ``1.0``,
    ``true`` and ``"4"`` are not whole numbers in a catalog file.
    """
    found = _validators.get(id(schema))
    if found is None or found[0] is not schema:
        from jsonschema import FormatChecker

        formats = FormatChecker(formats=())
        for name, check in FORMATS.items():
            formats.checks(name, raises=ValueError)(check)
        found = _validators[id(schema)] = (schema, strict_validator_class()(schema, format_checker=formats))
    return found[1]


def quick_check_for(schema: Mapping[str, Any]) -> Check | None:
    """``schema`` compiled to a yes/no check (schema_fast.py); None if it cannot be."""
    found = _checks.get(id(schema))
    if found is None or found[0] is not schema:
        found = _checks[id(schema)] = (schema, compile_schema(schema, FORMATS))
    return found[1]


def describe(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if value is None:
        return "nothing (null)"
    return repr(value)


_TYPE_WORDS = {
    "object": "a mapping",
    "array": "a list",
    "string": "a string",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
}


def _expected_type(types: Any) -> str:
    if isinstance(types, str):
        types = [types]
    return " or ".join(_TYPE_WORDS.get(t, t) for t in types)


def _number_for_integer(error: jsonschema.ValidationError) -> bool:
    """A type error of a float (not a bool) where a whole number is expected."""
    types = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
    return type(error.instance) is float and "integer" in types


def _leaf_errors(error: jsonschema.ValidationError) -> Iterable[jsonschema.ValidationError]:
    """Descend into anyOf/oneOf to the branch that got furthest, for a precise message."""
    if error.validator in ("anyOf", "oneOf") and error.context:
        expected = error.schema.get("x-expected")
        if expected:
            yield error
            return
        branches: dict[Any, list[jsonschema.ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        # A branch whose type does not fit the value has nothing to say about it:
        # for a vCPU count of 0, "expected a mapping" would only mislead.
        # A number that is not whole (1.0, 1.5) does fit a branch that wants a whole
        # number better than any other: "expected a whole number, got 1.0" says it all.
        depth = len(error.absolute_path)
        fitting = [sub for subs in branches.values()
                   if not any(e.validator == "type" and len(e.absolute_path) == depth
                              and not _number_for_integer(e) for e in subs)
                   for sub in subs]
        if not fitting:
            yield error  # no branch fits: _message names every type that would
            return
        deepest = max(len(e.absolute_path) for e in fitting)
        for sub in fitting:
            if len(sub.absolute_path) == deepest:
                yield from _leaf_errors(sub)
        return
    yield error


def _message(error: jsonschema.ValidationError) -> tuple[Path, str, bool]:
    """(path, message, whether it points at the key rather than the value)."""
    path: Path = tuple(error.absolute_path)
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    expected = schema.get("x-expected")
    kind = error.validator
    if kind == "required":
        # jsonschema reports each missing key as its own error, naming it only in the message
        missing = error.message.split("'")[1] if error.message.count("'") >= 2 else "?"
        return path, f"missing required key '{missing}'", False
    if expected:
        return path, f"expected {expected}, got {describe(error.instance)}", False
    if kind == "type":
        return path, f"expected {_expected_type(error.validator_value)}, got {describe(error.instance)}", False
    if kind in ("anyOf", "oneOf"):
        types = [t for branch in error.validator_value if isinstance(branch, Mapping)
                 for t in ([branch["type"]] if isinstance(branch.get("type"), str) else branch.get("type", []))]
        if types:
            return path, f"expected {_expected_type(list(dict.fromkeys(types)))}, got {describe(error.instance)}", False
    if kind == "enum":
        allowed = ", ".join(str(v) for v in error.validator_value)
        return path, f"expected one of {allowed}, got {describe(error.instance)}", False
    if kind == "format" and error.cause is not None:
        return path, str(error.cause), False
    if kind in ("minimum", "exclusiveMinimum"):
        bound = error.validator_value
        word = "at least" if kind == "minimum" else "greater than"
        return path, f"expected a number {word} {bound}, got {describe(error.instance)}", False
    if kind == "maximum":
        return path, f"expected a number at most {error.validator_value}, got {describe(error.instance)}", False
    if kind == "minProperties":
        return path, "expected at least one entry, got an empty mapping", False
    if kind == "minLength" and error.validator_value == 1:
        return path, "expected a non-empty string, got ''", False
    if kind == "minItems":
        return path, "expected at least one item, got an empty list", False
    return path, error.message, False


def schema_problems(document: Document, schema: Mapping[str, Any]) -> list[Problem]:
    """Every way ``document`` breaks ``schema``, located and worded for people."""
    quick = quick_check_for(schema)
    if quick is not None and quick(document.data):
        return []
    problems: list[Problem] = []
    seen: set[tuple[Path, str]] = set()
    for error in validator_for(schema).iter_errors(document.data):
        for leaf in _leaf_errors(error):
            if leaf.validator == "additionalProperties":
                known = sorted(leaf.schema.get("properties", {}))
                for key in sorted(set(leaf.instance) - set(known), key=str):
                    close = difflib.get_close_matches(str(key), known, n=1)
                    hint = f" (did you mean '{close[0]}'?)" if close else ""
                    path = tuple(leaf.absolute_path) + (key,)
                    message = f"unknown key '{key}'{hint}; expected one of: {', '.join(known)}"
                    if (path, message) not in seen:
                        seen.add((path, message))
                        problems.append(document.source.problem(path, message, key=True))
                continue
            path, message, at_key = _message(leaf)
            if (path, message) not in seen:
                seen.add((path, message))
                problems.append(document.source.problem(path, message, key=at_key))
    return problems
