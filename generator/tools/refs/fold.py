"""Case folding as KubeVirt folds a kind: Go's ``strings.ToLower``, one character at a time.

KubeVirt reads a matcher's kind through ``strings.ToLower`` (pkg/instancetype/find).
Go lowers each character by Unicode's simple case mapping, one character to one
character; Python's ``str.lower`` uses the full mapping, which differs in one
character: ``İ`` (U+0130) lowers to ``i`` in Go, to ``i`` and a combining dot above
(U+0307) in Python. So ``VirtualMachineClusterİnstancetype`` is the cluster kind to
KubeVirt, and must be to citgen. Lowering a single character apart keeps every
other difference of context away too (a final ``Σ`` lowers to ``σ``, as in Go).
"""

from __future__ import annotations

#: The characters whose full lower case (Python's) is not their simple one (Go's), with the simple one.
SIMPLE_LOWER = {"\u0130": "i"}


def go_lower(text: str) -> str:
    """``text`` lowered as Go's ``strings.ToLower`` lowers it."""
    if text.isascii():
        return text.lower()
    return "".join(SIMPLE_LOWER.get(char) or char.lower() for char in text)
