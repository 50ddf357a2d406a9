"""generator/render/bundles.py: every object rendered as each of its kinds, and the five bundle texts."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.model import Catalog, CatalogObject, Settings
from generator.paths import builtin_catalog
from generator.problems import Location
from generator.render.bundles import ALL_BUNDLE, ALL_ORDER, BUNDLES, render_bundles

CLUSTER_IT, IT = "VirtualMachineClusterInstancetype", "VirtualMachineInstancetype"
CLUSTER_PREF, PREF = "VirtualMachineClusterPreference", "VirtualMachinePreference"

FILES = ["common-clusterinstancetypes-bundle.yaml", "common-instancetypes-bundle.yaml",
         "common-clusterpreferences-bundle.yaml", "common-preferences-bundle.yaml",
         "common-instancetypes-all-bundle.yaml"]


def catalog(root: Path) -> Catalog:
    settings = Settings("kubevirt.io", "v1.0.0", {}, {}, Location("catalog.yaml"))
    return Catalog(root, settings, {}, ())


def instancetype(name: str, cpu: int = 1) -> CatalogObject:
    return CatalogObject("instancetype", name, name.split(".")[0], {"instancetype.kubevirt.io/cpu": str(cpu)}, {},
                         {"cpu": {"guest": cpu}}, Location("series/u.yaml"))


def preference(name: str, only_kinds: tuple[str, ...] = ()) -> CatalogObject:
    return CatalogObject("preference", name, name, {}, {"instancetype.kubevirt.io/os-type": "linux"},
                         {"devices": {"preferredDiskBus": "virtio"}}, Location("preferences/fedora.yaml"),
                         only_kinds=only_kinds)


def it_text(kind: str, name: str, cpu: int = 1, first_line: str = "") -> str:
    """The built-in template's text for ``instancetype(name, cpu)`` as ``kind``."""
    return (f"{first_line}---\napiVersion: instancetype.kubevirt.io/v1beta1\nkind: {kind}\nmetadata:\n"
            f"  annotations: {{}}\n  labels:\n    instancetype.kubevirt.io/cpu: '{cpu}'\n  name: {name}\n"
            f"spec:\n  cpu:\n    guest: {cpu}\n")


def pref_text(kind: str, name: str) -> str:
    """The built-in template's text for ``preference(name)`` as ``kind``."""
    return (f"---\napiVersion: instancetype.kubevirt.io/v1beta1\nkind: {kind}\nmetadata:\n  annotations:\n"
            f"    instancetype.kubevirt.io/os-type: linux\n  labels: {{}}\n  name: {name}\n"
            "spec:\n  devices:\n    preferredDiskBus: virtio\n")


def test_the_bundle_file_names_and_the_all_bundles_order_are_what_virt_operator_expects():
    assert BUNDLES == {CLUSTER_IT: "common-clusterinstancetypes-bundle", IT: "common-instancetypes-bundle",
                       CLUSTER_PREF: "common-clusterpreferences-bundle", PREF: "common-preferences-bundle"}
    assert ALL_BUNDLE == "common-instancetypes-all-bundle"
    assert ALL_ORDER == (CLUSTER_IT, CLUSTER_PREF, IT, PREF)


def test_each_object_is_rendered_as_each_of_its_kinds_in_the_order_given(tmp_path):
    r = render_bundles(catalog(tmp_path), [instancetype("u1.small", 1), preference("fedora"),
                                           instancetype("u1.medium", 2)])
    assert dict(r.by_kind) == {
        CLUSTER_IT: [it_text(CLUSTER_IT, "u1.small", 1), it_text(CLUSTER_IT, "u1.medium", 2)],
        IT: [it_text(IT, "u1.small", 1), it_text(IT, "u1.medium", 2)],
        CLUSTER_PREF: [pref_text(CLUSTER_PREF, "fedora")],
        PREF: [pref_text(PREF, "fedora")],
    }


def test_each_kinds_bundle_is_its_documents_joined_and_the_all_bundle_puts_cluster_kinds_first(tmp_path):
    r = render_bundles(catalog(tmp_path), [instancetype("u1.small", 1), preference("fedora"),
                                           instancetype("u1.medium", 2)])
    assert list(r.bundles) == FILES
    assert r.bundles["common-clusterinstancetypes-bundle.yaml"] == (it_text(CLUSTER_IT, "u1.small", 1)
                                                                     + it_text(CLUSTER_IT, "u1.medium", 2))
    assert r.bundles["common-instancetypes-bundle.yaml"] == it_text(IT, "u1.small", 1) + it_text(IT, "u1.medium", 2)
    assert r.bundles["common-clusterpreferences-bundle.yaml"] == pref_text(CLUSTER_PREF, "fedora")
    assert r.bundles["common-preferences-bundle.yaml"] == pref_text(PREF, "fedora")
    assert r.bundles["common-instancetypes-all-bundle.yaml"] == (
        it_text(CLUSTER_IT, "u1.small", 1) + it_text(CLUSTER_IT, "u1.medium", 2) + pref_text(CLUSTER_PREF, "fedora")
        + it_text(IT, "u1.small", 1) + it_text(IT, "u1.medium", 2) + pref_text(PREF, "fedora"))


def test_a_kind_without_objects_has_no_documents_and_an_empty_bundle(tmp_path):
    r = render_bundles(catalog(tmp_path), [instancetype("u1.small")])
    assert dict(r.by_kind) == {CLUSTER_IT: [it_text(CLUSTER_IT, "u1.small")], IT: [it_text(IT, "u1.small")],
                               CLUSTER_PREF: [], PREF: []}
    assert r.bundles["common-clusterpreferences-bundle.yaml"] == ""
    assert r.bundles["common-preferences-bundle.yaml"] == ""
    assert r.bundles["common-instancetypes-all-bundle.yaml"] == it_text(CLUSTER_IT, "u1.small") + it_text(IT,
                                                                                                           "u1.small")


def test_no_objects_make_five_empty_bundles(tmp_path):
    r = render_bundles(catalog(tmp_path), [])
    assert dict(r.by_kind) == {CLUSTER_IT: [], IT: [], CLUSTER_PREF: [], PREF: []}
    assert r.bundles == dict.fromkeys(FILES, "")


def test_an_object_kept_in_one_kind_only_is_rendered_in_that_kind_only(tmp_path):
    r = render_bundles(catalog(tmp_path), [preference("fedora"), preference("centos", only_kinds=(PREF,))])
    assert dict(r.by_kind) == {CLUSTER_IT: [], IT: [], CLUSTER_PREF: [pref_text(CLUSTER_PREF, "fedora")],
                               PREF: [pref_text(PREF, "fedora"), pref_text(PREF, "centos")]}
    assert r.bundles["common-instancetypes-all-bundle.yaml"] == (
        pref_text(CLUSTER_PREF, "fedora") + pref_text(PREF, "fedora") + pref_text(PREF, "centos"))


def test_the_built_in_catalog_renders_with_its_own_templates():
    r = render_bundles(catalog(builtin_catalog()), [instancetype("u1.small"), preference("fedora")])
    assert r.by_kind[IT] == [it_text(IT, "u1.small")]
    assert r.by_kind[PREF] == [pref_text(PREF, "fedora")]


def test_a_catalogs_own_template_wins_and_the_built_in_one_stands_in_for_the_one_it_lacks(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "instancetype.yaml.j2").write_text(
        "# a vendor's template\n---\napiVersion: {{ api_version }}\nkind: {{ kind }}\nmetadata:\n"
        "  annotations:{{ annotations | yaml_block(4) }}\n  labels:{{ labels | yaml_block(4) }}\n"
        "  name: {{ name | yaml_scalar }}\nspec:{{ spec | yaml_block(2) }}\n", encoding="utf-8")
    r = render_bundles(catalog(tmp_path), [instancetype("u1.small"), preference("fedora")])
    assert r.by_kind[CLUSTER_IT] == [it_text(CLUSTER_IT, "u1.small", first_line="# a vendor's template\n")]
    assert r.by_kind[CLUSTER_PREF] == [pref_text(CLUSTER_PREF, "fedora")]


def test_a_templates_folder_that_cannot_be_read_is_refused_rather_than_passed_over(tmp_path):
    os.symlink(tmp_path / "templates", tmp_path / "templates")  # a link to itself: stat fails with ELOOP
    with pytest.raises(InputError) as raised:
        render_bundles(catalog(tmp_path), [instancetype("u1.small")])
    assert str(raised.value) == "templates: is a symbolic link loop: following its links never reaches a file"
