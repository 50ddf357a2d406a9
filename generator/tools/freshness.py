"""Are the committed outputs what a build makes now? ``citgen build --check`` without writing a byte.

A catalog repository commits its bundles/ so that GitOps tools and reviewers see
what ships. A pull request that changes a series but forgets to rebuild leaves
them stale, and a pre-commit hook or CI step has to notice without touching the
working tree (a check that rewrites the files and runs ``git diff`` needs a
writable checkout and leaves one behind). This compares a build's files, held in
memory, with an output directory, file by file and byte by byte.

A stale bundle is explained by what changed in it (objects added, removed and
changed, as ``citgen diff`` counts them), so the reviewer knows whether the
rebuild they are asked for is a one-line label or a new series.
"""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Mapping

from ..errors import InputError
from ..frozen import frozen
from ..problems import Location
from ..write import MANIFEST
from ..source.documents import BundleDoc
from ..source.inputfiles import folder_files, lookup, read_bytes
from ..source.yamlsrc import load_stream_fast
from .diff import Key, diff_objects

#: Bundles get a summary of their changed objects; every other file is only named.
BUNDLE_PREFIX = "common-"


@frozen
class StaleFile:
    """A file whose committed bytes differ from the build's, with what changed in it when it is a bundle."""

    name: str
    summary: str = ""

    def __str__(self) -> str:
        return f"{self.name} ({self.summary})" if self.summary else self.name


@frozen
class Freshness:
    """How an output directory compares with a build: files to update, to add and to remove."""

    out: str
    files: int
    stale: tuple[StaleFile, ...] = ()
    missing: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()

    @property
    def fresh(self) -> bool:
        return not (self.stale or self.missing or self.extra)

    def lines(self) -> list[str]:
        """The report: one line per file that is not as the build makes it, then what to run."""
        if self.fresh:
            return [f"{self.out} is up to date ({self.files} files)"]
        counts = f"{len(self.stale)} stale, {len(self.missing)} missing, {len(self.extra)} extra"
        lines = [f"{self.out} is out of date: {counts}"]
        lines += [f"  stale:   {stale}" for stale in self.stale]
        lines += [f"  missing: {name}" for name in self.missing]
        lines += [f"  extra:   {name}" for name in self.extra]
        lines.append("run `citgen build` with the same options to update it")
        return lines


def _present(out: Path) -> set[str]:
    """Everything under ``out`` but folders and the manifest, links included, as the POSIX paths a build uses.

    A link or any other entry a build does not write is extra, as a stray file is;
    the manifest (write.py) lists what was written and is checked by the next build.
    """
    found = set(folder_files(out, str(out), follow=False, catalog=False))  # a folder it cannot read is refused
    found.discard(MANIFEST)
    return found


def _objects(text: bytes, name: str) -> dict[Key, BundleDoc] | None:
    """A bundle's objects by (kind, name), or None when the text is not one citgen can compare."""
    try:
        docs = load_stream_fast(text.decode())  # a refusal only means "cannot compare": its wording is not shown
    except (InputError, UnicodeDecodeError):
        return None
    found: dict[Key, BundleDoc] = {}
    for index, data in enumerate(docs):
        doc = BundleDoc(name, index, data)
        if doc.kind is None or doc.name is None:
            return None
        found[(doc.kind, doc.name)] = doc
    return found


def bundle_summary(name: str, committed: bytes, built: bytes) -> str:
    """What changed in a bundle, counted as ``citgen diff`` counts it; empty for any other file."""
    if not (name.startswith(BUNDLE_PREFIX) and name.endswith(".yaml") and "/" not in name):
        return ""
    old, new = _objects(committed, name), _objects(built, name)
    if old is None or new is None:
        return "not a bundle citgen can compare"
    diff = diff_objects(old, new, ignored_labels=())
    if diff.equal:
        return "same objects, different text"
    return f"{len(diff.added)} added, {len(diff.removed)} removed, {len(diff.changed)} changed"


def compare(out: Path, files: Mapping[str, bytes]) -> Freshness:
    """Compare the files a build made with those under ``out``; nothing is written or locked.

    ``out`` that is not a directory is an input error (exit 2): a check of the
    wrong path must not pass as "everything missing" without saying so.
    """
    found = lookup(out)  # a link to nothing, a folder above that cannot be entered: refused as such
    if found is None or not stat.S_ISDIR(found.st_mode):
        what = "does not exist" if found is None else "is not a directory"
        raise InputError.at(Location(str(out)), f"the output directory {what}; run `citgen build` to create it, "
                            "or name the directory the outputs are in with --out")
    present = _present(out)
    stale, missing = [], []
    for name in sorted(files):
        if name not in present:
            missing.append(name)
            continue
        if (out / name).is_symlink() or not (out / name).is_file():  # a link in its place is no output of a build
            stale.append(StaleFile(name))
            continue
        committed = read_bytes(out / name)
        if committed != files[name]:
            stale.append(StaleFile(name, bundle_summary(name, committed, files[name])))
    extra = sorted(present - set(files))
    return Freshness(str(out), len(files), tuple(stale), tuple(missing), tuple(extra))
