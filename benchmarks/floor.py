"""The floor of a build: the least any program writing citgen's outputs could spend.

A citgen build is a Python process that imports yaml, jinja2 and click and ends
by writing its output tree into a staging folder beside the output folder and
swapping it in. However clever the build, those costs stay. This script pays
exactly them and nothing else, with no citgen code: it is given the finished
tree (every file's path and bytes, read from a citgen build by ``--read``),
loads it, imports the three libraries, writes the same files into a new folder
beside the output and puts that folder in place of the old one, as
generator/write.py does (make the folders, write the files, two renames, remove
the old tree). benchmarks/bench.py times it beside each build, so a build's
figure reads as so many times the floor.

    python benchmarks/floor.py --read OUT TREE   # once: OUT's files into TREE (a pickle)
    python benchmarks/floor.py TREE OUT          # the floor: write TREE's files as OUT

Only the standard library is used besides the three imports being measured.
"""

from __future__ import annotations

import os
import pickle
import shutil
import sys
import tempfile
from pathlib import Path


def read_tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (hidden ones too), as relative POSIX path -> bytes."""
    tree = {}
    for folder, _dirs, names in os.walk(root):
        for name in names:
            path = Path(folder, name)
            tree[path.relative_to(root).as_posix()] = path.read_bytes()
    return tree


def write_tree(staging: Path, tree: dict[str, bytes]) -> None:
    """The files under ``staging``, each folder made once, before the files in it."""
    targets = {name: staging.joinpath(*name.split("/")) for name in sorted(tree)}
    for folder in sorted({target.parent for target in targets.values()} - {staging}):
        folder.mkdir(parents=True, exist_ok=True)
    for name, target in targets.items():
        target.write_bytes(tree[name])
    os.chmod(staging, 0o755)  # mkdtemp makes it 0700; an output folder is readable by all


def swap(staging: Path, out: Path) -> None:
    """Put ``staging`` in place of ``out``: the old tree is moved aside, then removed."""
    backup = out.parent / f".{out.name}.floor-old-{os.getpid()}"
    if out.exists():
        os.rename(out, backup)
    os.rename(staging, out)
    shutil.rmtree(backup, ignore_errors=True)


def floor(tree_file: Path, out: Path) -> int:
    """What a build cannot avoid: the imports, its tree in memory, written beside ``out`` and swapped in."""
    import click  # noqa: F401  (imported for their cost: citgen cannot start without them)
    import jinja2  # noqa: F401
    import yaml  # noqa: F401

    with open(tree_file, "rb") as f:
        tree = pickle.load(f)
    out = Path(os.path.abspath(out))
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.floor-new-", dir=out.parent))
    write_tree(staging, tree)
    swap(staging, out)
    return len(tree)


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[0] == "--read":
        with open(argv[2], "wb") as f:
            pickle.dump(read_tree(Path(argv[1])), f, protocol=pickle.HIGHEST_PROTOCOL)
        return 0
    if len(argv) == 2:
        floor(Path(argv[0]), Path(argv[1]))
        return 0
    print("usage:\n" + __doc__.strip().split("\n\n")[-2], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
