"""What the tests of citgen's file readers share: the words of a refusal, and files and folders to refuse.

generator/source/inputfiles.py reads every input file, and render/loader.py every
template through it; their tests (tests/test_source_inputfiles*.py,
tests/test_render_loader.py) say the same refusals of the same kinds of file.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from generator.errors import InputError

ONLY_REGULAR = "not a regular file; citgen reads only regular files"
OUTSIDE = "is a symbolic link to a file outside the catalog directory; citgen reads only files inside the catalog"
WHOLE = "citgen reads all of a catalog folder or refuses it, so that no file of it is left out unnoticed"


def too_large(name: str, limit: str) -> str:
    return (f"{name}: is larger than the {limit} limit on input files; raise it with "
            "`citgen --max-file-size SIZE` or CITGEN_MAX_FILE_SIZE if the file is right")


def refusal(call, *args, **kwargs) -> list[str]:
    """What ``call(*args, **kwargs)`` is refused with, one line a problem."""
    with pytest.raises(InputError) as caught:
        call(*args, **kwargs)
    return [str(p) for p in caught.value.problems]


def write(path: Path, data: bytes = b"x") -> Path:
    """``data`` as the file at ``path``, its folders made."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def unsearchable(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """os.stat of anything in ``folder`` fails as it does when the folder has no search permission."""
    real = os.stat

    def looked_up(path, *args, **kwargs):
        if os.path.abspath(path).startswith(f"{folder}{os.sep}"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", looked_up)
