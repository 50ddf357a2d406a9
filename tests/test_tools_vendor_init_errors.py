"""`citgen init` and file-system errors (issue 14, class 6): a message and exit 2, and no half catalog.

Each test points init at a place it cannot write in one real way (a missing
parent, a path under a regular file, /proc and /sys, a directory without write
permission, a file size limit that makes the disk "full" half way) and checks
the exact message, the exit code and that nothing a later build would take for
a catalog was left behind.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli.init import init


def run_init(*args: str):
    return CliRunner().invoke(init, list(args))


def everything_under(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def test_a_missing_parent_is_reported_not_created(tmp_path: Path):
    result = run_init(str(tmp_path / "typo" / "vendor"))
    assert result.stderr == (f"{tmp_path / 'typo' / 'vendor'}: error: cannot create the catalog: "
                             f"{tmp_path / 'typo'} does not exist; create it first [input]\n")
    assert result.exit_code == 2
    assert everything_under(tmp_path) == []


def test_a_path_under_a_regular_file_is_refused(tmp_path: Path):
    (tmp_path / "notes.txt").write_text("mine\n")
    result = run_init(str(tmp_path / "notes.txt" / "vendor"))
    assert result.stderr == f"{tmp_path / 'notes.txt'}: error: is a regular file, not a directory [input]\n"
    assert result.exit_code == 2
    assert everything_under(tmp_path) == ["notes.txt"]
    assert (tmp_path / "notes.txt").read_text() == "mine\n"


def test_a_dangling_symlink_is_refused_as_one_and_not_replaced(tmp_path: Path):
    (tmp_path / "link").symlink_to("nowhere")
    result = run_init(str(tmp_path / "link"))
    assert result.stderr == (f"{tmp_path / 'link'}: error: is a symbolic link that points nowhere: 'nowhere' "
                             "does not exist [input]\n")
    assert result.exit_code == 2
    assert everything_under(tmp_path) == ["link"]


@pytest.mark.parametrize("system", ["/proc", "/sys"])
def test_a_location_nobody_may_create_files_in_is_a_message(system: str):
    """/proc and /sys refuse new directories even to root: a read-only location without pretending."""
    if not os.path.isdir(system):
        pytest.skip(f"{system} is not mounted here")
    try:
        os.mkdir(f"{system}/citgen-probe")
    except OSError as exc:
        reason = exc.strerror
    else:  # pragma: no cover - no known system lets this happen
        os.rmdir(f"{system}/citgen-probe")
        pytest.skip(f"{system} accepts new directories here")
    result = run_init(f"{system}/vendor-catalog")
    assert result.stderr == (f"{system}/vendor-catalog: error: cannot create the catalog: {reason}; "
                             "nothing was written [input]\n")
    assert result.exit_code == 2
    assert not os.path.lexists(f"{system}/vendor-catalog")


def test_a_directory_without_write_permission_is_a_message(tmp_path: Path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):
            pytest.skip("running as a user who may write anywhere (root); /proc and /sys are tested instead")
        result = run_init(str(locked / "vendor"))
        assert result.stderr == (f"{locked / 'vendor'}: error: cannot create the catalog: Permission denied; "
                                 "nothing was written [input]\n")
        assert result.exit_code == 2
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o700)


def _small_files_only() -> None:
    """In the child: files may not grow past 1000 bytes (as on a full disk), and going past fails
    with EFBIG instead of killing the process."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def init_with_a_full_disk(target: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator.cli", "init", str(target)], capture_output=True,
                          text=True, timeout=120, preexec_fn=_small_files_only)


def test_a_disk_that_fills_up_half_way_leaves_no_catalog(tmp_path: Path):
    result = init_with_a_full_disk(tmp_path / "vendor")
    assert result.stderr == (f"{tmp_path / 'vendor'}: error: cannot create the catalog: File too large; "
                             "nothing was written [input]\n")
    assert result.returncode == 2
    assert everything_under(tmp_path) == []  # neither the catalog nor its half-written staging directory


def test_an_empty_directory_stays_empty_when_the_disk_fills_up(tmp_path: Path):
    target = tmp_path / "vendor"
    target.mkdir()
    result = init_with_a_full_disk(target)
    assert result.stderr == (f"{target}: error: cannot create the catalog: File too large; "
                             "nothing was written [input]\n")
    assert result.returncode == 2
    assert everything_under(tmp_path) == ["vendor"]


ALPHABET = ("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
            "and must start and end with an alphanumeric character")


@pytest.mark.parametrize(("vendor", "why"), [
    ("", "got an empty string"),
    ("-acme", f"'-acme' is not a valid label value: {ALPHABET}"),
    ("acme corp", f"'acme corp' is not a valid label value: {ALPHABET}"),
    ("a" * 64, f"'{'a' * 64}' is not a valid label value: must be no more than 63 characters"),
])
def test_a_vendor_that_is_not_a_label_value_is_refused(tmp_path: Path, vendor: str, why: str):
    result = run_init(str(tmp_path / "vendor"), "--vendor", vendor)
    assert result.stderr == f"--vendor: error: expected a vendor such as example.com: {why} [input]\n"
    assert result.exit_code == 2
    assert everything_under(tmp_path) == []


def test_init_writes_both_files_into_an_empty_directory_and_nothing_else(tmp_path: Path):
    result = run_init(str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert everything_under(tmp_path) == ["catalog.yaml", "overlay.yaml"]
