"""citgen refs on a terminal: work that takes more than a moment shows click's progress bar on standard error.

The bar is click's own (click.progressbar), counting the bytes of the files read;
it is drawn only when standard error is a terminal and there is more to read than
a moment's work (cli/refs.py's PROGRESS_FROM), and never into a pipe or a file.
"""

from __future__ import annotations

import io
import os
import pty
from pathlib import Path

import pytest

from generator.cli import refs as refs_command
from generator.tools.refs.scan import scan

VM = """---
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata: {{name: vm{n}}}
spec:
  instancetype: {{name: u1.medium}}
  preference: {{name: fedora}}
  template: {{spec: {{}}}}
"""


@pytest.fixture
def dump(tmp_path: Path) -> Path:
    path = tmp_path / "dump.yaml"
    path.write_text("".join(VM.format(n=n) for n in range(200)), encoding="utf-8")
    return path


def read_terminal(master: int) -> str:
    os.set_blocking(master, False)
    chunks = []
    try:
        while True:
            chunk = os.read(master, 65536)
            if not chunk:
                break
            chunks.append(chunk)
    except (BlockingIOError, OSError):
        pass
    return b"".join(chunks).decode(errors="replace")


def test_a_long_reading_on_a_terminal_shows_the_bar_up_to_every_byte(dump, monkeypatch):
    master, slave = pty.openpty()
    terminal = io.TextIOWrapper(os.fdopen(slave, "wb", buffering=0), write_through=True)
    monkeypatch.setattr(refs_command, "PROGRESS_FROM", 0)
    monkeypatch.setattr(refs_command.sys, "stderr", terminal)
    try:
        found = scan([str(dump)], progress=refs_command._bar)
        shown = read_terminal(master)
    finally:
        terminal.close()
        os.close(master)
    assert len(found.references) == 400
    assert "reading manifests" in shown and "100%" in shown


def test_nothing_is_drawn_when_standard_error_is_no_terminal(dump, monkeypatch):
    written = io.StringIO()
    monkeypatch.setattr(refs_command, "PROGRESS_FROM", 0)
    monkeypatch.setattr(refs_command.sys, "stderr", written)
    assert len(scan([str(dump)], progress=refs_command._bar).references) == 400
    assert written.getvalue() == ""


def test_a_moment_s_work_shows_nothing_even_on_a_terminal(dump, monkeypatch):
    master, slave = pty.openpty()
    terminal = io.TextIOWrapper(os.fdopen(slave, "wb", buffering=0), write_through=True)
    monkeypatch.setattr(refs_command.sys, "stderr", terminal)
    try:
        scan([str(dump)], progress=refs_command._bar)
        shown = read_terminal(master)
    finally:
        terminal.close()
        os.close(master)
    assert dump.stat().st_size < refs_command.PROGRESS_FROM and shown == ""


def test_the_bar_counts_the_bytes_of_every_file(dump, tmp_path):
    told: list[int] = []
    totals: list[int] = []

    class Counting:
        def __init__(self, total: int):
            totals.append(total)

        def __enter__(self):
            return told.append

        def __exit__(self, *exc: object) -> None:
            return None

    second = tmp_path / "more.yaml"
    second.write_text(VM.format(n="x"), encoding="utf-8")
    scan([str(dump), str(second)], progress=Counting)
    assert totals == [dump.stat().st_size + second.stat().st_size]
    assert sum(told) == len(dump.read_text()) + len(second.read_text()) and all(n > 0 for n in told)

