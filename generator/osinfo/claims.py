"""The catalog's ``osinfo:`` claims against a database: which releases they name, and which names it does not know.

A claim (model.OsinfoClaim) names OS releases (short-ids or ids) and a line of
them (``rhel9``); here they meet a database: the releases it knows for the claim,
in the order the claim gives them and then the line's in version order, and a
located problem for each name the database does not know, naming the nearest
short-ids it does know. A name the database does not know because it is older
than the release (``rhel10.0`` in a database whose newest RHEL is 9.1) is no
problem: it is left unchecked, and the run's note names it (``OsinfoContext.note``).
"""

from __future__ import annotations

from dataclasses import field
from typing import Iterable, Mapping

from ..frozen import frozen
from ..model import CatalogObject, OsinfoClaim
from ..problems import Location, Problem, excerpt
from .model import OsinfoDatabase, OsRelease

RULE = "osinfo"


@frozen
class OsinfoContext:
    """What the osinfo rule is given: the database, and each preference's claim by preference name."""

    database: OsinfoDatabase
    claims: Mapping[str, OsinfoClaim] = field(default_factory=dict)
    #: The preferences of the catalog that name no OS, by name.
    without: tuple[str, ...] = ()

    @classmethod
    def of(cls, database: OsinfoDatabase, objects: Iterable[CatalogObject]) -> "OsinfoContext":
        """The context of a build's objects: the claim of every preference the catalog defines (not retained ones)."""
        preferences = [o for o in objects if o.family == "preference" and not o.facts.get("retained")]
        claims = {o.name: o.facts["osinfoClaim"] for o in preferences
                  if o.facts.get("osinfoClaim") is not None and o.facts["osinfoClaim"].names_os}
        return cls(database, claims, tuple(sorted(o.name for o in preferences if o.name not in claims)))

    def note(self) -> str:
        """What a run that judged the catalog against the database says: which database, what it could not judge."""
        said = (f"osinfo: {len(self.claims)} preferences judged against the osinfo database {self.database.version} "
                f"({self.database.path})")
        if self.without:
            said += f"; naming no OS: {', '.join(self.without)}"
        newer = newer_names(self.claims.values(), self.database)
        if newer:
            said += f"; newer than the database, not judged: {', '.join(newer)}"
        return said


def releases(claim: OsinfoClaim, database: OsinfoDatabase) -> tuple[OsRelease, ...]:
    """The releases of the database ``claim`` stands for: those it names, then its line's, each once."""
    found: dict[str, OsRelease] = {}
    for name in claim.short_ids:
        release = database.lookup(name)
        if release is not None:
            found.setdefault(release.id, release)
    if claim.line is not None:
        line = database.line(claim.line)
        first = database.lookup(claim.since) if claim.since is not None else None
        if first is not None and first in line:
            line = line[line.index(first):]
        for release in line:
            found.setdefault(release.id, release)
    return tuple(found.values())


def _nearest(database: OsinfoDatabase, name: str) -> str:
    near = database.nearest(name)
    return f"; did you mean {', '.join(near)}?" if near else ""


def _unknown(database: OsinfoDatabase, name: str, where: Location, what: str) -> Problem | None:
    if database.newest_of(name) is not None:
        return None  # newer than the database: named by the note, not a problem
    said = "holds no release of" if what == "line" else "is no OS of"
    return Problem(where, f"{what} {excerpt(name)!r} {said} the osinfo database {database.version}"
                   f"{_nearest(database, name)}", RULE)


def _names(claim: OsinfoClaim) -> list[str]:
    return [*claim.short_ids, *([claim.line] if claim.line is not None else [])]


def newer_names(claims: Iterable[OsinfoClaim], database: OsinfoDatabase) -> tuple[str, ...]:
    """The names of ``claims`` the database does not know because they came out after it, sorted, each once."""
    return tuple(sorted({name for claim in claims for name in _names(claim)
                         if not (database.lookup(name) or (name == claim.line and database.line(name)))
                         and database.newest_of(name) is not None}))


def name_problems(claims: Iterable[OsinfoClaim], database: OsinfoDatabase) -> list[Problem]:
    """A problem for each name written in ``claims`` that the database does not know (and that is not newer than
    it), once per place written."""
    seen: set[tuple[str, Location]] = set()
    problems: list[Problem | None] = []
    for claim in claims:
        for name in claim.short_ids:
            where = claim.written_at.get(name, claim.location)
            if (name, where) in seen:
                continue
            seen.add((name, where))
            if database.lookup(name) is None:
                problems.append(_unknown(database, name, where, "libosinfo OS"))
        if claim.line is not None:
            where = claim.written_at.get(claim.line, claim.location)
            if (claim.line, where) not in seen:
                seen.add((claim.line, where))
                if not database.line(claim.line):
                    problems.append(_unknown(database, claim.line, where, "line"))
        if claim.since is not None and claim.line is not None:
            where = claim.written_at.get(claim.since, claim.location)
            if (claim.since, where) not in seen:
                seen.add((claim.since, where))
                if database.lookup(claim.since) is None and database.line(claim.line):
                    problems.append(_unknown(database, claim.since, where, "libosinfo OS"))
                elif database.lookup(claim.since) is not None and \
                        database.lookup(claim.since) not in database.line(claim.line):
                    problems.append(Problem(where, f"since: {excerpt(claim.since)!r} is no release of the line "
                                            f"{excerpt(claim.line)!r} in the osinfo database {database.version}",
                                            RULE))
    return [p for p in problems if p is not None]
