"""generator/tools/freshness.py on small output folders: links, names, and what a bundle summary counts.

Each case is a folder of a file or two beside a build of as many, so that what is reported of each
file is plain; tests/test_tools_freshness.py compares a whole build's outputs.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.tools.freshness import StaleFile, bundle_summary, compare


def bundle(*names: str, version: str = "v1") -> bytes:
    return "".join(f"---\nkind: VirtualMachineClusterInstancetype\nmetadata:\n  name: {name}\n  labels:\n"
                   f"    instancetype.kubevirt.io/common-instancetypes-version: {version}\n" for name in names).encode()


def test_a_link_in_place_of_a_file_is_stale_even_to_the_right_bytes_and_the_files_after_it_are_judged(tmp_path: Path):
    out = tmp_path / "out"
    out.mkdir()
    (tmp_path / "elsewhere.yaml").write_bytes(b"x\n")
    (out / "a.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    found = compare(out, {"a.yaml": b"x\n", "b.yaml": b"y\n"})
    assert (found.stale, found.missing) == ((StaleFile("a.yaml"),), ("b.yaml",))
    assert found.lines() == [f"{out} is out of date: 1 stale, 1 missing, 0 extra", "  stale:   a.yaml",
                             "  missing: b.yaml", "run `citgen build` with the same options to update it"]


def test_a_link_to_a_folder_is_one_extra_entry_never_walked_into(tmp_path: Path):
    out = tmp_path / "out"
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "inside.yaml").write_bytes(b"x\n")
    out.mkdir()
    (out / "a.yaml").write_bytes(b"x\n")
    (out / "linked").symlink_to(tmp_path / "folder")
    assert compare(out, {"a.yaml": b"x\n"}).extra == ("linked",)


def test_only_a_bundle_at_the_top_gets_a_summary():
    old, new = bundle("a"), bundle("a", "b")
    assert bundle_summary("common-x.yaml", old, new) == "1 added, 0 removed, 0 changed"
    assert [bundle_summary(name, old, new) for name in ("other.yaml", "common-dir/x.yaml", "common-x.json")] == [
        "", "", ""]


def test_a_bundle_whose_objects_differ_only_in_the_version_counts_them_changed():
    assert bundle_summary("common-x.yaml", bundle("a", "b"), bundle("a", "b", version="v2")) == (
        "0 added, 0 removed, 2 changed")


def test_a_bundle_holding_an_object_without_a_name_cannot_be_compared():
    nameless = b"---\nkind: VirtualMachineClusterInstancetype\nmetadata: {}\n"
    assert bundle_summary("common-x.yaml", bundle("a"), nameless) == "not a bundle citgen can compare"


def test_a_folder_of_the_outputs_that_cannot_be_listed_is_refused_by_its_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """os.listdir refuses the folder as it would a user without read permission (the tests may run as root)."""
    out = tmp_path / "out"
    (out / "sub").mkdir(parents=True)
    listdir = os.listdir

    def refusing(path: object = ".") -> list[str]:
        if Path(str(path)).name == "sub":
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        return listdir(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "listdir", refusing)
    with pytest.raises(InputError) as raised:
        compare(out, {"a.yaml": b"x\n"})
    assert str(raised.value) == f"{out}/sub: cannot read the folder: Permission denied"
