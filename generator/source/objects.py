"""The one reader of Kubernetes objects: every command that reads objects reads them here.

``validate``, ``diff``, ``expand``, ``refs`` (its paths, ``--bundle``, ``--from`` and
``--to``) and ``build --retain-from`` name objects the same ways, and the same bytes
give the same objects in each of them:

- **Path forms** (``sources``): a file; a folder, walked by the walker the catalog
  loader uses (inputfiles.folder_files: its ``*.yaml``, ``*.yml`` and ``*.json`` files
  by name, each folder once however many links reach it, a link out of the folder a
  problem at its path and not followed); ``-``, standard input; a FIFO or pipe named
  on the command line (``--bundle <(kubectl kustomize DIR)``), read as standard input
  is, with the same bounds as a file.
- **Document forms** (``units``): multi-document YAML; ``kind: List`` and typed Lists
  (``VirtualMachineList``), each item an object of its own, read one at a time
  (stream.py); a document that is a bare list of objects; JSON, which is YAML. An
  empty document (``---`` then ``---``) is skipped, as kubectl and kustomize skip it.

A path named on the command line that cannot be used refuses the run, every such path
named at once; what is found in a folder and cannot be used is a problem at its path,
and the rest is read. A folder holding a ``kustomization.yaml`` is read as the plain
files it holds, with a note that its patches were not applied and the command that
renders it.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import BinaryIO, Iterable, Iterator, Sequence

from ..errors import InputError
from ..frozen import frozen
from ..problems import Location, Problem, excerpt
from .documents import BundleDoc
from .inputfiles import file_kind, folder_files, lookup, read_stream_text, read_text
from . import jsonstream
from .stream import Unit, units

#: The name that stands for standard input on the command line, and how locations name it.
STDIN = "-"
STDIN_NAME = "<stdin>"
#: The files of a folder that are read: Kubernetes manifests, as kubectl reads a folder.
SUFFIXES = (".yaml", ".yml", ".json")
#: The file of a build's output folder that holds every object once.
ALL_BUNDLE = "common-instancetypes-all-bundle.yaml"
#: The files that make a folder a kustomization (kustomize's own names).
KUSTOMIZATIONS = ("kustomization.yaml", "kustomization.yml", "Kustomization")


@frozen
class Source:
    """One text to read: how messages name it, its path (None: standard input), and how it was found.

    ``named``: named on the command line, where a source that cannot be read
    refuses the run; otherwise found in a folder, where it is a problem and the
    rest is read. ``stream``: a FIFO or pipe, read as it comes rather than as a file.
    """

    shown: str
    path: Path | None
    named: bool = True
    stream: bool = False

    def text(self, stdin: BinaryIO | None = None) -> str:
        """The source's text, bounded and decoded as every input is (inputfiles.py); InputError if it cannot be."""
        if self.path is None:
            return read_stream_text(stdin or sys.stdin.buffer, self.shown)
        if self.stream:
            try:
                # O_NONBLOCK: a FIFO nothing writes to would block the open for ever; once open, a read waits
                # for what a writer sends, and a FIFO without one reads as empty
                fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
                os.set_blocking(fd, True)
                with os.fdopen(fd, "rb") as pipe:
                    return read_stream_text(pipe, self.shown)
            except OSError as exc:
                raise InputError.at(Location(self.shown), f"cannot be read: {(exc.strerror or str(exc)).lower()}") \
                    from None
        return read_text(self.path, self.shown)


@frozen
class Sources:
    """What paths name: the sources in the order given, each file once, and what the walk could not use."""

    sources: tuple[Source, ...]
    problems: tuple[Problem, ...] = ()
    kustomizations: tuple[str, ...] = ()
    #: Folders named that hold no manifest at all.
    empty: tuple[str, ...] = ()

    def notes(self, command: str) -> tuple[str, ...]:
        """What a command says of the kustomizations it read as plain files: the command that renders each."""
        return tuple(f"{folder} holds a kustomization, read here as the plain files it holds (its patches, "
                     f"generators and remote resources are not applied); to check what it deploys: "
                     f"kubectl kustomize {folder} | citgen {command} -" for folder in self.kustomizations)


def sources(paths: Iterable[str | Path], *, folders: bool = True, refuse: bool = True) -> Sources:
    """The sources ``paths`` name: files, folders walked, ``-`` and pipes; InputError for a path that cannot be used.

    ``folders``: whether a folder may be named (a command that needs one file of
    objects says so when it is given a folder). ``refuse``: False to have a path
    that cannot be used among the problems, when the caller reads what it can and
    then reports every problem at once.
    """
    found: list[Source] = []
    problems: list[Problem] = []
    refused: list[Problem] = []
    kustomized: list[str] = []
    empty: list[str] = []
    for given in paths:
        shown = os.fspath(given)
        if shown == STDIN:
            found.append(Source(STDIN_NAME, None))
            continue
        try:
            named = _named(Path(shown), shown, problems, kustomized, folders)
            if not named:
                empty.append(shown)
            found.extend(named)
        except InputError as exc:
            refused.extend(exc.problems)
    if refused and refuse:
        raise InputError(refused)
    return Sources(_once(found), (*refused, *problems), tuple(kustomized), tuple(empty))


def _named(path: Path, shown: str, problems: list[Problem], kustomized: list[str], folders: bool) -> list[Source]:
    """The sources of one path named on the command line."""
    if not shown:
        raise InputError.at(Location("''"), "is an empty path, which names no file; give a file, a folder or -")
    info = lookup(path, shown)
    if info is None:
        raise InputError.at(Location(shown), "no such file or folder")
    if stat.S_ISREG(info.st_mode):
        return [Source(shown, path)]
    if stat.S_ISFIFO(info.st_mode):
        return [Source(shown, path, stream=True)]
    if not stat.S_ISDIR(info.st_mode):
        raise InputError.at(Location(shown), f"is {file_kind(info.st_mode)}, not a regular file, a pipe or a folder")
    if not folders:
        raise InputError.at(Location(shown), "is a folder; name a file of objects (or -)")
    files = folder_files(path, shown, within=path, catalog=False, problems=problems)
    top = "" if shown in (".", "./") else shown.rstrip("/") + "/"
    kustomized.extend(f"{top}{relative.rpartition('/')[0]}".rstrip("/") or "."
                      for relative in files if relative.rpartition("/")[2] in KUSTOMIZATIONS)
    return [Source(f"{top}{relative}", path / relative, named=False) for relative in files
            if relative.endswith(SUFFIXES)]


def build_bundle(folder: Path, shown: str) -> Path | None:
    """The all-bundle of a folder ``citgen build`` wrote, or None when the folder holds none.

    Found rather than named, it must be a regular file, as every file found is: a
    FIFO or a device put there is refused, never waited on.
    """
    bundle = folder / ALL_BUNDLE
    found = lookup(bundle, f"{shown.rstrip('/')}/{ALL_BUNDLE}")
    if found is None:
        return None
    if not stat.S_ISREG(found.st_mode):
        raise InputError.at(Location(f"{shown.rstrip('/')}/{ALL_BUNDLE}"),
                            f"is {file_kind(found.st_mode)}, not a regular file; citgen reads only regular files")
    return bundle


def _once(found: list[Source]) -> tuple[Source, ...]:
    """Each file once, as first named: a file named and found in a folder too is read once."""
    seen: set[str] = set()
    kept = []
    for source in found:
        key = os.path.realpath(source.path) if source.path is not None and not source.stream else source.shown
        if key not in seen:
            seen.add(key)
            kept.append(source)
    return tuple(kept)


def objects_of(text: str, shown: str) -> Iterator[Unit | Problem]:
    """The objects of one text, in order, and what the reader refused: every document form read the same way.

    A List's items and a bare list's items are units of their own; an empty document is skipped.
    """
    for unit in jsonstream.read(text, shown) or units(text, shown):
        if isinstance(unit, Problem):
            yield unit
        elif unit.data is not None:
            yield from unit.items()


# --- bundles: files that must hold catalog objects ------------------------------------------------


def read_bundles(paths: Sequence[str | Path], *, option: str | None = None, stdin: BinaryIO | None = None,
                 catalog: bool = True) -> list[BundleDoc]:
    """The objects of files that must hold them (a bundle, what an upgrade starts from), read whole or refused.

    Every path form and document form of ``sources`` and ``objects_of``. Whatever
    the reader refuses in any of them refuses the run (a bundle read in part would
    judge against fewer objects than it holds). A source that holds no object,
    or with ``catalog`` no catalog object, is refused naming it and what it holds:
    checking against nothing would pass silently where the wrong file was named.
    ``option`` names the option the paths were given with, for the wording.
    """
    from ..model import KINDS  # imported here: the model is a later step than reading

    found = sources(paths, refuse=False)  # every problem of every path at once
    problems: list[Problem] = list(found.problems)
    docs: list[BundleDoc] = []
    for source in found.sources:
        try:
            text = source.text(stdin)
        except InputError as exc:
            problems.extend(exc.problems)
            continue
        own: list[BundleDoc] = []
        before = len(problems)
        for unit in objects_of(text, source.shown):
            if isinstance(unit, Problem):
                problems.append(unit)
                continue
            problems.extend(unit.problems)
            own.append(BundleDoc(source.shown, unit.doc, unit.data, unit.source, unit.path, unit.lines_before,
                                 unit.within))
        held = [doc for doc in own if isinstance(doc.data, dict)]
        catalog_objects = [doc for doc in held if doc.kind in KINDS]
        if len(problems) == before and (not held or (catalog and not catalog_objects)):  # read, and nothing in it
            problems.append(Problem(Location(source.shown), _holds_nothing(own, held, option, catalog)))
        docs.extend(own)
    problems += [Problem(Location(folder), f"no {'catalog objects' if catalog else 'Kubernetes objects'}"
                         f"{f' (given as {option})' if option else ''}: the folder holds no *.yaml, *.yml or *.json "
                         "file") for folder in found.empty]
    if problems:
        raise InputError(problems)
    return docs


def _holds_nothing(own: list[BundleDoc], held: list[BundleDoc], option: str | None, catalog: bool) -> str:
    """Why a source holds nothing to work on, in words: what it does hold."""
    given = f" (given as {option})" if option else ""
    if not own:
        what = "is empty, or holds only comments and document separators"
    elif not held:
        what = "holds " + " and ".join(dict.fromkeys("lists" if isinstance(d.data, list) else "scalars" for d in own))
    else:
        kinds = sorted({excerpt(str(d.kind)) for d in held})
        shown = ", ".join(kinds[:5]) + (f" and {len(kinds) - 5} more kinds" if len(kinds) > 5 else "")
        what = f"holds {len(held)} object{'s' if len(held) != 1 else ''} ({shown}) but no instancetype or preference"
    expected = ("VirtualMachineClusterInstancetype, VirtualMachineInstancetype, VirtualMachineClusterPreference or "
                "VirtualMachinePreference objects, as documents or in a kind: List") if catalog else \
        "Kubernetes objects: YAML or JSON mappings with apiVersion, kind and metadata"
    return f"no {'catalog objects' if catalog else 'Kubernetes objects'}{given}: the file {what}; expected {expected}"
