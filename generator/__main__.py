"""``python -m generator``: the ``citgen`` command where only the package is at hand.

A user who installed the package into a virtual environment without its
scripts on PATH, or who runs it from a checkout with ``PYTHONPATH``, reaches the
same command line; prog_name keeps help and messages saying ``citgen`` rather
than ``__main__.py``.
"""

from __future__ import annotations

from .entry import program

if __name__ == "__main__":
    program(prog_name="citgen")
