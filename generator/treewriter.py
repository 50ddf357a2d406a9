"""A tree of files written on a thread of its own, while the build goes on making the rest of them.

A build's outputs are a hundred small files in sixty folders (the kustomize tree,
the chart). Making them is mostly the operating system's work, a folder, a file and
its bytes at a time, and Python lets other threads run during each of those calls:
so the files are handed over as each step makes them (the bundles, then the
kustomize tree, then the chart) and written by this thread while the main one lays
out the next step's files and validates them all, on the second core.

Files are written in the order they were handed, each folder made once, before the
first file in it, under a root folder that holds nothing else (write.py's staging
folder). The first failure stops the writing; ``finish`` raises it, in the caller's
thread, as the caller would have met it writing the files itself.
"""

from __future__ import annotations

import os
import queue
import threading
from pathlib import Path, PurePosixPath
from typing import Mapping


class TreeWriter:
    """Writes the files handed to it under ``root``, in order, on a thread started with it.

    Mutable on purpose: it is the writing under way (what was handed, what failed).
    ``finish`` or ``abandon`` must be called once, and ends the thread.
    """

    def __init__(self, root: Path):
        self.root = root
        self._handed: queue.SimpleQueue[list[tuple[PurePosixPath, bytes]] | None] = queue.SimpleQueue()
        self._made: set[PurePosixPath] = {PurePosixPath(".")}
        self._failure: BaseException | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._write, name="citgen-tree-writer", daemon=True)
        self._thread.start()

    def add(self, files: Mapping[PurePosixPath, bytes]) -> None:
        """Hand ``files`` (relative paths the caller checked) to the thread: written after those handed before."""
        self._handed.put(list(files.items()))

    def finish(self) -> None:
        """Wait until every file handed is written; the first failure of the writing is raised here."""
        self._handed.put(None)
        self._thread.join()
        if self._failure is not None:
            raise self._failure

    def abandon(self) -> None:
        """Write nothing more (the file being written is finished) and wait for the thread; failures are dropped."""
        self._stop.set()
        self._handed.put(None)
        self._thread.join()

    def _write(self) -> None:
        while (files := self._handed.get()) is not None:
            if self._failure is not None or self._stop.is_set():
                continue  # what comes after a failure, or after abandon(), is not written
            try:
                for path, data in files:
                    if self._stop.is_set():
                        break
                    self._folder(path.parent)
                    with open(self.root.joinpath(*path.parts), "wb") as handle:
                        handle.write(data)
            except BaseException as exc:  # noqa: BLE001 - raised by finish(), in the thread that waits for it
                self._failure = exc

    def _folder(self, folder: PurePosixPath) -> None:
        """Make ``folder`` (relative to the root) and those above it, each the first time a file needs it."""
        if folder in self._made:
            return
        self._folder(folder.parent)
        os.mkdir(self.root.joinpath(*folder.parts))
        self._made.add(folder)
