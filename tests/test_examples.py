"""The vendor catalogs under examples/ build, validate and render like the built-in catalog.

Each example is built twice, through the pipeline and through `citgen build`;
its kustomize tree is built with real kustomize (`kubectl kustomize`) and its
Helm chart rendered with Helm's own engine (helm-python-sdk), and both must
give exactly the example's all-bundle. Absent tools skip, except under CI.
"""

from __future__ import annotations

import os
import subprocess
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from generator.cli import main
from generator.model import label
from generator.pipeline import Build, BuildOptions, generate
from tests.helpers import REPO, kubectl, parse_stream

EXAMPLES = REPO / "examples"
NAMES = sorted(p.name for p in EXAMPLES.iterdir() if (p / "catalog.yaml").is_file())
ALL = "common-instancetypes-all-bundle.yaml"


@lru_cache(maxsize=None)
def example_build(name: str) -> Build:
    return generate(BuildOptions(catalog=EXAMPLES / name))


def instancetypes(name: str) -> dict[str, Any]:
    return {o.name: o for o in example_build(name).objects if o.family == "instancetype"}


def preferences(name: str) -> dict[str, Any]:
    return {o.name: o for o in example_build(name).objects if o.family == "preference"}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each example written by `citgen build --catalog examples/<name>`."""
    outputs = {}
    for name in NAMES:
        out = tmp_path_factory.mktemp(name) / "out"
        result = CliRunner().invoke(main, ["build", "--catalog", str(EXAMPLES / name), "--out", str(out)])
        assert result.exit_code == 0, result.output
        outputs[name] = out
    return outputs


def test_there_are_at_least_two_examples_each_with_a_readme():
    assert {"edge", "gpu-cloud"} <= set(NAMES)
    for name in NAMES:
        assert (EXAMPLES / name / "README.md").is_file()
        assert yaml.safe_load((EXAMPLES / name / "catalog.yaml").read_text())["extends"] == "builtin"


@pytest.mark.parametrize("name", NAMES)
def test_an_example_builds_and_validates_clean_under_its_vendor_label(name: str):
    build = example_build(name)
    assert build.problems == ()
    vendor = yaml.safe_load((EXAMPLES / name / "catalog.yaml").read_text())["vendor"]
    assert {o.labels[label("vendor")] for o in build.objects} == {vendor}


@pytest.mark.parametrize("name", NAMES)
def test_the_cli_writes_the_same_bundles(name: str, built: dict[str, Path]):
    out = built[name]
    for bundle, text in example_build(name).bundles.items():
        assert (out / bundle).read_text() == text


def test_the_gpu_cloud_has_gn_sizes_for_its_own_gpus_and_a_1_to_16_class():
    found = instancetypes("gpu-cloud")
    gn = sorted(n for n in found if n.startswith("gn1."))
    assert gn == ["gn1.2xlarge", "gn1.4xlarge", "gn1.8xlarge"]
    assert found["gn1.2xlarge"].spec["gpus"] == [{"name": "gpu1", "deviceName": "nvidia.com/L40S"},
                                                 {"name": "gpu2", "deviceName": "nvidia.com/L40S"}]
    assert found["gn1.2xlarge"].spec["memory"]["guest"] == "64Gi"
    hm = {n: o for n, o in found.items() if n.startswith("hm1.")}
    assert sorted(hm) == ["hm1.2xlarge", "hm1.4xlarge", "hm1.large", "hm1.xlarge"]
    assert all(o.facts["memory"] == o.facts["cpu"] * 16 * 2**30 for o in hm.values())
    assert not [n for n in found if n.startswith("rt1.")]
    assert preferences("gpu-cloud")["ubuntu.cuda"].spec["requirements"] == {"cpu": {"guest": 4},
                                                                            "memory": {"guest": "16Gi"}}


def test_the_edge_vendor_keeps_small_sizes_of_u_and_o_only():
    found = instancetypes("edge")
    assert {o.facts["series"] for o in found.values()} == {"u1", "o1"}
    assert max(o.facts["cpu"] for o in found.values()) == 2
    assert found["o1.large"].spec["memory"]["overcommitPercent"] == 100
    assert len(preferences("edge")) == 8


def documents(text: str) -> list[dict]:
    return parse_stream(text)


@pytest.mark.parametrize("name", NAMES)
def test_the_kustomize_tree_builds_the_all_bundle(name: str, built: dict[str, Path]):
    root = built[name] / "kustomize"
    if not (root / "kustomization.yaml").is_file():
        pytest.skip("this build writes no kustomize tree")
    run = subprocess.run([kubectl(), "kustomize", str(root)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert documents(run.stdout) == documents(example_build(name).bundles[ALL])


@pytest.mark.parametrize("name", NAMES)
def test_the_helm_chart_renders_the_all_bundle(name: str, built: dict[str, Path]):
    chart = built[name] / "helm" / "common-instancetypes"
    if not (chart / "Chart.yaml").is_file():
        pytest.skip("this build writes no Helm chart")
    try:
        import helm_python
    except ImportError:  # pragma: no cover - depends on the test environment
        if os.environ.get("CI") == "true":
            pytest.fail("helm-python-sdk is required under CI")
        pytest.skip("helm-python-sdk is not installed")
    with helm_python.Chart.load(str(chart)) as loaded:
        rendered = loaded.render({}, name="catalog", namespace="vms")
    notes = "common-instancetypes/templates/NOTES.txt"  # printed after an install, not a manifest
    docs = [d for name, text in rendered.items() if name != notes for d in parse_stream(text)]
    assert docs == documents(example_build(name).bundles[ALL])
