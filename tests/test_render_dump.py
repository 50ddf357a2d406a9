"""The renderer's direct YAML dumping writes exactly what PyYAML's own dump writes."""

from __future__ import annotations

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.render import _dump, yaml_block, yaml_scalar

#: PyYAML's own dumper, with none of citgen's speed-ups (remembered tag resolution).
STOCK_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

TRICKY = st.sampled_from(["", "true", "no", "~", "null", "1", "0o17", "0x1F", "1e3", ".inf", "2024-01-01",
                          "<<", "=", "a: b", "- x", "#x", "*x", "&x", "!x", "'q'", '"q"', " lead", "trail ",
                          "line\nbreak", "tab\tx", "é ünï", "4Gi", "instancetype.kubevirt.io/cpu"])
SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30) | TRICKY
DATA = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=10) | TRICKY, inner, max_size=4), max_leaves=12)


def pyyaml(value):
    return yaml.dump(value, Dumper=STOCK_DUMPER, sort_keys=True, default_flow_style=False, allow_unicode=True,
                     width=1 << 16)


@settings(max_examples=400, deadline=None)
@given(DATA)
def test_any_plain_data_is_dumped_as_pyyaml_dumps_it(value):
    assert _dump(value) == pyyaml(value)


def test_a_value_seen_twice_keeps_pyyaml_anchors():
    shared = {"guest": 2}
    assert _dump({"a": shared, "b": shared}) == pyyaml({"a": shared, "b": shared})
    assert "&id001" in _dump({"a": shared, "b": shared})


def test_keys_that_are_not_strings_and_other_types_go_through_pyyaml():
    assert _dump({1: "x", 2: "y"}) == "1: x\n2: y\n"
    assert _dump((1, 2)) == pyyaml((1, 2))


def test_the_filters_built_on_it():
    assert yaml_scalar("true") == "'true'"
    assert yaml_scalar("4Gi") == "4Gi"
    assert yaml_block({"cpu": {"guest": 2}, "memory": {"guest": "4Gi"}}, 2) == (
        "\n  cpu:\n    guest: 2\n  memory:\n    guest: 4Gi")
