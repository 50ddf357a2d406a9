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
    with Staging(out) as staging:
        staging.write(files)
        staging.commit()


class Staging:
    """A build's outputs, written beside ``out`` first and put in its place at once.

    ``write`` fills a hidden staging directory, which a build may do before it
    knows whether the files are valid; ``commit`` swaps it in. Leaving the
    ``with`` block without a commit (invalid output, an error, an interrupt)
    removes the staging directory, and ``out`` is as it was.
    """

    def __init__(self, out: Path):
        self.out = Path(os.path.abspath(out))
        self._staging: Path | None = None
        self._committed = False

    def __enter__(self) -> "Staging":
        return self

    def __exit__(self, *exc_info: object) -> None:
        if not self._committed:
            self.discard()

    def write(self, files: Mapping[str, bytes]) -> None:
        """Check ``out`` and write ``files`` into a new staging directory."""
        if self._staging is not None:
            raise RuntimeError("Staging.write() may be called once")
        relative = {safe_relative(name): data for name, data in files.items()}
        try:
            _check_target(self.out)
            self.out.parent.mkdir(parents=True, exist_ok=True)
            _remove_leftovers(self.out.parent, self.out.name)
            self._staging = Path(tempfile.mkdtemp(prefix=f".{self.out.name}.citgen-new-", dir=self.out.parent))
            _write_tree(self._staging, relative)
        except OSError as exc:
            self.discard()
            raise self._error(exc) from None

    def commit(self) -> None:
        """Put the staging directory in place of ``out``; the old outputs are then removed."""
        if self._staging is None:
            raise RuntimeError("Staging.commit() before write()")
        try:
            _swap(self._staging, self.out)
        except OSError as exc:
            self.discard()
            raise self._error(exc) from None
        self._staging = None
        self._committed = True

    def discard(self) -> None:
        """Remove the staging directory; ``out`` is untouched."""
        if self._staging is not None:
            shutil.rmtree(self._staging, ignore_errors=True)
            self._staging = None

    def _error(self, exc: OSError) -> CitgenError:
        where = exc.filename or self.out
        return CitgenError([Problem(Location(str(self.out)), f"cannot write the outputs: "
                                    f"{exc.strerror or exc} ({where}); the previous outputs are unchanged")])


def _swap(staging: Path, out: Path) -> None:
    """Move ``out`` aside, move ``staging`` in, and drop the old outputs; undone on any failure."""
    backup = out.parent / f".{out.name}.citgen-old-{os.getpid()}"
    try:
        if out.exists():
            os.rename(out, backup)
        os.rename(staging, out)
    except BaseException:
        if backup.exists() and not out.exists():
            os.rename(backup, out)
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
