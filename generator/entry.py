"""The ``citgen`` program: the command line, started so that nothing ends it in a traceback.

The console script and ``python -m generator`` start here rather than at the
click group (cli/__init__.py) because some ways a run ends come before or after
the group runs: Ctrl-C while the command line is still being imported. What the
group itself sees to (cli/__init__.py ``CitgenGroup.main``): standard streams that
are closed, full, narrow or slow (cli/streams.py), and a working directory that no
longer exists (cli/options.py). This module imports nothing but the standard
library until it is inside the guard.
"""

from __future__ import annotations

import os
import sys
from typing import Any, NoReturn

#: The exit status of a run ended by Ctrl-C, as shells report a process ended by SIGINT.
INTERRUPTED = 130


def main(**kwargs: Any) -> NoReturn:
    """Run the command line; Ctrl-C at any point ends it with one line and status 130."""
    try:
        from .cli import main as command_line

        command_line(**kwargs)
    except KeyboardInterrupt:
        _say("citgen: interrupted\n")
        sys.exit(INTERRUPTED)
    sys.exit(0)  # pragma: no cover - click exits itself


def _say(text: str) -> None:
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
