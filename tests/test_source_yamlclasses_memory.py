"""generator/source/yamlclasses.py: what the remembered tag resolution keeps, and when it steps aside.

tests/test_source_yamlclasses.py checks that every answer is PyYAML's; these check
the memory itself: a text is worked out once per class and then answered from
memory, ``remembered()`` hands a reader the very answers, a subclass starts with a
memory of its own, and a class with a path resolver (whose answer depends on where
a scalar is, not only on its text) is answered by PyYAML every time.
"""

from __future__ import annotations

import pytest
import yaml
from yaml.nodes import ScalarNode
from yaml.resolver import BaseResolver

from generator.source.yamlclasses import Dumper, Loader

STR, INT, BOOL, NULL = ("tag:yaml.org,2002:" + t for t in ("str", "int", "bool", "null"))


@pytest.fixture
def asked(monkeypatch) -> list[tuple[str, object]]:
    """Every (text, implicit) PyYAML's own resolver is asked about a scalar, from now on."""
    seen: list[tuple[str, object]] = []
    resolve = BaseResolver.resolve

    def spy(self, kind, value, implicit):
        if kind is ScalarNode:
            seen.append((value, implicit))
        return resolve(self, kind, value, implicit)

    monkeypatch.setattr(BaseResolver, "resolve", spy)
    return seen


@pytest.mark.parametrize("cls", [Loader, Dumper], ids=["Loader", "Dumper"])
def test_a_text_is_worked_out_once_then_answered_from_memory(cls, asked):
    instance = cls("") if cls is Loader else cls(None)
    for text, implicit, tag in [("0x1f-once", (True, False), STR), ("0x1F", (True, False), INT),
                                ("yes", (True, False), BOOL), ("yes", (False, True), STR)]:
        cls.remembered().pop((text, implicit), None)
        assert [instance.resolve(ScalarNode, text, implicit) for _ in range(3)] == [tag] * 3
        assert asked.count((text, implicit)) == 1


def test_remembered_gives_the_answers_so_far_by_text_and_implicit():
    """Private state, read on purpose: the memo _resolved must stay small however many documents are read."""
    Loader("").resolve(ScalarNode, "~", (True, False))
    Loader("").resolve(ScalarNode, "12-remembered", (False, True))
    assert Loader.remembered()[("~", (True, False))] == NULL
    assert Loader.remembered()[("12-remembered", (False, True))] == STR
    assert Loader.remembered() is Loader._resolved


def test_a_subclass_starts_with_an_empty_memory_of_its_own():
    Loader("").resolve(ScalarNode, "true", (True, False))

    class Mine(Loader):
        pass

    assert Mine.remembered() == {}
    assert Mine("").resolve(ScalarNode, "mine-only", (True, False)) == STR
    assert Mine.remembered() == {("mine-only", (True, False)): STR}
    assert ("mine-only", (True, False)) not in Loader.remembered()
    assert yaml.load("a: true\nb: 0x10\n", Loader=Mine) == {"a": True, "b": 16}


def test_a_class_with_a_path_resolver_answers_by_place_not_from_memory(asked):
    """A path resolver gives the value under ``gone`` the null tag: the same text elsewhere stays text."""

    class Placed(Loader):
        pass

    yaml.add_path_resolver(NULL, ["gone"], str, Loader=Placed)
    text = "gone: plain\nkept: plain\nnumber: 0x10\nempty: ''\n"
    for _ in range(2):
        assert yaml.load(text, Loader=Placed) == {"gone": None, "kept": "plain", "number": 16, "empty": ""}
    assert Placed.remembered() == {}
    assert asked.count(("plain", (True, False))) == 4
    assert yaml.load(text, Loader=Loader) == {"gone": "plain", "kept": "plain", "number": 16, "empty": ""}
