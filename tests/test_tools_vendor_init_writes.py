"""generator/tools/vendor_init.py: how init_catalog writes, in this process: a new directory made whole
and readable, an empty one filled in place, and what a failure half way leaves (nothing).

A failure is made by an ``os.rename`` that refuses one move (as a full disk or a lost mount would),
which also shows where each move comes from: a hidden staging directory beside or inside the target.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.tools.vendor_init import init_catalog


def test_a_new_catalog_is_a_readable_directory_and_its_vendor_is_example_com_unless_given(tmp_path: Path):
    assert init_catalog(tmp_path / "new") == [tmp_path / "new" / "catalog.yaml", tmp_path / "new" / "overlay.yaml"]
    assert (tmp_path / "new").stat().st_mode & 0o777 == 0o755
    assert "\nvendor: example.com\n" in (tmp_path / "new" / "catalog.yaml").read_text()


def test_an_empty_directory_is_filled_in_place_keeping_its_permissions(tmp_path: Path):
    target = tmp_path / "mine"
    target.mkdir(mode=0o700)
    before = target.stat()
    assert init_catalog(target, "acme.example") == [target / "catalog.yaml", target / "overlay.yaml"]
    after = target.stat()
    assert (after.st_ino, after.st_mode & 0o777) == (before.st_ino, 0o700)
    assert sorted(p.name for p in target.iterdir()) == ["catalog.yaml", "overlay.yaml"]


def refusing(monkeypatch: pytest.MonkeyPatch, refused: str) -> list[tuple[Path, Path]]:
    """Make os.rename refuse a move to a path named ``refused`` (no space left); every move asked for, listed."""
    moves: list[tuple[Path, Path]] = []
    rename = os.rename

    def move(source: str | Path, target: str | Path) -> None:
        moves.append((Path(source), Path(target)))
        if Path(target).name == refused:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        rename(source, target)

    monkeypatch.setattr(os, "rename", move)
    return moves


def test_a_failure_filling_an_empty_directory_takes_back_what_was_moved_and_leaves_it_empty(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    moves = refusing(monkeypatch, "catalog.yaml")  # the last: overlay.yaml is in place by then
    with pytest.raises(InputError) as raised:
        init_catalog(tmp_path)
    assert str(raised.value) == f"{tmp_path}: cannot create the catalog: No space left on device; nothing was written"
    assert list(tmp_path.iterdir()) == []
    assert [(source.parent.parent, source.parent.name.startswith(".citgen-init-"), target)
            for source, target in moves] == [(tmp_path, True, tmp_path / "overlay.yaml"),
                                              (tmp_path, True, tmp_path / "catalog.yaml")]


def test_a_failure_making_a_new_catalog_leaves_nothing_beside_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    moves = refusing(monkeypatch, "new")
    with pytest.raises(InputError) as raised:
        init_catalog(tmp_path / "new")
    assert str(raised.value) == (f"{tmp_path / 'new'}: cannot create the catalog: No space left on device; "
                                 "nothing was written")
    assert list(tmp_path.iterdir()) == []
    [(source, target)] = moves
    assert (source.parent, source.name.startswith(".new.citgen-init-"), target) == (tmp_path, True, tmp_path / "new")


@pytest.mark.parametrize("existing", [False, True], ids=["new directory", "empty directory"])
def test_a_staging_directory_that_cannot_be_removed_does_not_hide_the_failure_before_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, existing: bool):
    target = tmp_path / "new"
    if existing:
        target.mkdir()
    refusing(monkeypatch, "catalog.yaml" if existing else "new")

    def busy(path: object, *args: object, **kwargs: object) -> None:
        raise OSError(errno.EBUSY, os.strerror(errno.EBUSY))

    monkeypatch.setattr(os, "rmdir", busy)
    with pytest.raises(InputError) as raised:
        init_catalog(target)
    assert str(raised.value) == f"{target}: cannot create the catalog: No space left on device; nothing was written"
