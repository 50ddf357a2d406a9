"""write.py, one file and one tree: replace_file (what `citgen readme` writes) and remove_tree.

replace_file puts a file's new text in place at once or leaves the old one whole;
remove_tree removes a folder citgen made, never following a link. The tests run as
root on this machine, where permission bits do not stop anything, so a file its owner
made read-only is shown with os.access answering as it would for its owner.
"""

from __future__ import annotations

import errno
import io
import os
import re
import stat
from pathlib import Path

import pytest

from generator import write
from generator.errors import CitgenError
from generator.write import remove_tree, replace_file


def message(exc: pytest.ExceptionInfo[CitgenError]) -> str:
    [problem] = exc.value.problems
    return f"{problem.location}: {problem.message}"


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# --------------------------------------------------------------------------- replace_file


def test_the_new_text_replaces_the_old_and_nothing_is_left_beside_it(tmp_path: Path) -> None:
    target = tmp_path / "README.md"
    target.write_text("old\n")
    replace_file(target, "new\ntext\n")
    assert target.read_text() == "new\ntext\n"
    assert names(tmp_path) == ["README.md"]


def test_the_text_is_written_as_given_in_utf_8_with_its_line_breaks_untouched(tmp_path: Path) -> None:
    target = tmp_path / "README.md"
    target.write_text("old\n")
    replace_file(target, "Größe\r\nline two\n")
    assert target.read_bytes() == "Größe\r\nline two\n".encode("utf-8")


def test_the_new_file_keeps_the_old_one_s_mode(tmp_path: Path) -> None:
    target = tmp_path / "README.md"
    target.write_text("old\n")
    target.chmod(0o640)
    replace_file(target, "new\n")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_a_file_its_owner_made_read_only_is_refused_and_unchanged(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "README.md"
    target.write_text("old\n")
    real = os.access
    monkeypatch.setattr(write.os, "access", lambda path, mode: False if Path(path) == target else real(path, mode))
    with pytest.raises(CitgenError) as exc:
        replace_file(target, "new\n")
    assert message(exc) == (f"{target}: cannot write it: permission denied (the file is not writable); "
                            "it is unchanged")
    assert target.read_text() == "old\n"
    assert names(tmp_path) == ["README.md"]


def test_a_folder_where_no_file_can_be_made_is_named_and_the_file_unchanged(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "README.md"
    target.write_text("old\n")

    def refuse(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(write.tempfile, "mkstemp", refuse)
    with pytest.raises(CitgenError) as exc:
        replace_file(target, "new\n")
    assert message(exc) == f"{target}: cannot write it: Permission denied ({tmp_path}); it is unchanged"
    assert target.read_text() == "old\n"


def test_a_rename_that_fails_leaves_the_old_file_and_no_temporary_one(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "README.md"
    target.write_text("old\n")

    def full(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device", str(dst))

    monkeypatch.setattr(write.os, "replace", full)
    with pytest.raises(CitgenError) as exc:
        replace_file(target, "new\n")
    assert message(exc) == f"{target}: cannot write it: No space left on device ({target}); it is unchanged"
    assert target.read_text() == "old\n"
    assert names(tmp_path) == ["README.md"]


def test_an_interrupt_while_writing_leaves_the_old_file_and_no_temporary_one(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "README.md"
    target.write_text("old\n")

    def interrupted(path, mode):
        raise KeyboardInterrupt

    monkeypatch.setattr(write.os, "chmod", interrupted)
    with pytest.raises(KeyboardInterrupt):
        replace_file(target, "new\n")
    assert target.read_text() == "old\n"
    assert names(tmp_path) == ["README.md"]


def test_the_new_text_is_first_a_hidden_file_beside_the_old_one_named_after_it(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "README.md"
    target.write_text("old\n")
    seen: list[tuple[str, list[str]]] = []
    real = os.replace

    def replace(src, dst):
        seen.append((str(Path(src).parent), names(tmp_path)))
        return real(src, dst)

    monkeypatch.setattr(write.os, "replace", replace)
    replace_file(target, "new\n")
    [(folder, present)] = seen
    assert folder == str(tmp_path)
    assert len(present) == 2 and present[1] == "README.md", present
    assert re.fullmatch(r"\.README\.md\.citgen-\w+", present[0]), present
    assert names(tmp_path) == ["README.md"]


def test_the_text_is_written_in_utf_8_whatever_the_locale_says(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "README.md"
    target.write_text("old\n")
    # a machine whose locale is plain ASCII (LANG=C without Python's UTF-8 mode): what a file opened
    # without an encoding would be written in
    real = io.text_encoding
    monkeypatch.setattr(io, "text_encoding", lambda encoding, *args: "ascii" if encoding is None else real(encoding))
    replace_file(target, "Größe\n")
    assert target.read_bytes() == "Größe\n".encode("utf-8")


def test_a_temporary_file_removed_meanwhile_is_a_message_and_the_file_unchanged(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "README.md"
    target.write_text("old\n")
    real = os.chmod

    def removed_first(path, mode):
        os.unlink(path)  # another process cleans the folder up while the text is written
        return real(path, mode)

    monkeypatch.setattr(write.os, "chmod", removed_first)
    with pytest.raises(CitgenError) as exc:
        replace_file(target, "new\n")
    assert re.fullmatch(rf"{re.escape(str(target))}: cannot write it: No such file or directory "
                        rf"\({re.escape(str(tmp_path))}/\.README\.md\.citgen-\w+\); it is unchanged", message(exc))
    assert target.read_text() == "old\n"
    assert names(tmp_path) == ["README.md"]


def test_a_failure_the_system_names_no_file_for_is_said_of_the_file_being_replaced(tmp_path: Path,
                                                                                   monkeypatch) -> None:
    target = tmp_path / "README.md"
    target.write_text("old\n")

    def full(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(write.os, "replace", full)
    with pytest.raises(CitgenError) as exc:
        replace_file(target, "new\n")
    assert message(exc) == f"{target}: cannot write it: No space left on device ({target}); it is unchanged"
    assert names(tmp_path) == ["README.md"]


def test_an_interrupt_just_after_the_rename_is_the_interrupt_and_the_new_text_stays(tmp_path: Path,
                                                                                    monkeypatch) -> None:
    target = tmp_path / "README.md"
    target.write_text("old\n")
    real = os.replace

    def replaced_then_interrupted(src, dst):
        real(src, dst)
        raise KeyboardInterrupt  # Ctrl-C handled as the rename returns: the temporary file is gone

    monkeypatch.setattr(write.os, "replace", replaced_then_interrupted)
    with pytest.raises(KeyboardInterrupt):
        replace_file(target, "new\n")
    assert target.read_text() == "new\n"
    assert names(tmp_path) == ["README.md"]


def test_the_reason_names_the_file_the_system_named_or_else_the_place_given() -> None:
    """Private helper, tested on purpose: _reason words an OSError that names no file, which a real write cannot be
    made to raise.
    """
    assert write._reason(OSError(errno.EIO, "Input/output error", "/a/b"), Path("/c")) == "Input/output error (/a/b)"
    assert write._reason(OSError(errno.EIO, "Input/output error"), Path("/c")) == "Input/output error (/c)"
    assert write._reason(OSError("odd"), Path("/c")) == "odd (/c)"


# --------------------------------------------------------------------------- remove_tree


def test_a_tree_is_removed_with_everything_in_it(tmp_path: Path) -> None:
    tree = tmp_path / ".out.citgen-old-1"
    (tree / "a" / "b").mkdir(parents=True)
    (tree / "a" / "b" / "file.yaml").write_text("x")
    (tree / "top.yaml").write_text("y")
    remove_tree(tree)
    assert not tree.exists()
    assert names(tmp_path) == []


def test_read_only_parts_of_a_tree_are_removed_too(tmp_path: Path) -> None:
    tree = tmp_path / ".out.citgen-old-1"
    (tree / "sealed").mkdir(parents=True)
    (tree / "sealed" / "file.yaml").write_text("x")
    (tree / "sealed" / "file.yaml").chmod(0o444)
    (tree / "sealed").chmod(0o555)
    remove_tree(tree)
    assert not tree.exists()


def test_a_part_that_cannot_be_removed_at_first_is_made_writable_and_removed(tmp_path: Path, monkeypatch) -> None:
    tree = tmp_path / ".out.citgen-old-1"
    (tree / "sealed").mkdir(parents=True)
    (tree / "sealed" / "file.yaml").write_text("x")
    real, refused = os.unlink, []

    def unlink_once(path, *args, **kwargs):  # as a read-only folder refuses for its owner, the first time
        if str(path).endswith("file.yaml") and not refused:
            refused.append(path)
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path, *args, **kwargs)

    chmods: list[tuple[str, int]] = []
    real_chmod = os.chmod
    monkeypatch.setattr(os, "unlink", unlink_once)
    monkeypatch.setattr(os, "chmod", lambda path, mode, **kw: chmods.append((str(path), mode)) or real_chmod(path, mode))
    remove_tree(tree)
    assert refused and not tree.exists()
    assert (str(tree / "sealed"), 0o700) in chmods


def recorded_chmods(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Every os.chmod call from now on, as (path, mode), each still made."""
    chmods: list[tuple[str, int]] = []
    real = os.chmod

    def chmod(path, mode, **kwargs):
        chmods.append((str(path), mode))
        return real(path, mode, **kwargs)

    monkeypatch.setattr(os, "chmod", chmod)
    return chmods


def test_a_folder_that_cannot_be_removed_at_first_is_made_writable_with_its_parent_and_nothing_else(
        tmp_path: Path, monkeypatch) -> None:
    tree = tmp_path / ".out.citgen-old-1"
    (tree / "sealed").mkdir(parents=True)
    (tree / "sealed" / "file.yaml").write_text("x")
    real_rmdir, refused = os.rmdir, []

    def rmdir_once(path, *args, **kwargs):  # as a read-only folder's folder refuses its owner, the first time
        if os.fspath(path) in ("sealed", str(tree / "sealed")) and not refused:
            refused.append(path)
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_rmdir(path, *args, **kwargs)

    monkeypatch.setattr(os, "rmdir", rmdir_once)
    chmods = recorded_chmods(monkeypatch)
    remove_tree(tree)
    assert refused and not tree.exists()
    assert chmods == [(str(tree), 0o700), (str(tree / "sealed"), 0o700)]


def test_a_file_that_cannot_be_removed_at_first_has_only_its_folder_made_writable(tmp_path: Path,
                                                                                   monkeypatch) -> None:
    tree = tmp_path / ".out.citgen-old-1"
    (tree / "sealed").mkdir(parents=True)
    (tree / "sealed" / "file.yaml").write_text("x")
    real, refused = os.unlink, []

    def unlink_once(path, *args, **kwargs):
        if str(path).endswith("file.yaml") and not refused:
            refused.append(path)
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", unlink_once)
    chmods = recorded_chmods(monkeypatch)
    remove_tree(tree)
    assert not tree.exists()
    assert chmods == [(str(tree / "sealed"), 0o700)]  # the file itself keeps its mode until it goes


def test_a_part_that_can_never_be_removed_is_named_once_the_rest_is_gone(tmp_path: Path, monkeypatch) -> None:
    tree = tmp_path / ".out.citgen-old-1"
    (tree / "sealed").mkdir(parents=True)
    (tree / "sealed" / "file.yaml").write_text("x")
    (tree / "other.yaml").write_text("y")
    real = os.unlink

    def never(path, *args, **kwargs):
        if str(path).endswith("file.yaml"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", never)
    with pytest.raises(PermissionError) as raised:
        remove_tree(tree)
    assert raised.value.filename == str(tree / "sealed" / "file.yaml")
    assert (tree / "sealed" / "file.yaml").read_text() == "x"
    assert names(tree) == ["sealed"] and names(tree / "sealed") == ["file.yaml"]


def test_a_link_is_removed_and_what_it_names_is_left_alone(tmp_path: Path) -> None:
    kept = tmp_path / "users-folder"
    kept.mkdir()
    (kept / "precious.txt").write_text("keep")
    link = tmp_path / ".out.citgen-old-1"
    link.symlink_to(kept, target_is_directory=True)
    remove_tree(link)
    assert not os.path.lexists(link)
    assert (kept / "precious.txt").read_text() == "keep"


def test_a_file_in_place_of_a_tree_is_removed(tmp_path: Path) -> None:
    stray = tmp_path / ".out.citgen-new-1"
    stray.write_text("x")
    remove_tree(stray)
    assert not stray.exists()


def test_a_tree_that_is_already_gone_is_no_error(tmp_path: Path) -> None:
    remove_tree(tmp_path / "never-made")
    assert names(tmp_path) == []
