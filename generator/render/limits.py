"""What the rendering of a build's templates may take: the limits, read from the environment.

The rendering process (render/process.py) applies them from outside the
templates: the operating system bounds the child's processor time and address
space, and the parent bounds each rendering's wall time and the length of the
text that comes back.
"""

from __future__ import annotations

import os
import re
from typing import Any, Mapping

from ..errors import InputError
from ..frozen import frozen
from ..problems import Location, Problem, excerpt
from ..quantity import BOUNDS, MAX_DIGITS, within_bounds

#: How the variables are written: ASCII digits, and for seconds a point and an exponent if need be.
_WHOLE = re.compile(r"([0-9]+)")
_SECONDS = re.compile(r"([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE]([-+]?[0-9]+))?")


@frozen
class Limits:
    """How much the rendering of a build's templates may write, hold and take.

    ``size`` bounds the text one rendering returns (characters), ``memory``
    (MiB) how much address space the rendering process may add to what it
    started with, ``seconds`` the wall time of one rendering and
    ``total_seconds`` the processor time and the wall time of all of a build's
    renderings together. The defaults are far above what any catalog template
    needs (docs/errors.md has the margins of the built-in templates) and far
    below what hurts a machine. Each can be raised through its variable in
    ``VARIABLES``.
    """

    size: int = 1_000_000
    memory: int = 256  # MiB
    seconds: float = 10.0
    total_seconds: float = 60.0

    VARIABLES = {
        "size": "CITGEN_TEMPLATE_MAX_SIZE",
        "memory": "CITGEN_TEMPLATE_MAX_MEMORY",
        "seconds": "CITGEN_TEMPLATE_SECONDS",
        "total_seconds": "CITGEN_TEMPLATE_TOTAL_SECONDS",
    }

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] = os.environ) -> "Limits":
        """The defaults, with each one the environment sets; a value that is not a number is refused."""
        values: dict[str, Any] = {}
        problems = []
        for field, variable in cls.VARIABLES.items():
            text = environ.get(variable)
            if text is None:
                continue
            whole = field in ("size", "memory")
            written = (_WHOLE if whole else _SECONDS).fullmatch(text)  # int() also reads '١٠', '1_0' and ' 1'
            bounded = written is not None and within_bounds(written[1], None if whole else written[2])
            value = (int(text) if whole else float(text)) if bounded else None
            if value is None or not value > 0:
                expected = "a whole number at least 1" if whole else "a number of seconds greater than 0"
                if written is not None and not bounded:
                    expected += f" of at most {MAX_DIGITS} digits" if whole else f" of {BOUNDS}"
                problems.append(Problem(Location(variable), f"expected {expected}, got {excerpt(text)!r}"))
            else:
                values[field] = value
        if problems:
            raise InputError(problems)
        return cls(**values)


def exceeded(what: str | None, bound: str, field: str) -> str:
    """The message of a rendering that went past a limit: what it was rendering, the bound, the variable."""
    rendering = f"rendering {what}" if what else "one rendering"
    return (f"template exceeded a limit: {rendering} {bound} "
            f"(set {Limits.VARIABLES[field]} to raise the limit)")
