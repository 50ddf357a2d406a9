"""The children of a command that renders: one renders its templates, one writes its outputs.

``citgen build`` forks both as the program begins, before it imports its command line
(entry.py), and the command line's group again where that did not happen (cli/__init__.py;
each start does nothing twice). A child shares every page of memory its parent had when
it was forked, and the parent copies each such page it writes to again: forked once the
command line was imported, a build copied 1,500 pages more (10 ms of its processor time).
The rendering child imports the template engine on the second core meanwhile.
"""

from __future__ import annotations

import sys

#: The commands that render templates whatever their options.
RENDERING_COMMANDS = frozenset({"build"})


def start_early(args: list[str] | None) -> None:
    """Fork a rendering command's children now, before its command line is read, while this process is small.

    A word of the command line naming a rendering command is enough: ``citgen list --series
    build`` forks two children that wait unused and are stopped at exit. ``args`` are the
    command line's words (None: this process's).
    """
    words = sys.argv[1:] if args is None else args
    if RENDERING_COMMANDS.isdisjoint(words) or "--help" in words or "-h" in words:
        return
    start()


def start() -> None:
    """Fork the children of a rendering command, where this process has none yet."""
    from . import treewriter
    from .render import process

    process.start()
    treewriter.start()
