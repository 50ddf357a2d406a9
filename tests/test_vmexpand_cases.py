"""Expansion cases as folders: tests/cases/expand/<case>/.

Each case has a ``vm.yaml`` and either ``expected.yaml`` (the expanded VM) or
``expected-errors.txt`` (KubeVirt's refusals, ``field: message`` one a line).
A ``bundle.yaml`` holds the case's own instancetypes and preferences; without
one the case uses the upstream all-bundle from the reference data. An optional
``options.yaml`` passes options such as the cluster's default ``arch``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from generator.tools.vmexpand import expand_with
from tests.helpers import read_yaml_stream

CASES = Path(__file__).parent / "cases" / "expand"
CASE_DIRS = sorted(p for p in CASES.iterdir() if p.is_dir())


def _objects(case: Path, request: pytest.FixtureRequest) -> list[dict]:
    bundle = case / "bundle.yaml"
    if not bundle.exists():
        bundle = request.getfixturevalue("upstream_dir") / "common-instancetypes-all-bundle.yaml"
    return [d for d in read_yaml_stream(bundle) if d]


def test_every_case_says_what_it_expects() -> None:
    assert len(CASE_DIRS) >= 10
    for case in CASE_DIRS:
        assert (case / "vm.yaml").is_file(), case
        expectations = [(case / "expected.yaml").is_file(), (case / "expected-errors.txt").is_file()]
        assert expectations.count(True) == 1, f"{case.name}: needs exactly one expected file"


@pytest.mark.parametrize("case", CASE_DIRS, ids=[c.name for c in CASE_DIRS])
def test_case(case: Path, request: pytest.FixtureRequest) -> None:
    vm = yaml.safe_load((case / "vm.yaml").read_text())
    options_file = case / "options.yaml"
    options = yaml.safe_load(options_file.read_text()) if options_file.exists() else {}
    result = expand_with(vm, _objects(case, request), **options)

    expected_errors = case / "expected-errors.txt"
    if expected_errors.exists():
        assert result.vm is None
        assert [str(e) for e in result.errors] == expected_errors.read_text().splitlines()
    else:
        assert result.errors == ()
        assert result.vm == yaml.safe_load((case / "expected.yaml").read_text())
