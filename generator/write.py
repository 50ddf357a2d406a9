"""Write a build's outputs all at once, or not at all.

Every output file is first written into a temporary directory beside the
output directory; only when all of them are there does the new directory take
the old one's place. A failed or interrupted build leaves the previous outputs
byte-for-byte as they were; should moving them back fail after the swap moved
them aside, the message says where they are rather than that they are unchanged,
and the next build puts them back first. The output directory belongs to citgen: a build
replaces all of its contents, so a directory that holds anything but an earlier
build (recognised by its manifest, or its CHECKSUMS.sha256, each only as a regular
file) is refused rather than emptied: a file or folder of anyone else's, and anything
in it that cannot be listed or looked at, since what cannot be seen cannot be judged.
No output goes inside a catalog the run reads, and what citgen creates gets the modes
the umask leaves. What a run put in place is recorded (``record``), so that a run
interrupted after it, or whose report is lost, says so.

Builds writing the same output directory take turns: each holds a lock on it
(``OutputLock``, a lock file beside it) from its first write to its swap, and
only the holder cleans up temporary directories that killed builds left behind,
so no build can delete another's staging directory.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import shutil
import signal
import stat
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath
from typing import Any, Iterable, Iterator, Mapping

from .errors import CitgenError, InputError
from .problems import WARNING, Location, Problem, excerpt
from .treewriter import TreeWriter, current_umask

MARKER = "CHECKSUMS.sha256"
#: The list of what a command wrote into an output directory, there beside it: the only files
#: a later run of the same command may replace (``_check_target``).
MANIFEST = ".citgen-manifest"
#: Seconds a build waits for another build writing the same output directory (``--lock-timeout``).
LOCK_TIMEOUT = 60.0
#: What this process's run put in place, in order (output folders, a README, a new catalog):
#: what a run interrupted after it, or whose report is lost, says it wrote (cli/streams.py).
_WRITTEN: list[Path] = []
#: How often a waiting build tries the lock again.
_RETRY = 0.05
#: shutil.rmtree's hook for a part it cannot remove: ``onexc`` from Python 3.12, where
#: ``onerror`` is deprecated; ``again`` takes the arguments of either.
_RMTREE_HOOK = "onexc" if sys.version_info >= (3, 12) else "onerror"


def umasked(mode: int = 0o777) -> int:
    """``mode`` less the process's umask: what the system gives a folder (0o777) or file (0o666) it creates.

    A folder made by ``mkdtemp`` (0o700) and then given a mode of citgen's choosing
    must get this one, so that under ``umask 077`` no output is readable by others.
    """
    return mode & ~current_umask()


def record(path: Path) -> None:
    """Note that ``path`` (an output folder or file) is now in place, complete: ``written`` names it."""
    _WRITTEN.append(Path(path))


def written() -> tuple[Path, ...]:
    """What this run put in place so far (``record``), each once, in order."""
    return tuple(dict.fromkeys(_WRITTEN))


def forget() -> None:
    """A new run begins: nothing written yet."""
    _WRITTEN.clear()


def checksums(files: Mapping[str, bytes]) -> bytes:
    """A sha256sum-style listing (``<hex>  <name>``) of the given files, sorted by name."""
    import hashlib  # imported with the later steps of a build (pipeline.LATER_STEPS), not before it begins

    lines = [f"{hashlib.sha256(data).hexdigest()}  {name}\n" for name, data in sorted(files.items())]
    return "".join(lines).encode()


def safe_relative(name: str) -> PurePosixPath:
    """An output path that stays inside the output directory, or an InputError."""
    path = PurePosixPath(name)  # its parts are never "." or "": "a/./b" and "a//b" are a/b
    if path.is_absolute() or not path.parts or ".." in path.parts or "\\" in name:
        raise InputError.at(Location(name), "output path would leave the output directory; "
                            "names must not contain '..', '/' at the start or backslashes")
    return path


def manifest(command: str, names: Iterable[str]) -> bytes:
    """The manifest of an output: the command that wrote it, then every file it wrote (``names``), one a line."""
    return "".join(f"{line}\n" for line in (f"citgen {command}", *sorted(names))).encode()


def _entries(out: Path) -> tuple[set[str], set[str]]:
    """Everything under ``out``: its files (links included, never followed) and its folders, as relative POSIX paths.

    Every folder is listed and every entry's type read without following a link (as
    the listing gives it, where the file system does; else by asking for it);
    one that cannot be is an InputError naming it. ``os.walk`` skipped a folder it
    could not list without a word, so that what it held was neither seen nor
    refused, and the swap then moved it aside with the rest.
    """
    files, folders = set(), set()
    pending = [""]
    while pending:
        relative = pending.pop()
        folder = os.path.join(out, relative)
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError as exc:
            raise _unseen(out, relative, exc, "list") from None
        for entry in entries:
            inside = f"{relative}/{entry.name}" if relative else entry.name
            try:
                is_folder = entry.is_dir(follow_symlinks=False)
            except OSError as exc:
                raise _unseen(out, inside, exc, "read the type of") from None
            if is_folder:
                folders.add(inside)
                pending.append(inside)
            else:
                files.add(inside)
    return files, folders


def _unseen(out: Path, relative: str, exc: OSError, what: str) -> InputError:
    """The refusal of an output directory one of whose entries cannot be listed or read."""
    path = os.path.join(out, relative) if relative else str(out)
    return InputError.at(Location(path), f"cannot {what} it ({(exc.strerror or str(exc)).lower()}), so citgen "
                         f"cannot tell that {out} holds only what citgen wrote, and replacing {out} would move "
                         "or delete what it cannot see: make it readable, or choose an empty or new --out")


def _strangers(files: set[str], folders: set[str], known: set[str]) -> list[str]:
    """What is not in ``known`` (files, by relative path) nor a folder of one; folders end in /."""
    needed = {str(parent) for name in known for parent in PurePosixPath(name).parents} - {"."}
    return sorted([*(files - known - {MANIFEST}), *(f"{name}/" for name in folders - needed)])


def _counted(strangers: list[str]) -> str:
    """``1 file``, ``2 folders``, ``3 files and folders``: what the strangers are."""
    kinds = sorted({"folder" if name.endswith("/") else "file" for name in strangers})
    if len(strangers) > 1:
        kinds = [f"{kind}s" for kind in kinds]
    return f"{len(strangers)} {' and '.join(kinds)}"


def _is_marker(path: Path) -> bool:
    """Whether ``path`` is a regular file, not a link to one (a marker counts only as what citgen wrote)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _check_target(out: Path, command: str, files: Mapping[PurePosixPath, bytes] | None) -> None:
    """Refuse to replace ``out`` unless it is empty or holds only what ``citgen <command>`` wrote there.

    Replacing an output directory removes everything in it, so citgen replaces
    only its own: the manifest it wrote beside the files names the command and
    each file. An output of a citgen that wrote no manifest is taken when it has
    CHECKSUMS.sha256 and holds no file this run would not write again; ``files``
    is None before they are made, when only what needs no files is checked.
    """
    _check_usable(out)
    if not out.is_dir():
        return
    files_there, folders_there = _entries(out)  # everything in it seen, or an InputError naming what is not
    if not files_there and not folders_there:
        return
    listed = out / MANIFEST
    if _is_marker(listed):
        lines = listed.read_bytes()[:1 << 20].decode("utf-8", "replace").splitlines()
        wrote = lines[0] if lines else ""
        if wrote != f"citgen {command}":
            other = f"`{excerpt(wrote)}`" if wrote.startswith("citgen ") else "another program"
            raise InputError.at(Location(str(out)), f"holds the output of {other}, not of `citgen {command}`; "
                                "choose an empty or new --out")
        known = set(lines[1:])
    elif _is_marker(out / MARKER):
        if files is None:
            return
        known = {str(name) for name in files}
    else:
        why = (f"its {MARKER} is not a regular file" if os.path.lexists(out / MARKER) else f"it has no {MARKER}")
        raise InputError.at(Location(str(out)), f"refusing to replace a directory that is not an "
                            f"earlier citgen output ({why}); choose an empty or new --out")
    strangers = _strangers(files_there, folders_there, known)
    if strangers:
        shown = ", ".join(excerpt(name) for name in strangers[:3]) + (" ..." if len(strangers) > 3 else "")
        raise InputError.at(Location(str(out)), f"holds {_counted(strangers)} citgen did not write ({shown}), "
                            f"which replacing it would delete; move {'them' if len(strangers) > 1 else 'it'}, "
                            "or choose an empty or new --out")


#: The folders of a catalog a build reads whole (every file in them, at any depth).
READ_WHOLE = ("series", "preferences", "templates")


def _check_outside(out: Path, catalogs: tuple[Path, ...]) -> None:
    """Refuse an ``out`` that is a catalog the run reads, or inside a folder of one that it reads whole.

    The next build would read the outputs back as part of the catalog: a chart
    copied into the chart it came from, growing each build, or Helm rendering
    every object twice.
    """
    target = Path(os.path.realpath(out))
    for catalog in catalogs:
        root = Path(os.path.realpath(catalog))
        for folder in (root, *(root / name for name in READ_WHOLE)):
            if target == folder or (folder != root and folder in target.parents):
                inside = "is the catalog" if folder == root else f"is inside {folder.name}/ of the catalog"
                raise InputError.at(Location("--out"), (
                    f"{out} {inside} this run reads ({catalog}); the next build would read the outputs back as part "
                    f"of the catalog: write them outside its {', '.join(f'{n}/' for n in READ_WHOLE)}"))


def _check_usable(out: Path) -> None:
    """Refuse an ``out`` that no build could replace: a link, or something other than a directory."""
    if out.is_symlink():  # replacing it would move the link, and writing through it write elsewhere
        raise InputError.at(Location(str(out)), "the output path is a symbolic link; citgen replaces an output "
                            "directory as a whole and never writes through a link: name the directory itself")
    if out.exists() and not out.is_dir():
        raise InputError.at(Location(str(out)), "output path exists and is not a directory")


def _remove_leftovers(parent: Path, name: str) -> list[OSError]:
    """Temporary directories of earlier builds that were killed before they could clean up.

    A build killed between moving the old outputs aside and moving the new ones
    in leaves no output directory but a complete backup: that backup is put
    back first, so the earlier outputs are never the thing that is cleaned up.
    Returns why each one that could not be removed is still there (the caller says so).
    """
    out = parent / name
    backups = sorted(parent.glob(f".{name}.citgen-old-*"))
    if not out.exists() and len(backups) == 1 and _is_marker(backups[0] / MARKER):
        os.rename(backups[0], out)
    stuck = []
    for stale in parent.glob(f".{name}.citgen-*"):
        try:
            remove_tree(stale)
        except OSError as exc:
            stuck.append(exc)
    return stuck


def remove_tree(path: Path) -> None:
    """Remove a folder citgen made, read-only parts of it too; a link is removed, never followed.

    An earlier output its owner made read-only would otherwise stay behind as a
    ``.citgen-old-*`` folder for ever: each part that cannot be removed is made
    writable (never anything above ``path``) and tried once more, a folder as a
    whole, whichever of its functions ``shutil.rmtree`` reports (``os.open``,
    ``os.scandir``, ``os.rmdir``, ``os.unlink``...). What still cannot be removed
    is an OSError naming the first such part, raised once all the rest is gone.
    """
    if os.path.islink(path) or not os.path.isdir(path):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        return
    top = os.path.abspath(path)
    tried: set[str] = set()
    failed: list[OSError] = []

    def again(function: Any, name: str, problem: Any) -> None:
        exc = problem if isinstance(problem, BaseException) else problem[1]  # onexc, or onerror's exc_info
        if isinstance(exc, FileNotFoundError):  # gone meanwhile: nothing left to remove
            return
        if name in tried or not isinstance(exc, OSError):
            failed.append(exc if isinstance(exc, OSError) else OSError(str(exc)))
            return
        tried.add(name)
        try:
            if os.path.abspath(name) != top:  # the folder holding it is ours too; the one holding ``path`` is not
                os.chmod(os.path.dirname(name), 0o700)
            if not os.path.islink(name) and os.path.isdir(name):
                os.chmod(name, 0o700)
                shutil.rmtree(name, **{_RMTREE_HOOK: again})
            else:
                os.unlink(name)
        except FileNotFoundError:
            pass
        except OSError as retry:
            failed.append(retry)

    shutil.rmtree(path, **{_RMTREE_HOOK: again})
    if failed and os.path.lexists(path):
        raise failed[0]


def lock_path(out: Path) -> Path:
    """The lock file of an output directory: ``.<name>.lock`` beside it."""
    return out.parent / f".{out.name}.lock"


class OutputLock:
    """An exclusive lock on an output directory, so builds writing it take turns.

    ``flock`` on a file beside the directory: the kernel releases it when the
    holder exits however it ends, so a killed build never leaves a stale lock.
    The holder writes its pid and start time into the file for the message a
    waiting build gives up with, and removes the file when it is done; a build
    that locked a file which was removed meanwhile tries again on the new one.

    The lock file is opened without following a link, and used only when it is a
    regular file with one name that holds nothing or a lock citgen wrote: a lock
    committed as a link to another file, or as anyone's file, is refused, since
    taking the lock truncates and writes it.
    """

    def __init__(self, out: Path, timeout: float = LOCK_TIMEOUT):
        self.out = Path(os.path.abspath(out))
        self.path = lock_path(self.out)
        self.timeout = timeout
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock, waiting up to ``timeout`` seconds; a CitgenError naming the holder after that."""
        deadline = time.monotonic() + self.timeout
        while True:
            fd = self._open()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                if time.monotonic() >= deadline:
                    raise self._held() from None
                time.sleep(_RETRY)
                continue
            except BaseException:
                os.close(fd)
                raise
            try:
                current = os.stat(self.path).st_ino
            except FileNotFoundError:
                current = None
            if current != os.fstat(fd).st_ino:  # the holder before us removed it: lock the new one
                os.close(fd)
                continue
            started = datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")
            self._fd = fd  # ours now: from here on, release() removes the file, however the rest ends
            try:
                os.ftruncate(fd, 0)
                holder = json.dumps({"pid": os.getpid(), "started": started}).encode() + b"\n"
                if os.write(fd, holder) != len(holder):  # a full file system may take part of it
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            except OSError as exc:  # a full file system: the lock file is not left behind, and it is what is named
                self.release()
                raise OSError(exc.errno, exc.strerror, str(self.path)) from None
            except BaseException:
                self.release()
                raise
            return

    def _open(self) -> int:
        """The lock file, created if need be; InputError for a link or a file that is not a lock of ours."""
        flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK
        try:
            fd = os.open(self.path, flags, 0o644)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise self._refused("is a symbolic link; citgen never writes its lock through a link (it would "
                                    "overwrite the file the link names)") from None
            raise
        info = os.fstat(fd)
        why = None
        if not stat.S_ISREG(info.st_mode):
            why = "is not a regular file"
        elif info.st_nlink != 1:
            why = f"is a file with {info.st_nlink} names (hard links); taking the lock would overwrite all of them"
        elif info.st_size and not _holds_a_lock(fd):
            why = "holds something other than a lock citgen wrote; taking the lock would overwrite it"
        if why is not None:
            os.close(fd)
            raise self._refused(why)
        return fd

    def _refused(self, why: str) -> InputError:
        return InputError.at(Location(str(self.path)), f"the lock file of {self.out} {why}; remove it, or write "
                             "the outputs elsewhere (--out)")

    def release(self) -> None:
        """Remove the lock file and let the next build in."""
        if self._fd is None:
            return
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass
        os.close(self._fd)
        self._fd = None

    def _held(self) -> CitgenError:
        try:
            holder = json.loads(self.path.read_text(encoding="utf-8"))
            who = f"pid {int(holder['pid'])}, started {holder['started']}"
        except (OSError, ValueError, KeyError, TypeError):
            who = "a process that has not written its pid yet"
        return CitgenError([Problem(Location(str(self.out)), (
            f"another citgen build is writing this output directory ({who}); gave up after waiting "
            f"{self.timeout:g} seconds (--lock-timeout sets how long to wait)"))])

    def __enter__(self) -> "OutputLock":
        self.acquire()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release()


def _holds_a_lock(fd: int) -> bool:
    """Whether the open file holds what OutputLock writes: one JSON object of a pid and a start time."""
    data = os.pread(fd, 4097, 0)
    try:
        held = json.loads(data)
    except ValueError:
        return False
    return len(data) <= 4096 and isinstance(held, dict) and set(held) == {"pid", "started"}


def replace_file(path: Path, text: str) -> None:
    """Put ``text`` in place of the file at ``path`` at once, or leave the file as it was.

    It is written beside the file first and renamed over it, so a full disk or an
    interrupt leaves the old file whole; the new file keeps the old one's mode.
    A file its owner made read-only is refused, not replaced. CitgenError names
    the path and the reason.
    """
    path = Path(path)
    if not os.access(path, os.W_OK):
        raise CitgenError([Problem(Location(str(path)), "cannot write it: permission denied (the file is not "
                                   "writable); it is unchanged")])
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.citgen-", dir=path.parent)
    except OSError as exc:
        raise CitgenError([Problem(Location(str(path)), f"cannot write it: {_reason(exc, path.parent)}; it is "
                                   "unchanged")]) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.chmod(temporary, stat.S_IMODE(os.stat(path).st_mode))
        os.replace(temporary, path)
        record(path)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        raise CitgenError([Problem(Location(str(path)), f"cannot write it: {_reason(exc, path)}; it is "
                                   "unchanged")]) from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


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

    ``add`` takes the output directory's lock, makes a hidden staging directory
    and hands files to a child process that writes them into it (treewriter.py), while
    the build goes on; ``write`` hands the last ones and waits until all of them
    are there, with the manifest. A build may do both before it knows whether the
    files are valid; ``commit`` swaps the staging directory in. Leaving the ``with``
    block without a commit (invalid output, an error, an interrupt) removes the
    staging directory, and ``out`` is as it was. Either way the lock is released.
    """

    def __init__(self, out: Path, lock_timeout: float = LOCK_TIMEOUT, command: str = "build",
                 reads: tuple[Path, ...] = ()):
        self.out = Path(os.path.abspath(out))
        self.command = command  # whose outputs these are: only its own earlier outputs are replaced
        self.reads = reads  # the catalogs the run reads: ``out`` may not be inside one
        self._lock = OutputLock(self.out, lock_timeout)
        self._staging: Path | None = None
        self._writer: TreeWriter | None = None
        self._files: dict[PurePosixPath, bytes] = {}
        self._written = False
        self._committed = False
        #: What is left beside ``out`` that could not be removed, and what it is: each a warning (``warnings``).
        self._stuck: list[tuple[OSError, str]] = []

    def __enter__(self) -> "Staging":
        """Refuse an unusable ``out`` now, before the build spends its time making the files."""
        try:
            _check_outside(self.out, self.reads)
            _check_usable(self.out)
            blocking = _file_in_the_way(self.out)
            if blocking is None:
                _check_target(self.out, self.command, None)  # checked again under the lock, with the files
        except OSError as exc:
            raise self._error(exc) from None
        if blocking is not None:  # the system would say only "File exists" or "Not a directory"
            raise self._failed(f"{blocking} is a file, not a directory")
        return self

    def __exit__(self, *exc_info: object) -> None:
        if not self._committed:
            self.discard()
        self._lock.release()

    def add(self, files: Mapping[str, bytes]) -> None:
        """Hand ``files`` to the staging directory: written by a process of their own while the caller goes on.

        The first call locks ``out``, checks it and makes the staging directory.
        A later file of the same name takes the place of an earlier one.
        """
        if self._written:
            raise RuntimeError("Staging.write() may be called once")
        relative = {safe_relative(name): data for name, data in files.items()}
        if self._writer is None:
            self._begin()
        assert self._writer is not None
        self._files.update(relative)
        self._writer.add(relative)

    def write(self, files: Mapping[str, bytes]) -> None:
        """Hand the last ``files`` and wait until every file handed is in the staging directory, the manifest too.

        ``out`` is checked again, under the lock, with the whole list: an earlier output
        is replaced only where this run writes again each file it holds.
        """
        self.add(files)
        assert self._writer is not None and self._staging is not None
        self._written = True
        try:
            self._writer.finish()
            (self._staging / MANIFEST).write_bytes(manifest(self.command, map(str, self._files)))
            os.chmod(self._staging, umasked())  # mkdtemp made it 0o700; a folder citgen makes gets what the umask leaves
            _check_target(self.out, self.command, self._files)
        except OSError as exc:
            self.discard()
            raise self._error(exc) from None

    def _begin(self) -> None:
        """Lock ``out``, check it, clean what killed runs left beside it, and start writing into a new staging
        folder."""
        try:
            self.out.parent.mkdir(parents=True, exist_ok=True)
            self._lock.acquire()  # ``out`` is checked under it once, with every file (write): nothing touches it before
            self._stuck = [(exc, "what an earlier run writing here left behind")  # only the lock holder may clean
                           for exc in _remove_leftovers(self.out.parent, self.out.name)]
            self._staging = Path(tempfile.mkdtemp(prefix=f".{self.out.name}.citgen-new-", dir=self.out.parent))
        except OSError as exc:
            self.discard()
            raise self._error(exc) from None
        self._writer = TreeWriter(self._staging)

    def commit(self) -> None:
        """Put the staging directory in place of ``out`` (once every file handed is written); the old outputs are
        then removed."""
        if self._staging is None:
            raise RuntimeError("Staging.commit() before write()")
        if not self._written:
            self.write({})
        assert self._staging is not None
        try:
            with _interrupts_after():  # Ctrl-C now would leave the outputs half swapped or a backup behind
                try:
                    _swap(self._staging, self.out)
                except _NotRemoved as exc:  # the new outputs are in place: only the old ones' removal failed
                    self._stuck.append((exc.cause, "the previous outputs, moved here when the new ones took "
                                                   "their place,"))
                record(self.out)  # before a Ctrl-C held meanwhile may end the run: it then says so
        except _NotPutBack as exc:
            self.discard()
            raise self._error(exc.cause, exc) from None
        except OSError as exc:
            self.discard()
            raise self._error(exc) from None
        self._staging = None
        self._writer = None
        self._committed = True
        self._lock.release()

    @property
    def warnings(self) -> tuple[Problem, ...]:
        """What beside ``out`` could not be removed (the old outputs after the swap, staging of killed runs).

        The new outputs are complete: only earlier copies are left over, each
        named with why it stayed, so that its owner may remove it.
        """
        return tuple(Problem(Location(_left_in(exc, self.out)), (
            f"{what} could not all be removed ({_reason(exc, self.out)}); the new outputs are in place in "
            f"{self.out}: remove this folder"), severity=WARNING) for exc, what in self._stuck)

    def discard(self) -> None:
        """Stop writing and remove the staging directory; ``out`` is untouched."""
        if self._writer is not None:
            self._writer.abandon()
            self._writer = None
        if self._staging is not None:
            remove_tree(self._staging)
            self._staging = None
        self._files = {}
        self._written = False
        self._lock.release()

    def _error(self, exc: OSError, stranded: _NotPutBack | None = None) -> CitgenError:
        """The message of a failed write, with the system's reason and the file it named."""
        return self._failed(_reason(exc, self.out), stranded)

    def _failed(self, why: str, stranded: _NotPutBack | None = None) -> CitgenError:
        """``cannot write the outputs: WHY``; it says the previous outputs are unchanged only when they are.

        ``stranded`` is given when the swap moved them aside and could not move
        them back: the message then says where they are and why.
        """
        if stranded is None:
            outcome = "the previous outputs are unchanged"
        else:
            outcome = (f"the previous outputs could not be moved back ({_reason(stranded.undo, stranded.backup)}) "
                       f"and are in {stranded.backup}; the next build to {self.out} puts them back first")
        return CitgenError([Problem(Location(str(self.out)), f"cannot write the outputs: {why}; {outcome}")])


def _reason(exc: OSError, default: Path) -> str:
    return f"{exc.strerror or exc} ({exc.filename or default})"


def _left_in(exc: OSError, out: Path) -> str:
    """The folder beside ``out`` that holds ``exc``'s path (``.bundles.citgen-old-123``)."""
    name = os.path.abspath(exc.filename) if exc.filename else ""
    for folder in out.parent.glob(f".{out.name}.citgen-*"):
        if name == str(folder) or name.startswith(f"{folder}{os.sep}"):
            return str(folder)
    return name or f"a folder beside {out}"


class _NotRemoved(OSError):
    """The swap is complete, but the old outputs, moved aside, could not all be removed."""

    def __init__(self, cause: OSError):
        super().__init__(str(cause))
        self.cause = cause


class _NotPutBack(OSError):
    """The swap failed after moving the old outputs aside, and moving them back failed too."""

    def __init__(self, cause: OSError, undo: OSError, backup: Path):
        super().__init__(str(cause))
        self.cause, self.undo, self.backup = cause, undo, backup


def _file_in_the_way(out: Path) -> Path | None:
    """The nearest folder above ``out`` that exists as something other than a folder, if any."""
    for folder in out.parents:
        if os.path.lexists(folder):
            return None if folder.is_dir() else folder
    return None


def _swap(staging: Path, out: Path) -> None:
    """Move ``out`` aside, move ``staging`` in, and drop the old outputs; undone on any failure."""
    backup = out.parent / f".{out.name}.citgen-old-{os.getpid()}"
    moved_aside = False
    try:
        if out.exists():
            os.rename(out, backup)
            moved_aside = True
        os.rename(staging, out)
    except BaseException as exc:
        if moved_aside and not os.path.lexists(out):
            try:
                os.rename(backup, out)
            except OSError as undo:  # the old outputs stay in the backup, which the next build restores
                if isinstance(exc, OSError):
                    raise _NotPutBack(exc, undo, backup) from exc
        raise
    try:
        remove_tree(backup)
    except OSError as exc:
        raise _NotRemoved(exc) from exc


@contextlib.contextmanager
def _interrupts_after() -> Iterator[None]:
    """Ctrl-C held back while the block runs (two renames and a removal): it cannot stop them halfway.

    An interrupt that came meanwhile is dropped once the swap is complete: it
    came too late to stop anything, the new outputs are in place and the backup
    is gone, and the run goes on to say so. Only the main thread handles
    signals; elsewhere nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: held.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
