"""`make mutate`: mutation testing with mutmut, module by module, against each module's own tests.

A mutant is the package with one small change a plausible bug would make (a comparison
turned around, a constant one off, a call's argument dropped); a module's tests kill it
when at least one of them fails. mutmut 3 (https://github.com/boxed/mutmut) makes the
mutants and runs the tests; this script decides what each run covers and keeps score:

- it works in a copy of the repository's tracked files (a temporary directory, or
  ``--workdir``), never in the working tree it is started from;
- each module of the scope below is mutated alone and judged by its own test files only,
  ``tests/test_<path>.py`` and ``tests/test_<path>_*.py`` (``generator/source/inputfiles.py``:
  ``tests/test_source_inputfiles*.py``), so a module's score says what its own tests pin
  down, not what some distant end-to-end test happens to notice;
- the results (every mutant's status, by module) are written as JSON to ``--results``
  (outside the working tree unless asked), and the table is printed;
- ``--record RESULTS`` is the one step that writes into the tree: it merges a run's
  results into ``mutation/results.json`` and writes the table and the equivalent mutants
  (``mutation/equivalent.yaml``, each with its reason) into docs/testing.md.

Usage::

    make mutate                                      # every module of the scope
    make mutate MODULE=generator/source/inputfiles.py
    python mutation/run.py --record /tmp/citgen-mutate/results.json
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import yaml

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "mutation" / "results.json"
EQUIVALENT = REPO / "mutation" / "equivalent.yaml"
DOCS = REPO / "docs" / "testing.md"
TABLE_START, TABLE_END = "<!-- mutation-table: start -->", "<!-- mutation-table: end -->"

#: The modules whose tests must kill at least TARGET of their mutants: the whole package (issues 26, 34) ...
SCOPE = ("generator/",)
#: ... but for the modules a process runs as its entry point, each a line or two that calls the command:
#: they are run by the tests of ``python -m`` (tests/test_first_checks.py), have no function of their own
#: to mutate, and (``__main__``) no name a test file could be named after.
LEFT_OUT = ("generator/__init__.py", "generator/__main__.py", "generator/cli/__main__.py")
TARGET = 0.90

#: mutmut's exit codes, as its own table reads them (mutmut/__main__.py, status_by_exit_code).
KILLED_CODES = {1, 3}
STATUS = {0: "survived", 5: "no tests", 33: "no tests", 34: "skipped", 36: "timeout", 24: "timeout",
          -24: "timeout", 152: "timeout", 255: "timeout", 37: "caught by type check"}


@dataclass
class ModuleResult:
    """One module's run: every mutant by its name, with its status."""

    module: str
    tests: list[str]
    status: dict[str, str] = field(default_factory=dict)  # mutant name -> killed, survived, timeout...
    error: str = ""

    @property
    def mutants(self) -> int:
        return len(self.status)

    def count(self, *statuses: str) -> int:
        return sum(1 for s in self.status.values() if s in statuses)

    def survivors(self) -> list[str]:
        return sorted(name for name, s in self.status.items() if s not in ("killed", "timeout"))


def status_of(code: int | None) -> str:
    """A mutant's status from mutmut's exit code; a timeout counts as killed (the mutant hangs a test)."""
    if code is None:
        return "not checked"
    if code in KILLED_CODES:
        return "killed"
    return STATUS.get(code, "suspicious")


# --------------------------------------------------------------------------- what is mutated, and by which tests


def modules(scope: Iterable[str] = SCOPE, root: Path = REPO, left_out: Iterable[str] = LEFT_OUT) -> list[str]:
    """Every Python module of ``scope`` but those ``left_out``, as paths from the repository root, sorted."""
    found: set[str] = set()
    for entry in scope:
        path = root / entry
        if path.is_file():
            found.add(entry)
        else:
            found.update(p.relative_to(root).as_posix() for p in path.rglob("*.py") if "__pycache__" not in p.parts)
    return sorted(found - set(left_out))


def test_stem(module: str) -> str:
    """``generator/source/inputfiles.py`` -> ``source_inputfiles``; a package's ``__init__.py`` is the package."""
    parts = list(Path(module).with_suffix("").parts[1:])
    if parts and parts[-1] == "__init__":
        parts.pop()
    return "_".join(part.lstrip("_") for part in parts)


def test_files(module: str, root: Path = REPO) -> list[str]:
    """The module's own test files: ``tests/test_<stem>.py`` and ``tests/test_<stem>_*.py``."""
    stem = test_stem(module)
    tests = root / "tests"
    names = [tests / f"test_{stem}.py", *sorted(tests.glob(f"test_{stem}_*.py"))]
    return [p.relative_to(root).as_posix() for p in names if p.is_file()]


# --------------------------------------------------------------------------- the copy, and mutmut in it


def tracked_files(root: Path = REPO) -> list[str]:
    done = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True)
    return [name for name in done.stdout.decode().split("\0") if name]


def make_copy(workdir: Path, root: Path = REPO) -> Path:
    """The tracked files of ``root`` (as they are in the working tree) copied into ``workdir``/citgen."""
    copy = workdir / "citgen"
    if copy.exists():
        shutil.rmtree(copy)
    for name in tracked_files(root):
        source = root / name
        if source.is_file():
            target = copy / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    shared = root.parent / "shared"
    if shared.is_dir():  # the reference data the tests read, beside the copy and beside mutmut's own copy
        for place in (workdir / "shared", copy / "shared"):
            if not place.exists():
                place.symlink_to(shared, target_is_directory=True)
    return copy


def mutmut_config(module: str, tests: Sequence[str], copy: Path) -> str:
    """The ``[tool.mutmut]`` table that mutates ``module`` alone and runs ``tests`` alone."""
    # everything the tests read beside the package; ../shared of mutmut's copy (copy/mutants) is the
    # copy's own link to the reference data
    also = sorted(entry.name for entry in copy.iterdir() if entry.name not in ("generator", "mutants", "shared"))
    table = {
        "source_paths": ["generator/"],
        "only_mutate": [module],
        "pytest_add_cli_args_test_selection": list(tests),
        # one process per mutant is mutmut's; pytest's own workers and cache would only get in the way
        "pytest_add_cli_args": ["-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:randomly"],
        "also_copy": also,
    }
    lines = ["", "[tool.mutmut]"]
    for key, value in table.items():
        lines.append(f"{key} = {json.dumps(value)}")
    return "\n".join(lines) + "\n"


def configure(copy: Path, module: str, tests: Sequence[str]) -> None:
    pyproject = copy / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    text = re.sub(r"\n\[tool\.mutmut\]\n(?:[^\[\n].*\n|\n)*", "\n", text)  # an earlier module's table
    pyproject.write_text(text.rstrip("\n") + "\n" + mutmut_config(module, tests, copy), encoding="utf-8")


def run_module(copy: Path, module: str, children: int, log: Path) -> ModuleResult:
    """Mutate ``module`` in the copy and run its own tests against every mutant."""
    tests = test_files(module)
    result = ModuleResult(module, tests)
    if not tests:
        result.error = "no test file names this module"
        return result
    configure(copy, module, tests)
    shutil.rmtree(copy / "mutants", ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CI")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    with log.open("ab") as out:
        out.write(f"\n===== {module} ({', '.join(tests)})\n".encode())
        out.flush()
        # a session of its own: a mutant that signals its process group (os.kill(0, ...)) stops mutmut's,
        # and this run reports that module and goes on with the next
        done = subprocess.run([sys.executable, "-m", "mutmut", "run", "--max-children", str(children)],
                              cwd=copy, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    return read_meta(result, copy / "mutants" / f"{module}.meta", done.returncode, log)


def read_meta(result: ModuleResult, meta: Path, returncode: int, log: Path) -> ModuleResult:
    """The statuses mutmut wrote for a module; an error when it wrote none or stopped before the mutants."""
    if not meta.is_file():
        result.error = f"mutmut exited with {returncode} and wrote no results (see {log})"
        return result
    codes = json.loads(meta.read_text(encoding="utf-8")).get("exit_code_by_key", {})
    result.status = {name: status_of(code) for name, code in sorted(codes.items())}
    if "not checked" in result.status.values():  # mutmut stops before the mutants when the tests fail unmutated
        result.error = (f"mutmut exited with {returncode} before testing every mutant (the tests must pass "
                        f"unmutated, under mutmut too: see {log})")
    return result


def diff_of(copy: Path, mutant: str) -> str:
    """What a mutant changes, as mutmut shows it."""
    done = subprocess.run([sys.executable, "-m", "mutmut", "show", mutant], cwd=copy, capture_output=True, text=True)
    return done.stdout.strip()


# --------------------------------------------------------------------------- the score and the table


def load_equivalent(path: Path | None = None) -> dict[str, dict[str, str]]:
    """``mutation/equivalent.yaml``: surviving mutants that change nothing a caller can see, with the reason."""
    path = EQUIVALENT if path is None else path
    if not path.is_file():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {str(name): dict(entry) for name, entry in data.items()}


@dataclass(frozen=True)
class Row:
    module: str
    mutants: int
    killed: int
    equivalent: int
    survived: int
    score: float | None  # killed / (mutants - equivalent); None for a module without mutants

    @property
    def meets(self) -> bool:
        return self.score is None or self.score >= TARGET


def row(result: Mapping[str, Any], equivalent: Mapping[str, Any]) -> Row:
    status: dict[str, str] = result["status"]
    killed = sum(1 for s in status.values() if s in ("killed", "timeout"))
    same = sum(1 for name, s in status.items() if s not in ("killed", "timeout") and name in equivalent)
    judged = len(status) - same
    return Row(result["module"], len(status), killed, same, judged - killed, killed / judged if judged else None)


def table(results: Mapping[str, Mapping[str, Any]], equivalent: Mapping[str, Any]) -> str:
    """The Markdown table of every module recorded, then the total."""
    rows = [row(results[name], equivalent) for name in sorted(results)]
    lines = ["| module | mutants | killed | equivalent | survived | score | run |",
             "| --- | ---: | ---: | ---: | ---: | ---: | --- |"]
    for r in rows:
        score = "n/a" if r.score is None else f"{r.score:.1%}" + ("" if r.meets else " (below 90%)")
        run = results[r.module].get("run", {})
        lines.append(f"| `{r.module}` | {r.mutants} | {r.killed} | {r.equivalent} | {r.survived} | {score} | "
                     f"{run.get('date', '')} {run.get('commit', '')} |")
    total = Row("total", sum(r.mutants for r in rows), sum(r.killed for r in rows),
                sum(r.equivalent for r in rows), sum(r.survived for r in rows), None)
    judged = total.mutants - total.equivalent
    score = f"{total.killed / judged:.1%}" if judged else "n/a"
    lines.append(f"| **all {len(rows)} modules** | {total.mutants} | {total.killed} | {total.equivalent} | "
                 f"{total.survived} | {score} | |")
    return "\n".join(lines)


def equivalent_list(equivalent: Mapping[str, Mapping[str, str]]) -> str:
    if not equivalent:
        return "No surviving mutant is taken for equivalent."
    out = ["Surviving mutants taken for equivalent (they change nothing a caller can observe):", ""]
    for name in sorted(equivalent):
        entry = equivalent[name]
        out.append(f"- `{name}`: {entry.get('change', '').strip()} {entry.get('reason', '').strip()}".rstrip())
    return "\n".join(out)


def docs_section(results: Mapping[str, Mapping[str, Any]], equivalent: Mapping[str, Mapping[str, str]]) -> str:
    return "\n".join([TABLE_START, "", table(results, equivalent), "", equivalent_list(equivalent), "",
                      TABLE_END])


def record(run_results: Path) -> None:
    """Merge a run's results into mutation/results.json and write the table into docs/testing.md."""
    recorded = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.is_file() else {}
    fresh = json.loads(run_results.read_text(encoding="utf-8"))
    for entry in fresh["modules"]:
        if entry.get("error"):
            continue
        recorded[entry["module"]] = {"status": entry["status"], "tests": entry["tests"], "module": entry["module"],
                                     "run": fresh["run"]}
    RESULTS.write_text(json.dumps(dict(sorted(recorded.items())), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    text = DOCS.read_text(encoding="utf-8")
    start, end = text.index(TABLE_START), text.index(TABLE_END) + len(TABLE_END)
    DOCS.write_text(text[:start] + docs_section(recorded, load_equivalent()) + text[end:], encoding="utf-8")


# --------------------------------------------------------------------------- the command


def git_commit(root: Path = REPO) -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                           capture_output=True, text=True).stdout.strip()
    return done.stdout.strip() + ("+changes" if dirty else "")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", action="append", default=[], metavar="PATH",
                        help="a module to mutate (generator/source/inputfiles.py); repeatable; default: the scope")
    parser.add_argument("--workdir", type=Path, default=None, help="where the copy is made (default: a temporary dir)")
    parser.add_argument("--results", type=Path, default=Path(tempfile.gettempdir()) / "citgen-mutate" / "results.json",
                        help="where the run's results are written (default: %(default)s)")
    parser.add_argument("--children", type=int, default=os.cpu_count() or 1, help="mutants tested at once")
    parser.add_argument("--record", type=Path, default=None, metavar="RESULTS",
                        help="write a run's results into mutation/results.json and docs/testing.md, and stop")
    parser.add_argument("--show-survivors", action="store_true", help="print what each surviving mutant changes")
    parser.add_argument("--resume", action="store_true",
                        help="go on with the run whose results are in --results: skip the modules it has done "
                             "(refused unless the tree is at the commit that run started from)")
    args = parser.parse_args(argv)
    if args.record is not None:
        record(args.record)
        return 0
    wanted = [Path(m).as_posix() for m in args.module] or modules()
    unknown = [m for m in wanted if m not in modules()]
    if unknown:
        parser.error(f"not a module of the scope: {', '.join(unknown)}")
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="citgen-mutate-"))
    workdir.mkdir(parents=True, exist_ok=True)
    copy = make_copy(workdir)
    log = workdir / "mutmut.log"
    run = {"date": dt.date.today().isoformat(), "commit": git_commit(), "tool": mutmut_version()}
    results: list[ModuleResult] = []
    if args.resume:
        try:
            run, results = resumed(args.results, run)
        except ValueError as problem:
            parser.error(str(problem))
        done = {r.module for r in results}
        wanted = [m for m in wanted if m not in done]
    equivalent = load_equivalent()
    args.results.parent.mkdir(parents=True, exist_ok=True)
    for module in wanted:
        result = run_module(copy, module, args.children, log)
        results.append(result)
        save(args.results, run, results)  # after each module: a long run stopped midway keeps what it did
        shown = row(asdict(result), equivalent) if not result.error else None
        print(f"{module}: " + (result.error if shown is None else
                               f"{shown.mutants} mutants, {shown.killed} killed, {shown.equivalent} equivalent, "
                               f"{shown.survived} survived" + ("" if shown.score is None else f", {shown.score:.1%}")),
              flush=True)
        if args.show_survivors and not result.error:  # a run that stopped early checked nothing
            for name in result.survivors():
                if name not in equivalent:
                    print(f"  survived: {name}\n" + "\n".join("    " + line for line in diff_of(copy, name).splitlines()))
    recorded = {r.module: {**asdict(r), "run": run} for r in results if not r.error}
    print()
    print(table(recorded, equivalent))
    print(f"\nresults: {args.results} (record them with: python mutation/run.py --record {args.results})")
    print(f"copy and mutmut's log: {workdir}")
    failing = [r for r in results if r.error or not row(asdict(r), equivalent).meets]
    return 1 if failing else 0


def resumed(path: Path, run: Mapping[str, str]) -> tuple[dict[str, str], list[ModuleResult]]:
    """The run saved in ``path`` and the modules it judged without error, if the tree is where it started.

    A whole-package run takes longer than a sitting; resuming it keeps one commit for every
    module, so its table is the score of one tree. A module that ended in an error is run again.
    """
    if not path.is_file():
        return dict(run), []
    saved = json.loads(path.read_text(encoding="utf-8"))
    if saved["run"].get("commit") != run["commit"] or run["commit"].endswith("+changes"):
        raise ValueError(f"{path} holds a run of {saved['run'].get('commit')}, the tree is at {run['commit']}: "
                         "a run is resumed only at the clean commit it started from")
    kept = [ModuleResult(**entry) for entry in saved["modules"] if not entry.get("error")]
    return dict(saved["run"]), kept


def save(path: Path, run: Mapping[str, str], results: Sequence[ModuleResult]) -> None:
    path.write_text(json.dumps({"run": run, "modules": [asdict(r) for r in results]}, indent=1) + "\n",
                    encoding="utf-8")


def mutmut_version() -> str:
    from importlib.metadata import version

    return f"mutmut {version('mutmut')}"


if __name__ == "__main__":
    sys.exit(main())
