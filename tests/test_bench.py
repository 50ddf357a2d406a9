"""The benchmark runs and reports every case (its figures are for people; no timing is asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.heavy(10)  # seconds of a worker's time: run early (conftest.py)

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "benchmarks" / "bench.py"
STEPS = ("load", "expand", "render", "parse", "schema", "outputs", "write")


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    """One ``bench.py --quick --json`` run, shared by the checks below."""
    saved = tmp_path_factory.mktemp("bench") / "figures.json"
    done = subprocess.run([sys.executable, str(BENCH), "--quick", "--json", str(saved)],
                          capture_output=True, text=True, cwd=REPO, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout, json.loads(saved.read_text())


def test_every_case_is_printed_with_its_figures(quick_run):
    out, _ = quick_run
    for case in ("1. build, built-in catalog", "2. validate all-bundle", "3. build, 10x catalog"):
        line = next((ln for ln in out.splitlines() if ln.startswith(case)), None)
        assert line is not None, f"{case!r} missing from:\n{out}"
        figures = line[len(case):].split()[-6:]  # objects, wall, cpu, peak, objects/s, us/object
        assert all(float(f) > 0 for f in figures), line


def test_the_breakdown_names_every_step_of_a_build(quick_run):
    out, figures = quick_run
    breakdown = out.split("where the time of case 1 goes")[1]
    for step in STEPS:
        assert f"\n  {step} " in breakdown
    assert "rule requirements-met" in breakdown and "rule twins-identical" in breakdown
    assert set(STEPS) <= set(figures["breakdown"]["steps"])


def test_the_json_figures_hold_every_case_with_its_object_count(quick_run):
    _, figures = quick_run
    cases = figures["cases"]
    built = cases["build"]
    assert built["objects"] == cases["validate"]["objects"]  # case 2 checks the bundle case 1 builds
    assert built["wall"] > 0 and built["cpu"] > 0 and built["peak_mib"] > 0
    (scaled,) = cases["scaled"]  # --quick: 10x only
    assert scaled["factor"] == 10
    assert scaled["instancetypes"] >= 10 * scaled["base_instancetypes"]
    # Every synthetic instancetype is written as both kinds, plus the built-in preferences.
    preferences = built["objects"] - 2 * scaled["base_instancetypes"]
    assert scaled["objects"] == 2 * scaled["instancetypes"] + preferences
    assert figures["quick"] is True and figures["cores"] >= 1


def test_refs_of_a_cluster_dump_is_printed_in_every_format_beside_its_floor(quick_run):
    out, figures = quick_run
    refs = figures["refs"]
    assert refs["objects"] == 2 * refs["vms"] and refs["bytes"] > 0
    for fmt in ("text", "json", "github"):
        line = next(ln for ln in out.splitlines() if ln.startswith(f"4. refs of a cluster dump, {fmt} "))
        assert int(line.split()[-6]) == refs["objects"], line
        assert refs["formats"][fmt]["peak_mib"] > 0 and refs["formats"][fmt]["wall"] > 0
        assert f"  refs --format {fmt} <= 3x the floor's wall time: x" in out
    against = out.split("against its floor, the dump read by PyYAML's C loader alone:")[1]
    floor = next(ln for ln in against.splitlines() if ln.startswith("  floor  ")).split()
    assert floor[4:6] == ["1.00", "1.00"]  # wall and CPU time, as many times the floor's
    assert figures["refs"]["floor"]["peak_mib"] > 0 and figures["refs"]["floor_paused"]["wall"] > 0
