"""The format of a vendor overlay file, as a JSON Schema.

An overlay is checked against this schema before anything is applied, so a
misspelt key is reported at its line with the closest known key (inputcheck.py)
and the code applying an overlay can trust the shape of what it reads. Bodies
that also appear in catalog files (a series, a size matrix, feature flags)
reuse the schemas of catalog.py and preferences.py: a vendor writes a series the same way in an
overlay as the built-in catalog does in series/*.yaml.
"""

from __future__ import annotations

import copy
from typing import Any

from ...features import FEATURES
from . import catalog as formats
from .preferences import PREFERENCE_NAME, TAG, TRAIT_LIST, TRAIT_NAME

#: Names a list of drop/keep entries may hold: series names or prefixes, size
#: names, preference names or glob patterns. What they refer to is checked when
#: the overlay is applied, where the catalog is known.
NAME_LIST: dict[str, Any] = {
    "type": "array",
    "minItems": 1,
    "items": {"type": "string", "minLength": 1},
}

_REQUIREMENTS = {
    "type": "object",
    "properties": {"cpu": formats.POSITIVE_INT, "memory": formats.QUANTITY},
    "minProperties": 1,
    "additionalProperties": False,
}
_TEXT = {"type": "string", "minLength": 1}


def _preference(*, adding: bool) -> dict[str, Any]:
    """A preference body: as in a family file when adding, every key optional when changing."""
    properties: dict[str, Any] = {
        "displayName": _TEXT,
        "description": formats.DESCRIPTION,
        "basedOn": PREFERENCE_NAME,
        "osType": _TEXT,
        "iconClass": _TEXT,
        "tags": {"type": "array", "items": TAG},
        "traits": TRAIT_LIST,
        "requirements": _REQUIREMENTS,
        "spec": {"type": "object"},
        # It must replace something (docs/catalog-format.md); an empty one never does.
        "overrideSpec": {"type": "object", "minProperties": 1},
        "deprecated": formats.deprecation(formats.OBJECT_NAME, "a preference's deprecation"),
    }
    if adding:
        properties["family"] = {"type": "string", "minLength": 1}
        return {"type": "object", "properties": properties, "required": ["description"],
                "additionalProperties": False}
    properties["addTraits"] = TRAIT_LIST
    return {"type": "object", "properties": properties, "minProperties": 1, "additionalProperties": False}


def _removable(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    """A feature flag's schema that also accepts null, which removes the flag from a series."""
    if "enum" in schema:
        words = ", ".join(str(v) for v in schema["enum"])
    elif schema.get("type") == "boolean":
        words = "true, false"
    elif schema.get("type") == "integer":
        words = f"a whole number from {schema.get('minimum', 0)} to {schema.get('maximum', 'any')}"
    else:  # pragma: no cover - every feature is one of the above
        words = "a value"
    return {"anyOf": [dict(schema), {"type": "null"}],
            "x-expected": f"{words}, or null to remove {name}"}


_FEATURE_CHANGES = {
    "type": "object",
    "properties": {name: _removable(name, dict(f.schema)) for name, f in FEATURES.items()},
    "additionalProperties": False,
}

_SERIES_PROPERTIES = formats.SERIES["properties"]

SERIES_CHANGE: dict[str, Any] = {
    "type": "object",
    "properties": {
        **{key: _SERIES_PROPERTIES[key] for key in (
            "version", "class", "displayName", "description", "icon", "ratio", "matrix", "sizes",
            "variants", "deprecated")},
        "features": _FEATURE_CHANGES,
        "spec": {"type": "object"},
        # Merged size by size into the series' own; null takes a size's entry away.
        "deprecatedSizes": {**formats.DEPRECATED_SIZES,
                            "additionalProperties": formats.deprecation(formats.OBJECT_NAME, "a size's deprecation",
                                                                        removable=True)},
    },
    "minProperties": 1,
    "additionalProperties": False,
}

#: A new series: a series file, keyed by its prefix (so ``prefix:`` may be left out).
SERIES_ADD: dict[str, Any] = copy.deepcopy(formats.SERIES)
SERIES_ADD["required"] = [k for k in SERIES_ADD["required"] if k != "prefix"]

_PREFIX_KEY = _SERIES_PROPERTIES["prefix"]

_GPU = copy.deepcopy(formats.CATALOG["properties"]["parameters"]["properties"]["gpu"])
_GPU.pop("required", None)
_GPU["minProperties"] = 1
_PROVIDER = copy.deepcopy(formats.CATALOG["properties"]["provider"])
_PROVIDER.pop("required", None)
_PROVIDER["minProperties"] = 1


def _section(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "minProperties": 1, "additionalProperties": False}


OVERLAY: dict[str, Any] = {
    "type": "object",
    "properties": {
        "vendor": formats.LABEL_VALUE,
        "version": formats.LABEL_VALUE,
        # Keys are checked where the overlay is applied, which can point at the key's own line.
        "labels": {"type": "object", "additionalProperties": formats.LABEL_VALUE},
        "annotations": {"type": "object", "additionalProperties": {"type": "string"}},
        "parameters": _section(gpu=_GPU),
        "provider": _PROVIDER,
        # Older spellings for builds for older KubeVirt releases: each replaces the catalog's of its field.
        "spellings": formats.SPELLINGS,
        # Retired names added or changed, each replacing the catalog's entry of its name; null takes one away.
        "retired": formats.retired(removable=True),
        "matrices": _section(add=formats.SIZES["properties"]["matrices"]),
        "series": _section(
            add={"type": "object", "minProperties": 1, "propertyNames": _PREFIX_KEY,
                 "additionalProperties": SERIES_ADD},
            drop=NAME_LIST,
            keep=NAME_LIST,
            change={"type": "object", "minProperties": 1, "additionalProperties": SERIES_CHANGE},
        ),
        "sizes": _section(drop=NAME_LIST, keep=NAME_LIST),
        "traits": _section(
            add={
                "type": "object",
                "minProperties": 1,
                "propertyNames": TRAIT_NAME,
                "additionalProperties": {
                    "type": "object",
                    "properties": {"description": _TEXT, "spec": {"type": "object", "minProperties": 1},
                                   "tags": {"type": "array", "items": TAG}, "essential": {"type": "boolean"}},
                    "required": ["description", "spec"],
                    "additionalProperties": False,
                },
            },
        ),
        "preferences": _section(
            add={"type": "object", "minProperties": 1, "propertyNames": PREFERENCE_NAME,
                 "additionalProperties": _preference(adding=True)},
            drop=NAME_LIST,
            keep=NAME_LIST,
            change={"type": "object", "minProperties": 1, "additionalProperties": _preference(adding=False)},
        ),
    },
    "additionalProperties": False,
}
