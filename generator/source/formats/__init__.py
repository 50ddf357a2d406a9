"""Every kind of hand-written input file, as a JSON Schema, in one place.

catalog.py holds catalog.yaml, the size matrices and the series files (and the
small pieces the others reuse), preferences.py the family and trait files,
overlay.py the vendor overlays, refs.py the configuration of ``citgen refs``. A file is checked against its schema before
anything reads it, by the one explainer (source/inputcheck.py), so the loaders
in load/ trust the shape of what they get and word nothing about it themselves.

Besides JSON Schema's keywords a schema node may carry words for people
(inputcheck.py applies them):

- ``x-expected``: what a value here must be, for "expected ..., got ..." (a ratio
  such as "1:4") whatever check it fails;
- ``x-message``: the whole message for a value here that breaks the schema, or a
  mapping from a failed keyword (``type``, ``pattern``, ``maxLength``, ``format``)
  to its message; ``{name}`` is the key the value is written under, ``{got}`` the
  value, ``{kind}`` its kind (``a string``), ``{length}`` its length and
  ``{message}`` what the explainer would have said;
- ``x-in``: what a mapping is called in its unknown-key message ("unknown key 'x'
  in a trait; did you mean 'y'?");
- ``x-required``: the message for each missing required key, by key;
- ``x-at-key``: on ``propertyNames``, report a bad key at the key itself.
"""

from __future__ import annotations

from typing import Any, Mapping

from .catalog import CATALOG, SERIES, SIZES
from .overlay import OVERLAY
from .preferences import FAMILY, TRAIT
from .refs import REFS_CONFIG

#: Every kind of input file and its schema, by the name people know it under.
FILE_KINDS: Mapping[str, Mapping[str, Any]] = {
    "catalog.yaml": CATALOG,
    "size matrices (series/sizes.yaml)": SIZES,
    "series (series/*.yaml)": SERIES,
    "preference family (preferences/*.yaml)": FAMILY,
    "trait (preferences/traits/*.yaml)": TRAIT,
    "overlay": OVERLAY,
    "citgen refs configuration": REFS_CONFIG,
}

__all__ = ["CATALOG", "FAMILY", "FILE_KINDS", "OVERLAY", "REFS_CONFIG", "SERIES", "SIZES", "TRAIT"]
