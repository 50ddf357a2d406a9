"""A JSON-schema ``pattern`` as JSON Schema means it: ECMA-262's ``$`` is the end of the text.

JSON Schema's ``pattern`` is an ECMA-262 regular expression, searched for anywhere in
the text; without the multiline flag its ``$`` matches only at the very end. Python's
``$`` also matches before a final line break, so ``^[a-z.]+$`` lets ``"zz.old\\n"``
through ``re.search``. ``ecma_search`` compiles a pattern with every ``$`` that is an
anchor (not escaped, not in a character class) written as ``\\Z``: what the formats
say is what is checked, by the compiled check and by jsonschema alike.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable


def ecma_anchored(pattern: str) -> str:
    """``pattern`` with each end anchor ``$`` written ``\\Z``, so that Python reads it as ECMA-262 does."""
    out: list[str] = []
    in_class = False
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            out.append(pattern[index:index + 2])
            index += 2
            continue
        if in_class:
            in_class = char != "]" or out[-1] in ("[", "[^")
        elif char == "[":
            in_class = True
            if pattern[index + 1:index + 2] == "^":
                out.append("[^")
                index += 2
                continue
        elif char == "$":
            char = r"\Z"
        out.append(char)
        index += 1
    return "".join(out)


@lru_cache(maxsize=None)
def ecma_search(pattern: str) -> Callable[[str], re.Match[str] | None]:
    """The ``search`` of ``pattern`` read as JSON Schema reads it (``ecma_anchored``), compiled once."""
    return re.compile(ecma_anchored(pattern)).search
