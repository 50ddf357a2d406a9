"""generator/tools/refs/fold.py: a kind lowered as KubeVirt lowers it, with Go's strings.ToLower.

Go lowers one character to one character (Unicode's simple mapping); Python's
str.lower differs for one character, the dotted capital I, which Go lowers to a
plain ``i``.
"""

from __future__ import annotations

import sys

import pytest

from generator.tools.refs.fold import SIMPLE_LOWER, go_lower


@pytest.mark.parametrize("text, lowered", [
    ("VirtualMachineClusterİnstancetype", "virtualmachineclusterinstancetype"),
    ("VirtualMachinePreference", "virtualmachinepreference"),
    ("ΟΔΟΣ", "οδοσ"),  # no final sigma: Go lowers each letter alone
    ("KELVIN\u212a", "kelvink"),
    ("", ""),
])
def test_text_is_lowered_one_character_at_a_time_as_go_lowers_it(text, lowered):
    assert go_lower(text) == lowered


def test_the_dotted_capital_i_is_the_only_character_python_lowers_to_more_than_one():
    longer = {chr(cp) for cp in range(sys.maxunicode + 1) if len(chr(cp).lower()) != 1}
    assert longer == set(SIMPLE_LOWER)
