"""`citgen build` validates what it renders and writes nothing that fails."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.model import label
from tests.helpers import copy_catalog, read_yaml_stream


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    return copy_catalog(tmp_path / "catalog")


def test_a_spec_fragment_that_breaks_the_crd_schema_is_caught_at_its_line(catalog, tmp_path):
    series = catalog / "series" / "u.yaml"
    series.write_text(series.read_text() + "spec:\n  cpu:\n    dedicatedCpuPlacement: true\n")
    result = CliRunner().invoke(main, ["build", "--catalog", str(catalog), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "error: series/u.yaml:12:5: spec.cpu.dedicatedCpuPlacement: unknown field 'dedicatedCpuPlacement'; "
        "did you mean 'dedicatedCPUPlacement'?",
        "citgen: 1 problem, nothing written",
    ]
    assert not (tmp_path / "out").exists()


def test_rendered_objects_that_fail_validation_are_refused_and_nothing_is_written(catalog, tmp_path):
    template = catalog / "templates" / "instancetype.yaml.j2"
    template.write_text(template.read_text() + "  annotationz: {}\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "CHECKSUMS.sha256").write_text("an earlier build\n")
    result = CliRunner().invoke(main, ["build", "--catalog", str(catalog), "--out", str(out)])
    assert result.exit_code == 2
    assert ("error: common-instancetypes-all-bundle.yaml#55 (u1.2xlarge) $.spec.annotationz: "
            "unknown field 'annotationz'; did you mean 'annotations'? (defined in series/u.yaml:1) [schema]"
            ) in result.output.splitlines()
    assert result.output.rstrip().endswith("problems, nothing written")
    assert [p.name for p in out.iterdir()] == ["CHECKSUMS.sha256"]
    assert (out / "CHECKSUMS.sha256").read_text() == "an earlier build\n"


def test_a_vendor_that_breaks_the_label_rules_is_refused(catalog, tmp_path):
    settings = catalog / "catalog.yaml"
    settings.write_text(settings.read_text().replace("vendor: kubevirt.io", "vendor: -acme-"))
    result = CliRunner().invoke(main, ["build", "--catalog", str(catalog), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: catalog.yaml:5:9: vendor: '-acme-' is not a valid label value: a valid label must be an empty "
        "string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
        "alphanumeric character\ncitgen: 1 problem, nothing written\n")


def test_a_deprecated_series_is_labelled_deprecated(catalog, tmp_path):
    series = catalog / "series" / "o.yaml"
    series.write_text(series.read_text() + "deprecated: true\n")
    result = CliRunner().invoke(main, ["build", "--catalog", str(catalog), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    docs = read_yaml_stream(tmp_path / "out" / "common-clusterinstancetypes-bundle.yaml")
    deprecated = {d["metadata"]["name"] for d in docs if d["metadata"]["labels"].get(label("deprecated")) == "true"}
    assert deprecated == {d["metadata"]["name"] for d in docs if d["metadata"]["name"].startswith("o1.")}
    assert len(deprecated) == 9
