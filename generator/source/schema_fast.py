"""A fast yes/no check of an object against a shipped schema, compiled to Python closures.

jsonschema walks the schema anew for every object, which costs about a quarter of a
millisecond per catalog object: most of a large build. Almost every object is valid,
and "is it valid?" needs none of that machinery, so each schema is compiled once into
nested closures that answer only that question. Only when the answer is "no" does
generator/schemas/ run jsonschema to find and explain the errors, so messages are unchanged.

The compiled check may be stricter than JSON Schema, never more lenient: a keyword it
does not know makes the whole schema uncompilable (every object then goes the slow
way), and a value it is unsure about (a float where an integer is expected, a bool in
an enum) counts as invalid and is left to jsonschema to judge.

The catalog's own input formats (formats/) are compiled the same way, with their
``format`` checks passed in: a valid catalog is loaded without importing jsonschema.

What "integer" means is decided here, once, for both checks. JSON Schema counts
``1.0`` as an integer (and jsonschema follows it), but a vCPU count of 1.0 in a file
someone wrote is a mistake worth naming, and ``True`` is not 1 in a catalog even
though Python says so. ``whole_number`` is that rule; ``strict_validator`` is
jsonschema's validator with the same rule, so that what the compiled check refuses
jsonschema also explains ("expected a whole number, got 1.0").
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, Mapping, Optional

from ..patterns import ecma_search

if TYPE_CHECKING:  # jsonschema is imported only to explain a refusal
    import jsonschema

Check = Callable[[Any], bool]
#: A ``format`` check: True, or False or any ValueError for a value that breaks it.
FormatCheck = Callable[[Any], bool]

#: Keywords that never change whether an object is valid (annotations), as the
#: schema validator is built without a format checker.
_ANNOTATIONS = frozenset({"$schema", "$defs", "$comment", "title", "description", "format", "default",
                          "examples", "x-kubernetes-preserve-unknown-fields"})
_KNOWN = frozenset({"type", "$ref", "properties", "additionalProperties", "required", "items",
                    "enum", "const", "pattern", "minimum", "maximum", "minLength", "maxLength",
                    "minItems", "maxItems", "minProperties", "maxProperties", "propertyNames",
                    "dependentRequired", "anyOf", "allOf", "if", "then", "else"}) | _ANNOTATIONS
_LENGTH = {"minLength": str, "maxLength": str, "minItems": list, "maxItems": list,
           "minProperties": dict, "maxProperties": dict}


def whole_number(value: Any) -> bool:
    """An integer as a person writing YAML means it: an int, never a bool or a float such as 1.0."""
    return type(value) is int


@lru_cache(maxsize=None)
def strict_validator_class() -> type["jsonschema.Draft202012Validator"]:
    """jsonschema's Draft 2020-12 validator whose "integer" is ``whole_number``.

    Used wherever a hand-written file is explained (the catalog's input formats,
    spec fragments), so that jsonschema refuses exactly what the compiled check does.
    """
    from jsonschema import Draft202012Validator, ValidationError, validators

    def pattern(_validator: Any, expected: str, value: Any, _schema: Any) -> Iterator[ValidationError]:
        """JSON Schema's ``pattern`` as ECMA-262 reads it: ``$`` is the end of the text, not of its last line."""
        if isinstance(value, str) and ecma_search(expected)(value) is None:
            yield ValidationError(f"{value!r} does not match {expected!r}")

    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", lambda _checker, value: whole_number(value))
    return validators.extend(Draft202012Validator, {"pattern": pattern}, type_checker=checker)


class Uncompilable(Exception):
    """The schema uses something the fast check does not implement."""


def _is_type(name: str) -> Check:
    if name == "object":
        return lambda v: type(v) is dict
    if name == "array":
        return lambda v: type(v) is list
    if name == "string":
        return lambda v: type(v) is str
    if name == "integer":
        return whole_number
    if name == "number":
        return lambda v: type(v) is int or type(v) is float
    if name == "boolean":
        return lambda v: type(v) is bool
    if name == "null":
        return lambda v: v is None
    raise Uncompilable(f"type {name!r}")


def _plain(value: Any) -> bool:
    """Values whose == agrees with JSON equality (no bool/int or int/float confusion)."""
    return type(value) in (str, int, type(None))


def _length(kind: type, bound: int, most: bool) -> Check:
    """minLength and its kin: the bound on len() of a value of ``kind`` (others pass)."""
    if most:
        return lambda v: type(v) is not kind or len(v) <= bound
    return lambda v: type(v) is not kind or len(v) >= bound


def _format(check: FormatCheck) -> Check:
    def passes(v: Any) -> bool:
        try:
            return bool(check(v))
        except ValueError:
            return False
    return passes


class _Compiler:
    def __init__(self, root: Mapping[str, Any], formats: Mapping[str, FormatCheck]):
        self.root = root
        self.formats = formats
        self.refs: Dict[str, Optional[Check]] = {}

    def ref(self, target: str) -> Check:
        if not target.startswith("#/$defs/"):
            raise Uncompilable(f"$ref {target!r}")
        if target not in self.refs:
            self.refs[target] = None  # a recursive reference finds it while compiling
            name = target[len("#/$defs/"):]
            try:
                schema = self.root["$defs"][name]
            except (KeyError, TypeError):
                raise Uncompilable(f"$ref {target!r} not found") from None
            self.refs[target] = self.compile(schema)
        refs = self.refs
        return lambda v: refs[target](v)  # type: ignore[misc]

    def compile(self, schema: Any) -> Check:
        """One check for a whole (sub)schema: every keyword's checks, all of which must pass."""
        if schema is True or schema == {}:
            return lambda v: True
        if schema is False:
            return lambda v: False
        if not isinstance(schema, dict):
            raise Uncompilable("schema is not an object")
        unknown = [k for k in schema if k not in _KNOWN and not k.startswith("x-")]
        if unknown:
            raise Uncompilable(f"keywords {unknown}")
        return _every([*self.value_checks(schema), *self.bound_checks(schema), *self.member_checks(schema),
                       *self.combinator_checks(schema), *self.format_checks(schema)])

    def value_checks(self, schema: Mapping[str, Any]) -> list[Check]:
        """What the value itself must be: ``type``, ``$ref``, ``enum``, ``const``."""
        checks: list[Check] = []
        if "type" in schema:
            names = [schema["type"]] if isinstance(schema["type"], str) else list(schema["type"])
            kinds = [_is_type(n) for n in names]
            checks.append(kinds[0] if len(kinds) == 1 else (lambda v: any(k(v) for k in kinds)))
        if "$ref" in schema:
            checks.append(self.ref(schema["$ref"]))
        if "enum" in schema:
            allowed = list(schema["enum"])
            if not all(_plain(a) for a in allowed):
                raise Uncompilable("enum of non-plain values")
            checks.append(lambda v: _plain(v) and any(type(v) is type(a) and v == a for a in allowed))
        if "const" in schema:
            const = schema["const"]
            if not _plain(const):
                raise Uncompilable("const of a non-plain value")
            checks.append(lambda v: type(v) is type(const) and v == const)
        return checks

    def bound_checks(self, schema: Mapping[str, Any]) -> list[Check]:
        """Bounds on strings and numbers: ``pattern``, ``minimum``, ``maximum``."""
        checks: list[Check] = []
        if "pattern" in schema:
            search = ecma_search(schema["pattern"])  # $ is the end of the text, as JSON Schema reads it
            checks.append(lambda v: type(v) is not str or search(v) is not None)
        if "minimum" in schema:
            low = schema["minimum"]
            checks.append(lambda v: type(v) not in (int, float) or v >= low)
        if "maximum" in schema:
            high = schema["maximum"]
            checks.append(lambda v: type(v) not in (int, float) or v <= high)
        return checks

    def member_checks(self, schema: Mapping[str, Any]) -> list[Check]:
        """What an object's keys and an array's items must be, and their counts and lengths."""
        checks: list[Check] = []
        if "required" in schema:
            required = list(schema["required"])
            checks.append(lambda v: type(v) is not dict or all(k in v for k in required))
        if "properties" in schema or "additionalProperties" in schema:
            checks.append(self.members(schema.get("properties", {}), schema.get("additionalProperties", True)))
        if "items" in schema:
            checks.append(_each_item(self.compile(schema["items"])))
        for keyword, kind in _LENGTH.items():
            if keyword in schema:
                bound = schema[keyword]
                if type(bound) is not int:
                    raise Uncompilable(f"{keyword} {bound!r}")
                checks.append(_length(kind, bound, keyword.startswith("max")))
        if "propertyNames" in schema:
            name = self.compile(schema["propertyNames"])
            checks.append(lambda v: type(v) is not dict or all(name(k) for k in v))
        if "dependentRequired" in schema:
            needs = {key: list(others) for key, others in schema["dependentRequired"].items()}
            checks.append(lambda v: type(v) is not dict or all(o in v for k, os in needs.items() if k in v for o in os))
        return checks

    def combinator_checks(self, schema: Mapping[str, Any]) -> list[Check]:
        """Subschemas combined: ``anyOf``, ``allOf`` and ``if``/``then``/``else``."""
        checks: list[Check] = []
        if "anyOf" in schema:
            branches = [self.compile(sub) for sub in schema["anyOf"]]
            checks.append(lambda v: any(branch(v) for branch in branches))
        if "allOf" in schema:
            checks.extend(self.compile(sub) for sub in schema["allOf"])
        if "if" in schema:
            condition = self.compile(schema["if"])
            then, otherwise = self.compile(schema.get("then", True)), self.compile(schema.get("else", True))
            checks.append(lambda v: then(v) if condition(v) else otherwise(v))
        return checks

    def format_checks(self, schema: Mapping[str, Any]) -> list[Check]:
        """``format``, for the formats this compiler was given; any other is only an annotation."""
        if "format" in schema and schema["format"] in self.formats:
            return [_format(self.formats[schema["format"]])]
        return []

    def members(self, properties: Mapping[str, Any], additional: Any) -> Check:
        known = {name: self.compile(sub) for name, sub in properties.items()}
        if additional is False:
            def check(v: Any) -> bool:
                if type(v) is not dict:
                    return True
                for key, value in v.items():
                    sub = known.get(key)
                    if sub is None or not sub(value):
                        return False
                return True
            return check
        extra = self.compile(additional)

        def check_open(v: Any) -> bool:
            if type(v) is not dict:
                return True
            for key, value in v.items():
                sub = known.get(key)
                if not (sub or extra)(value):
                    return False
            return True
        return check_open


def _each_item(item: Check) -> Check:
    def check_items(v: Any) -> bool:
        if type(v) is list:
            for x in v:
                if not item(x):
                    return False
        return True
    return check_items


def _every(checks: list[Check]) -> Check:
    """All of ``checks``, cheapest to call for the usual one or two (a generator per call was not)."""
    if not checks:
        return lambda v: True
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda v: first(v) and second(v)

    def check_all(v: Any) -> bool:
        for check in checks:
            if not check(v):
                return False
        return True
    return check_all


def compile_schema(schema: Mapping[str, Any], formats: Mapping[str, FormatCheck] | None = None) -> Optional[Check]:
    """A function telling whether an object is valid, or None when the schema is beyond it.

    ``formats`` are the ``format`` values to check (as a jsonschema FormatChecker
    would); any other ``format`` is only an annotation.
    """
    try:
        return _Compiler(schema, formats or {}).compile(schema)
    except (Uncompilable, re.error):
        return None
