"""Write a build's outputs all at once, or not at all.

Every output file is first written into a temporary directory beside the
output directory; only when all of them are there does the new directory take
the old one's place. A failed or interrupted build leaves the previous outputs
byte-for-byte as they were. The output directory belongs to citgen: a build
replaces all of its contents, so a directory that holds anything but an earlier
build (recognised by its CHECKSUMS.sha256) is refused rather than emptied.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path, PurePosixPath
from typing import Mapping

from .errors import CitgenError, InputError
from .problems import Location, Problem

MARKER = "CHECKSUMS.sha256"


def checksums(files: Mapping[str, bytes]) -> bytes:
    """A sha256sum-style listing (``<hex>  <name>``) of the given files, sorted by name."""
    lines = [f"{hashlib.sha256(data).hexdigest()}  {name}\n" for name, data in sorted(files.items())]
    return "".join(lines).encode()


def safe_relative(name: str) -> PurePosixPath:
    """An output path that stays inside the output directory, or an InputError."""
    path = PurePosixPath(name)
    if path.is_absolute() or not path.parts or any(p in ("..", ".", "") for p in path.parts) or "\\" in name:
        raise InputError.at(Location(name), "output path would leave the output directory; "
                            "names must not contain '..', '/' at the start or backslashes")
    return path


def _check_target(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise InputError.at(Location(str(out)), "output path exists and is not a directory")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise InputError.at(Location(str(out)), f"refusing to replace a directory that is not an "
                            f"earlier citgen output (it has no {MARKER}); choose an empty or new --out")


def _remove_leftovers(parent: Path, name: str) -> None:
    """Temporary directories of earlier builds that were killed before they could clean up.

    A build killed between moving the old outputs aside and moving the new ones
    in leaves no output directory but a complete backup: that backup is put
    back first, so the earlier outputs are never the thing that is cleaned up.
    """
    out = parent / name
    backups = sorted(parent.glob(f".{name}.citgen-old-*"))
    if not out.exists() and len(backups) == 1 and (backups[0] / MARKER).is_file():
        os.rename(backups[0], out)
    for stale in parent.glob(f".{name}.citgen-*"):
        shutil.rmtree(stale, ignore_errors=True)


def write_outputs(out: Path, files: Mapping[str, bytes]) -> None:
    """Replace ``out`` with exactly ``files`` (relative POSIX paths to contents), atomically.

    A file system error (no space, no permission) is a CitgenError naming the
    path; the earlier outputs are then as they were and no temporary directory
    is left behind.
    """
    out = Path(os.path.abspath(out))
    relative = {safe_relative(name): data for name, data in files.items()}
    try:
        _replace(out, relative)
    except OSError as exc:
        where = exc.filename or out
        raise CitgenError([Problem(Location(str(out)), f"cannot write the outputs: {exc.strerror or exc} "
                                   f"({where}); the previous outputs are unchanged")]) from None


def _replace(out: Path, relative: Mapping[PurePosixPath, bytes]) -> None:
    _check_target(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    _remove_leftovers(out.parent, out.name)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.citgen-new-", dir=out.parent))
    backup = out.parent / f".{out.name}.citgen-old-{os.getpid()}"
    try:
        _write_tree(staging, relative)
        if out.exists():
            os.rename(out, backup)
        os.rename(staging, out)
    except BaseException:
        if backup.exists() and not out.exists():
            os.rename(backup, out)
        shutil.rmtree(staging, ignore_errors=True)
        raise
    shutil.rmtree(backup, ignore_errors=True)


def _write_tree(staging: Path, relative: Mapping[PurePosixPath, bytes]) -> None:
    """Every file under ``staging``, each folder made once before the files in it.

    Making a folder per file (``mkdir(parents=True, exist_ok=True)``) asked the
    file system about a folder that was already there for most files.
    """
    targets = {path: staging.joinpath(*path.parts) for path in sorted(relative)}
    for folder in sorted({target.parent for target in targets.values()} - {staging}):
        folder.mkdir(parents=True, exist_ok=True)
    for path, target in targets.items():
        target.write_bytes(relative[path])
    os.chmod(staging, 0o755)
