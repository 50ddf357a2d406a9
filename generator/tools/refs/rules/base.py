"""What every rule of the judge shares: the context it is given, its registry entry, and how it words a reference."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from types import ModuleType
from typing import Callable, Iterator, Sequence

from ....problems import Problem, excerpt
from ..model import Owner, Reference
from ..target import Resolution, Resolver, Target


@dataclass(frozen=True)
class JudgeContext:
    """What rules judge references against: the target (its objects, and the fates of names) and the resolver."""

    target: Target
    resolver: Resolver


Check = Callable[[Sequence[Resolution], JudgeContext], Iterator[Problem]]


@dataclass(frozen=True)
class RefRule:
    """A registered rule: its ID, one-line summary, documentation and check (as validate's rules are)."""

    id: str
    summary: str
    doc: str
    check: Check

    @classmethod
    def from_module(cls, module: ModuleType) -> "RefRule":
        text = inspect.cleandoc(module.__doc__ or "")
        summary, _, rest = text.partition("\n")
        return cls(module.ID, summary.strip(), rest.strip(), module.check)


def quoted(value: str) -> str:
    """A name from a manifest in a message: quoted, on one line, at most an excerpt of it."""
    return f"'{excerpt(value)}'"


def owner_text(owner: Owner) -> str:
    """The object a reference is written in: ``VirtualMachine vms/web``, ``DataImportCron centos``, ``ConfigMap``."""
    if not owner.name:
        return excerpt(owner.kind)
    where = f"{owner.namespace}/{owner.name}" if owner.namespace else owner.name
    return f"{excerpt(owner.kind)} {excerpt(where)}"


def names(reference: Reference) -> str:
    """``VirtualMachine web names preference 'fedora'``: the start of every finding about one reference."""
    return f"{owner_text(reference.owner)} names {reference.family} {quoted(reference.name or '')}"


def one_of(words: Sequence[str]) -> str:
    """``'a'``, ``'a' or 'b'``, ``'a', 'b' or 'c'``."""
    shown = [quoted(word) for word in words]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"
