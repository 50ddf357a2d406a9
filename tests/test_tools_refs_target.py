"""What the cluster will have (tools/refs/target.py): the one loading path, and names looked up as KubeVirt does."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import InputError
from generator.problems import Location
from generator.schemas.releases import Release
from generator.tools.refs.model import Definition, Owner, Reference
from generator.tools.refs.target import Resolver, target_at, target_objects
from tests.conftest import SHARED, shared_file
from tests.helpers import copy_catalog, default_build

V1_0_0 = SHARED / "reference" / "releases" / "v1.0.0-common-instancetypes-all-bundle.yaml"
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


def test_the_build_for_a_release_says_what_it_left_out():
    target = target_objects(kubevirt=Release(1, 8))
    assert sorted(target.left_out) == [("preference", "fedora.s390x.secex"), ("preference", "rhel.10.s390x.secex"),
                                       ("preference", "rhel.9.s390x.secex")]
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
    copy_catalog(tmp_path / "catalog")
    assert target_at(tmp_path / "catalog", "--to").described == f"catalog {tmp_path / 'catalog'}"
    with pytest.raises(InputError) as missing:
        target_at(tmp_path / "nowhere", "--to")
    assert str(missing.value) == f"--to: '{tmp_path / 'nowhere'}': no such file or directory"


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
    found = Resolver(target_objects()).resolve(reference("vmp", "fedora"))
    assert (found.kind, found.resolved) == (None, False)


def test_of_two_objects_of_one_kind_and_name_the_first_is_the_one_looked_up():
    """A dump or a pair of bundles may hold two; the target keeps the first of them, as it says."""
    from generator.source.documents import BundleDoc
    from generator.tools.refs.target import Target

    kind = "VirtualMachineClusterPreference"
    first = {"kind": kind, "metadata": {"name": "fedora"}, "spec": {"preferredCPUTopology": "spread"}}
    second = {"kind": kind, "metadata": {"name": "fedora"}, "spec": {"preferredCPUTopology": "cores"}}
    target = Target((BundleDoc("a.yaml", 0, first), BundleDoc("b.yaml", 0, second)), "two bundles")
    assert target.get(kind, "fedora") is first
    assert target.names["preference"] == ("fedora",)
