"""outputs/helm.py: a name of the chart is a file or a folder, never both, and a clash is the catalog's chart folder's."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from tests.helpers import copy_catalog


@pytest.mark.parametrize("made, clash", [
    ("values.yaml/x.yaml", "the chart has both a file values.yaml and a folder of that name (holding values.yaml/x.yaml)"),
    ("catalog", "the chart has both a file catalog and a folder of that name (holding catalog/kubevirt.json)"),
])
def test_a_file_of_the_catalogs_chart_where_the_chart_has_a_folder_or_the_other_way_round_is_refused_there(
        tmp_path: Path, made: str, clash: str):
    """Writing both failed as an error of --out ("Is a directory"), far from its cause."""
    catalog = copy_catalog(tmp_path / "catalog")
    path = catalog / "templates" / "helm" / "chart" / made
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x: 1\n")
    done = CliRunner().invoke(main, ["build", "--catalog", str(catalog), "--out", str(tmp_path / "out")])
    top = made.split("/")[0]
    lines = done.output.splitlines()
    assert (done.exit_code, len(lines), lines[1]) == (2, 2, "citgen: 1 problem, nothing written")
    assert f"templates/helm/chart/{top}: " in lines[0]
    assert f"{clash}: one of them comes from the catalog's templates/helm/chart; rename or remove it" in lines[0]
    assert not (tmp_path / "out").exists()
