"""Guest CPU topology and the spread check (generator/tools/vmexpand/topology.py), as KubeVirt lays vCPUs out."""

from __future__ import annotations

import pytest

from generator.tools.vmexpand.topology import check_spread, guest_topology


@pytest.mark.parametrize(
    "preference, vcpus, expected",
    [
        (None, 4, {"sockets": 4, "cores": 1, "threads": 1}),
        ({"cpu": {"preferredCPUTopology": "cores"}}, 4, {"sockets": 1, "cores": 4, "threads": 1}),
        ({"cpu": {"preferredCPUTopology": "threads"}}, 4, {"sockets": 1, "cores": 1, "threads": 4}),
        ({"cpu": {"preferredCPUTopology": "any"}}, 4, {"sockets": 4, "cores": 1, "threads": 1}),
        ({"cpu": {"preferredCPUTopology": "preferCores"}}, 4, {"sockets": 1, "cores": 4, "threads": 1}),
        ({"cpu": {"preferredCPUTopology": "spread"}}, 8, {"sockets": 4, "cores": 2, "threads": 1}),
        ({"cpu": {"preferredCPUTopology": "spread", "spreadOptions": {"ratio": 4}}}, 8,
         {"sockets": 2, "cores": 4, "threads": 1}),
        ({"preferSpreadSocketToCoreRatio": 4, "cpu": {"preferredCPUTopology": "spread"}}, 8,
         {"sockets": 2, "cores": 4, "threads": 1}),
        ({"cpu": {"preferredCPUTopology": "spread", "spreadOptions": {"across": "CoresThreads"}}}, 8,
         {"sockets": 1, "cores": 4, "threads": 2}),
        ({"cpu": {"preferredCPUTopology": "spread", "spreadOptions": {"across": "SocketsCoresThreads", "ratio": 4}}},
         16, {"sockets": 2, "cores": 4, "threads": 2}),
        ({"cpu": {"preferredCPUTopology": "cores"}}, 1, {"sockets": 1, "cores": 1, "threads": 1}),
    ],
)
def test_guest_topology(preference, vcpus, expected) -> None:
    assert guest_topology(vcpus, preference) == expected
    # whatever the layout, the guest sees exactly the instancetype's vCPUs
    assert expected["sockets"] * expected["cores"] * expected["threads"] == vcpus


@pytest.mark.parametrize(
    "across, ratio, vcpus, message",
    [
        ("SocketsCores", 3, 4, "4 vCPUs provided by the instance type are not divisible by the "
         "Spec.PreferSpreadSocketToCoreRatio or Spec.CPU.PreferSpreadOptions.Ratio of 3 provided by the preference"),
        ("CoresThreads", 3, 4, "4 vCPUs provided by the instance type are not divisible by the number of "
         "threads per core 3"),
        ("SocketsCoresThreads", 2, 6, "6 vCPUs provided by the instance type are not divisible by the number of "
         "threads per core 2 and Spec.PreferSpreadSocketToCoreRatio or Spec.CPU.PreferSpreadOptions.Ratio of 2"),
    ],
)
def test_spread_refusals(across, ratio, vcpus, message) -> None:
    preference = {"cpu": {"preferredCPUTopology": "spread", "spreadOptions": {"across": across, "ratio": ratio}}}
    error = check_spread({"cpu": {"guest": vcpus}}, preference)
    assert (error.field, error.message, error.reason) == ("instancetype.spec.cpu.guest", message, "topology")
    assert check_spread({"cpu": {"guest": vcpus * ratio * 2}}, preference) is None


def test_spread_is_not_checked_for_other_topologies_or_without_instancetype() -> None:
    assert check_spread({"cpu": {"guest": 3}}, {"cpu": {"preferredCPUTopology": "cores"}}) is None
    assert check_spread(None, {"cpu": {"preferredCPUTopology": "spread"}}) is None
