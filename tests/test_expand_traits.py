"""expand/traits.py on its own: spec fragments composed in layers, each conflict named where it was listed."""

from __future__ import annotations

from generator.expand.traits import Layer, compose, leaves, sort_keys, trait_layers
from generator.model import Trait, TraitRef
from generator.problems import Location


def at(line: int) -> Location:
    return Location("preferences/linux.yaml", line, 3)


def layer(name: str, spec: dict, line: int, override: bool = False) -> Layer:
    return Layer(f"trait {name!r}", spec, at(line), override)


def messages(composition) -> list[str]:
    return [str(p) for p in composition.problems]


def test_layers_merge_into_one_spec_with_sorted_keys() -> None:
    result = compose([layer("a", {"devices": {"preferredDiskBus": "virtio"}}, 1),
                      layer("b", {"devices": {"preferredInterfaceModel": "virtio"}, "clock": {"x": 1}}, 2)])
    assert result.problems == ()
    assert list(result.spec) == ["clock", "devices"]
    assert result.spec == {"clock": {"x": 1}, "devices": {"preferredDiskBus": "virtio",
                                                          "preferredInterfaceModel": "virtio"}}


def test_a_different_value_for_the_same_field_is_a_conflict_naming_both_layers() -> None:
    result = compose([layer("virtio", {"devices": {"preferredDiskBus": "virtio"}}, 4),
                      layer("sata", {"devices": {"preferredDiskBus": "sata"}}, 7)])
    assert messages(result) == [
        "preferences/linux.yaml:7:3: trait 'sata' sets devices.preferredDiskBus to 'sata', but trait 'virtio' "
        "(listed at preferences/linux.yaml:4) already set devices.preferredDiskBus to 'virtio'; mark it as an "
        "override if it is meant to replace that value"]
    assert result.spec == {"devices": {"preferredDiskBus": "virtio"}}


def test_an_override_replaces_the_value() -> None:
    result = compose([layer("virtio", {"devices": {"preferredDiskBus": "virtio"}}, 4),
                      layer("sata", {"devices": {"preferredDiskBus": "sata"}}, 7, override=True)])
    assert result.problems == ()
    assert result.spec == {"devices": {"preferredDiskBus": "sata"}}


def test_an_override_that_replaces_nothing_is_stale() -> None:
    result = compose([layer("virtio", {"devices": {"preferredDiskBus": "virtio"}}, 4),
                      layer("clock", {"clock": {"preferredTimer": {"hpet": {"present": False}}}}, 7, override=True)])
    assert messages(result) == ["preferences/linux.yaml:7:3: trait 'clock' is marked as an override but changes no "
                                "value an earlier layer set; drop the override mark"]


def test_the_same_value_twice_is_no_conflict_and_the_first_layer_keeps_it() -> None:
    result = compose([layer("a", {"x": 1}, 1), layer("b", {"x": 1}, 2)])
    assert result.problems == ()
    assert result.spec == {"x": 1}
    again = compose([layer("a", {"x": 1}, 1), layer("b", {"x": 1}, 2, override=True)])
    assert messages(again) == ["preferences/linux.yaml:2:3: trait 'b' is marked as an override but changes no value "
                               "an earlier layer set; drop the override mark"]


def test_values_python_calls_equal_but_yaml_does_not_conflict() -> None:
    result = compose([layer("a", {"x": 1}, 1), layer("b", {"x": True}, 2)])
    assert messages(result) == [
        "preferences/linux.yaml:2:3: trait 'b' sets x to True, but trait 'a' (listed at preferences/linux.yaml:1) "
        "already set x to 1; mark it as an override if it is meant to replace that value"]


def test_quantities_are_the_same_where_the_schema_holds_a_quantity_only() -> None:
    memory = compose([layer("a", {"requirements": {"memory": {"guest": "4Gi"}}}, 1),
                      layer("b", {"requirements": {"memory": {"guest": "4096Mi"}}}, 2)])
    assert memory.problems == ()
    assert memory.spec == {"requirements": {"memory": {"guest": "4Gi"}}}
    text = compose([layer("a", {"annotations": {"x": "4Gi"}}, 1), layer("b", {"annotations": {"x": "4096Mi"}}, 2)])
    assert len(text.problems) == 1


def test_an_empty_mapping_may_be_refined_but_a_value_cannot_become_a_mapping() -> None:
    refined = compose([layer("rng", {"devices": {"preferredRng": {}}}, 1),
                       layer("rng2", {"devices": {"preferredRng": {"source": "x"}}}, 2)])
    assert refined.problems == ()
    assert refined.spec == {"devices": {"preferredRng": {"source": "x"}}}
    kept = compose([layer("rng", {"devices": {"preferredRng": {"source": "x"}}}, 1),
                    layer("rng2", {"devices": {"preferredRng": {}}}, 2)])
    assert kept.problems == ()
    assert kept.spec == {"devices": {"preferredRng": {"source": "x"}}}
    clash = compose([layer("a", {"devices": "none"}, 1), layer("b", {"devices": {"bus": "x"}}, 2)])
    assert messages(clash) == [
        "preferences/linux.yaml:2:3: trait 'b' sets devices.bus to 'x', but trait 'a' (listed at "
        "preferences/linux.yaml:1) already set devices to 'none'; mark it as an override if it is meant to "
        "replace that value"]
    under = compose([layer("a", {"devices": {"bus": "x"}}, 1), layer("b", {"devices": "none"}, 2)])
    assert messages(under) == [
        "preferences/linux.yaml:2:3: trait 'b' sets devices to 'none', but trait 'a' (listed at "
        "preferences/linux.yaml:1) already set devices.bus to 'x'; mark it as an override if it is meant to "
        "replace that value"]


def test_an_override_of_a_subtree_replaces_all_of_it() -> None:
    result = compose([layer("a", {"devices": {"bus": "x", "model": "y"}}, 1),
                      layer("b", {"devices": "none"}, 2, override=True)])
    assert result.problems == ()
    assert result.spec == {"devices": "none"}


def test_defaults_fill_only_what_nothing_set() -> None:
    defaults = Layer("the requirements of family 'linux'", {"requirements": {"cpu": {"guest": 1},
                                                                           "memory": {"guest": "1Gi"}},
                                                            "devices": {"bus": "d"}}, at(9))
    result = compose([layer("a", {"requirements": {"memory": {"guest": "2Gi"}}, "devices": "none"}, 1)], defaults)
    assert result.problems == ()
    assert result.spec == {"devices": "none", "requirements": {"cpu": {"guest": 1}, "memory": {"guest": "2Gi"}}}
    below = compose([layer("a", {"requirements": {"cpu": {"guest": 2}}}, 1)],
                    Layer("d", {"requirements": "none"}, at(9)))
    assert below.spec == {"requirements": {"cpu": {"guest": 2}}}


def test_leaves_stop_at_values_and_empty_mappings() -> None:
    assert list(leaves({"a": {"b": 1, "c": {}}, "d": [1], "e": {"f": {"g": None}}})) == [
        (("a", "b"), 1), (("a", "c"), {}), (("d",), [1]), (("e", "f", "g"), None)]


def test_sort_keys_sorts_every_mapping_in_lists_too() -> None:
    value = sort_keys({"b": [{"z": 1, "a": 2}], "a": {"d": 1, "c": 2}})
    assert list(value) == ["a", "b"]
    assert list(value["a"]) == ["c", "d"]
    assert list(value["b"][0]) == ["a", "z"]


def test_trait_layers_in_order_and_unknown_names_with_a_suggestion() -> None:
    traits = {"virtio-disk": Trait("virtio-disk", "x", {"devices": {"preferredDiskBus": "virtio"}}, (), at(1)),
              "efi": Trait("efi", "x", {"firmware": {"preferredUseEfi": True}}, (), at(1))}
    refs = [TraitRef("efi", False, at(3)), TraitRef("virtio-disks", False, at(4)),
            TraitRef("virtio-disk", True, at(5))]
    layers, problems = trait_layers(refs, traits)
    assert [(lay.label, lay.override, lay.location.line, lay.fix) for lay in layers] == [
        ("trait 'efi'", False, 3, "write it as {trait: efi, override: true}"),
        ("trait 'virtio-disk'", True, 5, "write it as {trait: virtio-disk, override: true}")]
    assert [str(p) for p in problems] == [
        "preferences/linux.yaml:4:3: unknown trait 'virtio-disks'; did you mean 'virtio-disk'? "
        "(traits are the files of preferences/traits/)"]
