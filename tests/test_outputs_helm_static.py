"""Helm's own chart files and the chart's Jinja templates (outputs/helm.py `static_files`, `chart_files`).

Helm's templates under ``templates/helm/chart/`` are copied byte for byte, a
catalog's copy of a file winning over the built-in one; without
``templates/catalog.yaml`` there is no chart, and the error says which file is
missing. The chart's Jinja templates (Chart.yaml, values.yaml, README.md) come
from the catalog's templates first: a catalog template that is missing, fails,
or renders a values.yaml that is not one mapping is an input error naming it.

Private helper, tested on purpose: _render writes one static template, so a case needs no whole
chart.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.outputs.context import OutputContext
from generator.outputs.helm import _render, chart_files, static_files
from generator.paths import builtin_catalog
from tests.helpers import default_build

BUILTIN = builtin_catalog() / "templates"


def chart_dir(base: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (base / "helm/chart" / name).parent.mkdir(parents=True, exist_ok=True)
        (base / "helm/chart" / name).write_text(text)
    return base


def context(templates: dict[str, str], root: Path) -> OutputContext:
    """The default build's context with a catalog at ``root`` whose templates/ holds ``templates``."""
    for name, text in templates.items():
        (root / "templates" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "templates" / name).write_text(text)
    (root / "templates").mkdir(parents=True, exist_ok=True)
    build = default_build()
    catalog = dataclasses.replace(build.catalog, root=root)
    return OutputContext(catalog, build.version, build.objects, build.bundles, documents=build.documents)


def message(error: pytest.ExceptionInfo[InputError]) -> list[str]:
    return [str(p) for p in error.value.problems]


def test_the_built_in_chart_files_are_copied_byte_for_byte():
    files = static_files([BUILTIN])
    assert sorted(files) == ["templates/NOTES.txt", "templates/_helpers.tpl", "templates/catalog.yaml"]
    for name, data in files.items():
        assert data == (BUILTIN / "helm/chart" / name).read_bytes()


def test_a_catalogs_copy_of_a_chart_file_wins_over_the_built_in_one(tmp_path: Path):
    own = chart_dir(tmp_path / "own", {"templates/NOTES.txt": "ours\n", "templates/extra/more.tpl": "more\n"})
    files = static_files([own, BUILTIN])
    assert files["templates/NOTES.txt"] == b"ours\n"
    assert files["templates/extra/more.tpl"] == b"more\n"  # nested folders keep their path
    assert files["templates/catalog.yaml"] == (BUILTIN / "helm/chart/templates/catalog.yaml").read_bytes()
    assert list(files) == ["templates/NOTES.txt", "templates/_helpers.tpl", "templates/catalog.yaml",
                           "templates/extra/more.tpl"]  # the built-in files first, each set in sorted order


def test_a_templates_folder_without_a_chart_adds_nothing(tmp_path: Path):
    (tmp_path / "bare" / "helm").mkdir(parents=True)
    assert static_files([tmp_path / "bare", BUILTIN]) == static_files([BUILTIN])


def test_without_the_catalog_template_there_is_no_chart(tmp_path: Path):
    only = chart_dir(tmp_path / "only", {"templates/NOTES.txt": "notes\n"})
    with pytest.raises(InputError) as error:
        static_files([only])
    assert message(error) == ["templates/helm/chart/templates/catalog.yaml: Helm chart template not found"]


def test_a_chart_file_is_named_by_its_place_under_templates_when_it_cannot_be_read(tmp_path: Path):
    own = chart_dir(tmp_path / "own", {"templates/catalog.yaml": "x\n"})
    (tmp_path / "secret").write_text("outside\n")
    os.symlink(tmp_path / "secret", own / "helm/chart/templates/leak.yaml")
    with pytest.raises(InputError) as error:
        static_files([own, BUILTIN])
    assert message(error) == [
        "templates/helm/chart/templates/leak.yaml: is a symbolic link to a file outside the catalog directory; "
        "citgen reads only files inside the catalog"]


def test_a_missing_chart_template_is_named(tmp_path: Path):
    with pytest.raises(InputError) as error:
        _render([tmp_path], {}, {"x.yaml": "helm/missing.j2"})
    assert message(error) == ["templates/helm/missing.j2: template not found"]


def test_a_failing_chart_template_is_named_with_its_line(tmp_path: Path):
    (tmp_path / "helm").mkdir()
    (tmp_path / "helm" / "bad.j2").write_text("ok\n{{ nothing.here }}\n")
    with pytest.raises(InputError) as error:
        _render([tmp_path], {}, {"x.yaml": "helm/bad.j2"})
    assert message(error) == ["templates/helm/bad.j2:2: undefined value in template: 'nothing' is undefined"]


def test_chart_templates_render_with_the_variables_given(tmp_path: Path):
    (tmp_path / "helm").mkdir()
    (tmp_path / "helm" / "a.j2").write_text("{{ name }}")
    (tmp_path / "helm" / "b.j2").write_text("{{ name }}!")
    files = _render([tmp_path], {"name": "é"}, {"a.txt": "helm/a.j2", "b.txt": "helm/b.j2"})
    assert files == {"a.txt": "é".encode(), "b.txt": "é!".encode()}


def test_a_catalogs_chart_template_wins_and_sees_the_build(tmp_path: Path):
    ctx = context({"helm/Chart.yaml.j2": "{{ name }} {{ chart_version }} {{ app_version }} {{ vendor }} "
                                         "{{ home }} {{ sources }} {{ description }}\n"}, tmp_path)
    version = ctx.version  # the built-in catalog's, v1.8.0-dev as this is written
    assert chart_files(ctx)["Chart.yaml"].decode() == (
        f"common-instancetypes {version[1:]} {version} kubevirt.io https://github.com/kubevirt/common-instancetypes "
        "['https://github.com/kubevirt/common-instancetypes'] "
        "Common instancetypes (VM sizes) and preferences (guest OS settings) for KubeVirt\n")


def test_a_catalog_without_a_documentation_url_has_no_home_and_no_sources(tmp_path: Path):
    ctx = context({"helm/Chart.yaml.j2": "[{{ home }}] {{ sources }}\n"}, tmp_path)
    settings = dataclasses.replace(ctx.catalog.settings, provider={})
    ctx = dataclasses.replace(ctx, catalog=dataclasses.replace(ctx.catalog, settings=settings))
    assert chart_files(ctx)["Chart.yaml"] == b"[] []\n"


def test_the_values_template_sees_the_names_of_the_catalog(tmp_path: Path):
    ctx = context({"helm/values.yaml.j2": "# {{ series[0] }} | {{ sizes[:3] }} | {{ families[:2] }} | "
                                          "{{ owned_prefix }} | {{ owned_annotations[0] }} | "
                                          "{{ kubevirt_releases[0] }}..{{ kubevirt_version }} | "
                                          "{{ gpu_device_name }}\nvendor: x\n"}, tmp_path)
    assert chart_files(ctx)["values.yaml"].decode() == (
        "# cx (cx1) | ['nano', 'micro', 'small'] | ['alpine', 'centos-stream'] | instancetype.kubevirt.io/ | "
        "iconClass | v1.0..v1.9 | None\nvendor: x\n")


def test_the_readme_template_sees_the_values_table_and_accepted_names(tmp_path: Path):
    ctx = context({"helm/values.yaml.j2": "vendor: x\n",
                   "helm/README.md.j2": "{{ values_table.splitlines()[2] }}\n{{ accepted_names[0][0] }}\n"
                                        "{{ name }}"}, tmp_path)
    assert chart_files(ctx)["README.md"].decode() == (
        "| `vendor` | string | `\"x\"` | The instancetype.kubevirt.io/vendor label on every object: "
        "who ships the catalog. |\n['`instancetypes.series`', '`instancetypes.excludeSeries`']\n"
        "common-instancetypes")


def test_an_empty_values_template_gives_a_readme_with_every_value_unset(tmp_path: Path):
    ctx = context({"helm/values.yaml.j2": "", "helm/README.md.j2": "{{ values_table }}"}, tmp_path)
    rows = chart_files(ctx)["README.md"].decode().splitlines()[2:]
    assert rows[0].startswith("| `global` | map | unset |")
    assert all(" | unset | " in row for row in rows)


def test_a_values_template_rendering_two_documents_is_refused(tmp_path: Path):
    ctx = context({"helm/values.yaml.j2": "a: 1\n---\nb: 2\n"}, tmp_path)
    with pytest.raises(InputError) as error:
        chart_files(ctx)
    assert message(error) == ["templates/helm/values.yaml.j2: the rendered values.yaml is not one YAML mapping: "
                              "too many values to unpack (expected 1)"]


def test_a_values_template_rendering_no_mapping_is_refused(tmp_path: Path):
    ctx = context({"helm/values.yaml.j2": "- a\n- b\n"}, tmp_path)
    with pytest.raises(InputError) as error:
        chart_files(ctx)
    assert message(error) == ["templates/helm/values.yaml.j2: the rendered values.yaml is not a mapping of values"]


def test_the_chart_holds_the_static_files_the_rendered_ones_and_the_data_in_sorted_order():
    build = default_build()
    ctx = OutputContext(build.catalog, build.version, build.objects, build.bundles, documents=build.documents)
    assert list(chart_files(ctx)) == [
        "Chart.yaml", "README.md", "catalog/kubevirt.json", "catalog/objects.json", "templates/NOTES.txt",
        "templates/_helpers.tpl", "templates/catalog.yaml", "values.schema.json", "values.yaml"]
