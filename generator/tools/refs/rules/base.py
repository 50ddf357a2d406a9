"""What every rule of the judge shares: the context it is given, its registry entry, and how it words a reference."""

from __future__ import annotations

import inspect
from types import ModuleType
from typing import Callable, Iterator, Mapping, Sequence

from ....frozen import frozen
from ....model import Lifecycle
from ....problems import Problem, excerpt
from ..model import Owner, Reference
from ..target import Resolution, Resolver, Target


@frozen
class JudgeContext:
    """What rules judge references against: the target (its objects, and the lifecycle of names) and the resolver."""

    target: Target
    resolver: Resolver


Check = Callable[[Sequence[Resolution], JudgeContext], Iterator[Problem]]


@frozen
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
    """The object a reference is written in: ``VirtualMachine vms/web``, ``ConfigMap``, ``object centos`` (no kind)."""
    kind = excerpt(owner.kind) if owner.kind else "object"
    if not owner.name:
        return kind if owner.kind else "an object"
    where = f"{owner.namespace}/{owner.name}" if owner.namespace else owner.name
    return f"{kind} {excerpt(where)}"


def names(reference: Reference) -> str:
    """``names preference 'fedora'``: the start of every finding about one reference (``names a preference known
    only when applied``, for a name that cannot be known offline). The object it is written in is the finding's
    own (``VirtualMachine shop/web $.spec.preference.name: names ...``: report.py), said once."""
    if reference.name is None:
        article = "an" if reference.family == "instancetype" else "a"
        return f"names {article} {reference.family} known only when applied"
    return f"names {reference.family} {quoted(reference.name)}"


def one_of(words: Sequence[str]) -> str:
    """``'a'``, ``'a' or 'b'``, ``'a', 'b' or 'c'``."""
    shown = [quoted(word) for word in words]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def _what_became(record: Lifecycle) -> str:
    """One step of a name's history: ``centos.8.stream was renamed centos.stream8 in v0.4.0``."""
    when = f" in {record.since}" if record.since else ""
    name = excerpt(record.name)
    if record.status == "deprecated":
        return f"{name} was deprecated{when}"
    if record.renamed and record.replacement:
        return f"{name} was renamed {excerpt(record.replacement)}{when}"
    return f"{name} was removed{when}"


def history(record: Lifecycle, lifecycle: Mapping[tuple[str, str], Lifecycle], described: str) -> str:
    """What became of a name, step by step along its replacements, and what to use today.

    ``centos.8.stream was renamed centos.stream8 in v0.4.0, then centos.stream8 was
    removed in v1.2.1; use 'centos.stream9'``. The steps are the lifecycle data's
    (catalog.yaml's ``retired``, the objects' deprecation annotations).
    """
    steps = [_what_became(record)]
    told = {record.name}
    for name in record.chain:  # the last, when current, has no record
        if name in told:
            break  # a circle: the name met again was told already
        told.add(name)
        step = lifecycle.get((record.family, name))
        if step is not None:
            steps.append(_what_became(step))
    said = ", then ".join(steps)
    if record.current is not None:
        return f"{said}; use {quoted(record.current)}"
    if record.chain:
        return f"{said}; {short_of_current(record, lifecycle, described)}"
    return f"{said}; nothing replaces it"


def short_of_current(record: Lifecycle, lifecycle: Mapping[tuple[str, str], Lifecycle], described: str) -> str:
    """Where the replacements of a name with no current one stop: a circle, or the name they end at and why.

    ``its replacements go round in a circle (b -> c -> b), which reaches no current object``;
    ``its replacements end at 'z', which T does not hold``; ``... at 'x', which T deprecated naming no
    replacement``. ``record.chain`` is not empty (lifecycles: a circle ends at the first name met again).
    """
    last = record.chain[-1]
    met = (record.name, *record.chain[:-1])
    if last in met:
        circle = " -> ".join((*met[met.index(last):], last))
        return f"its replacements go round in a circle ({excerpt(circle)}), which reaches no current object"
    step = lifecycle.get((record.family, last))
    if step is not None and step.status == "deprecated" and step.replacement is None:
        return f"its replacements end at {quoted(last)}, which {described} deprecated naming no replacement"
    return f"its replacements end at {quoted(last)}, which {described} does not hold"
