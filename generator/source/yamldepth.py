"""Where a document first nests too deep, when libyaml gives up before citgen's reader does.

citgen's reader refuses a document whose lists and mappings nest more than
``NESTING_LIMIT`` deep, at the list or mapping that crosses the limit. It sees
libyaml's events one by one, so it normally stops there first. Newer libyaml
releases (the one inside PyYAML 6.0.4, for one) have a nesting limit of their own,
1000, which their *scanner* enforces. In flow style (``[[[[...``) the scanner
reads up to about 1024 characters ahead of the last event it hands out, to learn
whether a ``[`` starts a key, so a dense run of ``[`` reaches libyaml's limit
before citgen's reader has seen the 101st. libyaml then reports an error of its
own words at its own place.

The refusal must not depend on which PyYAML is installed. This module finds the
place the reader would have named. What libyaml held back is small and bounded:
every token after the last event the reader got lies on the line of libyaml's
error, within its look-ahead. So PyYAML's pure-Python scanner, which has no limit,
reads just that stretch (started in flow context when the reader was inside a
flow collection), and the collections it opens are added to those the reader
already has open. Should that stretch not be readable on its own (it never
happens for what libyaml can reject this way, but the scanner is not ours), the
refusal is placed at libyaml's mark instead: the message is citgen's either way.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.tokens import FlowMappingEndToken, FlowMappingStartToken, FlowSequenceEndToken, FlowSequenceStartToken

#: libyaml's word for its own limit; nothing else it reports says this.
_LIBYAML_DEPTH = "maximum nesting depth"
#: Characters before libyaml's error that can hold what it held back: its simple-key
#: look-ahead is 1024 characters, plus the token it was reading.
_WINDOW = 2048

_OPEN = (FlowSequenceStartToken, FlowMappingStartToken)
_CLOSE = (FlowSequenceEndToken, FlowMappingEndToken)


def is_libyaml_depth_error(exc: yaml.YAMLError) -> bool:
    """True for libyaml's own nesting limit (its scanner's "exceeded maximum nesting depth")."""
    return _LIBYAML_DEPTH in (getattr(exc, "problem", None) or "")


def crossing(text: str, error_mark: Any, last_end: Any | None, depth: int, flow_depth: int,
             limit: int) -> tuple[int, int]:
    """The 0-based (line, column) of the list or mapping that first nests deeper than ``limit``.

    ``error_mark``: where libyaml stopped; ``last_end``: the end mark of the last
    event the reader got in this document (None if none); ``depth``: the lists and
    mappings open at that point, ``flow_depth`` of them in flow style.
    """
    line_start = error_mark.index - error_mark.column
    start = line_start
    if last_end is not None and last_end.line == error_mark.line:
        start = last_end.index  # what the reader has already counted stays counted once
    start = max(start, error_mark.index - _WINDOW)
    column0 = error_mark.column - (error_mark.index - start)
    scanner = yaml.SafeLoader(text[start:error_mark.index + 1])  # pure Python: no limit of its own
    scanner.flow_level = flow_depth  # a fragment from inside a flow collection scans as one
    try:
        while True:
            token = scanner.get_token()
            if token is None or isinstance(token, yaml.StreamEndToken):
                break
            if isinstance(token, _OPEN):
                depth += 1
                if depth > limit:
                    mark = token.start_mark
                    return error_mark.line + mark.line, (column0 if mark.line == 0 else 0) + mark.column
            elif isinstance(token, _CLOSE):
                depth -= 1
    except yaml.YAMLError:
        pass
    finally:
        scanner.dispose()
    return error_mark.line, error_mark.column
