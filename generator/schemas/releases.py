"""The KubeVirt releases citgen knows: one shipped schema file per minor release.

A cluster runs a patch release (v1.8.4), but the CRD schemas and admission rules of
a minor release are those of its newest patch, so citgen keys everything by minor
release: ``v1.8``, ``1.8`` and ``v1.8.4`` all name v1.8. The releases known are the
files in ``kubevirt/`` (written by ``citgen schema import``); the newest is the
default wherever a command takes ``--kubevirt``.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from ..frozen import frozen
from ..paths import SCHEMAS
from ..quantity import MAX_DIGITS

#: The folder of the package's schemas that holds one file per release.
RELEASE_FILES = "kubevirt"
#: ASCII digits, as many as any number citgen reads may have, so that ``int()`` reads each quickly.
_SPELLING = re.compile(rf"v?([0-9]{{1,{MAX_DIGITS}}})\.([0-9]{{1,{MAX_DIGITS}}})(?:\.([0-9]{{1,{MAX_DIGITS}}}))?")


class UnknownRelease(ValueError):
    """A ``--kubevirt`` value that names no release citgen knows; the message lists those it does."""


@frozen(order=True)
class Release:
    """A minor release of KubeVirt, ordered by its version: ``Release(1, 8)`` is v1.8."""

    major: int
    minor: int

    def __str__(self) -> str:
        return f"v{self.major}.{self.minor}"

    @classmethod
    def parse(cls, text: str) -> "Release":
        """``v1.8`` (or ``1.8``, ``v1.8.4``) as a Release, known to citgen or not; ValueError otherwise."""
        found = _SPELLING.fullmatch(text)
        if not found:
            raise ValueError(f"{text[:40]!r} is not a release")
        return cls(int(found.group(1)), int(found.group(2)))

    @property
    def info(self) -> dict[str, Any]:
        """What its shipped schemas were imported from: ``kubevirt`` (the patch tag), ``commit`` and ``source``."""
        data = release_data(self)
        return {"kubevirt": data["kubevirt"], "commit": data["commit"], "source": data["source"]}


def minor_of(text: str) -> str:
    """``v1.8.4`` -> ``v1.8``; ValueError for a text that is no release."""
    found = _SPELLING.fullmatch(text)
    if not found:
        raise ValueError(f"{text!r} is not a release")
    return f"v{int(found.group(1))}.{int(found.group(2))}"


def _parse(name: str) -> Release:
    found = _SPELLING.fullmatch(name)
    assert found is not None, name
    return Release(int(found.group(1)), int(found.group(2)))


@lru_cache(maxsize=None)
def known() -> tuple[Release, ...]:
    """Every release with shipped schemas, oldest first."""
    folder = SCHEMAS / RELEASE_FILES
    names = [entry.name[:-len(".json")] for entry in folder.iterdir()
             if entry.name.endswith(".json") and _SPELLING.fullmatch(entry.name[:-len(".json")])]
    return tuple(sorted(_parse(name) for name in names))


def newest() -> Release:
    """The newest release citgen knows: what it judges and builds for by default."""
    return known()[-1]


def shown() -> str:
    return ", ".join(str(r) for r in known())


def resolve(text: str | None) -> Release:
    """The release a ``--kubevirt`` value names (None: the newest); UnknownRelease otherwise."""
    if text is None:
        return newest()
    found = _SPELLING.fullmatch(text.strip())
    release = Release(int(found.group(1)), int(found.group(2))) if found else None
    if release is None or release not in known():
        what = "not a KubeVirt release" if release is None else "a release citgen has no schemas for"
        raise UnknownRelease(f"{text[:40]!r} is {what}; expected one of {shown()} "
                             "(v1.8, 1.8 and v1.8.4 all mean v1.8)")
    return release


@lru_cache(maxsize=None)
def release_data(release: Release) -> dict[str, Any]:
    """The shipped file of ``release``: its origin and each kind's JSON Schema."""
    text = (SCHEMAS / RELEASE_FILES / f"{release}.json").read_text(encoding="utf-8")
    return json.loads(text)
