"""The scan of ``citgen refs``: manifests read by the one reader of objects, and what the forms find.

``scan(paths)`` reads each path in the order given, as every command reads objects
(source/objects.py: files, folders, ``-``, pipes; documents, Lists and bare lists),
one object at a time, and the forms (forms.py) turn each into references and
definitions before the next is read: only those are kept.

A path named on the command line that cannot be used refuses the scan, every such
path named at once. Below that, nothing stops it: a file that is not YAML, a
document the reader refuses, a folder or file found in a folder that cannot be
read, are problems of the scan, and it reads on. A file that holds no Kubernetes
object and no reference (a plain mapping of parameters, a workflow of a CI system)
is skipped and counted, and what the reader refused in its values is no problem of
the scan (a workflow's ``on:`` key, which YAML reads as true).
"""

from __future__ import annotations

import gc
import os
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Callable, ContextManager, Iterator, Sequence

from ...errors import InputError
from ...problems import Problem
from ...source.objects import Source, Sources, objects_of, sources
from ...source.stream import Unit
from .forms import is_object, read_unit
from .model import Definition, Reference, Scan
from .places import Place


#: What shows a scan's progress: given the bytes to read, a context whose value is told each number read.
Progress = Callable[[int], ContextManager[Callable[[int], None]]]


def scan(paths: Sequence[str | Path], places: Sequence[Place] = (), *, stdin: BinaryIO | None = None,
         progress: Progress | None = None) -> Scan:
    """Every reference to a catalog object, and every catalog object defined, in the manifests at ``paths``.

    ``places`` are the places the user named (places.py); ``stdin`` is what ``-`` reads
    (standard input when None); ``progress`` shows how far the reading is (the files'
    sizes as the total; a stream's, unknown beforehand, is not counted). InputError for
    a path that cannot be used.
    """
    given = sources(paths)
    if progress is None:
        return _scan(given, places, stdin, lambda read: None)
    with progress(sum(_size(source) for source in given.sources)) as advance:
        return _scan(given, places, stdin, advance)


def _size(source: Source) -> int:
    try:
        return os.stat(source.path).st_size if source.path is not None and not source.stream else 0
    except OSError:
        return 0


#: Units read between two freezes of what the scan keeps (``_kept_apart``).
FREEZE_EVERY = 1000


@contextmanager
def _kept_apart() -> Iterator[Callable[[], None]]:
    """A ``keep()`` to call as the scan reads on: what it has kept so far is set apart from the cyclic collector.

    A cluster dump's references, definitions and the text they are read from stay to
    the end of the scan, tens of thousands of objects; each of the collector's full
    passes walked them all again (a fifth of ``citgen refs`` of the 10,000-VM dump).
    ``gc.freeze()`` every FREEZE_EVERY units moves what is alive into the permanent
    generation, which no pass walks; what a unit leaves behind is still collected, and
    everything is handed back to the collector when the scan ends.
    """
    read = 0

    def keep() -> None:
        nonlocal read
        read += 1
        if read % FREEZE_EVERY == 0:
            gc.freeze()

    try:
        yield keep
    finally:
        gc.unfreeze()


def _scan(given: Sources, places: Sequence[Place], stdin: BinaryIO | None, advance: Callable[[int], None]) -> Scan:
    with _kept_apart() as keep:
        return _scan_kept(given, places, stdin, advance, keep)


def _scan_kept(given: Sources, places: Sequence[Place], stdin: BinaryIO | None, advance: Callable[[int], None],
               keep: Callable[[], None]) -> Scan:
    problems = list(given.problems)
    references: list[Reference] = []
    definitions: list[Definition] = []
    skipped: list[str] = []
    read: list[str] = []
    files = 0
    for source in given.sources:
        shown = source.shown
        try:
            text = source.text(stdin)
        except InputError as exc:
            if source.named:
                raise
            problems.extend(exc.problems)
            continue
        files += 1
        read.append(shown)
        holds = False
        done = 0
        for unit in objects_of(text, shown):
            keep()
            if isinstance(unit, Unit) and unit.end > done and _size(source):
                advance(unit.end - done)
                done = unit.end
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
    return Scan(tuple(references), tuple(definitions), files, tuple(skipped), tuple(problems),
                given.notes("refs"), tuple(read))


def _holds_objects(unit: Unit) -> bool:
    """Whether a unit is a Kubernetes object, or a list holding one."""
    data = unit.data
    return is_object(data) or (isinstance(data, list) and any(is_object(item) for item in data))
