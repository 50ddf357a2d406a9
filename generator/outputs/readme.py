"""The README's resource tables, generated from the catalog between markers.

A table kept by hand drifts from the data the first time a size changes; here
the feature matrix and the instancetype and preference tables are read off the
built objects, and a test fails when README.md no longer matches them.

A catalog's text enters a cell through escape.markdown (display names, page
sizes) and its names through escape.markdown_code: a display name can add no
column, link, image or HTML to the README.
"""

from __future__ import annotations

import re
from typing import Callable, Mapping, Sequence

from .. import escape
from ..errors import InputError
from ..model import CLUSTER_KINDS, CatalogObject
from ..problems import Location, excerpt
from .tables import markdown_table, memory


def _marker(section: str) -> tuple[str, str]:
    return f"<!-- BEGIN citgen readme: {section} -->", f"<!-- END citgen readme: {section} -->"


def _cluster(objects: Sequence[CatalogObject], family: str) -> list[CatalogObject]:
    return [o for o in objects if o.family == family and any(k in CLUSTER_KINDS for k in o.kinds)
            and not o.facts.get("retained")]


def _yes(flag: bool) -> str:
    return "✓" if flag else ""


def _ratio(objects: Sequence[CatalogObject]) -> str:
    """The series' vCPU:memory ratio, read off its ratio-derived (largest) size."""
    largest = max(objects, key=lambda o: (o.facts["cpu"], o.facts["memory"]))
    gib = largest.facts["memory"] / largest.facts["cpu"] / 1024**3
    return f"1:{gib:g}"


def series_matrix(objects: Sequence[CatalogObject]) -> str:
    """One column per series, one row per capability, as read off the generated specs."""
    by_series: dict[str, list[CatalogObject]] = {}
    for obj in _cluster(objects, "instancetype"):
        by_series.setdefault(str(obj.facts["series"]), []).append(obj)
    names = sorted(by_series)

    def every(objs: list[CatalogObject], test: Callable[[Mapping], bool]) -> bool:
        return all(test(o.spec) for o in objs)

    def hugepages(objs: list[CatalogObject]) -> str:
        sizes = sorted({o.spec.get("memory", {}).get("hugepages", {}).get("pageSize") for o in objs} - {None})
        return ", ".join(map(escape.markdown, sizes))

    rows = [
        ("Hugepages", hugepages),
        ("Overcommitted memory", lambda objs: _yes(every(objs, lambda s: "overcommitPercent" in s.get("memory", {})))),
        ("Dedicated CPU", lambda objs: _yes(every(objs, lambda s: bool(s.get("cpu", {}).get("dedicatedCPUPlacement"))))),
        ("Burstable CPU", lambda objs: _yes(every(objs, lambda s: not s.get("cpu", {}).get("dedicatedCPUPlacement")))),
        ("Isolated emulator threads",
         lambda objs: _yes(every(objs, lambda s: bool(s.get("cpu", {}).get("isolateEmulatorThread"))))),
        ("vNUMA", lambda objs: _yes(every(objs, lambda s: "numa" in s.get("cpu", {})))),
        ("GPUs", lambda objs: _yes(every(objs, lambda s: bool(s.get("gpus"))))),
        ("vCPU:memory ratio", _ratio),
    ]
    header = ["", *(escape.markdown(n.upper()) for n in names)]
    table = [[title, *(cell(by_series[n]) for n in names)] for title, cell in rows]
    # A capability no series of this build offers (GPUs, when GN is left out) is not a row.
    return markdown_table(header, [row for row in table if any(row[1:])])


def instancetype_table(objects: Sequence[CatalogObject]) -> str:
    rows = [[escape.markdown_code(o.name), str(o.facts["cpu"]), memory(o.facts["memory"])]
            for o in _cluster(objects, "instancetype")]
    return markdown_table(["Name", "vCPUs", "Memory"], rows)


def preference_table(objects: Sequence[CatalogObject]) -> str:
    rows = [[escape.markdown_code(o.name), escape.markdown(str(o.facts.get("displayName", ""))),
             str(o.facts.get("cpu") or "-"), _text_or_dash(required_memory(o)),
             _text_or_dash(str(o.facts.get("architecture") or ""))]
            for o in _cluster(objects, "preference")]
    return markdown_table(["Name", "Display name", "Min vCPUs", "Min memory", "Architecture"], rows)


def _text_or_dash(value: str) -> str:
    """A catalog's text as Markdown text, or the table's own dash where there is none."""
    return escape.markdown(value) if value and value != "-" else "-"


def required_memory(obj: CatalogObject) -> str:
    """A preference's minimum memory as its author wrote it (``1.5Gi``, not ``1536Mi``)."""
    return str(obj.spec.get("requirements", {}).get("memory", {}).get("guest") or "-")


def tables(objects: Sequence[CatalogObject]) -> dict[str, str]:
    return {
        "series": series_matrix(objects),
        "instancetypes": instancetype_table(objects),
        "preferences": preference_table(objects),
    }


_MARKER = re.compile(r"<!-- (BEGIN|END) citgen readme: (.*?) -->")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")


def _markers(lines: Sequence[str], known: Sequence[str], file: str) -> dict[str, tuple[int, int]]:
    """Each table's (BEGIN line, END line), 0-based; InputError for markers that do not pair up.

    Markers count only on lines of their own outside fenced code blocks, so an
    example of them in the README's own documentation is left alone.
    """
    found: dict[str, tuple[int, int]] = {}
    open_at: tuple[str, int] | None = None
    fence: str | None = None
    for number, line in enumerate(lines):
        opening = _FENCE.match(line)
        if fence is not None:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence) \
                    and not line.strip()[len(opening.group(1)):]:
                fence = None
            continue
        if opening:
            fence = opening.group(1)
            continue
        marker = _MARKER.fullmatch(line.strip())
        if marker is None:
            continue
        where = Location(file, number + 1)
        kind, name = marker.groups()
        if name not in known:
            raise InputError.at(where, f"unknown table {excerpt(name)!r} in a citgen readme marker; "
                                f"the tables are {', '.join(known)}")
        if kind == "BEGIN":
            if open_at is not None:
                raise InputError.at(where, f"the {name} table begins inside the {open_at[0]} table "
                                    f"(begun at line {open_at[1] + 1}); end that one first")
            if name in found:
                raise InputError.at(where, f"the markers of the {name} table appear twice (first at line "
                                    f"{found[name][0] + 1}); keep one pair")
            open_at = (name, number)
        else:
            if open_at is None or open_at[0] != name:
                raise InputError.at(where, f"the {name} table ends here but does not begin before it")
            found[name] = (open_at[1], number)
            open_at = None
    if open_at is not None:
        raise InputError.at(Location(file, open_at[1] + 1), f"the {open_at[0]} table begins here and never ends")
    return found


def update(text: str, generated: Mapping[str, str], file: str = "README.md") -> str:
    """Replace what lies between each pair of markers; markers missing or not pairing up are an error."""
    lines = text.split("\n")
    found = _markers(lines, list(generated), file)
    for section in generated:
        if section not in found:
            begin, end = _marker(section)
            raise InputError.at(Location(file), f"missing the markers of the {section} table: "
                                f"put '{begin}' and '{end}' on lines of their own where it belongs")
    for section, (first, last) in sorted(found.items(), key=lambda item: -item[1][0]):
        lines[first + 1:last] = generated[section].rstrip("\n").split("\n")
    return "\n".join(lines)
