"""Text lower-cased as Go's ``strings.ToLower`` does it: how KubeVirt reads the kinds a VM names.

KubeVirt lower-cases the kind of a VM's instancetype or preference matcher with
Go's ``strings.ToLower`` and compares it with its kinds' names
(``virtualmachineclusterinstancetype``, ``virtualmachinepreferences``, ...).
Go lowers each character by itself, by Unicode's simple case mapping
(``unicode.ToLower``): ``İ`` (U+0130) becomes ``i``, where Python's
``str.lower`` gives ``i`` and a combining dot above (two characters), and a
final ``Σ`` becomes ``σ`` whatever follows it, where Python writes ``ς``.
So ``VirtualMachineClusterİnstancetype`` is the cluster kind to KubeVirt.

``citgen refs`` and the admission policy (outputs/policy.py) both read kinds
through this module, so that they judge a kind as KubeVirt does.
"""

from __future__ import annotations

__all__ = ["ASCII_FOLDS", "go_lower"]

#: The characters beyond ASCII that Go's ``unicode.ToLower`` maps to an ASCII
#: letter: the only ones by which a kind spelled with non-ASCII text can be one
#: of KubeVirt's (all ASCII). A test checks the table against every code point.
ASCII_FOLDS = {"\u0130": "i", "\u212a": "k"}  # LATIN CAPITAL LETTER I WITH DOT ABOVE, KELVIN SIGN


def _lower(char: str) -> str:
    """One character as ``unicode.ToLower`` maps it: its simple lowercase mapping, one character always.

    Python's ``str.lower`` of one character is that mapping for every character
    but ``İ``, the one it lowers to two (Unicode's SpecialCasing), which
    ``ASCII_FOLDS`` maps first; a test checks every code point.
    """
    return ASCII_FOLDS.get(char) or char.lower()


def go_lower(text: str) -> str:
    """``text`` as Go's ``strings.ToLower`` gives it: each character lowered by itself (see the module)."""
    if text.isascii():
        return text.lower()
    return "".join(_lower(char) for char in text)
