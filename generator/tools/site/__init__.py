"""`citgen site`: the catalog as a static page VM owners browse, with the data it shows.

The site is a view of a build: the same options, the same objects, validated the
same way (an invalid catalog gets no page, as it gets no bundles), and the fit
verdicts of `citgen validate --matrix`. It lives beside the build, not in it:
the page needs the VM expander (a tool), which the build's outputs may not
import, and bundles/ is what GitOps tools apply to clusters, where an HTML page
and a JSON file have no business (docs/site.md).

Files: ``index.html`` (works from file:// and any static host, requests
nothing), ``catalog.json`` (the same data, for scripts), and
``CHECKSUMS.sha256``, which also marks the directory as citgen's to replace.
"""

from __future__ import annotations

from ... import escape
from ...errors import InputError
from ...pipeline import BuildOptions, generate
from ...write import checksums
from ..vmexpand.matrix import matrix
from .data import catalog_data
from .page import data_json, page

__all__ = ["site_files"]


def _database(options: BuildOptions):  # -> OsinfoDatabase | None
    """libosinfo's database the page shows each preference's OS resources from, where the build judged with one."""
    if not options.osinfo:
        return None
    from ...osinfo.database import load_database

    return load_database(options.osinfo_db)


def site_files(options: BuildOptions) -> dict[str, bytes]:
    """Build the catalog with ``options`` and return the site's files; problems raise InputError."""
    result = generate(options)
    if result.problems:
        raise InputError(list(result.problems))
    documents = [d.data for d in result.documents]
    data = catalog_data(result.catalog, result.version, result.objects, matrix(documents, documents),
                        _database(options))
    files: dict[str, bytes] = {
        "index.html": page(data).encode(),
        "catalog.json": (escape.json_text(data, indent=1, sort_keys=True) + "\n").encode(),
    }
    files["CHECKSUMS.sha256"] = checksums(files)
    return files

