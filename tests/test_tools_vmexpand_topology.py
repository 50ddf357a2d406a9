"""Guest CPU topology and the spread check (generator/tools/vmexpand/topology.py), as KubeVirt lays vCPUs out."""

from __future__ import annotations

import pytest

from generator.tools.vmexpand.conflicts import ExpandError
from generator.tools.vmexpand.topology import check_spread, guest_topology, preferred_topology, spread_options


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


def spread(**options) -> dict:
    """A spread preference with the given spreadOptions (``across``, ``ratio``)."""
    cpu: dict = {"preferredCPUTopology": "spread"}
    if options:
        cpu["spreadOptions"] = options
    return {"cpu": cpu}


@pytest.mark.parametrize(
    "name, expected",
    [
        ("preferSockets", {"sockets": 6, "cores": 1, "threads": 1}),
        ("preferCores", {"sockets": 1, "cores": 6, "threads": 1}),
        ("preferThreads", {"sockets": 1, "cores": 1, "threads": 6}),
        ("preferSpread", {"sockets": 3, "cores": 2, "threads": 1}),
        ("preferAny", {"sockets": 6, "cores": 1, "threads": 1}),
        ("sockets", {"sockets": 6, "cores": 1, "threads": 1}),
        ("threads", {"sockets": 1, "cores": 1, "threads": 6}),
    ],
)
def test_deprecated_topology_names_lay_out_as_their_new_names(name, expected) -> None:
    assert guest_topology(6, {"cpu": {"preferredCPUTopology": name}}) == expected


def test_preferred_topology_defaults_to_sockets_and_normalises_old_names() -> None:
    assert preferred_topology(None) == "sockets"
    assert preferred_topology({"cpu": {}}) == "sockets"
    assert preferred_topology({"cpu": {"preferredCPUTopology": "preferSpread"}}) == "spread"
    assert preferred_topology({"cpu": {"preferredCPUTopology": "preferAny"}}) == "any"
    assert preferred_topology({"cpu": {"preferredCPUTopology": "preferSockets"}}) == "sockets"
    assert preferred_topology({"cpu": {"preferredCPUTopology": "preferThreads"}}) == "threads"
    assert preferred_topology({"cpu": {"preferredCPUTopology": "preferCores"}}) == "cores"


def test_spread_options_default_to_a_ratio_of_2_across_sockets_and_cores() -> None:
    assert spread_options(None) == (2, "SocketsCores")
    assert spread_options(spread()) == (2, "SocketsCores")


def test_spread_options_ratio_wins_over_the_deprecated_ratio_field() -> None:
    preference = {"preferSpreadSocketToCoreRatio": 3, **spread(ratio=4, across="CoresThreads")}
    assert spread_options(preference) == (4, "CoresThreads")
    assert spread_options({"preferSpreadSocketToCoreRatio": 3, **spread()}) == (3, "SocketsCores")
    assert spread_options({"preferSpreadSocketToCoreRatio": 3, **spread(across="CoresThreads")}) == (3, "CoresThreads")


def test_the_deprecated_ratio_field_is_used_by_the_spread_check() -> None:
    error = check_spread({"cpu": {"guest": 4}}, {"preferSpreadSocketToCoreRatio": 3, **spread()})
    assert error.message == ("4 vCPUs provided by the instance type are not divisible by the "
                             "Spec.PreferSpreadSocketToCoreRatio or Spec.CPU.PreferSpreadOptions.Ratio of 3 provided "
                             "by the preference")


def test_a_single_vcpu_is_one_socket_one_core_one_thread_whatever_the_spread() -> None:
    one = {"sockets": 1, "cores": 1, "threads": 1}
    assert guest_topology(1, spread()) == one
    assert guest_topology(1, spread(across="CoresThreads")) == one
    assert guest_topology(1, {"cpu": {"preferredCPUTopology": "threads"}}) == one


def test_two_vcpus_are_laid_out_not_left_at_one() -> None:
    assert guest_topology(2, {"cpu": {"preferredCPUTopology": "threads"}}) == {"sockets": 1, "cores": 1, "threads": 2}
    assert guest_topology(2, spread()) == {"sockets": 1, "cores": 2, "threads": 1}


@pytest.mark.parametrize(
    "options, vcpus, expected",
    [
        ({"ratio": 3}, 6, {"sockets": 2, "cores": 3, "threads": 1}),
        ({"ratio": 1}, 3, {"sockets": 3, "cores": 1, "threads": 1}),
        ({"across": "CoresThreads"}, 6, {"sockets": 1, "cores": 3, "threads": 2}),
        ({"across": "CoresThreads", "ratio": 3}, 6, {"sockets": 1, "cores": 2, "threads": 3}),
        ({"across": "SocketsCoresThreads"}, 12, {"sockets": 3, "cores": 2, "threads": 2}),
        ({"across": "SocketsCoresThreads", "ratio": 3}, 6, {"sockets": 1, "cores": 3, "threads": 2}),
        ({"across": "SocketsCoresThreads", "ratio": 3}, 12, {"sockets": 2, "cores": 3, "threads": 2}),
    ],
)
def test_a_spread_that_fits_is_accepted_and_laid_out(options, vcpus, expected) -> None:
    preference = spread(**options)
    assert check_spread({"cpu": {"guest": vcpus}}, preference) is None
    assert guest_topology(vcpus, preference) == expected


def test_an_odd_vcpu_count_cannot_be_spread_over_two_threads_per_core() -> None:
    error = check_spread({"cpu": {"guest": 3}}, spread(across="SocketsCoresThreads", ratio=1))
    assert error.message == ("3 vCPUs provided by the instance type are not divisible by the number of threads per "
                             "core 2 and Spec.PreferSpreadSocketToCoreRatio or Spec.CPU.PreferSpreadOptions.Ratio of 1")


def test_cores_threads_with_the_default_ratio_names_two_threads_per_core() -> None:
    error = check_spread({"cpu": {"guest": 3}}, spread(across="CoresThreads"))
    assert error == ExpandError("instancetype.spec.cpu.guest", "3 vCPUs provided by the instance type are not "
                                "divisible by the number of threads per core 2", "topology")


@pytest.mark.parametrize(
    "across, message",
    [
        ("SocketsCores", "4 vCPUs provided by the instance type are not divisible by the "
         "Spec.PreferSpreadSocketToCoreRatio or Spec.CPU.PreferSpreadOptions.Ratio of 0 provided by the preference"),
        ("CoresThreads", "4 vCPUs provided by the instance type are not divisible by the number of threads per core 0"),
        ("SocketsCoresThreads", "4 vCPUs provided by the instance type are not divisible by the number of threads per "
         "core 2 and Spec.PreferSpreadSocketToCoreRatio or Spec.CPU.PreferSpreadOptions.Ratio of 0"),
    ],
)
def test_a_ratio_of_zero_is_refused_rather_than_divided_by(across, message) -> None:
    error = check_spread({"cpu": {"guest": 4}}, spread(across=across, ratio=0))
    assert (error.message, error.reason) == (message, "topology")


def test_an_instancetype_without_vcpus_is_not_refused_a_spread() -> None:
    """KubeVirt's guest count is a uint32: absent it is 0, and 0 divides by any ratio."""
    assert check_spread({"memory": {"guest": "1Gi"}}, spread()) is None


def test_an_unknown_spread_layout_is_neither_refused_nor_laid_out() -> None:
    """KubeVirt's switches over ``across`` have no case for another value: no refusal, the 1 x 1 x 1 default."""
    assert check_spread({"cpu": {"guest": 3}}, spread(across="Sideways")) is None
    assert guest_topology(4, spread(across="Sideways")) == {"sockets": 1, "cores": 1, "threads": 1}


@pytest.mark.parametrize("across", ["SocketsCores", "CoresThreads", "SocketsCoresThreads"])
def test_a_spread_layout_counts_in_whole_numbers(across) -> None:
    """The counts are written into the VM: 2, not 2.0, as the YAML a user reads back."""
    layout = guest_topology(8, spread(across=across))
    assert [type(layout[k]) for k in ("sockets", "cores", "threads")] == [int, int, int]
    assert layout["sockets"] * layout["cores"] * layout["threads"] == 8
