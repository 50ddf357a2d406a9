"""generator/paths.py: where the built-in catalog is, and which catalog a command works on.

An installed wheel has it under generator/catalog/, a checkout at the repository's
root; a folder counts only with both its catalog.yaml file and its series/ folder.
A command works on the catalog the working directory is in (catalog.yaml there or
in a parent), else on the built-in one; --catalog names one explicitly.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator import paths
from generator.paths import (builtin_catalog, catalog_folder, catalog_name, catalog_record, find_catalog,
                             home_folder)

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



# --------------------------------------------------------------------------- the catalog the user is in


def test_the_nearest_folder_up_holding_catalog_yaml_is_found_relative_to_the_working_directory(
        tmp_path, monkeypatch):
    (tmp_path / "catalog.yaml").write_text("vendor: acme.example.com\n")
    (tmp_path / "docs" / "deep").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    assert find_catalog() == Path(".")
    monkeypatch.chdir(tmp_path / "docs" / "deep")
    assert find_catalog() == Path("../..")
    (tmp_path / "docs" / "catalog.yaml").write_text("extends: builtin\n")  # a nearer one wins
    assert find_catalog() == Path("..")


def test_a_folder_named_catalog_yaml_is_no_catalog_and_nothing_found_is_none(tmp_path, monkeypatch):
    (tmp_path / "catalog.yaml").mkdir()
    monkeypatch.chdir(tmp_path)
    assert find_catalog() is None
    assert catalog_folder(None) == builtin_catalog()


def test_a_working_directory_that_is_gone_finds_none(tmp_path, monkeypatch):
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    assert find_catalog() is None


def test_a_catalog_given_wins_over_the_one_found_and_outputs_go_where_the_catalog_found_is(tmp_path, monkeypatch):
    (tmp_path / "catalog.yaml").write_text("vendor: acme.example.com\n")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    assert (catalog_folder(None), home_folder(None)) == (Path(".."), Path(".."))
    assert (catalog_folder(Path("x")), home_folder(Path("x"))) == (Path("x"), Path("."))
    monkeypatch.chdir(REPO.parent)  # no catalog.yaml above a checkout's parent
    assert (catalog_folder(None), home_folder(None)) == (builtin_catalog(), Path("."))


def test_a_summary_names_the_catalog_by_its_folder_or_as_the_built_in_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert catalog_name(None, "v1.8.0-dev") == "built-in catalog v1.8.0-dev"
    assert catalog_name(builtin_catalog(), "v1.8.0-dev") == "built-in catalog v1.8.0-dev"  # --catalog builtin
    assert catalog_name(Path("acme/"), "v1.9.0") == "catalog acme/ v1.9.0"
    assert catalog_record(None, "v1") == {"path": None, "builtIn": True, "version": "v1"}
    (tmp_path / "catalog.yaml").write_text("vendor: acme.example.com\n")
    assert catalog_name(None, "v1.9.0") == "catalog ./ v1.9.0"
    assert catalog_record(None, "v1.9.0") == {"path": ".", "builtIn": False, "version": "v1.9.0"}


def test_the_checkout_citgen_runs_from_is_its_built_in_catalog_found_there_or_not(monkeypatch):
    """An editable install run in its own checkout finds the built-in catalog, and names it so."""
    monkeypatch.chdir(REPO / "docs")
    assert find_catalog() == Path("..") and builtin_catalog() == REPO
    assert catalog_folder(None) == REPO and home_folder(None) == Path("..")
    assert catalog_name(None, "v1.8.0-dev") == "built-in catalog v1.8.0-dev"
