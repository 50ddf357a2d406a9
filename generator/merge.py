"""Nested mappings: the two ways the catalog combines a base with changes, and reading one.

``deep_merge`` adds a series' spec to the defaults every instancetype starts
from; ``merge_patch`` applies an overlay's change with RFC 7386 semantics, where
``null`` removes a key; ``dig`` reads the value at a key path, whatever the
mapping holds. All are used by more than one step, so they live apart from the
steps (a step importing another for a helper made import cycles).
"""

from __future__ import annotations

import copy
from typing import Any, Mapping, MutableMapping


def deep_merge(base: MutableMapping[str, Any], extra: Mapping[str, Any]) -> MutableMapping[str, Any]:
    """Merge ``extra`` into ``base`` (mappings recursively, anything else replaced)."""
    for key, value in extra.items():
        if isinstance(value, Mapping) and isinstance(base.get(key), MutableMapping):
            deep_merge(base[key], value)
        else:
            base[key] = copy.deepcopy(value)
    return base


def merge_patch(target: Any, patch: Any) -> Any:
    """JSON merge patch (RFC 7386): mappings merge, null deletes a key, anything else replaces."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge_patch(out.get(key), value)
    return out


def dig(data: Any, *path: str) -> Any:
    """The value at ``path`` inside nested mappings, or None where a key is missing or a value no mapping."""
    for key in path:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data
