"""Shared test fixtures.

Reference data (upstream bundles, KubeVirt's OpenAPI document) lives in ../shared
beside the repository and is read at run time, never copied in. Tests that need it
skip when it is absent, except under CI (CI=true), where its absence is a failure.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main

REPO = Path(__file__).resolve().parent.parent
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
    """A real earlier build of the built-in catalog, made once and copied into each case."""
    out = tmp_path_factory.mktemp("previous") / "out"
    result = CliRunner().invoke(main, ["build", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture
def workdir(tmp_path: Path, previous_output: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp_path as the current directory, holding ``out/`` from an earlier build.

    Paths are passed relative to it, so messages naming files outside the
    catalog directory (an overlay) read the same on every machine.
    """
    shutil.copytree(previous_output, tmp_path / "out")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# Hypothesis profiles: `ci` (the default, a few dozen examples per property, for `make
# test`) and `fuzz` (a long run, `make fuzz`); HYPOTHESIS_PROFILE picks one. No
# deadline: a generated catalog goes through a whole build, whose time varies by machine.
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("ci", max_examples=30, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("fuzz", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
