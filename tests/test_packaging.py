"""An installed citgen carries the built-in catalog: `citgen build` works from any directory."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.helpers import REPO


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--wheel-dir", str(out), str(REPO)], check=True, capture_output=True)
    [found] = out.glob("kubevirt_citgen-*.whl")
    return found


def test_the_wheel_holds_the_catalog_and_the_schemas(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for expected in ("generator/catalog/catalog.yaml", "generator/catalog/series/sizes.yaml",
                     "generator/catalog/series/cx.yaml", "generator/catalog/preferences/windows.yaml",
                     "generator/catalog/preferences/traits/efi.yaml",
                     "generator/catalog/templates/instancetype.yaml.j2",
                     "generator/schemas/virtualmachineclusterinstancetype_v1beta1.json"):
        assert expected in names
    assert not any(n.startswith(("generator/catalog/bundles", "tests/")) for n in names)


def test_an_installed_citgen_builds_the_same_bundles_from_any_directory(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    workdir = tmp_path / "elsewhere"
    workdir.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    code = "import generator.paths, sys; print(generator.paths.builtin_catalog()); sys.exit(0)"
    where = subprocess.run([sys.executable, "-c", code], cwd=workdir, env=env, check=True,
                           capture_output=True, text=True).stdout.strip()
    assert where == str(site / "generator" / "catalog")
    subprocess.run([sys.executable, "-m", "generator.cli", "build"], cwd=workdir, env=env, check=True,
                   capture_output=True)
    for bundle in sorted((REPO / "bundles").glob("*.yaml")) + [REPO / "bundles" / "CHECKSUMS.sha256"]:
        assert (workdir / "bundles" / bundle.name).read_bytes() == bundle.read_bytes(), bundle.name
