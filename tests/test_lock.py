"""requirements/*.txt: the lock `make build` and `make test` install from agrees with pyproject.toml.

The lock is written by `make lock` (uv pip compile); these tests catch the edits that
leave it behind: a range in pyproject.toml that its pin no longer satisfies, a new
dependency without a pin, the two files drifting apart, a pin without hashes, a lock
resolved for another Python than the oldest the project allows.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

REPO = Path(__file__).resolve().parent.parent
BUILD_LOCK = REPO / "requirements" / "build.txt"
TEST_LOCK = REPO / "requirements" / "test.txt"
MUTATE_LOCK = REPO / "requirements" / "mutate.txt"
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def entries(path: Path) -> list[tuple[str, str, Marker | None, list[str]]]:
    """(name, version, marker, hashes) of every pin of a lock file."""
    text = path.read_text(encoding="utf-8")
    found = []
    for block in re.split(r"\n(?=\S)", text):
        lines = [line.strip().rstrip("\\").strip() for line in block.splitlines()]
        if not lines or lines[0].startswith("#") or not lines[0]:
            continue
        requirement = Requirement(lines[0])
        (pin,) = requirement.specifier
        assert pin.operator == "==", f"{path.name}: {lines[0]} is not an exact pin"
        hashes = [line.removeprefix("--hash=") for line in lines[1:] if line.startswith("--hash=")]
        found.append((canonicalize_name(requirement.name), pin.version, requirement.marker, hashes))
    return found


def linux(python: str) -> dict[str, str]:
    """The marker environment of CPython ``python`` on Linux."""
    return {"python_version": python, "python_full_version": f"{python}.0", "sys_platform": "linux",
            "platform_system": "Linux", "implementation_name": "cpython",
            "platform_python_implementation": "CPython", "os_name": "posix", "platform_machine": "x86_64"}


def pins_for(path: Path, python: str) -> dict[str, str]:
    """The version each package gets on ``python`` (markers evaluated for Linux)."""
    return {name: version for name, version, marker, _ in entries(path)
            if marker is None or marker.evaluate(linux(python))}


def wanted_on(requirement: Requirement, python: str) -> bool:
    """Whether ``python`` installs ``requirement`` (cel-expr-python: from 3.11 on)."""
    return requirement.marker is None or requirement.marker.evaluate(linux(python))


def declared() -> list[Requirement]:
    project = PYPROJECT["project"]
    build = (REPO / "requirements" / "build.in").read_text(encoding="utf-8").splitlines()
    return [Requirement(text) for text in (*project["dependencies"], *project["optional-dependencies"]["test"],
                                           *(line for line in build if line and not line.startswith("#")))]


def oldest_python() -> str:
    found = re.fullmatch(r">=(\d+\.\d+)", PYPROJECT["project"]["requires-python"])
    assert found, "requires-python is a lower bound such as >=3.10"
    return found.group(1)


PYTHONS = [oldest_python(), "3.11", "3.12", "3.13"]


@pytest.mark.parametrize("python", PYTHONS)
def test_every_dependency_is_pinned_inside_its_range(python):
    pins = pins_for(TEST_LOCK, python)
    for requirement in (r for r in declared() if wanted_on(r, python)):
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement} has no pin in requirements/test.txt for Python {python}: run make lock"
        assert pins[name] in SpecifierSet(str(requirement.specifier)), (
            f"requirements/test.txt pins {name}=={pins[name]}, outside {requirement}: run make lock")


@pytest.mark.parametrize("python", PYTHONS)
def test_build_and_test_locks_agree_on_every_package_they_share(python):
    build, test = pins_for(BUILD_LOCK, python), pins_for(TEST_LOCK, python)
    assert set(build) <= set(test)
    assert {name: test[name] for name in build} == build


def test_the_runtime_dependencies_and_the_build_backend_are_in_the_build_lock():
    runtime = {canonicalize_name(Requirement(text).name) for text in PYPROJECT["project"]["dependencies"]}
    names = {name for name, *_ in entries(BUILD_LOCK)}
    assert runtime | {"hatchling", "editables"} <= names


@pytest.mark.parametrize("python", PYTHONS)
def test_the_mutation_lock_holds_the_test_lock_s_versions_and_mutmut_3(python):
    mutate, test = pins_for(MUTATE_LOCK, python), pins_for(TEST_LOCK, python)
    project = PYPROJECT["project"]
    needed = {canonicalize_name(Requirement(text).name)
              for text in (*project["dependencies"], *project["optional-dependencies"]["test"])
              if wanted_on(Requirement(text), python)}
    assert needed <= set(mutate)  # the tests run under mutmut with what they run with under make test
    assert {name: test[name] for name in mutate if name in test} == {name: mutate[name] for name in mutate
                                                                       if name in test}
    assert mutate["mutmut"].split(".")[0] == "3"


@pytest.mark.parametrize("lock", [BUILD_LOCK, TEST_LOCK, MUTATE_LOCK], ids=lambda p: p.name)
def test_every_pin_carries_sha256_hashes(lock):
    for name, version, _, hashes in entries(lock):
        assert hashes, f"{lock.name}: {name}=={version} has no hash"
        assert all(re.fullmatch(r"sha256:[0-9a-f]{64}", h) for h in hashes), f"{lock.name}: {name}"


@pytest.mark.parametrize("lock", [BUILD_LOCK, TEST_LOCK, MUTATE_LOCK], ids=lambda p: p.name)
def test_the_lock_was_resolved_for_every_platform_from_the_oldest_python_allowed(lock):
    command = lock.read_text(encoding="utf-8").splitlines()[1]
    assert "--universal" in command and "--generate-hashes" in command
    assert f"--python-version {oldest_python()}" in command
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert f"LOCK_PYTHON := {oldest_python()}\n" in makefile


def test_the_makefile_installs_from_the_lock_with_hashes_and_nothing_else():
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert "PIP_LOCKED  := -m pip install --quiet --require-hashes --only-binary :all:" in makefile
    assert "PIP_PROJECT := -m pip install --quiet --no-deps --no-build-isolation --editable ." in makefile
    install = re.findall(r"^\t\$\(BIN\)/python (.*PIP.*)$", makefile, re.M)
    assert install == ["$(PIP_LOCKED) -r $(BUILD_LOCK)", "$(PIP_PROJECT)",
                       "$(PIP_LOCKED) -r $(TEST_LOCK)", "$(PIP_PROJECT)"], install
