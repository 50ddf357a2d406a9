"""The requirements-met rule on its own: some instancetype meets each preference's requirements.

KubeVirt compares a preference's requirements with an instancetype's
``spec.cpu.guest`` and ``spec.memory.guest`` (pkg/instancetype/preference/
requirements): at least as many vCPUs, at least as much memory, in one
instancetype. The guest topology a preference asks for (threads, spread over
sockets, cores and threads) lays those vCPUs out and does not change their count.
"""

from __future__ import annotations

import pytest

from generator.validate.rules import requirements_met

from tests.ruledocs import NIT, NPREF, findings, instancetype, preference


def requiring(cpu: int | None = None, memory: str | None = None, arch: str | None = None, name: str = "p",
              **spec) -> dict:
    requirements: dict = {}
    if cpu is not None:
        requirements["cpu"] = {"guest": cpu}
    if memory is not None:
        requirements["memory"] = {"guest": memory}
    if arch is not None:
        requirements["architecture"] = arch
    return preference(name, requirements=requirements, **spec)


def unmet(index: int, wanted: str, reason: str, name: str = "p") -> str:
    return (f"b.yaml#{index} ({name}) $.spec.requirements: no instancetype meets these requirements "
            f"({wanted}): {reason} [requirements-met]")


def test_an_instancetype_with_exactly_the_required_vcpus_and_memory_meets_them() -> None:
    assert findings(requirements_met, instancetype("u1.large", 2, "8Gi"), requiring(2, "8Gi")) == []
    assert findings(requirements_met, instancetype("u1.large", 2, "8Gi"), requiring(2, "8192Mi")) == []


def test_one_vcpu_or_one_byte_short() -> None:
    assert findings(requirements_met, instancetype("u1.large", 2, "8Gi"), requiring(3, "8Gi"),
                    requiring(2, "8589934593", name="q")) == [
        unmet(1, "3 vCPUs, 8Gi of memory", "at most 2 vCPUs are offered"),
        unmet(2, "2 vCPUs, 8589934593 of memory", "at most 8Gi of memory is offered", "q")]


def test_a_single_vcpu_is_counted_in_the_singular() -> None:
    assert findings(requirements_met, instancetype("u1.nano", 1, "512Mi"), requiring(2)) == [
        unmet(1, "2 vCPUs", "at most 1 vCPU is offered")]
    assert findings(requirements_met, instancetype("u1.nano", 2, "512Mi"), requiring(1, "1Gi")) == [
        unmet(1, "1 vCPU, 1Gi of memory", "at most 512Mi of memory is offered")]


def test_vcpus_and_memory_must_come_from_the_same_instancetype() -> None:
    assert findings(requirements_met, instancetype("cx1.large", 8, "2Gi"), instancetype("m1.large", 1, "64Gi"),
                    requiring(4, "16Gi")) == [unmet(2, "4 vCPUs, 16Gi of memory", "none has both")]


def test_the_best_memory_is_found_among_any_larger_vcpu_count() -> None:
    """The instancetype with most memory is not the one with most vCPUs, nor the one with just enough."""
    offered = [instancetype("a.x", 2, "4Gi"), instancetype("b.x", 4, "32Gi"), instancetype("c.x", 16, "8Gi")]
    assert findings(requirements_met, *offered, requiring(3, "32Gi"), requiring(2, "32Gi", name="q")) == []
    assert findings(requirements_met, *offered, requiring(5, "16Gi")) == [
        unmet(3, "5 vCPUs, 16Gi of memory", "none has both")]


@pytest.mark.parametrize("cpu_preferences", [
    {"preferredCPUTopology": "threads"},
    {"preferredCPUTopology": "spread", "spreadOptions": {"across": "SocketsCoresThreads", "ratio": 2}},
    {"preferredCPUTopology": "spread", "spreadOptions": {"across": "CoresThreads"}},
    {"preferredCPUTopology": "any"},
])
def test_the_preferred_topology_does_not_change_the_count(cpu_preferences) -> None:
    """8 vCPUs laid out as 2 sockets x 2 cores x 2 threads are still 8 vCPUs."""
    enough, more = requiring(8, "32Gi"), requiring(9)
    enough["spec"]["cpu"] = more["spec"]["cpu"] = cpu_preferences
    assert findings(requirements_met, instancetype("u1.2xlarge", 8, "32Gi"), enough) == []
    assert findings(requirements_met, instancetype("u1.2xlarge", 8, "32Gi"), more) == [
        unmet(1, "9 vCPUs", "at most 8 vCPUs are offered")]


def test_architecture_picks_instancetypes_labelled_for_it_or_for_none() -> None:
    arm = instancetype("u1.large", 2, "8Gi", labels={"arch": "arm64"})
    anywhere = instancetype("u1.small", 1, "2Gi")
    assert findings(requirements_met, arm, anywhere, requiring(2, "8Gi", "arm64"), requiring(1, "2Gi", "s390x")) == []
    assert findings(requirements_met, arm, anywhere, requiring(2, "8Gi", "amd64")) == [
        unmet(2, "2 vCPUs, 8Gi of memory, architecture amd64", "at most 1 vCPU is offered for architecture amd64")]
    assert findings(requirements_met, arm, requiring(1, "1Gi", "amd64")) == [
        unmet(1, "1 vCPU, 1Gi of memory, architecture amd64", "no instancetype is offered for architecture amd64")]


def test_an_architecture_without_labelled_instancetypes_is_any() -> None:
    assert findings(requirements_met, instancetype("u1.large", 2, "8Gi"), requiring(4, None, "arm64")) == [
        unmet(1, "4 vCPUs", "at most 2 vCPUs are offered")]


def test_either_kind_offers_and_either_kind_asks() -> None:
    assert findings(requirements_met, instancetype("u1.large", 4, "16Gi", kind=NIT),
                    requiring(4, "16Gi", kind=NPREF)) == []


def test_nothing_to_match_without_instancetypes_or_requirements() -> None:
    assert findings(requirements_met, requiring(64, "1Ti")) == []
    assert findings(requirements_met, instancetype("u1.nano", 1, "512Mi"), preference("p"),
                    preference("q", requirements="none")) == []


def test_instancetypes_with_unreadable_sizes_offer_nothing() -> None:
    assert findings(requirements_met, instancetype("u1.large", "two", "8Gi"), instancetype("u1.small", 1, "lots"),
                    instancetype("u1.nano", 1, "1Gi"), requiring(1, "2Gi")) == [
        unmet(3, "1 vCPU, 2Gi of memory", "at most 1Gi of memory is offered")]


def test_each_preference_is_judged_whatever_the_ones_before_it() -> None:
    """A preference without requirements, then one whose requirements are met, do not end the check."""
    assert findings(requirements_met, instancetype("u1.large", 2, "8Gi"), preference("none"), requiring(2, "8Gi"),
                    requiring(4, name="q")) == [unmet(3, "4 vCPUs", "at most 2 vCPUs are offered", "q")]


def test_as_much_memory_as_offered_but_not_with_the_vcpus_is_none_has_both() -> None:
    """The most memory on offer is exactly what is required, only on an instancetype with too few vCPUs."""
    assert findings(requirements_met, instancetype("cx1.large", 8, "2Gi"), instancetype("m1.large", 1, "16Gi"),
                    requiring(4, "16Gi")) == [unmet(2, "4 vCPUs, 16Gi of memory", "none has both")]


def test_a_preference_without_an_architecture_is_met_by_an_instancetype_labelled_with_one() -> None:
    arm = instancetype("u1.large", 2, "8Gi", labels={"arch": "arm64"})
    assert findings(requirements_met, arm, requiring(2, "8Gi")) == []
    assert findings(requirements_met, arm, requiring(4, "8Gi")) == [
        unmet(1, "4 vCPUs, 8Gi of memory", "at most 2 vCPUs are offered")]


def test_a_requirement_of_memory_alone_asks_for_no_vcpus() -> None:
    """Without ``cpu.guest`` any vCPU count will do, an instancetype of 0 vCPUs too, and none is named."""
    assert findings(requirements_met, instancetype("u1.none", 0, "8Gi"), requiring(memory="8Gi")) == []
    assert findings(requirements_met, instancetype("u1.large", 2, "8Gi"), requiring(memory="16Gi")) == [
        unmet(1, "16Gi of memory", "at most 8Gi of memory is offered")]
