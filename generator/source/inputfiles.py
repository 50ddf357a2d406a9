"""Reading files other people wrote: regular files only, bounded in size, inside their catalog.

citgen runs in pre-commit hooks and release pipelines on files a pull request
brings: catalogs, overlays, bundles, VirtualMachine files, templates. Whatever
those paths are, reading them must neither hang nor exhaust memory. So every
file the tool reads comes through this module, which

- refuses anything but a regular file before reading a byte (a FIFO would block
  for ever, ``/dev/zero`` never ends, a socket cannot be read as a file); it
  looks at the path first and again at the opened descriptor, and opens with
  O_NONBLOCK so that even a FIFO swapped in between cannot block the open;
- refuses a file larger than the size limit from its size on disk, and reads at
  most one byte beyond the limit, so a file that grows meanwhile is still
  refused without being held in memory whole;
- refuses a file of a catalog that is a symbolic link leading outside the
  catalog directory (a catalog handed over in a pull request must not make the
  build read ``/etc/shadow`` or a file of the machine it runs on).

The limits are per command run: ``citgen --max-file-size`` and
``--max-documents`` (or the environment variables CITGEN_MAX_FILE_SIZE and
CITGEN_MAX_DOCUMENTS) set them; everything else reads them from here.
"""

from __future__ import annotations

import contextlib
import errno
import os
import posixpath
import stat
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import jinja2
from jinja2.loaders import split_template_path

from ..errors import InputError
from ..problems import Location, excerpt
from ..quantity import QuantityError, parse as parse_quantity

MiB = 1 << 20
#: Largest file read by default. The all-bundle of a catalog a hundred times the
#: built-in one is about 31 MiB; hand-written files are a few KiB.
DEFAULT_MAX_FILE_SIZE = 64 * MiB
#: Most YAML documents read from one file by default; that all-bundle holds about 25,000.
DEFAULT_MAX_DOCUMENTS = 100_000

SIZE_OPTION = "--max-file-size"
SIZE_VARIABLE = "CITGEN_MAX_FILE_SIZE"
DOCUMENTS_OPTION = "--max-documents"
DOCUMENTS_VARIABLE = "CITGEN_MAX_DOCUMENTS"


@dataclass(frozen=True)
class Limits:
    """How much one file may hold: bytes, and YAML documents."""

    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    max_documents: int = DEFAULT_MAX_DOCUMENTS


_limits: ContextVar[Limits] = ContextVar("citgen_input_limits", default=Limits())


def limits() -> Limits:
    """The limits in force for this command run."""
    return _limits.get()


@contextlib.contextmanager
def limited(new: Limits) -> Iterator[Limits]:
    """Run the body with ``new`` limits, restoring the earlier ones afterwards."""
    token = _limits.set(new)
    try:
        yield new
    finally:
        _limits.reset(token)


def parse_size(text: str) -> int:
    """A size as people write it: ``200MiB``, ``200Mi``, ``1G``, ``1048576``.

    Kubernetes quantity suffixes (Ki, Mi, Gi, k, M, G ...), a binary one with an
    optional trailing ``B`` (``64MB`` is refused: 64M or 64Mi?); the result is a
    whole number of bytes, at least one.
    """
    written = text.strip()
    # 64MiB is 64Mi; 64MB could mean either 64M or 64Mi, so only a binary unit takes the B
    bare = written[:-1] if written.endswith("iB") else written
    try:
        if len(bare) > 40:  # no size needs more; Python would not even turn 5,000 digits into a number
            raise QuantityError(bare)
        value = parse_quantity(bare)
    except QuantityError:
        raise ValueError(f"expected a size such as 64MiB, 200Mi or 1G, got {excerpt(text)!r}") from None
    if value < 1 or value != int(value):
        raise ValueError(f"expected a whole number of bytes, at least 1, got {excerpt(text)!r}")
    return int(value)


def show_size(size: int) -> str:
    """``67108864`` as ``64 MiB``: how messages name a limit."""
    for unit, factor in (("GiB", 1 << 30), ("MiB", MiB), ("KiB", 1 << 10)):
        if size >= factor and size % factor == 0:
            return f"{size // factor} {unit}"
    return f"{size} bytes"


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _not_regular(mode: int) -> str | None:
    """What a non-regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")


def _refuse_not_regular(name: str, mode: int) -> None:
    what = _not_regular(mode)
    if what is not None:
        raise InputError.at(Location(name), f"is {what}, not a regular file; citgen reads only regular files")


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def leads_outside(path: Path, folder: Path) -> bool:
    """Whether ``path``, inside ``folder`` as written, really leads outside it through a symbolic link.

    A path written outside the folder (an overlay named beside the catalog on
    purpose) is not a link's doing and is not refused here.
    """
    if not _inside(Path(os.path.abspath(path)), Path(os.path.abspath(folder))):
        return False
    return not _inside(Path(os.path.realpath(path)), Path(os.path.realpath(folder)))


def _check_within(path: Path, name: str, within: Path) -> None:
    if leads_outside(path, within):
        raise InputError.at(Location(name), "is a symbolic link to a file outside the catalog directory; "
                            "citgen reads only files inside the catalog")


def read_bytes(path: Path | str, display: str | None = None, *, within: Path | None = None) -> bytes:
    """The bytes of a regular file no larger than the size limit; InputError naming ``display`` otherwise.

    ``within``: the catalog directory the file belongs to; a symbolic link
    leading out of it is refused.
    """
    name = display or str(path)
    limit = limits().max_file_size
    if within is not None:
        _check_within(Path(path), name, within)
    try:
        _refuse_not_regular(name, os.stat(path).st_mode)
        # O_NONBLOCK: a FIFO put in the file's place since the stat above must not block the open
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise InputError.at(Location(name), "file not found") from None
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # opening a socket
            raise InputError.at(Location(name), "is a socket, not a regular file; citgen reads only regular files") \
                from None
        raise InputError.at(Location(name), f"cannot read: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        _refuse_not_regular(name, info.st_mode)
        if info.st_size > limit:
            raise _too_large(name, limit)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:  # read until the end, or one byte past the limit
            chunk = os.read(fd, min(limit + 1 - size, MiB))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise _too_large(name, limit)
        return b"".join(chunks)
    except OSError as exc:
        raise InputError.at(Location(name), f"cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)


def _too_large(name: str, limit: int) -> InputError:
    return InputError.at(Location(name), f"is larger than the {show_size(limit)} limit on input files; "
                         f"raise it with `citgen {SIZE_OPTION} SIZE` or {SIZE_VARIABLE} if the file is right")


def read_text(path: Path | str, display: str | None = None, *, within: Path | None = None) -> str:
    """read_bytes decoded as UTF-8, line ends made ``\\n`` as Python's text files make them."""
    name = display or str(path)
    raw = read_bytes(path, name, within=within)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError.at(Location(name), f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


class TemplateLoader(jinja2.FileSystemLoader):
    """Jinja's file loader reading through read_text: templates are bounded like every other input.

    A template found in a templates folder must be a regular file, within the
    size limit, and not a link leading out of the catalog holding that folder;
    earlier folders win, as with FileSystemLoader.
    """

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        pieces = split_template_path(template)
        for folder in self.searchpath:
            filename = posixpath.join(folder, *pieces)
            if os.path.lexists(filename) and not os.path.isdir(filename):
                source = read_text(filename, f"templates/{template}", within=Path(folder).parent)  # the catalog
                return source, os.path.normpath(filename), lambda: True
        raise jinja2.TemplateNotFound(template)


def yaml_files(folder: Path, display: str) -> list[Path]:
    """The ``*.yaml`` files of a catalog folder, by name; none when the folder is not there.

    A folder that is there but cannot be listed or entered (no read or search
    permission) is an InputError naming it: reading none of its files would build
    a smaller catalog, and replace good outputs with it, without a word.
    """
    usable_folder(folder, display)
    if not folder.is_dir():
        return []
    with os.scandir(folder) as entries:
        return sorted(Path(entry.path) for entry in entries if entry.name.endswith(".yaml"))


def usable_folder(folder: Path, display: str) -> None:
    """InputError naming ``display`` when ``folder`` exists but cannot be listed and entered."""
    try:
        if not stat.S_ISDIR(os.stat(folder).st_mode):
            return
        with os.scandir(folder) as entries:
            for entry in entries:
                entry.is_file()  # needs search permission on the folder
                break
        if not os.access(folder, os.R_OK | os.X_OK):
            raise PermissionError(errno.EACCES, "Permission denied")
    except FileNotFoundError:
        return
    except OSError as exc:
        reason = "permission denied" if isinstance(exc, PermissionError) else (exc.strerror or str(exc))
        raise InputError.at(Location(display), f"cannot read the folder: {reason}; citgen reads all of a "
                            "catalog folder or refuses it, so that no file of it is left out unnoticed") from None

