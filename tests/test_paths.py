"""generator/paths.py: where the built-in catalog is.

An installed wheel has it under generator/catalog/, a checkout at the repository's
root; a folder counts only with both its catalog.yaml file and its series/ folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator import paths
from generator.paths import builtin_catalog

REPO = Path(__file__).resolve().parent.parent


def package_in(root: Path) -> Path:
    """A package folder ``root/generator`` for builtin_catalog to search from."""
    (root / "generator").mkdir(parents=True)
    return root / "generator"


def catalog_at(folder: Path, *, catalog_file: bool = True, series: bool = True) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    if catalog_file:
        (folder / "catalog.yaml").write_text("vendor: kubevirt.io\n")
    if series:
        (folder / "series").mkdir()
    return folder


def test_a_checkout_finds_the_catalog_at_its_root():
    assert paths.PACKAGE == REPO / "generator"
    assert builtin_catalog() == REPO


def test_a_wheel_s_catalog_inside_the_package_comes_before_the_folder_around_it(tmp_path, monkeypatch):
    package = package_in(tmp_path)
    catalog_at(tmp_path)
    monkeypatch.setattr(paths, "PACKAGE", package)
    assert builtin_catalog() == tmp_path
    catalog_at(package / "catalog")
    assert builtin_catalog() == package / "catalog"


@pytest.mark.parametrize("parts", [{"catalog_file": False}, {"series": False}])
def test_a_folder_without_catalog_yaml_or_series_is_not_the_catalog(tmp_path, monkeypatch, parts: dict[str, bool]):
    package = package_in(tmp_path)
    catalog_at(package / "catalog", **parts)
    catalog_at(tmp_path)
    monkeypatch.setattr(paths, "PACKAGE", package)
    assert builtin_catalog() == tmp_path


def test_catalog_yaml_must_be_a_file_and_series_a_folder(tmp_path, monkeypatch):
    package = package_in(tmp_path)
    (tmp_path / "catalog.yaml").mkdir()
    (tmp_path / "series").mkdir()
    (package / "catalog").mkdir()
    (package / "catalog" / "catalog.yaml").write_text("")
    (package / "catalog" / "series").write_text("")
    monkeypatch.setattr(paths, "PACKAGE", package)
    with pytest.raises(RuntimeError) as raised:
        builtin_catalog()
    assert str(raised.value) == f"the built-in catalog is missing from {package}; reinstall citgen"
