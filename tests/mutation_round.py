"""A mutation round: plausible one-line mistakes, each of which a test of its own module must catch.

Every entry of ``MUTATIONS`` is a single-line change to one module of ``generator/``
(a flipped comparison, an off-by-one, a dropped branch, swapped arguments) and the
test file named after that module. ``python tests/mutation_round.py`` copies the
repository into a temporary directory, applies one mutation at a time to the copy,
runs only that test file against it and reports each mutation as caught (the file
failed) or survived. The checkout itself is never changed, so a mutation cannot be
committed by accident, and a round can run beside other work.

Run a part of the round with ``-k TEXT`` (mutations whose module or test file
contains TEXT). docs/testing.md has the table of the last round and how to add to it;
tests/test_mutation_round.py keeps every entry applicable to the code as it is.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Mutation:
    """One wrong line: ``before`` (found exactly once in ``module``) written as ``after``."""

    module: str  # path from the repository root
    before: str
    after: str
    tests: str  # the test file of the module, which must fail
    what: str  # the mistake in a few words, for the table in docs/testing.md


def _m(module: str, tests: str, what: str, before: str, after: str) -> Mutation:
    return Mutation(f"generator/{module}", before, after, f"tests/{tests}", what)


MUTATIONS: tuple[Mutation, ...] = (
)


def apply(source: str, mutation: Mutation) -> str:
    """``source`` with the mutation applied; ValueError unless ``before`` occurs exactly once."""
    found = source.count(mutation.before)
    if found != 1:
        raise ValueError(f"{mutation.module}: {mutation.before!r} occurs {found} times, expected once")
    return source.replace(mutation.before, mutation.after)


def _copy(target: Path) -> None:
    ignore = shutil.ignore_patterns(".venv", ".git", "__pycache__", ".pytest_cache", ".hypothesis", "*.pyc")
    shutil.copytree(REPO, target, ignore=ignore, symlinks=True)


def run(mutations: tuple[Mutation, ...]) -> list[tuple[Mutation, bool]]:
    """Each mutation with whether its test file caught it (failed on the mutated copy)."""
    results = []
    with tempfile.TemporaryDirectory(prefix="citgen-mutants-") as tmp:
        copy = Path(tmp) / "repo"
        _copy(copy)
        env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
        for mutation in mutations:
            target = copy / mutation.module
            original = target.read_text(encoding="utf-8")
            target.write_text(apply(original, mutation), encoding="utf-8")
            try:
                done = subprocess.run(
                    [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", mutation.tests],
                    cwd=copy, env=env, capture_output=True, text=True, timeout=600)
            finally:
                target.write_text(original, encoding="utf-8")
            caught = done.returncode != 0
            results.append((mutation, caught))
            print(f"{'caught  ' if caught else 'SURVIVED'} {mutation.module}: {mutation.what}", flush=True)
    return results


def table(results: list[tuple[Mutation, bool]]) -> str:
    """The round as the Markdown table of docs/testing.md."""
    lines = ["| module | mutation | caught by |", "| --- | --- | --- |"]
    for mutation, caught in results:
        by = f"`{mutation.tests}`" if caught else "**survived**"
        lines.append(f"| `{mutation.module.removeprefix('generator/')}` | {mutation.what} | {by} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-k", dest="only", default="", help="only mutations whose module or test file contains this")
    parser.add_argument("--table", action="store_true", help="print the Markdown table at the end")
    options = parser.parse_args()
    chosen = tuple(m for m in MUTATIONS if options.only in m.module or options.only in m.tests)
    results = run(chosen)
    if options.table:
        print(table(results), end="")
    survivors = sum(1 for _, caught in results if not caught)
    print(f"{len(results) - survivors} of {len(results)} mutations caught")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
