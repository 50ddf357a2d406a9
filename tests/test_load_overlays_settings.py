"""Overlay settings applied to the loaded model: vendor, version, labels, annotations, GPU, spellings, provider.

Each test applies one overlay file to the built-in catalog through ``apply_overlay`` and compares the
whole settings it yields (and the changes it records, with their overlay lines), or the exact problems.
"""

from __future__ import annotations

import textwrap
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.load.catalog import load_catalog
from generator.load.gpu import COUNT_WITHOUT_DEVICE
from generator.load.overlays import apply_overlay, load_overlay
from generator.load.preferences import load_preference_catalog
from generator.model import Catalog, PreferenceCatalog, Spelling
from generator.paths import builtin_catalog


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Overlays are named relative to a scratch directory, so messages read ``o.yaml:line:column``."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@lru_cache(maxsize=None)
def builtin() -> tuple[Catalog, PreferenceCatalog]:
    root = builtin_catalog()
    return load_catalog(root), load_preference_catalog(root)


def overlay(text: str, name: str = "o.yaml"):
    path = Path(name)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return load_overlay(path)


def applied(*texts: str, start: tuple[Catalog, PreferenceCatalog] | None = None) -> tuple[Catalog, PreferenceCatalog]:
    catalog, preferences = start or builtin()
    for i, text in enumerate(texts):
        catalog, preferences = apply_overlay(catalog, preferences, overlay(text, f"o{i or ''}.yaml"))
    return catalog, preferences


def problems(text: str) -> list[str]:
    catalog, preferences = builtin()
    with pytest.raises(InputError) as caught:
        apply_overlay(catalog, preferences, overlay(text))
    return [str(p) for p in caught.value.problems]


def changes(model: Catalog | PreferenceCatalog) -> list[tuple[tuple[str, str], str]]:
    return [(c.subject, str(c.location)) for c in model.changes]


# --------------------------------------------------------------------------- vendor, version, labels, annotations


def test_vendor_version_labels_and_annotations_replace_exactly_those_settings():
    catalog, preferences = applied("""\
        vendor: acme.example.com
        version: v2.0.0
        labels:
          example.com/team: vm
        annotations:
          example.com/b: "2"
          example.com/a: "1"
        """)
    before = builtin()[0].settings
    assert catalog.settings == replace(before, vendor="acme.example.com", version="v2.0.0",
                                       extra_labels={"example.com/team": "vm"},
                                       extra_annotations={"example.com/a": "1", "example.com/b": "2"})
    assert list(catalog.settings.extra_annotations) == ["example.com/a", "example.com/b"]
    assert changes(catalog) == [(("catalog", "vendor"), "o.yaml:1:1: vendor"),
                                (("catalog", "version"), "o.yaml:2:1: version"),
                                (("catalog", "labels"), "o.yaml:3:1: labels"),
                                (("catalog", "annotations"), "o.yaml:5:1: annotations")]
    assert preferences.changes == ()
    assert catalog.series == builtin()[0].series


def test_a_later_overlays_labels_and_annotations_are_merged_over_the_earlier_ones_sorted():
    catalog, _ = applied("labels: {example.com/z: one, example.com/k: one}\nannotations: {example.com/z: one}\n",
                         "labels: {example.com/k: two, example.com/a: two}\nannotations: {example.com/z: two}\n")
    assert catalog.settings.extra_labels == {"example.com/a": "two", "example.com/k": "two", "example.com/z": "one"}
    assert list(catalog.settings.extra_labels) == ["example.com/a", "example.com/k", "example.com/z"]
    assert catalog.settings.extra_annotations == {"example.com/z": "two"}


def test_an_overlay_without_labels_or_annotations_keeps_the_earlier_ones():
    catalog, _ = applied("labels: {example.com/k: one}\nannotations: {example.com/a: one}\n", "vendor: acme.io\n")
    assert catalog.settings == replace(builtin()[0].settings, vendor="acme.io", extra_labels={"example.com/k": "one"},
                                       extra_annotations={"example.com/a": "one"})


def test_every_bad_or_reserved_label_and_annotation_key_is_named_at_its_key():
    assert problems("""\
        labels:
          "bad key!": x
          instancetype.kubevirt.io/x: y
          "instancetype.kubevirt.io/bad key": z
        annotations:
          instancetype.kubevirt.io/description: x
          "worse key?": y
          iconClass: x
          openshift.io/support-url: y
          example.com/fine: z
        """) == [
        "o.yaml:2:3: labels.bad key!: 'bad key!' is not a valid label key: name part must consist of alphanumeric "
        "characters, '-', '_' or '.', and must start and end with an alphanumeric character; a key looks like "
        "example.com/team",
        "o.yaml:3:3: labels.instancetype.kubevirt.io/x: labels under instancetype.kubevirt.io/ are the catalog's "
        "own; set the vendor label with `vendor:` and leave the others to the catalog",
        "o.yaml:4:3: labels.instancetype.kubevirt.io/bad key: 'instancetype.kubevirt.io/bad key' is not a valid "
        "label key: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
        "with an alphanumeric character; a key looks like example.com/team",
        "o.yaml:4:3: labels.instancetype.kubevirt.io/bad key: labels under instancetype.kubevirt.io/ are the "
        "catalog's own; set the vendor label with `vendor:` and leave the others to the catalog",
        "o.yaml:6:3: annotations.instancetype.kubevirt.io/description: annotations under instancetype.kubevirt.io/ "
        "are the catalog's own (displayName and description come from the series or preference)",
        "o.yaml:7:3: annotations.worse key?: 'worse key?' is not a valid annotation key: name part must consist "
        "of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character; a "
        "key looks like example.com/team",
        "o.yaml:8:3: annotations.iconClass: the catalog sets annotation 'iconClass' itself; change it through "
        "preferences.change (iconClass)",
        "o.yaml:9:3: annotations.openshift.io/support-url: the catalog sets annotation 'openshift.io/support-url' "
        "itself; change it through provider.supportURL",
    ]


def test_a_label_named_like_a_reserved_annotation_is_a_label_of_the_vendors():
    catalog, _ = applied("labels:\n  iconClass: x\n  tags: y\n")
    assert catalog.settings.extra_labels == {"iconClass": "x", "tags": "y"}


def test_annotations_too_large_for_one_object_are_refused_at_the_annotations_key():
    value = "a" * (262144 - len("example.com/big"))
    assert applied(f"annotations:\n  example.com/big: {value}\n")[0].settings.extra_annotations == {
        "example.com/big": value}
    assert problems(f"annotations:\n  example.com/big: {value}a\n") == [
        "o.yaml:1:1: annotations: annotations take 262145 bytes (keys and values together), more than the 262144 "
        "bytes (256 KiB) the API server allows on one object"]


# --------------------------------------------------------------------------- GPU parameters


def test_a_gpu_device_is_set_and_recorded_on_every_gpu_series():
    catalog, _ = applied("parameters:\n  gpu: {deviceName: nvidia.com/L4}\n")
    assert catalog.settings == replace(builtin()[0].settings, parameters={"gpu": {"deviceName": "nvidia.com/L4"}})
    assert changes(catalog) == [(("catalog", "parameters"), "o.yaml:1:1: parameters"),
                                (("series", "gn1"), "o.yaml:2:8: parameters.gpu")]


def test_a_later_gpu_count_is_merged_with_the_earlier_device():
    catalog, _ = applied("parameters:\n  gpu: {deviceName: nvidia.com/L4, count: 1}\n",
                         "parameters:\n  gpu: {count: 3}\n")
    assert catalog.settings.parameters == {"gpu": {"deviceName": "nvidia.com/L4", "count": 3}}


def test_a_later_gpu_device_replaces_the_earlier_one():
    catalog, _ = applied("parameters:\n  gpu: {deviceName: nvidia.com/L4, count: 2}\n",
                         "parameters:\n  gpu: {deviceName: nvidia.com/A100}\n")
    assert catalog.settings.parameters == {"gpu": {"deviceName": "nvidia.com/A100", "count": 2}}


def test_a_gpu_series_of_a_variant_only_is_recorded_too():
    catalog, _ = applied("""\
        series:
          change:
            u:
              variants: {gpu: {gpus: true}}
        """, "parameters:\n  gpu: {deviceName: nvidia.com/L4}\n")
    assert changes(catalog)[-3:] == [(("catalog", "parameters"), "o1.yaml:1:1: parameters"),
                                     (("series", "gn1"), "o1.yaml:2:8: parameters.gpu"),
                                     (("series", "u1"), "o1.yaml:2:8: parameters.gpu")]


def test_a_gpu_count_without_any_device_is_refused_at_the_gpu_key():
    assert problems("parameters:\n  gpu: {count: 2}\n") == [f"o.yaml:2:3: parameters.gpu: {COUNT_WITHOUT_DEVICE}"]


def test_a_bad_gpu_device_is_refused_at_the_device_alone():
    assert problems("parameters:\n  gpu: {deviceName: bad name, count: 2}\n") == [
        "o.yaml:2:21: parameters.gpu.deviceName: expected an extended resource name: a domain such as nvidia.com, "
        "'/', and at most 63 letters, digits, '-', '_' or '.' starting and ending with a letter or digit (such as "
        "nvidia.com/A400), got 'bad name'"]


# --------------------------------------------------------------------------- spellings and provider


def test_spellings_replace_those_of_the_same_field_and_keep_the_others_first():
    catalog, _ = applied("""\
        spellings:
          - field: spec.cpu.spreadOptions
            as:
              spec.preferSpreadSocketToCoreRatio: {value: 2}
          - field: spec.devices.autoattachInputDevice
            as:
              spec.devices.preferredAutoattachInputDevice: {from: enabled}
        """)
    before = builtin()[0].settings.spellings
    fields = [s.field for s in catalog.settings.spellings]
    assert fields == [("spec", "firmware", "preferredEfi"), ("spec", "cpu", "preferredCPUTopology"),
                      ("spec", "cpu", "spreadOptions"), ("spec", "devices", "autoattachInputDevice")]
    assert catalog.settings.spellings[:2] == (before[0], before[2])
    replaced = catalog.settings.spellings[2]
    assert isinstance(replaced, Spelling) and replaced != before[1]
    assert str(replaced.location) == "o.yaml:2:5: spellings[0]"
    assert catalog.settings == replace(builtin()[0].settings, spellings=catalog.settings.spellings)


def test_provider_fields_are_merged_and_every_preference_is_recorded_at_the_provider_key():
    catalog, preferences = applied("provider:\n  displayName: Acme\n")
    before = builtin()
    assert catalog.settings == replace(before[0].settings, provider={
        "displayName": "Acme", "documentationURL": "https://github.com/kubevirt/common-instancetypes",
        "supportURL": "https://github.com/kubevirt/common-instancetypes/issues"})
    assert changes(catalog) == [(("catalog", "provider"), "o.yaml:1:1: provider")]
    assert changes(preferences) == [(("preference", name), "o.yaml:2:3: provider") for name in before[1].preferences]


def test_an_overlay_of_other_sections_leaves_the_settings_as_they_were():
    catalog, _ = applied("sizes:\n  drop: [nano]\n")
    assert catalog.settings is builtin()[0].settings
