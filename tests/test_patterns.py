"""generator/patterns.py: a JSON-schema pattern's ``$`` is the end of the text, as ECMA-262 reads it."""

from __future__ import annotations

import re

import pytest

from generator.patterns import ecma_anchored, ecma_search

NAME = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"


def test_python_s_dollar_lets_a_final_line_break_through_and_the_ecma_one_does_not():
    assert re.search(NAME, "zz.old\n")
    assert ecma_search(NAME)("zz.old") and not ecma_search(NAME)("zz.old\n")


@pytest.mark.parametrize("pattern, anchored", [
    (r"^a$", r"^a\Z"),
    (r"^a\$$", r"^a\$\Z"),      # an escaped dollar is a dollar
    (r"^[$]$", r"^[$]\Z"),      # so is one in a class
    (r"^[]$]x$", r"^[]$]x\Z"),  # a ] first in a class is in it
    (r"^[^]$]x$", r"^[^]$]x\Z"),
    (r"(a$|b$)", r"(a\Z|b\Z)"),
    (r"\S", r"\S"),
])
def test_only_anchors_are_rewritten(pattern, anchored):
    assert ecma_anchored(pattern) == anchored
