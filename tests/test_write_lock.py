"""write.py's output lock and what it refuses to replace, at their exact edges.

The lock is a file beside the output directory (``.<name>.lock``) holding one JSON
line, the pid and start time of the build that holds it; a build that finds it held
waits for ``--lock-timeout`` seconds, then names the holder. An output directory is
replaced only when it holds what ``citgen <command>`` wrote there.

Private helper, tested on purpose: _holds_a_lock says whose lock a file holds, which nothing public
reports.
"""

from __future__ import annotations

import errno
import fcntl
import io
import json
import os
import re
import threading
import time
from pathlib import Path

import pytest

from generator import write
from generator.errors import CitgenError, InputError
from generator.write import MANIFEST, OutputLock, Staging, lock_path


def lock_text(path: Path) -> dict:
    text = path.read_text()
    assert text.endswith("\n") and text.count("\n") == 1, text
    return json.loads(text)


def test_the_lock_holds_one_json_line_of_the_holder_s_pid_and_start_time(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with OutputLock(out, timeout=1) as lock:
        held = lock_text(lock.path)
        assert held["pid"] == os.getpid()
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", held["started"]), held
        assert set(held) == {"pid", "started"}
        assert lock.path == tmp_path / ".out.lock" == lock_path(out)
        assert (lock.path.stat().st_mode & 0o777) == 0o644
    assert not lock.path.exists()


def padded(size: int) -> bytes:
    """A lock of ours, ``size`` bytes long (spaces inside the JSON)."""
    head, tail = b'{"pid": 1, "started": "2026-11-25T00:00:00Z"', b"}"
    return head + b" " * (size - len(head) - len(tail)) + tail


@pytest.mark.parametrize("size, ours", [(4096, True), (4097, False)])
def test_a_lock_file_is_ours_up_to_4096_bytes(tmp_path: Path, size: int, ours: bool) -> None:
    lock = tmp_path / ".out.lock"
    lock.write_bytes(padded(size))
    assert len(lock.read_bytes()) == size
    fd = os.open(lock, os.O_RDONLY)
    try:
        assert write._holds_a_lock(fd) is ours
    finally:
        os.close(fd)


@pytest.mark.parametrize("content", [b'{"pid": 1}', b'{"pid": 1, "started": "x", "more": 2}', b'[1, 2]',
                                     b"not json", b'{"pid": 1, "started"'])
def test_a_file_that_is_not_exactly_a_lock_of_ours_is_not_one(tmp_path: Path, content: bytes) -> None:
    lock = tmp_path / ".out.lock"
    lock.write_bytes(content)
    fd = os.open(lock, os.O_RDONLY)
    try:
        assert write._holds_a_lock(fd) is False
    finally:
        os.close(fd)


def held_by_another(path: Path, text: str) -> int:
    """The lock file written with ``text`` and locked through another descriptor, which is returned to close."""
    path.write_text(text, encoding="utf-8")
    holder = os.open(path, os.O_RDWR)
    fcntl.flock(holder, fcntl.LOCK_EX)
    return holder


def given_up(out: Path, held: str) -> list:
    """The problems of taking ``out``'s lock at once while another holds it, its file holding ``held``."""
    holder = held_by_another(lock_path(out), held)
    try:
        with pytest.raises(CitgenError) as exc:
            OutputLock(out, timeout=0).acquire()
    finally:
        os.close(holder)
    return list(exc.value.problems)


HOLDER = json.dumps({"pid": 4242, "started": "2026-11-25T01:02:03Z"}) + "\n"


def test_a_lock_held_by_another_is_waited_for_and_then_its_holder_is_named(tmp_path: Path) -> None:
    out = tmp_path / "out"
    path = lock_path(out)
    holder = held_by_another(path, HOLDER)
    try:
        started = time.monotonic()
        with pytest.raises(CitgenError) as exc:
            OutputLock(out, timeout=0.3).acquire()
        waited = time.monotonic() - started
    finally:
        os.close(holder)
    [problem] = exc.value.problems
    assert problem.message == ("another citgen build is writing this output directory (pid 4242, started "
                               "2026-11-25T01:02:03Z); gave up after waiting 0.3 seconds (--lock-timeout sets how "
                               "long to wait)")
    assert waited >= 0.3
    assert lock_text(path) == {"pid": 4242, "started": "2026-11-25T01:02:03Z"}  # the holder's, untouched


def test_a_lock_released_while_waiting_is_taken(tmp_path: Path) -> None:
    out = tmp_path / "out"
    path = lock_path(out)
    holder = held_by_another(path, "")
    threading.Timer(0.2, os.close, [holder]).start()
    lock = OutputLock(out, timeout=5)
    lock.acquire()
    try:
        assert lock_text(path)["pid"] == os.getpid()
    finally:
        lock.release()


def test_a_holder_that_has_not_written_its_pid_yet_is_said_so(tmp_path: Path) -> None:
    assert "(a process that has not written its pid yet)" in given_up(tmp_path / "out", "")[0].message


def test_releasing_a_lock_never_taken_does_nothing(tmp_path: Path) -> None:
    lock = OutputLock(tmp_path / "out")
    lock.release()
    assert not lock.path.exists()


def output_of(tmp_path: Path, first_line: str) -> Path:
    out = tmp_path / "out"
    out.mkdir()
    (out / MANIFEST).write_text(f"{first_line}\nbundle.yaml\n")
    (out / "bundle.yaml").write_text("x")
    return out


@pytest.mark.parametrize("first_line, who", [("citgen site", "`citgen site`"), ("make-bundles 2.0", "another program"),
                                             ("", "another program")])
def test_the_output_of_another_command_or_program_is_named_and_not_replaced(tmp_path: Path, first_line: str,
                                                                           who: str) -> None:
    out = output_of(tmp_path, first_line)
    with pytest.raises(InputError) as exc:
        with Staging(out) as staging:
            staging.write({"bundle.yaml": b"y"})
    assert exc.value.problems[0].message == (f"holds the output of {who}, not of `citgen build`; choose an "
                                             "empty or new --out")
    assert (out / "bundle.yaml").read_text() == "x"


def test_an_output_of_the_same_command_is_replaced(tmp_path: Path) -> None:
    out = output_of(tmp_path, "citgen build")
    with Staging(out) as staging:
        staging.write({"bundle.yaml": b"y"})
        staging.commit()
    assert (out / "bundle.yaml").read_text() == "y"


def test_the_give_up_message_is_said_of_the_output_directory(tmp_path: Path) -> None:
    out = tmp_path / "out"
    [problem] = given_up(out, HOLDER)
    assert str(problem.location) == str(out)
    assert problem.message.startswith("another citgen build is writing this output directory (pid 4242, ")


def test_a_lock_file_its_holder_removed_just_as_it_was_locked_is_given_up_for_a_new_one(tmp_path: Path,
                                                                                       monkeypatch) -> None:
    out = tmp_path / "out"
    path = lock_path(out)
    locked: list[int] = []
    real = fcntl.flock

    def flock(fd, operation):
        real(fd, operation)
        locked.append(os.fstat(fd).st_ino)
        if len(locked) == 1:
            os.unlink(path)  # the holder before us released it: its file is gone, ours is a stale name

    monkeypatch.setattr(write.fcntl, "flock", flock)
    lock = OutputLock(out, timeout=1)
    lock.acquire()
    try:
        assert len(locked) == 2
        assert path.stat().st_ino == locked[1]
        assert lock_text(path)["pid"] == os.getpid()
    finally:
        lock.release()
    assert not path.exists()


def test_the_holder_is_read_from_its_lock_file_as_utf_8_whatever_the_locale_says(tmp_path: Path,
                                                                                 monkeypatch) -> None:
    out = tmp_path / "out"
    path = lock_path(out)
    holder = held_by_another(path, json.dumps({"pid": 4242, "started": "2026-11-25T01:02:03Z – Größe"},
                                              ensure_ascii=False) + "\n")
    # a machine whose locale is plain ASCII: what a file opened without an encoding is read in
    real = io.text_encoding
    monkeypatch.setattr(io, "text_encoding", lambda encoding, *args: "ascii" if encoding is None else real(encoding))
    try:
        with pytest.raises(CitgenError) as exc:
            OutputLock(out, timeout=0).acquire()
    finally:
        os.close(holder)
    assert exc.value.problems[0].message.startswith(
        "another citgen build is writing this output directory (pid 4242, started 2026-11-25T01:02:03Z – Größe); ")


def test_a_lock_the_system_refuses_is_that_error_and_leaves_no_file_open(tmp_path: Path, monkeypatch) -> None:
    def flock(fd, operation):
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(write.fcntl, "flock", flock)
    before = sorted(os.listdir("/proc/self/fd"))
    with pytest.raises(OSError) as exc:
        OutputLock(tmp_path / "out", timeout=5).acquire()
    assert exc.value.errno == errno.ENOLCK
    assert sorted(os.listdir("/proc/self/fd")) == before
