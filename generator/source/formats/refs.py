"""The format of ``citgen refs``'s configuration file, as a JSON Schema.

The file says where, besides the APIs citgen knows, manifests hold catalog names
(generator/tools/refs/places.py): under ``names``, a list of places, each written as
on the command line (``preference=ConfigMap/forklift-*-osmap:data.*``) or as a
mapping of the same parts. Paths and specs are read by places.py, which locates
their mistakes at their line.
"""

from __future__ import annotations

from typing import Any

_TEXT = {"type": "string", "minLength": 1}

#: One place as a mapping: what the values name, the objects, the path in them.
PLACE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "family": {"enum": ["instancetype", "preference"]},
        "kind": _TEXT,
        "apiVersion": _TEXT,
        "group": {"type": "string"},
        "name": _TEXT,
        "path": _TEXT,
    },
    "required": ["family", "kind", "path"],
    "additionalProperties": False,
}

#: The configuration file: ``names``, the places.
REFS_CONFIG: dict[str, Any] = {
    "type": "object",
    "properties": {
        "names": {"type": "array", "items": {"anyOf": [_TEXT, PLACE]}},
    },
    "additionalProperties": False,
}
