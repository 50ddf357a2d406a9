"""Check objects against the shipped CRD schemas, with messages written for people.

A raw jsonschema message ("Additional properties are not allowed ('foo' was
unexpected)") names neither the field's path nor what was meant; this module turns
each error into one located problem per bad field and says what would be right.
Validators are compiled once per kind: a build checks hundreds of objects.
"""

from __future__ import annotations

import difflib
import json
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping

from ..problems import Path, Problem
from ..quantity import QuantityError, parse
from ..source.documents import BundleDoc
from ..source.schema_fast import Check, compile_schema, strict_validator_class

if TYPE_CHECKING:  # jsonschema is imported only to explain an object the fast check refused
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

RULE = "schema"

#: What the shipped schemas were imported from (tools/schema_import.py writes it beside them).
METADATA_FILE = "metadata.json"

#: Kubernetes' quantity grammar (see generator/quantity.py), as an ECMA-262 regex so
#: any JSON Schema validator can use the shipped files.
QUANTITY_PATTERN = (
    r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)"
    r"(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?$"
)

#: The integer formats the document uses and the values each can hold.
INTEGER_RANGES: Mapping[str, tuple[int, int]] = {
    "byte": (0, 255),
    "int32": (-(2**31), 2**31 - 1),
    "int64": (-(2**63), 2**63 - 1),
}

#: When one field breaks several keywords, the first of these explains it best.
_PRIORITY = ("type", "const", "enum", "pattern", "minimum", "maximum", "required", "additionalProperties")
_QUANTITY_TYPES = {"string", "integer", "number"}


def _read(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def metadata() -> dict[str, Any]:
    """The shipped metadata.json: which kinds there are and which KubeVirt they come from."""
    return _read(METADATA_FILE)


def known_kinds() -> tuple[str, ...]:
    return tuple(sorted(metadata()["kinds"]))


@lru_cache(maxsize=None)
def shipped_schema(kind: str) -> dict[str, Any]:
    """The shipped schema of ``kind``; KeyError for a kind we ship no schema for."""
    return _read(metadata()["kinds"][kind]["file"])


@lru_cache(maxsize=None)
def validator(kind: str, whole_numbers: bool = False) -> "Draft202012Validator":
    """jsonschema's validator of ``kind`` (without format checks); KeyError for an unknown kind.

    With ``whole_numbers`` an integer field takes only a whole number as written
    (schema_fast.whole_number: not ``2.0``); without, it follows JSON Schema and the
    Kubernetes API server, which take a float with an integral value.
    """
    if whole_numbers:
        return strict_validator_class()(shipped_schema(kind))
    from jsonschema import Draft202012Validator

    return Draft202012Validator(shipped_schema(kind))


@lru_cache(maxsize=None)
def quick_check(kind: str) -> Check | None:
    """``kind``'s schema compiled to a yes/no check (source/schema_fast.py), or None if it cannot be.

    Valid objects, nearly all of them, pass through it about ten times faster than
    through jsonschema; only the others are explained by jsonschema.
    """
    return compile_schema(shipped_schema(kind))


@lru_cache(maxsize=4096)
def quantity_at(kind: str, path: Path) -> bool:
    """Whether KubeVirt's schema of ``kind`` holds a resource quantity at ``path`` (from the object's root).

    Only there are ``4Gi`` and ``4096Mi`` the same value; anywhere else (an
    annotation, a device name) ``"1k"`` is just text. The shipped schemas mark a
    quantity by the quantity grammar as their pattern (tools/schema_import.py).
    """
    root = shipped_schema(kind)
    node: Any = root
    for part in (*path, None):
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            node = root.get("$defs", {}).get(node["$ref"].rpartition("/")[2])
        if part is None or not isinstance(node, dict):
            break
        if isinstance(part, int):
            node = node.get("items")
        elif part in node.get("properties", {}):
            node = node["properties"][part]
        else:
            node = node.get("additionalProperties")
    return isinstance(node, dict) and node.get("pattern") == QUANTITY_PATTERN


def check_object(data: Any, *, whole_numbers: bool = False) -> list[tuple[Path, str]]:
    """(JSON key path, message) for each bad field of ``data``, deepest first per field, sorted.

    ``whole_numbers`` is for what a catalog author wrote (a series' or trait's spec
    fragment): ``guest: 2.0`` is then refused. A bundle is judged as the API server
    judges it, where 2.0 is the integer 2 (docs/validation.md).
    """
    kinds = known_kinds()
    if not isinstance(data, dict):
        return [((), f"expected a Kubernetes object (a mapping), got {_describe(data)}")]
    kind = data.get("kind")
    if kind is None:
        return [((), f"missing kind; expected one of {', '.join(kinds)}")]
    if kind not in kinds:
        return [(("kind",), f"unknown kind {kind!r}; expected one of {', '.join(kinds)}")]
    valid = quick_check(kind)
    if valid is not None and valid(data):
        return []
    found: dict[tuple, tuple[int, Path, str]] = {}
    for error in validator(kind, whole_numbers).iter_errors(data):
        for leaf in _leaves(error):
            for key, path, message in _explain(leaf):
                rank = _rank(leaf.validator)
                if key not in found or rank < found[key][0]:
                    found[key] = (rank, path, message)
    return sorted(((path, message) for _, path, message in found.values()), key=_order)


def schema_problems(doc: BundleDoc) -> list[Problem]:
    """The schema problems of one document of a bundle, located in its file."""
    return [Problem(doc.locate(path), message, RULE) for path, message in check_object(doc.data)]


def _rank(keyword: Any) -> int:
    return _PRIORITY.index(keyword) if keyword in _PRIORITY else len(_PRIORITY)


def _order(item: tuple[Path, str]) -> tuple:
    path, message = item
    return tuple((0, part, "") if isinstance(part, int) else (1, 0, str(part)) for part in path), message


def _leaves(error: ValidationError) -> Iterator[ValidationError]:
    """The errors that explain ``error``: itself, or the deepest of its alternatives.

    The shipped schemas use no anyOf/oneOf today; a future document might, and then
    "matches none of the alternatives" helps nobody, the error deepest in the object does.
    """
    if not error.context:
        yield error
        return
    deepest = max(len(e.absolute_path) for e in error.context)
    for sub in error.context:
        if len(sub.absolute_path) == deepest:
            yield from _leaves(sub)


def _explain(error: ValidationError) -> Iterable[tuple[tuple, Path, str]]:
    """(dedup key, path, message) for one error; one per field it is about."""
    path: Path = tuple(error.absolute_path)
    keyword, expected, instance = error.validator, error.validator_value, error.instance
    if keyword == "additionalProperties" and isinstance(instance, dict):
        known = sorted(str(k) for k in error.schema.get("properties", {}))
        extras = sorted((k for k in instance if k not in error.schema.get("properties", {})), key=str)
        for extra in extras:
            message = f"unknown field {str(extra)!r}"
            close = difflib.get_close_matches(str(extra), known, n=1)
            if close:
                message += f"; did you mean {close[0]!r}?"
            yield path + (extra,), path + (extra,), message
        return
    if keyword == "required" and isinstance(instance, dict):
        for field in expected:
            if field not in instance:
                yield path + (field,), path, f"missing required field {field!r}"
        return
    yield path, path, _message(keyword, expected, instance, error)


def _message(keyword: Any, expected: Any, instance: Any, error: ValidationError) -> str:
    if keyword == "type":
        wanted = [expected] if isinstance(expected, str) else list(expected)
        if set(wanted) == _QUANTITY_TYPES:
            return f"expected a Kubernetes quantity such as 2Gi, got {_describe(instance)}"
        if "integer" in wanted and type(instance) is float:
            return f"expected a whole number, got {instance!r}"
        return f"expected {' or '.join(wanted)}, got {_describe(instance)}"
    if keyword == "pattern" and expected == QUANTITY_PATTERN:
        try:
            parse(instance)
        except QuantityError as exc:
            return str(exc)
        return f"{instance!r} is not a Kubernetes quantity"
    if keyword in ("minimum", "maximum"):
        fmt = error.schema.get("format")
        if fmt in INTEGER_RANGES:
            low, high = INTEGER_RANGES[fmt]
            return f"{instance} is out of range for {fmt} ({low} to {high})"
        side = "below the minimum" if keyword == "minimum" else "above the maximum"
        return f"{instance} is {side} {expected}"
    if keyword == "enum":
        allowed = ", ".join(repr(v) for v in expected)
        return f"{instance!r} is not an allowed value; expected one of {allowed}"
    if keyword == "const":
        return f"expected {expected!r}, got {instance!r}"
    return error.message


def _describe(value: Any) -> str:
    """A value's JSON type, with the value itself when it is short enough to help."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean {'true' if value else 'false'}"
    if isinstance(value, int):
        return f"integer {value}"
    if isinstance(value, float):
        return f"number {value}"
    if isinstance(value, str):
        return f"string {value!r}" if len(value) <= 40 else "string"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    return f"{type(value).__name__} {value!s} (quote it to make it a string)"
