"""The collector may be paused during a build because a build makes no reference cycles.

A build that made cyclic garbage per object would grow without bound while
the collector is paused; these tests pin that it makes only the few loops of
its Jinja environments, the same number whatever the catalog's size.
"""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from generator.pipeline import BuildOptions, generate, rule_context
from generator.runtime.gcpause import paused_collector
from generator.source.documents import read_bundles
from generator.validate import validate_documents
from tests.helpers import REPO, default_build

#: What one build's Jinja environments (bundles, kustomize, Helm) leave in loops.
FEW = 300


def cyclic_garbage(run) -> int:
    """Objects only the cyclic collector could free, left by ``run()``."""
    gc.collect()
    gc.disable()
    try:
        run()
        return gc.collect()
    finally:
        gc.enable()


def garbage_of_build(catalog: Path | None) -> tuple[int, int]:
    """(objects in loops after a build, documents built) for a catalog."""
    options = BuildOptions(catalog=catalog, helm_package=True)
    documents = len(generate(options).documents)  # the first build also fills caches that live on
    return cyclic_garbage(lambda: generate(options)), documents


def test_a_build_leaves_a_few_objects_in_loops_whatever_the_catalog_size():
    builtin, builtin_documents = garbage_of_build(None)
    gpu_cloud, gpu_cloud_documents = garbage_of_build(REPO / "examples" / "gpu-cloud")
    assert builtin_documents != gpu_cloud_documents
    assert builtin == gpu_cloud < FEW


def test_reading_and_validating_a_bundle_leaves_nothing_in_loops(tmp_path: Path):
    bundle = tmp_path / "all.yaml"
    bundle.write_text(default_build().bundles["common-instancetypes-all-bundle.yaml"])
    assert cyclic_garbage(lambda: validate_documents(read_bundles([bundle]), rule_context())) == 0


def test_the_collector_is_paused_inside_and_restored_after():
    assert gc.isenabled()
    with paused_collector():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off():
    gc.disable()
    try:
        with paused_collector():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_an_error_inside_still_restores_the_collector():
    with pytest.raises(ValueError), paused_collector():
        raise ValueError("boom")
    assert gc.isenabled()
