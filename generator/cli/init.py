"""``citgen init``: start a vendor catalog that extends the built-in one."""

from __future__ import annotations

from pathlib import Path

import click

from ..result import Result
from ..tools.vendor_init import init_catalog
from .options import command


@command()
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--vendor", default="example.com", show_default=True,
              help="Vendor label of the new catalog (instancetype.kubevirt.io/vendor).")
def init(directory: Path, vendor: str) -> Result:
    """Create a vendor catalog in DIRECTORY that extends the built-in catalog.

    It holds a catalog.yaml naming the vendor and an empty, commented overlay:
    a vendor's repository keeps only what differs. A directory that is not
    empty is refused, and so is a DIRECTORY whose parent does not exist; a
    catalog is written whole or not at all.
    """
    written = init_catalog(directory, vendor)
    said = tuple(f"wrote {path}" for path in written) + (f"build it with: citgen build --catalog {directory}",)
    return Result("init", outputs=said, data={"directory": str(directory), "files": [str(p) for p in written]})
