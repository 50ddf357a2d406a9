"""``citgen init``: start a vendor catalog that extends the built-in one.

It reports CitgenErrors itself (located problems, exit code 2) so it behaves the
same inside the `citgen` group and when invoked on its own.
"""

from __future__ import annotations

from pathlib import Path

import click

from ..tools.vendor_init import init_catalog
from .options import reported


@click.command()
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--vendor", default="example.com", show_default=True,
              help="Vendor label of the new catalog (instancetype.kubevirt.io/vendor).")
@reported
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
