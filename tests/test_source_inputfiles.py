"""generator/source/inputfiles.py: the limits of a run, sizes as people write them, and reading files safely.

Every file citgen reads comes through read_bytes and read_text: regular files only,
bounded in size (a file exactly at the limit is read, one byte more is refused),
never a link out of the catalog (templates too, through render/loader.py), and catalog
folders are listed by yaml_files and checked by usable_folder. The tests run as
whatever user the suite runs as (often root, who may read anything), so a folder
that cannot be read is made by standing in for the system call that would refuse it.
"""

from __future__ import annotations

import errno
import os
import socket
import stat
from pathlib import Path

import pytest

from generator.source import inputfiles
from generator.source.inputfiles import (DEFAULT_MAX_DOCUMENTS, DEFAULT_MAX_FILE_SIZE, MiB, Limits,
                                         leads_outside, limited, limits, parse_size, read_bytes, read_text,
                                         show_size, usable_folder, yaml_files)
from tests.readers import ONLY_REGULAR, OUTSIDE, WHOLE as FOLDER, refusal, too_large, write


# --------------------------------------------------------------------------- the limits of a run


def test_the_default_limits_are_64_mib_and_100000_documents():
    assert (DEFAULT_MAX_FILE_SIZE, DEFAULT_MAX_DOCUMENTS) == (256 * 1024 * 1024, 100_000)
    assert limits() == Limits(256 * 1024 * 1024, 100_000)


def test_limited_sets_the_limits_for_its_body_and_restores_them_afterwards():
    with limited(Limits(10, 2)) as inside:
        assert inside == Limits(10, 2)
        assert limits() == Limits(10, 2)
        with limited(Limits(5, 1)):
            assert limits() == Limits(5, 1)
        assert limits() == Limits(10, 2)
    assert limits() == Limits()


def test_limited_restores_the_limits_when_its_body_fails():
    with pytest.raises(RuntimeError):
        with limited(Limits(10, 2)):
            raise RuntimeError("the body failed")
    assert limits() == Limits()


# --------------------------------------------------------------------------- parse_size and show_size


@pytest.mark.parametrize("text, size", [
    ("200MiB", 200 * MiB),
    ("200Mi", 200 * MiB),
    ("64KiB", 64 * 1024),
    ("1GiB", 1 << 30),
    ("1G", 1_000_000_000),
    ("1k", 1000),
    ("1048576", 1048576),
    (" 64Mi\n", 64 * MiB),
    ("1", 1),
    ("0.5Ki", 512),
    ("2000m", 2),
    ("1e3", 1000),
])
def test_a_size_is_read_as_people_write_it(text: str, size: int):
    assert parse_size(text) == size
    assert type(parse_size(text)) is int


@pytest.mark.parametrize("text", ["64MB", "64Bi", "lots", "", "MiB", "1 GiB"])
def test_a_size_that_is_no_quantity_is_refused(text: str):
    with pytest.raises(ValueError) as caught:
        parse_size(text)
    assert str(caught.value) == f"expected a size such as 64MiB, 200Mi or 1G, got {text!r}"


@pytest.mark.parametrize("text", ["0", "0Mi", "-1Mi", "1.5", "1500m", "0.5"])
def test_a_size_that_is_no_whole_number_of_bytes_or_below_one_is_refused(text: str):
    with pytest.raises(ValueError) as caught:
        parse_size(text)
    assert str(caught.value) == f"expected a whole number of bytes, at least 1, got {text!r}"


def test_a_size_of_40_characters_is_read_and_one_of_41_is_refused_unread():
    assert parse_size("1" + "0" * 39) == 10 ** 39
    assert parse_size("1" + "0" * 37 + "Ki") == 10 ** 37 * 1024
    with pytest.raises(ValueError) as caught:
        parse_size("1" + "0" * 40)
    assert str(caught.value) == f"expected a size such as 64MiB, 200Mi or 1G, got {'1' + '0' * 40!r}"


def test_the_b_of_a_binary_unit_does_not_count_towards_the_40_characters():
    assert parse_size("1" + "0" * 37 + "KiB") == 10 ** 37 * 1024
    with pytest.raises(ValueError) as caught:
        parse_size("1" + "0" * 38 + "KiB")
    assert str(caught.value) == f"expected a size such as 64MiB, 200Mi or 1G, got {'1' + '0' * 38 + 'KiB'!r}"


def test_a_refused_size_is_quoted_as_an_excerpt():
    text = "x" * 100
    with pytest.raises(ValueError) as caught:
        parse_size(text)
    assert str(caught.value) == f"expected a size such as 64MiB, 200Mi or 1G, got '{'x' * 60}... (40 more characters)'"


@pytest.mark.parametrize("size, shown", [
    (64 * MiB, "64 MiB"),
    (1 << 30, "1 GiB"),
    (3 << 30, "3 GiB"),
    (1536 * MiB, "1536 MiB"),
    (MiB, "1 MiB"),
    (1024, "1 KiB"),
    (1536, "1536 bytes"),
    (1023, "1023 bytes"),
    (100, "100 bytes"),
    (1, "1 bytes"),
])
def test_a_size_is_shown_in_the_largest_unit_it_is_a_whole_number_of(size: int, shown: str):
    assert show_size(size) == shown


# --------------------------------------------------------------------------- regular files only


@pytest.mark.parametrize("mode, what", [
    (stat.S_IFREG, None),
    (stat.S_IFDIR, "a directory"),
    (stat.S_IFIFO, "a FIFO (named pipe)"),
    (stat.S_IFCHR, "a character device"),
    (stat.S_IFBLK, "a block device"),
    (stat.S_IFSOCK, "a socket"),
    (stat.S_IFLNK, "not a regular file"),
    (0, "not a regular file"),
])
def test_each_kind_of_file_but_a_regular_one_is_named_in_words(mode: int, what: str | None):
    """Private helper, tested on purpose: _not_regular names every kind of file by its mode, which a test cannot make
    of each (a device, a door) on every machine.
    """
    assert inputfiles._not_regular(mode | 0o644) == what


def test_a_regular_file_is_read_whole(tmp_path: Path):
    path = write(tmp_path / "f.yaml", b"a: 1\n\x00\xff")
    assert read_bytes(path) == b"a: 1\n\x00\xff"
    assert read_bytes(str(path)) == b"a: 1\n\x00\xff"


def test_an_empty_file_is_read_as_no_bytes(tmp_path: Path):
    assert read_bytes(write(tmp_path / "f.yaml", b"")) == b""


def test_a_directory_is_refused(tmp_path: Path):
    assert refusal(read_bytes, tmp_path, "dir") == [f"dir: is a directory, {ONLY_REGULAR}"]


def test_a_fifo_is_refused_without_opening_it(tmp_path: Path):
    os.mkfifo(tmp_path / "fifo")
    assert refusal(read_bytes, tmp_path / "fifo", "fifo.yaml") == [f"fifo.yaml: is a FIFO (named pipe), {ONLY_REGULAR}"]


def test_a_character_device_is_refused():
    assert refusal(read_bytes, "/dev/null") == [f"/dev/null: is a character device, {ONLY_REGULAR}"]


def test_a_socket_is_refused(tmp_path: Path):
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(tmp_path / "s"))
        assert refusal(read_bytes, tmp_path / "s", "s.yaml") == [f"s.yaml: is a socket, {ONLY_REGULAR}"]
    finally:
        server.close()


def swap_after_stat(monkeypatch: pytest.MonkeyPatch, path: Path, stand_in: Path) -> None:
    """os.stat of ``path`` answers for ``stand_in``: as if ``path`` were replaced between stat and open."""
    real = os.stat

    def stat_of_before(target, *args, **kwargs):
        return real(stand_in if os.fspath(target) == os.fspath(path) else target, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat_of_before)


def test_a_fifo_swapped_in_after_the_stat_is_opened_without_blocking_and_refused(tmp_path: Path, monkeypatch):
    os.mkfifo(tmp_path / "fifo")
    swap_after_stat(monkeypatch, tmp_path / "fifo", write(tmp_path / "plain", b"x"))
    real_open = os.open

    def open_without_blocking(path, flags, *args):
        assert flags & os.O_NONBLOCK, "a FIFO opened without O_NONBLOCK blocks until a writer comes"
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", open_without_blocking)
    assert refusal(read_bytes, tmp_path / "fifo", "f.yaml") == [f"f.yaml: is a FIFO (named pipe), {ONLY_REGULAR}"]


def test_a_socket_swapped_in_after_the_stat_is_refused_as_a_socket(tmp_path: Path, monkeypatch):
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(tmp_path / "s"))
        swap_after_stat(monkeypatch, tmp_path / "s", write(tmp_path / "plain", b"x"))
        assert refusal(read_bytes, tmp_path / "s", "s.yaml") == [f"s.yaml: is a socket, {ONLY_REGULAR}"]
    finally:
        server.close()


def test_a_file_is_opened_read_only_without_blocking_inheriting_or_taking_a_terminal(tmp_path: Path, monkeypatch):
    seen: list[int] = []
    real_open = os.open

    def recording_open(path, flags, *args):
        seen.append(flags)
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", recording_open)
    assert read_bytes(write(tmp_path / "f.yaml", b"x")) == b"x"
    assert seen == [os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY]


def test_a_missing_file_is_refused_by_name(tmp_path: Path):
    assert refusal(read_bytes, tmp_path / "absent.yaml", "absent.yaml") == ["absent.yaml: no such file or folder"]


def test_without_a_display_name_the_path_names_the_file(tmp_path: Path):
    path = tmp_path / "absent.yaml"
    assert refusal(read_bytes, path) == [f"{path}: no such file or folder"]
    assert refusal(read_text, path) == [f"{path}: no such file or folder"]


def test_a_path_through_a_file_names_the_file_that_is_no_folder(tmp_path: Path):
    write(tmp_path / "file", b"x")
    assert refusal(read_bytes, tmp_path / "file" / "f.yaml", "f.yaml") == [
        f"{tmp_path / 'file'}: is a regular file, not a directory"]
    assert refusal(read_bytes, tmp_path / "file" / "f.yaml", "series/file/f.yaml") == [
        "series/file: is a regular file, not a directory"]


def test_an_open_that_fails_for_another_reason_says_why(tmp_path: Path, monkeypatch):
    def refuse(*args):
        raise OSError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(os, "open", refuse)
    assert refusal(read_bytes, write(tmp_path / "f", b"x"), "f.yaml") == ["f.yaml: cannot read: Permission denied"]


def test_a_read_that_fails_says_why_and_closes_the_file(tmp_path: Path, monkeypatch):
    path = write(tmp_path / "f.yaml", b"abc")
    open_before = len(os.listdir("/proc/self/fd"))

    def fail(*args):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "read", fail)
    assert refusal(read_bytes, path, "f.yaml") == ["f.yaml: cannot read: Input/output error"]
    assert len(os.listdir("/proc/self/fd")) == open_before


def test_every_file_read_or_refused_is_closed_again(tmp_path: Path):
    path = write(tmp_path / "f.yaml", b"abc")
    open_before = len(os.listdir("/proc/self/fd"))
    for _ in range(3):
        read_bytes(path)
        with limited(Limits(max_file_size=2)):
            refusal(read_bytes, path)
    assert len(os.listdir("/proc/self/fd")) == open_before


# --------------------------------------------------------------------------- the size limit


def test_a_file_exactly_at_the_limit_is_read(tmp_path: Path):
    with limited(Limits(max_file_size=10)):
        assert read_bytes(write(tmp_path / "f.yaml", b"0123456789")) == b"0123456789"


def test_a_file_one_byte_past_the_limit_is_refused(tmp_path: Path):
    path = write(tmp_path / "f.yaml", b"0123456789x")
    with limited(Limits(max_file_size=10)):
        assert refusal(read_bytes, path, "f.yaml") == [too_large("f.yaml", "10 bytes")]
        assert refusal(read_text, path, "f.yaml") == [too_large("f.yaml", "10 bytes")]


def test_the_limit_is_named_in_its_unit(tmp_path: Path):
    path = write(tmp_path / "f.yaml", b"x" * 1025)
    with limited(Limits(max_file_size=1024)):
        assert refusal(read_bytes, path, "f.yaml") == [too_large("f.yaml", "1 KiB")]


def test_a_file_past_the_default_limit_is_refused_from_its_size_without_reading_it(tmp_path: Path, monkeypatch):
    path = tmp_path / "huge.yaml"
    with path.open("wb") as handle:
        handle.truncate(DEFAULT_MAX_FILE_SIZE + 1)  # sparse: takes no disk
    monkeypatch.setattr(os, "read", lambda *args: pytest.fail("read a file its size already refused"))
    assert refusal(read_bytes, path, "huge.yaml") == [too_large("huge.yaml", "256 MiB")]


def grow_after_fstat(monkeypatch: pytest.MonkeyPatch, path: Path, more: bytes) -> None:
    """Append ``more`` to ``path`` right after its size is taken from the open descriptor."""
    real = os.fstat

    def fstat_then_grow(fd):
        info = real(fd)
        with path.open("ab") as handle:
            handle.write(more)
        return info

    monkeypatch.setattr(os, "fstat", fstat_then_grow)


def test_a_file_that_grows_past_the_limit_while_it_is_read_is_refused(tmp_path: Path, monkeypatch):
    path = write(tmp_path / "f.yaml", b"0123456789")
    grow_after_fstat(monkeypatch, path, b"x")
    with limited(Limits(max_file_size=10)):
        assert refusal(read_bytes, path, "f.yaml") == [too_large("f.yaml", "10 bytes")]


def test_a_file_that_grows_up_to_the_limit_while_it_is_read_is_read_whole(tmp_path: Path, monkeypatch):
    path = write(tmp_path / "f.yaml", b"012345678")
    grow_after_fstat(monkeypatch, path, b"9")
    with limited(Limits(max_file_size=10)):
        assert read_bytes(path) == b"0123456789"


def test_a_large_file_that_grows_past_the_limit_is_refused_after_reading_one_byte_beyond_it(tmp_path, monkeypatch):
    limit = 2 * MiB + 10
    path = write(tmp_path / "f.yaml", b"x" * limit)
    grow_after_fstat(monkeypatch, path, b"y" * 100)
    asked: list[int] = []
    real_read = os.read

    def recording_read(fd, n):
        asked.append(n)
        return real_read(fd, n)

    monkeypatch.setattr(os, "read", recording_read)
    with limited(Limits(max_file_size=limit)):
        assert refusal(read_bytes, path, "f.yaml") == [too_large("f.yaml", f"{limit} bytes")]
    assert asked == [MiB, MiB, 11]


def test_a_file_at_the_limit_is_read_in_mebibyte_pieces_then_one_byte_to_see_its_end(tmp_path, monkeypatch):
    limit = 2 * MiB + 10
    path = write(tmp_path / "f.yaml", b"x" * limit)
    asked: list[int] = []
    real_read = os.read

    def recording_read(fd, n):
        asked.append(n)
        return real_read(fd, n)

    monkeypatch.setattr(os, "read", recording_read)
    with limited(Limits(max_file_size=limit)):
        assert read_bytes(path) == b"x" * limit
    assert asked == [MiB, MiB, 11, 1]


def test_a_small_file_is_read_in_one_piece_and_one_read_that_finds_its_end(tmp_path, monkeypatch):
    path = write(tmp_path / "f.yaml", b"abc")
    asked: list[int] = []
    real_read = os.read

    def recording_read(fd, n):
        asked.append(n)
        return real_read(fd, n)

    monkeypatch.setattr(os, "read", recording_read)
    with limited(Limits(max_file_size=10)):
        assert read_bytes(path) == b"abc"
    assert asked == [11, 8]


# --------------------------------------------------------------------------- links out of the catalog


def catalog_with_link(tmp_path: Path, target: Path) -> Path:
    (tmp_path / "catalog" / "series").mkdir(parents=True)
    link = tmp_path / "catalog" / "series" / "s.yaml"
    link.symlink_to(target)
    return link


def test_a_link_leading_out_of_the_catalog_is_refused(tmp_path: Path):
    link = catalog_with_link(tmp_path, write(tmp_path / "secret.yaml", b"x"))
    assert refusal(read_bytes, link, "series/s.yaml", within=tmp_path / "catalog") == [f"series/s.yaml: {OUTSIDE}"]
    assert refusal(read_text, link, "series/s.yaml", within=tmp_path / "catalog") == [f"series/s.yaml: {OUTSIDE}"]


def test_a_link_out_of_the_catalog_is_refused_before_its_target_is_looked_at(tmp_path: Path):
    link = catalog_with_link(tmp_path, tmp_path / "absent.yaml")
    assert refusal(read_bytes, link, "series/s.yaml", within=tmp_path / "catalog") == [f"series/s.yaml: {OUTSIDE}"]


def test_a_link_out_of_the_catalog_is_named_by_its_path_without_a_display_name(tmp_path: Path):
    link = catalog_with_link(tmp_path, write(tmp_path / "secret.yaml", b"x"))
    assert refusal(read_bytes, link, within=tmp_path / "catalog") == [f"{link}: {OUTSIDE}"]


def test_a_link_out_of_the_catalog_is_read_when_no_catalog_is_given(tmp_path: Path):
    link = catalog_with_link(tmp_path, write(tmp_path / "secret.yaml", b"x"))
    assert read_bytes(link) == b"x"


def test_a_link_inside_the_catalog_is_read(tmp_path: Path):
    (tmp_path / "catalog").mkdir()
    target = write(tmp_path / "catalog" / "u.yaml", b"x")
    link = catalog_with_link(tmp_path, target)
    assert read_bytes(link, within=tmp_path / "catalog") == b"x"


def test_leads_outside_only_for_a_path_inside_the_folder_as_written(tmp_path: Path):
    catalog = tmp_path / "catalog"
    link = catalog_with_link(tmp_path, write(tmp_path / "secret.yaml", b"x"))
    write(catalog / "plain.yaml", b"x")
    assert leads_outside(link, catalog) is True
    assert leads_outside(catalog / "plain.yaml", catalog) is False
    assert leads_outside(tmp_path / "secret.yaml", catalog) is False  # beside the catalog, on purpose
    assert leads_outside(catalog, catalog) is False


def test_leads_outside_follows_a_linked_catalog_folder(tmp_path: Path):
    real = tmp_path / "real"
    (real / "series").mkdir(parents=True)
    write(real / "series" / "u.yaml", b"x")
    (tmp_path / "catalog").symlink_to(real)
    assert leads_outside(tmp_path / "catalog" / "series" / "u.yaml", tmp_path / "catalog") is False
    (tmp_path / "catalog2").symlink_to(tmp_path / "catalog")
    assert leads_outside(tmp_path / "catalog2" / "series" / "u.yaml", tmp_path / "catalog") is False


def test_leads_outside_for_a_folder_that_is_itself_a_link_out(tmp_path: Path):
    (tmp_path / "catalog").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "catalog" / "series").symlink_to(tmp_path / "elsewhere")
    assert leads_outside(tmp_path / "catalog" / "series", tmp_path / "catalog") is True


def test_leads_outside_compares_whole_folder_names(tmp_path: Path):
    (tmp_path / "catalog").mkdir()
    (tmp_path / "catalog-other").mkdir()
    link = tmp_path / "catalog" / "s.yaml"
    link.symlink_to(write(tmp_path / "catalog-other" / "s.yaml", b"x"))
    assert leads_outside(link, tmp_path / "catalog") is True


def test_leads_outside_reads_relative_paths_from_the_current_directory(tmp_path: Path, monkeypatch):
    catalog_with_link(tmp_path, write(tmp_path / "secret.yaml", b"x"))
    monkeypatch.chdir(tmp_path)
    assert leads_outside(Path("catalog/series/s.yaml"), Path("catalog")) is True
    assert leads_outside(Path("catalog/../secret.yaml"), Path("catalog")) is False


# --------------------------------------------------------------------------- read_text


def test_text_is_read_as_utf_8(tmp_path: Path):
    assert read_text(write(tmp_path / "f.yaml", "é: ü€😀\n".encode())) == "é: ü€😀\n"


def test_text_that_is_not_utf_8_is_refused_with_the_byte(tmp_path: Path):
    path = write(tmp_path / "f.yaml", b"abc\xe9d")
    assert refusal(read_text, path, "f.yaml") == ["f.yaml: not UTF-8 text (invalid continuation byte at byte 3)"]
    path = write(tmp_path / "f.yaml", b"\xff")
    assert refusal(read_text, path) == [f"{path}: not UTF-8 text (invalid start byte at byte 0)"]


def test_latin_1_and_utf_16_text_are_refused(tmp_path: Path):
    path = write(tmp_path / "f.yaml", "a: b\n".encode("utf-16"))
    assert refusal(read_text, path, "f.yaml") == ["f.yaml: not UTF-8 text (invalid start byte at byte 0)"]
    path = write(tmp_path / "f.yaml", "name: Düsseldorf\n".encode("latin-1"))
    assert refusal(read_text, path, "f.yaml") == ["f.yaml: not UTF-8 text (invalid start byte at byte 7)"]


def test_windows_and_old_mac_line_ends_are_read_as_newlines(tmp_path: Path):
    assert read_text(write(tmp_path / "f.yaml", b"a: 1\r\nb: 2\rc: 3\n\r\n")) == "a: 1\nb: 2\nc: 3\n\n"


def test_text_without_carriage_returns_is_read_as_it_is(tmp_path: Path):
    assert read_text(write(tmp_path / "f.yaml", b"a: 1\n\nb: '\\r'\n")) == "a: 1\n\nb: '\\r'\n"


def test_read_text_refuses_a_link_out_of_the_catalog_by_its_display_name(tmp_path: Path):
    link = catalog_with_link(tmp_path, write(tmp_path / "secret.yaml", b"x"))
    assert refusal(read_text, link, within=tmp_path / "catalog") == [f"{link}: {OUTSIDE}"]


def test_read_text_is_bounded_by_the_same_limit(tmp_path: Path):
    with limited(Limits(max_file_size=4)):
        assert read_text(write(tmp_path / "f.yaml", b"a: 1")) == "a: 1"
        assert refusal(read_text, write(tmp_path / "g.yaml", b"a: 12")) == [too_large(f"{tmp_path}/g.yaml", "4 bytes")]


# --------------------------------------------------------------------------- yaml_files and usable_folder


def test_the_yaml_files_of_a_folder_are_listed_by_name(tmp_path: Path):
    names = ["m.yaml", "a.yaml", "z.yaml", "b.yaml", "cx.yaml", "u.yaml", "n.yaml", "d.yaml", "A.yaml", "_.yaml"]
    for name in names:
        write(tmp_path / name, b"")
    for other in ["notes.txt", "x.yml", "x.yaml.bak", "yaml"]:
        write(tmp_path / other, b"")
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub" / "deeper.yaml", b"")
    assert yaml_files(tmp_path, "series") == [tmp_path / name for name in sorted(names)]


def test_a_folder_named_like_a_yaml_file_is_listed_so_that_reading_it_refuses_it(tmp_path: Path):
    (tmp_path / "odd.yaml").mkdir()
    assert yaml_files(tmp_path, "series") == [tmp_path / "odd.yaml"]


def test_a_missing_folder_has_no_yaml_files(tmp_path: Path):
    assert yaml_files(tmp_path / "absent", "series") == []


def test_a_file_in_place_of_a_folder_is_refused(tmp_path: Path):
    assert refusal(yaml_files, write(tmp_path / "series", b"x: 1"), "series") == [
        "series: is a regular file, not a directory"]


def test_usable_folder_says_whether_a_folder_is_there(tmp_path: Path):
    write(tmp_path / "a.yaml", b"")
    assert usable_folder(tmp_path, "series") is True
    assert usable_folder(tmp_path / "absent", "series") is False
    (tmp_path / "empty").mkdir()
    assert usable_folder(tmp_path / "empty", "series") is True
    assert refusal(usable_folder, tmp_path / "a.yaml", "series") == ["series: is a regular file, not a directory"]


@pytest.mark.parametrize("missing", [os.R_OK, os.X_OK], ids=["read", "search"])
def test_a_folder_without_read_or_search_permission_is_refused(tmp_path: Path, monkeypatch, missing: int):
    write(tmp_path / "a.yaml", b"")
    real = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: real(path, mode) and not mode & missing)
    message = f"series: cannot read the folder: permission denied; {FOLDER}"
    assert refusal(usable_folder, tmp_path, "series") == [message]
    assert refusal(yaml_files, tmp_path, "series") == [message]


def test_a_folder_that_cannot_be_listed_is_refused(tmp_path: Path, monkeypatch):
    real = os.scandir

    def refuse(path):
        if path != tmp_path:
            return real(path)
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(os, "scandir", refuse)
    assert refusal(usable_folder, tmp_path, "preferences") == [
        f"preferences: cannot read the folder: permission denied; {FOLDER}"]


def unlistable(monkeypatch: pytest.MonkeyPatch, folder: Path, error: OSError) -> _Entries:
    """os.scandir of ``folder`` (only) gives one entry that cannot be looked at, with ``error``."""
    real = os.scandir
    entries = _Entries(error)
    monkeypatch.setattr(os, "scandir", lambda path: entries if path == folder else real(path))
    return entries


class _Entries:
    """What os.scandir gives for a folder whose entries cannot be looked at (no search permission)."""

    def __init__(self, error: OSError):
        self.error = error
        self.closed = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.closed = True

    def __iter__(self):
        yield self

    def stat(self, *, follow_symlinks=True):
        raise self.error


def test_a_folder_whose_entries_cannot_be_looked_at_is_refused(tmp_path: Path, monkeypatch):
    entries = unlistable(monkeypatch, tmp_path, PermissionError(errno.EACCES, "Permission denied"))
    assert refusal(usable_folder, tmp_path, "series") == [
        f"series: cannot read the folder: permission denied; {FOLDER}"]
    assert entries.closed


def test_another_error_on_a_folder_is_refused_in_its_own_words(tmp_path: Path, monkeypatch):
    unlistable(monkeypatch, tmp_path, OSError(errno.EIO, "Input/output error"))
    assert refusal(usable_folder, tmp_path, "series") == [
        f"series: cannot read the folder: Input/output error; {FOLDER}"]


def test_an_error_without_words_on_a_folder_is_refused_with_what_it_says(tmp_path: Path, monkeypatch):
    unlistable(monkeypatch, tmp_path, OSError("the disk went away"))
    assert refusal(usable_folder, tmp_path, "series") == [
        f"series: cannot read the folder: the disk went away; {FOLDER}"]


def test_a_folder_that_vanishes_while_it_is_looked_at_passes(tmp_path: Path, monkeypatch):
    unlistable(monkeypatch, tmp_path, FileNotFoundError(errno.ENOENT, "gone"))
    assert usable_folder(tmp_path, "series") is False
