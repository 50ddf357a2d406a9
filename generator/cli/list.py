"""``citgen list``: browse the catalog's instancetypes or preferences, filtered like kubectl filters."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

import click

from ..errors import InputError
from ..model import CatalogObject
from ..outputs import readme as readme_tables
from ..outputs.tables import memory, text_table
from ..pipeline import BuildOptions, catalog_objects
from ..problems import Location
from ..query import Query, parse_selector
from ..quantity import QuantityError, parse as parse_quantity
from .options import catalog_option


def _row(obj: CatalogObject) -> list[str]:
    facts = obj.facts
    return [obj.name, str(facts["class"]), str(facts["cpu"]), memory(facts["memory"]),
            ",".join(facts["features"]) or "-"]


def _preference_row(obj: CatalogObject) -> list[str]:
    facts = obj.facts
    return [obj.name, str(facts.get("displayName", "")), str(facts.get("cpu") or "-"),
            readme_tables.required_memory(obj), str(facts.get("architecture") or "-")]


@click.command(name="list")
@catalog_option
@click.option("--preferences", is_flag=True, help="List preferences instead of instancetypes.")
@click.option("--series", "series", multiple=True, help="Only these series (u, cx1, ...). Repeatable.")
@click.option("--cpu", type=int, default=None, help="Only objects with (or requiring) this many vCPUs.")
@click.option("--memory", "memory_", default=None, help="Only objects with (or requiring) this memory, e.g. 8Gi.")
@click.option("-l", "--selector", default=None,
              help="Label selector as kubectl reads it, e.g. -l 'cpu=4,!gpus'; a key without "
                   "'/' means instancetype.kubevirt.io/<key>.")
@click.option("-o", "--output", type=click.Choice(["table", "name", "json"]), default="table",
              show_default=True)
def list_(catalog: Path | None, preferences: bool, series: Sequence[str], cpu: int | None,
          memory_: str | None, selector: str | None, output: str) -> None:
    """List the catalog's instancetypes (or preferences) with their sizes and features."""
    wanted_memory = None
    if memory_ is not None:
        try:
            wanted_memory = parse_quantity(memory_)
        except QuantityError as exc:
            raise InputError.at(Location("--memory"), str(exc)) from None
    query = Query(family="preference" if preferences else "instancetype", series=tuple(series), cpu=cpu,
                  memory=wanted_memory, selector=parse_selector(selector) if selector else ())
    _, _, objects = catalog_objects(BuildOptions(catalog=catalog))
    chosen = query.select(objects)
    if output == "name":
        click.echo("".join(f"{o.name}\n" for o in chosen), nl=False)
    elif output == "json":
        click.echo(json.dumps([{"name": o.name, "labels": dict(o.labels), "spec": o.spec} for o in chosen],
                              indent=2, sort_keys=True))
    elif preferences:
        click.echo(text_table(["NAME", "DISPLAY NAME", "MIN VCPUS", "MIN MEMORY", "ARCH"],
                              [_preference_row(o) for o in chosen]), nl=False)
    else:
        click.echo(text_table(["NAME", "CLASS", "VCPUS", "MEMORY", "FEATURES"], [_row(o) for o in chosen]),
                   nl=False)
