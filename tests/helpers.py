"""Small helpers shared by tests: building a catalog once, reading bundles."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

import pytest
import click
import yaml

from generator.osinfo.database import read_database as _read_database  # the real one, before any test patches it
from generator.paths import builtin_catalog
from generator.pipeline import Build, BuildOptions, generate

REPO = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=None)
def default_build() -> Build:
    """The built-in catalog, built once per test session (it is a pure value).

    Named, not left to be found from the working directory (paths.py), which a test may
    have changed into a catalog of its own when this is first called.
    """
    return generate(BuildOptions(catalog=builtin_catalog()))


def osinfo_notes() -> tuple[str, ...]:
    """What ``citgen build`` and ``citgen validate`` of the built-in catalog say of libosinfo's database here:
    that none was found (conftest.py points OSINFO_SYSTEM_DIR at nothing), unless /etc/osinfo or ~/.config/osinfo
    holds one."""
    from generator.osinfo.claims import OsinfoContext
    from generator.osinfo.database import load_database
    from generator.osinfo.discovery import NONE_FOUND

    database = load_database(None)
    return (NONE_FOUND,) if database is None else (OsinfoContext.of(database, default_build().objects).note(),)


@lru_cache(maxsize=None)
def _debian_osinfo_read(path: str, display: str | None) -> tuple[Any, tuple[Any, ...]]:
    database, problems = _read_database(Path(path), display)
    return database, tuple(problems)


def read_debian_osinfo(path: Path, display: str | None = None) -> tuple[Any, list[Any]]:
    """``read_database`` of Debian's database in ../shared, read once per process for each way it is named.

    Its 790 OS files take a quarter of a second to read, and a dozen tests that are not about
    reading them (the ``osinfo`` command's reports, OS labels, the osinfo rule, the site's
    resources) ran commands over the same folder. The database is a frozen value and the folder
    reference data no test writes; the reading itself is tested by tests/test_osinfo_database.py,
    which reads it afresh. Under mutmut, ``conftest.forget_memos`` empties this between mutants.
    """
    database, problems = _debian_osinfo_read(str(path), display)
    return database, list(problems)


def builtin_name() -> str:
    """How a summary names the built-in catalog: ``built-in catalog v1.8.0-dev``."""
    return default_build().source


#: libyaml's safe loader where PyYAML has it. The tests read whole bundles (hundreds of objects)
#: again and again, from builds, kubectl and Helm; PyYAML's pure-Python parser takes ten times as
#: long for the same values. Tests about how text is escaped read with both parsers themselves.
LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_stream(text: str | bytes) -> list[Any]:
    """Every document of a YAML stream but empty ones, as ``yaml.safe_load_all`` reads them."""
    return [d for d in yaml.load_all(text, Loader=LOADER) if d is not None]


def read_yaml_stream(path: Path) -> list[Any]:
    return parse_stream(path.read_text(encoding="utf-8"))


def by_name(docs: list[Any], kind: str | None = None) -> dict[str, Any]:
    return {d["metadata"]["name"]: d for d in docs if kind is None or d["kind"] == kind}


CATALOG_PARTS = ("catalog.yaml", "series", "preferences", "templates")


def copy_catalog(root: Path) -> Path:
    """A writable copy of the built-in catalog at ``root`` (which must not exist yet)."""
    source = builtin_catalog()
    root.mkdir()
    for part in CATALOG_PARTS:
        if (source / part).is_dir():
            shutil.copytree(source / part, root / part)
        else:
            shutil.copy(source / part, root / part)
    return root


def kubectl() -> str:
    """The real kubectl, for kustomize; skipped when absent, except under CI where it must be there."""
    found = shutil.which("kubectl")
    if found:
        return found
    if os.environ.get("CI") == "true":
        pytest.fail("kubectl is required under CI to build the kustomize tree")
    pytest.skip("kubectl is not installed")


def documented_section(doc: str, heading: str) -> str:
    """The section ``heading`` opens in docs/``doc``, up to the next heading (a ``#`` line outside a code block)."""
    text = (REPO / "docs" / doc).read_text(encoding="utf-8")
    lines = text[text.index(heading):].splitlines(keepends=True)
    fenced = False
    for number, line in enumerate(lines[1:], 1):
        fenced ^= line.startswith("```")
        if not fenced and re.match(r"#{1,3} ", line):
            return "".join(lines[:number])
    return "".join(lines)


def documented_yaml(doc: str, heading: str, index: int = 0) -> str:
    """The ``index``-th YAML block of the section ``heading`` opens in docs/``doc``, to test what is documented."""
    return re.findall(r"```yaml\n(.*?)```", documented_section(doc, heading), re.S)[index]


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` and its bytes: what "earlier outputs untouched" compares."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


#: The overlay of a next release, for tests of what changed between two builds: it drops the
#: realtime series, moves CX to 1Gi hugepages (dropping its 1gi variants) and adds a preference.
NEXT_RELEASE = """\
    series:
      drop: [rt]
      change:
        cx:
          features: {hugepages: 1Gi}
          variants: {}
    preferences:
      add:
        alpine.edge:
          basedOn: alpine
          displayName: Alpine Edge
          description: Alpine's rolling edge branch.
    """


def build_into(out: Path, overlay: str | None = None, **options: Any) -> Path:
    """Build the built-in catalog (with ``overlay``'s text as an overlay) into ``out``; it must validate."""
    from generator.write import write_outputs

    overlays: tuple[Path, ...] = ()
    if overlay is not None:
        path = out.parent / f"{out.name}-overlay.yaml"
        path.write_text(textwrap.dedent(overlay))
        overlays = (path,)
    result = generate(BuildOptions(overlays=overlays, **options))
    assert result.problems == ()
    write_outputs(out, result.files)
    return out


#: The capabilities that let root read, enter and write whatever the permission bits say.
_OVERRIDES = "-dac_override,-dac_read_search"


def child_env(**extra: str) -> dict[str, str]:
    """The environment of a process a test starts: this one's, the checkout importable, and ``extra``.

    Under mutmut (docs/testing.md) the package is mutmut's copy, whose functions, in
    mutmut's first run (``MUTANT_UNDER_TEST=stats``), record which tests call them and
    read mutmut's settings from the working directory: a child started in another folder
    found none and failed. What a child would record is lost with it, so in that run the
    child runs the code unmutated, as mutmut's clean run does; under a mutant it runs the mutant.
    """
    env = {**os.environ, "PYTHONPATH": str(REPO), **extra}
    if env.get("MUTANT_UNDER_TEST") == "stats":
        del env["MUTANT_UNDER_TEST"]
    return env


def bits_apply(command: list[str]) -> list[str]:
    """``command`` run so that permission bits apply to it, wherever the checkout lives.

    Tests of folders and files citgen may not read need a process the bits bind. An
    ordinary user is one already. Root is bound once it gives up the two capabilities
    that override them (``setpriv --bounding-set``): it stays root, so it still reaches
    the checkout and the interpreter in a private folder (a home directory of mode 0700,
    a ``mktemp -d`` clone), where another user such as ``nobody`` cannot even start
    Python. Skipped, with the reason, where root cannot give them up.
    """
    if os.geteuid() != 0:
        return command
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: permission bits do not bind root")
    bound = [setpriv, f"--bounding-set={_OVERRIDES}", *command]
    probe = subprocess.run([setpriv, f"--bounding-set={_OVERRIDES}", "true"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"root cannot give up its permission overrides here: {probe.stderr.strip()}")
    return bound


def citgen_bound(*args: str, cwd: Path) -> "subprocess.CompletedProcess[str]":
    """``citgen ARGS`` in a real process that permission bits bind (``bits_apply``)."""
    command = bits_apply([sys.executable, "-m", "generator", *args])
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=child_env(), timeout=120)


def citgen_forked(runs: Mapping[str, Mapping[str, Any]], folder: Path) -> dict[str, dict[str, Any]]:
    """Each of ``runs`` (tests/faultrun.py says their form) run by one process that permission bits bind.

    It imports citgen once and forks a child a run, milliseconds where a process of its
    own costs a third of a second. The results, by the runs' names: ``code``,
    ``stdout``, ``stderr`` and ``traceback``. ``folder`` holds the two files it passes.
    """
    cases, results = folder / "cases.json", folder / "results.json"
    cases.write_text(json.dumps(runs), encoding="utf-8")
    command = bits_apply([sys.executable, str(REPO / "tests" / "faultrun.py"), str(cases), str(results)])
    done = subprocess.run(command, env=child_env(), capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(results.read_text(encoding="utf-8"))


class ForkedCitgen:
    """A process that imported citgen once (tests/faultrun.py --serve), forking a child for each command line.

    For tests that run citgen as a process of its own, to see its exit status and output
    and to measure its memory and time, a command line or a few at a time: each child is
    the real program from the point where Python has opened its standard streams, and ends
    as a process does (its exit handlers run), for milliseconds where a new interpreter
    importing citgen costs a fifth of a second. ``tests/conftest.py`` gives one to a worker
    (``forked_citgen``).
    """

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, str(REPO / "tests" / "faultrun.py"), "--serve"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=child_env(), text=True,
                                        encoding="utf-8")

    def run(self, *args: str | Path, cwd: Path, env: Mapping[str, str] | None = None, **process: Any) -> dict[str, Any]:
        """``citgen ARGS`` run in ``cwd`` with ``env`` added: ``code``, ``stdout``, ``stderr``, ``traceback``,
        ``peak`` (bytes) and ``seconds``. A child still running after faultrun.DEADLINE is killed (``code`` -14).
        ``process``: how tests/faultrun.py arranges the child (``stdout="full"``, ``deleted_cwd=True``...)."""
        assert self.process.stdin is not None and self.process.stdout is not None
        run = {"args": [str(a) for a in args], "cwd": str(cwd), "env": dict(env or {}), **process}
        self.process.stdin.write(json.dumps(run) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        assert answer, f"tests/faultrun.py --serve ended (status {self.process.poll()})"
        return json.loads(answer)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)
        if self.process.stdout is not None:
            self.process.stdout.close()


def helm_engine() -> Any:
    """Helm's own engine (helm-python-sdk); skipped when absent, except under CI where it must be there."""
    try:
        import helm_python
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("helm-python-sdk is required under CI")
        pytest.skip("helm-python-sdk is not installed")
    return helm_python


def finding(where_and_message: str, severity: str = "error", rule: str = "input") -> str:
    """'PLACE: MESSAGE' as citgen reports a finding or refusal (report.py): 'PLACE: SEVERITY: MESSAGE [RULE]'.

    The place is everything before the first ': ' (``FILE:LINE:COL``, an option, ``citgen``).
    """
    where, message = where_and_message.split(": ", 1)
    return f"{where}: {severity}: {message} [{rule}]"


def leaf_commands() -> dict[str, click.Command]:
    """Every command citgen runs, by its words (``schema import``), from click's tree (lazily loaded ones too):
    what a test that holds every command to one property walks, so that a command added later is held too."""
    from generator.cli import main  # the command line, imported only by the tests that walk it

    found: dict[str, click.Command] = {}

    def walk(command: click.Command, words: tuple[str, ...]) -> None:
        if isinstance(command, click.Group):
            ctx = click.Context(command)
            for name in command.list_commands(ctx):
                found_command = command.get_command(ctx, name)
                assert found_command is not None, name
                walk(found_command, (*words, name))
        else:
            found[" ".join(words)] = command

    walk(main, ())
    return found
