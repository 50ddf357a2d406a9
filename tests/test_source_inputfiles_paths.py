"""generator/source/inputfiles.py: what is at a path, folders listed whole, text as editors save it.

Every path citgen probes or lists goes through lookup, folder_names and folder_files,
so that nothing is taken for absent only because it could not be looked at: a
folder on the way that cannot be entered, a link to nothing, a link loop and a file
where a folder should be are refusals naming the part to blame. Text is decoded
once, by decode_text: a byte-order mark dropped, CRLF read as LF, and both
remembered for a file written back. The suite may run as root, whom permission bits
do not bind, so a folder that cannot be entered is made by standing in for os.stat.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from generator.source.inputfiles import (usable_folder, BOM, TextFile, decode_text, file_kind, folder_files,
                                         folder_names, lookup, read_file, read_text, read_text_file)
from tests.readers import WHOLE, refusal, unsearchable, write

LOOP = "is a symbolic link loop: following its links never reaches a file"


# --------------------------------------------------------------------------- lookup


def test_nothing_there_is_none_and_something_there_is_what_it_is(tmp_path: Path):
    assert lookup(tmp_path / "absent.yaml") is None
    assert stat.S_ISREG(lookup(write(tmp_path / "a.yaml")).st_mode)
    assert stat.S_ISDIR(lookup(tmp_path).st_mode)


def test_a_link_is_looked_through():
    assert stat.S_ISCHR(lookup("/dev/null").st_mode)


def test_a_link_to_nothing_is_refused_with_where_it_points(tmp_path: Path):
    (tmp_path / "a.yaml").symlink_to("gone.yaml")
    assert refusal(lookup, tmp_path / "a.yaml", "series/a.yaml") == [
        "series/a.yaml: is a symbolic link that points nowhere: 'gone.yaml' does not exist"]


def test_a_link_loop_is_refused_as_one(tmp_path: Path):
    (tmp_path / "a.yaml").symlink_to("b.yaml")
    (tmp_path / "b.yaml").symlink_to("a.yaml")
    assert refusal(lookup, tmp_path / "a.yaml", "series/a.yaml") == [f"series/a.yaml: {LOOP}"]


def test_a_link_loop_on_the_way_is_named_as_the_display_names_it(tmp_path: Path):
    (tmp_path / "loop").symlink_to("loop")
    assert refusal(lookup, tmp_path / "loop" / "a.yaml", "series/loop/a.yaml") == [f"series/loop: {LOOP}"]


def test_a_file_where_a_folder_should_be_is_named(tmp_path: Path):
    write(tmp_path / "kustomize")
    assert refusal(lookup, tmp_path / "kustomize" / "a.j2", "templates/kustomize/a.j2") == [
        "templates/kustomize: is a regular file, not a directory"]


def test_a_folder_on_the_way_that_cannot_be_entered_is_named_and_not_taken_for_absence(tmp_path: Path, monkeypatch):
    write(tmp_path / "kustomize" / "a.j2")
    unsearchable(monkeypatch, tmp_path / "kustomize")
    assert refusal(lookup, tmp_path / "kustomize" / "a.j2", "templates/kustomize/a.j2", within=tmp_path) == [
        f"templates/kustomize: cannot read the folder: permission denied; {WHOLE}"]
    assert refusal(lookup, tmp_path / "kustomize" / "gone.j2", "templates/kustomize/gone.j2") == [
        "templates/kustomize: cannot read the folder: permission denied"]


def test_a_part_above_what_the_display_names_is_named_by_its_path(tmp_path: Path, monkeypatch):
    write(tmp_path / "private" / "catalog" / "series" / "a.yaml")
    unsearchable(monkeypatch, tmp_path / "private")
    assert refusal(lookup, tmp_path / "private" / "catalog" / "series" / "a.yaml", "series/a.yaml") == [
        f"{tmp_path / 'private'}: cannot read the folder: permission denied"]


def test_another_failure_is_said_in_the_system_s_words(tmp_path: Path, monkeypatch):
    def failing(path, *args, **kwargs):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "stat", failing)
    assert refusal(lookup, tmp_path / "a.yaml", "a.yaml") == ["a.yaml: cannot read: Input/output error"]


@pytest.mark.parametrize("mode, words", [
    (stat.S_IFREG, "a regular file"),
    (stat.S_IFDIR, "a directory"),
    (stat.S_IFIFO, "a FIFO (named pipe)"),
    (stat.S_IFCHR, "a character device"),
    (stat.S_IFSOCK, "a socket"),
    (0, "something other than a file"),
])
def test_every_kind_of_file_has_its_words(mode: int, words: str):
    assert file_kind(mode) == words


# --------------------------------------------------------------------------- folders


def test_a_folder_s_names_are_listed_sorted_and_a_missing_one_has_none(tmp_path: Path):
    for name in ("b.yaml", "a.yaml", "sub"):
        write(tmp_path / "f" / name) if name != "sub" else (tmp_path / "f" / name).mkdir(parents=True)
    assert folder_names(tmp_path / "f", "series") == ["a.yaml", "b.yaml", "sub"]
    assert folder_names(tmp_path / "absent", "series") == []


@pytest.mark.parametrize("make, message", [
    (lambda p: write(p), "series: is a regular file, not a directory"),
    (lambda p: os.mkfifo(p), "series: is a FIFO (named pipe), not a directory"),
    (lambda p: p.symlink_to("nowhere"), "series: is a symbolic link that points nowhere: 'nowhere' does not exist"),
    (lambda p: p.symlink_to(p.name), f"series: {LOOP}"),
], ids=["file", "fifo", "dangling link", "link loop"])
def test_what_is_no_folder_is_refused_in_place_of_one(tmp_path: Path, make, message: str):
    make(tmp_path / "series")
    assert refusal(folder_names, tmp_path / "series", "series") == [message]
    assert refusal(folder_files, tmp_path / "series", "series") == [message]


def test_every_file_of_a_tree_is_listed_by_its_path_in_it(tmp_path: Path):
    root = tmp_path / "catalog" / "templates" / "helm" / "chart"
    for name in ("templates/catalog.yaml", "templates/_helpers.tpl", ".helmignore", "a/b/c.txt"):
        write(root / name)
    assert folder_files(root, "templates/helm/chart") == [
        ".helmignore", "a/b/c.txt", "templates/_helpers.tpl", "templates/catalog.yaml"]
    assert folder_files(tmp_path / "absent", "templates/helm/chart") == []


def test_what_is_no_regular_file_is_listed_so_that_reading_it_refuses_it(tmp_path: Path):
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "null").symlink_to("/dev/null")
    assert folder_files(tmp_path, "chart") == ["null", "pipe"]


def test_a_link_to_nothing_in_a_tree_is_refused_not_passed_over(tmp_path: Path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "gone.tpl").symlink_to("nowhere.tpl")
    assert refusal(folder_files, tmp_path, "chart") == [
        "chart/sub/gone.tpl: is a symbolic link that points nowhere: 'nowhere.tpl' does not exist"]


def test_a_folder_of_a_tree_that_cannot_be_listed_is_refused_by_its_name(tmp_path: Path, monkeypatch):
    write(tmp_path / "chart" / "templates" / "catalog.yaml")
    write(tmp_path / "chart" / "Chart.yaml")
    real = os.access
    folder = tmp_path / "chart" / "templates"
    monkeypatch.setattr(os, "access", lambda path, mode: real(path, mode) and Path(path) != folder)
    assert refusal(folder_files, tmp_path / "chart", "templates/helm/chart") == [
        f"templates/helm/chart/templates: cannot read the folder: permission denied; {WHOLE}"]


def test_a_folder_that_is_no_catalog_s_is_refused_without_the_catalog_s_words(tmp_path: Path, monkeypatch):
    write(tmp_path / "out" / "kustomize" / "kustomization.yaml")
    real = os.access
    folder = tmp_path / "out" / "kustomize"
    monkeypatch.setattr(os, "access", lambda path, mode: real(path, mode) and Path(path) != folder)
    assert refusal(folder_files, tmp_path / "out", "out", follow=False, catalog=False) == [
        "out/kustomize: cannot read the folder: permission denied"]
    assert refusal(folder_names, folder, "crds", catalog=False) == ["crds: cannot read the folder: permission denied"]


def test_a_link_to_a_folder_of_the_catalog_is_walked_into(tmp_path: Path):
    catalog = tmp_path / "catalog"
    write(catalog / "shared" / "a.tpl")
    (catalog / "chart").mkdir()
    (catalog / "chart" / "linked").symlink_to(catalog / "shared")
    assert folder_files(catalog / "chart", "chart", within=catalog) == ["linked/a.tpl"]


def test_a_link_to_a_folder_out_of_the_catalog_is_refused(tmp_path: Path):
    write(tmp_path / "elsewhere" / "secret.txt")
    (tmp_path / "catalog" / "chart").mkdir(parents=True)
    (tmp_path / "catalog" / "chart" / "out").symlink_to(tmp_path / "elsewhere")
    assert refusal(folder_files, tmp_path / "catalog" / "chart", "chart", within=tmp_path / "catalog") == [
        "chart/out: is a symbolic link to a file outside the catalog directory; citgen reads only files inside "
        "the catalog"]


def test_a_link_back_to_a_folder_it_is_in_is_a_loop(tmp_path: Path):
    write(tmp_path / "chart" / "sub" / "a.tpl")
    (tmp_path / "chart" / "sub" / "up").symlink_to(tmp_path / "chart")
    assert refusal(folder_files, tmp_path / "chart", "chart") == [
        "chart/sub/up: is a symbolic link loop: it leads back to a folder it is in"]


def test_without_following_links_every_link_is_an_entry_of_its_own(tmp_path: Path):
    write(tmp_path / "out" / "sub" / "a.yaml")
    (tmp_path / "out" / "folder-link").symlink_to(tmp_path / "out" / "sub")
    (tmp_path / "out" / "gone").symlink_to("nowhere")
    assert folder_files(tmp_path / "out", "out", follow=False) == ["folder-link", "gone", "sub/a.yaml"]


# --------------------------------------------------------------------------- text as editors save it


def test_a_leading_byte_order_mark_is_dropped_and_remembered():
    assert decode_text(b"\xef\xbb\xbfa: 1\n", "f.yaml") == TextFile("a: 1\n", bom=True, crlf=False)


def test_a_byte_order_mark_elsewhere_is_text():
    assert decode_text(b"a: '\xef\xbb\xbf'\n", "f.yaml") == TextFile(f"a: '{BOM}'\n")


def test_crlf_line_ends_are_read_as_lf_and_remembered_when_every_line_ends_so():
    assert decode_text(b"a\r\nb\r\n", "f") == TextFile("a\nb\n", crlf=True)
    assert decode_text(b"a\r\nb\n", "f") == TextFile("a\nb\n", crlf=False)  # mixed: written back with LF
    assert decode_text(b"a\rb", "f") == TextFile("a\nb", crlf=False)


def test_text_is_written_back_as_its_file_was():
    assert TextFile("", bom=True, crlf=True).as_written("a\nb\n") == "\ufeffa\r\nb\r\n"
    assert TextFile("", bom=False, crlf=True).as_written("a\n") == "a\r\n"
    assert TextFile("", bom=True).as_written("a\n") == "\ufeffa\n"
    assert TextFile("").as_written("a\n") == "a\n"


def test_read_text_gives_the_text_without_what_the_editor_added(tmp_path: Path):
    path = write(tmp_path / "f.yaml", b"\xef\xbb\xbfa: 1\r\nb: 2\r\n")
    assert read_text(path) == "a: 1\nb: 2\n"
    assert read_text_file(path) == TextFile("a: 1\nb: 2\n", bom=True, crlf=True)


def test_a_file_copied_into_an_output_is_text_as_read_or_else_its_bytes(tmp_path: Path):
    assert read_file(write(tmp_path / "a.tpl", b"\xef\xbb\xbf{{/* x */}}\r\n")) == b"{{/* x */}}\n"
    image = b"\x89PNG\r\n\x1a\n\x00\xff"
    assert read_file(write(tmp_path / "icon.png", image)) == image


def test_text_that_is_not_utf_8_after_its_mark_is_refused_at_the_byte_of_the_file(tmp_path: Path):
    path = write(tmp_path / "f.yaml", b"\xef\xbb\xbfa\xff")
    assert refusal(read_text, path, "f.yaml") == ["f.yaml: not UTF-8 text (invalid start byte at byte 4)"]


def test_a_link_to_itself_in_a_folder_is_that_link_not_the_folder(tmp_path: Path):
    """A folder is looked at without following its entries: a link loop in it is refused where it is read."""
    (tmp_path / "loop.yaml").symlink_to("loop.yaml")
    assert usable_folder(tmp_path, "series") is True
