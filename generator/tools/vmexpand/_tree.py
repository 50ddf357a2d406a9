"""Small helpers for walking and filling plain-dict Kubernetes objects.

KubeVirt's Go code tests pointers for nil and strings for ""; on parsed YAML the
same questions are "is the key absent or null" and "is it absent, null or empty".
Keeping those two tests in one place makes every port below read like its source.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any


def child(parent: MutableMapping[str, Any], key: str) -> dict:
    """The mapping under ``key``, created empty when absent or null (Go's ``if x == nil { x = &T{} }``)."""
    value = parent.get(key)
    if not isinstance(value, dict):
        value = {}
        parent[key] = value
    return value


def path(root: MutableMapping[str, Any], *keys: str) -> dict:
    """Walk ``keys`` from ``root``, creating each missing mapping on the way."""
    node = root
    for key in keys:
        node = child(node, key)
    return node


def get(root: Any, *keys: str | int, default: Any = None) -> Any:
    """Read a nested value without creating anything; ``default`` when any step is missing."""
    node = root
    for key in keys:
        if isinstance(key, int):
            if not isinstance(node, list) or key >= len(node):
                return default
        elif not isinstance(node, dict) or key not in node:
            return default
        node = node[key]
    return default if node is None else node


def is_unset(mapping: Any, key: str) -> bool:
    """True when ``key`` is absent or null: a Go nil pointer."""
    return not isinstance(mapping, dict) or mapping.get(key) is None


def is_empty(mapping: Any, key: str) -> bool:
    """True when ``key`` is absent, null, empty or zero: a Go zero value (``""``, ``0``, ``false``)."""
    if not isinstance(mapping, dict):
        return True
    value = mapping.get(key)
    return value is None or value == "" or value == 0 or value is False or value == {} or value == []


def items(mapping: Any, key: str) -> list:
    """The list under ``key``, or an empty list when absent, null or not a list."""
    value = mapping.get(key) if isinstance(mapping, dict) else None
    return value if isinstance(value, list) else []


#: The types of a parsed value that are never changed in place, exactly (a subclass takes the longer way).
_ATOMS = frozenset({str, int, float, bool, type(None)})


def tree_copy(value: Any) -> Any:
    """A copy of a parsed YAML or JSON value that shares nothing mutable with it.

    What ``copy.deepcopy`` gives for such values, at a fraction of its cost: only
    mappings and lists are copied (mappings as dicts), every other value is immutable.
    A plain value inside is taken as it is, without a call (the cross-product check
    copies a few hundred thousand of them).
    """
    kind = type(value)
    if kind is dict:
        return {key: item if type(item) in _ATOMS else tree_copy(item) for key, item in value.items()}
    if kind is list:
        return [item if type(item) in _ATOMS else tree_copy(item) for item in value]
    if isinstance(value, (str, int, float)) or value is None:
        return value
    if isinstance(value, list):
        return [tree_copy(item) for item in value]
    if isinstance(value, Mapping):
        return {key: tree_copy(item) for key, item in value.items()}
    return value
