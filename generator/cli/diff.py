"""``citgen diff``: what changed between two builds or bundles, for release notes.

It reports CitgenErrors itself (located problems, exit code 2) so it behaves the
same inside the `citgen` group and when invoked on its own.
"""

from __future__ import annotations

from pathlib import Path

import click

from ..tools.diff import diff_paths, render_json, render_text
from .options import reported


@click.command()
@click.argument("old", type=click.Path(path_type=Path))
@click.argument("new", type=click.Path(path_type=Path))
@click.option("--format", "format_", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--include-version-label", is_flag=True,
              help="Also compare the common-instancetypes-version label, which differs between any two versions.")
@reported
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
