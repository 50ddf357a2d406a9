"""Shared test fixtures, the hypothesis profiles and the guard on the checkout.

Reference data (upstream bundles, KubeVirt's OpenAPI document) lives in ../shared
beside the repository and is read at run time, never copied in. Tests that need it
skip when it is absent, except under CI (CI=true), where its absence is a failure.

What to share, and how (tests/README.md has the longer version):

- ``tests.helpers.default_build()`` is the built-in catalog's ``Build`` (files, bundles,
  documents, objects), made once per process. A test that only reads what a default build
  makes starts from it instead of building again.
- ``previous_output`` is the same build written by ``citgen build --out``, once per session:
  read it, never write into it. ``workdir`` gives a test its own copy to change.
- ``tests.helpers.parse_stream`` / ``read_yaml_stream`` read whole bundles with libyaml.
- ``make test`` runs the suite in parallel (pytest-xdist, ``-n auto --dist loadfile``): a
  module's tests run one after the other on one worker, so a module-scoped fixture is made
  once; modules run side by side. Each worker is its own process with its own session, so
  chdir, environment variables and signal handlers (through ``monkeypatch``) stay within
  it. Every test writes only under its own ``tmp_path`` (or a ``tmp_path_factory`` folder
  of its module); nothing writes into the checkout, and the run fails if anything did
  (``pytest_sessionfinish`` below).
"""

from __future__ import annotations

import compileall
import fnmatch
import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, settings

from generator.cli import main

if TYPE_CHECKING:
    from tests.helpers import ForkedCitgen

REPO = Path(__file__).resolve().parent.parent
#: libosinfo's system database is looked for in OSINFO_SYSTEM_DIR instead of /usr/share/osinfo: pointed at
#: nothing, a machine with osinfo-db installed reports as one without (tests.helpers.osinfo_notes says what
#: remains: /etc/osinfo, ~/.config/osinfo). Tests of the osinfo rule name their database with --osinfo-db.
os.environ["OSINFO_SYSTEM_DIR"] = str(REPO / "tests" / "no-osinfo-database")
SHARED = Path(os.environ.get("CITGEN_SHARED", REPO.parent / "shared"))
UPSTREAM = SHARED / "reference" / "upstream"
SWAGGER = SHARED / "kubevirt" / "swagger.json"


def shared_file(path: Path) -> Path:
    """Return ``path`` if the reference data is there; skip (or fail under CI) if not."""
    if path.exists():
        return path
    message = f"reference data {path} is absent"
    if os.environ.get("CI") == "true":
        pytest.fail(message + " (required under CI)")
    pytest.skip(message)


@pytest.fixture
def upstream_dir() -> Path:
    """Folder of the upstream bundles in ../shared/reference/upstream."""
    return shared_file(UPSTREAM)


@pytest.fixture
def swagger_path() -> Path:
    """KubeVirt's OpenAPI document, ../shared/kubevirt/swagger.json."""
    return shared_file(SWAGGER)


@pytest.fixture(scope="session")
def previous_output(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real earlier build of the built-in catalog (``citgen build --out``), made once per session.

    Shared by every test that asks for it, so it is read only: a test that writes into
    an output directory copies it first (``workdir`` does).
    """
    out = tmp_path_factory.mktemp("previous") / "out"
    result = CliRunner().invoke(main, ["build", "--catalog", "builtin", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="session")
def site_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    """``citgen site --out DIR`` of the built-in catalog, once per session: DIR and click's Result (what it printed).

    Read only, like ``previous_output``: the page tests load it, the site tests read its files.
    """
    out = tmp_path_factory.mktemp("site") / "site"
    result = CliRunner().invoke(main, ["site", "--catalog", "builtin", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out, result


@pytest.fixture(scope="session")
def site_dir(site_build: tuple[Path, object]) -> Path:
    """The folder of ``site_build``: index.html, catalog.json, CHECKSUMS.sha256. Read only."""
    return site_build[0]


@pytest.fixture(scope="session")
def forked_citgen() -> Iterator["ForkedCitgen"]:
    """citgen command lines run as processes of their own, each forked from one that imported citgen once.

    For what is about the process (exit status, peak memory, time) where a new interpreter a
    command line would cost more than the command: ``tests.helpers.ForkedCitgen``.
    """
    from tests.helpers import ForkedCitgen

    forker = ForkedCitgen()
    yield forker
    forker.close()


@pytest.fixture
def debian_osinfo_read_once(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Debian's database (../shared) read once per worker by every command a test runs in this process.

    ``generator.osinfo.database.read_database`` given that folder returns what it returned
    the first time it was named so (``tests.helpers.read_debian_osinfo``): the commands still
    find, check and judge with the real database, without reading its 790 files again. Any
    other folder (a test's own database, a broken one) is read as ever. Returns the folder.
    """
    from generator.osinfo import database
    from tests.helpers import read_debian_osinfo

    folder = shared_file(SHARED / "reference" / "osinfo-db")
    real = database.read_database
    shared = os.path.realpath(folder)

    def read_database(path: Path, display: str | None = None):
        if os.path.realpath(path) == shared:
            return read_debian_osinfo(path, display)
        return real(path, display)

    monkeypatch.setattr(database, "read_database", read_database)
    return folder


@pytest.fixture
def workdir(tmp_path: Path, previous_output: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp_path as the current directory, holding ``out/`` from an earlier build.

    Paths are passed relative to it, so messages naming files outside the
    catalog directory (an overlay) read the same on every machine.
    """
    shutil.copytree(previous_output, tmp_path / "out")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --------------------------------------------------------------------------- hypothesis

# Profiles: `ci` (the default, for `make test` and CI: every property, a few dozen
# examples each) and `fuzz` (`make fuzz`: every property, thousands of examples);
# HYPOTHESIS_PROFILE picks one. Properties take their example count from the profile,
# not from a @settings of their own, so that the default run stays cheap and the long
# run is long for all of them. No deadline: a generated catalog goes through a whole
# build, whose time varies by machine and load.
settings.register_profile("ci", max_examples=30, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("fuzz", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# --------------------------------------------------------------------------- the run's shape

def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):
        return
    scratch_in_memory()
    # Well over a hundred tests start a `citgen` process. Where bytecode is not written
    # (PYTHONDONTWRITEBYTECODE, as on many CI machines, in a fresh clone) each of them would
    # compile the whole package from source again; compiling it once here, into the
    # __pycache__ folders git ignores, spares them that. Files already compiled are skipped.
    compileall.compile_dir(REPO / "generator", quiet=2)
    if config.getoption("dist", "no") != "no" and config.getoption("tx", None):
        rewrite_test_modules(config)


#: A file system in memory, where the run's temporary files go when nobody chose a place for them.
MEMORY_SCRATCH = Path("/dev/shm")
#: The room it must have: a run writes about a gigabyte (80,000 files); pytest keeps the last run's
#: (``tmp_path_retention_count`` in pyproject.toml), and removes it when the next run begins.
MEMORY_SCRATCH_ROOM = 4 << 30


def scratch_in_memory() -> None:
    """Temporary files in memory (/dev/shm) where TMPDIR names no place and there is room; /tmp otherwise.

    The tests write some 80,000 files a run (a catalog copied to break, an earlier build to
    leave untouched, a wheel, pre-commit's environment, each test's outputs). Where /tmp is a
    journalled disk file system, making a catalog and an earlier build to break cost 38 ms of
    system time, 7 ms in memory; the three modules that write most took 24 s of CPU, then 18.
    Set here, before the base temporary folder is made and the workers start, TMPDIR holds for
    every worker and every process a test starts (tempfile, pip, pre-commit). A TMPDIR already
    set is left as it is.
    """
    if os.environ.get("TMPDIR") or not MEMORY_SCRATCH.is_dir() or not os.access(MEMORY_SCRATCH, os.W_OK | os.X_OK):
        return
    try:
        room = os.statvfs(MEMORY_SCRATCH)
    except OSError:
        return
    if room.f_bavail * room.f_frsize >= MEMORY_SCRATCH_ROOM:
        os.environ["TMPDIR"] = str(MEMORY_SCRATCH)
        tempfile.tempdir = None  # gettempdir() reads TMPDIR again


def rewrite_test_modules(config: pytest.Config) -> None:
    """Rewrite the asserts of the run's test modules once, on every core, before the workers start.

    Each xdist worker collects every module, and pytest rewrites the asserts of each as it
    imports it: seven seconds of each worker's time for 272 modules. pytest keeps what it
    rewrote in ``__pycache__`` and reads it back even where bytecode is not written, but
    writes it only where it is; so where it is not (PYTHONDONTWRITEBYTECODE, as on many CI
    machines) every worker rewrote every module, on every run, and elsewhere both did on
    the first. Here pytest's own functions write each module's rewritten form, exactly as
    pytest would, once, the modules shared among the cores; the workers read it. Modules
    already cached are skipped. A pytest without these internals skips this: its workers
    rewrite the modules themselves, as they always did.
    """
    try:
        from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, _rewrite_test, _write_pyc, assertstate_key, \
            get_cache_dir
    except ImportError:
        return
    state = config.stash.get(assertstate_key, None)
    if state is None or config.getoption("assertmode", "rewrite") != "rewrite":
        return
    patterns = config.getini("python_files")
    given = [Path(config.invocation_params.dir, arg.split("::")[0]).resolve() for arg in config.args]
    modules = [path for path in sorted((REPO / "tests").rglob("*.py"), key=lambda p: -p.stat().st_size)
               if (path.name == "conftest.py" or any(fnmatch.fnmatch(path.name, p) for p in patterns))
               and any(path.is_relative_to(arg) for arg in given)]

    def rewrite(paths: list[Path]) -> None:
        for path in paths:
            cache = get_cache_dir(path)
            pyc = cache / (path.name[:-3] + PYC_TAIL)
            if _read_pyc(path, pyc) is not None:
                continue
            try:
                source_hash, code = _rewrite_test(path, config)
                cache.mkdir(parents=True, exist_ok=True)
            except (OSError, SyntaxError):  # left to the worker's import, which reports it
                continue
            _write_pyc(state, code, source_hash, pyc)

    cores = min(os.cpu_count() or 1, len(modules))
    children = []
    for share in range(1, cores):  # forked before any worker or thread is started
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child ends in os._exit
            try:
                rewrite(modules[share::cores])
            finally:
                os._exit(0)
        children.append(pid)
    try:
        rewrite(modules[0::cores])
    except Exception:  # noqa: BLE001 - pytest's internals changed their signatures: the workers rewrite as ever
        pass
    for pid in children:
        os.waitpid(pid, 0)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Modules marked ``heavy(seconds)`` first, the longest first; the rest after them, as collected.

    `make test` hands whole modules to the workers in this order (``--no-loadscope-reorder``),
    so the modules that take seconds start early and the workers end at about the same time
    instead of one waiting for the other's wheel or pre-commit run at the end.

    Under a mutant the order is turned around: mutmut stops a mutant's run at its first
    failing test (``-x``), so the quick tests go first and a mutant they kill never starts
    Helm or kubectl; only a mutant that survives them pays for the heavy ones.
    """
    def seconds(item: pytest.Item) -> float:
        mark = item.get_closest_marker("heavy")
        return float(mark.args[0]) if mark else 0.0

    sign = 1 if under_a_mutant() else -1
    items.sort(key=lambda item: sign * seconds(item))  # stable: a module's tests keep their order


# --------------------------------------------------------------------------- the checkout stays as it was

#: What a test run may leave in the checkout: caches and the virtual environment (all ignored by git).
RUN_LITTER = {".git", ".venv", ".hypothesis", ".pytest_cache", "__pycache__", "build", "dist"}
_CHECKOUT = pytest.StashKey[dict]()
_CHANGED = pytest.StashKey[list]()


def checkout_state() -> dict[str, tuple[int, int]]:
    """Every file of the checkout but caches, with its size and modification time.

    Tests run in parallel and some read the checkout (the freshness tests, ``yamllint .``, the
    packaging test), so none may write into it; comparing this before and after a run shows
    one that did, even when it wrote the same bytes back.
    """
    state = {}
    for root, dirs, files in os.walk(REPO):
        dirs[:] = [d for d in dirs if d not in RUN_LITTER and not d.endswith(".egg-info")]
        for name in files:
            path = Path(root, name)
            found = path.lstat()
            state[path.relative_to(REPO).as_posix()] = (found.st_size, found.st_mtime_ns)
    return state


def pytest_sessionstart(session: pytest.Session) -> None:
    # under mutmut the "checkout" is mutmut's own copy, where it writes each mutant's result while
    # other mutants' tests run: watching it would fail them for mutmut's writes, not their own
    under_mutmut = "MUTANT_UNDER_TEST" in os.environ
    if not hasattr(session.config, "workerinput") and not under_mutmut:  # the one process that sees the whole run
        session.config.stash[_CHECKOUT] = checkout_state()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    before = session.config.stash.get(_CHECKOUT, None)
    if before is None:
        return
    after = checkout_state()
    changed = sorted(n for n in before.keys() | after.keys() if before.get(n) != after.get(n))
    session.config.stash[_CHANGED] = changed
    if changed:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    changed = config.stash.get(_CHANGED, [])
    if changed:
        shown = ", ".join(changed[:5]) + (f" and {len(changed) - 5} more" if len(changed) > 5 else "")
        terminalreporter.section("the checkout changed", sep="=", red=True)
        terminalreporter.write_line(f"changed during the run: {shown}; a test must write under its tmp_path only "
                                    "(or did someone edit these files meanwhile?)")


# --------------------------------------------------------------------------- under mutmut (make mutate)

def forget_memos(*, tests: bool = False) -> None:
    """Empty every lru_cache of the package; with ``tests``, the tests' caches too.

    mutmut runs each mutant's tests in a process forked from one that has already
    run them all: an answer cached there (a label value judged valid, a release's
    differences, the default build of tests/helpers.py) would be handed to the
    mutant's tests without the mutated code ever running, and the mutant would
    survive for no fault of the tests.
    """
    import functools
    import sys

    packages = ("generator", "tests") if tests else ("generator",)
    folder = str(REPO / "tests")
    for name, module in list(sys.modules.items()):
        if module is None:
            continue
        # pytest imports the test modules by their own names (test_x, not tests.test_x): known by their folder
        test_module = tests and (getattr(module, "__file__", None) or "").startswith(folder)
        if name.split(".")[0] not in packages and not test_module:
            continue
        for value in list(vars(module).values()):
            holders = [value, *vars(value).values()] if isinstance(value, type) else [value]
            for held in holders:
                if isinstance(held, functools._lru_cache_wrapper):
                    held.cache_clear()


def under_a_mutant() -> bool:
    """Whether this session runs a mutant's tests (not mutmut's first runs, which record and check)."""
    return os.environ.get("MUTANT_UNDER_TEST", "") not in ("", "stats", "fail")


@pytest.fixture(autouse=True, scope="session")
def _fresh_under_a_mutant():
    """Under mutmut, each mutant's run starts with nothing remembered from the runs before it."""
    if under_a_mutant():
        forget_memos(tests=True)
    yield


@pytest.fixture(autouse=True)
def _cold_for_mutmuts_record():
    """mutmut's first run records which tests call each function: each test starts with nothing cached.

    A function whose answer an earlier test left cached is not called again, so it would be
    recorded for the first test that called it alone, and a mutant of it never run against
    the tests that check that answer (a release's reasons, read by a test after the one
    that first made the release's differences; the files of the default build, which
    tests/helpers.py keeps). That first run takes longer for it, once per module.
    """
    if os.environ.get("MUTANT_UNDER_TEST") == "stats":
        forget_memos(tests=True)
    yield
