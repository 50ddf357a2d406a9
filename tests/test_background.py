"""Validation in a forked child gives what validation in the build's own process gives.

The child is a real fork (no mocks): these tests force it on small catalogs by
lowering the threshold, then compare with a build that validates in-process.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.pipeline import BuildOptions, generate
from generator.runtime import background
from generator.runtime.background import Pending, worth_forking
from tests.helpers import copy_catalog, default_build

needs_fork = pytest.mark.skipif(not worth_forking(10**9), reason="validates in a child only on Linux with 2+ cores")


@pytest.fixture
def always_fork(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(background, "THRESHOLD", 0)


@needs_fork
def test_the_answer_comes_from_the_child():
    with Pending(os.getpid, fork=True) as pending:
        assert pending.result() != os.getpid()


def test_without_fork_the_work_is_done_at_result():
    calls = []
    with Pending(lambda: calls.append("done") or len(calls), fork=False) as pending:
        assert calls == []
        assert pending.result() == 1


@needs_fork
def test_an_exception_in_the_child_is_raised_by_the_parent_doing_the_work_itself():
    parent = os.getpid()

    def work() -> str:
        raise ValueError(f"raised in {'the parent' if os.getpid() == parent else 'the child'}")

    with Pending(work, fork=True) as pending, pytest.raises(ValueError, match="raised in the parent"):
        pending.result()


@needs_fork
def test_a_child_that_dies_is_replaced_by_the_parent():
    parent = os.getpid()

    def work() -> int:
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        return 42

    with Pending(work, fork=True) as pending:
        assert pending.result() == 42


@needs_fork
def test_leaving_the_block_early_stops_the_child():
    with Pending(lambda: time.sleep(60), fork=True) as pending:
        child = pending._pid
    assert child is not None
    with pytest.raises(ChildProcessError):
        os.waitpid(child, os.WNOHANG)  # already reaped: no zombie is left behind


def test_small_builds_validate_in_their_own_process():
    assert not worth_forking(background.THRESHOLD - 1)


@needs_fork
def test_a_build_that_validates_in_a_child_is_the_same_build(always_fork):
    serial = default_build()
    forked = generate(BuildOptions())
    assert forked.files == serial.files
    assert forked.problems == serial.problems == ()


@needs_fork
def test_problems_found_in_a_child_are_the_problems_found_in_process(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch):
    catalog = copy_catalog(tmp_path / "catalog")
    family = catalog / "preferences" / "alpine.yaml"
    family.write_text(family.read_text() + "    requirements: {cpu: 128}\n")  # no instancetype has 128
    serial = generate(BuildOptions(catalog=catalog))
    monkeypatch.setattr(background, "THRESHOLD", 0)
    forked = generate(BuildOptions(catalog=catalog))
    assert serial.problems
    assert forked.problems == serial.problems


@needs_fork
def test_a_forked_build_that_fails_validation_writes_nothing(tmp_path: Path, always_fork):
    catalog = copy_catalog(tmp_path / "catalog")
    family = catalog / "preferences" / "alpine.yaml"
    family.write_text(family.read_text() + "    requirements: {cpu: 128}\n")  # no instancetype has 128
    result = CliRunner().invoke(main, ["build", "--catalog", str(catalog), "--out", str(tmp_path / "out")])
    assert result.exit_code != 0
    assert "(alpine) $.spec.requirements: no instancetype meets these requirements" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["catalog"]  # no output, no staging left
