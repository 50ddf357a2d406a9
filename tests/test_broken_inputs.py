"""Broken catalogs, one mistake (or a few) per folder, through the command line.

Each folder of tests/cases/broken/ holds the files that differ from the built-in
catalog and an ``expected.txt`` with exactly what ``citgen build`` must print on
stderr, each refusal written ``error: PLACE: MESSAGE`` (``expected``) and printed
in the report convention as ``PLACE: error: MESSAGE [input]``. For every case the build must exit with 2, print those lines and no
traceback, and leave an earlier build's output directory byte-for-byte as it was
(with no temporary directory left beside it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from tests.helpers import copy_catalog, finding, snapshot

pytestmark = pytest.mark.heavy(8)  # seconds of a worker's time: run early (conftest.py)

CASES = Path(__file__).parent / "cases" / "broken"


def case_names() -> list[str]:
    return sorted(p.name for p in CASES.iterdir() if (p / "expected.txt").is_file())


def expected(case: Path) -> list[str]:
    """The lines of the case's expected.txt as citgen prints them: each ``error: PLACE: MESSAGE`` a finding line."""
    lines = (case / "expected.txt").read_text(encoding="utf-8").splitlines()
    return [finding(line.removeprefix("error: ")) if line.startswith("error: ") else line for line in lines]


def lay_out(case: Path, root: Path) -> None:
    """The built-in catalog at ``root``, with the case's files laid over it."""
    copy_catalog(root)
    for path in sorted(case.rglob("*")):
        relative = path.relative_to(case)
        if path.is_file() and relative.as_posix() != "expected.txt":
            (root / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, root / relative)


def run_build(workdir: Path) -> tuple[int, list[str], str]:
    result = CliRunner().invoke(main, ["build", "--catalog", "catalog", "--out", "out"])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"unhandled {type(result.exception).__name__}: {result.exception}\n{result.output}")
    return result.exit_code, result.stderr.splitlines(), result.output


@pytest.mark.parametrize("name", case_names())
def test_a_broken_catalog_is_refused_with_located_messages(name: str, workdir: Path):
    case = CASES / name
    lay_out(case, workdir / "catalog")
    before = snapshot(workdir / "out")

    code, stderr, output = run_build(workdir)

    assert stderr == expected(case)
    assert code == 2
    assert "Traceback" not in output
    assert snapshot(workdir / "out") == before
    assert sorted(p.name for p in workdir.iterdir()) == ["catalog", "out"]


def test_every_case_folder_has_an_expected_message():
    folders = sorted(p.name for p in CASES.iterdir() if p.is_dir())
    assert folders == case_names()
    assert len(folders) >= 30


def test_a_billion_laughs_file_is_refused_in_bounded_memory(tmp_path: Path):
    """9^9 strings written as 90: refused before anything walks the expansion.

    tracemalloc measures what Python allocated while loading; the bound is
    generous (expanding the file would need tens of gigabytes).
    """
    root = tmp_path / "catalog"
    lay_out(CASES / "billion-laughs", root)
    from generator.errors import InputError
    from generator.load.catalog import load_catalog

    tracemalloc.start()
    try:
        with pytest.raises(InputError) as caught:
            load_catalog(root)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024 * 1024
    [problem] = caught.value.problems
    assert problem.location.file == "series/sizes.yaml"
    assert "aliases expand this document" in problem.message


def test_a_billion_laughs_file_is_refused_by_the_installed_command(tmp_path: Path):
    """The same file through a real `citgen` process; the timeout only guards the test run."""
    root = tmp_path / "catalog"
    lay_out(CASES / "billion-laughs", root)
    citgen = Path(sys.executable).with_name("citgen")
    command = [str(citgen)] if citgen.exists() else [sys.executable, "-m", "generator.cli"]
    done = subprocess.run(command + ["build", "--catalog", str(root), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 2
    assert "aliases expand this document" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()
