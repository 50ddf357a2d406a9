"""JSON documents as citgen reads them: standard JSON only, decoded as every input file is.

Python's reader takes ``NaN``, ``Infinity`` and ``-Infinity``, which are no JSON:
no schema holds such a number, and a schema built from one would judge every object
by a bound nothing meets or passes. They are refused where they are written, and so
is a number past the bounds of every number citgen reads (quantity.within_bounds):
Python's reader turns ``1e400`` into infinity and refuses 5,000 digits in words of
its own. The text is decoded by inputfiles.decode_text, so a byte-order mark an
editor put first is dropped, as in every other file citgen reads.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..errors import InputError
from ..problems import Location, excerpt
from ..quantity import BOUNDS, MAX_DIGITS, within_bounds
from .inputfiles import decode_text

#: A JSON string, or one of the three constants Python's reader takes beside JSON's, or a number as
#: the reader reads one (so ``1e400`` of ``[1e400-1]`` is found, though the text goes on).
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)')
#: A JSON number with a fraction or an exponent: its digits, and its exponent's.
_FLOAT = re.compile(r"(-?[0-9]+(?:\.[0-9]+)?)(?:[eE]([-+]?[0-9]+))?")


class _NotJson(Exception):
    """What the reader met that citgen does not read: the token, and why."""

    def __init__(self, token: str, why: str):
        self.token, self.why = token, why


def _refuse_constant(token: str) -> Any:
    raise _NotJson(token, f"{token} is not a JSON number (JSON has no NaN or Infinity, though Python's reader takes "
                          "them); no schema can be built from it")


def _whole(token: str) -> int:
    if not within_bounds(token):
        raise _NotJson(token, f"expected a whole number of at most {MAX_DIGITS} digits, got {excerpt(token)!r}")
    return int(token)


def _number(token: str) -> float:
    written = _FLOAT.fullmatch(token)  # the reader hands over nothing else
    if written is None or not within_bounds(written[1], written[2]):
        raise _NotJson(token, f"expected a number of {BOUNDS}, got {excerpt(token)!r}")
    return float(token)


def json_document(raw: bytes, name: str, nested: str) -> Any:
    """The JSON document in ``raw``; InputError naming ``name`` when it is not one.

    ``nested``: what the document should have been, for the refusal of one nested
    deeper than Python's reader goes (``not {nested}: nested deeper ...``).
    """
    text = decode_text(raw, name).text
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_int=_whole, parse_float=_number)
    except json.JSONDecodeError as exc:
        raise InputError.at(Location(name), f"not a JSON document: {exc}") from None
    except RecursionError:  # Python's reader recurses on nesting; no document citgen imports nests this deep
        raise InputError.at(Location(name), f"not {nested}: nested deeper than Python's JSON reader goes") from None
    except _NotJson as exc:
        raise InputError.at(_where(text, name, exc.token), exc.why) from None


def _where(text: str, name: str, token: str) -> Location:
    """Where ``token`` is first written outside a string: the one the reader refused, as it reads in order."""
    for found in _TOKENS.finditer(text):
        if found.group(1) == token:
            start = found.start(1)
            before = text[:start]
            return Location(name, before.count("\n") + 1, start - before.rfind("\n"))
    return Location(name)  # pragma: no cover - the reader found one
