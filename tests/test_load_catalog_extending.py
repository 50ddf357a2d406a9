"""A vendor catalog (``extends: builtin``): the built-in series and matrices under the vendor's settings.

Its own series and preferences come from overlays, so the folders of a full catalog
are refused; its overlays and GPU device are checked as a full catalog's are.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import InputError
from generator.load.catalog import load_catalog
from generator.model import Spelling
from generator.paths import builtin_catalog
from generator.problems import Location, Problem

FOLDER_REFUSED = ("{}/ is not read in a catalog that extends another; add series, size matrices, traits and "
                  "preferences through an overlay instead")


@pytest.fixture
def vendor(tmp_path: Path) -> Path:
    (tmp_path / "vendor").mkdir()
    return tmp_path / "vendor"


def load(root: Path, text: str):
    (root / "catalog.yaml").write_text(text)
    return load_catalog(root)


def problems_of(root: Path, text: str, extra: tuple[Problem, ...] = ()) -> list[str]:
    (root / "catalog.yaml").write_text(text)
    with pytest.raises(InputError) as caught:
        load_catalog(root, extra_problems=extra)
    return [str(p) for p in caught.value.problems]


def test_an_extending_catalog_is_the_builtin_series_and_matrices_under_its_root(vendor):
    builtin = load_catalog(builtin_catalog())
    loaded = load(vendor, "extends: builtin\n")
    assert (loaded.root, loaded.base) == (vendor, builtin_catalog())
    assert loaded.matrices == builtin.matrices
    assert loaded.series == builtin.series
    assert loaded.changes == ()


def test_an_extending_catalog_without_settings_inherits_the_builtin_ones(vendor):
    builtin = load_catalog(builtin_catalog()).settings
    settings = load(vendor, "extends: builtin\n").settings
    assert (settings.vendor, settings.version) == (builtin.vendor, builtin.version)
    assert (settings.parameters, settings.provider) == (builtin.parameters, builtin.provider)
    assert settings.spellings == builtin.spellings
    assert settings.location == Location("catalog.yaml", 1, 1, ())
    assert settings.overlays == ()


def test_an_extending_catalog_sets_its_own_vendor_and_keeps_the_builtin_version(vendor):
    settings = load(vendor, "extends: builtin\nvendor: acme.example.com\n").settings
    assert (settings.vendor, settings.version) == ("acme.example.com", load_catalog(builtin_catalog()).settings.version)


def test_an_extending_catalog_sets_its_own_spellings_and_gpu_device(vendor):
    settings = load(vendor, "extends: builtin\nparameters:\n  gpu: {deviceName: nvidia.com/A400}\n"
                            "spellings:\n  - field: spec.a\n    as: {spec.b: {value: 1}}\n").settings
    assert settings.parameters == {"gpu": {"deviceName": "nvidia.com/A400"}}
    assert [s.field for s in settings.spellings] == [("spec", "a")]
    assert isinstance(settings.spellings[0], Spelling)


def test_an_extending_catalog_overlays_are_joined_to_its_directory(vendor):
    (vendor / "mine.yaml").write_text("{}\n")
    assert load(vendor, "extends: builtin\noverlays: [mine.yaml]\n").settings.overlays == (vendor / "mine.yaml",)


@pytest.mark.parametrize("folder", ["series", "preferences"])
def test_an_extending_catalog_refuses_a_folder_it_would_not_read(vendor, folder):
    (vendor / folder).mkdir()
    assert problems_of(vendor, "extends: builtin\n") == [f"catalog.yaml:1:10: extends: {FOLDER_REFUSED.format(folder)}"]


def test_both_folders_are_refused_in_one_run(vendor):
    (vendor / "series").mkdir()
    (vendor / "preferences").mkdir()
    assert problems_of(vendor, "vendor: acme.example.com\nextends: builtin\n") == [
        f"catalog.yaml:2:10: extends: {FOLDER_REFUSED.format('preferences')}",
        f"catalog.yaml:2:10: extends: {FOLDER_REFUSED.format('series')}",
    ]


def test_files_named_like_the_folders_are_not_refused(vendor):
    (vendor / "series").write_text("")
    (vendor / "preferences").write_text("")
    assert load(vendor, "extends: builtin\n").base == builtin_catalog()


def test_a_missing_overlay_of_an_extending_catalog_is_refused(vendor):
    assert problems_of(vendor, "extends: builtin\noverlays: [gone.yaml]\n") == [
        f"catalog.yaml:2:12: overlays[0]: overlay file 'gone.yaml' not found in {vendor}"]


def test_a_gpu_count_without_a_device_in_an_extending_catalog_is_refused(vendor):
    assert problems_of(vendor, "extends: builtin\nparameters:\n  gpu: {count: 2}\n") == [
        "catalog.yaml:3:3: parameters.gpu: sets how many GPUs each GN instancetype gets, but no GPU device is "
        "configured, so GN is not built; set parameters.gpu.deviceName (nvidia.com/<model>) too"]


def test_every_problem_of_an_extending_catalog_is_reported_together(vendor):
    (vendor / "series").mkdir()
    extra = Problem(Location("--gpu-device"), "an option's problem")
    assert problems_of(vendor, "extends: builtin\noverlays: [gone.yaml]\nparameters:\n  gpu: {count: 2}\n",
                       (extra,)) == [
        "--gpu-device: an option's problem",
        f"catalog.yaml:1:10: extends: {FOLDER_REFUSED.format('series')}",
        f"catalog.yaml:2:12: overlays[0]: overlay file 'gone.yaml' not found in {vendor}",
        "catalog.yaml:4:3: parameters.gpu: sets how many GPUs each GN instancetype gets, but no GPU device is "
        "configured, so GN is not built; set parameters.gpu.deviceName (nvidia.com/<model>) too",
    ]


def test_an_extra_problem_alone_keeps_an_extending_catalog_from_loading(vendor):
    extra = Problem(Location("--gpu-device"), "an option's problem")
    assert problems_of(vendor, "extends: builtin\n", (extra,)) == ["--gpu-device: an option's problem"]


def test_a_catalog_yaml_that_extends_an_unknown_catalog_is_refused_for_that_alone(vendor):
    assert problems_of(vendor, "extends: other\n") == [
        "catalog.yaml:1:10: extends: expected builtin (the catalog that ships with citgen), got 'other'"]


@pytest.mark.parametrize("text, said", [
    ("extends: builtin\nvendor: 12\n", ["catalog.yaml:2:9: vendor: expected a string, got 12"]),
    ("extends: builtin\nbogus: 1\n", ["catalog.yaml:2:1: bogus: unknown key 'bogus'; expected one of: extends, "
                                      "osLabels, overlays, parameters, policy, provider, retired, spellings, vendor, version"]),
    ("extends: builtin\nvendor: a\nvendor: b\n", ["catalog.yaml:3:1: vendor: duplicate key 'vendor' (first at line 2)"]),
])
def test_a_mistake_in_an_extending_catalog_s_file_is_the_only_problem_said(vendor, text, said):
    assert problems_of(vendor, text) == said  # never a series/sizes.yaml it has no reason to have


def test_a_mistake_in_an_extending_catalog_s_file_is_said_with_its_overlays_own(vendor):
    assert problems_of(vendor, "extends: builtin\noverlays: [gone.yaml]\nvendor: 12\n") == [
        *problems_of(vendor, "extends: builtin\noverlays: [gone.yaml]\n"),
        "catalog.yaml:3:9: vendor: expected a string, got 12"]
