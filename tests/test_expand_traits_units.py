"""expand/traits.py piece by piece: equality of values, how values are shown, and the edge cases of
composing layers (lists, empty mappings, overrides of plain values, defaults), each on small written values.

Private helpers, tested on purpose: how two traits' values are compared and shown (_same, _short,
_show) decides the conflict messages, case by case.
"""

from __future__ import annotations

from collections import OrderedDict

from generator.expand.traits import Composition, Layer, _same, _short, _show, compose, trait_layers
from generator.model import Trait, TraitRef
from generator.problems import Location
from tests.test_expand_traits import at, layer, messages  # the same layers and messages as the module's cases


def conflict(later: str, path: str, value: str, line: int, earlier: str, earlier_line: int, where: str,
             old: str) -> str:
    return (f"preferences/linux.yaml:{line}:3: trait {later!r} sets {path} to {value}, but trait {earlier!r} "
            f"(listed at preferences/linux.yaml:{earlier_line}) already set {where} to {old}; mark it as an "
            "override if it is meant to replace that value")


# _same: equal and of the same type, element by element, quantities only where the schema has one.

def test_same_mappings_need_the_same_keys_and_the_same_values() -> None:
    assert _same({"a": 1, "b": [2]}, {"a": 1, "b": [2]}) is True
    assert _same({"a": 1}, {"a": 2}) is False
    assert _same({"a": 1}, {"b": 1}) is False
    assert _same({"a": 1}, {"a": 1, "b": 2}) is False
    assert _same({"a": 1}, {"a": True}) is False  # YAML's true is not 1, even one level down
    assert _same({}, {}) is True


def test_same_mappings_compare_quantities_at_their_own_path() -> None:
    # inside requirements.memory, the key guest holds a quantity: 4Gi is 4096Mi
    assert _same({"guest": "4Gi"}, {"guest": "4096Mi"}, ("requirements", "memory")) is True
    # the same values anywhere else are two spellings
    assert _same({"guest": "4Gi"}, {"guest": "4096Mi"}, ("annotations",)) is False
    assert _same({"guest": "4Gi"}, {"guest": "4096Mi"}) is False


def test_same_lists_need_the_same_length_and_the_same_items_in_order() -> None:
    assert _same([1, "x", {"a": 1}], [1, "x", {"a": 1}]) is True
    assert _same([1, 2], [2, 1]) is False
    assert _same([1], [1, 1]) is False
    assert _same([1, 2], [1]) is False
    assert _same([1], [True]) is False
    assert _same([{"a": 1}], [{"a": 2}]) is False
    assert _same([], []) is True


def test_lists_compose_as_whole_values() -> None:
    same = compose([layer("a", {"x": [1, {"k": "v"}]}, 1), layer("b", {"x": [1, {"k": "v"}]}, 2)])
    assert same.problems == ()
    assert same.spec == {"x": [1, {"k": "v"}]}
    other = compose([layer("a", {"x": [1, 2]}, 1), layer("b", {"x": [1, 2, 3]}, 2)])
    assert messages(other) == [conflict("b", "x", "[1, 2, 3]", 2, "a", 1, "x", "[1, 2]")]
    assert other.spec == {"x": [1, 2]}


# _show and _short: how values and places read in a message.

def test_show_writes_an_empty_mapping_as_braces_and_anything_else_as_repr() -> None:
    assert _show({}) == "{}"
    assert _show(OrderedDict()) == "{}"  # any empty dict, not its class's repr
    assert _show({"a": 1}) == "{'a': 1}"
    assert _show("x") == "'x'"
    assert _show([]) == "[]"
    assert _show(None) == "None"


def test_short_places_name_the_line_only_when_there_is_one() -> None:
    assert _short(Location("preferences/traits/x.yaml", 4, 3)) == "preferences/traits/x.yaml:4"
    assert _short(Location("preferences/traits/x.yaml")) == "preferences/traits/x.yaml"


def test_a_conflict_with_a_layer_listed_without_a_line_names_its_file_alone() -> None:
    result = compose([Layer("family 'linux'", {"x": 1}, Location("families/linux.yaml")),
                      layer("b", {"x": 2}, 2)])
    assert messages(result) == [
        "preferences/linux.yaml:2:3: trait 'b' sets x to 2, but family 'linux' (listed at families/linux.yaml) "
        "already set x to 1; mark it as an override if it is meant to replace that value"]


# Empty mappings against plain values.

def test_a_plain_value_over_an_empty_mapping_is_a_conflict() -> None:
    result = compose([layer("a", {"x": {}}, 1), layer("b", {"x": 1}, 2)])
    assert messages(result) == [conflict("b", "x", "1", 2, "a", 1, "x", "{}")]
    assert result.spec == {"x": {}}


def test_an_empty_mapping_over_a_plain_value_is_a_conflict() -> None:
    result = compose([layer("a", {"x": 1}, 1), layer("b", {"x": {}}, 2)])
    assert messages(result) == [conflict("b", "x", "{}", 2, "a", 1, "x", "1")]
    assert result.spec == {"x": 1}


def test_an_empty_mapping_elsewhere_is_set_even_when_other_subtrees_exist() -> None:
    result = compose([layer("a", {"a": {"b": 1}}, 1), layer("b", {"x": {}}, 2)])
    assert result.problems == ()
    assert result.spec == {"a": {"b": 1}, "x": {}}


def test_a_refined_empty_mapping_is_no_longer_a_value_a_later_layer_conflicts_with() -> None:
    # once `rng: {}` is refined with a key, only that key conflicts with a later plain value
    result = compose([layer("a", {"rng": {}}, 1), layer("b", {"rng": {"source": "x"}}, 2),
                      layer("c", {"rng": "off"}, 3)])
    assert messages(result) == [conflict("c", "rng", "'off'", 3, "b", 2, "rng.source", "'x'")]
    assert result.spec == {"rng": {"source": "x"}}
    deeper = compose([layer("a", {"devices": {"rng": {}}}, 1), layer("b", {"devices": {"rng": {"source": "x"}}}, 2),
                      layer("c", {"devices": {"rng": "off"}}, 3)])
    assert messages(deeper) == [conflict("c", "devices.rng", "'off'", 3, "b", 2, "devices.rng.source", "'x'")]


# A layer goes on after a leaf it skipped.

def test_a_conflicting_leaf_does_not_stop_the_rest_of_the_layer() -> None:
    result = compose([layer("a", {"x": 1}, 1), layer("b", {"x": 2, "y": 3}, 2)])
    assert messages(result) == [conflict("b", "x", "2", 2, "a", 1, "x", "1")]
    assert result.spec == {"x": 1, "y": 3}


def test_a_leaf_set_to_the_same_value_does_not_stop_the_rest_of_the_layer() -> None:
    result = compose([layer("a", {"x": 1}, 1), layer("b", {"x": 1, "y": 3}, 2)])
    assert result.problems == ()
    assert result.spec == {"x": 1, "y": 3}


def test_an_empty_mapping_over_a_subtree_does_not_stop_the_rest_of_the_layer() -> None:
    result = compose([layer("a", {"r": {"s": 1}}, 1), layer("b", {"r": {}, "t": 2}, 2)])
    assert result.problems == ()
    assert result.spec == {"r": {"s": 1}, "t": 2}


# Overrides.

def test_an_override_replaces_a_plain_value_with_a_subtree() -> None:
    result = compose([layer("a", {"devices": "none"}, 1),
                      layer("b", {"devices": {"bus": "x", "model": "y"}}, 2, override=True)])
    assert result.problems == ()
    assert result.spec == {"devices": {"bus": "x", "model": "y"}}


def test_a_layer_is_not_an_override_unless_marked() -> None:
    plain = Layer("trait 'b'", {"x": 2}, at(2))
    assert plain.override is False
    result = compose([layer("a", {"x": 1}, 1), plain])
    assert messages(result) == [conflict("b", "x", "2", 2, "a", 1, "x", "1")]


# Defaults.

def test_defaults_go_on_after_a_leaf_already_set() -> None:
    result = compose([layer("a", {"a": 5}, 1)], Layer("defaults", {"a": 1, "b": 2}, at(9)))
    assert result.problems == ()
    assert result.spec == {"a": 5, "b": 2}


def test_defaults_go_on_after_a_leaf_with_a_subtree_below_it() -> None:
    result = compose([layer("a", {"r": {"s": 1}}, 1)], Layer("defaults", {"r": 1, "b": 2}, at(9)))
    assert result.problems == ()
    assert result.spec == {"b": 2, "r": {"s": 1}}


def test_a_default_is_filled_beside_an_unrelated_subtree() -> None:
    result = compose([layer("a", {"a": {"x": 1}}, 1)], Layer("defaults", {"b": 2}, at(9)))
    assert result.problems == ()
    assert result.spec == {"a": {"x": 1}, "b": 2}


def test_a_composition_without_problems_has_an_empty_tuple() -> None:
    assert Composition({}).problems == ()
    assert compose([]) == Composition({}, ())


# trait_layers.

def test_trait_layers_carry_the_traits_spec() -> None:
    spec = {"devices": {"preferredDiskBus": "virtio"}}
    traits = {"virtio-disk": Trait("virtio-disk", "x", spec, (), at(1))}
    layers, problems = trait_layers([TraitRef("virtio-disk", False, at(3))], traits)
    assert problems == []
    assert [lay.spec for lay in layers] == [spec]
    assert compose(layers).spec == spec
