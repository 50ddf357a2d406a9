"""The benchmark runs and reports every case beside its floor (its figures are for people; no timing is asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.heavy(10)  # seconds of a worker's time: run early (conftest.py)

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "benchmarks" / "bench.py"
FLOOR = REPO / "benchmarks" / "floor.py"
BUILDS = ("1. build, built-in catalog", "3. build, vendor catalog, 2 overlays", "3. build, 10x catalog")
STEPS = ("load", "expand", "render", "parse", "schema", "outputs", "write")


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    """One ``bench.py --quick --json`` run, shared by the checks below."""
    saved = tmp_path_factory.mktemp("bench") / "figures.json"
    done = subprocess.run([sys.executable, str(BENCH), "--quick", "--json", str(saved)],
                          capture_output=True, text=True, cwd=REPO, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout, json.loads(saved.read_text())


def _line(out: str, case: str) -> str:
    line = next((ln for ln in out.splitlines() if ln.startswith(case)), None)
    assert line is not None, f"{case!r} missing from:\n{out}"
    return line


def test_every_case_is_printed_with_its_figures(quick_run):
    out, _ = quick_run
    for case in (*BUILDS, "2. validate all-bundle"):
        line = _line(out, case)
        # objects, wall, cpu, peak, objects/s, us/object, and for a build its floor's wall time and the ratio
        figures = line[len(case):].split()[-8:] if case in BUILDS else line[len(case):].split()[-6:]
        assert all(float(f) > 0 for f in figures), line


def test_every_build_is_printed_beside_its_floor_and_the_ratio(quick_run):
    out, figures = quick_run
    cases = figures["cases"]
    for case, saved in zip(BUILDS, (cases["build"], cases["vendor"], cases["scaled"][0])):
        *_, floor_wall, ratio = _line(out, case).split()
        assert float(floor_wall) == round(saved["floor"]["wall"], 3)
        assert float(ratio) == round(saved["wall"] / saved["floor"]["wall"], 2) == round(saved["floor_ratio"], 2)
        against = out.split("each build against its floor")[1]
        row = _line(against, f"  {case}").split()[-9:]  # files, folders, then wall, cpu and peak beside the floor's
        assert [int(n) for n in row[:2]] == [saved["files"], saved["folders"]]
        assert float(row[4]) == round(saved["floor_ratio"], 2) and float(row[7]) == round(saved["floor_ratio_cpu"], 2)
        assert saved["floor"]["objects"] == saved["objects"] and saved["floor"]["peak_mib"] > 0
    # The floor is what a build leaves: the validation's own case has none.
    assert len(_line(out, "2. validate all-bundle").split()) == len("2. validate all-bundle".split()) + 6
    summary = _line(out, "summary, citgen build / floor (wall, and cpu in brackets): ")
    for name, saved in (("built-in", cases["build"]), ("vendor, 2 overlays", cases["vendor"]),
                        ("10x", cases["scaled"][0])):
        assert (f"{name} {saved['wall']:.3f} s / {saved['floor']['wall']:.3f} s = x{saved['floor_ratio']:.2f} "
                f"(cpu x{saved['floor_ratio_cpu']:.2f})") in summary


def test_the_vendor_catalog_extends_the_built_in_one_through_two_overlays(quick_run):
    _, figures = quick_run
    vendor, built = figures["cases"]["vendor"], figures["cases"]["build"]
    assert vendor["overlays"] == 2 and vendor["objects"] > 0 and vendor["objects"] != built["objects"]
    assert vendor["files"] > built["files"]  # its own series and the GN series add kustomize components


def _tree(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in root.rglob("*") if path.is_file()}


def test_the_floor_writes_the_tree_citgen_wrote_byte_for_byte_and_swaps_it_in(tmp_path):
    out, floor_out, tree = tmp_path / "out", tmp_path / "floor-out", tmp_path / "tree.pickle"
    subprocess.run([sys.executable, "-m", "generator", "build", "--out", str(out), "--helm-package"],
                   check=True, capture_output=True, cwd=REPO)
    subprocess.run([sys.executable, str(FLOOR), "--read", str(out), str(tree)], check=True)
    floor_out.mkdir()
    (floor_out / "stale").write_text("the old tree")  # the floor puts its tree in place of the old one
    for _ in range(2):
        done = subprocess.run([sys.executable, "-X", "importtime", str(FLOOR), str(tree), str(floor_out)],
                              capture_output=True, text=True, check=True)
        written = _tree(floor_out)
        assert written == _tree(out) and ".citgen-manifest" in written and len(written) > 100
        assert sorted(p.name for p in floor_out.parent.iterdir()) == ["floor-out", "out", "tree.pickle"]
    assert oct(floor_out.stat().st_mode & 0o777) == oct(out.stat().st_mode & 0o777)
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
    assert {"yaml", "jinja2", "click"} <= imported  # what any build must import
    assert not any(name.split(".")[0] == "generator" for name in imported)  # and no citgen code


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
    assert (refs["runs"], refs["json_runs"]) == (1, 1)  # --quick: one of each (a full run: 1 and 3)
    for fmt in ("text", "json", "github"):
        line = next(ln for ln in out.splitlines() if ln.startswith(f"4. refs of a cluster dump, {fmt} "))
        assert int(line.split()[-6]) == refs["objects"], line
        assert refs["formats"][fmt]["peak_mib"] > 0 and refs["formats"][fmt]["wall"] > 0
        assert f"  refs --format {fmt} <= 3x the floor's wall time: x" in out
    against = out.split("against its floor, the dump read by PyYAML's C loader alone:")[1]
    floor = next(ln for ln in against.splitlines() if ln.startswith("  floor  ")).split()
    assert floor[4:6] == ["1.00", "1.00"]  # wall and CPU time, as many times the floor's
    assert figures["refs"]["floor"]["peak_mib"] > 0 and figures["refs"]["floor_paused"]["wall"] > 0


def test_the_full_run_builds_the_10x_and_100x_catalogs_and_no_larger(monkeypatch):
    """100x stays as a check that growth is linear; the 1000x case is gone (issue 34)."""
    monkeypatch.syspath_prepend(str(BENCH.parent))
    import bench

    assert bench.FACTORS == (10, 100)
    assert "1000" not in BENCH.read_text().replace("* 1000", "")
