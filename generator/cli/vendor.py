"""The vendor commands: `citgen init` starts a vendor catalog, `citgen diff` compares builds.

Both report CitgenErrors themselves (located problems, exit code 2) so they
behave the same inside the `citgen` group and when invoked on their own.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Callable

import click

from ..tools.diff import diff_paths, render_json, render_text
from ..errors import CitgenError
from ..tools.vendor_init import init_catalog


def _reported(command: Callable[..., Any]) -> Callable[..., Any]:
    """Turn a CitgenError into its problems on stderr and its exit code, never a traceback."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except CitgenError as exc:
            for problem in exc.problems:
                click.echo(f"error: {problem}", err=True)
            raise click.exceptions.Exit(exc.exit_code) from None

    return run


@click.command()
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--vendor", default="example.com", show_default=True,
              help="Vendor label of the new catalog (instancetype.kubevirt.io/vendor).")
@_reported
def init(directory: Path, vendor: str) -> None:
    """Create a vendor catalog in DIRECTORY that extends the built-in catalog.

    It holds a catalog.yaml naming the vendor and an empty, commented overlay:
    a vendor's repository keeps only what differs. A directory that is not
    empty is refused, and so is a DIRECTORY whose parent does not exist; a
    catalog is written whole or not at all.
    """
    written = init_catalog(directory, vendor)
    for path in written:
        click.echo(f"wrote {path}")
    click.echo(f"build it with: citgen build --catalog {directory}")


@click.command()
@click.argument("old", type=click.Path(path_type=Path))
@click.argument("new", type=click.Path(path_type=Path))
@click.option("--format", "format_", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--include-version-label", is_flag=True,
              help="Also compare the common-instancetypes-version label, which differs between any two versions.")
@_reported
def diff(old: Path, new: Path, format_: str, include_version_label: bool) -> None:
    """Compare two builds (output directories) or two bundle files, for release notes.

    Lists objects added, removed and changed (each changed field with its old
    and new value). Exit code 0 when they are equal, 1 when they differ, 2 when
    an input cannot be read.
    """
    result = diff_paths(old, new, include_version_label=include_version_label)
    click.echo(render_json(result) if format_ == "json" else render_text(result), nl=False)
    if not result.equal:
        raise click.exceptions.Exit(1)
