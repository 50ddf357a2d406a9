"""escape.cel_string: text as a CEL string literal, as CEL's language definition writes one."""

from __future__ import annotations

import json

import pytest

from generator.escape import cel_string


@pytest.mark.parametrize("value, literal", [
    ("", '""'),
    ("u1.medium", '"u1.medium"'),
    ('say "hi"', '"say \\"hi\\""'),
    ("a\\b", '"a\\\\b"'),
    ("line\nbreak\r", '"line\\u000Abreak\\u000D"'),
    ("\x00\x1b\x7f", '"\\u0000\\u001B\\u007F"'),
    ("\u202e\u2028", '"\\u202E\\u2028"'),
    ("é", '"\\u00E9"'),
    ("\U0001F600", '"\\U0001F600"'),  # by its code point: never JSON's "\\ud83d\\ude00"
    ("\U0010FFFF", '"\\U0010FFFF"'),
    ("a\ud800b", '"a\\uFFFDb"'),  # a lone surrogate is no character
    ("\ud7ff\udfff\ue000", '"\\uD7FF\\uFFFD\\uE000"'),  # the surrogates' edges
    ("\uffff\U00010000", '"\\uFFFF\\U00010000"'),  # the plane's edge
    ("{{ x }} ' `", '"{{ x }} \' `"'),
])
def test_a_literal_writes_printable_ascii_as_itself_and_everything_else_by_code_point(value, literal):
    assert cel_string(value) == literal


HOSTILE = ["", "plain", 'a "quoted" word', "back\\slash", "line\nbreak\r\n", "\x00\x1b[31mred",
           "\u202eright-to-left", "\U0001F600 beyond the plane \U000E0001", "\u0130stanbul", "{{ .Values.x }}",
           "\u2028\u2029\ufeff", "\\u0041"]


@pytest.mark.parametrize("value", HOSTILE)
def test_a_cel_engine_reads_the_literal_back_as_the_text(value):
    from tests.policy_cel import environment

    assert environment().compile(cel_string(value)).eval().value() == value


def test_json_s_surrogate_pairs_are_what_cel_refuses():
    from tests.policy_cel import environment

    with pytest.raises(RuntimeError, match="Illegal escape"):  # cel-go 0.23 and later (Kubernetes 1.33) too
        environment().compile(json.dumps("\U0001F600"))
