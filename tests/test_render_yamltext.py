"""The renderer's direct YAML dumping writes exactly what PyYAML's own dump writes.

Private helper, tested on purpose: _dump is the one dump under both filters, compared here with
PyYAML's own on data no template passes.
"""

from __future__ import annotations

import yaml
from hypothesis import given, strategies as st

from generator.render.yamltext import _dump, yaml_block, yaml_scalar
from generator.source.yamlclasses import Dumper

#: PyYAML's own dumper, with none of citgen's speed-ups (remembered tag resolution).

TRICKY = st.sampled_from(["", "true", "no", "~", "null", "1", "0o17", "0x1F", "1e3", ".inf", "2024-01-01",
                          "<<", "=", "a: b", "- x", "#x", "*x", "&x", "!x", "'q'", '"q"', " lead", "trail ",
                          "line\nbreak", "tab\tx", "é ünï", "4Gi", "instancetype.kubevirt.io/cpu"])
SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30) | TRICKY
DATA = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=10) | TRICKY, inner, max_size=4), max_leaves=12)


def pyyaml(value):
    """PyYAML's representer and emitter, with the quoting of citgen's dumper (yamlclasses)."""
    return yaml.dump(value, Dumper=Dumper, sort_keys=True, default_flow_style=False, allow_unicode=True,
                     width=1 << 16)


@given(DATA)
def test_any_plain_data_is_dumped_as_pyyaml_dumps_it(value):
    assert _dump(value) == pyyaml(value)


def test_a_value_seen_twice_keeps_pyyaml_anchors():
    shared = {"guest": 2}
    assert _dump({"a": shared, "b": shared}) == pyyaml({"a": shared, "b": shared})
    assert "&id001" in _dump({"a": shared, "b": shared})


def test_keys_that_are_not_strings_and_other_types_go_through_pyyaml():
    assert _dump({1: "x", 2: "z"}) == "1: x\n2: z\n"
    assert _dump((1, 2)) == pyyaml((1, 2))


def test_the_filters_built_on_it():
    assert yaml_scalar("true") == "'true'"
    assert yaml_scalar("4Gi") == "4Gi"
    assert yaml_block({"cpu": {"guest": 2}, "memory": {"guest": "4Gi"}}, 2) == (
        "\n  cpu:\n    guest: 2\n  memory:\n    guest: 4Gi")


# ----------------------------------------------------------------- long and multi-line text

#: Prose as descriptions are written: words of letters, digits, punctuation and symbols of
#: the scripts YAML writes unescaped (so ``#``, ``&``, ``*``, quotes and ``: ``), now and then
#: a long one such as a URL, between spaces, line breaks, blank lines and indented lines.
#: (Two spaces in a row join the words around them: the emitter folds only at a single
#: space, so a line's worth of text without one cannot be folded. test_yamllint.py has a
#: case of sentences two spaces apart.)
LETTERS = st.characters(categories=("L", "N", "P", "S"), max_codepoint=0xFFFF)
WORD = st.text(LETTERS, min_size=1, max_size=14) | st.text(LETTERS, min_size=30, max_size=50)
GAP = st.sampled_from([" ", " ", " ", " ", "\n", "\n\n", "\n  ", "\n    - "])
PROSE = st.builds(lambda words, gaps, end: "".join(w + g for w, g in zip(words, gaps)) + words[-1] + end,
                  st.lists(WORD, min_size=1, max_size=60), st.lists(GAP, max_size=60), st.sampled_from(["", "\n"]))
#: Any text at all, long enough to be folded.
ODD = st.text(min_size=80, max_size=300) | PROSE | TRICKY
KEY = st.from_regex(r"[a-z]([a-z0-9.-]{0,20}[a-z0-9])?(/[a-z][a-z0-9-]{0,30})?", fullmatch=True)


def nested(value, indent: int):
    """``value`` under the keys a template puts above a block ``indent`` deep: k0 -> k1 -> ..."""
    for level in reversed(range(indent // 2)):
        value = {f"k{level}": value}
    return value


def in_template(value, indent: int) -> str:
    """The text a template gives for ``value`` written with yaml_block(indent) under those keys."""
    keys = "\n".join(f"{' ' * (2 * level)}k{level}:" for level in range(indent // 2))
    return keys + yaml_block(value, indent) + "\n"


def prose_data(strings):
    return st.recursive(strings, lambda inner: st.lists(inner, min_size=1, max_size=3)
                        | st.dictionaries(KEY, inner, min_size=1, max_size=3), max_leaves=6)


@given(st.dictionaries(KEY | st.text(max_size=10) | TRICKY, prose_data(ODD), min_size=1, max_size=3)
       | st.lists(prose_data(ODD), min_size=1, max_size=3), st.sampled_from([2, 4, 6, 8, 12]))
def test_long_and_multi_line_text_parses_back_exactly_at_any_depth(value, indent):
    text = in_template(value, indent)
    assert yaml.load(text, Loader=STOCK_LOADER) == nested(value, indent)
    assert yaml.load(text, Loader=yaml.SafeLoader) == nested(value, indent)


STOCK_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def test_a_long_description_is_folded_within_the_line_limit():
    description = ("Every vCPU pinned to a host core of its own, the emulator thread kept off them, the host's "
                   "NUMA layout passed to the guest and memory on hugepages.")
    assert yaml_block({"instancetype.kubevirt.io/description": description, "tags": "a,b"}, 4) == (
        "\n    instancetype.kubevirt.io/description: >-"
        "\n      Every vCPU pinned to a host core of its own, the emulator thread kept off them, the host's NUMA layout"
        "\n      passed to the guest and memory on hugepages."
        "\n    tags: a,b")


def test_text_with_line_breaks_is_a_literal_block_as_written():
    markdown = "# Title\n\n*Bold* & \"quoted\": text.\n\n  indented code\n- item\n"
    assert yaml_block({"description": markdown}, 4) == (
        "\n    description: |"
        "\n      # Title"
        "\n"
        "\n      *Bold* & \"quoted\": text."
        "\n"
        "\n        indented code"
        "\n      - item")


def test_a_line_too_long_for_a_literal_block_is_folded_instead():
    text = "short line\n" + "word " * 30 + "end"
    block = yaml_block({"description": text}, 2)
    assert block.startswith("\n  description: >-\n")
    assert max(len(line) for line in block.split("\n")) <= 120
    assert yaml.safe_load("x:" + block + "\n") == {"x": {"description": text}}


def test_text_that_fits_is_written_as_before():
    value = {"openshift.io/display-name": "CentOS Stream 10", "note": "a: b"}
    assert _dump(value, 4) == pyyaml(value)
