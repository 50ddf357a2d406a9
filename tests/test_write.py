"""write.py on its own: outputs replaced all at once, or not at all, and a message that says which.

The swap is two renames: the old outputs aside, the new ones in. Each test here
makes one of them (or the rename that undoes the first) fail inside the same
process, and compares the output directory byte for byte with what it held
before, so the message's "the previous outputs are unchanged" is checked
against what is on disk.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from generator.errors import CitgenError, InputError
from generator.write import MANIFEST, MARKER, Staging, checksums, lock_path, manifest, safe_relative, write_outputs
from tests.helpers import snapshot

EARLIER = {MARKER: b"old checksums\n", "a.yaml": b"old a\n", "sub/b.yaml": b"old b\n"}
LATER = {MARKER: b"new checksums\n", "a.yaml": b"new a\n", "c.yaml": b"new c\n"}


def written(folder: Path) -> dict[str, bytes]:
    """What a build wrote into ``folder``, but the manifest of it (whose tests are below)."""
    return {name: data for name, data in snapshot(folder).items() if name != MANIFEST}


def leftovers(out: Path) -> list[str]:
    """Temporary directories and lock files beside ``out``."""
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}."))


@pytest.fixture
def out(tmp_path: Path) -> Path:
    """An output directory holding an earlier build."""
    folder = tmp_path / "out"
    write_outputs(folder, EARLIER)
    assert written(folder) == EARLIER
    return folder


def failing_renames(monkeypatch: pytest.MonkeyPatch, *failing: int) -> list[tuple[str, str]]:
    """Make the given calls of os.rename (1 is the first) fail with EACCES; the list of every call."""
    calls: list[tuple[str, str]] = []
    real = os.rename

    def rename(src, dst, *args, **kwargs):
        calls.append((os.path.basename(src), os.path.basename(dst)))
        if len(calls) in failing:
            raise OSError(errno.EACCES, "Permission denied", str(src))
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "rename", rename)
    return calls


def commit_error(out: Path, files: dict[str, bytes]) -> str:
    with pytest.raises(CitgenError) as raised:
        write_outputs(out, files)
    [problem] = raised.value.problems
    return f"{problem.location}: {problem.message}"


def test_a_commit_replaces_every_file(out: Path) -> None:
    write_outputs(out, LATER)
    assert written(out) == LATER
    assert leftovers(out) == []
    assert oct(out.stat().st_mode & 0o777) == "0o755"


def test_the_first_rename_failing_leaves_the_outputs_as_they_were(out: Path, monkeypatch) -> None:
    calls = failing_renames(monkeypatch, 1)
    assert commit_error(out, LATER) == (f"{out}: cannot write the outputs: Permission denied ({out}); "
                                        "the previous outputs are unchanged")
    assert calls == [("out", f".out.citgen-old-{os.getpid()}")]
    assert written(out) == EARLIER
    assert leftovers(out) == []


def test_the_second_rename_failing_puts_the_outputs_back(out: Path, monkeypatch) -> None:
    calls = failing_renames(monkeypatch, 2)
    message = commit_error(out, LATER)
    staging = calls[1][0]
    assert message == (f"{out}: cannot write the outputs: Permission denied ({out.parent / staging}); "
                       "the previous outputs are unchanged")
    backup = f".out.citgen-old-{os.getpid()}"
    assert calls == [("out", backup), (staging, "out"), (backup, "out")]
    assert staging.startswith(".out.citgen-new-")
    assert written(out) == EARLIER
    assert leftovers(out) == []


def test_when_the_outputs_cannot_be_put_back_the_message_says_where_they_are(out: Path, monkeypatch) -> None:
    calls = failing_renames(monkeypatch, 2, 3)
    message = commit_error(out, LATER)
    backup = out.parent / f".out.citgen-old-{os.getpid()}"
    staging = calls[1][0]
    assert message == (f"{out}: cannot write the outputs: Permission denied ({out.parent / staging}); the previous "
                       f"outputs could not be moved back (Permission denied ({backup})) and are in {backup}; "
                       f"the next build to {out} puts them back first")
    assert "unchanged" not in message
    assert not out.exists()
    assert written(backup) == EARLIER
    assert leftovers(out) == [backup.name]  # the new outputs and the lock are gone

    monkeypatch.undo()
    with Staging(out) as staging_area:  # the next build: it puts them back before anything else
        staging_area.write(LATER)
        assert written(out) == EARLIER
    assert written(out) == EARLIER  # left without a commit: still the earlier outputs
    assert leftovers(out) == []


def test_a_first_build_that_cannot_move_in_leaves_nothing(tmp_path: Path, monkeypatch) -> None:
    out = tmp_path / "new"
    calls = failing_renames(monkeypatch, 1)
    message = commit_error(out, LATER)
    assert message.endswith("; the previous outputs are unchanged")
    assert [dst for _, dst in calls] == ["new"]
    assert not out.exists()
    assert leftovers(out) == []


def test_leaving_without_a_commit_discards_the_staging_directory(out: Path) -> None:
    with Staging(out) as staging:
        staging.write(LATER)
        assert len(leftovers(out)) == 2  # the staging directory and the lock
        assert lock_path(out).is_file()
    assert written(out) == EARLIER
    assert leftovers(out) == []


def test_an_error_inside_the_block_discards_too(out: Path) -> None:
    with pytest.raises(KeyError):
        with Staging(out) as staging:
            staging.write(LATER)
            raise KeyError("validation went wrong")
    assert written(out) == EARLIER
    assert leftovers(out) == []


def test_write_and_commit_are_called_in_order_once(out: Path) -> None:
    with Staging(out) as staging:
        with pytest.raises(RuntimeError, match=r"commit\(\) before write\(\)"):
            staging.commit()
        staging.write(LATER)
        with pytest.raises(RuntimeError, match=r"write\(\) may be called once"):
            staging.write(LATER)
        staging.commit()
    assert written(out) == LATER


def test_a_directory_that_is_no_earlier_build_is_refused(tmp_path: Path) -> None:
    foreign = tmp_path / "home"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine\n")
    with pytest.raises(InputError) as raised:
        write_outputs(foreign, LATER)
    assert str(raised.value) == (f"{foreign}: refusing to replace a directory that is not an earlier citgen output "
                                 f"(it has no {MARKER}); choose an empty or new --out")
    assert (foreign / "notes.txt").read_text() == "mine\n"
    empty = tmp_path / "empty"
    empty.mkdir()
    write_outputs(empty, LATER)
    assert written(empty) == LATER


@pytest.mark.parametrize("marker", [MARKER, MANIFEST])
def test_a_marker_that_is_a_symbolic_link_is_no_mark_of_an_earlier_output(tmp_path: Path, marker: str) -> None:
    """A folder whose CHECKSUMS.sha256 (or manifest) links to a real one elsewhere is not thereby citgen's."""
    elsewhere = tmp_path / "elsewhere"
    write_outputs(elsewhere, EARLIER)
    foreign = tmp_path / "home"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine\n")
    (foreign / marker).symlink_to(elsewhere / marker)
    with pytest.raises(InputError) as raised:
        write_outputs(foreign, LATER)
    why = f"its {MARKER} is not a regular file" if marker == MARKER else f"it has no {MARKER}"
    assert str(raised.value) == (f"{foreign}: refusing to replace a directory that is not an earlier citgen output "
                                 f"({why}); choose an empty or new --out")
    assert (foreign / "notes.txt").read_text() == "mine\n" and (foreign / marker).is_symlink()


def test_an_output_path_that_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "out").write_text("a file\n")
    with pytest.raises(InputError) as raised:
        write_outputs(tmp_path / "out", LATER)
    assert str(raised.value) == f"{tmp_path / 'out'}: output path exists and is not a directory"


@pytest.mark.parametrize("name", ["../x", "/etc/x", "a/../b", "a\\b", ""])
def test_paths_that_would_leave_the_output_directory(name) -> None:
    with pytest.raises(InputError) as raised:
        safe_relative(name)
    assert raised.value.problems[0].message == ("output path would leave the output directory; names must not "
                                                "contain '..', '/' at the start or backslashes")


def test_paths_inside_it() -> None:
    assert safe_relative("kustomize/instancetypes/cluster/kustomization.yaml").parts == (
        "kustomize", "instancetypes", "cluster", "kustomization.yaml")


def test_checksums_list_files_by_name_as_sha256sum_does() -> None:
    assert checksums({"b.yaml": b"", "a.yaml": b"abc"}) == (
        b"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  a.yaml\n"
        b"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  b.yaml\n")


# --------------------------------------------------------------------------- what a pull request may plant beside --out

SECRET = b"token=do-not-overwrite\n"
LOCK_REFUSED = "{lock}: the lock file of {out} {why}; remove it, or write the outputs elsewhere (--out)"


def planted_error(out: Path) -> str:
    with pytest.raises(InputError) as raised:
        write_outputs(out, LATER)
    [problem] = raised.value.problems
    return f"{problem.location}: {problem.message}"


def test_a_lock_that_is_a_link_is_never_written_through(out: Path, tmp_path: Path) -> None:
    secret = tmp_path / "elsewhere" / "credentials"
    secret.parent.mkdir()
    secret.write_bytes(SECRET)
    lock_path(out).symlink_to(secret)
    assert planted_error(out) == LOCK_REFUSED.format(
        lock=lock_path(out), out=out, why="is a symbolic link; citgen never writes its lock through a link (it "
                                          "would overwrite the file the link names)")
    assert secret.read_bytes() == SECRET and written(out) == EARLIER
    assert lock_path(out).is_symlink()  # not removed either: it is not citgen's


def test_a_dangling_lock_link_is_not_followed_to_create_its_target(out: Path, tmp_path: Path) -> None:
    target = tmp_path / "created-by-the-link"
    lock_path(out).symlink_to(target)
    planted_error(out)
    assert not target.exists()


def test_a_lock_with_a_second_name_is_refused(out: Path, tmp_path: Path) -> None:
    secret = tmp_path / "credentials"
    secret.write_bytes(SECRET)
    os.link(secret, lock_path(out))
    assert planted_error(out) == LOCK_REFUSED.format(
        lock=lock_path(out), out=out, why="is a file with 2 names (hard links); taking the lock would overwrite "
                                          "all of them")
    assert secret.read_bytes() == SECRET


def test_a_lock_that_is_a_fifo_is_refused_without_waiting(out: Path) -> None:
    os.mkfifo(lock_path(out))
    assert planted_error(out) == LOCK_REFUSED.format(lock=lock_path(out), out=out, why="is not a regular file")


def test_a_file_that_is_no_lock_of_ours_is_not_overwritten(out: Path) -> None:
    lock_path(out).write_bytes(SECRET)
    assert planted_error(out) == LOCK_REFUSED.format(
        lock=lock_path(out), out=out, why="holds something other than a lock citgen wrote; taking the lock would "
                                          "overwrite it")
    assert lock_path(out).read_bytes() == SECRET


def test_the_lock_a_killed_build_left_is_taken_over(out: Path) -> None:
    lock_path(out).write_text('{"pid": 4242, "started": "2026-11-24T10:00:00Z"}\n', encoding="utf-8")
    write_outputs(out, LATER)
    assert written(out) == LATER and leftovers(out) == []


def test_an_output_path_that_is_a_link_is_refused_and_what_it_names_is_untouched(tmp_path: Path) -> None:
    real = tmp_path / "real"
    write_outputs(real, EARLIER)
    link = tmp_path / "out"
    link.symlink_to(real)
    assert planted_error(link) == (f"{link}: the output path is a symbolic link; citgen replaces an output "
                                   "directory as a whole and never writes through a link: name the directory itself")
    assert link.is_symlink() and written(real) == EARLIER
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "real"]  # the lock taken and let go


# --------------------------------------------------------------------------- only citgen's own outputs are replaced


def test_an_output_lists_the_command_and_every_file_it_wrote(out: Path) -> None:
    assert (out / MANIFEST).read_bytes() == manifest("build", EARLIER) == (
        b"citgen build\nCHECKSUMS.sha256\na.yaml\nsub/b.yaml\n")


def test_a_file_citgen_did_not_write_is_never_deleted(out: Path) -> None:
    (out / "sub" / "notes.txt").write_text("mine\n")
    assert planted_error(out) == (f"{out}: holds 1 file citgen did not write (sub/notes.txt), which replacing it "
                                  "would delete; move it, or choose an empty or new --out")
    assert (out / "sub" / "notes.txt").read_text() == "mine\n" and written(out)["a.yaml"] == b"old a\n"


def test_a_users_folder_that_merely_holds_a_checksum_file_is_not_emptied(tmp_path: Path) -> None:
    mine = tmp_path / "release"
    mine.mkdir()
    (mine / MARKER).write_text("0" * 64 + "  notes.txt\n")
    (mine / "notes.txt").write_text("mine\n")
    assert planted_error(mine) == (f"{mine}: holds 1 file citgen did not write (notes.txt), which replacing it "
                                   "would delete; move it, or choose an empty or new --out")
    assert (mine / "notes.txt").read_text() == "mine\n"


def test_an_output_of_an_earlier_citgen_without_a_manifest_is_replaced_when_it_holds_only_outputs(tmp_path):
    earlier = tmp_path / "out"
    earlier.mkdir()
    for name, data in EARLIER.items():
        (earlier / name).parent.mkdir(parents=True, exist_ok=True)
        (earlier / name).write_bytes(data)
    write_outputs(earlier, {**EARLIER, "c.yaml": b"c\n"})  # every file it holds is one this run writes
    assert written(earlier) == {**EARLIER, "c.yaml": b"c\n"}


def test_a_file_the_manifest_lists_may_go_with_the_next_build(out: Path) -> None:
    write_outputs(out, LATER)  # sub/b.yaml was written by the earlier build: it is not the user's
    assert written(out) == LATER


def test_the_output_of_another_command_is_not_replaced(tmp_path: Path) -> None:
    site = tmp_path / "site"
    with Staging(site, command="site") as staging:
        staging.write({MARKER: b"sums\n", "index.html": b"<html>\n"})
        staging.commit()
    assert planted_error(site) == f"{site}: holds the output of `citgen site`, not of `citgen build`; choose an " \
                                  "empty or new --out"
    assert written(site)["index.html"] == b"<html>\n"


def test_a_link_inside_an_output_is_a_file_citgen_did_not_write(out: Path, tmp_path: Path) -> None:
    (out / "elsewhere").symlink_to(tmp_path)
    assert "holds 1 file citgen did not write (elsewhere)" in planted_error(out)
    assert (out / "elsewhere").is_symlink()
