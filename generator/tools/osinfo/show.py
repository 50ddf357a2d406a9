"""What ``citgen osinfo`` reports: the offers as a table for people, records for programs, or a guest-OS table."""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from ...errors import InputError
from ...objectmeta import CONFIGMAP_DATA_MAX, configmap_data_size, configmap_key_problem
from ...osinfo.model import OsinfoDatabase
from ...outputs.tables import text_table
from ...problems import Location, Problem
from ...result import Result
from ...suggest import nearest
from .guests import SOURCES
from .offer import Candidate, Offer, guest_table, offer, offers
from .osmap import configmap

#: The rule of a short-id the catalog offers no preference for.
RULE = "uncovered-os"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def os_record(offered: Offer) -> dict[str, Any] | None:
    os = offered.os
    if os is None:
        return None
    return {"id": os.id, "name": os.name, "family": os.family, "distro": os.distro, "version": os.version}


def offer_record(offered: Offer) -> dict[str, Any]:
    """One answer for the JSON report."""
    return {"shortId": offered.short_id, "os": os_record(offered), "preference": offered.preference,
            "reason": offered.reason, "why": offered.why or None, "also": list(offered.also)}


def uncovered(offered: Offer, db: OsinfoDatabase, candidates: Sequence[Candidate]) -> Problem:
    """The finding of a short-id the catalog offers nothing for, located at the short-id as given."""
    os = offered.os
    if os is not None:
        what = ", ".join(f"{name} {value}" for name, value in (("family", os.family), ("distro", os.distro))
                         if value)
        said = (f"no preference of the catalog is for {os.name} ({what}): none claims it, its line, its "
                f"distribution or its family")
    else:
        claimed = {s for c in candidates for s in c.short_ids}
        close = list(dict.fromkeys([*db.nearest(offered.short_id), *nearest(offered.short_id, claimed, limit=3)]))
        hint = f" (did you mean {', '.join(close[:3])}?)" if close else ""
        said = (f"libosinfo's database {db.version} has no OS of this short-id, and no preference of the catalog "
                f"claims it or a line or distribution it is named after{hint}")
    return Problem(Location(offered.short_id), said, RULE)


def lookup_result(short_ids: Iterable[str], db: OsinfoDatabase, candidates: Sequence[Candidate], *, arch: str,
                  virtio: bool, named: str, record: Mapping[str, Any]) -> Result:
    """The answers for the short-ids asked: a table and why each, a finding for each the catalog does not cover."""
    answers = [offer(short_id, db, candidates, arch=arch, virtio=virtio) for short_id in short_ids]
    covered = [a for a in answers if a.covered]
    rows = [[a.short_id, str(a.preference), str(a.reason), ", ".join(a.also) or "-"] for a in covered]
    # said as lines (a GitHub annotation each, in that format), after the findings, as refs says its summary
    table = text_table(["SHORT-ID", "PREFERENCE", "REASON", "ALSO"], rows).splitlines() if covered else []
    why = [f"{a.short_id}: {a.why}" for a in covered]
    said = f"{named}: {len(covered)} of {_plural(len(answers), 'short-id')} covered"
    problems = tuple(uncovered(a, db, candidates) for a in answers if not a.covered)
    return Result("osinfo", problems=problems, outputs=(*table, *why, said),
                  counts={"shortIds": len(answers), "covered": len(covered)},
                  data={**record, "offers": [offer_record(a) for a in answers]})


def all_result(db: OsinfoDatabase, candidates: Sequence[Candidate], *, arch: str, virtio: bool, named: str,
               record: Mapping[str, Any]) -> Result:
    """The map of every OS of the database the catalog covers, as a table."""
    found = offers(db, candidates, arch=arch, virtio=virtio)
    rows = [[a.short_id, a.os.name if a.os is not None else "-", str(a.preference), str(a.reason)] for a in found]
    said = (f"{named}: {len(found)} of {len(db.oses)} OS releases covered by "
            f"{_plural(len({a.preference for a in found}), 'preference')}")
    return Result("osinfo", product=text_table(["SHORT-ID", "OS", "PREFERENCE", "REASON"], rows) + "\n",
                  outputs=(said,), counts={"oses": len(db.oses), "covered": len(found)},
                  data={**record, "offers": [offer_record(a) for a in found]})


def table_result(table: str, db: OsinfoDatabase, candidates: Sequence[Candidate], *, arch: str,
                 virtio: bool | None, namespace: str | None, named: str, record: Mapping[str, Any]) -> Result:
    """The guest-OS table of ``table`` as a ConfigMap on standard output; what it leaves out, and why, beside it.

    Forklift's vSphere table offers the preferences without virtio devices, its oVirt table those with them;
    ``virtio`` (None: as the tool's table does) decides.
    """
    with_virtio = virtio if virtio is not None else table != "vsphere"
    if table == "osinfo":
        found = offers(db, candidates, arch=arch, virtio=with_virtio)
        data = {a.short_id: str(a.preference) for a in found}
        left: dict[str, str] = {}
    else:
        data, left = guest_table(SOURCES[table], db, candidates, arch=arch, virtio=with_virtio)
    for key in [key for key in data if configmap_key_problem(key) is not None]:  # a database's id, written as a key
        left[key] = f"{configmap_key_problem(key)}: the API server refuses it as a key of the ConfigMap"
        del data[key]
    size = configmap_data_size(data)
    if size > CONFIGMAP_DATA_MAX:
        raise InputError.at(Location("--table"), (
            f"the {table} table of {len(data)} entries is {size} bytes of data, more than the {CONFIGMAP_DATA_MAX} "
            "bytes the API server accepts in one ConfigMap; the database holds more OS releases than a guest-OS "
            "table can map"))
    said = f"generated by citgen osinfo --all --table {table} from the {named}"
    entries = f"{len(data)} entries" if len(data) != 1 else "1 entry"
    summary = (f"{named}: {entries} written" +
               (f", {len(left)} left out" if left else ""))
    notes = tuple(f"{key}: left out: {why}" for key, why in sorted(left.items())) + (summary,)
    return Result("osinfo", product=configmap(table, data, namespace, said), notes=notes, pipeable=True,
                  counts={"entries": len(data), "leftOut": len(left)},
                  data={**record, "table": table, "entries": dict(sorted(data.items())), "leftOut": dict(left)})
