"""A build replaces its outputs all at once or not at all.

Each test starts from a real earlier build in ``out/``, breaks the next build
in one way (bad input, a template error, a validation failure, a write that
fails half way, a process killed while writing) and checks that ``out/`` is
byte-for-byte what it was and that no temporary directory is left beside it.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import CitgenError
from generator.write import MARKER, write_outputs
from tests.helpers import copy_catalog, snapshot

pytestmark = pytest.mark.heavy(4)  # seconds of a worker's time: run early (conftest.py)





def build(catalog: Path, out: Path, *more: str):
    return CliRunner().invoke(main, ["build", "--catalog", str(catalog), "--out", str(out), *more])


@pytest.fixture
def earlier(tmp_path: Path) -> tuple[Path, Path, dict[str, bytes]]:
    """(catalog, out, snapshot of out) after one successful build."""
    catalog = copy_catalog(tmp_path / "catalog")
    out = tmp_path / "out"
    result = build(catalog, out)
    assert result.exit_code == 0, result.output
    return catalog, out, snapshot(out)


def leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}."))


def test_an_input_error_leaves_the_outputs_untouched(earlier):
    catalog, out, before = earlier
    sizes = catalog / "series" / "sizes.yaml"
    sizes.write_text(sizes.read_text().replace("large: 2\n", "large: 0\n", 1))
    result = build(catalog, out)
    assert result.exit_code == 2
    assert "matrices.standard.large: expected a number at least 1, got 0" in result.stderr
    assert snapshot(out) == before
    assert leftovers(out) == []


def test_a_template_error_leaves_the_outputs_untouched(earlier):
    catalog, out, before = earlier
    template = catalog / "templates" / "preference.yaml.j2"
    template.write_text(template.read_text().replace("{{ kind }}", "{{ knid }}"))
    result = build(catalog, out)
    assert result.exit_code == 2
    assert "templates/preference.yaml.j2" in result.stderr and "'knid' is undefined" in result.stderr
    assert snapshot(out) == before
    assert leftovers(out) == []


def test_a_validation_failure_leaves_the_outputs_untouched(earlier):
    """Input that loads but renders an object validation refuses: a preference no instancetype can serve.

    (A spec KubeVirt's schema refuses is caught earlier, where it is written.)
    """
    catalog, out, before = earlier
    family = catalog / "preferences" / "alpine.yaml"
    family.write_text(family.read_text().replace("  alpine:\n", "  alpine:\n    requirements: {cpu: 128}\n"))
    result = build(catalog, out)
    assert result.exit_code != 0
    assert "alpine" in result.stderr and "$.spec.requirements" in result.stderr
    assert "no instancetype meets these requirements" in result.stderr
    assert snapshot(out) == before
    assert leftovers(out) == []


def test_a_changed_build_replaces_every_file(earlier):
    """The positive counterpart: the same outputs are replaced when the build succeeds."""
    catalog, out, before = earlier
    result = build(catalog, out, "--version", "v9.9.9")
    assert result.exit_code == 0, result.output
    after = snapshot(out)
    assert after != before
    assert b"v9.9.9" in after["common-instancetypes-all-bundle.yaml"]
    assert leftovers(out) == []


def test_a_write_that_fails_half_way_leaves_the_outputs_untouched(earlier):
    """The second file cannot be created (its folder would be the first file): an OSError mid-write."""
    _catalog, out, before = earlier
    with pytest.raises(CitgenError) as caught:
        write_outputs(out, {"a.yaml": b"first\n", "a.yaml/b.yaml": b"second\n", MARKER: b""})
    [problem] = caught.value.problems
    assert problem.message.startswith("cannot write the outputs: ")
    assert problem.message.endswith("the previous outputs are unchanged")
    assert snapshot(out) == before
    assert leftovers(out) == []


def test_an_unwritable_parent_is_a_message_not_a_traceback(tmp_path: Path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if _writable(locked):
            pytest.skip("running as a user who may write anywhere (root)")
        result = build(copy_catalog(tmp_path / "catalog"), locked / "out")
    finally:
        locked.chmod(0o700)
    assert result.exit_code == 2
    assert "cannot write the outputs: Permission denied" in result.stderr
    assert "Traceback" not in result.output
    assert list(locked.iterdir()) == []


def _writable(folder: Path) -> bool:
    try:
        (folder / "probe").write_bytes(b"")
    except PermissionError:
        return False
    (folder / "probe").unlink()
    return True


#: Runs `citgen build` and kills its own process (SIGKILL: no cleanup can run) at the
#: moment the audit hook sees a given event: deterministic, unlike a timer.
KILLER = textwrap.dedent('''
    import os, signal, sys
    from generator.cli import main

    event_name, needle, nth = sys.argv[1], sys.argv[2], int(sys.argv[3])
    seen, build = 0, os.getpid()  # the build, even where the event is its writing child's

    def hook(event, args):
        global seen
        if event == event_name and needle in str(args[1] if event == "os.rename" else args[0]):
            seen += 1
            if seen == nth:
                os.kill(build, signal.SIGKILL)

    sys.addaudithook(hook)
    main(sys.argv[4:])
''')


def killed_build(catalog: Path, out: Path, event: str, needle: str, nth: int) -> int:
    """Exit status of a build killed at the ``nth`` ``event`` whose path holds ``needle``."""
    args = [sys.executable, "-c", KILLER, event, needle, str(nth),
            "build", "--catalog", str(catalog), "--out", str(out), "--version", "v9.9.9"]
    return subprocess.run(args, capture_output=True, timeout=300).returncode


def test_a_build_killed_while_writing_leaves_the_outputs_untouched(earlier):
    catalog, out, before = earlier
    status = killed_build(catalog, out, "open", ".citgen-new-", 3)  # the third file of the new outputs
    assert status == -9
    assert snapshot(out) == before
    # the killed process could not clean up its staging directory, nor remove its lock file (which
    # the kernel unlocked when it died) ...
    assert [name.split("-")[0] for name in leftovers(out)] == [".out.citgen", ".out.lock"]
    result = build(catalog, out)  # ... the next build does
    assert result.exit_code == 0, result.output
    assert snapshot(out) == before  # same catalog, same version: the same bytes
    assert leftovers(out) == []


def test_a_build_killed_between_the_two_renames_gets_its_outputs_back(earlier):
    """Killed after the old outputs moved aside, before the new ones moved in: the next
    build puts the old ones back before anything else, so they are never the ones lost."""
    catalog, out, before = earlier
    status = killed_build(catalog, out, "os.rename", str(out), 1)  # the rename of the new outputs into place
    assert status == -9
    assert not out.exists()
    [backup] = [name for name in leftovers(out) if ".citgen-old-" in name]
    assert snapshot(out.parent / backup) == before
    result = build(catalog, out)
    assert result.exit_code == 0, result.output
    assert snapshot(out) == before
    assert leftovers(out) == []


def test_an_output_path_under_a_file_is_a_message_not_a_traceback(tmp_path: Path):
    (tmp_path / "a-file").write_text("not a folder\n")
    result = build(copy_catalog(tmp_path / "catalog"), tmp_path / "a-file" / "out")
    assert result.exit_code == 2
    refusal, closing = result.stderr.splitlines()  # the place and the words, however a report line lays them out
    assert f"{tmp_path / 'a-file' / 'out'}: " in refusal and closing == "citgen: 1 problem, nothing written"
    assert (f"cannot write the outputs: {tmp_path / 'a-file'} is a file, not a directory; the previous outputs are "
            "unchanged") in refusal
    assert (tmp_path / "a-file").read_text() == "not a folder\n"


#: As KILLER, but Ctrl-C (SIGINT to its own process) at the event: the run may handle it.
INTERRUPTER = KILLER.replace("os.kill(build, signal.SIGKILL)", "os.kill(build, signal.SIGINT)")


@pytest.mark.parametrize("event, needle", [("os.rename", "out"), ("shutil.rmtree", ".citgen-old-")],
                         ids=["moving the new outputs in", "removing the old ones"])
def test_ctrl_c_during_the_swap_finishes_it_and_says_so(earlier, event, needle):
    """Too late to stop anything: the swap completes, no backup is left, and the build reports success."""
    catalog, out, before = earlier
    args = [sys.executable, "-c", INTERRUPTER, event, needle, "1",
            "build", "--catalog", str(catalog), "--out", str(out), "--version", "v9.9.9"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"catalog {catalog}/ v9.9.9: wrote 111 files to {out} (")
    assert leftovers(out) == []
    after = snapshot(out)
    assert after != before and b"v9.9.9" in after["common-instancetypes-all-bundle.yaml"]
