"""write.py's Staging at its edges: where it writes, what it refuses, and each message exactly.

A build writes into a staging directory beside its output directory (making the
folders above it), and swaps it in; what cannot be done is a CitgenError that says
which file the system named, or else the output directory or the backup. Each test
calls the module directly, with the failures made inside this process.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from generator import write
from generator.errors import CitgenError, InputError
from generator.write import MANIFEST, Staging, write_outputs
from tests.helpers import snapshot

EARLIER = {"CHECKSUMS.sha256": b"old checksums\n", "a.yaml": b"old a\n"}
LATER = {"CHECKSUMS.sha256": b"new checksums\n", "a.yaml": b"new a\n"}


def written(folder: Path) -> dict[str, bytes]:
    return {name: data for name, data in snapshot(folder).items() if name != MANIFEST}


def beside(out: Path) -> list[str]:
    """Temporary directories and lock files beside ``out``."""
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}."))


def message(raised: pytest.ExceptionInfo) -> str:
    [problem] = raised.value.problems
    return f"{problem.location}: {problem.message}"


@pytest.fixture
def out(tmp_path: Path) -> Path:
    folder = tmp_path / "out"
    write_outputs(folder, EARLIER)
    return folder


def renames_failing_without_a_file_name(monkeypatch: pytest.MonkeyPatch, *failing: int) -> None:
    """Make the given calls of os.rename (1 is the first) fail as a full disk does: no file named."""
    calls: list[int] = []
    real = os.rename

    def rename(src, dst):
        calls.append(1)
        if len(calls) in failing:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(src, dst)

    monkeypatch.setattr(write.os, "rename", rename)


def test_the_folders_above_a_new_output_directory_are_made(tmp_path: Path) -> None:
    out = tmp_path / "a" / "b" / "out"
    write_outputs(out, LATER)
    assert written(out) == LATER
    assert beside(out) == []


def test_a_second_write_is_refused_with_its_own_message(out: Path) -> None:
    with Staging(out) as staging:
        staging.write(LATER)
        with pytest.raises(RuntimeError) as raised:
            staging.write(LATER)
    assert str(raised.value) == "Staging.write() may be called once"
    assert written(out) == EARLIER


def test_after_a_discard_there_is_nothing_to_commit(out: Path) -> None:
    with Staging(out) as staging:
        staging.write(LATER)
        staging.discard()
        with pytest.raises(RuntimeError) as raised:
            staging.commit()
    assert str(raised.value) == "Staging.commit() before write()"
    assert written(out) == EARLIER
    assert beside(out) == []


def test_after_a_discard_the_outputs_may_be_written_afresh(out: Path) -> None:
    with Staging(out) as staging:
        staging.write(EARLIER)
        staging.discard()
        staging.write(LATER)
        staging.commit()
    assert written(out) == LATER
    assert beside(out) == []


def test_a_failure_the_system_names_no_file_for_is_said_of_the_output_directory(out: Path, monkeypatch) -> None:
    renames_failing_without_a_file_name(monkeypatch, 1)
    with pytest.raises(CitgenError) as raised:
        write_outputs(out, LATER)
    assert message(raised) == (f"{out}: cannot write the outputs: No space left on device ({out}); "
                               "the previous outputs are unchanged")
    assert written(out) == EARLIER


def test_outputs_that_cannot_be_moved_back_for_a_reason_naming_no_file_are_said_to_be_in_the_backup(
        out: Path, monkeypatch) -> None:
    renames_failing_without_a_file_name(monkeypatch, 2, 3)
    with pytest.raises(CitgenError) as raised:
        write_outputs(out, LATER)
    backup = out.parent / f".out.citgen-old-{os.getpid()}"
    assert message(raised) == (
        f"{out}: cannot write the outputs: No space left on device ({out}); the previous outputs could not be "
        f"moved back (No space left on device ({backup})) and are in {backup}; the next build to {out} puts "
        "them back first")
    assert written(backup) == EARLIER


def test_a_swap_that_cannot_be_undone_fails_as_the_rename_that_stopped_it(tmp_path: Path, monkeypatch) -> None:
    """Private helpers, used on purpose: _swap is made to fail half way (_NotPutBack), which no real file system does
    on demand.
    """
    staging, out = tmp_path / "staging", tmp_path / "out"
    staging.mkdir()
    out.mkdir()
    real = os.rename
    failures = {staging: OSError(errno.EXDEV, "Invalid cross-device link", str(staging)),
                tmp_path / f".out.citgen-old-{os.getpid()}": OSError(errno.EACCES, "Permission denied")}

    def rename(src, dst):
        if Path(src) in failures:
            raise failures[Path(src)]
        return real(src, dst)

    monkeypatch.setattr(write.os, "rename", rename)
    with pytest.raises(write._NotPutBack) as raised:
        write._swap(staging, out)
    assert str(raised.value) == str(failures[staging]) == f"[Errno 18] Invalid cross-device link: '{staging}'"
    assert raised.value.cause is failures[staging]
    assert raised.value.undo is failures[tmp_path / f".out.citgen-old-{os.getpid()}"]
    assert raised.value.backup == tmp_path / f".out.citgen-old-{os.getpid()}"


def test_the_message_lists_three_files_citgen_did_not_write_and_says_there_are_more(out: Path) -> None:
    for name in ("d.txt", "b.txt", "c.txt", "e.txt"):
        (out / name).write_text("mine\n")
    with pytest.raises(InputError) as raised:
        write_outputs(out, LATER)
    assert message(raised) == (f"{out}: holds 4 files citgen did not write (b.txt, c.txt, d.txt ...), which "
                               "replacing it would delete; move them, or choose an empty or new --out")
    assert (out / "e.txt").read_text() == "mine\n"


def test_the_message_lists_all_three_files_citgen_did_not_write_when_there_are_three(out: Path) -> None:
    for name in ("d.txt", "b.txt", "c.txt"):
        (out / name).write_text("mine\n")
    with pytest.raises(InputError) as raised:
        write_outputs(out, LATER)
    assert message(raised) == (f"{out}: holds 3 files citgen did not write (b.txt, c.txt, d.txt), which "
                               "replacing it would delete; move them, or choose an empty or new --out")


def test_the_message_says_files_and_them_for_two_files_citgen_did_not_write(out: Path) -> None:
    for name in ("c.txt", "b.txt"):
        (out / name).write_text("mine\n")
    with pytest.raises(InputError) as raised:
        write_outputs(out, LATER)
    assert message(raised) == (f"{out}: holds 2 files citgen did not write (b.txt, c.txt), which "
                               "replacing it would delete; move them, or choose an empty or new --out")


@pytest.mark.parametrize("manifest", [b"", b"\xff\xfecitgen build\n"], ids=["empty", "not UTF-8"])
def test_an_empty_manifest_or_one_that_is_not_utf_8_is_another_program_s(tmp_path: Path, manifest: bytes) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / MANIFEST).write_bytes(manifest)
    with pytest.raises(InputError) as raised:
        write_outputs(out, LATER)
    assert message(raised) == (f"{out}: holds the output of another program, not of `citgen build`; choose an "
                               "empty or new --out")


def test_a_manifest_is_read_up_to_its_first_mebibyte_and_a_name_beyond_it_is_not_citgen_s(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    head = b"citgen build\n"
    (out / MANIFEST).write_bytes(head + b"x" * ((1 << 20) - len(head) - 1) + b"\nlate.txt\n")
    (out / "late.txt").write_text("mine\n")
    with pytest.raises(InputError) as raised:
        write_outputs(out, LATER)
    assert message(raised) == (f"{out}: holds 1 file citgen did not write (late.txt), which replacing it would "
                               "delete; move it, or choose an empty or new --out")
    (out / MANIFEST).write_bytes(head + b"x" * ((1 << 20) - len(head) - len(b"\nlate.txt")) + b"\nlate.txt\n")
    write_outputs(out, LATER)  # now the name ends on the last byte read: it is citgen's, and goes
    assert written(out) == LATER


def test_files_two_folders_deep_are_written_with_the_folders_between(tmp_path: Path) -> None:
    out = tmp_path / "out"
    files = {"helm/chart/templates/a.yaml": b"a\n", "helm/chart/Chart.yaml": b"c\n", "CHECKSUMS.sha256": b"s\n"}
    write_outputs(out, files)
    assert written(out) == files


def test_a_second_commit_is_refused_and_the_outputs_stay(out: Path) -> None:
    with Staging(out) as staging:
        staging.write(LATER)
        staging.commit()
        with pytest.raises(RuntimeError) as raised:
            staging.commit()
    assert str(raised.value) == "Staging.commit() before write()"
    assert written(out) == LATER
    assert beside(out) == []


@pytest.mark.parametrize("make, said", [
    (lambda out: out.write_text("a file\n"), "output path exists and is not a directory"),
    (lambda out: out.symlink_to(out.parent / "elsewhere", target_is_directory=True),
     "the output path is a symbolic link; citgen replaces an output directory as a whole and never writes "
     "through a link: name the directory itself"),
], ids=["a file", "a link"])
def test_an_output_path_no_build_could_replace_is_refused_before_the_build_begins(tmp_path: Path, make, said) -> None:
    """Entering the block refuses it, so that a command makes nothing it would then fail to write."""
    out = tmp_path / "out"
    make(out)
    entered = []
    with pytest.raises(InputError) as raised:
        with Staging(out):
            entered.append(out)
    assert entered == []
    assert message(raised) == f"{out}: {said}"


def test_an_output_path_under_a_file_is_refused_before_the_build_begins(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("a file\n")
    out = tmp_path / "notes.txt" / "out"
    entered = []
    with pytest.raises(CitgenError) as raised:
        with Staging(out):
            entered.append(out)
    assert entered == []
    assert message(raised) == (f"{out}: cannot write the outputs: {tmp_path / 'notes.txt'} is a file, not a directory; "
                               "the previous outputs are unchanged")


def test_an_output_path_the_system_will_not_look_at_is_refused_with_its_reason(tmp_path: Path, monkeypatch) -> None:
    """The failure is made in ``write._check_usable`` (private): permission bits do not bind root, who runs CI."""
    def unlookable(out: Path) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(out.parent))

    monkeypatch.setattr(write, "_check_usable", unlookable)
    out = tmp_path / "locked" / "out"
    with pytest.raises(CitgenError) as raised:
        with Staging(out):
            pass
    assert message(raised) == (f"{out}: cannot write the outputs: Permission denied ({tmp_path / 'locked'}); "
                               "the previous outputs are unchanged")


# --------------------------------------------------------------------------- files handed as they are made


def test_files_handed_in_batches_are_all_put_in_place_at_the_commit_and_listed_in_the_manifest(out: Path) -> None:
    with Staging(out) as staging:
        staging.add({"CHECKSUMS.sha256": b"new checksums\n"})
        staging.add({"k/x/a.yaml": b"a\n", "k/b.yaml": b"b\n"})
        assert written(out) == EARLIER  # nothing in place before the commit
        staging.commit()
    assert written(out) == {"CHECKSUMS.sha256": b"new checksums\n", "k/x/a.yaml": b"a\n", "k/b.yaml": b"b\n"}
    assert (out / MANIFEST).read_bytes() == b"citgen build\nCHECKSUMS.sha256\nk/b.yaml\nk/x/a.yaml\n"
    assert beside(out) == []


def test_nothing_is_handed_after_the_last_write(out: Path) -> None:
    with Staging(out) as staging:
        staging.add(LATER)
        staging.write({})
        with pytest.raises(RuntimeError) as raised:
            staging.add({"late.yaml": b"late\n"})
        staging.commit()
    assert str(raised.value) == "Staging.write() may be called once"
    assert written(out) == LATER


def test_a_file_the_writing_thread_cannot_make_is_said_at_the_commit_and_the_outputs_stay(out: Path) -> None:
    """The thread meets the failure; the commit raises it as the build's, naming the path the system named."""
    with pytest.raises(CitgenError) as raised:
        with Staging(out) as staging:
            staging.add({"a": b"a file\n"})
            staging.add({"a/b.yaml": b"under a file\n"})
            staging.commit()
    assert message(raised).startswith(f"{out}: cannot write the outputs: File exists (")
    assert message(raised).endswith("; the previous outputs are unchanged")
    assert written(out) == EARLIER
    assert beside(out) == []


def test_a_build_that_fails_after_handing_files_leaves_nothing_beside_the_outputs(out: Path) -> None:
    with pytest.raises(KeyError):
        with Staging(out) as staging:
            staging.add({f"k/{n}/x.yaml": b"x\n" * 1000 for n in range(200)})  # still being written, maybe
            raise KeyError("validation found problems")
    assert written(out) == EARLIER
    assert beside(out) == []
