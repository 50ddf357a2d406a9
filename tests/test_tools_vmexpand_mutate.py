"""What KubeVirt's admission adds to a VM before expanding it (generator/tools/vmexpand/mutate.py)."""

from __future__ import annotations

import pytest

from generator.tools.vmexpand import UnusableInput, expand
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
