"""Check objects against the shipped CRD schemas, with messages written for people.

A raw jsonschema message ("Additional properties are not allowed ('foo' was
unexpected)") names neither the field's path nor what was meant; this module turns
each error into one located problem per bad field and says what would be right.
Validators are compiled once per kind and release: a build checks hundreds of objects.

The four instancetype.kubevirt.io kinds are judged by the CRD schemas of a KubeVirt
release (releases.py; ``kubevirt/v1.8.json`` and so on), the newest by default. The
CRD leaves ``metadata`` to the API server, which checks it as ObjectMeta: that schema
comes from KubeVirt's OpenAPI document, as does the VirtualMachine schema ``expand``
reads (``metadata.json`` lists those files).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping

from ..paths import SCHEMAS
from ..problems import Path, Problem
from ..quantity import MAX_DIGITS, MAX_EXPONENT, QuantityError, parse
from ..source.documents import BundleDoc
from ..source.schema_fast import Check, compile_schema, strict_validator_class
from ..suggest import nearest
from . import fields
from .releases import Release, known, newest, release_data

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
#: The same grammar within the bounds of every number citgen reads (at most MAX_DIGITS digits,
#: an exponent from -MAX_EXPONENT to MAX_EXPONENT, which is all nines): what the schema check
#: applies wherever a shipped schema holds a quantity, so that a quantity citgen cannot read
#: (``1e999999999``) is a problem at its field rather than a value every rule passes over.
CHECKED_QUANTITY_PATTERN = (
    rf"^[+-]?(?!(?:\.?[0-9]){{{MAX_DIGITS + 1}}})([0-9]+(\.[0-9]*)?|\.[0-9]+)"
    rf"(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?0*[0-9]{{1,{len(str(MAX_EXPONENT))}}})?$"
)
_QUANTITY_PATTERNS = (QUANTITY_PATTERN, CHECKED_QUANTITY_PATTERN)

#: The integer formats the document uses and the values each can hold.
INTEGER_RANGES: Mapping[str, tuple[int, int]] = {
    "byte": (0, 255),
    "int32": (-(2**31), 2**31 - 1),
    "int64": (-(2**63), 2**63 - 1),
}

#: When one field breaks several keywords, the first of these explains it best.
_PRIORITY = ("type", "const", "enum", "pattern", "minimum", "maximum", "required", "additionalProperties")


def _read(name: str) -> Any:
    return json.loads((SCHEMAS / name).read_bytes())  # JSON is UTF-8 (RFC 8259)


#: Where ObjectMeta's schema is taken from: the OpenAPI document's VirtualMachine.
_OBJECT_META_FROM = "VirtualMachine"
_OBJECT_META = "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta"


@lru_cache(maxsize=None)
def metadata() -> dict[str, Any]:
    """The shipped metadata.json: the schemas taken from KubeVirt's OpenAPI document."""
    return _read(METADATA_FILE)


@lru_cache(maxsize=None)
def known_kinds() -> tuple[str, ...]:
    return tuple(sorted({*metadata()["kinds"], *release_data(newest())["kinds"]}))


@lru_cache(maxsize=None)
def shipped_schema(kind: str, release: Release | None = None) -> dict[str, Any]:
    """The shipped schema of ``kind`` at ``release`` (None: the newest); KeyError for a kind without one.

    An instancetype or preference kind is its release's CRD schema with ObjectMeta
    composed in; any other kind (VirtualMachine) comes from the OpenAPI document.
    """
    kinds = release_data(release or newest())["kinds"]
    if kind not in kinds:
        return _read(metadata()["kinds"][kind]["file"])
    schema = dict(kinds[kind])
    source = shipped_schema(_OBJECT_META_FROM)
    defs = {name: value for name, value in source["$defs"].items() if name.startswith("k8s.io.apimachinery.pkg.apis")}
    schema["properties"] = {**schema["properties"], "metadata": {"$ref": f"#/$defs/{_OBJECT_META}"}}
    schema["$defs"] = defs
    return schema


@lru_cache(maxsize=None)
def checked_schema(kind: str, release: Release | None = None) -> dict[str, Any]:
    """The schema objects are checked against: the shipped one with CHECKED_QUANTITY_PATTERN for each quantity."""
    return _bounded(shipped_schema(kind, release))  # type: ignore[no-any-return]


def _bounded(node: Any) -> Any:
    """``node`` copied, each quantity's pattern replaced by the one that bounds its digits and exponent."""
    if isinstance(node, list):
        return [_bounded(item) for item in node]
    if not isinstance(node, dict):
        return node
    copied = {key: _bounded(value) for key, value in node.items()}
    if copied.get("pattern") == QUANTITY_PATTERN:
        copied["pattern"] = CHECKED_QUANTITY_PATTERN
    return copied


@lru_cache(maxsize=None)
def validator(kind: str, whole_numbers: bool = False, release: Release | None = None) -> "Draft202012Validator":
    """jsonschema's validator of ``kind`` (without format checks); KeyError for an unknown kind.

    With ``whole_numbers`` an integer field takes only a whole number as written
    (schema_fast.whole_number: not ``2.0``); without, it follows JSON Schema and the
    Kubernetes API server, which take a float with an integral value.
    """
    if whole_numbers:
        return strict_validator_class()(checked_schema(kind, release))
    from jsonschema import Draft202012Validator

    return Draft202012Validator(checked_schema(kind, release))


@lru_cache(maxsize=None)
def quick_check(kind: str, release: Release | None = None) -> Check | None:
    """``kind``'s schema compiled to a yes/no check (source/schema_fast.py), or None if it cannot be.

    Valid objects, nearly all of them, pass through it about ten times faster than
    through jsonschema; only the others are explained by jsonschema.
    """
    return compile_schema(checked_schema(kind, release))


@lru_cache(maxsize=None)
def has_field(kind: str, path: Path, release: Release) -> bool:
    """Whether ``release``'s schema of ``kind`` has a field at ``path`` (a key path from the object's root).

    Answered by the index of every release's fields (fields.py) where it can, by the
    schema itself otherwise (below ``metadata``), so a build does not read every
    release's schemas to ask.
    """
    found = fields.has(kind, path, release)
    if found is not None:
        return found
    return _node_at(shipped_schema(kind, release), path) is not None


@lru_cache(maxsize=None)
def introduced(kind: str, path: Path) -> Release | None:
    """The first release whose schema of ``kind`` has the field at ``path``; None if none has it."""
    for release in known():
        if has_field(kind, path, release):
            return release
    return None


@lru_cache(maxsize=None)
def fields_of(kind: str, release: Release) -> frozenset[Path]:
    """Every field path ``release``'s schema of ``kind`` has (list items add no index)."""
    indexed = fields.fields(kind, release)
    if indexed is not None:
        return indexed
    return schema_fields(kind, release)


def schema_fields(kind: str, release: Release) -> frozenset[Path]:
    """fields_of, read off the schema itself rather than the index."""
    found: set[Path] = set()
    stack: list[tuple[Any, Path]] = [(shipped_schema(kind, release), ())]
    while stack:
        node, path = stack.pop()
        for key, sub in node.get("properties", {}).items():
            found.add(path + (key,))
            stack.append((sub, path + (key,)))  # metadata's is a $ref to ObjectMeta, not followed
        if isinstance(node.get("items"), dict):
            stack.append((node["items"], path))
    return frozenset(found)


@lru_cache(maxsize=None)
def has_every_field(release: Release) -> bool:
    """Whether ``release`` has every field of the four kinds that any release citgen knows has."""
    indexed = fields.has_all(release)
    if indexed is not None:
        return indexed
    kinds = sorted(release_data(release)["kinds"])
    return all(fields_of(kind, other) <= fields_of(kind, release) for kind in kinds for other in known())


def _node_at(root: dict[str, Any], path: Path) -> Any:
    """The schema of the value at ``path``, None where the schema holds no such field."""
    node: Any = root
    for part in path:
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            node = root["$defs"].get(node["$ref"].rpartition("/")[2])
        if not isinstance(node, dict):
            return None
        if isinstance(part, int):
            node = node.get("items")
        elif part in node.get("properties", {}):
            node = node["properties"][part]
        else:
            extra = node.get("additionalProperties")
            node = extra if isinstance(extra, dict) else None
    return node


@lru_cache(maxsize=4096)
def quantity_at(kind: str, path: Path) -> bool:
    """Whether KubeVirt's schema of ``kind`` holds a resource quantity at ``path`` (from the object's root).

    Only there are ``4Gi`` and ``4096Mi`` the same value; anywhere else (an
    annotation, a device name) ``"1k"`` is just text. The shipped schemas mark a
    quantity by the quantity grammar as their pattern (tools/crd_import.py).
    """
    node = _node_at(shipped_schema(kind), path)
    while isinstance(node, dict) and isinstance(node.get("$ref"), str):
        node = shipped_schema(kind).get("$defs", {}).get(node["$ref"].rpartition("/")[2])
    return isinstance(node, dict) and node.get("pattern") == QUANTITY_PATTERN


def check_object(data: Any, *, whole_numbers: bool = False, release: Release | None = None) -> list[tuple[Path, str]]:
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
    valid = quick_check(kind, release)
    if valid is not None and valid(data):
        return []
    found: dict[tuple, tuple[int, Path, str]] = {}
    for error in validator(kind, whole_numbers, release).iter_errors(data):
        for leaf in _leaves(error):
            for key, path, message in _explain(leaf, kind, release):
                rank = _rank(leaf.validator)
                if key not in found or rank < found[key][0]:
                    found[key] = (rank, path, message)
    return sorted(((path, message) for _, path, message in found.values()), key=_order)


def schema_problems(doc: BundleDoc, release: Release | None = None) -> list[Problem]:
    """The schema problems of one document of a bundle, located in its file."""
    return [Problem(doc.locate(path), message, RULE) for path, message in check_object(doc.data, release=release)]


def _unknown_field(kind: str, path: Path, fields: list[str], release: Release | None) -> str:
    """An unknown field: the release it came in, if a later one has it; else the field perhaps meant."""
    name = str(path[-1])
    later = introduced(kind, path)
    if later is not None and release is not None and later > release:
        return f"unknown field {name!r}: KubeVirt {release} does not have it (it came in {later})"
    message = f"unknown field {name!r}"
    close = nearest(name, fields)
    if close:
        return message + f"; did you mean {close[0]!r}?"
    if release is not None and release < newest():  # perhaps a misspelling of a field of a later release
        parent = _node_at(shipped_schema(kind), path[:-1])
        later = sorted(parent.get("properties", {})) if isinstance(parent, dict) else []
        close = nearest(name, later)
        since = introduced(kind, path[:-1] + (close[0],)) if close else None
        if since is not None:
            return message + f"; did you mean {close[0]!r}, which came in KubeVirt {since}?"
    return message


def _rank(keyword: Any) -> int:
    return _PRIORITY.index(keyword) if keyword in _PRIORITY else len(_PRIORITY)


def _order(item: tuple[Path, str]) -> tuple:
    path, message = item
    return tuple((0, part) if isinstance(part, int) else (1, str(part)) for part in path), message


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


def _explain(error: ValidationError, kind: str, release: Release | None) -> Iterable[tuple[tuple, Path, str]]:
    """(dedup key, path, message) for one error; one per field it is about."""
    path: Path = tuple(error.absolute_path)
    keyword, expected, instance = error.validator, error.validator_value, error.instance
    if keyword == "additionalProperties" and isinstance(instance, dict):
        allowed = error.schema.get("properties", {})
        fields = sorted(str(k) for k in allowed)
        extras = sorted((k for k in instance if k not in allowed), key=str)
        for extra in extras:
            yield path + (extra,), path + (extra,), _unknown_field(kind, path + (extra,), fields, release)
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
        if error.schema.get("pattern") in _QUANTITY_PATTERNS:
            return f"expected a Kubernetes quantity such as 2Gi, got {_describe(instance)}"
        if "integer" in wanted and type(instance) is float:
            return f"expected a whole number, got {instance!r}"
        return f"expected {' or '.join(wanted)}, got {_describe(instance)}"
    if keyword == "pattern" and expected in _QUANTITY_PATTERNS:
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
