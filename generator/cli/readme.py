"""``citgen readme``: regenerate the tables of README.md from the catalog."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ..expand.kubevirt import for_release
from ..outputs import readme as readme_tables
from ..pipeline import BuildOptions, catalog_objects
from ..errors import InputError
from ..problems import Location
from ..result import Result
from ..source.inputfiles import lookup, read_text_file, usable_folder
from ..write import replace_file
from ..schemas.releases import Release
from .options import PathParam, catalog_option, command, kubevirt_option


@command(closing="citgen: {problems}")
@catalog_option
@click.option("--file", "path", type=PathParam(dir_okay=False, path_type=Path), default=None,
              help="The Markdown file holding the table markers (default: README.md in the catalog directory).")
@click.option("--check", is_flag=True, help="Change nothing; exit 1 when the file is out of date.")
@kubevirt_option("Tabulate what a build for this KubeVirt release holds (citgen build --kubevirt)")
def readme(catalog: Path | None, path: Path | None, check: bool, kubevirt: Release | None) -> Result:
    """Regenerate the series, instancetype and preference tables in README.md.

    Each table sits between '<!-- BEGIN citgen readme: NAME -->' and
    '<!-- END citgen readme: NAME -->' (NAME: series, instancetypes, preferences).
    The README is the catalog's own (README.md beside its catalog.yaml) unless
    --file names another, so the command means the same from any directory of
    the catalog's repository.
    """
    if path is None:
        folder = BuildOptions(catalog=catalog).catalog_dir
        usable_folder(folder, str(folder))  # a catalog that is no folder is said to be so, not to lack a README
        path = folder / "README.md"
        if lookup(path) is None:
            raise InputError.at(Location(str(path)), (
                "the catalog has no README.md for the tables; create one holding the table markers "
                "(`citgen readme --help` shows them), or name another file with --file"))
    lookup(path)  # a link to nothing or in a loop is said to be one
    if os.path.islink(path):  # read through it, and written, it would change a file elsewhere
        raise InputError.at(Location(str(path)), "is a symbolic link; citgen replaces the README it writes the "
                            "tables into and never writes through a link: name the file itself with --file")
    # read as every input is (no byte-order mark, line ends \n), and written back as the editor wrote it
    written = read_text_file(path, str(path))
    options = BuildOptions(catalog=catalog)
    found, version, objects = catalog_objects(options)
    if kubevirt is not None:
        objects, _ = for_release(objects, kubevirt, found.settings.spellings)
    updated = readme_tables.update(written.text, readme_tables.tables(objects), str(path))
    stale = updated != written.text
    data = {"file": str(path), "catalog": options.record(version), "upToDate": not stale,
            "updated": stale and not check}
    named = options.named(version)
    if check and stale:
        return Result("readme", notes=(f"{named}: {path} is out of date: run `citgen readme`",), found=True,
                      data=data)
    if stale:
        replace_file(path, written.as_written(updated))
        return Result("readme", outputs=(f"{named}: updated the tables in {path}",), data=data)
    return Result("readme", outputs=(f"{named}: {path} is up to date",), data=data)
