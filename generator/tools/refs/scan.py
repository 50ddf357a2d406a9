"""The scan of ``citgen refs``: manifests read from files, folders and standard input, and what the forms find.

``scan(paths)`` reads each path in the order given: a file as it is (whatever its
name), a folder recursively (its ``*.yaml``, ``*.yml`` and ``*.json`` files, by name,
symbolic links followed as the reader follows them: a link back to a folder it is in
is refused), and ``-`` standard input. Every file goes through the one bounded reader
(source/inputfiles.py) and the located YAML reader (source/yamlsrc.py), one document
or List item at a time (stream.py), and the forms (forms.py) turn each into
references and definitions before the next is read: only those are kept.

A path named on the command line that cannot be used (not there, a FIFO, a folder
that cannot be listed, a file that cannot be read) refuses the scan, every such path
named at once. Below that, nothing stops it: a file that is not YAML, a document the
reader refuses, a folder or file found in a folder that cannot be read, are problems
of the scan, and it reads on. A file that holds no Kubernetes object and no reference
(a plain mapping of parameters, a workflow of a CI system) is skipped and counted,
and what the reader refused in its values is no problem of the scan (a workflow's
``on:`` key, which YAML reads as true).
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import BinaryIO, Sequence

from ...errors import InputError
from ...problems import Location, Problem
from ...source.inputfiles import file_kind, folder_names, lookup, read_stream_text, read_text, usable_folder
from .forms import is_object, read_unit
from .model import Definition, Reference, Scan
from .places import Place
from .stream import Unit, units

#: The name that stands for standard input on the command line, and how locations name it.
STDIN = "-"
STDIN_NAME = "<stdin>"
#: The files of a folder that are read: Kubernetes manifests as kubectl reads a folder.
SUFFIXES = (".yaml", ".yml", ".json")


def scan(paths: Sequence[str | Path], places: Sequence[Place] = (), *, stdin: BinaryIO | None = None) -> Scan:
    """Every reference to a catalog object, and every catalog object defined, in the manifests at ``paths``.

    ``places`` are the places the user named (places.py); ``stdin`` is what ``-`` reads
    (standard input when None). InputError for a path that cannot be used.
    """
    sources, problems = _sources(paths)
    references: list[Reference] = []
    definitions: list[Definition] = []
    skipped: list[str] = []
    files = 0
    for shown, path, named in sources:
        try:
            text = read_stream_text(stdin or sys.stdin.buffer, shown) if path is None else read_text(path, shown)
        except InputError as exc:
            if named:
                raise
            problems.extend(exc.problems)
            continue
        files += 1
        holds = False
        for unit in units(text, shown):
            if isinstance(unit, Problem):
                problems.append(unit)
                holds = True
                continue
            before = len(references) + len(definitions) + len(problems)
            for found in read_unit(unit, places):
                if isinstance(found, Reference):
                    references.append(found)
                elif isinstance(found, Definition):
                    definitions.append(found)
                else:
                    problems.append(found)
            if _holds_objects(unit) or len(references) + len(definitions) + len(problems) > before:
                holds = True
                problems.extend(unit.problems)  # a value the reader refused matters only where something is
        if not holds:
            skipped.append(shown)
    return Scan(tuple(references), tuple(definitions), files, tuple(skipped), tuple(problems))


def _holds_objects(unit: Unit) -> bool:
    """Whether a unit is a Kubernetes object, or a list holding one."""
    data = unit.data
    return is_object(data) or (isinstance(data, list) and any(is_object(item) for item in data))


def _sources(paths: Sequence[str | Path]) -> tuple[list[tuple[str, Path | None, bool]], list[Problem]]:
    """The files to read (how messages name each, its path or None for standard input, whether it was named
    on the command line), and the problems of the folders walked; InputError for a path that cannot be used."""
    sources: list[tuple[str, Path | None, bool]] = []
    problems: list[Problem] = []
    refused: list[Problem] = []
    for given in paths:
        shown = str(given)
        if shown == STDIN:
            sources.append((STDIN_NAME, None, True))
            continue
        try:
            info = lookup(given)
            if info is None:
                raise InputError.at(Location(shown), "no such file or folder")
            if stat.S_ISDIR(info.st_mode):
                usable_folder(Path(given), shown, catalog=False)
                _walk(Path(given), shown, frozenset({(info.st_dev, info.st_ino)}), sources, problems)
            elif stat.S_ISREG(info.st_mode):
                sources.append((shown, Path(given), True))
            else:
                raise InputError.at(Location(shown), f"is {file_kind(info.st_mode)}, not a regular file or a "
                                    "folder; citgen reads only regular files")
        except InputError as exc:
            refused.extend(exc.problems)
    if refused:
        raise InputError(refused)
    return _once(sources), problems


def _walk(folder: Path, shown: str, above: frozenset[tuple[int, int]],
          sources: list[tuple[str, Path | None, bool]], problems: list[Problem]) -> None:
    """The manifests under ``folder``, by name; what cannot be listed or followed is a problem, and the rest is
    read. ``above``: the folders it is in, by device and inode, so that a link back to one is refused."""
    try:
        names = folder_names(folder, shown, catalog=False)
    except InputError as exc:
        problems.extend(exc.problems)
        return
    for name in names:
        entry, entry_shown = folder / name, name if shown in (".", "./") else f"{shown.rstrip('/')}/{name}"
        try:
            info = lookup(entry, entry_shown)
        except InputError as exc:
            problems.extend(exc.problems)
            continue
        if info is None:  # gone since the folder was listed
            continue
        if stat.S_ISDIR(info.st_mode):
            inode = (info.st_dev, info.st_ino)
            if inode in above:
                problems.append(Problem(Location(entry_shown), "is a symbolic link loop: it leads back to a folder "
                                                               "it is in"))
                continue
            _walk(entry, entry_shown, above | {inode}, sources, problems)
        elif name.endswith(SUFFIXES):
            sources.append((entry_shown, entry, False))


def _once(sources: list[tuple[str, Path | None, bool]]) -> list[tuple[str, Path | None, bool]]:
    """Each file once, as first named: a file named and found in a folder too is read once."""
    seen: set[str] = set()
    kept = []
    for shown, path, named in sources:
        key = os.path.realpath(path) if path is not None else STDIN_NAME
        if key not in seen:
            seen.add(key)
            kept.append((shown, path, named))
    return kept
