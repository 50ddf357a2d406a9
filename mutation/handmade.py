"""Hand-made bugs of kinds mutmut does not make, each run against its module's own tests.

mutmut changes one token at a time: it turns ``<`` into ``<=`` and ``"a"`` into
``"XXaXX"``, but it never puts one variable in the place of another of the same
type, drops a part of a lookup key, or takes the first of two where the last was
meant. Those are the bugs of code that serves several inputs at once, so this
script makes a sample of them by hand (``BUGS``), applies each to a copy of the
package, runs the module's own test files (as mutation/run.py finds them) and
says which the tests caught. Usage::

    .venv/bin/python mutation/handmade.py            # every bug of the sample
    .venv/bin/python mutation/handmade.py --list     # the bugs, without running anything
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import make_copy, test_files  # noqa: E402

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Bug:
    """One hand-made bug: where, the text it replaces and with what, and what kind of slip it is."""

    module: str
    old: str
    new: str
    kind: str


BUGS = (
    Bug("generator/outputs/releases.py", 'return f"{obj.family}/{obj.name}"', "return obj.name",
        "a lookup key that lost a part (an instancetype and a preference of one name)"),
    Bug("generator/validate/rules/unique_names.py", "first.setdefault((kind, name), doc)",
        "first.setdefault((name,), doc)", "a lookup key that lost a part (the kind)"),
    Bug("generator/tools/refs/target.py", "self.local.get((kind, name, namespace))",
        "self.local.get((kind, name, None))", "a lookup key that lost a part (the namespace)"),
    Bug("generator/merge.py", "out = dict(target) if isinstance(target, dict) else {}",
        "out = dict(patch) if isinstance(patch, dict) else {}", "a wrong variable of the same type"),
    Bug("generator/merge.py", "deep_merge(base[key], value)", "deep_merge(value, base[key])",
        "two arguments of the same type swapped"),
    Bug("generator/expand/retain.py", "if k in first.only_kinds + obj.only_kinds)",
        "if k in obj.only_kinds)", "the last of two where both were meant"),
    Bug("generator/tools/refs/target.py", "found.setdefault((doc.kind, doc.name), doc.data)",
        "found[(doc.kind, doc.name)] = doc.data", "the last of two where the first was meant"),
    Bug("generator/query/selector.py", "return all(r.matches(labels) for r in requirements)",
        "return any(r.matches(labels) for r in requirements)", "any of several where all were meant"),
    Bug("generator/load/overlays.py",
        "catalog, preferences = apply_overlay(catalog, preferences, load_overlay(Path(path)))",
        "catalog, preferences = apply_overlay(catalog, preferences, load_overlay(Path(paths[0])))",
        "the first of several where each was meant"),
    Bug("generator/validate/__init__.py", "return (loc.file, loc.doc, loc.path)", "return (loc.file, loc.path)",
        "a lookup key that lost a part (the document)"),
)


def run(bug: Bug, copy: Path) -> str:
    """'caught', 'escaped', or why the bug could not be tried, in the package's ``copy``."""
    target = copy / bug.module
    original = target.read_text()
    if original.count(bug.old) != 1:
        return f"not applied: the text is there {original.count(bug.old)} times"
    target.write_text(original.replace(bug.old, bug.new))
    try:
        tests = test_files(bug.module, copy)
        done = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests],
                              cwd=copy, capture_output=True, text=True)
        return "caught" if done.returncode == 1 else ("escaped" if done.returncode == 0 else
                                                      f"pytest ended with {done.returncode}")
    finally:
        target.write_text(original)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="print the bugs and stop")
    args = parser.parse_args(argv)
    if args.list:
        for bug in BUGS:
            print(f"{bug.module}: {bug.kind}\n    - {bug.old}\n    + {bug.new}")
        return 0
    with tempfile.TemporaryDirectory(prefix="citgen-handmade-") as tmp:
        copy = make_copy(Path(tmp))
        verdicts = [(bug, run(bug, copy)) for bug in BUGS]
    for bug, verdict in verdicts:
        print(f"{verdict:8} {bug.module}: {bug.kind}")
    caught = sum(verdict == "caught" for _, verdict in verdicts)
    print(f"{caught} of {len(verdicts)} caught by their module's own tests")
    return 0 if caught == len(verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
