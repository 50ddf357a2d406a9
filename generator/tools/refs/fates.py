"""What a target knows of the fate of names: deprecated (since when, for what), renamed or removed.

The judge words its findings from these facts rather than from guesses: a
deprecated object's finding names its replacement and the release that deprecated
it, and an unknown name the catalog once had says what became of it
(``centos.8.stream was renamed centos.stream8 in v0.4.0``) instead of suggesting
the nearest names. The facts come from the objects themselves (the deprecated label)
and from the catalog's lifecycle data where the target is a catalog's build.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ...model import INSTANCETYPE_KINDS, PREFERENCE_KINDS, label

DEPRECATED = label("deprecated")


@dataclass(frozen=True)
class Deprecation:
    """An object the target labels deprecated: the catalog release that did, and the name to use instead."""

    since: str | None = None
    replacement: str | None = None


@dataclass(frozen=True)
class Retirement:
    """A name the target no longer has: ``renamed`` (to ``renamed_to``) or ``removed``, in ``release``.

    ``replacement`` is the name to use today, when the catalog says which (it
    may differ from ``renamed_to``, itself removed since).
    """

    name: str
    fate: str
    release: str | None = None
    renamed_to: str | None = None
    replacement: str | None = None

    def __str__(self) -> str:
        when = f" in {self.release}" if self.release else ""
        said = (f"{self.name} was renamed {self.renamed_to}{when}" if self.fate == "renamed" and self.renamed_to
                else f"{self.name} was removed{when}")
        if self.replacement and self.replacement != self.renamed_to:
            said += f"; use {self.replacement}"
        elif self.replacement and self.fate != "renamed":
            said += f"; use {self.replacement}"
        return said


@dataclass(frozen=True)
class Fates:
    """Every deprecation and retirement a target knows, by family and name."""

    deprecations: Mapping[tuple[str, str], Deprecation] = field(default_factory=dict)
    retirements: Mapping[tuple[str, str], Retirement] = field(default_factory=dict)

    def deprecation(self, family: str, name: str) -> Deprecation | None:
        return self.deprecations.get((family, name))

    def retirement(self, family: str, name: str) -> Retirement | None:
        return self.retirements.get((family, name))


def family_of(kind: str) -> str | None:
    """The family of a catalog object's kind; None for any other kind."""
    if kind in INSTANCETYPE_KINDS:
        return "instancetype"
    if kind in PREFERENCE_KINDS:
        return "preference"
    return None


def labels_of(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    meta = obj.get("metadata")
    labels = meta.get("labels") if isinstance(meta, Mapping) else None
    return labels if isinstance(labels, Mapping) else {}


def is_deprecated(obj: Mapping[str, Any]) -> bool:
    """Whether an object carries the catalog's deprecated label."""
    return labels_of(obj).get(DEPRECATED) == "true"


def fates_of(objects: Mapping[tuple[str, str], Mapping[str, Any]],
             retirements: Mapping[tuple[str, str], Retirement] = {}) -> Fates:
    """The deprecations of ``objects`` (by kind and name; each labelled deprecated) and the names retired."""
    found: dict[tuple[str, str], Deprecation] = {}
    for (kind, name), obj in objects.items():
        family = family_of(kind)
        if family is not None and is_deprecated(obj):
            found.setdefault((family, name), _deprecation(obj))
    return Fates(found, dict(retirements))


def _deprecation(obj: Mapping[str, Any]) -> Deprecation:
    """What an object deprecated says of itself; nothing more than the label, until the catalog records more."""
    return Deprecation()
