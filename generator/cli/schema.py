"""``citgen schema``: refresh the shipped schemas from KubeVirt's CRDs and OpenAPI document."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import click

from ..paths import SCHEMAS
from ..result import Result
from ..source.inputfiles import lookup
from ..tools.crd_import import import_releases
from ..tools.schema_import import import_schemas
from .options import CitgenCommand, PathParam

#: Where the package keeps its schemas; the default target of ``schema import``.
PACKAGE_SCHEMAS = SCHEMAS


@click.group()
def schema() -> None:
    """Manage the KubeVirt CRD schemas objects are validated against."""


@schema.command("import", cls=CitgenCommand, report_name="schema import")
@click.argument("path", type=PathParam(path_type=Path))
@click.option("--out", "out_dir", type=PathParam(file_okay=False, path_type=Path),
              default=PACKAGE_SCHEMAS, show_default="the package's generator/schemas",
              help="Directory to write the schema files and metadata.json into.")
@click.option("--kubevirt-version", default=None, metavar="V",
              help="KubeVirt version or commit swagger.json comes from, recorded in metadata.json.")
def import_command(path: Path, out_dir: Path, kubevirt_version: str | None) -> Result:
    """Convert KubeVirt's CRD schemas or its swagger.json at PATH into the JSON Schemas citgen ships.

    PATH is one of:

    \b
    - a folder of release files (v1.8.4.json: a release's tag, commit and the
      openAPIV3Schema of the four instancetype.kubevirt.io CRDs), or one of them:
      each minor release's newest patch is written to kubevirt/v1.8.json and so on,
      the schemas `validate --kubevirt` and `build --kubevirt` judge by, with
      release-fields.json, the index of which release has which field;
    - api/openapi-spec/swagger.json of a kubevirt/kubevirt checkout: the
      VirtualMachine schema `expand` reads, and the ObjectMeta every kind's
      metadata is checked against.
    """
    found = lookup(path, str(path))  # a link to nothing, a folder that cannot be entered: refused here
    if (found is not None and stat.S_ISDIR(found.st_mode)) or _is_release_file(path):
        written = import_releases(path, out_dir)
    else:
        written = import_schemas(path, out_dir, kubevirt_version)
    return Result("schema import", outputs=tuple(f"wrote {target}" for target in written),
                  data={"files": [str(target) for target in written]})


def _is_release_file(path: Path) -> bool:
    """A release file's name is its tag (v1.8.4.json); swagger.json or vendor.json is not one."""
    return re.fullmatch(r"v[0-9][^/]*\.json", path.name) is not None
