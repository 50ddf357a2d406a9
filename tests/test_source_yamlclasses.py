"""The loader and dumper remember tag resolution, and answer exactly as PyYAML does.

Private state, read on purpose: the memo _resolved is what keeps the loader's and the dumper's
resolvers apart.
"""

from __future__ import annotations

import re

import pytest
import yaml
from hypothesis import example, given, strategies as st
from yaml.nodes import MappingNode, ScalarNode

from generator.source import yamlclasses
from generator.source.yamlclasses import Dumper, Loader
from generator.source.yamlsrc import load_stream_fast

#: Texts near PyYAML's implicit types, where a wrong answer would change a value.
TRICKY = ["true", "True", "yes", "off", "null", "~", "", "0o17", "0x1F", "1_000", "1e3", "1.5",
          ".inf", "-.Inf", ".nan", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2Gi", "<<", "=",
          "1:20", "+12", "0b101", "u1.small", "v1.8.0"]


class PyYAML(yaml.SafeLoader):
    """PyYAML's pure-Python safe loader with YAML 1.1's types as PyYAML ships them, nothing remembered."""

    yaml_implicit_resolvers = yamlclasses.yaml_1_1_types()


class Writing(yaml.SafeLoader):
    """The same, with the types a dumper quotes besides (yamlclasses.WRITTEN_QUOTED)."""

    yaml_implicit_resolvers = yamlclasses.written_types()


def reference(kind, value, implicit, resolver: type = PyYAML):
    """What PyYAML's own resolver says, on a loader with nothing remembered."""
    return resolver("").resolve(kind, value, implicit)


@given(st.one_of(st.sampled_from(TRICKY), st.text(max_size=12)), st.booleans(), st.booleans())
@example("true", True, False)
@example("true", False, True)
def test_the_remembered_tag_is_pyyamls(value: str, plain: bool, quoted: bool):
    implicit = (plain, quoted)
    for _ in range(2):  # the first answer is worked out, the second remembered
        assert Loader("").resolve(ScalarNode, value, implicit) == reference(ScalarNode, value, implicit)
        assert Dumper(None).resolve(ScalarNode, value, implicit) == reference(ScalarNode, value, implicit, Writing)


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
    assert yaml.load(dumped, Loader=PyYAML) == data


@pytest.fixture
def yamllint_imported(monkeypatch: pytest.MonkeyPatch) -> None:
    """PyYAML's shared table of types as importing yamllint's quoted-strings rule leaves it: 0o17 a number.

    The table is a copy, put back after the test; the classes' memories are emptied
    before, so that every answer is worked out with the changed table at hand.

    Private state, read on purpose: the memo _resolved is what keeps the loader's and the dumper's resolvers apart.
    """
    table = {first: list(pairs) for first, pairs in yaml.resolver.Resolver.yaml_implicit_resolvers.items()}
    monkeypatch.setattr(yaml.resolver.Resolver, "yaml_implicit_resolvers", table)
    yaml.resolver.Resolver.add_implicit_resolver(INT, re.compile(r"^[-+]?0o?[0-7_]+$"), list("-+0"))
    for cls in (Loader, Dumper):
        monkeypatch.setattr(cls, "_resolved", {})


INT = "tag:yaml.org,2002:int"


def test_what_other_code_adds_to_pyyamls_types_changes_nothing_citgen_reads(yamllint_imported):
    assert yaml.load("v: 0o17\n", Loader=yaml.SafeLoader) == {"v": 15}  # every other PyYAML reader
    assert yaml.load("v: 0o17\n", Loader=Loader) == {"v": "0o17"}
    assert load_stream_fast("v: 0o17\nw: 10\n") == [{"v": "0o17", "w": 10}]


def test_what_other_code_does_to_pyyamls_types_changes_nothing_citgen_writes(monkeypatch):
    monkeypatch.setattr(yaml.resolver.Resolver, "yaml_implicit_resolvers", {})  # every type forgotten
    monkeypatch.setattr(Dumper, "_resolved", {})
    assert yaml.dump({"v": "true"}, Dumper=yaml.SafeDumper) == "v: true\n"  # every other PyYAML writer
    assert yaml.dump({"v": "true", "w": "1e3", "x": "2Gi"}, Dumper=Dumper) == "v: 'true'\nw: '1e3'\nx: 2Gi\n"


def test_pyyamls_types_are_made_afresh_by_its_own_module_whatever_was_added_to_them(yamllint_imported):
    fresh = yamlclasses.yaml_1_1_types()
    assert fresh == Loader.yaml_implicit_resolvers
    assert fresh is not yamlclasses.yaml_1_1_types()
    assert [tag for tag, _ in fresh["0"]] == [f"tag:yaml.org,2002:{name}" for name in ("float", "int", "timestamp")]
    assert not any(tag == INT and pattern.match("0o17") for tag, pattern in fresh["0"])
    fresh["0"].clear()  # each call's lists are its own
    assert Loader.yaml_implicit_resolvers["0"] and yamlclasses.yaml_1_1_types()["0"]


def test_the_loaders_types_are_yaml_1_1s_and_the_dumper_quotes_those_and_what_other_readers_take():
    assert Dumper.yaml_implicit_resolvers == yamlclasses.written_types()
    for first, pairs in Loader.yaml_implicit_resolvers.items():
        assert Dumper.yaml_implicit_resolvers[first][:len(pairs)] == pairs
    added = {(first, tag) for first, pairs in Dumper.yaml_implicit_resolvers.items() for tag, _ in pairs} - {
        (first, tag) for first, pairs in Loader.yaml_implicit_resolvers.items() for tag, _ in pairs}
    assert added == {(first, tag) for tag, _, firsts in yamlclasses.WRITTEN_QUOTED for first in firsts} - {
        (first, tag) for first, pairs in Loader.yaml_implicit_resolvers.items() for tag, _ in pairs}
    assert Loader.yaml_implicit_resolvers == PyYAML.yaml_implicit_resolvers
    assert {tag for pairs in Loader.yaml_implicit_resolvers.values() for tag, _ in pairs} == {
        f"tag:yaml.org,2002:{name}" for name in ("bool", "float", "int", "merge", "null", "timestamp", "value", "yaml")}
    assert Loader.yaml_implicit_resolvers is not yaml.resolver.Resolver.yaml_implicit_resolvers
