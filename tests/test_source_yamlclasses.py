"""The loader and dumper remember tag resolution, and answer exactly as PyYAML does."""

from __future__ import annotations

import yaml
from hypothesis import example, given, strategies as st
from yaml.nodes import MappingNode, ScalarNode

from generator.source import yamlclasses
from generator.source.yamlclasses import Dumper, Loader

#: Texts near PyYAML's implicit types, where a wrong answer would change a value.
TRICKY = ["true", "True", "yes", "off", "null", "~", "", "0o17", "0x1F", "1_000", "1e3", "1.5",
          ".inf", "-.Inf", ".nan", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2Gi", "<<", "=",
          "1:20", "+12", "0b101", "u1.small", "v1.8.0"]


def reference(kind, value, implicit):
    """What PyYAML's own resolver says, on a loader with nothing remembered."""
    return yaml.SafeLoader("").resolve(kind, value, implicit)


@given(st.one_of(st.sampled_from(TRICKY), st.text(max_size=12)), st.booleans(), st.booleans())
@example("true", True, False)
@example("true", False, True)
def test_the_remembered_tag_is_pyyamls(value: str, plain: bool, quoted: bool):
    implicit = (plain, quoted)
    for _ in range(2):  # the first answer is worked out, the second remembered
        assert Loader("").resolve(ScalarNode, value, implicit) == reference(ScalarNode, value, implicit)
        assert Dumper(None).resolve(ScalarNode, value, implicit) == reference(ScalarNode, value, implicit)


def test_collections_are_resolved_as_pyyaml_does():
    assert Loader("").resolve(MappingNode, None, True) == "tag:yaml.org,2002:map"


def test_each_class_has_its_own_memory():
    Loader("").resolve(ScalarNode, "loader-only", (True, False))
    assert ("loader-only", (True, False)) in Loader._resolved
    assert ("loader-only", (True, False)) not in Dumper._resolved


def test_the_memory_starts_over_when_full(monkeypatch):
    monkeypatch.setattr(yamlclasses, "MEMORY", 3)
    Loader._resolved.clear()
    for value in ("a", "b", "c", "d"):
        Loader("").resolve(ScalarNode, value, (True, False))
    assert list(Loader._resolved) == [("d", (True, False))]


def test_loading_and_dumping_round_trip_tricky_texts():
    data = {text: [text, 1, True, None] for text in TRICKY}
    dumped = yaml.dump(data, Dumper=Dumper, sort_keys=True)
    assert yaml.load(dumped, Loader=Loader) == data
    assert yaml.load(dumped, Loader=yaml.SafeLoader) == data
