"""catalog.yaml, the size matrices and the series files, and the pieces other formats share.

These are the contract docs/catalog-format.md describes. Checking them before
anything else means later steps can trust the shape of what they read, and
every mistake is reported with its line (see inputcheck.py).
"""

from __future__ import annotations

from typing import Any, Mapping

from ...features import FEATURES
from ...quantity import MAX_DIGITS

#: A value that ends up as a label value: at most 63 characters, alphanumerics at both
#: ends. The ``label-value`` format is generator/objectmeta.py's check (see source/inputcheck.py, FORMATS), the
#: one the object-metadata rule applies to finished objects.
LABEL_VALUE = {"type": "string", "format": "label-value"}
#: A size name is the part of an instancetype name after the dot, and a label value.
SIZE_NAME = {
    "type": "string",
    "pattern": r"^[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?$",
    "x-expected": "a size name of lowercase letters, digits and '-' (such as 2xlarge)",
}
QUANTITY = {"type": "string", "format": "quantity"}
POSITIVE_INT = {"type": "integer", "minimum": 1}
#: KubeVirt holds a guest's vCPU count in a uint32.
CPU_COUNT = {"type": "integer", "minimum": 1, "maximum": 2**32 - 1}
#: The version is part of every name and a label value: keep it short.
SERIES_VERSION = {"type": "integer", "minimum": 1, "maximum": 9999}
#: The description annotation's text, kept exactly as written (its YAML style decides the
#: line breaks); only text with nothing but white space in it is refused.
#: A description becomes an annotation of each object, and the API server takes 256 KiB of
#: annotations on one object at most: one description may have a quarter of that.
DESCRIPTION_MAX = 65_536
DESCRIPTION = {"type": "string", "pattern": r"\S", "maxLength": DESCRIPTION_MAX,
               "x-expected": f"text that is not blank, at most {DESCRIPTION_MAX} characters (it becomes an "
                             "annotation of each object, and an object's annotations hold 256 KiB at most)"}

#: A catalog object's name, as Kubernetes names objects (a DNS subdomain): ``u1.medium``, ``centos.stream9``.
OBJECT_NAME: dict[str, Any] = {
    "type": "string",
    "pattern": r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
    "maxLength": 253,
    "x-expected": "an object name of lower-case letters, digits, '-' and '.' such as u1.medium",
}
#: A series by its name, the prefix and the version: ``u1``.
SERIES_NAME: dict[str, Any] = {"type": "string", "pattern": r"^[a-z]([a-z-]{0,14}[a-z])?[1-9][0-9]{0,3}$",
                               "x-expected": "a series name such as u1"}
#: A catalog release, as the version label names it: ``v1.3.0``.
CATALOG_RELEASE: dict[str, Any] = {**LABEL_VALUE, "minLength": 1, "x-expected": "a catalog release such as v1.3.0"}


def deprecation(replacement: Mapping[str, Any] | None, where: str, *, removable: bool = False) -> dict[str, Any]:
    """``deprecated``: true, false, or a mapping with the release that deprecated it (and its replacement).

    ``where`` names the mapping in the message about a key it does not allow;
    ``removable`` adds null, which an overlay writes to take an entry away.
    """
    properties: dict[str, Any] = {"since": CATALOG_RELEASE}
    if replacement is not None:
        properties["replacement"] = replacement
    words = "true, false or a mapping with since" + (" and replacement" if replacement is not None else "")
    return {"type": ["boolean", "object"] + (["null"] if removable else []), "properties": properties,
            "minProperties": 1, "additionalProperties": False, "x-in": where,
            "x-message": {"type": f"expected {words}{', or null to remove it' if removable else ''}, got {{got}}"}}


#: A retired name: the catalog release whose build no longer has it, and what replaces it.
RETIREMENT: dict[str, Any] = {
    "type": "object",
    "properties": {"since": CATALOG_RELEASE, "replacement": OBJECT_NAME, "renamed": {"type": "boolean"}},
    "required": ["since"],
    "additionalProperties": False,
    "x-in": "a retirement",
}


def retired(*, removable: bool = False) -> dict[str, Any]:
    """catalog.yaml's (or an overlay's) ``retired``: by family, the names the catalog no longer defines."""
    entry = RETIREMENT if not removable else {**RETIREMENT, "type": ["object", "null"]}
    names = {"type": "object", "minProperties": 1, "propertyNames": {**OBJECT_NAME, "x-at-key": True},
             "additionalProperties": entry}
    return {"type": "object", "properties": {"instancetypes": names, "preferences": names}, "minProperties": 1,
            "additionalProperties": False}


FEATURE_FLAGS: dict[str, Any] = {
    "type": "object",
    "properties": {name: dict(f.schema) for name, f in FEATURES.items()},
    "additionalProperties": False,
}

#: A key path from an object's root, as catalog.yaml writes it: spec.firmware.preferredEfi.
FIELD_PATH: dict[str, Any] = {
    "type": "string",
    "pattern": r"^spec(\.[A-Za-z][A-Za-z0-9]*)+$",
    "x-expected": "a field path such as spec.firmware.preferredEfi",
}
#: A KubeVirt minor release, as spellings date a value.
KUBEVIRT_RELEASE: dict[str, Any] = {"type": "string",
                                    "pattern": rf"^v[0-9]{{1,{MAX_DIGITS}}}\.[0-9]{{1,{MAX_DIGITS}}}$",
                                    "x-expected": "a KubeVirt release such as v1.4"}
#: catalog.yaml's spellings: for each field, the older fields or values that said the same.
SPELLINGS: dict[str, Any] = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "field": FIELD_PATH,
            "as": {
                "type": "object",
                "minProperties": 1,
                "propertyNames": FIELD_PATH,
                "additionalProperties": {
                    "type": "object",
                    "properties": {"value": {}, "from": {"type": "string", "pattern": r"^[A-Za-z][A-Za-z0-9]*$",
                                                         "x-expected": "a subfield name such as secureBoot"}},
                    "minProperties": 1,
                    "maxProperties": 1,
                    "additionalProperties": False,
                    "x-expected": "{value: V} or {from: SUBFIELD}",
                },
            },
            "when": {
                "type": "object",
                "minProperties": 1,
                "additionalProperties": {"type": "array", "minItems": 1},
            },
            "values": {
                "type": "object",
                "minProperties": 1,
                "additionalProperties": {
                    "type": "object",
                    "properties": {"since": KUBEVIRT_RELEASE, "was": {"type": "string", "minLength": 1}},
                    "required": ["since"],
                    "additionalProperties": False,
                },
            },
        },
        "required": ["field"],
        "minProperties": 2,
        "additionalProperties": False,
        "x-in": "a spelling",
    },
}

CATALOG: dict[str, Any] = {
    "type": "object",
    "properties": {
        "vendor": LABEL_VALUE,
        "version": LABEL_VALUE,
        "parameters": {
            "type": "object",
            "properties": {
                "gpu": {
                    "type": "object",
                    "properties": {
                        # What a device name must be is checked by gpu.device_problem, which
                        # words it the same for catalog.yaml, overlays and --gpu-device.
                        "deviceName": {"type": "string", "x-expected": "a GPU device name such as nvidia.com/A400"},
                        "count": {"type": "integer", "minimum": 1, "maximum": 16},
                    },
                    # A count without a device is refused by load/catalog.py (_parameter_problems), in the
                    # words --gpu-count and overlays use.
                    "minProperties": 1,
                    "additionalProperties": False,
                },
            },
            "additionalProperties": False,
        },
        "provider": {
            "type": "object",
            "properties": {
                "displayName": {"type": "string", "minLength": 1},
                "documentationURL": {"type": "string", "minLength": 1},
                "supportURL": {"type": "string", "minLength": 1},
            },
            "required": ["displayName", "documentationURL", "supportURL"],
            "additionalProperties": False,
        },
        # A vendor catalog builds on the built-in one and holds only what differs.
        "extends": {"enum": ["builtin"], "x-expected": "builtin (the catalog that ships with citgen)"},
        # Overlay files applied in order, relative to the catalog directory (see load/overlays.py).
        "overlays": {"type": "array", "items": {"type": "string", "minLength": 1}},
        # Older spellings of settings, for builds for older KubeVirt releases (load/catalog.py).
        "spellings": SPELLINGS,
        # Names of earlier releases the catalog no longer defines, and their replacements (load/lifecycle.py).
        "retired": retired(),
        # The admission policy, built with the bundles (outputs/policy.py): what a retired name gets.
        "policy": {"type": "object", "properties": {"retired": {"enum": ["warn", "deny"],
                                                                "x-expected": "warn or deny"}},
                   "additionalProperties": False, "x-in": "policy"},
        # Preferences labelled with the libosinfo OS releases they are for (expand/stamp.py); opt-in.
        "osLabels": {"type": "boolean"},
    },
    # An extending catalog inherits vendor and version unless it sets them.
    "if": {"required": ["extends"]},
    "then": {},
    "else": {"required": ["vendor", "version"]},
    "additionalProperties": False,
}

SIZES: dict[str, Any] = {
    "type": "object",
    "properties": {
        "matrices": {
            "type": "object",
            "minProperties": 1,
            "propertyNames": {"pattern": r"^[a-z0-9][a-z0-9-]*$",
                              "x-expected": "a matrix name of lowercase letters, digits and '-' (such as standard)"},
            "additionalProperties": {
                "type": "object",
                "minProperties": 1,
                "propertyNames": SIZE_NAME,
                "additionalProperties": {
                    "anyOf": [
                        CPU_COUNT,
                        {
                            "type": "object",
                            "properties": {"cpu": CPU_COUNT, "memory": QUANTITY},
                            "required": ["cpu", "memory"],
                            "additionalProperties": False,
                        },
                    ],
                },
            },
        },
    },
    "required": ["matrices"],
    "additionalProperties": False,
}

SIZE_SELECTION: dict[str, Any] = {
    "anyOf": [
        {"const": "all"},
        {"type": "array", "items": SIZE_NAME, "minItems": 1},
        {
            "type": "object",
            "properties": {
                "from": SIZE_NAME,
                "to": SIZE_NAME,
                "exclude": {"type": "array", "items": SIZE_NAME},
            },
            "additionalProperties": False,
        },
    ],
    "x-expected": "'all', a list of size names, or a mapping with from, to and exclude",
}

#: A series' ``deprecatedSizes``: each size true, false (current in a deprecated series) or its deprecation.
DEPRECATED_SIZES: dict[str, Any] = {
    "type": "object",
    "minProperties": 1,
    "propertyNames": {**SIZE_NAME, "x-at-key": True,
                      "x-expected": "a size of the series as its names end, such as medium or medium1gi"},
    "additionalProperties": deprecation(OBJECT_NAME, "a size's deprecation"),
}

SERIES: dict[str, Any] = {
    "type": "object",
    "properties": {
        "prefix": {
            "type": "string",
            "pattern": r"^[a-z]([a-z-]{0,14}[a-z])?$",
            "x-expected": "a short series prefix of lowercase letters such as cx",
        },
        "version": SERIES_VERSION,
        "class": LABEL_VALUE,
        "displayName": {"type": "string", "minLength": 1},
        "description": DESCRIPTION,
        "icon": LABEL_VALUE,
        "ratio": {
            "type": "string",
            # Whole vCPUs and a memory share greater than zero: "1:0" would make sizes of no memory.
            "pattern": r"^[1-9][0-9]*:([0-9]*[1-9][0-9]*(\.[0-9]+)?|0+\.[0-9]*[1-9][0-9]*)$",
            "x-expected": "a vCPU:memory ratio in GiB such as \"1:4\"",
            # Its digits bounded as every number's (quantity.MAX_DIGITS) before they are read; text that is
            # no ratio at all is left to the pattern above, which says so once.
            "allOf": [{"pattern": rf"^(?:[^0-9]*[0-9]){{0,{MAX_DIGITS}}}[^0-9]*$|[^0-9.:]",
                       "x-expected": f"a vCPU:memory ratio of at most {MAX_DIGITS} digits"}],
        },
        "matrix": {"type": "string"},
        "sizes": SIZE_SELECTION,
        "features": FEATURE_FLAGS,
        "spec": {"type": "object"},
        "variants": {
            "type": "object",
            "propertyNames": {
                "pattern": r"^[a-z0-9]{1,8}$",
                "x-expected": "a variant suffix of lowercase letters and digits such as 1gi",
            },
            "additionalProperties": FEATURE_FLAGS,
        },
        # The whole series; its replacement is a series, whose sizes replace those of the same name.
        "deprecated": deprecation(SERIES_NAME, "a series' deprecation"),
        # Sizes deprecated on their own, by the part of the name after the dot (medium, medium1gi).
        "deprecatedSizes": DEPRECATED_SIZES,
    },
    "required": ["prefix", "version", "class", "displayName", "description", "icon", "ratio"],
    "additionalProperties": False,
}
