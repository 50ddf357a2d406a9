"""The five generated bundles against upstream's, object by object and in order.

Allowed differences, all on purpose: the build-time version label, our own
description text, and the bare documentation and support URLs (upstream wraps
them in quotes and a newline). The default build holds no GN series: it is
built only with a GPU device (tests/test_gpu_opt_in.py), so the release
bundles are what virt-operator ships.
"""

from __future__ import annotations

import copy

import pytest

from generator.model import label
from tests.helpers import default_build, parse_stream, read_yaml_stream

URLS = ("openshift.io/documentation-url", "openshift.io/support-url")


def upstream_url(value: str) -> str:
    """What upstream ships for a URL: quoted, with a trailing newline (a known defect)."""
    return f'"{value}"\n'


def comparable(doc: dict) -> dict:
    doc = copy.deepcopy(doc)
    meta = doc["metadata"]
    meta["labels"].pop(label("common-instancetypes-version"), None)
    annotations = meta.get("annotations", {})
    annotations.pop(label("description"), None)
    for key in URLS:
        if key in annotations:
            annotations[key] = upstream_url(annotations[key])
    return doc


@pytest.mark.parametrize("bundle", [
    "common-clusterinstancetypes-bundle.yaml",
    "common-instancetypes-bundle.yaml",
    "common-clusterpreferences-bundle.yaml",
    "common-preferences-bundle.yaml",
    "common-instancetypes-all-bundle.yaml",
])
def test_bundle_matches_upstream_object_by_object(upstream_dir, bundle):
    expected = read_yaml_stream(upstream_dir / bundle)
    ours = parse_stream(default_build().bundles[bundle])
    assert [(d["kind"], d["metadata"]["name"]) for d in ours] == \
        [(d["kind"], d["metadata"]["name"]) for d in expected]
    for mine, theirs in zip(ours, expected):
        assert comparable(mine) == theirs, mine["metadata"]["name"]


def test_the_all_bundle_holds_exactly_upstreams_244_objects(upstream_dir):
    docs = parse_stream(default_build().bundles["common-instancetypes-all-bundle.yaml"])
    expected = read_yaml_stream(upstream_dir / "common-instancetypes-all-bundle.yaml")
    assert len(docs) == len(expected) == 244
    assert sorted((d["kind"], d["metadata"]["name"]) for d in docs) == \
        sorted((d["kind"], d["metadata"]["name"]) for d in expected)
    assert [comparable(d) for d in docs] == expected


def test_preference_urls_are_bare():
    docs = parse_stream(default_build().bundles["common-clusterpreferences-bundle.yaml"])
    for doc in docs:
        annotations = doc["metadata"]["annotations"]
        assert annotations["openshift.io/documentation-url"] == "https://github.com/kubevirt/common-instancetypes"
        assert annotations["openshift.io/support-url"] == "https://github.com/kubevirt/common-instancetypes/issues"

