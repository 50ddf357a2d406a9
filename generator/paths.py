"""Where the built-in catalog is.

An installed wheel carries the repository's catalog.yaml, series/, preferences/
and templates/ under generator/catalog/; an editable install or a source
checkout finds them at the repository root instead.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def builtin_catalog() -> Path:
    for candidate in (PACKAGE / "catalog", PACKAGE.parent):
        if (candidate / "catalog.yaml").is_file() and (candidate / "series").is_dir():
            return candidate
    raise RuntimeError(f"the built-in catalog is missing from {PACKAGE}; reinstall citgen")
