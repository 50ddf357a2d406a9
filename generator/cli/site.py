"""``citgen site``: write the catalog page (index.html and its data) for VM owners to browse."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

import click

from ..paths import builtin_catalog
from ..pipeline import BuildOptions
from ..result import Result
from ..tools.site import site_files
from ..write import LOCK_TIMEOUT, Staging
from .options import PathParam, Seconds, catalog_build_options, command, osinfo_option


@command(closing="citgen: {problems}, nothing written")
@catalog_build_options
@click.option("--out", type=PathParam(file_okay=False, path_type=Path), default=Path("site"),
              show_default=True, help="Output directory; the site replaces its whole contents.")
@click.option("--lock-timeout", type=Seconds(), default=LOCK_TIMEOUT, show_default=True,
              metavar="SECONDS", help="How long to wait while another citgen command writes the same --out.")
@osinfo_option
def site(catalog: Path | None, out: Path, version: str | None, gpu_device: str | None, gpu_count: int | None,
         retain_from: Sequence[Path], overlays: Sequence[Path], os_labels: bool, lock_timeout: float,
         osinfo_db: Path | None) -> Result:
    """Write the catalog page: series, size grid, chart, preferences and what fits.

    The catalog is built and validated as `citgen build` does (the same options
    mean the same catalog), and the fit verdicts are those of `citgen validate
    --matrix`. OUT gets index.html, which works from file:// and any static host
    and requests nothing, catalog.json (the data it shows) and CHECKSUMS.sha256;
    nothing is written unless all of it was made. docs/site.md: how to publish it.

    Each preference shows the libosinfo OS it is for and, where libosinfo's database
    is found (--osinfo-db, then libosinfo's folders), the database's minimum and
    recommended resources for it.
    """
    options = BuildOptions(catalog=catalog, version=version, gpu_device=gpu_device, gpu_count=gpu_count,
                           retain_from=tuple(retain_from), overlays=tuple(overlays), os_labels=os_labels,
                           osinfo=True, osinfo_db=osinfo_db)
    # an unusable --out (or one inside a catalog the page reads) is refused before anything is made
    with Staging(out, lock_timeout, command="site", reads=(options.catalog_dir, builtin_catalog())) as staging:
        files = site_files(options)
        staging.write(files)
        staging.commit()
    shown = json.loads(files.get("catalog.json", b"{}"))
    version = shown.get("version") or options.version or ""
    named = options.named(version)  # the catalog the page shows, as every summary names it
    said = f"{named}: wrote {len(files)} files to {out} (index.html: {len(files['index.html']) // 1024} KiB)"
    return Result("site", outputs=(said,), data={"out": str(out), "files": sorted(files),
                                                 "osinfo": (shown.get("osinfo") or {}).get("version")},
                  counts={"files": len(files), "indexBytes": len(files["index.html"])}, warnings=staging.warnings)
