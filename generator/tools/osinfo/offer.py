"""Which preference the catalog offers for a libosinfo OS, and why.

A guest is known by its libosinfo short-id: virt-v2v reports the guest it converted
as one (``rhel9.2``, ``win2k19``), and a migration tool's guest-OS table can be
translated into them (tools/osinfo/guests.py). Each OS preference says which OS
releases it is for (its ``osinfo`` claim: short-ids, and the line of releases it
stands for, such as ``rhel9`` for ``rhel.9``). The answer for a short-id is, in
order of how sure it is:

- ``release``: a preference names the release itself (``win2k19``: ``windows.2k19``);
- ``line``: the release belongs to the line a preference stands for: the claim lists
  it, or the database says so (derived from a release the claim lists, or of the
  same distribution and major version, where a version names one release: Windows'
  is the NT version, 10.0 for 10, 11, 2016, 2019 and 2022), or, for a release the
  database does not know yet, its short-id does (``rhel9.2`` is ``rhel9`` followed
  by a minor version);
- ``distro``: a preference stands for the whole distribution (its line is the
  database's ``<distro>``, such as ``ubuntu``): the distribution's generic preference;
- ``family``: a preference claims libosinfo's generic OS of the release's family
  (``linux2022`` for the family ``linux``): the family's generic preference.

Several preferences may make the same claim (``windows.2k19`` and
``windows.2k19.virtio``; ``rhel.9`` and ``rhel.9.desktop``). The one offered is the
one for the architecture asked (``amd64`` by default: a preference for no
particular architecture fits any), with virtio devices or without as the guest's
drivers are (virt-v2v installs virtio drivers into the guests it converts, VMware
guests have none), and of those the one with the shortest name: the others are
variants of it (desktop, DPDK, real time), listed beside the answer.

Everything here is a pure function of the catalog's claims (``Candidate``) and the
database (generator/osinfo/model.py); nothing reads a file.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Iterator, Mapping, Sequence

from ...frozen import frozen
from ...osinfo.model import OsinfoDatabase, OsRelease
from .guests import GuestOs

#: How sure an answer is, surest first; the reason each answer states.
REASONS = ("release", "line", "distro", "family")
#: libosinfo's generic OSes (one per family and year: ``linux2022``) have ids under this prefix.
GENERIC = "http://libosinfo.org/"
#: Where the words saying why name the preference offered: a character no XML text and no argument holds, so
#: that nothing a database or a command line says is read as the placeholder or as a format.
NAME = "\x00"
#: How many derives-from steps are followed from a release to one a preference claims.
MOST_STEPS = 64


@frozen
class Candidate:
    """One preference as the offer sees it: what it claims, for which architecture, and its disk bus."""

    name: str
    short_ids: tuple[str, ...]
    line: str | None = None
    architecture: str | None = None  # KubeVirt's name (amd64, arm64, s390x); None: any
    virtio: bool = False  # its preferred disk bus is virtio
    deprecated: bool = False
    written: tuple[str, ...] = ()  # the releases among short_ids its claim names itself (the others: its line's)
    since: str | None = None  # the version of the line's first release it is for (its claim's since:)


@frozen
class Offer:
    """The catalog's answer for one short-id: the preference, why, and the other preferences making the same claim."""

    short_id: str
    os: OsRelease | None
    preference: str | None = None
    reason: str | None = None  # one of REASONS; None: the catalog does not cover the OS
    why: str = ""
    also: tuple[str, ...] = ()

    @property
    def covered(self) -> bool:
        return self.preference is not None


def _version_key(version: str) -> tuple[tuple[int, Any], ...]:
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in version.split("."))


def _before_since(os: OsRelease, candidate: Candidate) -> bool:
    """Whether ``os`` is older than the first release of the line the candidate is for (its claim's since:)."""
    return candidate.since is not None and os.version is not None and \
        _version_key(os.version) < _version_key(candidate.since)


def _major(version: str | None) -> str | None:
    return version.split(".")[0] if version else None


def _line_by_name(short_id: str, line: str) -> bool:
    """Whether ``short_id`` is a release of ``line`` by its spelling: the line then a minor version (rhel9 -> rhel9.2)."""
    return short_id == line or re.fullmatch(re.escape(line) + r"\.[0-9]+", short_id) is not None


def _derived(os: OsRelease, claimed: set[str], db: OsinfoDatabase) -> OsRelease | None:
    """The release ``os`` derives from (following derives-from, within its distribution and major version) that is
    in ``claimed``; None when there is none."""
    seen = {os.id}
    current = [os]
    for _ in range(MOST_STEPS):
        following = []
        for one in current:
            for parent_id in one.derives_from:
                parent = db.by_id(parent_id)
                if parent is None or parent.id in seen or parent.distro != os.distro or \
                        _major(parent.version) != _major(os.version):
                    continue
                if claimed & set(parent.short_ids):
                    return parent
                seen.add(parent.id)
                following.append(parent)
        if not following:
            return None
        current = following
    return None


def _choose(found: Sequence[Candidate], arch: str, virtio: bool) -> tuple[Candidate, tuple[str, ...]] | None:
    """The candidate offered among those making the same claim, and the others that fit the architecture."""
    fitting = [c for c in found if c.architecture in (None, arch)]
    if not fitting:
        return None
    ranked = sorted(fitting, key=lambda c: (c.deprecated, c.virtio != virtio, c.architecture is None, len(c.name),
                                            c.name))
    return ranked[0], tuple(sorted(c.name for c in ranked[1:]))


def _stages(short_id: str, os: OsRelease | None, db: OsinfoDatabase,
            candidates: tuple[Candidate, ...]) -> Iterator[tuple[list[Candidate], str, str]]:
    """The candidates of each stage of the answer, surest first, with the reason and the words saying why
    (NAME: the preference offered)."""
    names = set(os.short_ids) if os is not None else {short_id}
    label = f"{os.name} ({short_id})" if os is not None else short_id
    lined = [c for c in candidates if c.line is not None]
    yield [c for c in candidates if names & set(c.short_ids) and c.line is None], "release", \
        f"{NAME} is for {label}"
    for c in lined:
        if names & set(c.short_ids):
            how = "its claim names it" if names & set(c.written) else f"the database {db.version} has it in the line"
            yield [x for x in lined if x.line == c.line and names & set(x.short_ids)], "line", \
                f"{label} is a release of the line {c.line}, which {NAME} stands for ({how})"
    if os is None:
        for c in lined:
            if _line_by_name(short_id, c.line or ""):
                yield [x for x in lined if x.line == c.line], "line", \
                    f"{short_id} is named as a release of the line {c.line}, which {NAME} stands for (the " \
                    f"database {db.version} does not know it)"
        distro = re.match(r"[a-z]+(-[a-z]+)*", short_id)
        if distro is not None:
            yield [c for c in lined if c.line == distro[0]], "distro", \
                f"{short_id} is named as a release of the distribution {distro[0]}, whose generic preference is " \
                f"{NAME} (the database {db.version} does not know it)"
        return
    # a version shared by releases of the distribution names no line (Windows': the NT version, 10.0 for 10, 11,
    # 2016, 2019 and 2022; Fedora's: 35 for Fedora 35 and Silverblue 35 alike, which are one line)
    related = [c for c in lined if not _before_since(os, c)] \
        if sum(1 for r in db.oses if r.distro == os.distro and r.version == os.version) == 1 else []
    for c in related:
        parent = _derived(os, set(c.short_ids), db)
        if parent is not None:
            yield [x for x in lined if x.line == c.line], "line", \
                f"{label} derives from {parent.short_ids[0]} (the database says), a release of the line {c.line}, " \
                f"which {NAME} stands for"
    major = _major(os.version)
    for c in related:
        releases = [r for r in (db.by_short_id(s) for s in c.short_ids) if r is not None]
        if os.distro and major and c.line != os.distro and \
                any(r.distro == os.distro and _major(r.version) == major for r in releases):
            yield [x for x in lined if x.line == c.line], "line", \
                f"{label} is {os.distro} {major}, as the releases of the line {c.line} are (the database says), " \
                f"which {NAME} stands for"
    if os.distro:
        yield [c for c in lined if c.line == os.distro], "distro", \
            f"{label} is of the distribution {os.distro}, whose generic preference is {NAME}"
    if os.family:
        yield [c for c in candidates if any(r is not None and r.id.startswith(GENERIC) and r.family == os.family
                                            for r in (db.by_short_id(s) for s in c.short_ids))], "family", \
            f"{label} is of the family {os.family}, whose generic preference is {NAME}"


def offer(short_id: str, db: OsinfoDatabase, candidates: Iterable[Candidate], *, arch: str = "amd64",
          virtio: bool = True) -> Offer:
    """The preference the catalog offers for ``short_id``, and why (module docstring)."""
    os = db.by_short_id(short_id)
    for found, reason, why in _stages(short_id, os, db, tuple(candidates)):
        chosen = _choose(found, arch, virtio)
        if chosen is not None:
            return Offer(short_id, os, chosen[0].name, reason, why.replace(NAME, chosen[0].name), chosen[1])
    return Offer(short_id, os)


def offers(db: OsinfoDatabase, candidates: Iterable[Candidate], *, arch: str = "amd64",
           virtio: bool = True) -> tuple[Offer, ...]:
    """The offer for every OS of the database that the catalog covers, in the database's order (by id)."""
    candidates = tuple(candidates)
    found = (offer(os.short_ids[0], db, candidates, arch=arch, virtio=virtio) for os in db.oses if os.short_ids)
    return tuple(one for one in found if one.covered)


def guest_table(ids: Mapping[str, GuestOs], db: OsinfoDatabase, candidates: Iterable[Candidate], *,
                arch: str = "amd64", virtio: bool = True) -> tuple[dict[str, str], dict[str, str]]:
    """A source's guest-OS table (tools/osinfo/guests.py) answered by the catalog: id -> preference, and for each
    id left out, why."""
    candidates = tuple(candidates)
    lined = [c for c in candidates if c.line is not None]
    table: dict[str, str] = {}
    left: dict[str, str] = {}
    for key, guest in ids.items():
        if guest.short_id is not None:
            found = offer(guest.short_id, db, candidates, arch=arch, virtio=virtio)
            if found.covered:
                table[key] = str(found.preference)
            else:
                left[key] = f"no preference of the catalog covers {guest.short_id}"
        elif guest.distro is not None:
            chosen = _choose([c for c in lined if c.line == guest.distro], arch, virtio)
            if chosen is not None:
                table[key] = chosen[0].name
            else:
                left[key] = f"no preference of the catalog stands for the distribution {guest.distro}"
        else:
            left[key] = guest.untranslated or "libosinfo has no OS for it"
    return table, left

