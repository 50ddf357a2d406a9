"""The `citgen` command line: parse options, call the pipeline, report.

Every user mistake arrives here as a CitgenError, printed as located problems
with the error's exit code (2 for unusable input, 1 for problems found); no
Python traceback reaches a user for a mistake in their input.
"""

from __future__ import annotations

import importlib
import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any, Sequence

import click

from .. import __version__
from ..source import inputfiles
from ..outputs import readme as readme_tables
from ..errors import CitgenError, InputError
from ..load.gpu import left_out_note
from ..source.inputfiles import read_text
from ..model import CLUSTER_KINDS, CatalogObject
from ..pipeline import BuildOptions, catalog_objects, generate
from ..problems import Location
from ..quantity import QuantityError, parse as parse_quantity
from ..expand.retain import retained_note
from .selector import matches, parse_selector
from ..outputs.tables import memory, text_table
from ..write import LOCK_TIMEOUT, Staging


#: Commands that live in modules of their own, imported only when they run (or help
#: lists them): a build does not pay for the validator's, expander's or schema
#: importer's imports.
LAZY_COMMANDS = {
    "validate": ("generator.cli.validate", "validate"),
    "expand": ("generator.cli.expand", "expand_command"),
    "schema": ("generator.cli.schema", "schema"),
    "init": ("generator.cli.vendor", "init"),
    "diff": ("generator.cli.vendor", "diff"),
}


class CitgenGroup(click.Group):
    """Reports CitgenErrors as messages and exit codes instead of tracebacks."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in LAZY_COMMANDS and cmd_name not in self.commands:
            module, attribute = LAZY_COMMANDS[cmd_name]
            self.add_command(getattr(importlib.import_module(module), attribute), cmd_name)
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CitgenError as exc:
            for problem in exc.problems:
                click.echo(f"error: {problem}", err=True)
            count = len(exc.problems)
            click.echo(f"citgen: {count} problem{'s' if count != 1 else ''}, nothing written"
                       if ctx.invoked_subcommand == "build" else
                       f"citgen: {count} problem{'s' if count != 1 else ''}", err=True)
            ctx.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo("citgen: interrupted", err=True)
            ctx.exit(130)


class SizeParam(click.ParamType):
    """A size in bytes as people write it: 64MiB, 200Mi, 1G."""

    name = "SIZE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        try:
            return inputfiles.parse_size(str(value))
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


@click.group(cls=CitgenGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="citgen")
@click.option(inputfiles.SIZE_OPTION, "max_file_size", type=SizeParam(), envvar=inputfiles.SIZE_VARIABLE,
              default=inputfiles.show_size(inputfiles.DEFAULT_MAX_FILE_SIZE).replace(" ", ""), show_default=True,
              help=f"Largest file citgen reads (catalog files, overlays, bundles, VM files, templates); "
                   f"also {inputfiles.SIZE_VARIABLE}.")
@click.option(inputfiles.DOCUMENTS_OPTION, "max_documents", type=click.IntRange(min=1),
              envvar=inputfiles.DOCUMENTS_VARIABLE, default=inputfiles.DEFAULT_MAX_DOCUMENTS, show_default=True,
              help=f"Most YAML documents citgen reads from one file; also {inputfiles.DOCUMENTS_VARIABLE}.")
@click.pass_context
def main(ctx: click.Context, max_file_size: int, max_documents: int) -> None:
    """Generate KubeVirt's common instancetype and preference catalog from data.

    The built-in catalog (series, size matrices, preferences, templates) ships
    with citgen; --catalog DIR points any command at another catalog.

    citgen reads only regular files, each within the limits below, so that a
    file a pull request brings can neither hang a run nor exhaust its memory.
    """
    # in force while the command runs, restored after it (a test may run many commands in one process)
    ctx.with_resource(inputfiles.limited(inputfiles.Limits(max_file_size, max_documents)))


catalog_option = click.option(
    "--catalog", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="Catalog directory (default: the built-in catalog).")


@main.command()
@catalog_option
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("bundles"),
              show_default=True, help="Output directory; a build replaces its whole contents.")
@click.option("--version", "version", default=None,
              help="Catalog version stamped as the common-instancetypes-version label "
                   "(default: catalog.yaml's version, or --release).")
@click.option("--release", default=None, metavar="vX.Y.Z",
              help="Also write versioned bundle names (common-...-bundle-vX.Y.Z.yaml) for a release.")
@click.option("--gpu-device", default=None, metavar="nvidia.com/MODEL",
              help="NVIDIA GPU device of the GN series, which is built only when a device is configured "
                   "(here or as parameters.gpu.deviceName).")
@click.option("--gpu-count", type=int, default=None,
              help="GPUs per GN instancetype, 1 to 16 (default: parameters.gpu.count, else 1); needs a device.")
@click.option("--retain-from", "retain_from", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Old bundle whose objects the catalog no longer defines are carried over exactly as "
                   "released (instancetype.kubevirt.io/v1beta1 only), labelled deprecated. Repeatable.")
@click.option("--overlay", "overlays", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Overlay file changing the catalog without copying it; applied in order. Repeatable.")
@click.option("--helm-package", is_flag=True, help="Also write the packaged Helm chart (.tgz).")
@click.option("--lock-timeout", type=click.FloatRange(min=0), default=LOCK_TIMEOUT, show_default=True,
              metavar="SECONDS", help="How long to wait while another citgen build writes the same --out.")
def build(catalog: Path | None, out: Path, version: str | None, release: str | None,
          gpu_device: str | None, gpu_count: int | None, retain_from: Sequence[Path],
          overlays: Sequence[Path], helm_package: bool, lock_timeout: float) -> None:
    """Build, validate and write the bundles and checksums.

    Everything is rendered and validated first; the output directory is replaced
    only when all of it passed, so a failed build leaves earlier outputs untouched.
    Builds writing the same output directory take turns.
    """
    options = BuildOptions(catalog=catalog, version=version, release=release, gpu_device=gpu_device,
                           gpu_count=gpu_count, retain_from=tuple(retain_from),
                           overlays=tuple(overlays), helm_package=helm_package)
    with Staging(out, lock_timeout) as staging:  # written while a large build validates, swapped in if valid
        result = generate(options, files_ready=staging.write)
        if result.problems:
            raise InputError(list(result.problems))
        staging.commit()
    counts = {}
    for obj in result.objects:
        for kind in obj.kinds:
            counts[kind] = counts.get(kind, 0) + 1
    summary = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))
    note = left_out_note(result.left_out)
    click.echo(f"wrote {len(result.files)} files to {out} ({summary})" + (f"; {note}" if note else ""))
    if result.newer_rule_findings:
        click.echo(retained_note(result.newer_rule_findings, out), err=True)


def _row(obj: CatalogObject) -> list[str]:
    facts = obj.facts
    return [obj.name, str(facts["class"]), str(facts["cpu"]), memory(facts["memory"]),
            ",".join(facts["features"]) or "-"]


def _preference_row(obj: CatalogObject) -> list[str]:
    facts = obj.facts
    return [obj.name, str(facts.get("displayName", "")), str(facts.get("cpu") or "-"),
            readme_tables.required_memory(obj), str(facts.get("architecture") or "-")]


@main.command(name="list")
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
    requirements = parse_selector(selector) if selector else ()
    wanted_memory = None
    if memory_ is not None:
        try:
            wanted_memory = parse_quantity(memory_)
        except QuantityError as exc:
            raise InputError.at(Location("--memory"), str(exc)) from None
    _, _, objects = catalog_objects(BuildOptions(catalog=catalog))
    family = "preference" if preferences else "instancetype"
    chosen = [
        o for o in objects
        if o.family == family and any(k in CLUSTER_KINDS for k in o.kinds)
        and (not series or o.group in series or o.name.split(".")[0] in series)
        and (cpu is None or o.facts.get("cpu") == cpu)
        and (wanted_memory is None or Fraction(o.facts.get("memory") or 0) == wanted_memory)
        and matches(requirements, o.labels)
    ]
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


@main.command()
@catalog_option
@click.option("--file", "path", type=click.Path(dir_okay=False, path_type=Path), default=Path("README.md"),
              show_default=True, help="The Markdown file holding the table markers.")
@click.option("--check", is_flag=True, help="Change nothing; exit 1 when the file is out of date.")
def readme(catalog: Path | None, path: Path, check: bool) -> None:
    """Regenerate the series, instancetype and preference tables in README.md.

    Each table sits between '<!-- BEGIN citgen readme: NAME -->' and
    '<!-- END citgen readme: NAME -->' (NAME: series, instancetypes, preferences).
    """
    text = read_text(path, str(path))
    _, _, objects = catalog_objects(BuildOptions(catalog=catalog))
    updated = readme_tables.update(text, readme_tables.tables(objects), str(path))
    if check:
        if updated != text:
            click.echo(f"{path} is out of date: run `citgen readme`", err=True)
            sys.exit(1)
        click.echo(f"{path} is up to date")
    elif updated != text:
        path.write_text(updated, encoding="utf-8")
        click.echo(f"updated the tables in {path}")
    else:
        click.echo(f"{path} is up to date")
