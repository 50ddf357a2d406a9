"""Places a user names: in objects of this kind (and name), the values at this path are catalog names.

Some tools keep catalog names where no API of KubeVirt's puts them: a VM-migration
tool's guest-OS map (a ConfigMap whose ``data`` values are preference names), a
platform's own custom resource (``spec.instanceType``), a pipeline's parameters.
``citgen refs`` cannot know them; the user says where they are, in one spec:

    FAMILY=KIND[.GROUP][/NAME]:PATH

- FAMILY is ``instancetype`` or ``preference``: what the values name;
- KIND is the object's kind (``ConfigMap``), GROUP its API group when the kind alone is
  ambiguous (``VMInstance.apps.cozystack.io``: any version of that group; none: any
  group), NAME its ``metadata.name``; KIND and NAME may hold ``*`` and ``?`` wildcards;
- PATH is where in the object: keys joined by ``.``; ``*`` for every key of a mapping
  or every item of a list, ``?`` and ``*`` inside a key as wildcards; and in brackets
  after a step, ``[2]`` an item of a list, ``[*]`` every item, ``[name=preferenceName]``
  the items whose ``name`` is ``preferenceName``, ``["vm.kubevirt.io/os"]`` a key
  holding dots (quoted keys are taken as written, without wildcards).

So ``preference=ConfigMap/forklift-*-osmap:data.*`` says that every value of the
``data`` of a ConfigMap named ``forklift-...-osmap`` is a preference name, and
``instancetype=Pipeline:spec.params[name=instanceTypeName].default`` that a Tekton
pipeline's parameter ``instanceTypeName`` defaults to an instancetype name.

The command line takes the spec (``--names``, repeatable); a configuration file (for
the pre-commit hook) lists specs, or mappings that say the same with keys of their own
(source/formats/refs.py):

    names:
      - preference=ConfigMap/forklift-*-osmap:data.*
      - {family: instancetype, apiVersion: apps.cozystack.io/v1alpha1, kind: VMInstance, path: spec.instanceType}

A value found at a place is a reference of its family without a kind (as a name alone
is read: the cluster kind).
"""

from __future__ import annotations

import re
from fnmatch import fnmatchcase
from pathlib import Path as FilePath
from typing import Any, Iterator

from ...errors import InputError
from ...frozen import frozen
from ...problems import Location, Path, Problem, excerpt
from ...source.formats.refs import REFS_CONFIG
from ...source.inputcheck import read_checked
from .model import Family

#: The command-line option that takes a place.
OPTION = "--names"
#: The families a place may name.
FAMILIES: tuple[Family, ...] = ("instancetype", "preference")
#: How a place is written, for messages.
SYNTAX = "FAMILY=KIND[.GROUP][/NAME]:PATH, such as preference=ConfigMap/forklift-*-osmap:data.*"

_KIND = re.compile(r"[A-Za-z0-9*?]+")
_GROUP = re.compile(r"[a-z0-9*?]([a-z0-9.*?-]*[a-z0-9*?])?")
_NAME = re.compile(r"[a-z0-9*?]([a-z0-9.*?-]*[a-z0-9*?])?")
_INDEX = re.compile(r"[0-9]{1,9}")
_WILD = frozenset("*?")


@frozen
class Step:
    """One step of a place's path: a key (a pattern when ``wild``), every key or item, an item, or items by a field."""

    key: str | None = None
    wild: bool = False
    every: bool = False
    index: int | None = None
    where: tuple[str, str] | None = None

    def follow(self, path: Path, value: Any) -> Iterator[tuple[Path, Any]]:
        """The values this step leads to from ``value`` (at ``path``), in the order they are written."""
        if self.every:
            if isinstance(value, dict):
                yield from ((path + (key,), item) for key, item in value.items())
            elif isinstance(value, list):
                yield from ((path + (number,), item) for number, item in enumerate(value))
        elif self.index is not None:
            if isinstance(value, list) and self.index < len(value):
                yield path + (self.index,), value[self.index]
        elif self.where is not None:
            field, wanted = self.where
            if isinstance(value, list):
                yield from ((path + (number,), item) for number, item in enumerate(value)
                            if isinstance(item, dict) and item.get(field) == wanted)
        elif isinstance(value, dict) and self.key is not None:
            if not self.wild:
                if self.key in value:
                    yield path + (self.key,), value[self.key]
            else:
                yield from ((path + (key,), item) for key, item in value.items() if fnmatchcase(key, self.key))


@frozen
class Place:
    """Where a user says catalog names are: the objects (kind, group or API version, name) and the path in them.

    ``written`` is the path as the user wrote it.
    """

    family: Family
    kind: str
    steps: tuple[Step, ...]
    written: str
    name: str | None = None
    group: str | None = None
    api_version: str | None = None

    def __str__(self) -> str:
        kind = f"{self.kind}.{self.group}" if self.group else self.kind
        return f"{self.family}={kind}{f'/{self.name}' if self.name else ''}:{self.written}"

    def matches(self, api_version: Any, kind: Any, name: Any) -> bool:
        """Whether an object of this API version, kind and name is one of the place's objects."""
        if not isinstance(kind, str) or not fnmatchcase(kind, self.kind):
            return False
        if self.api_version is not None and api_version != self.api_version:
            return False
        if self.group is not None:
            if not isinstance(api_version, str) or api_version.rpartition("/")[0] != self.group:
                return False
        return self.name is None or (isinstance(name, str) and fnmatchcase(name, self.name))

    def values(self, data: Any) -> Iterator[tuple[Path, Any]]:
        """Every value at the place's path in ``data``, with its key path."""
        found: list[tuple[Path, Any]] = [((), data)]
        for step in self.steps:
            found = [after for path, value in found for after in step.follow(path, value)]
        return iter(found)


class PathError(ValueError):
    """A path that cannot be read: ``position`` is the character (0-based) where it goes wrong."""

    def __init__(self, position: int, message: str):
        super().__init__(message)
        self.position = position


def parse_path(text: str) -> tuple[Step, ...]:
    """The steps of a place's path (the module docstring's PATH); PathError for anything else."""
    if not text:
        raise PathError(0, "the path is empty")
    steps: list[Step] = []
    position, after_step = 0, False
    while position < len(text):
        char = text[position]
        if char == "[":
            if not steps:
                raise PathError(position, "a path starts with a key or '*'")
            close = _closing(text, position)
            steps.append(_selector(text[position + 1:close], position + 1))
            position, after_step = close + 1, True
        elif char == ".":
            if not after_step:
                raise PathError(position, "expected a key before '.'")
            position, after_step = position + 1, False
        else:
            if after_step:
                raise PathError(position, f"expected '.' or '[' before {excerpt(text[position:], 20)!r}")
            end = position
            while end < len(text) and text[end] not in ".[":
                if text[end] in "]=\"' ":
                    raise PathError(end, f"{text[end]!r} in a key; write a key holding it in brackets and quotes: "
                                         "[\"a.b\"]")
                end += 1
            key = text[position:end]
            steps.append(Step(every=True) if key == "*" else Step(key=key, wild=bool(_WILD & set(key))))
            position, after_step = end, True
    if not after_step:
        raise PathError(len(text), "the path ends with '.'")
    return tuple(steps)


def _closing(text: str, start: int) -> int:
    """The position of the ``]`` closing the bracket at ``start``, quotes inside it skipped."""
    quote = None
    for position in range(start + 1, len(text)):
        char = text[position]
        if quote is not None:
            if char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char == "]":
            return position
    raise PathError(start, "'[' is never closed")


def _selector(inside: str, position: int) -> Step:
    """What a bracket holds: ``*``, an index, a quoted key, or ``field=value``."""
    if inside == "*":
        return Step(every=True)
    if _INDEX.fullmatch(inside):
        return Step(index=int(inside))
    quoted = _unquoted(inside)
    if quoted is not None:
        return Step(key=quoted)
    field, equals, wanted = inside.partition("=")
    if equals and field and not set(field) & set("\"' ") and wanted:
        value = _unquoted(wanted)
        return Step(where=(field, value if value is not None else wanted))
    raise PathError(position, f"expected *, an index, a quoted key or field=value in brackets, got "
                              f"{excerpt(inside, 40)!r}")


def _unquoted(text: str) -> str | None:
    """The text inside matching quotes, or None when ``text`` is not quoted."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'" and text[0] not in text[1:-1]:
        return text[1:-1]
    return None


def parse_place(text: str, option: str = OPTION) -> Place:
    """A place as written on the command line (the module docstring's spec); InputError naming ``option``."""
    def refuse(reason: str) -> InputError:
        return InputError.at(Location(option), f"{excerpt(text)!r}: {reason}; expected {SYNTAX}")

    family, equals, rest = text.partition("=")
    if not equals:
        raise refuse("no '=' after the family")
    if family not in FAMILIES:
        raise refuse(f"unknown family {excerpt(family)!r} (expected instancetype or preference)")
    objects, colon, written = rest.partition(":")
    if not colon:
        raise refuse("no ':' before the path")
    kind_group, slash, name = objects.partition("/")
    kind, dot, group = kind_group.partition(".")
    if not _KIND.fullmatch(kind):
        raise refuse(f"{excerpt(kind)!r} is not a kind (letters and digits, * and ? as wildcards)")
    if dot and not _GROUP.fullmatch(group):
        raise refuse(f"{excerpt(group)!r} is not an API group (such as apps.cozystack.io)")
    if slash and not _NAME.fullmatch(name):
        raise refuse(f"{excerpt(name)!r} is not an object name (lower-case letters, digits, '-' and '.', "
                     "* and ? as wildcards)")
    try:
        steps = parse_path(written)
    except PathError as exc:
        raise refuse(f"path {excerpt(written)!r}, at character {exc.position + 1}: {exc}") from None
    return Place(family, kind, steps, written, name or None, group if dot else None)  # type: ignore[arg-type]


def load_places(path: FilePath | str, display: str | None = None) -> tuple[Place, ...]:
    """The places a configuration file lists under ``names``; InputError locating every mistake in it."""
    shown = display or str(path)
    document, problems = read_checked(FilePath(path), shown, REFS_CONFIG)
    if document is None:
        raise InputError(problems)
    places: list[Place] = []
    for index, entry in enumerate(document.data.get("names", ())):  # a mapping, and names a list, once checked
        at = ("names", index)
        try:
            if isinstance(entry, str):
                places.append(parse_place(entry))
            elif isinstance(entry, dict) and {"family", "kind", "path"} <= set(entry):
                places.append(_place_of(entry))
        except InputError as exc:
            where = document.source.locate(at)
            problems.extend(Problem(where, p.message) for p in exc.problems)
        except PathError as exc:
            where = document.source.locate(at + ("path",))
            problems.append(Problem(where, f"at character {exc.position + 1} of the path: {exc}"))
    if problems:
        raise InputError(problems)
    return tuple(places)


def _place_of(entry: dict[str, Any]) -> Place:
    """A place from a configuration file's mapping (its shape already checked)."""
    if "group" in entry and "apiVersion" in entry:
        raise InputError.at(Location(""), "give apiVersion or group, not both")
    return Place(entry["family"], entry["kind"], parse_path(entry["path"]), entry["path"], entry.get("name"),
                 entry.get("group"), entry.get("apiVersion"))
