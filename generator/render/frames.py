"""What the parent and the rendering child say to each other: requests, frames and jobs.

Apart from render/worker.py so that the parent (render/process.py) can speak the
protocol without importing the child's side, which brings jinja2: the child
imports that after it is forked, on the second core, while the parent goes on.
"""

from __future__ import annotations

import struct
from typing import Any, Mapping

from ..frozen import frozen

#: A frame: its kind and the length of what follows.
HEADER = struct.Struct(">cQ")
#: A rendered text; the problems that stopped a rendering; the same, after which the child ends.
TEXT, PROBLEMS, FATAL = b"T", b"P", b"F"
#: A request: the length of the pickle that follows.
LENGTH = struct.Struct(">Q")
#: A character is at most four bytes of UTF-8.
MOST_BYTES = 4
MIB = 1024 * 1024
#: Memory the child keeps in reserve, to report a template that took all it may have.
CUSHION = 4 * MIB


@frozen
class Job:
    """One rendering: a template (its name under templates/), its variables, and what it renders."""

    template: str
    variables: Mapping[str, Any]
    what: str | None = None  # for messages: "'u1.large' as VirtualMachineInstancetype"
