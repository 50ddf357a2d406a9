"""Loading series and size matrices: the model it yields and the errors it reports."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.load.catalog import load_catalog
from generator.paths import builtin_catalog
from tests.helpers import copy_catalog


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    """A writable copy of the built-in catalog."""
    return copy_catalog(tmp_path / "catalog")


def messages(root: Path) -> list[str]:
    with pytest.raises(InputError) as caught:
        load_catalog(root)
    return [str(p) for p in caught.value.problems]


def test_the_builtin_catalog_has_the_eight_series():
    loaded = load_catalog(builtin_catalog())
    assert sorted(s.name for s in loaded.series) == ["cx1", "d1", "gn1", "m1", "n1", "o1", "rt1", "u1"]
    cx = next(s for s in loaded.series if s.prefix == "cx")
    assert cx.ratio == Fraction(2)
    assert cx.sizes == ("medium", "large", "xlarge", "2xlarge", "4xlarge", "8xlarge")
    assert [v.suffix for v in cx.variants] == ["1gi"]


def test_a_misspelt_key_names_file_line_column_and_the_closest_key(catalog):
    (catalog / "series" / "u.yaml").write_text(
        "prefix: u\nversion: 1\nclass: general.purpose\ndisplayName: U\ndescription: d\n"
        "icon: pficon-server-group\nratio: '1:4'\nfeatures:\n  hugepage: 2Mi\n")
    assert messages(catalog) == [
        "series/u.yaml:9:3: features.hugepage: unknown key 'hugepage' (did you mean 'hugepages'?); "
        "expected one of: dedicatedCPUPlacement, gpus, hugepages, isolateEmulatorThread, "
        "maxSocketsMatchVCPUs, numa, overcommitPercent, realtime"
    ]


def test_every_broken_file_is_reported_in_one_run(catalog):
    (catalog / "series" / "o.yaml").write_text("prefix: o\nversion: 0\n")
    sizes = (catalog / "series" / "sizes.yaml").read_text().replace("medium: 1\n", "medium: -1\n", 1)
    (catalog / "series" / "sizes.yaml").write_text(sizes)
    found = messages(catalog)
    assert "series/o.yaml:2:10: version: expected a number at least 1, got 0" in found
    for key in ("class", "description", "displayName", "icon", "ratio"):
        assert f"series/o.yaml:1:1: missing required key '{key}'" in found
    assert "series/sizes.yaml:13:13: matrices.standard.medium: expected a number at least 1, got -1" in found


@pytest.mark.parametrize("memory", ["4GB", "-1Gi", "1.5.2Gi"])
def test_an_invalid_quantity_is_located(catalog, memory):
    sizes = (catalog / "series" / "sizes.yaml").read_text().replace("memory: 512Mi", f"memory: {memory}")
    (catalog / "series" / "sizes.yaml").write_text(sizes)
    [message] = messages(catalog)
    assert message.startswith("series/sizes.yaml:10:28: matrices.standard.nano.memory: ")
    assert memory in message or "greater than zero" in message


def test_a_ratio_that_does_not_parse(catalog):
    text = (catalog / "series" / "m.yaml").read_text().replace('ratio: "1:8"', "ratio: one to eight")
    (catalog / "series" / "m.yaml").write_text(text)
    assert messages(catalog) == [
        "series/m.yaml:9:8: ratio: expected a vCPU:memory ratio in GiB such as \"1:4\", got 'one to eight'"
    ]


def test_a_size_not_in_the_matrix(catalog):
    text = (catalog / "series" / "m.yaml").read_text().replace("{from: large}", "{from: huge}")
    (catalog / "series" / "m.yaml").write_text(text)
    [message] = messages(catalog)
    assert message.startswith("series/m.yaml:10:15: sizes.from: size 'huge' is not in size matrix 'standard'")


def test_an_undefined_matrix(catalog):
    text = (catalog / "series" / "n.yaml").read_text().replace("matrix: network", "matrix: netwrok")
    (catalog / "series" / "n.yaml").write_text(text)
    assert messages(catalog) == [
        "series/n.yaml:11:9: matrix: size matrix 'netwrok' is not defined in series/sizes.yaml "
        "(defined: network, standard)"
    ]


def test_malformed_yaml_is_located(catalog):
    (catalog / "series" / "d.yaml").write_text("prefix: d\nversion: [1\n")
    [message] = messages(catalog)
    assert message.startswith("series/d.yaml:3:1: malformed YAML: ")


def test_not_a_catalog_directory(tmp_path):
    assert messages(tmp_path) == [f"{tmp_path}: not a catalog directory: catalog.yaml is missing"]
