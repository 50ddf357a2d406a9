"""generator/outputs/context.py: what every output producer is given, and the KubeVirt releases it serves."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from generator.model import Catalog, Settings
from generator.outputs.context import OutputContext
from generator.problems import Location
from generator.schemas.releases import Release, known, newest

CATALOG = Catalog(Path("catalog"), Settings("kubevirt.io", "v1.0.0", {}, {}, Location("catalog.yaml")), {}, ())
BUNDLES = {"common-instancetypes-all-bundle.yaml": ""}


def context(**given) -> OutputContext:
    return OutputContext(CATALOG, "v1.0.0", [], BUNDLES, **given)


def test_a_context_given_only_the_build_has_the_defaults_a_producer_falls_back_on():
    ctx = context()
    assert (ctx.helm_package, ctx.documents, ctx.texts) == (False, (), {})
    assert ctx.kubevirt == newest()


def test_each_context_has_its_own_texts_mapping():
    assert context().texts is not context().texts


def test_a_context_is_a_value_that_cannot_be_changed():
    with pytest.raises(dataclasses.FrozenInstanceError):
        context().version = "v2"  # type: ignore[misc]


def test_a_build_for_an_older_release_serves_every_release_up_to_and_including_it():
    assert context(kubevirt=Release(1, 3)).releases == (Release(1, 0), Release(1, 1), Release(1, 2), Release(1, 3))


def test_a_build_for_the_oldest_release_serves_that_release_alone():
    assert context(kubevirt=known()[0]).releases == (Release(1, 0),)


def test_a_build_for_the_newest_release_serves_every_known_release_oldest_first():
    releases = context().releases
    assert releases == known()
    assert list(releases) == sorted(releases) and releases[0] == Release(1, 0) and releases[-1] == newest()


def test_a_release_newer_than_any_known_serves_every_known_one_and_itself_not():
    assert context(kubevirt=Release(2, 0)).releases == known()


def test_a_release_older_than_any_known_serves_none():
    assert context(kubevirt=Release(0, 99)).releases == ()
