"""generator/schemas/dated.py: the small tree of the spec fields some KubeVirt releases have and others lack.

First on trees written here (an index node holds ``r``, the mask of the releases that
have it, ``p`` its named keys and ``a`` what any other key is), so each case shows one
rule of what the tree keeps; then on the shipped index, whose every dated field must be
in the tree with the releases has_field says lack it.
"""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from generator.model import KINDS
from generator.schemas import has_field, schema_fields
from generator.schemas import dated
from generator.schemas.dated import Dated, dated_spec
from generator.schemas.releases import known

RELEASES = known()
EVERY = frozenset(range(len(RELEASES)))
ALL = (1 << len(RELEASES)) - 1  # the mask of a node every release has


def node(*having: int, a: dict[str, Any] | None = None, **keys: dict[str, Any]) -> dict[str, Any]:
    """An index node the releases ``having`` have (every release when none is named), with its keys."""
    made: dict[str, Any] = {"r": sum(1 << i for i in having) if having else ALL}
    if keys:
        made["p"] = keys
    if a is not None:
        made["a"] = a
    return made


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """Kind name -> root node: what dated_spec reads instead of the shipped index, its memo emptied around it."""
    kinds: dict[str, Any] = {}
    monkeypatch.setattr(dated, "tree", kinds.get)
    dated_spec.cache_clear()
    yield kinds
    dated_spec.cache_clear()


def test_a_field_every_release_has_with_nothing_dated_below_is_left_out(toy: dict[str, Any]) -> None:
    toy["Toy"] = node(spec=node(cpu=node(guest=node())))
    assert dated_spec("Toy") == Dated()
    assert not dated_spec("Toy").leads_somewhere


def test_a_field_some_releases_lack_is_kept_with_those_releases(toy: dict[str, Any]) -> None:
    toy["Toy"] = node(spec=node(newer=node(1, 2), older=node(0)))
    tree = dated_spec("Toy")
    assert tree.children["newer"].lacking == EVERY - {1, 2}
    assert tree.children["older"].lacking == EVERY - {0}
    assert tree.leads_somewhere


def test_a_key_every_release_has_is_kept_when_a_dated_field_is_below_it_and_a_sibling_is_not(
        toy: dict[str, Any]) -> None:
    toy["Toy"] = node(spec=node(cpu=node(dedicated=node(0), model=node()), memory=node(guest=node())))
    tree = dated_spec("Toy")
    assert list(tree.children) == ["cpu"]
    cpu = tree.children["cpu"]
    assert cpu.lacking == frozenset()
    assert list(cpu.children) == ["dedicated"] and cpu.children["dedicated"].lacking == EVERY - {0}


def test_a_child_s_releases_are_counted_against_every_release_not_its_parent_s(toy: dict[str, Any]) -> None:
    toy["Toy"] = node(spec=node(parent=node(0, 1, child=node(1))))
    parent = dated_spec("Toy").children["parent"]
    assert parent.lacking == EVERY - {0, 1}
    assert parent.children["child"].lacking == EVERY - {1}


def test_a_field_that_takes_any_key_is_open_and_leads_somewhere_though_nothing_below_is_dated(
        toy: dict[str, Any]) -> None:
    toy["Toy"] = node(spec=node(annotations=node(a=node())))
    annotations = dated_spec("Toy").children["annotations"]
    assert annotations == Dated(frozenset(), {}, open=True)
    assert annotations.leads_somewhere


def test_a_kind_without_a_spec_lacks_it_in_every_release_and_an_unknown_kind_is_a_key_error(
        toy: dict[str, Any]) -> None:
    toy["Bare"] = node(metadata=node())
    assert dated_spec("Bare") == Dated(EVERY)
    with pytest.raises(KeyError, match="Nothing"):
        dated_spec("Nothing")


def lacking(kind: str, path: tuple[str, ...]) -> frozenset[int]:
    return frozenset(i for i, release in enumerate(RELEASES) if not has_field(kind, path, release))


@pytest.mark.parametrize("kind", KINDS)
def test_the_dated_tree_holds_every_spec_field_some_release_lacks_and_says_which(kind: str) -> None:
    found = set()
    stack = [(("spec",), dated_spec(kind))]
    while stack:
        prefix, place = stack.pop()
        for key, child in place.children.items():
            path = prefix + (key,)
            assert child.lacking == lacking(kind, path), path
            if child.lacking:
                found.add(path)
            stack.append((path, child))
    every = set().union(*(schema_fields(kind, release) for release in RELEASES))
    expected = {path for path in every if path[0] == "spec" and len(path) > 1 and lacking(kind, path)
                and lacking(kind, path) != EVERY}
    assert found == expected


def test_the_dated_tree_of_a_preference_names_the_fields_of_the_issue() -> None:
    tree = dated_spec("VirtualMachineClusterPreference")
    v = {str(release): i for i, release in enumerate(RELEASES)}
    assert tree.children["devices"].children["preferredVideoType"].lacking == frozenset(range(v["v1.9"]))
    assert tree.children["preferredArchitecture"].lacking == frozenset(range(v["v1.7"]))
    assert tree.children["firmware"].children["preferredEfi"].lacking == frozenset(range(v["v1.4"]))
    assert tree.children["annotations"].open  # any key: asked of the schemas, key by key
    assert "cpu" in tree.children and not tree.children["cpu"].lacking  # on the way to spreadOptions
