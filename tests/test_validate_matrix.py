"""`citgen validate --matrix`: every instancetype against every preference, as KubeVirt judges them."""

from __future__ import annotations

import json

from click.testing import CliRunner

from generator.cli import main
from generator.quantity import parse
from tests.helpers import read_yaml_stream


def refused_because(instancetype: dict, preference: dict) -> bool:
    """Whether the numbers alone say the pair cannot work: topology, vCPUs or memory."""
    vcpus = instancetype["spec"]["cpu"]["guest"]
    cpu = preference["spec"].get("cpu", {})
    if cpu.get("preferredCPUTopology") == "spread":
        options = cpu.get("spreadOptions", {})
        per_socket = options.get("ratio", 2) * (2 if options.get("across") == "SocketsCoresThreads" else 1)
        if vcpus % per_socket:
            return True
    required = preference["spec"].get("requirements", {})
    return (vcpus < required.get("cpu", {}).get("guest", 0)
            or parse(instancetype["spec"]["memory"]["guest"]) < parse(required.get("memory", {}).get("guest", 0)))


def run_matrix(*args: str) -> list[dict]:
    result = CliRunner().invoke(main, ["validate", "--matrix", "--format", "json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def check_exactly_the_impossible_pairs_are_rejected(records: list[dict], objects: list[dict]) -> None:
    instancetypes = {o["metadata"]["name"]: o for o in objects if o["kind"] == "VirtualMachineClusterInstancetype"}
    preferences = {o["metadata"]["name"]: o for o in objects if o["kind"] == "VirtualMachineClusterPreference"}
    assert len(records) == len(instancetypes) * len(preferences)
    for record in records:
        expected = refused_because(instancetypes[record["instancetype"]], preferences[record["preference"]])
        assert record["ok"] is not expected, record
        assert (record["error"] is None) is record["ok"]


def test_upstream_catalog_gives_kubevirts_figures(upstream_dir):
    bundle = upstream_dir / "common-instancetypes-all-bundle.yaml"
    records = run_matrix(str(bundle))
    assert (len(records), sum(r["ok"] for r in records)) == (3705, 3265)
    errors = [r["error"] for r in records if not r["ok"]]
    assert sum("insufficient Memory" in e for e in errors) == 251
    assert sum("insufficient CPU" in e for e in errors) == 51
    assert sum("not divisible" in e for e in errors) == 138
    check_exactly_the_impossible_pairs_are_rejected(records, read_yaml_stream(bundle))


def test_the_generated_catalog_rejects_exactly_the_pairs_it_cannot_meet():
    from tests.helpers import default_build

    objects = [d.data for d in default_build().documents]
    check_exactly_the_impossible_pairs_are_rejected(run_matrix(), objects)


def test_text_output_lists_rejections_and_a_total():
    result = CliRunner().invoke(main, ["validate", "--matrix"])
    lines = result.output.splitlines()
    assert result.exit_code == 0
    assert "u1.nano + windows.11: insufficient CPU resources of 1 vCPU provided by instance type, " \
           "preference requires 2 vCPU" in lines
    assert lines[-1].endswith(" rejected") and " of 3705 pairs accepted, " in lines[-1]
