"""The one explainer: a hand-written file checked against the JSON Schema of its format.

Every loader reads its files through ``read_checked`` (or checks a document it
already holds with ``checked``), so there is one place that says what is wrong
with a file's shape, in one set of words: "unknown key 'x' (did you mean 'y'?)",
"missing required key 'x'", "expected a whole number, got 1.0".

A file that is right (nearly every file of every build) is recognised by the
format's compiled yes/no check (schema_fast.py). For the others jsonschema finds
what is wrong, and this module turns each finding into a Problem that names the
file, line and column and says what was expected in words a catalog author
understands (with the closest known key for a misspelt one). jsonschema is
imported only then: a build of a valid catalog does not pay for its import.
Schema nodes may carry words of their own (``x-expected``, ``x-message``,
``x-in``, ``x-required``, ``x-at-key``; formats/__init__.py describes them).

What breaks the schema is also left out of the document handed back, so a loader
that reads on past a mistake (the preference files do, to report everything a
run finds) only ever sees values of the shape its format promises.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path as FilePath
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from .. import quantity
from ..errors import InputError
from ..objectmeta import label_value_problem
from ..problems import EXCERPT, Path, Problem, excerpt
from ..suggest import nearest
from .schema_fast import Check, compile_schema, strict_validator_class
from .yamlsrc import Document, load_file

if TYPE_CHECKING:
    import jsonschema


def _is_quantity(value: object) -> bool:
    if not isinstance(value, str):
        return True
    if quantity.parse(value) <= 0:
        raise quantity.QuantityError(f"expected a memory quantity greater than zero, got {value!r}")
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

def validator_for(schema: Mapping[str, Any]) -> "jsonschema.Draft202012Validator":
    """jsonschema's validator of ``schema``, checking the formats of FORMATS.

    Its "integer" is schema_fast.whole_number, as in the compiled check: ``1.0``,
    ``true`` and ``"4"`` are not whole numbers in a catalog file.
    """
    return _validator(_text(schema))


def quick_check_for(schema: Mapping[str, Any]) -> Check | None:
    """``schema`` compiled to a yes/no check (schema_fast.py); None if it cannot be."""
    return _quick_check(_text(schema))


def _text(schema: Mapping[str, Any]) -> str:
    """What a schema says, in its order (messages follow it), as the key its compiled forms are remembered by."""
    return json.dumps(schema)


@lru_cache(maxsize=None)
def _validator(text: str) -> "jsonschema.Draft202012Validator":
    from jsonschema import FormatChecker

    formats = FormatChecker(formats=())
    for name, check in FORMATS.items():
        formats.checks(name, raises=ValueError)(check)
    return strict_validator_class()(json.loads(text), format_checker=formats)


@lru_cache(maxsize=None)
def _quick_check(text: str) -> Check | None:
    return compile_schema(json.loads(text), FORMATS)


def describe(value: Any) -> str:
    """A value as a message shows it: ``'4GB'``, ``1.0``, ``the boolean true``, ``a mapping``.

    Text is shown as a short excerpt only (problems.EXCERPT characters): a file
    read by mistake (a ``.env``, a key) must not end up in a CI log.
    """
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if value is None:
        return "nothing (null)"
    if isinstance(value, str):  # quoted as Python quotes it, which escapes each control character once
        more = len(value) - EXCERPT
        return repr(value if more <= 0 else f"{value[:EXCERPT]}... ({more} more character{'s' if more != 1 else ''})")
    return excerpt(repr(value))


def kind_of(value: Any) -> str:
    """A value's kind as a YAML author names it (``a string``), for the ``{kind}`` of ``x-message``."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


_TYPE_WORDS = {
    "object": "a mapping",
    "array": "a list",
    "string": "a string",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "nothing (null)",
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


def _message(error: jsonschema.ValidationError) -> tuple[Path, str]:
    """(path, message): where the value is that breaks the schema, and the one wording for how."""
    path: Path = tuple(error.absolute_path)
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    expected = schema.get("x-expected")
    kind = error.validator
    if kind == "required":
        # jsonschema reports each missing key as its own error, naming it only in the message
        missing = error.message.split("'")[1] if error.message.count("'") >= 2 else "?"
        return path, f"missing required key '{missing}'"
    if expected:
        return path, f"expected {expected}, got {describe(error.instance)}"
    if kind == "type":
        return path, f"expected {_expected_type(error.validator_value)}, got {describe(error.instance)}"
    if kind in ("anyOf", "oneOf"):
        types = [t for branch in error.validator_value if isinstance(branch, Mapping)
                 for t in ([branch["type"]] if isinstance(branch.get("type"), str) else branch.get("type", []))]
        if types:
            return path, f"expected {_expected_type(list(dict.fromkeys(types)))}, got {describe(error.instance)}"
    if kind == "enum":
        allowed = ", ".join(str(v) for v in error.validator_value)
        return path, f"expected one of {allowed}, got {describe(error.instance)}"
    if kind == "format" and error.cause is not None:
        return path, str(error.cause)
    if kind in ("minimum", "exclusiveMinimum"):
        bound = error.validator_value
        word = "at least" if kind == "minimum" else "greater than"
        return path, f"expected a number {word} {bound}, got {describe(error.instance)}"
    if kind == "maximum":
        return path, f"expected a number at most {error.validator_value}, got {describe(error.instance)}"
    if kind == "minProperties":
        return path, _at_least(error.validator_value, len(error.instance), "entry", "entries", "mapping")
    if kind == "minLength" and error.validator_value == 1:
        return path, "expected a non-empty string, got ''"
    if kind == "minItems":
        return path, _at_least(error.validator_value, len(error.instance), "item", "items", "list")
    return path, error.message


def _at_least(least: int, found: int, one: str, many: str, what: str) -> str:
    """``expected at least one entry, got an empty mapping``; ``expected at least 2 entries, got 1``."""
    if least == 1:
        return f"expected at least one {one}, got an empty {what}"
    return f"expected at least {least} {many}, got {found}"


def _key_error(error: jsonschema.ValidationError) -> bool:
    """Whether ``error`` is about a key of a mapping (``propertyNames``) rather than a value."""
    where = error.absolute_schema_path
    return len(where) >= 2 and where[-2] == "propertyNames"


def _words(template: str, error: jsonschema.ValidationError, name: Any, message: str) -> str:
    """A schema's own words for ``error``, filled in (formats/__init__.py lists the fields)."""
    value = error.instance
    return template.format(name=name, got=describe(value), kind=kind_of(value), message=message,
                           length=len(value) if isinstance(value, (str, list, dict)) else 0)


def _custom(error: jsonschema.ValidationError, name: Any, message: str) -> str:
    """``message``, or what the schema's ``x-message`` says instead for this kind of error."""
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    template = schema.get("x-message")
    if isinstance(template, Mapping):
        template = template.get(error.validator)
    return message if template is None else _words(template, error, name, message)


def _unknown_key(schema: Mapping[str, Any], key: Any, name: Any) -> str:
    """The message for a key the mapping does not allow, with the closest known key."""
    known = sorted(schema.get("properties", {}))
    close = nearest(str(key), known)
    where = schema.get("x-in")
    if where is None:
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        return f"unknown key '{key}'{hint}; expected one of: {', '.join(known)}"
    place = where.format(name=name)
    if close:
        return f"unknown key {key!r} in {place}; did you mean {close[0]!r}?"
    return f"unknown key {key!r} in {place}; expected one of: {', '.join(known)}"


def _explain(document: Document, schema: Mapping[str, Any]) -> tuple[list[Problem], set[Path]]:
    """Every way ``document`` breaks ``schema``, located and worded, and the paths of what breaks it."""
    problems: list[Problem] = []
    broken: set[Path] = set()
    seen: set[tuple[Path, str]] = set()

    def add(path: Path, message: str, at_key: bool) -> None:
        if (path, message) not in seen:
            seen.add((path, message))
            problems.append(document.source.problem(path, message, key=at_key))

    for error in validator_for(schema).iter_errors(document.data):
        for leaf in _leaf_errors(error):
            path: Path = tuple(leaf.absolute_path)
            name = path[-1] if path else None
            if leaf.validator == "additionalProperties":
                known = leaf.schema.get("properties", {})
                for key in sorted(set(leaf.instance) - set(known), key=str):
                    broken.add(path + (key,))
                    add(path + (key,), _unknown_key(leaf.schema, key, name), True)
                continue
            if leaf.validator == "required":
                where, message = _message(leaf)
                missing = message.split("'")[1]
                own = leaf.schema.get("x-required", {}).get(missing)
                # At the key naming the mapping that lacks it: a block mapping's own line.
                add(where, message if own is None else _words(own, leaf, name, message), True)
                continue
            where, message = _message(leaf)
            if _key_error(leaf):
                key = leaf.instance
                broken.add(where + (key,))
                message = _custom(leaf, key, message)
                if leaf.schema.get("x-at-key"):
                    add(where + (key,), message, True)
                else:
                    add(where, message, False)
                continue
            broken.add(where)
            add(where, _custom(leaf, name, message), False)
    return problems, broken


class _LeftOut:
    """What stands in a list for an item that breaks the schema, so the others keep their index."""

    def __repr__(self) -> str:
        return "LEFT_OUT"


#: An item of a list left out by ``checked``; ``present`` skips it.
LEFT_OUT: Any = _LeftOut()


def _without(value: Any, broken: set[Path], path: Path = ()) -> Any:
    """``value`` with everything at the ``broken`` paths left out (list items replaced by LEFT_OUT)."""
    if isinstance(value, dict):
        return {k: _without(v, broken, path + (k,)) for k, v in value.items() if path + (k,) not in broken}
    if isinstance(value, list):
        return [LEFT_OUT if path + (i,) in broken else _without(v, broken, path + (i,))
                for i, v in enumerate(value)]
    return value


def present(items: list[Any]) -> list[tuple[int, Any]]:
    """The items of a checked list that fit its format, each with its index as written."""
    return [(i, item) for i, item in enumerate(items) if item is not LEFT_OUT]


def checked(document: Document, schema: Mapping[str, Any]) -> tuple[Document | None, list[Problem]]:
    """``document`` with what breaks ``schema`` left out, and the problems saying what did.

    None instead of a document when the whole of it breaks the schema (a file
    that is a list where a mapping is expected): nothing of it can be read.
    """
    quick = quick_check_for(schema)
    if quick is not None and quick(document.data):
        return document, []
    problems, broken = _explain(document, schema)
    if not problems:
        return document, []
    if () in broken:
        return None, problems
    return Document(_without(document.data, broken), document.source, document.index), problems


def schema_problems(document: Document, schema: Mapping[str, Any]) -> list[Problem]:
    """Every way ``document`` breaks ``schema``, located and worded for people."""
    return checked(document, schema)[1]


def read_checked(path: FilePath, display: str, schema: Mapping[str, Any], *,
                 within: FilePath | None = None) -> tuple[Document | None, list[Problem]]:
    """A file read (source/yamlsrc.py) and checked against its format: the one way loaders read.

    ``display`` names the file in messages; ``within`` is the catalog directory, out
    of which a symbolic link may not lead. The document is None when the file could
    not be read or nothing of it fits its format.
    """
    try:
        document = load_file(path, display, within=within)
    except InputError as exc:
        return None, list(exc.problems)
    return checked(document, schema)
