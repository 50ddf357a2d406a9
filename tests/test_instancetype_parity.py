"""Parity with the real catalog: every upstream instancetype, generated identically.

Upstream's reference bundles lack the build-time version label and the
description annotation on purpose (see ../shared/reference/README.md); those are
the only differences allowed. GN, built only with a GPU device, is compared
with its last release.
"""

from __future__ import annotations

import copy

import pytest

from generator.model import label
from generator.pipeline import BuildOptions, generate
from tests.helpers import by_name, default_build, read_yaml_stream

VERSION_LABEL = label("common-instancetypes-version")
DESCRIPTION = label("description")


def comparable(doc: dict) -> dict:
    """The object without what the reference data leaves out on purpose."""
    doc = copy.deepcopy(doc)
    doc["metadata"]["labels"].pop(VERSION_LABEL, None)
    doc["metadata"].get("annotations", {}).pop(DESCRIPTION, None)
    return doc


def generated(kind: str) -> dict[str, dict]:
    return by_name([d.data for d in default_build().documents], kind)


@pytest.mark.parametrize(
    ("bundle", "kind"),
    [
        ("common-clusterinstancetypes-bundle.yaml", "VirtualMachineClusterInstancetype"),
        ("common-instancetypes-bundle.yaml", "VirtualMachineInstancetype"),
    ],
)
def test_every_upstream_instancetype_is_generated_identically(upstream_dir, bundle, kind):
    upstream = by_name(read_yaml_stream(upstream_dir / bundle))
    ours = generated(kind)
    assert len(upstream) == 65
    for name, expected in upstream.items():
        assert name in ours, f"{name} is missing"
        assert comparable(ours[name]) == expected, name


def test_nothing_but_upstream_is_generated_by_default(upstream_dir):
    upstream = by_name(read_yaml_stream(upstream_dir / "common-clusterinstancetypes-bundle.yaml"))
    for kind in ("VirtualMachineClusterInstancetype", "VirtualMachineInstancetype"):
        assert sorted(generated(kind)) == sorted(upstream)


def test_with_a_gpu_device_gn_matches_its_last_release_object_for_object(upstream_dir):
    upstream = by_name(read_yaml_stream(upstream_dir / "common-clusterinstancetypes-bundle.yaml"))
    gn = by_name(read_yaml_stream(upstream_dir / "gn-series.yaml"))
    build = generate(BuildOptions(gpu_device="nvidia.com/A400", gpu_count=1))
    assert build.problems == ()
    assert sorted(gn) == ["gn1.2xlarge", "gn1.4xlarge", "gn1.8xlarge", "gn1.xlarge"]
    for kind in ("VirtualMachineClusterInstancetype", "VirtualMachineInstancetype"):
        ours = by_name([d.data for d in build.documents], kind)
        assert sorted(ours) == sorted([*upstream, *gn])
        for name, expected in gn.items():
            assert comparable(ours[name]) == {**expected, "kind": kind}
            assert ours[name]["metadata"]["labels"][label("gpus")] == "true"


def test_every_object_carries_the_version_label_and_a_description():
    for doc in default_build().documents:
        meta = doc.data["metadata"]
        assert meta["labels"][VERSION_LABEL] == default_build().version
        if doc.data["kind"].endswith("Instancetype"):
            assert meta["annotations"][DESCRIPTION].strip()
