"""Finding libosinfo's database as libosinfo finds it: the option, its variable, then its folders.

Kept apart from reading it (database.py): a run that finds no database, as a build
does on most machines, imports neither the XML parser nor the database's model.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping

from ..errors import InputError
from ..problems import PATH_EXCERPT, Location, Problem, excerpt
from ..source import inputfiles

OPTION = "--osinfo-db"
#: libosinfo's variable for the system database, which takes the place of /usr/share/osinfo.
SYSTEM_VARIABLE = "OSINFO_SYSTEM_DIR"
SYSTEM_DIR = Path("/usr/share/osinfo")
LOCAL_DIR = Path("/etc/osinfo")
USER_DIR = Path("~/.config/osinfo")

#: What a run says when no database is found: the osinfo rule is skipped, never a failure.
NONE_FOUND = (f"osinfo: no libosinfo database found ({OPTION}, {SYSTEM_VARIABLE}, {SYSTEM_DIR}, {LOCAL_DIR}, "
              f"{USER_DIR}); the osinfo rule was skipped")


def candidates(option: Path | None, environ: Mapping[str, str] | None = None) -> list[tuple[Path, str]]:
    """The folders libosinfo looks in, in its order, each with what names it (the option, a variable, a default)."""
    env = os.environ if environ is None else environ
    found: list[tuple[Path, str]] = []
    if option is not None:
        found.append((option, OPTION))
    system = env.get(SYSTEM_VARIABLE)
    found.append((Path(system), SYSTEM_VARIABLE) if system else (SYSTEM_DIR, str(SYSTEM_DIR)))
    found.append((LOCAL_DIR, str(LOCAL_DIR)))
    home = env.get("HOME")
    if home:
        found.append((Path(home) / ".config" / "osinfo", str(USER_DIR)))
    return found


def is_database(path: Path) -> bool:
    """Whether ``path`` is a folder holding an ``os/`` folder; InputError when it is there but cannot be used."""
    return inputfiles.usable_folder(path, str(path), catalog=False) and \
        inputfiles.usable_folder(path / "os", str(path / "os"), catalog=False)


def find_database(option: Path | None, environ: Mapping[str, str] | None = None) -> Path | None:
    """The database to use: ``--osinfo-db``, else the first of libosinfo's folders that holds one; None if none does.

    A folder given with the option must be a database (InputError at the option
    otherwise); the others are looked at as libosinfo looks at them: one that is not
    there, holds no ``os/`` or cannot be read is passed over.
    """
    for path, named in candidates(option, environ):
        if named == OPTION:
            try:
                if is_database(path):
                    return path
            except InputError as exc:
                raise InputError([Problem(Location(OPTION), f"{p.location}: {p.message}") for p in exc.problems]) \
                    from None
            raise InputError.at(Location(OPTION), f"{excerpt(str(path), PATH_EXCERPT)!r} is no osinfo database: it "
                                "holds no os/ folder (libosinfo's database is a folder such as /usr/share/osinfo)")
        try:
            if is_database(path):
                return path
        except InputError:
            continue
    return None
