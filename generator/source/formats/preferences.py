"""The preference family files (preferences/*.yaml) and the trait files (preferences/traits/*.yaml).

A family file is read on even when parts of it are wrong: the explainer leaves out
what breaks its schema and the loader builds what is left, so a run reports a
misspelt key together with what the rest of the file leads to (a preference
missing the displayName the misspelt key was meant to give).

A few messages here keep the words these files were refused with before they had a
schema (``x-message``, ``x-in``, ``x-required``; formats/__init__.py says how they are
used), since tests, docs/errors.md and users' scripts quote them; everything else is
in the explainer's one wording.
"""

from __future__ import annotations

from typing import Any

from ...osinfo.checks import CHECKS
from .catalog import DESCRIPTION, OBJECT_NAME, QUANTITY, deprecation

#: A preference is an object name (a DNS subdomain): Kubernetes allows 253 characters.
PREFERENCE_NAME: dict[str, Any] = {
    "type": "string",
    "pattern": r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
    "maxLength": 253,
    "x-expected": "a preference name of lower-case letters, digits, '-' and '.' such as fedora.gpu",
}

#: A trait is named by its file, and by the entries of the lists that use it.
TRAIT_NAME: dict[str, Any] = {
    "type": "string",
    "pattern": r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?$",
    "x-expected": "a trait name of lower-case letters, digits and '-' such as efi-secureboot",
}

#: A family is named by its file and groups objects in the outputs (folders, values keys).
FAMILY_NAME = r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$"

#: Tags are joined with commas into one annotation, so a tag holds none.
TAG: dict[str, Any] = {"type": "string", "pattern": r"^[^,]+$", "x-expected": "a non-empty tag without commas"}
TAGS: dict[str, Any] = {"type": "array", "items": TAG, "x-message": {"type": "expected a list of strings, got {kind}"}}

#: ``NAME`` or ``{trait: NAME, override: true}``. Written with one type list rather than
#: anyOf, so that a mistake inside the mapping form is explained where it is.
TRAIT_REF: dict[str, Any] = {
    "type": ["string", "object"],
    "minLength": 1,
    "properties": {"trait": {"type": "string", "minLength": 1}, "override": {"type": "boolean"}},
    "required": ["trait"],
    "additionalProperties": False,
    "x-in": "a trait entry",
    "x-expected": "a trait name, or a mapping {trait: NAME, override: true}",
}
TRAIT_LIST: dict[str, Any] = {"type": "array", "items": TRAIT_REF}

#: Text a person reads (a display name, an OS type, an icon class): anything but blank.
_TEXT: dict[str, Any] = {"type": "string", "pattern": r"\S", "x-message": {
    "type": "{name} must be a non-empty string, got {kind}",
    "pattern": "{name} must be a non-empty string, got {got}"}}
#: ``deprecated`` of a preference: true, false, or the release that deprecated it and the preference replacing it.
PREFERENCE_DEPRECATION: dict[str, Any] = {
    **deprecation(OBJECT_NAME, "a preference's deprecation"),
    "x-message": {"type": "{name} must be true, false or a mapping with since and replacement, got {kind}"},
}
#: ``deprecated`` of a family: a family names no replacement, each of its preferences names its own.
FAMILY_DEPRECATION: dict[str, Any] = {
    **deprecation(None, "a family's deprecation, which names no replacement (each preference names its own)"),
    "x-message": {"type": "{name} must be true, false or a mapping with since, got {kind}"},
}
#: A spec fragment: its fields are KubeVirt's, checked against KubeVirt's schema (load/traits.py).
_FRAGMENT: dict[str, Any] = {"type": "object"}

#: What a guest needs at least. Null leaves a value unset, as these files have always been read.
REQUIREMENTS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "cpu": {"type": ["integer", "null"], "minimum": 1, "x-expected": "a whole number of vCPUs (1 or more)"},
        "memory": {**QUANTITY, "type": ["string", "null"], "x-message": "memory: {message}"},
    },
    "additionalProperties": False,
}

#: A libosinfo OS: a short-id as virt-v2v reports it (``rhel9.1``, ``win2k19``) or an id URI.
OSINFO_NAME: dict[str, Any] = {
    "type": "string",
    "pattern": r"^([a-z0-9][a-z0-9.+_-]*|https?://[^\s]+)$",
    "maxLength": 253,
    "x-expected": "a libosinfo short-id such as rhel9.1 or an id such as http://redhat.com/rhel/9.1",
}
#: ``osinfo:`` of a family or preference: the OS releases it is for, and the differences from the database
#: the data accepts, each with its reason (docs/catalog-format.md, "The OS a preference is for").
OSINFO: dict[str, Any] = {
    "type": ["string", "array", "object"],
    **{k: v for k, v in OSINFO_NAME.items() if k != "type"},
    "minItems": 1,
    "items": OSINFO_NAME,
    "properties": {
        "os": {"type": ["string", "array"], **{k: v for k, v in OSINFO_NAME.items() if k != "type"},
               "minItems": 1, "items": OSINFO_NAME, "x-message": {
                   "pattern": f"expected {OSINFO_NAME['x-expected']}, got {{got}}",
                   "minItems": "expected at least one short-id, got an empty list"}},
        "line": {"type": "string", "pattern": r"^[a-z][a-z0-9.+_-]*$", "maxLength": 253,
                 "x-expected": "a line of releases named as their short-ids start, such as rhel9 (rhel9.0, "
                               "rhel9.1, ...)"},
        "since": {**OSINFO_NAME, "x-expected": "the short-id of the line's first release the preference is for, "
                                               "such as fedora36"},
        "accept": {
            "type": "object",
            "minProperties": 1,
            "propertyNames": {"enum": sorted(CHECKS), "x-at-key": True,
                              "x-expected": f"a check of the osinfo rule: {', '.join(sorted(CHECKS))}"},
            "additionalProperties": {**_TEXT, "x-message": {
                "type": "the reason for accepting {name} must be a non-empty string, got {kind}",
                "pattern": "the reason for accepting {name} must be a non-empty string, got {got}"}},
        },
    },
    "dependentRequired": {"since": ["line"]},
    "additionalProperties": False,
    "x-in": "osinfo",
    "x-expected": "a short-id, a list of them, or a mapping with os, line, since and accept",
    "x-message": {
        "pattern": f"expected {OSINFO_NAME['x-expected']}, got {{got}}",
        "maxLength": f"expected {OSINFO_NAME['x-expected']}, got {{got}}",
        "minItems": "expected at least one short-id, got an empty list",
        "dependentRequired": "since names the first release of a line the preference is for: write the line too",
    },
}

PREFERENCE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "displayName": _TEXT,
        # Kept exactly as written: its YAML style decides the line breaks.
        "description": DESCRIPTION,
        "basedOn": _TEXT,
        "osType": _TEXT,
        "iconClass": _TEXT,
        "tags": TAGS,
        "traits": TRAIT_LIST,
        "requirements": REQUIREMENTS,
        "spec": _FRAGMENT,
        "overrideSpec": _FRAGMENT,
        "deprecated": PREFERENCE_DEPRECATION,
        "osinfo": OSINFO,
    },
    "required": ["description"],
    "additionalProperties": False,
    "x-in": "preference {name!r}",
}

FAMILY: dict[str, Any] = {
    "type": "object",
    "properties": {
        "osType": _TEXT,
        "iconClass": _TEXT,
        "tags": TAGS,
        "traits": TRAIT_LIST,
        "requirements": REQUIREMENTS,
        "deprecated": FAMILY_DEPRECATION,
        "osinfo": OSINFO,
        "preferences": {
            "type": "object",
            "minProperties": 1,
            "propertyNames": {
                **PREFERENCE_NAME,
                # Reported at the name itself: the name is what to change.
                "x-at-key": True,
                "x-message": {
                    "pattern": "preference name {name!r} must be lower-case letters, digits, dashes and dots, "
                               "starting and ending with a letter or digit",
                    "maxLength": "preference name is {length} characters long; Kubernetes allows at most 253",
                },
            },
            "additionalProperties": PREFERENCE,
        },
    },
    "required": ["preferences"],
    "additionalProperties": False,
    "x-in": "a family file",
}

TRAIT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "description": DESCRIPTION,
        "spec": {"type": "object", "minProperties": 1},
        "tags": TAGS,
        "essential": {"type": "boolean", "x-expected": "true or false: whether the trait's fields are what a "
                                                       "preference using it is for"},
    },
    "required": ["description", "spec"],
    "additionalProperties": False,
    "x-in": "a trait",
    "x-required": {"description": "a trait needs a one-line description (a non-empty string)"},
}
