"""A preference's CPU requirement against a CPU topology, as KubeVirt counts it.

KubeVirt (pkg/instancetype/preference/requirements, cpu.go) compares a
preference's ``requirements.cpu.guest`` with the instancetype's ``cpu.guest``
when there is one; without one it counts the VM's own topology in the way the
preference lays vCPUs out: only sockets, only cores or only threads for those
topologies, sockets x cores x threads for ``any``, and the factors ``across``
names for ``spread``. These cases use topologies with more than one socket,
core and thread at once, so that a count that leaves out or doubles a factor
gives a different number.
"""

from __future__ import annotations

import pytest

from generator.tools.vmexpand import expand
from generator.tools.vmexpand.conflicts import ExpandError
from generator.tools.vmexpand.requirements import check

CPU = "spec.template.spec.domain.cpu"


def preferring(topology: str, guest: int, across: str | None = None) -> dict:
    cpu: dict = {"preferredCPUTopology": topology}
    if across is not None:
        cpu["spreadOptions"] = {"across": across}
    return {"cpu": cpu, "requirements": {"cpu": {"guest": guest}}}


def vm_cpu(sockets: int, cores: int, threads: int) -> dict:
    return {"domain": {"cpu": {"sockets": sockets, "cores": cores, "threads": threads}}}


@pytest.mark.parametrize(
    "topology, across, vcpus",
    [
        ("any", None, 2 * 3 * 2),
        ("preferAny", None, 2 * 3 * 2),
        ("spread", "SocketsCoresThreads", 2 * 3 * 2),
        ("spread", "SocketsCores", 2 * 3),
        ("spread", None, 2 * 3),  # across defaults to SocketsCores
        ("spread", "CoresThreads", 3 * 2),
        ("sockets", None, 2),
        ("cores", None, 3),
        ("threads", None, 2),
        ("preferThreads", None, 2),
    ],
)
def test_a_topology_meets_exactly_the_vcpus_it_counts(topology, across, vcpus) -> None:
    """2 sockets, 3 cores, 2 threads: each topology counts its own product, and no more."""
    assert check(None, preferring(topology, vcpus, across), vm_cpu(2, 3, 2)) is None
    error = check(None, preferring(topology, vcpus + 1, across), vm_cpu(2, 3, 2))
    assert error is not None and error.reason == "cpu"
    assert f"insufficient CPU resources of {vcpus} vCPU provided by VirtualMachine, " \
           f"preference requires {vcpus + 1} vCPU provided as " in error.message


def test_any_counts_threads_per_core() -> None:
    error = check(None, preferring("any", 16), vm_cpu(2, 2, 2))
    assert str(error) == (f"{CPU}.cores, {CPU}.sockets, {CPU}.threads: insufficient CPU resources of 8 vCPU "
                          "provided by VirtualMachine, preference requires 16 vCPU provided as cores, sockets and threads")
    assert check(None, preferring("any", 4), vm_cpu(1, 1, 4)) is None


def test_spread_across_sockets_cores_threads_counts_all_three() -> None:
    error = check(None, preferring("spread", 16, "SocketsCoresThreads"), vm_cpu(2, 2, 2))
    assert str(error) == (f"{CPU}.sockets, {CPU}.cores, {CPU}.threads: insufficient CPU resources of 8 vCPU "
                          "provided by VirtualMachine, preference requires 16 vCPU provided as SocketsCoresThreads")
    assert check(None, preferring("spread", 8, "SocketsCoresThreads"), vm_cpu(2, 2, 2)) is None


def test_spread_across_cores_threads_leaves_sockets_out() -> None:
    error = check(None, preferring("spread", 8, "CoresThreads"), vm_cpu(4, 2, 3))
    assert str(error) == (f"{CPU}.cores, {CPU}.threads: insufficient CPU resources of 6 vCPU provided by "
                          "VirtualMachine, preference requires 8 vCPU provided as CoresThreads")


def test_spread_across_sockets_cores_leaves_threads_out() -> None:
    error = check(None, preferring("spread", 8), vm_cpu(3, 2, 4))
    assert str(error) == (f"{CPU}.sockets, {CPU}.cores: insufficient CPU resources of 6 vCPU provided by "
                          "VirtualMachine, preference requires 8 vCPU provided as SocketsCores")


@pytest.mark.parametrize("topology", ["sockets", "cores", "threads"])
def test_a_single_factor_topology_counts_only_its_factor(topology) -> None:
    """Four vCPUs in all, but only one of the preferred kind."""
    counts = {"sockets": 1, "cores": 1, "threads": 1}
    other = "threads" if topology != "threads" else "cores"
    counts[other] = 4
    error = check(None, preferring(topology, 2), vm_cpu(counts["sockets"], counts["cores"], counts["threads"]))
    assert str(error) == (f"{CPU}.{topology}: insufficient CPU resources of 1 vCPU provided by VirtualMachine, "
                          f"preference requires 2 vCPU provided as {topology}")


def test_a_topology_without_sockets_counts_none_for_any() -> None:
    """KubeVirt reads an unset count as 0, so a VM naming only cores and threads offers nothing to 'any'."""
    error = check(None, preferring("any", 1), {"domain": {"cpu": {"cores": 4, "threads": 2}}})
    assert error.message == ("insufficient CPU resources of 0 vCPU provided by VirtualMachine, "
                             "preference requires 1 vCPU provided as cores, sockets and threads")


def test_with_an_instancetype_only_its_guest_count_matters() -> None:
    """The VM's own topology is not looked at when an instancetype provides the vCPUs."""
    instancetype = {"cpu": {"guest": 8}, "memory": {"guest": "1Gi"}}
    assert check(instancetype, preferring("threads", 8), vm_cpu(1, 1, 1)) is None
    error = check(instancetype, preferring("any", 9), vm_cpu(4, 4, 4))
    assert str(error) == ("spec.instancetype: insufficient CPU resources of 8 vCPU provided by instance type, "
                          "preference requires 9 vCPU")


def test_an_expanded_vm_lays_out_threads_and_is_checked_against_the_instancetype() -> None:
    """Spread over sockets, cores and threads: 8 vCPUs become 2 x 2 x 2, and a requirement of 8 is met."""
    preference = preferring("spread", 8, "SocketsCoresThreads")
    vm = {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "t"},
          "spec": {"template": {"spec": {"domain": {}}}}}
    result = expand(vm, {"cpu": {"guest": 8}, "memory": {"guest": "1Gi"}}, preference)
    assert result.errors == ()
    assert result.vm["spec"]["template"]["spec"]["domain"]["cpu"] == {"sockets": 2, "cores": 2, "threads": 2}
    refused = expand(vm, {"cpu": {"guest": 8}, "memory": {"guest": "1Gi"}}, preferring("spread", 12, "SocketsCoresThreads"))
    assert [str(e) for e in refused.errors] == [
        "spec.instancetype: insufficient CPU resources of 8 vCPU provided by instance type, preference requires 12 vCPU"]


def test_memory_is_checked_after_cpu_and_before_architecture() -> None:
    preference = {"cpu": {"preferredCPUTopology": "any"},
                  "requirements": {"cpu": {"guest": 2}, "memory": {"guest": "2Gi"}, "architecture": "arm64"}}
    spec = {"architecture": "amd64", "domain": {"cpu": {"sockets": 1, "cores": 1, "threads": 2},
                                                 "memory": {"guest": "1Gi"}}}
    assert check(None, preference, spec).reason == "memory"
    spec["domain"]["memory"]["guest"] = "2Gi"
    assert str(check(None, preference, spec)) == (
        "spec.template.spec.architecture: preference requires architecture arm64 but amd64 is being requested")
    spec["domain"]["cpu"]["threads"] = 1
    assert check(None, preference, spec).reason == "cpu"


def test_requirements_against_the_vm_without_instancetype() -> None:
    preference = {"cpu": {"preferredCPUTopology": "cores"}, "requirements": {"cpu": {"guest": 4}}}
    error = check(None, preference, {"domain": {"cpu": {"cores": 2}}})
    assert str(error) == ("spec.template.spec.domain.cpu.cores: insufficient CPU resources of 2 vCPU provided by "
                          "VirtualMachine, preference requires 4 vCPU provided as cores")
    error = check(None, preference, {"domain": {}})
    assert str(error) == ("spec.template.spec.domain.cpu: no CPU resources provided by VirtualMachine, "
                          "preference requires 4 vCPU")
    assert check(None, preference, {"domain": {"cpu": {"cores": 4}}}) is None


def test_requirements_any_and_spread_count_the_product() -> None:
    any_pref = {"cpu": {"preferredCPUTopology": "any"}, "requirements": {"cpu": {"guest": 8}}}
    error = check(None, any_pref, {"domain": {"cpu": {"cores": 2, "sockets": 2, "threads": 1}}})
    assert error.field == ("spec.template.spec.domain.cpu.cores, spec.template.spec.domain.cpu.sockets, "
                           "spec.template.spec.domain.cpu.threads")
    assert error.message.endswith("of 4 vCPU provided by VirtualMachine, preference requires 8 vCPU "
                                  "provided as cores, sockets and threads")
    spread = {"cpu": {"preferredCPUTopology": "spread"}, "requirements": {"cpu": {"guest": 8}}}
    error = check(None, spread, {"domain": {"cpu": {"cores": 2, "sockets": 2, "threads": 2}}})
    assert error.message.endswith("of 4 vCPU provided by VirtualMachine, preference requires 8 vCPU provided as SocketsCores")


def test_memory_requirement_against_the_vm() -> None:
    preference = {"requirements": {"memory": {"guest": "1.5Gi"}}}
    error = check(None, preference, {"domain": {"memory": {"guest": "1Gi"}}})
    assert str(error) == ("spec.template.spec.domain.memory: insufficient Memory resources of 1Gi provided by "
                          "VirtualMachine, preference requires 1536Mi")
    assert check(None, preference, {"domain": {"memory": {"guest": "1536Mi"}}}) is None


def test_requirements_compare_quantities_not_text() -> None:
    preference = {"requirements": {"memory": {"guest": "1024Mi"}}}
    assert check({"cpu": {"guest": 1}, "memory": {"guest": "1Gi"}}, preference, {}) is None


# -- what each refusal names: field, KubeVirt's message and the requirement unmet ------------------


def test_an_instancetype_with_too_few_vcpus_is_refused_for_cpu() -> None:
    error = check({"cpu": {"guest": 2}, "memory": {"guest": "4Gi"}}, preferring("sockets", 4), {})
    assert error == ExpandError("spec.instancetype", "insufficient CPU resources of 2 vCPU provided by instance type, "
                                "preference requires 4 vCPU", "cpu")


def test_an_instancetype_naming_no_vcpus_provides_none() -> None:
    """KubeVirt's guest count is a uint32: left out, it is 0, and 0 does not meet a requirement of 1."""
    error = check({"memory": {"guest": "1Gi"}}, preferring("sockets", 1), {})
    assert error == ExpandError("spec.instancetype", "insufficient CPU resources of 0 vCPU provided by instance type, "
                                "preference requires 1 vCPU", "cpu")


def test_a_cpu_requirement_without_a_guest_count_requires_nothing() -> None:
    preference = {"requirements": {"cpu": {}}}
    assert check({"cpu": {"guest": 1}, "memory": {"guest": "1Gi"}}, preference, {}) is None
    # a VM whose CPU names no count at all offers 0 vCPUs, and 0 meets a requirement of 0
    assert check(None, preference, {"domain": {"cpu": {}}}) is None


def test_a_vm_without_cpu_is_refused_for_cpu() -> None:
    error = check(None, preferring("sockets", 2), {"domain": {"memory": {"guest": "1Gi"}}})
    assert error == ExpandError(CPU, "no CPU resources provided by VirtualMachine, preference requires 2 vCPU", "cpu")


def test_a_vm_with_too_few_sockets_is_refused_for_cpu() -> None:
    error = check(None, preferring("sockets", 3), vm_cpu(2, 1, 1))
    assert error == ExpandError(f"{CPU}.sockets", "insufficient CPU resources of 2 vCPU provided by VirtualMachine, "
                                "preference requires 3 vCPU provided as sockets", "cpu")


def test_a_spread_across_an_unknown_layout_counts_no_vcpus() -> None:
    """KubeVirt's switch over ``across`` has no case for another value, so the VM provides 0 vCPUs."""
    error = check(None, preferring("spread", 1, "Sideways"), vm_cpu(2, 2, 2))
    assert (error.message, error.reason) == (
        "insufficient CPU resources of 0 vCPU provided by VirtualMachine, preference requires 1 vCPU provided as "
        "Sideways", "cpu")


def test_an_instancetype_with_too_little_memory_is_refused_in_gos_notation() -> None:
    instancetype = {"cpu": {"guest": 2}, "memory": {"guest": "1.5Gi"}}
    error = check(instancetype, {"requirements": {"memory": {"guest": "2048Mi"}}}, {})
    assert error == ExpandError("spec.instancetype", "insufficient Memory resources of 1536Mi provided by "
                                "instance type, preference requires 2Gi", "memory")
    assert check(instancetype, {"requirements": {"memory": {"guest": "1536Mi"}}}, {}) is None


def test_with_an_instancetype_the_vms_own_memory_is_not_looked_at() -> None:
    instancetype = {"cpu": {"guest": 2}, "memory": {"guest": "1Gi"}}
    vmi_spec = {"domain": {"memory": {"guest": "8Gi"}}}
    error = check(instancetype, {"requirements": {"memory": {"guest": "2Gi"}}}, vmi_spec)
    assert str(error) == ("spec.instancetype: insufficient Memory resources of 1Gi provided by instance type, "
                          "preference requires 2Gi")


def test_an_instancetype_naming_no_memory_provides_none() -> None:
    error = check({"cpu": {"guest": 2}}, {"requirements": {"memory": {"guest": "1Gi"}}}, {})
    assert error == ExpandError("spec.instancetype", "insufficient Memory resources of 0 provided by instance type, "
                                "preference requires 1Gi", "memory")


def test_a_memory_requirement_without_a_guest_size_requires_nothing() -> None:
    preference = {"requirements": {"memory": {}}}
    assert check({"cpu": {"guest": 1}, "memory": {"guest": "1Gi"}}, preference, {}) is None
    assert check(None, preference, {"domain": {"memory": {"guest": "1Mi"}}}) is None


def test_a_vm_with_too_little_memory_is_refused_for_memory() -> None:
    error = check(None, {"requirements": {"memory": {"guest": "2Gi"}}}, {"domain": {"memory": {"guest": "1Gi"}}})
    assert error.reason == "memory"


def test_another_architecture_is_refused_for_architecture() -> None:
    error = check(None, {"requirements": {"architecture": "arm64"}}, {"architecture": "amd64"})
    assert error == ExpandError("spec.template.spec.architecture",
                                "preference requires architecture arm64 but amd64 is being requested", "architecture")
    assert check(None, {"requirements": {"architecture": "arm64"}}, {"architecture": "arm64"}) is None


def test_a_vm_naming_no_architecture_requests_the_empty_one() -> None:
    """Go prints the empty string: two spaces between "but" and "is"."""
    error = check(None, {"requirements": {"architecture": "arm64"}}, {})
    assert error.message == "preference requires architecture arm64 but  is being requested"
