"""Comparing a build held in memory with an output directory: what `citgen build --check` reports."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.pipeline import BuildOptions, generate
from generator.tools.freshness import Freshness, StaleFile, bundle_summary, compare
from generator.write import write_outputs

ALL = "common-instancetypes-all-bundle.yaml"
INSTANCETYPES = "common-clusterinstancetypes-bundle.yaml"


@pytest.fixture(scope="module")
def built() -> dict[str, bytes]:
    result = generate(BuildOptions())
    assert result.problems == ()
    return dict(result.files)


@pytest.fixture
def out(tmp_path: Path, built: dict[str, bytes]) -> Path:
    write_outputs(tmp_path / "bundles", built)
    return tmp_path / "bundles"


def test_a_fresh_directory_is_up_to_date(out: Path, built: dict[str, bytes]):
    found = compare(out, built)
    assert found == Freshness(str(out), len(built))
    assert found.lines() == [f"{out} is up to date ({len(built)} files)"]


def test_the_committed_bundles_are_fresh(built: dict[str, bytes]):
    bundles = Path(__file__).resolve().parent.parent / "bundles"
    assert compare(bundles, built).fresh


def test_a_changed_object_makes_its_bundle_stale_with_a_summary(out: Path, built: dict[str, bytes]):
    text = (out / INSTANCETYPES).read_text()
    (out / INSTANCETYPES).write_text(text.replace("guest: 2Gi", "guest: 3Gi", 1))
    found = compare(out, built)
    assert found.stale == (StaleFile(INSTANCETYPES, "0 added, 0 removed, 1 changed"),)
    assert found.lines()[:2] == [f"{out} is out of date: 1 stale, 0 missing, 0 extra",
                                 f"  stale:   {INSTANCETYPES} (0 added, 0 removed, 1 changed)"]


def test_missing_and_extra_files_are_listed_by_path(out: Path, built: dict[str, bytes]):
    shutil.rmtree(out / "kustomize" / "preferences")
    (out / "notes.txt").write_text("left behind\n")
    found = compare(out, built)
    assert found.missing and all(name.startswith("kustomize/preferences/") for name in found.missing)
    assert set(found.missing) == {name for name in built if name.startswith("kustomize/preferences/")}
    assert found.extra == ("notes.txt",)
    assert found.stale == ()
    assert found.lines()[-1] == "run `citgen build` with the same options to update it"


def test_text_that_differs_without_changing_objects_says_so(out: Path, built: dict[str, bytes]):
    (out / ALL).write_bytes((out / ALL).read_bytes().replace(b"\n---\n", b"\n---\n# a comment\n", 1))
    assert compare(out, built).stale == (StaleFile(ALL, "same objects, different text"),)


def test_files_other_than_bundles_are_only_named(out: Path, built: dict[str, bytes]):
    (out / "CHECKSUMS.sha256").write_text("nothing\n")
    assert compare(out, built).stale == (StaleFile("CHECKSUMS.sha256"),)


def test_nothing_is_written(out: Path, built: dict[str, bytes]):
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    (out / ALL).unlink()
    compare(out, built)
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert set(before) - set(after) == {out / ALL} and all(after[p] == before[p] for p in after)
    assert not any(p.name.endswith(".lock") for p in out.parent.iterdir())


def test_a_bundle_summary_counts_added_and_removed_objects():
    one = b"---\napiVersion: v1\nkind: A\nmetadata:\n  name: a\n"
    two = one + b"---\napiVersion: v1\nkind: A\nmetadata:\n  name: b\n"
    assert bundle_summary("common-x-bundle.yaml", one, two) == "1 added, 0 removed, 0 changed"
    assert bundle_summary("common-x-bundle.yaml", two, one) == "0 added, 1 removed, 0 changed"
    assert bundle_summary("common-x-bundle.yaml", b"{: [", one) == "not a bundle citgen can compare"
    assert bundle_summary("kustomize/x/common-x-bundle.yaml", one, two) == ""


@pytest.mark.parametrize("make, what", [
    (lambda p: None, "does not exist"),
    (lambda p: p.write_text("a file\n"), "is not a directory"),
])
def test_an_output_directory_that_is_not_one_is_an_input_error(tmp_path: Path, built, make, what):
    target = tmp_path / "bundles"
    make(target)
    with pytest.raises(InputError) as caught:
        compare(target, built)
    assert str(caught.value.problems[0]) == (
        f"{target}: the output directory {what}; run `citgen build` to create it, "
        "or name the directory the outputs are in with --out")
