"""What the Kubernetes API server demands of ObjectMeta: names, label keys and values, annotations.

One implementation, used from both ends of a build. The ``object-metadata``
rule holds finished objects to it, whoever wrote them; the input checks
(catalog formats, overlays, build options) hold each value to it where the
value enters, so a build refuses a bad class or label key at the line that
wrote it rather than at every object it would have reached. The rules and
their wording follow k8s.io/apimachinery (``IsQualifiedName``,
``IsValidLabelValue``, ``IsDNS1123Subdomain`` in pkg/util/validation,
``ValidateAnnotations`` in pkg/api/validation), so a message here reads like
the one ``kubectl apply`` would have printed, minus the regular expressions.

Lengths are counted in bytes of UTF-8, as Go's ``len`` counts them; the
patterns are matched against the whole string (``fullmatch``), since Python's
``$`` would let a trailing newline through where Go's does not.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Mapping, Optional

#: A label key's or annotation key's name part, after the optional prefix and '/'.
QUALIFIED_NAME_MAX = 63
#: A label value.
LABEL_VALUE_MAX = 63
#: An object name, and a key's prefix.
SUBDOMAIN_MAX = 253
#: Every annotation key and value of one object together (apimachinery's ValidateAnnotationsSize).
ANNOTATIONS_SIZE_MAX = 256 * 1024

_NAME_PART = r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_SUBDOMAIN_PART = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*"
_QUALIFIED = re.compile(_NAME_PART)
_LABEL_VALUE = re.compile(f"({_NAME_PART})?")
_SUBDOMAIN = re.compile(_SUBDOMAIN_PART)
_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")
_CONFIG_KEY = re.compile(r"[-._a-zA-Z0-9]+")
#: The data of one ConfigMap together, in bytes (apimachinery's ValidateConfigMap: MaxSecretSize).
CONFIGMAP_DATA_MAX = 1024 * 1024

#: A label key as one regular expression, for schemas that cannot call the functions
#: below (a Helm chart's values.schema.json); lengths are bounded separately there.
LABEL_KEY_PATTERN = f"^({_SUBDOMAIN_PART}/)?{_NAME_PART}$"

_QUALIFIED_MSG = ("must consist of alphanumeric characters, '-', '_' or '.', "
                  "and must start and end with an alphanumeric character")
_LABEL_VALUE_MSG = ("a valid label must be an empty string or consist of alphanumeric characters, "
                    "'-', '_' or '.', and must start and end with an alphanumeric character")
_LABEL_MSG = ("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
              "and must start and end with an alphanumeric character")
_SUBDOMAIN_MSG = ("a DNS-1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
                  "and must start and end with an alphanumeric character")


def _size(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def _too_long(limit: int) -> str:
    return f"must be no more than {limit} characters"


def _bounded_match(value: str, limit: int, pattern: re.Pattern[str], message: str) -> list[str]:
    """What is wrong with ``value``: longer than ``limit`` bytes, and not all of it ``pattern`` (``message``)."""
    errors = []
    if _size(value) > limit:
        errors.append(_too_long(limit))
    if not pattern.fullmatch(value):
        errors.append(message)
    return errors


def subdomain_errors(value: str) -> list[str]:
    """apimachinery's IsDNS1123Subdomain: what is wrong with ``value`` as a DNS subdomain."""
    return _bounded_match(value, SUBDOMAIN_MAX, _SUBDOMAIN, _SUBDOMAIN_MSG)


def dns_label_errors(value: str) -> list[str]:
    """apimachinery's IsDNS1123Label: what is wrong with ``value`` as a DNS label (a namespace's name)."""
    return _bounded_match(value, QUALIFIED_NAME_MAX, _LABEL, _LABEL_MSG)


def qualified_name_errors(value: str) -> list[str]:
    """apimachinery's IsQualifiedName: an optional DNS subdomain prefix and '/', then a name part.

    An empty name part is reported once ("must be non-empty") rather than also
    as breaking the pattern, which says nothing more.
    """
    parts = value.split("/")
    if len(parts) > 2:
        return [f"a qualified name {_QUALIFIED_MSG}, with an optional DNS subdomain prefix and '/' "
                "(e.g. 'example.com/MyName')"]
    errors = []
    name = parts[-1]
    if len(parts) == 2:
        prefix = parts[0]
        if not prefix:
            errors.append("prefix part must be non-empty")
        else:
            errors.extend(f"prefix part {message}" for message in subdomain_errors(prefix))
    if not name:
        errors.append("name part must be non-empty")
        return errors
    if _size(name) > QUALIFIED_NAME_MAX:
        errors.append(f"name part {_too_long(QUALIFIED_NAME_MAX)}")
    if not _QUALIFIED.fullmatch(name):
        errors.append(f"name part {_QUALIFIED_MSG}")
    return errors


def label_value_errors(value: str) -> list[str]:
    """apimachinery's IsValidLabelValue: at most 63 characters of the key alphabet, or empty."""
    errors = []
    if _size(value) > LABEL_VALUE_MAX:
        errors.append(_too_long(LABEL_VALUE_MAX))
    if not _LABEL_VALUE.fullmatch(value):
        errors.append(_LABEL_VALUE_MSG)
    return errors


def annotation_key_errors(key: str) -> list[str]:
    """An annotation key is a qualified name in which case does not matter (ValidateAnnotations)."""
    return qualified_name_errors(key.lower())


def annotations_size(annotations: Mapping[Any, Any]) -> int:
    """Bytes of every key and value together, as ValidateAnnotationsSize counts them; non-strings count 0."""
    return sum(_size(k) if isinstance(k, str) else 0 for k in annotations) + sum(
        _size(v) if isinstance(v, str) else 0 for v in annotations.values())


def _sentence(value: str, what: str, errors: list[str]) -> Optional[str]:
    return f"{value!r} is not a valid {what}: {'; '.join(errors)}" if errors else None


@lru_cache(maxsize=4096)  # a catalog repeats a few dozen keys and values on every object
def label_key_problem(key: str) -> Optional[str]:
    """Why ``key`` cannot be a label key, in one sentence; None when it can."""
    return _sentence(key, "label key", qualified_name_errors(key))


@lru_cache(maxsize=4096)
def label_value_problem(value: str) -> Optional[str]:
    """Why ``value`` cannot be a label value, in one sentence; None when it can."""
    return _sentence(value, "label value", label_value_errors(value))


@lru_cache(maxsize=4096)
def annotation_key_problem(key: str) -> Optional[str]:
    """Why ``key`` cannot be an annotation key, in one sentence; None when it can."""
    return _sentence(key, "annotation key", annotation_key_errors(key))


def name_problem(name: str) -> Optional[str]:
    """Why ``name`` cannot name an instancetype or preference (a DNS subdomain), in one sentence."""
    return _sentence(name, "object name", subdomain_errors(name))


def configmap_key_errors(key: str) -> list[str]:
    """apimachinery's IsConfigMapKey: what is wrong with ``key`` as a key of a ConfigMap's data."""
    errors = _bounded_match(key, SUBDOMAIN_MAX, _CONFIG_KEY,
                            "a valid config key must consist of alphanumeric characters, '-', '_' or '.'")
    if key in (".", ".."):
        errors.append(f"must not be {key!r}")
    elif key.startswith(".."):
        errors.append("must not start with '..'")
    return errors


def configmap_key_problem(key: str) -> Optional[str]:
    """Why ``key`` cannot be a key of a ConfigMap's data, in one sentence; None when it can."""
    return _sentence(key, "ConfigMap key", configmap_key_errors(key))


def configmap_data_size(data: Mapping[str, str]) -> int:
    """The bytes a ConfigMap's data counts against CONFIGMAP_DATA_MAX: its keys and values."""
    return sum(_size(key) + _size(value) for key, value in data.items())


def namespace_problem(name: str) -> Optional[str]:
    """Why ``name`` cannot name a namespace (a DNS label: ValidateNamespaceName), in one sentence."""
    return _sentence(name, "namespace name", dns_label_errors(name))


def annotations_size_problem(annotations: Mapping[Any, Any]) -> Optional[str]:
    """Why these annotations are too large for one object, in one sentence; None when they fit.

    A character takes at most 4 bytes of UTF-8, so annotations of fewer than a
    quarter of the limit in characters fit without being encoded: every object
    of a build is checked, and nearly all of them are far below the limit.
    """
    try:
        if 4 * sum(len(k) + len(v) for k, v in annotations.items()) <= ANNOTATIONS_SIZE_MAX:
            return None
    except TypeError:  # a key or value that is not text: count exactly, skipping it
        pass
    total = annotations_size(annotations)
    if total <= ANNOTATIONS_SIZE_MAX:
        return None
    return (f"annotations take {total} bytes (keys and values together), more than the "
            f"{ANNOTATIONS_SIZE_MAX} bytes (256 KiB) the API server allows on one object")


def type_name(value: Any) -> str:
    """``the integer 5``: how a non-string key or value is named in a message."""
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, float):
        return f"the number {value!r}"
    if value is None:
        return "nothing (null)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return repr(value)
