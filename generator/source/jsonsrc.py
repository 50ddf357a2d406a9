"""JSON documents as citgen reads them: standard JSON only, decoded as every input file is.

Python's reader takes ``NaN``, ``Infinity`` and ``-Infinity``, which are no JSON:
no schema holds such a number, and a schema built from one would judge every object
by a bound nothing meets or passes. They are refused where they are written. The
text is decoded by inputfiles.decode_text, so a byte-order mark an editor put
first is dropped, as in every other file citgen reads.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..errors import InputError
from ..problems import Location
from .inputfiles import decode_text

#: A JSON string, or one of the three constants Python's reader takes beside JSON's.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN)')


class _NotJson(Exception):
    pass


def _refuse_constant(token: str) -> Any:
    raise _NotJson(token)


def json_document(raw: bytes, name: str, nested: str) -> Any:
    """The JSON document in ``raw``; InputError naming ``name`` when it is not one.

    ``nested``: what the document should have been, for the refusal of one nested
    deeper than Python's reader goes (``not {nested}: nested deeper ...``).
    """
    text = decode_text(raw, name).text
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise InputError.at(Location(name), f"not a JSON document: {exc}") from None
    except RecursionError:  # Python's reader recurses on nesting; no document citgen imports nests this deep
        raise InputError.at(Location(name), f"not {nested}: nested deeper than Python's JSON reader goes") from None
    except _NotJson as exc:
        raise InputError.at(_where(text, name), f"{exc} is not a JSON number (JSON has no NaN or Infinity, "
                            "though Python's reader takes them); no schema can be built from it") from None


def _where(text: str, name: str) -> Location:
    """Where the first NaN or Infinity outside a string is: the one the reader refused, as it reads in order."""
    for found in _TOKENS.finditer(text):
        if found.group(1):
            start = found.start(1)
            line = text.count("\n", 0, start) + 1
            return Location(name, line, start - text.rfind("\n", 0, start))
    return Location(name)  # pragma: no cover - the reader found one
