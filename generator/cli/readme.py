"""``citgen readme``: regenerate the tables of README.md from the catalog."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..outputs import readme as readme_tables
from ..pipeline import BuildOptions, catalog_objects
from ..source.inputfiles import read_text
from .options import catalog_option


@click.command()
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
