"""Shared test fixtures.

Reference data (upstream bundles, KubeVirt's OpenAPI document) lives in ../shared
beside the repository and is read at run time, never copied in. Tests that need it
skip when it is absent, except under CI (CI=true), where its absence is a failure.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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


# Hypothesis profiles: `ci` (the default, a few dozen examples per property, for `make
# test`) and `fuzz` (a long run, `make fuzz`); HYPOTHESIS_PROFILE picks one. No
# deadline: a generated catalog goes through a whole build, whose time varies by machine.
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("ci", max_examples=30, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("fuzz", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
