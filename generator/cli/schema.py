"""``citgen schema``: refresh the shipped CRD schemas from KubeVirt's OpenAPI document."""

from __future__ import annotations

from pathlib import Path

import click

from ..result import Result
from ..tools.schema_import import import_schemas
from .options import CitgenCommand

#: Where the package keeps its schemas; the default target of ``schema import``.
PACKAGE_SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


@click.group()
def schema() -> None:
    """Manage the KubeVirt CRD schemas objects are validated against."""


@schema.command("import", cls=CitgenCommand, report_name="schema import")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=PACKAGE_SCHEMAS, show_default="the package's generator/schemas",
              help="Directory to write the schema files and metadata.json into.")
@click.option("--kubevirt-version", default=None, metavar="V",
              help="KubeVirt version or commit the document comes from, recorded in metadata.json.")
def import_command(path: Path, out_dir: Path, kubevirt_version: str | None) -> Result:
    """Convert KubeVirt's swagger.json at PATH into the JSON Schemas citgen ships.

    PATH is api/openapi-spec/swagger.json of a kubevirt/kubevirt checkout.
    """
    written = import_schemas(path, out_dir, kubevirt_version)
    return Result("schema import", outputs=tuple(f"wrote {target}" for target in written),
                  data={"files": [str(target) for target in written]})
