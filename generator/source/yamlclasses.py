"""The YAML loader and dumper classes of the tool: libyaml's, with tag resolution remembered.

Loading and dumping both ask the resolver, for every plain scalar, which type its
text stands for (is ``true`` a bool, ``0o7`` an int, ``2Gi`` a string?), and the
resolver answers by trying PyYAML's implicit-type expressions one after another.
A dumper asks twice per scalar to decide whether it needs quotes. A large build
asks about a million times, mostly about the same few hundred texts (label keys,
``true``, size names), so each class remembers its answers.

The answer depends only on the scalar's text, whether it is plain or quoted, and
the class's resolver tables, which nothing here changes after import; path
resolvers, the one context-dependent feature, are not used by these classes (and
disable the memory if someone adds one). The memory is bounded: when full it is
emptied, which costs only the time to learn the common texts again.

The tables are the classes' own: YAML 1.1's implicit types as PyYAML's resolver
module defines them, read from a private copy of that module. PyYAML's shared
table belongs to every program in the process, and other code adds to it
(importing yamllint's quoted-strings rule makes every PyYAML reader take ``0o17``
for 15); a value citgen reads or writes must not depend on what else was
imported before it.
"""

from __future__ import annotations

import importlib.util
import re
from typing import Any, ClassVar

import yaml
from yaml.nodes import ScalarNode

try:  # libyaml is several times faster; fall back to pure Python without it
    _BaseLoader: type = yaml.CSafeLoader
    _BaseDumper: type = yaml.CSafeDumper
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _BaseLoader = yaml.SafeLoader
    _BaseDumper = yaml.SafeDumper

#: Scalars each class remembers before it starts over.
MEMORY = 1 << 16


def yaml_1_1_types() -> dict[str | None, list[tuple[str, Any]]]:
    """PyYAML's implicit types as its resolver module defines them, whatever has been added since.

    The module is run again as a private copy, registered nowhere, so its table is
    made afresh by PyYAML's own code; the copy's classes are then dropped.
    """
    spec = importlib.util.find_spec("yaml.resolver")  # PyYAML always ships it, as a file of source
    private = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(private)  # type: ignore[union-attr]
    return {first: list(pairs) for first, pairs in private.Resolver.yaml_implicit_resolvers.items()}


class _RememberingResolver:
    """Mixin: ``resolve`` as PyYAML's, remembered per (text, implicit) for scalars."""

    _resolved: ClassVar[dict[tuple[str, Any], str]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._resolved = {}

    @classmethod
    def remembered(cls) -> dict[tuple[str, Any], str]:
        """The answers so far by (text, implicit), for a reader that asks for each scalar itself."""
        return cls._resolved

    def resolve(self, kind: type, value: Any, implicit: Any) -> str:
        if kind is not ScalarNode or self.yaml_path_resolvers:  # type: ignore[attr-defined]
            return super().resolve(kind, value, implicit)  # type: ignore[misc]
        memory = self._resolved
        key = (value, implicit)
        tag = memory.get(key)
        if tag is None:
            tag = super().resolve(kind, value, implicit)  # type: ignore[misc]
            if len(memory) >= MEMORY:
                memory.clear()
            memory[key] = tag
        return tag


class Loader(_RememberingResolver, _BaseLoader):  # type: ignore[misc, valid-type]
    """The safe loader (C where available) that every YAML read of the tool uses."""

    yaml_implicit_resolvers = yaml_1_1_types()


#: Plain text that readers of the files citgen writes take for a number or a boolean where
#: YAML 1.1 reads a string. Kubernetes reads YAML with go-yaml v2 (kubectl, the API server,
#: sigs.k8s.io/yaml): it drops every ``_`` from text starting with a digit, sign or dot and
#: takes what Go's ParseInt (any base prefix, ``0o17``, ``0X1F``), ParseUint or ParseFloat
#: (``1e3``, ``08``) then reads for a number, and ``y``, ``Y``, ``n``, ``N`` for booleans;
#: YAML 1.2 reads ``0o17`` and ``1e3`` as numbers too. A dumper asked about such text says
#: it is not a string, so the emitter quotes it. Wider than those readers on purpose: text
#: quoted needlessly reads the same everywhere.
WRITTEN_QUOTED = (
    ("tag:yaml.org,2002:int", re.compile(r"^[-+]?[0-9_]*[0-9][0-9_]*$|^[-+]?_*0_*[bBoOxX][0-9a-fA-F_]*$"),
     list("-+0123456789_")),
    ("tag:yaml.org,2002:float", re.compile(  # go-yaml's float shape, wherever a "_" is
        r"^[-+]?_*(?:\.[0-9_]*[0-9][0-9_]*|[0-9_]*[0-9][0-9_]*(?:\.[0-9_]*)?)(?:[eE][-+_]*[0-9_]*[0-9][0-9_]*)?$"),
     list("-+.0123456789_")),
    ("tag:yaml.org,2002:bool", re.compile(r"^[yYnN]$"), list("yYnN")),
)


def written_types() -> dict[str | None, list[tuple[str, Any]]]:
    """YAML 1.1's types and the text other readers take for numbers or booleans: what a dumper quotes."""
    table = yaml_1_1_types()
    for tag, pattern, first in WRITTEN_QUOTED:
        for char in first:
            table.setdefault(char, []).append((tag, pattern))
    return table


class Dumper(_RememberingResolver, _BaseDumper):  # type: ignore[misc, valid-type]
    """The safe dumper (C where available) that every YAML written by the tool goes through.

    It quotes what YAML 1.1 reads as another type, and what Kubernetes' reader or YAML
    1.2 would (WRITTEN_QUOTED): a label value ``1e3`` written plain reaches the API
    server as the number 1000, which an object's labels cannot hold.
    """

    yaml_implicit_resolvers = written_types()
