"""generator/render/searchpath.py: the template folders of a build, each checked where the search path is built."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.paths import builtin_catalog
from generator.render.searchpath import search_path
from tests.helpers import copy_catalog

BUILTIN = builtin_catalog() / "templates"


def builtin_folders() -> list[str]:
    return sorted(p.relative_to(BUILTIN).as_posix() for p in BUILTIN.rglob("*") if p.is_dir())


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    return copy_catalog(tmp_path / "catalog")


def refusal(catalog: Path) -> str:
    with pytest.raises(InputError) as raised:
        search_path(catalog)
    return str(raised.value)


def test_a_catalog_searches_its_own_templates_then_the_built_in_ones(catalog: Path):
    assert search_path(catalog) == [catalog / "templates", BUILTIN]
    assert search_path(builtin_catalog()) == [BUILTIN]


def test_a_catalog_without_templates_takes_the_built_in_ones(catalog: Path):
    shutil.rmtree(catalog / "templates")
    assert search_path(catalog) == [catalog / "templates", BUILTIN]


def test_the_built_in_templates_have_the_folders_a_vendor_may_replace():
    assert builtin_folders() == ["helm", "helm/chart", "helm/chart/templates", "kustomize"]


@pytest.mark.parametrize("folder", builtin_folders())
def test_a_file_where_the_built_in_templates_have_a_folder_is_refused_by_its_name(catalog: Path, folder: str):
    """templates/helm/chart/templates as a file was met as a file where the output needs a folder, blamed on --out."""
    shutil.rmtree(catalog / "templates" / folder)
    (catalog / "templates" / folder).write_text("x\n")
    assert refusal(catalog) == f"templates/{folder}: is a regular file, not a directory"


def test_a_folder_where_the_built_in_templates_have_a_file_is_refused_by_its_name(catalog: Path):
    (catalog / "templates" / "instancetype.yaml.j2").unlink()
    (catalog / "templates" / "instancetype.yaml.j2").mkdir()
    assert refusal(catalog) == ("templates/instancetype.yaml.j2: is a directory, where the built-in templates have a "
                                "file of this name; a catalog's file of that name replaces the built-in one")


def test_a_folder_of_the_catalogs_own_that_links_to_nothing_is_refused(catalog: Path):
    (catalog / "templates" / "kustomize" / "extra").symlink_to(catalog / "nowhere")
    assert refusal(catalog).startswith("templates/kustomize/extra: is a symbolic link that points nowhere")
