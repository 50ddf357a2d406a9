"""What the cluster will have (tools/refs/target.py): the one loading path, and names looked up as KubeVirt does."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.problems import Location
from generator.schemas.releases import Release
from generator.tools.refs.model import Definition, Owner, Reference
from generator.source.documents import BundleDoc
from generator.tools.refs.target import (Resolution, Resolver, Target, _described, family_of, matcher_kind,
                                         target_at, target_objects)
from tests.conftest import SHARED, shared_file
from tests.helpers import NEXT_RELEASE, default_build

V1_0_0 = SHARED / "reference" / "releases" / "v1.0.0-common-instancetypes-all-bundle.yaml"
EDGE = Path(__file__).parent.parent / "examples" / "edge"
BUNDLE = Path(__file__).parent.parent / "bundles" / "common-instancetypes-all-bundle.yaml"
WEB = Owner("vm.yaml#0", "VirtualMachine", "web", "shop")


def test_the_default_target_is_what_citgen_build_ships():
    target = target_objects()
    assert target.objects == [doc.data for doc in default_build().documents]
    assert (target.described, target.kubevirt, dict(target.left_out)) == ("the built-in catalog", None, {})
    assert ("preference", "centos.8.stream") in target.lifecycle


def test_a_published_bundle_is_read_as_it_is():
    target = target_objects(bundles=(shared_file(V1_0_0),))
    assert len(target.documents) == 142 and target.retirements == {}
    assert target.described == f"bundle {V1_0_0}"
    assert target.get("VirtualMachineClusterPreference", "centos.stream8") is not None


def test_the_build_for_a_release_says_what_it_left_out(tmp_path):
    overlay = tmp_path / "o.yaml"
    overlay.write_text(textwrap.dedent(NEXT_RELEASE))
    target = target_objects(overlays=(overlay,), kubevirt=Release(1, 8))
    assert (target.described, target.kubevirt) == (f"the build for KubeVirt v1.8 of the built-in catalog with overlay "
                                                   f"{overlay}", Release(1, 8))
    assert "alpine.edge" in target.names["preference"]
    assert sorted(target.left_out) == [("preference", "fedora.s390x.secex"), ("preference", "rhel.10.s390x.secex"),
                                       ("preference", "rhel.9.s390x.secex")]
    assert {a.name for a in target.left_out.values()} == {"fedora.s390x.secex", "rhel.10.s390x.secex",
                                                         "rhel.9.s390x.secex"}
    assert target.get("VirtualMachineClusterPreference", "fedora.s390x.secex") is None


def test_bundles_beside_a_build_s_options_are_refused():
    with pytest.raises(InputError) as refused:
        target_objects(catalog=Path("catalog"), kubevirt=Release(1, 8), bundles=(Path("b.yaml"),))
    assert [str(p) for p in refused.value.problems] == [
        "--catalog: --catalog, --kubevirt choose a build, and --bundle names objects already built; give one or "
        "the other"]


def test_a_side_of_an_upgrade_is_a_bundle_a_build_folder_or_a_catalog(previous_output, tmp_path):
    assert target_at(shared_file(V1_0_0), "--from").described == f"bundle {V1_0_0}"
    assert target_at(previous_output, "--from").objects == target_objects().objects
    edge = target_at(EDGE, "--to")
    assert edge.described == f"catalog {EDGE}"
    assert {o["metadata"]["labels"]["instancetype.kubevirt.io/vendor"] for o in edge.objects} == {"edge.example.net"}
    assert ("preference", "centos.7") in edge.retirements
    with pytest.raises(InputError) as missing:
        target_at(tmp_path / "nowhere", "--to")
    assert str(missing.value) == f"{tmp_path / 'nowhere'}: no such file or folder (given as --to)"


def reference(kind: str | None, name: str, owner: Owner = WEB) -> Reference:
    return Reference("preference", name, kind, owner, Location("vm.yaml", 9, 11), "spec.preference")


def test_an_object_the_manifests_define_comes_before_the_targets_own():
    mine = Definition("preference", "VirtualMachinePreference", "fedora", "shop", Location("defs.yaml", 15, 9))
    resolver = Resolver(target_objects(), (mine,))
    found = resolver.resolve(reference("virtualMachinePreference", "fedora"))
    assert (found.kind, found.local, found.found) == ("VirtualMachinePreference", mine, None)
    elsewhere = resolver.resolve(reference("virtualMachinePreference", "fedora", Owner("x", "VirtualMachine", "a", "b")))
    assert elsewhere.local is None and elsewhere.found is not None  # the catalog's namespaced twin


def test_a_kind_kubevirt_refuses_resolves_nothing():
    refused = reference("vmp", "fedora")
    assert Resolver(small_target()).resolve(refused) == Resolution(refused, None)


def test_of_two_objects_of_one_kind_and_name_the_first_is_the_one_looked_up():
    """A dump or a pair of bundles may hold two; the target keeps the first of them, as it says."""
    kind = "VirtualMachineClusterPreference"
    first = {"kind": kind, "metadata": {"name": "fedora"}, "spec": {"preferredCPUTopology": "spread"}}
    second = {"kind": kind, "metadata": {"name": "fedora"}, "spec": {"preferredCPUTopology": "cores"}}
    target = Target((BundleDoc("a.yaml", 0, first), BundleDoc("b.yaml", 0, second)), "two bundles")
    assert target.get(kind, "fedora") is first
    assert target.names["preference"] == ("fedora",)


@pytest.mark.parametrize("catalog, overlays, kubevirt, described", [
    (None, (), None, "the built-in catalog"),
    (Path("vendor"), (Path("o.yaml"),), None, "catalog vendor with overlay o.yaml"),
    (None, (Path("a.yaml"), Path("b.yaml")), Release(1, 8),
     "the build for KubeVirt v1.8 of the built-in catalog with overlays a.yaml, b.yaml"),
])
def test_a_build_is_described_by_its_catalog_overlays_and_release(catalog, overlays, kubevirt, described):
    """Read through the private ``_described``: each wording through ``target_objects`` would cost a build."""
    assert _described(catalog, overlays, kubevirt) == described


def test_two_bundles_are_described_together(tmp_path):
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    first.write_text("kind: VirtualMachineClusterPreference\nmetadata: {name: fedora}\n")
    second.write_text("kind: VirtualMachineClusterInstancetype\nmetadata: {name: u1.small}\n")
    target = target_objects(bundles=(first, second))
    assert target.described == f"bundles {first}, {second}"
    assert target.names == {"instancetype": ("u1.small",), "preference": ("fedora",)}


@pytest.mark.parametrize("options, message", [
    ({"overlays": (Path("o.yaml"),)}, "--overlay: --overlay chooses a build, and --bundle names objects already "
                                      "built; give one or the other"),
    ({"catalog": Path("c"), "overlays": (Path("o.yaml"),), "kubevirt": Release(1, 8)},
     "--catalog: --catalog, --overlay, --kubevirt choose a build, and --bundle names objects already built; give "
     "one or the other"),
])
def test_each_build_option_beside_bundles_is_named(options, message):
    with pytest.raises(InputError) as refused:
        target_objects(bundles=(Path("b.yaml"),), **options)
    assert [str(p) for p in refused.value.problems] == [message]


def test_a_folder_that_is_neither_a_catalog_nor_a_build_is_read_as_a_folder_of_objects(tmp_path):
    with pytest.raises(InputError) as refused:
        target_at(tmp_path, "--from")
    assert str(refused.value) == (
        f"{tmp_path}: no catalog objects (given as --from): the folder holds no *.yaml, *.yml or *.json file")
    (tmp_path / "objects.yaml").write_text(BUNDLE.read_text(encoding="utf-8"), encoding="utf-8")
    assert len(target_at(tmp_path, "--from").objects) == len(target_at(BUNDLE, "--from").objects)


def test_a_build_output_folder_is_read_from_its_all_bundle(tmp_path):
    (tmp_path / "common-instancetypes-all-bundle.yaml").write_text(
        "kind: VirtualMachineClusterInstancetype\nmetadata: {name: u1.small}\n")
    (tmp_path / "other.yaml").write_text("kind: VirtualMachineClusterInstancetype\nmetadata: {name: other}\n")
    target = target_at(tmp_path, "--to")
    assert (target.described, target.names["instancetype"]) == (f"build {tmp_path}", ("u1.small",))


def test_each_kind_has_its_family():
    kinds = ["VirtualMachineClusterInstancetype", "VirtualMachineInstancetype", "VirtualMachineClusterPreference",
             "VirtualMachinePreference", "VirtualMachine", ""]
    assert [family_of(kind) for kind in kinds] == ["instancetype", "instancetype", "preference", "preference",
                                                   None, None]


@pytest.mark.parametrize("family, written, kind", [
    ("preference", None, "VirtualMachineClusterPreference"),
    ("preference", "", "VirtualMachineClusterPreference"),
    ("instancetype", "VirtualMachineInstancetypes", "VirtualMachineInstancetype"),
    ("instancetype", "virtualmachineclusterinstancetype", "VirtualMachineClusterInstancetype"),
    ("preference", "VirtualMachineInstancetype", None),
    ("instancetype", "vm", None),
    ("instancetype", "VirtualMachineClusterİnstancetype", "VirtualMachineClusterInstancetype"),  # Go's ToLower
    ("preference", "VİRTUALMACHİNEPREFERENCES", "VirtualMachinePreference"),
])
def test_a_matcher_s_kind_is_read_as_kubevirt_reads_it(family, written, kind):
    assert matcher_kind(family, written) == kind


CLUSTER_FEDORA = {"kind": "VirtualMachineClusterPreference", "metadata": {"name": "fedora"}}
SHOP_ALPINE = {"kind": "VirtualMachinePreference", "metadata": {"name": "alpine", "namespace": "shop"}}
LISTED = {"kind": "VirtualMachine", "metadata": {"name": "fedora"}}
NAMELESS = {"kind": "VirtualMachineClusterPreference", "metadata": {}}


def small_target() -> Target:
    return Target(tuple(BundleDoc("t.yaml", i, data) for i, data in enumerate((LISTED, NAMELESS, CLUSTER_FEDORA,
                                                                                 SHOP_ALPINE))), "t.yaml")


def test_a_target_indexes_only_named_catalog_objects():
    target = small_target()
    assert dict(target.index) == {("VirtualMachineClusterPreference", "fedora"): CLUSTER_FEDORA,
                                  ("VirtualMachinePreference", "alpine"): SHOP_ALPINE}
    assert target.names == {"instancetype": (), "preference": ("alpine", "fedora")}


def test_a_cluster_kind_is_found_from_any_namespace_and_a_name_never_shipped_is_not_found():
    resolver = Resolver(small_target())
    fedora, nothing = reference(None, "fedora"), reference(None, "debian")
    assert resolver.resolve(fedora) == Resolution(fedora, "VirtualMachineClusterPreference", CLUSTER_FEDORA)
    assert resolver.resolve(nothing) == Resolution(nothing, "VirtualMachineClusterPreference")


def test_a_name_shipped_only_as_the_other_kind_of_its_family_says_so():
    resolver = Resolver(small_target())
    namespaced, cluster = reference("VirtualMachinePreference", "fedora"), reference(None, "alpine")
    assert resolver.resolve(namespaced) == Resolution(namespaced, "VirtualMachinePreference",
                                                      shipped_as="VirtualMachineClusterPreference")
    assert resolver.resolve(cluster) == Resolution(cluster, "VirtualMachineClusterPreference",
                                                   shipped_as="VirtualMachinePreference")
    assert not resolver.resolve(cluster).resolved


def test_a_reference_without_a_name_resolves_only_its_kind():
    unnamed = Reference("preference", None, "VirtualMachinePreference", WEB, Location("vm.yaml", 9, 11),
                        "spec.preference", unchecked="parameter P has no default")
    assert Resolver(small_target()).resolve(unnamed) == Resolution(unnamed, "VirtualMachinePreference")


def test_a_cluster_kind_the_manifests_define_is_found_from_any_namespace_and_the_first_definition_counts():
    first = Definition("preference", "VirtualMachineClusterPreference", "mine", None, Location("defs.yaml", 3, 9))
    again = Definition("preference", "VirtualMachineClusterPreference", "mine", None, Location("defs.yaml", 9, 9))
    here = Definition("preference", "VirtualMachinePreference", "mine", "shop", Location("defs.yaml", 15, 9))
    there = Definition("preference", "VirtualMachinePreference", "mine", "0lab", Location("defs.yaml", 21, 9))
    bare = Definition("preference", "VirtualMachinePreference", "mine", None, Location("defs.yaml", 27, 9))
    sizes = Definition("instancetype", "VirtualMachineClusterInstancetype", "big", None, Location("d.yaml", 1, 1))
    resolver = Resolver(small_target(), (first, again, here, there, bare, sizes))
    mine = reference(None, "mine", Owner("x", "VirtualMachine", "a", "elsewhere"))
    assert resolver.resolve(mine) == Resolution(mine, "VirtualMachineClusterPreference", local=first)
    assert resolver.resolve(mine).resolved
    assert resolver.namespaces("VirtualMachinePreference", "mine") == (None, "0lab", "shop")
    assert resolver.names("preference") == ("alpine", "fedora", "mine")
    assert resolver.names("instancetype") == ("big",)
