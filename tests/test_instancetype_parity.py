"""Parity with the real catalog: every upstream instancetype, generated identically.

Upstream's reference bundles lack the build-time version label and the
description annotation on purpose (see ../shared/reference/README.md); those are
the only differences allowed. GN is compared with its last release.
"""

from __future__ import annotations

import copy

import pytest

from generator.model import label
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


def test_nothing_but_upstream_and_gn_is_generated(upstream_dir):
    upstream = by_name(read_yaml_stream(upstream_dir / "common-clusterinstancetypes-bundle.yaml"))
    gn = by_name(read_yaml_stream(upstream_dir / "gn-series.yaml"))
    for kind in ("VirtualMachineClusterInstancetype", "VirtualMachineInstancetype"):
        assert sorted(generated(kind)) == sorted([*upstream, *gn])


def test_gn_matches_its_last_release_with_the_default_gpu(upstream_dir):
    gn = by_name(read_yaml_stream(upstream_dir / "gn-series.yaml"))
    ours = generated("VirtualMachineClusterInstancetype")
    assert sorted(gn) == ["gn1.2xlarge", "gn1.4xlarge", "gn1.8xlarge", "gn1.xlarge"]
    for name, expected in gn.items():
        assert comparable(ours[name]) == expected
        assert ours[name]["metadata"]["labels"][label("gpus")] == "true"


def test_every_object_carries_the_version_label_and_a_description():
    for doc in default_build().documents:
        meta = doc.data["metadata"]
        assert meta["labels"][VERSION_LABEL] == default_build().version
        if doc.data["kind"].endswith("Instancetype"):
            assert meta["annotations"][DESCRIPTION].strip()
