"""mutation/run.py: which module is judged by which tests, how a score is kept, and that the table is the tool's.

The runs themselves take minutes to hours (``make mutate``) and are not part of the
suite; what is checked here is everything around them: the scope, the naming rule
that picks a module's own test files, the configuration each run gets, the score, and
that docs/testing.md shows exactly what mutation/results.json recorded.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("mutation_run", REPO / "mutation" / "run.py")
run = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = run  # its dataclasses look their module up there
spec.loader.exec_module(run)


#: Modules of the scope that no test file is named after yet: `make mutate` reports each as an error.
STILL_WITHOUT: set[str] = set()  # none left (issue 34, item 5): a new module comes with its test file


@pytest.mark.parametrize("module, stem", [
    ("generator/quantity.py", "quantity"),
    ("generator/source/inputfiles.py", "source_inputfiles"),
    ("generator/validate/rules/webhook_decode.py", "validate_rules_webhook_decode"),
    ("generator/validate/__init__.py", "validate"),
    ("generator/tools/vmexpand/_tree.py", "tools_vmexpand_tree"),
])
def test_a_module_s_test_files_are_named_after_its_path(module, stem):
    assert run.test_stem(module) == stem


def test_a_module_is_judged_by_its_own_file_and_the_files_that_extend_its_name(tmp_path):
    for name in ("test_expand_traits.py", "test_expand_traits_conflicts.py", "test_expand_traitsy.py",
                 "test_expand_instancetypes.py"):
        (tmp_path / "tests").mkdir(exist_ok=True)
        (tmp_path / "tests" / name).write_text("")
    assert run.test_files("generator/expand/traits.py", tmp_path) == [
        "tests/test_expand_traits.py", "tests/test_expand_traits_conflicts.py"]


def test_the_scope_is_every_module_of_the_package_but_the_entry_points():
    found = run.modules()
    every = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "generator").rglob("*.py")
                   if "__pycache__" not in p.parts)
    assert found == [m for m in every if m not in run.LEFT_OUT]
    assert "generator/cli/options.py" in found and "generator/schemas/dated.py" in found
    assert "generator/__main__.py" not in found and "generator/cli/__main__.py" not in found


def test_a_module_left_out_is_left_out_of_a_folder_and_one_named_alone_is_kept(tmp_path):
    for name in ("pkg/__main__.py", "pkg/a.py", "pkg/sub/b.py", "c.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    assert run.modules(("pkg/", "c.py"), tmp_path, ("pkg/__main__.py",)) == ["c.py", "pkg/a.py", "pkg/sub/b.py"]
    assert run.modules(("pkg/",), tmp_path, ()) == ["pkg/__main__.py", "pkg/a.py", "pkg/sub/b.py"]


def test_every_module_of_the_scope_has_test_files_of_its_own_but_those_still_without():
    """The modules no test file is named after yet (issue 34): the list only shrinks."""
    without = [m for m in run.modules() if not run.test_files(m)]
    assert set(without) <= STILL_WITHOUT, sorted(set(without) - STILL_WITHOUT)


@pytest.mark.parametrize("code, status", [(1, "killed"), (3, "killed"), (0, "survived"), (36, "timeout"),
                                          (5, "no tests"), (None, "not checked"), (-11, "suspicious")])
def test_mutmut_s_exit_codes_read_as_its_own_table_reads_them(code, status):
    assert run.status_of(code) == status


def result(**status: str) -> dict:
    return {"module": "generator/x.py", "tests": ["tests/test_x.py"], "status": status}


def test_the_score_counts_timeouts_as_killed_and_leaves_equivalent_mutants_out():
    r = run.row(result(a="killed", b="timeout", c="survived", d="survived", e="no tests"), {"x.d": {}, "d": {}})
    assert (r.mutants, r.killed, r.equivalent, r.survived) == (5, 2, 1, 2)
    assert r.score == pytest.approx(2 / 4)
    assert not r.meets


def test_ninety_percent_meets_the_target_and_a_module_without_mutants_has_no_score():
    nine = run.row(result(**{f"m{i}": "killed" for i in range(9)}, s="survived"), {})
    assert nine.score == pytest.approx(0.9) and nine.meets
    empty = run.row(result(), {})
    assert empty.score is None and empty.meets


def test_each_run_mutates_one_module_and_runs_its_tests_alone(tmp_path):
    copy = tmp_path / "citgen"
    copy.mkdir()
    (copy / "pyproject.toml").write_text('[project]\nname = "citgen"\n\n[tool.mutmut]\nonly_mutate = ["old"]\n\n'
                                         '[tool.other]\nkept = true\n')
    run.configure(copy, "generator/merge.py", ["tests/test_merge.py"])
    text = (copy / "pyproject.toml").read_text()
    assert text.count("[tool.mutmut]") == 1 and "[tool.other]\nkept = true" in text
    assert 'only_mutate = ["generator/merge.py"]' in text
    assert 'pytest_add_cli_args_test_selection = ["tests/test_merge.py"]' in text
    assert '"no:xdist"' in text


def test_the_copy_holds_the_tracked_files_as_they_are_and_leaves_the_tree_alone(tmp_path):
    tree = tmp_path / "tree"
    (tree / "generator").mkdir(parents=True)
    (tree / "generator" / "merge.py").write_text("committed\n")
    (tree / "pyproject.toml").write_text('[project]\nname = "citgen"\n')
    subprocess.run(["git", "init", "-q"], cwd=tree, check=True)
    subprocess.run(["git", "add", "."], cwd=tree, check=True)
    (tree / "generator" / "merge.py").write_text("being worked on\n")
    (tree / "scratch.py").write_text("untracked\n")
    before = {p: p.read_bytes() for p in tree.rglob("*") if p.is_file() and ".git" not in p.parts}
    copy = run.make_copy(tmp_path / "work", tree)
    assert (copy / "generator" / "merge.py").read_text() == "being worked on\n"
    assert not (copy / "scratch.py").exists()
    run.configure(copy, "generator/merge.py", ["tests/test_merge.py"])
    assert {p: p.read_bytes() for p in tree.rglob("*") if p.is_file() and ".git" not in p.parts} == before


def test_the_table_in_docs_testing_md_is_the_one_the_recorded_results_make():
    recorded = json.loads(run.RESULTS.read_text()) if run.RESULTS.is_file() else {}
    text = run.DOCS.read_text()
    start, end = text.index(run.TABLE_START), text.index(run.TABLE_END) + len(run.TABLE_END)
    assert text[start:end] == run.docs_section(recorded, run.load_equivalent()), (
        "docs/testing.md's mutation table is not mutation/results.json's: run mutation/run.py --record")


def test_every_equivalent_mutant_is_one_mutmut_makes_of_a_recorded_module_and_says_why():
    """No stale entry: each names a mutant of the recorded runs (a slow one may time out there, which
    counts as killed), with what it changes and why that cannot be seen."""
    recorded = json.loads(run.RESULTS.read_text()) if run.RESULTS.is_file() else {}
    made = {name: status for entry in recorded.values() for name, status in entry["status"].items()}
    equivalent = yaml.safe_load(run.EQUIVALENT.read_text()) or {}
    for name, entry in equivalent.items():
        assert name in made, f"{name} is listed as equivalent but no recorded run made it"
        # a mutant a test kills is no equivalent: the entry is about another mutant, which its
        # function's changed code has moved to another number
        assert made[name] != "killed", f"{name} is listed as equivalent but the recorded run killed it"
        assert entry.get("change") and entry.get("reason"), name


def test_recording_merges_a_run_into_the_recorded_results_and_the_docs(tmp_path, monkeypatch):
    results, docs = tmp_path / "results.json", tmp_path / "testing.md"
    results.write_text(json.dumps({"generator/a.py": {**result(m1="killed"), "module": "generator/a.py",
                                                      "run": {"date": "2026-01-01", "commit": "abc"}}}))
    docs.write_text(f"before\n{run.TABLE_START}\nTHE OLD TABLE\n{run.TABLE_END}\nafter\n")
    fresh = tmp_path / "fresh.json"
    fresh.write_text(json.dumps({"run": {"date": "2026-11-25", "commit": "def"}, "modules": [
        {**result(m1="killed", m2="survived"), "module": "generator/b.py", "error": ""},
        {**result(), "module": "generator/c.py", "error": "no test file names this module"}]}))
    monkeypatch.setattr(run, "RESULTS", results)
    monkeypatch.setattr(run, "DOCS", docs)
    monkeypatch.setattr(run, "EQUIVALENT", tmp_path / "none.yaml")
    run.record(fresh)
    merged = json.loads(results.read_text())
    assert sorted(merged) == ["generator/a.py", "generator/b.py"]  # a run that failed records nothing
    text = docs.read_text()
    assert text.startswith("before\n") and text.endswith("after\n") and "THE OLD TABLE" not in text
    assert "No surviving mutant is taken for equivalent." in text
    assert "| `generator/b.py` | 2 | 1 | 0 | 1 | 50.0% (below 90%) | 2026-11-25 def |" in text
    assert "| `generator/a.py` | 1 | 1 | 0 | 0 | 100.0% | 2026-01-01 abc |" in text


def test_mutmut_s_statuses_are_read_from_the_module_s_meta_file(tmp_path):
    meta = tmp_path / "merge.py.meta"
    meta.write_text(json.dumps({"exit_code_by_key": {"m2": 0, "m1": 1}}))
    read = run.read_meta(run.ModuleResult("generator/merge.py", []), meta, 0, tmp_path / "log")
    assert (read.status, read.error) == ({"m1": "killed", "m2": "survived"}, "")


def test_a_run_that_stopped_before_the_mutants_is_an_error_not_a_score(tmp_path):
    """The tests failed unmutated (under mutmut): no mutant was tried, so none survived."""
    meta = tmp_path / "merge.py.meta"
    meta.write_text(json.dumps({"exit_code_by_key": {"m1": None, "m2": None}}))
    read = run.read_meta(run.ModuleResult("generator/merge.py", []), meta, 1, tmp_path / "log")
    assert read.error.startswith("mutmut exited with 1 before testing every mutant")
    missing = run.read_meta(run.ModuleResult("generator/merge.py", []), tmp_path / "none.meta", 2, tmp_path / "log")
    assert missing.error == f"mutmut exited with 2 and wrote no results (see {tmp_path / 'log'})"


def saved_run(path, commit, *modules):
    path.write_text(json.dumps({"run": {"date": "2026-11-24", "commit": commit}, "modules": [
        {**result(m1="killed"), "module": name, "error": "no test file names this module" if name.endswith("!")
         else ""} for name in modules]}))
    return path


def test_a_run_resumed_at_its_commit_keeps_its_date_and_the_modules_it_judged(tmp_path):
    saved = saved_run(tmp_path / "r.json", "abc1234", "generator/a.py", "generator/b.py!")
    kept_run, kept = run.resumed(saved, {"date": "2026-11-25", "commit": "abc1234"})
    assert kept_run == {"date": "2026-11-24", "commit": "abc1234"}
    assert [r.module for r in kept] == ["generator/a.py"]  # the module that ended in an error runs again
    assert kept[0].status == {"m1": "killed"}


def test_nothing_to_resume_starts_the_run_afresh(tmp_path):
    fresh = {"date": "2026-11-25", "commit": "abc1234"}
    assert run.resumed(tmp_path / "none.json", fresh) == (fresh, [])


@pytest.mark.parametrize("now", ["def5678", "abc1234+changes"])
def test_a_run_is_not_resumed_on_another_tree(tmp_path, now):
    saved = saved_run(tmp_path / "r.json", "abc1234" if now == "def5678" else now, "generator/a.py")
    with pytest.raises(ValueError, match="resumed only at the clean commit it started from"):
        run.resumed(saved, {"date": "2026-11-25", "commit": now})


def test_the_caches_forgotten_under_mutmut_are_the_package_s():
    from tests.conftest import forget_memos
    from generator.objectmeta import label_value_problem

    label_value_problem("forgotten")
    assert label_value_problem.cache_info().currsize
    forget_memos()
    assert label_value_problem.cache_info().currsize == 0


@pytest.mark.parametrize("mutant, order", [
    ("", ["wheel", "helm", "quick-1", "quick-2"]),
    ("stats", ["wheel", "helm", "quick-1", "quick-2"]),
    ("generator.write.x_remove_tree__mutmut_1", ["quick-1", "quick-2", "helm", "wheel"]),
])
def test_heavy_tests_run_first_in_the_suite_and_last_under_a_mutant(monkeypatch, mutant: str, order: list[str]):
    """A mutant's run stops at its first failure: the quick tests that would kill it come before Helm's."""
    from tests.conftest import pytest_collection_modifyitems

    class Item:
        def __init__(self, name: str, seconds: float | None):
            self.name, self.seconds = name, seconds

        def get_closest_marker(self, name: str):
            assert name == "heavy"
            return None if self.seconds is None else pytest.mark.heavy(self.seconds).mark

    monkeypatch.setenv("MUTANT_UNDER_TEST", mutant)
    items = [Item("quick-1", None), Item("helm", 10), Item("quick-2", None), Item("wheel", 30)]
    pytest_collection_modifyitems(None, items)  # type: ignore[arg-type]
    assert [item.name for item in items] == order


def test_under_a_mutant_the_tests_caches_are_forgotten_too():
    """The default build of tests/helpers.py, made before the mutant, would hide it from every test reading it."""
    from tests.conftest import forget_memos
    from tests.helpers import default_build

    default_build()
    forget_memos()
    assert default_build.cache_info().currsize == 1
    forget_memos(tests=True)
    assert default_build.cache_info().currsize == 0


def test_under_a_mutant_a_test_modules_own_cache_is_forgotten_too():
    """pytest imports a test module by its own name (test_x), outside the tests package: found by its folder."""
    import functools
    import sys
    import types

    from tests.conftest import REPO, forget_memos

    module = types.ModuleType("test_made_here")
    module.__file__ = str(REPO / "tests" / "test_made_here.py")
    module.remembered = functools.lru_cache(maxsize=None)(lambda: object())
    module.remembered()
    sys.modules["test_made_here"] = module
    try:
        forget_memos()
        assert module.remembered.cache_info().currsize == 1
        forget_memos(tests=True)
        assert module.remembered.cache_info().currsize == 0
    finally:
        del sys.modules["test_made_here"]
