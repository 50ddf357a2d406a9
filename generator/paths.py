"""Where the catalog is: the one the working directory is in, or the built-in one.

An installed wheel carries the repository's catalog.yaml, series/, preferences/
and templates/ under generator/catalog/; an editable install or a source
checkout finds them at the repository root instead.

A command works on the catalog the user is in, as ruff, yamllint and pre-commit
find their configuration: the nearest folder, from the working directory up,
holding a catalog.yaml (``find_catalog``); the built-in catalog where there is
none; ``--catalog`` choosing explicitly (``--catalog builtin`` the built-in one,
as a catalog.yaml's ``extends: builtin`` names it). A citgen installed from one
checkout and run in another clone of this repository therefore builds that
clone's catalog, and every summary names the catalog it used (``catalog_name``):
``catalog ./ v1.9.0``, or ``built-in catalog v1.8.0-dev`` for the built-in one,
found in the checkout citgen runs from or not.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
#: KubeVirt's schemas and what citgen derived from them, shipped in the package (generator/schemas/). Found beside
#: this file, as the built-in catalog is: importlib.resources would import zipfile and its readers to find the
#: same folder (5 ms of every run), for a package that is never run from a zip.
SCHEMAS = PACKAGE / "schemas"
#: The file that makes a folder a catalog.
CATALOG_FILE = "catalog.yaml"
#: What --catalog (and catalog.yaml's ``extends``) calls the built-in catalog.
BUILTIN = "builtin"


def builtin_catalog() -> Path:
    for candidate in (PACKAGE / "catalog", PACKAGE.parent):
        if (candidate / CATALOG_FILE).is_file() and (candidate / "series").is_dir():
            return candidate
    raise RuntimeError(f"the built-in catalog is missing from {PACKAGE}; reinstall citgen")


def find_catalog() -> Path | None:
    """The catalog the working directory is in: the nearest folder from it up holding catalog.yaml.

    Given relative to the working directory (``.``, ``..``, ``../..``), as a user
    would write it, so that what is reported and written is named as they know it;
    None where no folder up to the root holds one, or the working directory is gone.
    """
    try:
        here = Path(os.getcwd())
    except OSError:
        return None
    for up, folder in enumerate((here, *here.parents)):
        if os.path.isfile(folder / CATALOG_FILE):
            return Path(*([".."] * up)) if up else Path(".")
    return None


def catalog_folder(catalog: Path | None) -> Path:
    """The folder of the catalog a command works on: ``catalog`` if given, else the one the user is in, else built-in.

    The catalog found is the built-in one itself where citgen runs from the checkout it
    is installed from (an editable install): it is then named so.
    """
    if catalog is not None:
        return Path(catalog)
    found = find_catalog()
    if found is None or found.resolve() == builtin_catalog().resolve():
        return builtin_catalog()
    return found


def home_folder(catalog: Path | None) -> Path:
    """Where a command writes by default: the folder of the catalog the user is in, else the working directory.

    ``citgen build`` run anywhere in a catalog's repository writes that catalog's
    bundles/ (the ones it commits); with ``--catalog`` or outside any catalog it
    writes ./bundles, as it always has.
    """
    return (find_catalog() or Path(".")) if catalog is None else Path(".")


def catalog_name(catalog: Path | None, version: str) -> str:
    """How a summary names the catalog a command worked on: ``built-in catalog v1.8.0-dev``, ``catalog ./ v1.9.0``."""
    folder = catalog_folder(catalog)
    if folder == builtin_catalog():
        return f"built-in catalog {version}"
    return f"catalog {folder.as_posix().rstrip('/')}/ {version}"


def catalog_record(catalog: Path | None, version: str) -> dict[str, object]:
    """The catalog a command worked on, for the JSON report: its folder (null: the built-in one) and version."""
    folder = catalog_folder(catalog)
    builtin = folder == builtin_catalog()
    return {"path": None if builtin else folder.as_posix(), "builtIn": builtin, "version": version}
