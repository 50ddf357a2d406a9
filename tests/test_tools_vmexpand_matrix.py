"""The instancetype x preference matrix on the upstream catalog.

KubeVirt accepts 3265 of upstream's 3705 cluster pairs and refuses 251 for
memory, 51 for vCPUs and 138 for spread topology (the DPDK and realtime
preferences). The expected verdict of each pair is recomputed here from the
objects' numbers alone, without the expansion code, so the two must agree pair
by pair and not only in the totals.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from generator.quantity import parse
from generator.tools.vmexpand.matrix import PairResult, default_vm, format_json, format_text, matrix, summary
from tests.helpers import read_yaml_stream


@pytest.fixture(scope="module")
def upstream_objects() -> list[dict]:
    from tests.conftest import UPSTREAM, shared_file

    bundle = shared_file(UPSTREAM / "common-instancetypes-all-bundle.yaml")
    return [d for d in read_yaml_stream(bundle) if d]


@pytest.fixture(scope="module")
def results(upstream_objects: list[dict]) -> list[PairResult]:
    return matrix(upstream_objects, upstream_objects)


def _of_kind(objects: list[dict], kind: str) -> dict[str, dict]:
    return {o["metadata"]["name"]: o["spec"] for o in objects if o["kind"] == kind}


def _expected_refusal(it: dict, pref: dict) -> str | None:
    """Which of spread, vCPUs or memory refuses the pair, from the numbers alone."""
    vcpus = it["cpu"]["guest"]
    cpu_pref = pref.get("cpu", {})
    if cpu_pref.get("preferredCPUTopology") == "spread":
        across = cpu_pref.get("spreadOptions", {}).get("across", "SocketsCores")
        ratio = cpu_pref.get("spreadOptions", {}).get("ratio", 2)
        per_socket = ratio * 2 if across == "SocketsCoresThreads" else ratio
        if vcpus % per_socket:
            return "topology"
    required = pref.get("requirements", {})
    if vcpus < required.get("cpu", {}).get("guest", 0):
        return "cpu"
    if parse(it["memory"]["guest"]) < parse(required.get("memory", {}).get("guest", 0)):
        return "memory"
    return None


def test_upstream_totals_match_kubevirt(results: list[PairResult]) -> None:
    assert summary(results) == {
        "pairs": 3705,
        "accepted": 3265,
        "rejected": 440,
        "rejected_cpu": 51,
        "rejected_memory": 251,
        "rejected_topology": 138,
    }


def test_every_pair_matches_an_independent_check(upstream_objects: list[dict], results: list[PairResult]) -> None:
    instancetypes = _of_kind(upstream_objects, "VirtualMachineClusterInstancetype")
    preferences = _of_kind(upstream_objects, "VirtualMachineClusterPreference")
    assert len(results) == len(instancetypes) * len(preferences)
    for r in results:
        expected = _expected_refusal(instancetypes[r.instancetype], preferences[r.preference])
        assert (r.ok, r.reason) == (expected is None, expected), (r.instancetype, r.preference, r.error)


def test_spread_refusals_are_the_dpdk_and_realtime_preferences(results: list[PairResult]) -> None:
    refused = Counter(r.preference for r in results if r.reason == "topology")
    assert sorted(refused) == ["centos.stream9.dpdk", "rhel.8.dpdk", "rhel.9.dpdk", "rhel.9.realtime"]
    assert sum(refused.values()) == 138


def test_refusals_carry_kubevirts_messages(results: list[PairResult]) -> None:
    by_pair = {(r.instancetype, r.preference): r for r in results}
    assert by_pair["u1.nano", "rhel.9"].error == (
        "insufficient Memory resources of 512Mi provided by instance type, preference requires 1536Mi"
    )
    assert by_pair["u1.medium", "windows.11"].error == (
        "insufficient CPU resources of 1 vCPU provided by instance type, preference requires 2 vCPU"
    )
    assert by_pair["cx1.2xlarge", "rhel.9.realtime"].ok
    assert by_pair["cx1.2xlarge", "rhel.9.realtime"].error is None


def test_json_has_one_record_per_pair(results: list[PairResult]) -> None:
    records = json.loads(format_json(results))
    assert len(records) == 3705
    assert all(set(r) == {"instancetype", "preference", "ok", "error"} for r in records)
    refused = next(r for r in records if not r["ok"])
    assert isinstance(refused["error"], str) and refused["error"]
    assert {r["error"] for r in records if r["ok"]} == {None}


def test_text_lists_refused_pairs_and_totals(results: list[PairResult]) -> None:
    lines = format_text(results).splitlines()
    assert lines[-1] == "3265 of 3705 pairs accepted, 440 rejected"
    assert len(lines) == 441
    assert "u1.nano + rhel.9: insufficient Memory resources of 512Mi provided by instance type, " \
           "preference requires 1536Mi" in lines
    assert len(format_text(results, all_pairs=True).splitlines()) == 3706


def test_default_vm_sets_no_cpu_memory_or_architecture() -> None:
    vm = default_vm("u1.small", "fedora")
    spec = vm["spec"]["template"]["spec"]
    assert "architecture" not in spec
    assert set(spec["domain"]) == {"devices"}
    assert [sorted(v) for v in spec["volumes"]] == [["containerDisk", "name"], ["cloudInitNoCloud", "name"]]


def test_small_matrix_written_here() -> None:
    def it(name: str, cpu: int, memory: str) -> dict:
        return {"kind": "VirtualMachineClusterInstancetype", "metadata": {"name": name},
                "spec": {"cpu": {"guest": cpu}, "memory": {"guest": memory}}}

    def pref(name: str, spec: dict) -> dict:
        return {"kind": "VirtualMachineClusterPreference", "metadata": {"name": name}, "spec": spec}

    objects = [
        it("b.small", 1, "1Gi"),
        it("a.big", 6, "8Gi"),
        pref("needs-2g", {"requirements": {"memory": {"guest": "2Gi"}}}),
        pref("spread3", {"cpu": {"preferredCPUTopology": "spread", "spreadOptions": {"ratio": 3}}}),
        {"kind": "VirtualMachineInstancetype", "metadata": {"name": "namespaced-ignored"}, "spec": {}},
    ]
    verdicts = [(r.instancetype, r.preference, r.ok) for r in matrix(objects, objects)]
    assert verdicts == [
        ("a.big", "needs-2g", True),
        ("a.big", "spread3", True),
        ("b.small", "needs-2g", False),
        ("b.small", "spread3", False),
    ]


def _it(name: str, cpu: int, memory: str) -> dict:
    return {"kind": "VirtualMachineClusterInstancetype", "metadata": {"name": name},
            "spec": {"cpu": {"guest": cpu}, "memory": {"guest": memory}}}


def _pref(name: str, spec: dict) -> dict:
    return {"kind": "VirtualMachineClusterPreference", "metadata": {"name": name}, "spec": spec}


def test_a_pair_records_its_verdict_and_first_refusal() -> None:
    objects = [_it("small", 1, "1Gi"), _pref("needs-2", {"requirements": {"cpu": {"guest": 2}}}), _pref("any", {})]
    assert matrix(objects, objects) == [
        PairResult("small", "any", True, None, None),
        PairResult("small", "needs-2", False,
                   "insufficient CPU resources of 1 vCPU provided by instance type, preference requires 2 vCPU", "cpu"),
    ]


def test_the_matrix_expands_for_the_clusters_architecture() -> None:
    objects = [_it("small", 1, "1Gi"), _pref("arm", {"requirements": {"architecture": "arm64"}})]
    assert [r.ok for r in matrix(objects, objects, arch="arm64")] == [True]
    refused = matrix(objects, objects)
    assert [(r.ok, r.reason, r.error) for r in refused] == [
        (False, "architecture", "preference requires architecture arm64 but amd64 is being requested")]


def test_objects_without_metadata_or_of_other_kinds_are_left_out() -> None:
    objects = ["text", {"kind": "VirtualMachineClusterPreference"},
               {"kind": "VirtualMachineClusterPreference", "metadata": []},
               _it("b", 1, "1Gi"), _it("a", 1, "1Gi"), _pref("z", {}), _pref("y", {}),
               {"kind": "VirtualMachinePreference", "metadata": {"name": "ns"}, "spec": {}}]
    assert [(r.instancetype, r.preference) for r in matrix(objects, objects)] == [
        ("a", "y"), ("a", "z"), ("b", "y"), ("b", "z")]
    assert matrix([_it("a", 1, "1Gi")], [_pref("y", {})]) == [PairResult("a", "y", True)]
    assert matrix([_pref("y", {})], [_it("a", 1, "1Gi")]) == []


def test_the_default_vm_names_the_pair_as_cluster_kinds() -> None:
    assert default_vm("u1.small", "fedora") == {
        "apiVersion": "kubevirt.io/v1",
        "kind": "VirtualMachine",
        "metadata": {"name": "matrix"},
        "spec": {
            "instancetype": {"kind": "VirtualMachineClusterInstancetype", "name": "u1.small"},
            "preference": {"kind": "VirtualMachineClusterPreference", "name": "fedora"},
            "runStrategy": "Halted",
            "template": {"spec": {"domain": {"devices": {}}, "volumes": [
                {"name": "containerdisk", "containerDisk": {"image": "quay.io/containerdisks/fedora:latest"}},
                {"name": "cloudinitdisk", "cloudInitNoCloud": {"userData": "#cloud-config\n"}},
            ]}},
        },
    }


SMALL = [
    PairResult("a", "p", True),
    PairResult("a", "q", False, "too small", "memory"),
    PairResult("b", "p", False, "cannot spread", "topology"),
    PairResult("b", "q", False, "too few", "memory"),
]


def test_the_summary_counts_refusals_by_reason_in_name_order() -> None:
    counted = summary(iter(SMALL))
    assert counted == {"pairs": 4, "accepted": 1, "rejected": 3, "rejected_memory": 2, "rejected_topology": 1}
    assert list(counted) == ["pairs", "accepted", "rejected", "rejected_memory", "rejected_topology"]
    assert summary([]) == {"pairs": 0, "accepted": 0, "rejected": 0}


def test_the_text_lists_refusals_then_the_totals() -> None:
    assert format_text(iter(SMALL)) == ("a + q: too small\nb + p: cannot spread\nb + q: too few\n"
                                        "1 of 4 pairs accepted, 3 rejected\n")
    assert format_text(SMALL, all_pairs=True) == ("a + p: ok\na + q: too small\nb + p: cannot spread\nb + q: too few\n"
                                                  "1 of 4 pairs accepted, 3 rejected\n")


def test_the_json_is_an_indented_list_of_records() -> None:
    text = format_json(SMALL[:2])
    assert text == json.dumps([
        {"instancetype": "a", "preference": "p", "ok": True, "error": None},
        {"instancetype": "a", "preference": "q", "ok": False, "error": "too small"},
    ], indent=2) + "\n"
    assert SMALL[1].record() == {"instancetype": "a", "preference": "q", "ok": False, "error": "too small"}


def test_two_objects_of_one_name_are_both_checked_in_their_order() -> None:
    objects = [_it("a", 1, "1Gi"), _it("a", 4, "1Gi"), _pref("needs-2", {"requirements": {"cpu": {"guest": 2}}})]
    assert [(r.instancetype, r.ok) for r in matrix(objects, objects)] == [("a", False), ("a", True)]
    objects = [_it("a", 1, "1Gi"), _pref("p", {"requirements": {"cpu": {"guest": 2}}}), _pref("p", {})]
    assert [(r.preference, r.ok) for r in matrix(objects, objects)] == [("p", False), ("p", True)]
