"""Concurrent builds (issue 14, class 7): builds writing the same --out take turns.

Each build locks the output directory (a lock file beside it) from its first
write to its swap; the others wait, up to --lock-timeout, and then give up
naming the holder. Only the holder cleans up what killed builds left behind,
so no build deletes another's staging directory.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.write import OutputLock, lock_path

from tests.helpers import osinfo_notes, snapshot

pytestmark = pytest.mark.heavy(5)  # seconds of a worker's time: run early (conftest.py)


def beside(out: Path) -> list[str]:
    """What a build leaves next to its output directory: lock files and staging directories."""
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}."))


def citgen(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "generator.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_six_builds_into_one_directory_all_succeed_and_leave_one_complete_build(tmp_path: Path):
    reference = tmp_path / "reference"
    assert CliRunner().invoke(main, ["build", "--out", str(reference)]).exit_code == 0
    out = tmp_path / "out"
    builds = [citgen("build", "--out", str(out)) for _ in range(6)]
    results = [(build.wait(timeout=300), build.communicate()) for build in builds]
    said = "".join(f"{note}\n" for note in osinfo_notes())  # what each build says of libosinfo's database
    assert [(code, err) for code, (_, err) in results] == [(0, said)] * 6
    check = subprocess.run(["sha256sum", "--check", "--strict", "CHECKSUMS.sha256"], cwd=out,
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    assert snapshot(out) == snapshot(reference)
    assert beside(out) == []  # no lock file, no staging directory left


def test_a_build_gives_up_after_the_lock_timeout_naming_the_holder(tmp_path: Path):
    out = tmp_path / "out"
    assert CliRunner().invoke(main, ["build", "--out", str(out)]).exit_code == 0
    before = snapshot(out)
    with OutputLock(out):
        holder = json.loads(lock_path(out).read_text())
        waiting = citgen("build", "--out", str(out), "--lock-timeout", "0.3")
        code = waiting.wait(timeout=300)
        _, stderr = waiting.communicate()
    assert holder["pid"] == os.getpid()
    refusal, closing = stderr.splitlines()  # the place and the words, however a report line lays them out
    assert f"{out}: " in refusal and closing == "citgen: 1 problem, nothing written"
    assert (f"another citgen build is writing this output directory (pid {os.getpid()}, started {holder['started']}); "
            "gave up after waiting 0.3 seconds (--lock-timeout sets how long to wait)") in refusal
    assert code == 2
    assert snapshot(out) == before
    assert beside(out) == []


def test_only_the_lock_holder_removes_what_a_killed_build_left(tmp_path: Path):
    out = tmp_path / "out"
    assert CliRunner().invoke(main, ["build", "--out", str(out)]).exit_code == 0
    left = tmp_path / ".out.citgen-new-killed"
    left.mkdir()
    (left / "CHECKSUMS.sha256").write_text("half written\n")
    with OutputLock(out):
        result = CliRunner().invoke(main, ["build", "--out", str(out), "--lock-timeout", "0"])
        assert result.exit_code == 2
        assert left.is_dir()  # it might be the staging directory of the build holding the lock
    result = CliRunner().invoke(main, ["build", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert beside(out) == []


def test_a_lock_file_no_process_holds_does_not_block(tmp_path: Path):
    out = tmp_path / "out"
    lock_path(out).write_text(json.dumps({"pid": 999999999, "started": "2020-01-01T00:00:00Z"}) + "\n")
    result = CliRunner().invoke(main, ["build", "--out", str(out), "--lock-timeout", "0"])
    assert result.exit_code == 0, result.output
    assert beside(out) == []


def test_a_negative_lock_timeout_is_refused(tmp_path: Path):
    result = CliRunner().invoke(main, ["build", "--out", str(tmp_path / "out"), "--lock-timeout", "-1"])
    assert result.exit_code == 2
    assert "--lock-timeout: " in result.stderr
    assert "expected a number of seconds from 0 to 86400, got '-1'" in result.stderr
