"""``citgen init``: start a vendor catalog that extends the built-in one."""

from __future__ import annotations

from pathlib import Path

import click

from ..result import Result
from ..tools.vendor_init import init_catalog
from .options import PathParam, command


@command()
@click.argument("directory", type=PathParam(path_type=Path))
@click.option("--vendor", default="example.com", show_default=True,
              help="Vendor label of the new catalog (instancetype.kubevirt.io/vendor).")
def init(directory: Path, vendor: str) -> Result:
    """Create a vendor catalog in DIRECTORY that extends the built-in catalog.

    It holds a catalog.yaml naming the vendor and an empty, commented overlay:
    a vendor's repository keeps only what differs. A directory that is not
    empty is refused, and so is a DIRECTORY whose parent does not exist; a
    catalog is written whole or not at all. A directory holding only what a
    new repository starts with (.git, a README, a licence, .gitignore) counts
    as empty: `git init acme && cd acme && citgen init .` works. Commands run
    in the new catalog's directory, or below it, work on it without --catalog.
    """
    written = init_catalog(directory, vendor)
    build = "citgen build" if _here(directory) else f"citgen build --catalog {directory}"
    said = tuple(f"wrote {path}" for path in written) + (f"build it with: {build}",)
    return Result("init", outputs=said, data={"directory": str(directory), "files": [str(p) for p in written]})


def _here(directory: Path) -> bool:
    """Whether ``directory`` is the working directory, where commands now find the catalog (paths.py)."""
    try:
        return directory.resolve() == Path.cwd().resolve()
    except OSError:  # a working directory deleted meanwhile: --catalog names the catalog wherever it is
        return False
