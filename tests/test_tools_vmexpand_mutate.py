"""What KubeVirt's admission adds to a VM before expanding it (generator/tools/vmexpand/mutate.py)."""

from __future__ import annotations

import pytest

from generator.tools.vmexpand import UnusableInput, expand
from generator.tools.vmexpand.mutate import (
    UnsupportedArchitecture,
    add_default_network,
    add_volume_disks,
    mutate,
    set_machine_type,
)
from tests.vmexpand_helpers import template_spec, vm


def test_architecture_and_machine_type() -> None:
    assert template_spec(expand(vm(), None, None))["architecture"] == "amd64"
    arm = template_spec(expand(vm(), None, None, arch="arm64"))
    assert (arm["architecture"], arm["domain"]["machine"]) == ("arm64", {"type": "virt"})
    own = template_spec(expand(vm(architecture="s390x"), None, {"preferredArchitecture": "arm64"}))
    assert (own["architecture"], own["domain"]["machine"]) == ("s390x", {"type": "s390-ccw-virtio"})
    preferred = template_spec(expand(vm(), None, {"machine": {"preferredMachineType": "pc-q35-rhel9.6.0"}}))
    assert preferred["domain"]["machine"] == {"type": "pc-q35-rhel9.6.0"}


def test_masquerade_clusters_get_a_masquerade_default_interface() -> None:
    spec = template_spec(expand(vm(), None, None, network_interface="masquerade"))
    assert spec["domain"]["devices"]["interfaces"] == [{"name": "default", "masquerade": {}}]
    assert spec["networks"] == [{"name": "default", "pod": {}}]


def test_unknown_architecture_is_unusable_input() -> None:
    with pytest.raises(UnusableInput, match="unsupported architecture 'riscv64'"):
        expand(vm(), None, None, arch="riscv64")


# -- each default on a VM spec written here ----------------------------------------------------------


def mutated(vmi_spec: dict, preference: dict | None = None, **options) -> dict:
    mutate(vmi_spec, preference, **options)
    return vmi_spec


def test_the_architecture_is_the_vms_then_the_preferences_then_the_clusters() -> None:
    own = mutated({"architecture": "s390x"}, {"preferredArchitecture": "arm64"}, arch="amd64")
    assert own["architecture"] == "s390x"
    assert mutated({}, {"preferredArchitecture": "arm64"}, arch="s390x")["architecture"] == "arm64"
    assert mutated({"architecture": ""}, None, arch="s390x")["architecture"] == "s390x"
    assert mutated({}, None)["architecture"] == "amd64"


@pytest.mark.parametrize("arch, machine", [("amd64", "q35"), ("arm64", "virt"), ("s390x", "s390-ccw-virtio")])
def test_each_architecture_has_kubevirts_default_machine_type(arch, machine) -> None:
    assert mutated({}, None, arch=arch)["domain"]["machine"] == {"type": machine}


def test_the_machine_type_is_the_vms_then_the_preferences() -> None:
    own = mutated({"domain": {"machine": {"type": "pc-q35-8.0"}}}, {"machine": {"preferredMachineType": "pc-q35-9.0"}})
    assert own["domain"]["machine"] == {"type": "pc-q35-8.0"}
    empty = mutated({"domain": {"machine": {"type": ""}}}, {"machine": {"preferredMachineType": "pc-q35-9.0"}})
    assert empty["domain"]["machine"] == {"type": "pc-q35-9.0"}


def test_a_preferred_machine_type_spares_an_unknown_architecture() -> None:
    spec = mutated({"architecture": "riscv64"}, {"machine": {"preferredMachineType": "virt"}})
    assert spec["domain"]["machine"] == {"type": "virt"}


def test_an_unknown_architecture_names_the_supported_ones() -> None:
    with pytest.raises(UnsupportedArchitecture) as raised:
        set_machine_type({"architecture": "riscv64"}, None)
    assert str(raised.value) == "unsupported architecture 'riscv64' (KubeVirt supports amd64, arm64, s390x)"


def test_a_vm_without_architecture_gets_the_amd64_machine_type() -> None:
    spec: dict = {}
    set_machine_type(spec, None)
    assert spec == {"domain": {"machine": {"type": "q35"}}}


def test_every_volume_without_a_disk_or_filesystem_gets_a_bare_disk() -> None:
    spec = {"domain": {"devices": {"disks": [{"name": "root", "disk": {"bus": "sata"}}],
                                   "filesystems": [{"name": "shared", "virtiofs": {}}]}},
            "volumes": [{"name": "root"}, {"name": "shared"}, {"name": "data"}, {"name": "data"}, {"nameless": 1},
                        {"name": "cloudinit"}]}
    add_volume_disks(spec)
    assert spec["domain"]["devices"]["disks"] == [{"name": "root", "disk": {"bus": "sata"}}, {"name": "data"},
                                                  {"name": "cloudinit"}]


def test_a_vm_without_disks_gets_a_list_of_them() -> None:
    spec = {"volumes": [{"name": "a"}], "domain": {"devices": {"disks": None}}}
    add_volume_disks(spec)
    assert spec["domain"]["devices"]["disks"] == [{"name": "a"}]
    spec = {"volumes": [{"name": "a"}]}
    add_volume_disks(spec)
    assert spec == {"volumes": [{"name": "a"}], "domain": {"devices": {"disks": [{"name": "a"}]}}}
    spec = {"volumes": []}
    add_volume_disks(spec)
    assert spec == {"volumes": [], "domain": {"devices": {}}}


def test_the_default_network_is_the_pod_network_with_the_clusters_binding() -> None:
    spec = mutated({})
    assert spec["domain"]["devices"]["interfaces"] == [{"name": "default", "bridge": {}}]
    assert spec["networks"] == [{"name": "default", "pod": {}}]


def test_no_default_network_when_the_vm_names_one_or_opts_out() -> None:
    spec = {"networks": [{"name": "n", "multus": {}}]}
    add_default_network(spec)
    assert spec == {"networks": [{"name": "n", "multus": {}}], "domain": {"devices": {}}}
    spec = {"domain": {"devices": {"interfaces": [{"name": "i"}]}}}
    add_default_network(spec)
    assert spec == {"domain": {"devices": {"interfaces": [{"name": "i"}]}}}
    spec = {"domain": {"devices": {"autoattachPodInterface": False}}}
    add_default_network(spec)
    assert spec == {"domain": {"devices": {"autoattachPodInterface": False}}}
    spec = {"domain": {"devices": {"autoattachPodInterface": True}}}
    add_default_network(spec, "masquerade")
    assert spec["networks"] == [{"name": "default", "pod": {}}]
    assert spec["domain"]["devices"]["interfaces"] == [{"name": "default", "masquerade": {}}]


def test_a_volume_that_is_not_a_mapping_gets_no_disk() -> None:
    spec = {"volumes": ["root", None, {"name": "data"}]}
    add_volume_disks(spec)
    assert spec["domain"]["devices"]["disks"] == [{"name": "data"}]
