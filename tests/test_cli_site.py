"""generator/cli/site.py: ``citgen site`` as a command: the options it builds with, where it writes, what it says.

tools/site's tests read the page and its data (tests/test_tools_site.py, from one session
build); these pin the command: the build options reach the build, the site is staged and
replaces an earlier one whole, a folder that is no earlier site is refused and left as it
was, and the report names the files, their count and the size of the page.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from generator.cli.site import site
from generator.pipeline import BuildOptions
from tests.helpers import default_build


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(site, [str(a) for a in args])


def test_the_report_names_the_files_their_count_and_the_size_of_the_page(tmp_path: Path):
    out = tmp_path / "site"
    report = json.loads(run("--out", out, "--format", "json").output)
    size = (out / "index.html").stat().st_size
    assert (report["command"], report["exitCode"], report["out"]) == ("site", 0, str(out))
    assert report["files"] == ["CHECKSUMS.sha256", "catalog.json", "index.html"]
    assert report["counts"] == {"files": 3, "indexBytes": size}
    named = BuildOptions().named(default_build().version)  # the catalog the working directory is in, else built-in
    assert report["outputs"] == [f"{named}: wrote 3 files to {out} (index.html: {size // 1024} KiB)"]


def test_the_build_options_are_those_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    seen: list[BuildOptions] = []

    def site_files(options: BuildOptions) -> dict[str, bytes]:
        seen.append(options)
        return {"index.html": b"x" * 2048, "catalog.json": b"{}"}

    monkeypatch.setattr("generator.cli.site.site_files", site_files)
    retained, overlay = tmp_path / "old.yaml", tmp_path / "overlay.yaml"
    result = run("--out", tmp_path / "site", "--catalog", tmp_path, "--version", "v9.9.9",
                 "--gpu-device", "nvidia.com/H100", "--gpu-count", "2", "--retain-from", retained,
                 "--overlay", overlay, "--os-labels", "--osinfo-db", tmp_path)
    assert (result.exit_code, result.output) == (
        0, f"catalog {tmp_path}/ v9.9.9: wrote 2 files to {tmp_path / 'site'} (index.html: 2 KiB)\n")
    assert seen == [BuildOptions(catalog=tmp_path, version="v9.9.9", gpu_device="nvidia.com/H100", gpu_count=2,
                                 retain_from=(retained,), overlays=(overlay,), os_labels=True, osinfo=True,
                                 osinfo_db=tmp_path)]


def test_a_second_site_replaces_the_first_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    pages = iter([{"index.html": b"first", "old.json": b"{}"}, {"index.html": b"second"}])
    monkeypatch.setattr("generator.cli.site.site_files", lambda options: next(pages))
    out = tmp_path / "site"
    assert run("--out", out).exit_code == 0 and run("--out", out).exit_code == 0
    assert sorted(p.name for p in out.iterdir()) == [".citgen-manifest", "index.html"]
    assert (out / "index.html").read_bytes() == b"second"


def test_an_out_that_is_no_earlier_site_is_refused_and_left_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr("generator.cli.site.site_files", lambda options: {"index.html": b"page"})
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "notes.txt").write_text("mine\n")
    result = run("--out", tmp_path / "site")
    assert (result.exit_code, result.output) == (2, (
        f"{tmp_path / 'site'}: error: refusing to replace a directory that is not an earlier citgen output "
        "(it has no CHECKSUMS.sha256); choose an empty or new --out [input]\ncitgen: 1 problem, nothing written\n"))
    assert [p.name for p in (tmp_path / "site").iterdir()] == ["notes.txt"]


def test_a_lock_timeout_out_of_range_is_refused_and_nothing_is_written(tmp_path: Path):
    result = run("--out", tmp_path / "site", "--lock-timeout", "-1")
    assert (result.exit_code, result.output) == (2, (
        "--lock-timeout: error: expected a number of seconds from 0 to 86400, got '-1' [input]\n"
        "citgen: 1 problem, nothing written\n"))
    assert not (tmp_path / "site").exists()
