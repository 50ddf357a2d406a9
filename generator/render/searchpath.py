"""The folders templates are looked up in: a catalog's ``templates/``, then the built-in one, each checked whole.

A template (or a chart file) the catalog does not have is taken from the built-in
catalog. So that nothing of the catalog's is passed over that way, the search path
is built only from folders that are what they must be: every folder of the
catalog's ``templates/`` can be listed and entered, and every folder and file the
built-in templates have is, in the catalog's, either absent or of the same kind.
A ``templates/helm/chart/templates`` that is a file, or a ``templates/kustomize``
that cannot be read, is refused here by its name, rather than replaced by the
built-in one or met later as a file where the output needs a folder (which was
blamed on ``--out``). The built-in tree is the reference, so a folder added to it
later is checked without this module changing.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import InputError
from ..paths import builtin_catalog
from ..problems import Location
from ..source.inputfiles import lookup, usable_folder

#: The folder of a catalog that holds its templates.
TEMPLATES = "templates"


def search_path(catalog: Path) -> list[Path]:
    """The catalog's templates folder first, then the built-in one (once, where they are the same)."""
    own, builtin = Path(catalog) / TEMPLATES, builtin_catalog() / TEMPLATES
    _check_folders(own)
    if own == builtin:
        return [own]
    _check_kinds(own, builtin, Path(catalog))
    return [own, builtin]


def _check_folders(own: Path) -> None:
    """Every folder of ``own`` can be listed and entered, and no link in it leads nowhere (links are not walked)."""
    pending = [("", own)]
    while pending:
        relative, folder = pending.pop()
        shown = f"{TEMPLATES}/{relative}" if relative else TEMPLATES
        if not usable_folder(folder, shown):
            continue
        with os.scandir(folder) as entries:
            for entry in entries:
                inside = f"{relative}/{entry.name}" if relative else entry.name
                if entry.is_dir(follow_symlinks=False):
                    pending.append((inside, Path(entry.path)))
                elif entry.is_symlink():  # to nothing, or round in a loop: refused; to a folder: usable
                    found = lookup(entry.path, f"{TEMPLATES}/{inside}")
                    if found is not None and stat.S_ISDIR(found.st_mode):
                        usable_folder(Path(entry.path), f"{TEMPLATES}/{inside}")


def _check_kinds(own: Path, builtin: Path, catalog: Path) -> None:
    """What the built-in templates hold as a folder (a file) is not a file (a folder) in ``own``."""
    for top, folders, files in os.walk(builtin):
        relative = Path(top).relative_to(builtin)
        for name in folders:
            usable_folder(own / relative / name, f"{TEMPLATES}/{(relative / name).as_posix()}")
        for name in files:
            shown = f"{TEMPLATES}/{(relative / name).as_posix()}"
            found = lookup(own / relative / name, shown, within=catalog)
            if found is not None and stat.S_ISDIR(found.st_mode):
                raise InputError.at(Location(shown), "is a directory, where the built-in templates have a file of "
                                    "this name; a catalog's file of that name replaces the built-in one")
