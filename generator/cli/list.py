"""``citgen list``: browse the catalog's instancetypes or preferences, filtered like kubectl filters."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from fractions import Fraction

import click

from .. import escape
from ..expand.kubevirt import for_release, oldest_accepting
from ..expand.lifecycle import lifecycles
from ..model import CatalogObject, Lifecycle
from ..outputs import readme as readme_tables
from ..outputs.tables import memory, text_table
from ..load.gpu import left_out_note, opt_in_note
from ..pipeline import BuildOptions, catalog_objects, left_out_series
from ..query import Query, Requirement
from ..result import Result
from ..schemas.releases import Release
from .options import CpuCount, QuantityParam, SelectorParam, catalog_option, command, gpu_options, kubevirt_option


def _row(obj: CatalogObject) -> list[str]:
    facts = obj.facts
    return [obj.name, str(facts["class"]), str(facts["cpu"]), memory(facts["memory"]),
            ",".join(facts["features"]) or "-", _oldest(obj)]


def _preference_row(obj: CatalogObject) -> list[str]:
    facts = obj.facts
    return [obj.name, facts["displayName"], str(facts.get("cpu") or "-"),
            readme_tables.required_memory(obj), str(facts.get("architecture") or "-"), _oldest(obj)]


def deprecated_cell(record: Lifecycle | None) -> str:
    """The DEPRECATED column: ``-`` for a current object, else since when and what to use instead, as far as said."""
    if record is None:
        return "-"
    said = [f"since {record.since}"] if record.since else []
    if record.chain:
        said.append("use " + " -> ".join(record.chain))
    return ", ".join(said) or "yes"


def deprecated_record(record: Lifecycle | None) -> dict | None:
    """What ``-o json`` says of an object's deprecation: null for a current object."""
    if record is None:
        return None
    return {"since": record.since, "replacement": record.replacement, "chain": list(record.chain),
            "current": record.current}


def _oldest(obj: CatalogObject) -> str:
    """The oldest KubeVirt release that accepts the object as listed (``-``: none citgen knows)."""
    oldest = oldest_accepting(obj)
    return str(oldest) if oldest is not None else "-"


@command(name="list", closing="citgen: {problems}")
@catalog_option
@gpu_options
@click.option("--preferences", is_flag=True, help="List preferences instead of instancetypes.")
@click.option("--series", "series", multiple=True, help="Only these series (u, cx1, ...). Repeatable.")
@click.option("--cpu", type=CpuCount(), default=None, help="Only objects with (or requiring) this many vCPUs.")
@click.option("--memory", "memory_", type=QuantityParam(), default=None, help="Only objects with (or requiring) this memory, e.g. 8Gi.")
@click.option("-l", "--selector", type=SelectorParam(), default=None,
              help="Label selector as kubectl reads it, e.g. -l 'cpu=4,!gpus'; a key without "
                   "'/' means instancetype.kubevirt.io/<key>.")
@click.option("-o", "--output", type=click.Choice(["table", "name", "json"]), default="table",
              show_default=True, help="What the text report prints: a table, the names, or the objects as JSON "
                                      "(--format json reports them as 'objects' whatever this says).")
@kubevirt_option("List what a build for this KubeVirt release holds (citgen build --kubevirt)")
def list_(catalog: Path | None, gpu_device: str | None, gpu_count: int | None, preferences: bool,
          series: Sequence[str], cpu: int | None, memory_: Fraction | None,
          selector: tuple[Requirement, ...] | None, output: str, kubevirt: Release | None) -> Result:
    """List the catalog's instancetypes (or preferences) with their sizes and features.

    The KUBEVIRT column is the oldest KubeVirt release whose API server accepts the
    object as listed; with --kubevirt the objects are those a build for that
    release holds, fields it lacks respelt or left out. A DEPRECATED column is
    added when a listed object is deprecated: since which release, and what to
    use instead (the replacement, followed to a current object).

    The table ends with a summary naming the catalog listed (the one the
    working directory is in, else the built-in one) and how many objects it
    shows. The GN series is built, and listed, only with a GPU device
    (--gpu-device, or parameters.gpu.deviceName in the catalog); the summary
    says when it was left out, and --series gn says why it lists nothing (on
    standard error with -o name or json).
    """
    query = Query(family="preference" if preferences else "instancetype", series=tuple(series), cpu=cpu,
                  memory=memory_, selector=selector or ())
    options = BuildOptions(catalog=catalog, gpu_device=gpu_device, gpu_count=gpu_count)
    found, version, objects = catalog_objects(options)
    if kubevirt is not None:
        objects, _ = for_release(objects, kubevirt, found.settings.spellings)
    chosen = query.select(objects)
    lifecycle = lifecycles(objects, found.retirements)
    of = [lifecycle.get((o.family, o.name)) for o in chosen]
    records = [{"name": o.name, "labels": dict(o.labels), "spec": o.spec, "kubevirt": _oldest(o),
                "deprecated": deprecated_record(record)} for o, record in zip(chosen, of)]
    # The DEPRECATED column only where something listed is: the usual listing stays as it was.
    header, rows = ((["NAME", "DISPLAY NAME", "MIN VCPUS", "MIN MEMORY", "ARCH", "KUBEVIRT"],
                     [_preference_row(o) for o in chosen]) if preferences else
                    (["NAME", "CLASS", "VCPUS", "MEMORY", "FEATURES", "KUBEVIRT"], [_row(o) for o in chosen]))
    if any(of):
        header, rows = header + ["DEPRECATED"], [row + [deprecated_cell(r)] for row, r in zip(rows, of)]
    if output == "name":
        shown = "".join(f"{o.name}\n" for o in chosen)
    elif output == "json":
        shown = escape.json_text(records, indent=2, sort_keys=True) + "\n"
    else:
        shown = text_table(header, rows)
    said = f"{options.named(version)}: {len(chosen)} {query.family}{'' if len(chosen) == 1 else 's'}"
    skipped = () if preferences else left_out_series(found, options)
    why = [note for name in series if (note := opt_in_note(name, skipped))]
    if why:
        said += "; " + "; ".join(why)
    elif skipped and not series:  # --series naming others: the series left out were not asked for
        said += f"; {left_out_note(skipped)}"
    # The table, for people, ends with the summary, as `ls -l` starts with its total; names and JSON stay
    # what a script reads, and only an explanation (why --series gn is empty) goes to standard error.
    if output == "table":
        shown += f"\n{said}\n"
    return Result("list", product=shown, notes=() if output == "table" or not why else (said,),
                  counts={query.family + "s": len(chosen)},
                  data={"catalog": options.record(version), "summary": said, "objects": records,
                        "leftOut": [s.prefix for s in skipped]})
