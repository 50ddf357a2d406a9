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

import codecs
import contextlib
import errno
import os
import stat
from contextvars import ContextVar
from pathlib import Path, PurePosixPath
from typing import BinaryIO, Iterable, Iterator

from ..errors import InputError
from ..frozen import frozen
from ..problems import PATH_EXCERPT, Location, Problem, excerpt
from ..quantity import QuantityError, parse as parse_quantity

MiB = 1 << 20
#: Largest file read by default. A cluster dump of 10,000 VirtualMachines and as many
#: DataSources as kubectl writes JSON is 93 MiB, and is read holding its text once (a
#: file is decoded as it is read) with each object built in turn: 160 MiB at its peak.
#: The all-bundle of a catalog a hundred times the built-in one is about 31 MiB;
#: hand-written files are a few KiB.
DEFAULT_MAX_FILE_SIZE = 256 * MiB
#: Most YAML documents read from one file by default; that all-bundle holds about 25,000.
DEFAULT_MAX_DOCUMENTS = 100_000

SIZE_OPTION = "--max-file-size"
SIZE_VARIABLE = "CITGEN_MAX_FILE_SIZE"
DOCUMENTS_OPTION = "--max-documents"
DOCUMENTS_VARIABLE = "CITGEN_MAX_DOCUMENTS"


@frozen
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

#: Why a folder that cannot be listed is refused rather than read in part.
WHOLE_FOLDERS = "citgen reads all of a catalog folder or refuses it, so that no file of it is left out unnoticed"


def _not_regular(mode: int) -> str | None:
    """What a non-regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")


def file_kind(mode: int) -> str:
    """What any file is, in words: ``a regular file``, ``a FIFO (named pipe)`` ..."""
    what = _not_regular(mode)
    return "a regular file" if what is None else "something other than a file" if what.startswith("not ") else what


def _refuse_not_regular(name: str, mode: int) -> None:
    what = _not_regular(mode)
    if what is not None:
        raise InputError.at(Location(name), f"is {what}, not a regular file; citgen reads only regular files")


def _inside(path: str, folder: str) -> bool:
    """Whether the absolute, normalized ``path`` is ``folder`` or under it (compared as text: a catalog's every
    file is checked, and pathlib's parts cost more than the check's system calls)."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def leads_outside(path: Path, folder: Path) -> bool:
    """Whether ``path``, inside ``folder`` as written, really leads outside it through a symbolic link.

    A path written outside the folder (an overlay named beside the catalog on
    purpose) is not a link's doing and is not refused here.
    """
    written, root = os.path.abspath(path), os.path.abspath(folder)
    if not _inside(written, root):
        return False
    return not _inside(os.path.realpath(written), os.path.realpath(root))


def _check_within(path: Path, name: str, within: Path) -> None:
    if leads_outside(path, within):
        raise InputError.at(Location(name), "is a symbolic link to a file outside the catalog directory; "
                            "citgen reads only files inside the catalog")


# --------------------------------------------------------------------------- what is at a path


def lookup(path: Path | str, display: str | None = None, *, within: Path | None = None) -> os.stat_result | None:
    """What is at ``path``, symbolic links followed; None when nothing is there.

    Whatever keeps that from being told is an InputError naming ``display``, or the
    part of it to blame: a folder on the way that cannot be entered, a symbolic
    link that points nowhere or round in a loop, a file where a folder should be.
    So nothing is taken for absent (and passed over) only because it could not be
    looked at. ``within``: the catalog the path belongs to, for the wording.
    """
    return _lookup(path, display or str(path), catalog=within is not None)


def _lookup(path: Path | str, name: str, *, catalog: bool) -> os.stat_result | None:
    try:
        return os.stat(path)
    except FileNotFoundError:
        if not os.path.islink(path):
            return None
        raise InputError.at(Location(name), f"is a symbolic link that points nowhere: {_target(path)} does not "
                            "exist") from None
    except OSError as exc:
        raise _unreachable(Path(path), name, exc, catalog=catalog) from None


def _target(link: Path | str) -> str:
    try:
        return repr(excerpt(os.readlink(link), PATH_EXCERPT))
    except OSError:  # pragma: no cover - taken away since it was looked at
        return "its target"


def _unreachable(path: Path, name: str, exc: OSError, *, catalog: bool) -> InputError:
    """The refusal of a path the system would not look up, naming the part to blame."""
    failing = _first_failing(path, exc.errno)
    if exc.errno == errno.EACCES:  # a folder on the way cannot be searched: the one holding what failed
        folder = (failing or Path(os.path.abspath(path))).parent
        return _folder_refusal(_part_name(folder, path, name), "permission denied", catalog=catalog)
    if exc.errno == errno.ELOOP:
        return InputError.at(Location(_part_name(failing or path, path, name)),
                             "is a symbolic link loop: following its links never reaches a file")
    if exc.errno == errno.ENOTDIR and failing is not None:
        try:
            what = file_kind(os.stat(failing.parent).st_mode)
        except OSError:  # pragma: no cover - changed since it was looked at
            what = "not a directory"
        return InputError.at(Location(_part_name(failing.parent, path, name)), f"is {what}, not a directory")
    return InputError.at(Location(name), f"cannot read: {exc.strerror or exc}")


def _first_failing(path: Path, code: int | None) -> Path | None:
    """The first part of ``path`` (from the root down) that cannot be looked up for the reason ``code``."""
    absolute = Path(os.path.abspath(path))
    for part in (*reversed(absolute.parents), absolute):
        try:
            os.stat(part)
        except OSError as exc:
            return part if exc.errno == code else None
    return None


def _part_name(part: Path, path: Path | str, name: str) -> str:
    """``part`` of ``path`` named as ``name`` names the path: relative to the catalog when it is."""
    below = len(Path(os.path.abspath(path)).parts) - len(part.parts)
    shown = PurePosixPath(name).parts
    if below <= 0:
        return name
    if below < len(shown):
        return str(PurePosixPath(*shown[:-below]))
    return str(part)


def _folder_refusal(name: str, reason: str, *, catalog: bool = True) -> InputError:
    why = f"; {WHOLE_FOLDERS}" if catalog else ""
    return InputError.at(Location(name), f"cannot read the folder: {reason}{why}")


# --------------------------------------------------------------------------- reading a file


def read_bytes(path: Path | str, display: str | None = None, *, within: Path | None = None) -> bytes:
    """The bytes of a regular file no larger than the size limit; InputError naming ``display`` otherwise.

    ``within``: the catalog directory the file belongs to; a symbolic link
    leading out of it is refused.
    """
    return b"".join(_chunks(path, display or str(path), within))


def _chunks(path: Path | str, name: str, within: Path | None) -> Iterator[bytes]:
    """The bytes of a regular file no larger than the size limit, a piece at a time (read_bytes says the rest)."""
    limit = limits().max_file_size
    if within is not None:
        _check_within(Path(path), name, within)
    found = _lookup(path, name, catalog=within is not None)
    if found is None:
        raise InputError.at(Location(name), "no such file or folder")
    _refuse_not_regular(name, found.st_mode)
    try:
        # O_NONBLOCK: a FIFO put in the file's place since the look above must not block the open
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise InputError.at(Location(name), "no such file or folder") from None
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
        size = 0
        while size <= limit:  # read until the end, or one byte past the limit
            chunk = os.read(fd, min(limit + 1 - size, MiB))
            if not chunk:
                break
            size += len(chunk)
            if size > limit:
                raise _too_large(name, limit)
            yield chunk
    except OSError as exc:
        raise InputError.at(Location(name), f"cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)


def _too_large(name: str, limit: int) -> InputError:
    return InputError.at(Location(name), f"is larger than the {show_size(limit)} limit on input files; "
                         f"raise it with `citgen {SIZE_OPTION} SIZE` or {SIZE_VARIABLE} if the file is right")


#: The byte-order mark some editors put first in a UTF-8 file.
BOM = "\ufeff"


@frozen
class TextFile:
    """A text file as citgen reads it, and how it was written.

    ``text`` has no byte-order mark and every line end ``\\n``, whatever the
    editor wrote; ``bom`` and ``crlf`` say what it wrote (``crlf`` when every line
    ended so), for a file citgen writes back (the README).
    """

    text: str
    bom: bool = False
    crlf: bool = False

    def as_written(self, text: str) -> str:
        """``text`` (line ends ``\\n``) written as this file was: its byte-order mark and its line ends."""
        if self.crlf:
            text = text.replace("\n", "\r\n")
        return BOM + text if self.bom else text


def decode_text(raw: bytes, name: str) -> TextFile:
    """``raw`` as UTF-8 text: a leading byte-order mark dropped, CRLF and CR line ends read as ``\\n``."""
    return _decoded((raw,), name)


def _decoded(chunks: Iterable[bytes], name: str) -> TextFile:
    """The UTF-8 text of ``chunks``, decoded a piece at a time into one growing string, so that a large file is
    held once as text rather than as its bytes and its text at the same time; see decode_text."""
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    text = ""
    before = 0  # bytes of the file before what the decoder is given: its pending bytes and the chunk
    try:
        for chunk in chunks:
            pending = len(decoder.getstate()[0])
            before -= pending
            text += decoder.decode(chunk)  # grown in place: the only reference to the text is this name
            before += pending + len(chunk)
        before -= len(decoder.getstate()[0])
        text += decoder.decode(b"", final=True)
    except UnicodeDecodeError as exc:
        raise InputError.at(Location(name), f"not UTF-8 text ({exc.reason} at byte {before + exc.start})") from None
    bom = text.startswith(BOM)
    if bom:
        text = text[len(BOM):]
    crlf = False
    if "\r" in text:
        crlf = "\r\n" in text and text.count("\r\n") == text.count("\n")
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return TextFile(text, bom, crlf)


def read_text_file(path: Path | str, display: str | None = None, *, within: Path | None = None) -> TextFile:
    """read_bytes decoded by decode_text: the text, and whether it had a byte-order mark and CRLF line ends.

    The file is decoded as it is read, a piece at a time: its bytes are never held whole beside its text.
    """
    name = display or str(path)
    return _decoded(_chunks(path, name, within), name)


def read_text(path: Path | str, display: str | None = None, *, within: Path | None = None) -> str:
    """read_bytes decoded as UTF-8: no byte-order mark, line ends made ``\\n`` as Python's text files make them.

    Every format citgen reads (YAML, JSON, Jinja, Markdown) means the same with
    either line end, and none has a use for a byte-order mark, which an editor
    puts there unseen.
    """
    return read_text_file(path, display, within=within).text


def read_stream_text(stream: BinaryIO, name: str) -> str:
    """An open stream (standard input, a pipe) read as read_text reads a file: at most one byte past the size limit.

    A pipe has no size to look at first, so the limit is judged only from what is
    read; ``name`` is what messages call the stream (``-``). A terminal is refused
    rather than waited on: nothing was piped in.
    """
    try:
        if stream.isatty():
            raise InputError.at(Location(name), "is a terminal, not a stream of manifests; pipe them in "
                                "(kubectl get vm -A -o yaml | citgen refs -) or name files")
    except ValueError:  # a closed stream
        raise InputError.at(Location(name), "cannot read: the stream is closed") from None
    return _decoded(_stream_chunks(stream, name), name).text


def _stream_chunks(stream: BinaryIO, name: str) -> Iterator[bytes]:
    limit = limits().max_file_size
    size = 0
    try:
        while size <= limit:
            chunk = stream.read(min(limit + 1 - size, MiB))
            if not chunk:
                return
            size += len(chunk)
            if size > limit:
                raise _too_large(name, limit)
            yield chunk
    except OSError as exc:
        raise InputError.at(Location(name), f"cannot read: {exc.strerror or exc}") from None
    except ValueError:  # a closed stream
        raise InputError.at(Location(name), "cannot read: the stream is closed") from None


def read_file(path: Path | str, display: str | None = None, *, within: Path | None = None) -> bytes:
    """A file copied into an output (the Helm chart's own files): UTF-8 text as read_text reads it, encoded
    again, so that a byte-order mark and CRLF an editor saved do not reach the output; anything else (an
    image) as its bytes are."""
    name = display or str(path)
    raw = read_bytes(path, name, within=within)
    try:
        return decode_text(raw, name).text.encode("utf-8")
    except InputError:  # not UTF-8 text: no line ends to speak of
        return raw


# --------------------------------------------------------------------------- folders


def usable_folder(folder: Path, display: str, *, catalog: bool = True) -> bool:
    """Whether there is a folder at ``folder`` (False: nothing is there); InputError naming ``display`` otherwise.

    What is there must be a folder that can be listed and entered: a file, a
    link to nothing or a folder without read or search permission would leave
    its files out without a word, building a smaller catalog and replacing good
    outputs with it. ``catalog``: the folder is a catalog's, for the wording.
    """
    found = _lookup(folder, display, catalog=catalog)
    if found is None:
        return False
    if not stat.S_ISDIR(found.st_mode):
        raise InputError.at(Location(display), f"is {file_kind(found.st_mode)}, not a directory")
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                entry.stat(follow_symlinks=False)  # needs search permission on the folder, follows no link
                break
        if not os.access(folder, os.R_OK | os.X_OK):
            raise PermissionError(errno.EACCES, "Permission denied")
    except FileNotFoundError:
        return False
    except OSError as exc:
        reason = "permission denied" if isinstance(exc, PermissionError) else (exc.strerror or str(exc))
        raise _folder_refusal(display, reason, catalog=catalog) from None
    return True


def folder_names(folder: Path, display: str, *, catalog: bool = True) -> list[str]:
    """The names in ``folder``, sorted; none when it is not there. Refused as usable_folder refuses."""
    if not usable_folder(folder, display, catalog=catalog):
        return []
    try:
        return sorted(os.listdir(folder))
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise _folder_refusal(display, exc.strerror or str(exc), catalog=catalog) from None


def yaml_files(folder: Path, display: str) -> list[Path]:
    """The ``*.yaml`` files of a catalog folder, by name; none when the folder is not there.

    Whatever is named so is listed, folders and FIFOs included, so that reading
    it refuses it rather than leaving it out.
    """
    return [folder / name for name in folder_names(folder, display) if name.endswith(".yaml")]


@frozen
class _Walk:
    """What one walk keeps and is told: the files found so far, how to treat links, where problems go.

    ``seen`` holds every folder walked, by device and inode, so that each is walked
    once however many links reach it. ``problems``: None to refuse the whole walk at
    the first entry that cannot be used (a catalog's folders); a list to collect each
    such entry as a problem at its path and walk on (a folder of manifests).
    """

    found: list[str]
    follow: bool
    within: Path | None
    catalog: bool
    seen: set[tuple[int, int]]
    problems: list[Problem] | None = None


def _walk(walk: _Walk, path: Path, shown: str, relative: tuple[str, ...], above: frozenset[tuple[int, int]]) -> None:
    """Add what is under ``path`` to ``walk.found``; ``above`` holds the folders it is in, to see a loop."""
    try:
        names = folder_names(path, shown, catalog=walk.catalog)
    except InputError as exc:
        if walk.problems is None or not relative:
            raise
        walk.problems.extend(exc.problems)
        return
    for name in names:
        entry, entry_shown, entry_relative = path / name, f"{shown.rstrip('/')}/{name}", relative + (name,)
        try:
            _entry(walk, entry, entry_shown, entry_relative, above)
        except InputError as exc:
            if walk.problems is None:
                raise
            walk.problems.extend(exc.problems)


def _entry(walk: _Walk, entry: Path, shown: str, relative: tuple[str, ...], above: frozenset[tuple[int, int]]) -> None:
    """One entry of a folder walked: a file found, a folder walked into, or an InputError saying why neither."""
    if not walk.follow and os.path.islink(entry):
        walk.found.append("/".join(relative))
        return
    info = _lookup(entry, shown, catalog=walk.catalog)
    if info is None:  # gone since the folder was listed
        return
    if os.path.islink(entry) and walk.within is not None:
        if not walk.catalog and leads_outside(entry, walk.within):
            raise InputError.at(Location(shown), "is a symbolic link leading out of the folder named; citgen reads "
                                "only what is inside it (name the target itself to read it)")
        _check_within(entry, shown, walk.within)
    if not stat.S_ISDIR(info.st_mode):
        walk.found.append("/".join(relative))
        return
    inode = (info.st_dev, info.st_ino)
    if inode in above:
        raise InputError.at(Location(shown), "is a symbolic link loop: it leads back to a folder it is in")
    if inode in walk.seen:  # reached by another link already: walked once
        return
    walk.seen.add(inode)
    _walk(walk, entry, shown, relative, above | {inode})


def folder_files(folder: Path, display: str, *, within: Path | None = None, follow: bool = True,
                 catalog: bool = True, problems: list[Problem] | None = None) -> list[str]:
    """Everything under ``folder`` but its folders, as sorted POSIX paths relative to it; none when it is not there.

    Every folder on the way is listed whole or refused (usable_folder), and
    whatever is not a folder is in the list, so that reading it refuses what is no
    regular file instead of leaving it out. ``follow``: a symbolic link to a folder
    is walked into, once however many links lead to it, unless it leads out of
    ``within`` or back to a folder it is in; otherwise every link is an entry of its
    own. A link to a file that leads out of ``within`` is refused too. ``catalog``:
    the folder is a catalog's, for the wording. ``problems``: where what cannot be
    used below ``folder`` is collected, each at its path, when the walk is to go on
    without it (by default the first one refuses the walk).
    """
    found: list[str] = []
    if usable_folder(folder, display, catalog=catalog):
        top = os.stat(folder)
        inode = (top.st_dev, top.st_ino)
        walk = _Walk(found, follow, within, catalog, {inode}, problems)
        _walk(walk, folder, display, (), frozenset({inode}))
    return sorted(found)
