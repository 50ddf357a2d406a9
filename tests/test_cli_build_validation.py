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
        "series/u.yaml:12:5: error: spec.cpu.dedicatedCpuPlacement: unknown field 'dedicatedCpuPlacement'; "
        "did you mean 'dedicatedCPUPlacement'? [input]",
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
    assert ("common-instancetypes-all-bundle.yaml: error: VirtualMachineClusterInstancetype u1.2xlarge (document 55) "
            "$.spec.annotationz: "
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
        "catalog.yaml:5:9: error: vendor: '-acme-' is not a valid label value: a valid label must be an empty "
        "string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
        "alphanumeric character [input]\ncitgen: 1 problem, nothing written\n")


def test_a_deprecated_series_is_labelled_deprecated(catalog, tmp_path):
    series = catalog / "series" / "o.yaml"
    series.write_text(series.read_text() + "deprecated: true\n")
    result = CliRunner().invoke(main, ["build", "--catalog", str(catalog), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    docs = read_yaml_stream(tmp_path / "out" / "common-clusterinstancetypes-bundle.yaml")
    deprecated = {d["metadata"]["name"] for d in docs if d["metadata"]["labels"].get(label("deprecated")) == "true"}
    assert deprecated == {d["metadata"]["name"] for d in docs if d["metadata"]["name"].startswith("o1.")}
    assert len(deprecated) == 9


def test_a_deprecation_with_since_and_replacement_is_written_beside_the_label_and_validates(catalog, tmp_path):
    series = catalog / "series" / "o.yaml"
    series.write_text(series.read_text() + "deprecated: {since: v1.9.0, replacement: u1}\n"
                                           "deprecatedSizes: {nano: {replacement: u1.micro}}\n")
    family = catalog / "preferences" / "cirros.yaml"
    family.write_text("deprecated: {since: v1.9.0}\n" + family.read_text().replace(
        "  cirros:\n", "  cirros:\n    deprecated: {replacement: alpine}\n", 1))
    result = CliRunner().invoke(main, ["build", "--catalog", str(catalog), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "out" / "common-clusterinstancetypes-bundle.yaml").read_text()
    [nano] = [document for document in text.split("---\n") if "\n  name: o1.nano\n" in document]
    assert nano == (
        "apiVersion: instancetype.kubevirt.io/v1beta1\n"
        "kind: VirtualMachineClusterInstancetype\n"
        "metadata:\n"
        "  annotations:\n"
        "    instancetype.kubevirt.io/deprecated-replacement: u1.micro\n"
        "    instancetype.kubevirt.io/deprecated-since: v1.9.0\n"
        "    instancetype.kubevirt.io/description: >-\n"
        "      Like general purpose, but the guest sees twice the memory the host sets aside for it, so more VMs "
        "fit on\n"
        "      a node. For workloads that rarely touch all of their memory at once.\n"
        "    instancetype.kubevirt.io/displayName: Overcommitted\n"
        "  labels:\n"
        "    instancetype.kubevirt.io/class: overcommitted\n"
        "    instancetype.kubevirt.io/common-instancetypes-version: v1.8.0-dev\n"
        "    instancetype.kubevirt.io/cpu: '1'\n"
        "    instancetype.kubevirt.io/deprecated: 'true'\n"
        "    instancetype.kubevirt.io/icon-pf: pficon-virtual-machine\n"
        "    instancetype.kubevirt.io/memory: 512Mi\n"
        "    instancetype.kubevirt.io/size: nano\n"
        "    instancetype.kubevirt.io/vendor: kubevirt.io\n"
        "    instancetype.kubevirt.io/version: '1'\n"
        "  name: o1.nano\n"
        "spec:\n"
        "  cpu:\n"
        "    guest: 1\n"
        "  memory:\n"
        "    guest: 512Mi\n"
        "    overcommitPercent: 50\n")
    docs = read_yaml_stream(tmp_path / "out" / "common-preferences-bundle.yaml")
    cirros = next(d for d in docs if d["metadata"]["name"] == "cirros")
    assert (cirros["metadata"]["annotations"][label("deprecated-since")],
            cirros["metadata"]["annotations"][label("deprecated-replacement")],
            cirros["metadata"]["labels"][label("deprecated")]) == ("v1.9.0", "alpine", "true")
