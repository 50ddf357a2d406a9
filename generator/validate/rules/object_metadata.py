"""Names, labels and annotations are ones the Kubernetes API server accepts.

The API server refuses an object whose metadata breaks its syntax, and
``kubectl apply`` of a bundle then stops at that object. This rule applies
the same checks offline, with the API server's wording:

- ``metadata.name`` is present and a DNS-1123 subdomain, as custom resources'
  names must be: at most 253 characters of lowercase letters, digits, ``-``
  and ``.``, starting and ending with a letter or digit.
- Every label key and annotation key is a qualified name: an optional prefix
  that is a DNS-1123 subdomain (at most 253 characters) and a ``/``, then a
  name part of at most 63 letters, digits, ``-``, ``_`` and ``.`` that starts
  and ends with a letter or digit (``example.com/team``). Annotation keys are
  checked as if lowercase, as the API server does.
- Every label value is at most 63 characters of the same alphabet, starting
  and ending with a letter or digit, or empty.
- Labels and annotations map strings to strings: a value written as a YAML
  number or boolean (``cpu: 4`` rather than ``cpu: "4"``) is refused.
- All annotation keys and values of one object together take at most
  262144 bytes (256 KiB).

Example::

    bundle.yaml#0 (u1.large) $.metadata.labels['team example']: 'team example' is not a valid label key: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character [object-metadata]
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Optional, Sequence

from ...objectmeta import (annotation_key_problem, annotations_size_problem, label_key_problem, label_value_problem,
                           name_problem, type_name)
from ...problems import Path, Problem
from ...source.documents import BundleDoc
from .base import RuleContext

ID = "object-metadata"

_META = ("metadata",)


def check(docs: Sequence[BundleDoc], ctx: RuleContext) -> Iterator[Problem]:
    for doc in docs:
        if not isinstance(doc.data, dict):
            continue  # api-version says what a document that is no object is
        meta = doc.data.get("metadata")
        if not isinstance(meta, dict):
            yield Problem(doc.locate(_META), "metadata must be a mapping holding at least the name", ID)
            continue
        yield from _name(doc, meta)
        yield from _map(doc, meta, "labels", label_key_problem, label_value_problem)
        yield from _map(doc, meta, "annotations", annotation_key_problem, None)
        annotations = meta.get("annotations")
        if isinstance(annotations, dict):
            too_big = annotations_size_problem(annotations)
            if too_big:
                yield Problem(doc.locate(_META + ("annotations",)), too_big, ID)


def _name(doc: BundleDoc, meta: dict) -> Iterator[Problem]:
    path = _META + ("name",)
    name = meta.get("name")
    if name is None or name == "":
        yield Problem(doc.locate(_META), "metadata.name is required", ID)
    elif not isinstance(name, str):
        yield Problem(doc.locate(path), f"metadata.name must be a string, got {type_name(name)}", ID)
    else:
        message = name_problem(name)
        if message:
            yield Problem(doc.locate(path), message, ID)


def _map(doc: BundleDoc, meta: dict, section: str, key_problem: Callable[[str], Optional[str]],
         value_problem: Optional[Callable[[str], Optional[str]]]) -> Iterator[Problem]:
    found: Any = meta.get(section)
    if found is None:
        return
    here: Path = _META + (section,)
    if not isinstance(found, dict):
        yield Problem(doc.locate(here), f"metadata.{section} must be a mapping of strings to strings, "
                                        f"got {type_name(found)}", ID)
        return
    singular = section[:-1]
    for key, value in found.items():
        if not isinstance(key, str):
            yield Problem(doc.locate(here), f"{singular} keys must be strings, got {type_name(key)}", ID)
            continue
        message = key_problem(key)
        if message:
            yield Problem(doc.locate(here + (key,)), message, ID)
        if not isinstance(value, str):
            yield Problem(doc.locate(here + (key,)), f"{singular} {key!r} must have a string value, got "
                                                     f"{type_name(value)} (quote it in YAML)", ID)
        elif value_problem is not None:
            message = value_problem(value)
            if message:
                yield Problem(doc.locate(here + (key,)), message, ID)
