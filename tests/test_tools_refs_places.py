"""generator/tools/refs/places.py: the places a user names, written on the command line or in a file.

A place says "in objects of this kind (and name), the values at this path are
preference (or instancetype) names": ``FAMILY=KIND[.GROUP][/NAME]:PATH``. The tests
read specs as ``--names`` takes them, the objects each matches, the values each path
leads to, and the configuration file for the pre-commit hook, with every mistake
located at the option or at its line.
"""

from __future__ import annotations

import pytest

from generator.errors import InputError
from generator.tools.refs.places import Place, Step, load_places, parse_path, parse_place

SYNTAX = "expected FAMILY=KIND[.GROUP][/NAME]:PATH, such as preference=ConfigMap/forklift-*-osmap:data.*"


def refusal(text: str) -> str:
    with pytest.raises(InputError) as caught:
        parse_place(text)
    [problem] = caught.value.problems
    return str(problem)


def test_a_guest_os_map_s_values_are_preference_names():
    place = parse_place("preference=ConfigMap/forklift-*-osmap:data.*")
    assert place == Place("preference", "ConfigMap", (Step(key="data"), Step(every=True)), "data.*",
                          name="forklift-*-osmap")
    assert str(place) == "preference=ConfigMap/forklift-*-osmap:data.*"


def test_a_kind_may_say_its_api_group():
    place = parse_place("instancetype=VMInstance.apps.cozystack.io:spec.instanceType")
    assert (place.family, place.kind, place.group, place.name, place.steps) == (
        "instancetype", "VMInstance", "apps.cozystack.io", None, (Step(key="spec"), Step(key="instanceType")))
    assert str(place) == "instancetype=VMInstance.apps.cozystack.io:spec.instanceType"


@pytest.mark.parametrize("path, steps", [
    ("spec.params[name=instanceTypeName].default",
     (Step(key="spec"), Step(key="params"), Step(where=("name", "instanceTypeName")), Step(key="default"))),
    ('metadata.annotations["vm.kubevirt.io/os"]',
     (Step(key="metadata"), Step(key="annotations"), Step(key="vm.kubevirt.io/os"))),
    ("spec.pools[*].instancetype", (Step(key="spec"), Step(key="pools"), Step(every=True), Step(key="instancetype"))),
    ("spec.pools[1].preference", (Step(key="spec"), Step(key="pools"), Step(index=1), Step(key="preference"))),
    ("data.windows*", (Step(key="data"), Step(key="windows*", wild=True))),
    ("spec.params[name='a.b'].value", (Step(key="spec"), Step(key="params"), Step(where=("name", "a.b")),
                                       Step(key="value"))),
    ("spec.matrix[0][1]", (Step(key="spec"), Step(key="matrix"), Step(index=0), Step(index=1))),
    ('data["a]b"]', (Step(key="data"), Step(key="a]b"))),
    ('spec.params[name="a=b"]', (Step(key="spec"), Step(key="params"), Step(where=("name", "a=b")))),
    ("spec.params[name=test]", (Step(key="spec"), Step(key="params"), Step(where=("name", "test")))),
    ('spec.params[name=""]', (Step(key="spec"), Step(key="params"), Step(where=("name", "")))),
    ("data.windowsXP", (Step(key="data"), Step(key="windowsXP"))),
    # letters are never quotes, whichever letter a field or a value starts and ends with
    ("spec.params[X=XLX]", (Step(key="spec"), Step(key="params"), Step(where=("X", "XLX")))),
])
def test_a_path_is_keys_joined_by_dots_with_selections_in_brackets(path: str, steps: tuple):
    assert parse_path(path) == steps


@pytest.mark.parametrize("text, why", [
    ("preference", "no '=' after the family"),
    ("preferences=ConfigMap:data.*", "unknown family 'preferences' (expected instancetype or preference)"),
    ("preference=ConfigMap", "no ':' before the path"),
    ("preference=Config Map:data", "'Config Map' is not a kind (letters and digits, * and ? as wildcards)"),
    ("preference=ConfigMap.Apps:data", "'Apps' is not an API group (such as apps.cozystack.io)"),
    ("preference=ConfigMap/Osmap:data", "'Osmap' is not an object name (lower-case letters, digits, '-' and '.', "
                                        "* and ? as wildcards)"),
    ("preference=ConfigMap:", "path '', at character 1: the path is empty"),
    ("preference=ConfigMap:data..x", "path 'data..x', at character 6: expected a key before '.'"),
    ("preference=ConfigMap:.data", "path '.data', at character 1: expected a key before '.'"),
    ("preference=ConfigMap:data.", "path 'data.', at character 6: the path ends with '.'"),
    ("preference=ConfigMap:data[x", "path 'data[x', at character 5: '[' is never closed"),
    ("preference=ConfigMap:[0]", "path '[0]', at character 1: a path starts with a key or '*'"),
    ("preference=ConfigMap:data[0]x", "path 'data[0]x', at character 8: expected '.' or '[' before 'x'"),
    ("preference=ConfigMap:data[x y]", "path 'data[x y]', at character 6: expected *, an index, a quoted key or "
                                       "field=value in brackets, got 'x y'"),
    ("preference=ConfigMap:data[=x]", "path 'data[=x]', at character 6: expected *, an index, a quoted key or "
                                      "field=value in brackets, got '=x'"),
    ("preference=ConfigMap:data[name=]", "path 'data[name=]', at character 6: expected *, an index, a quoted key "
                                         "or field=value in brackets, got 'name='"),
    ('preference=ConfigMap:data["a"."b"]', "path 'data[\"a\".\"b\"]', at character 6: expected *, an index, a "
                                           "quoted key or field=value in brackets, got '\"a\".\"b\"'"),
    ("preference=X:d[" + "x" * 42 + "]", f"path 'd[{'x' * 42}]', at character 3: expected *, an index, a quoted "
                                         f"key or field=value in brackets, got '{'x' * 40}... (2 more characters)'"),
    ("preference=X:d[0]" + "y" * 22, f"path 'd[0]{'y' * 22}', at character 5: expected '.' or '[' before "
                                     f"'{'y' * 20}... (2 more characters)'"),
    ("preference=ConfigMap:vm.kubevirt.io/os=x", "path 'vm.kubevirt.io/os=x', at character 18: '=' in a key; "
                                                 "write a key holding it in brackets and quotes: [\"a.b\"]"),
])
def test_a_place_that_cannot_be_read_is_refused_at_the_option_saying_why(text: str, why: str):
    assert refusal(text) == f"--names: {text!r}: {why}; {SYNTAX}"


@pytest.mark.parametrize("api_version, kind, name, matches", [
    ("v1", "ConfigMap", "forklift-vsphere-osmap", True),
    ("v1", "ConfigMap", "forklift-ovirt-osmap", True),
    ("v1", "ConfigMap", "other", False),
    ("v1", "ConfigMap", None, False),
    ("v1", "Secret", "forklift-vsphere-osmap", False),
])
def test_a_place_matches_objects_by_kind_and_name_pattern(api_version, kind, name, matches):
    assert parse_place("preference=ConfigMap/forklift-*-osmap:data.*").matches(api_version, kind, name) is matches


@pytest.mark.parametrize("api_version, matches", [
    ("apps.cozystack.io/v1alpha1", True),
    ("apps.cozystack.io/v1", True),
    ("apps.example.com/v1alpha1", False),
    ("v1", False),
    (None, False),
])
def test_a_place_with_a_group_matches_every_version_of_that_group_only(api_version, matches):
    assert parse_place("instancetype=VMInstance.apps.cozystack.io:spec.instanceType").matches(
        api_version, "VMInstance", "test") is matches


def test_a_group_is_the_part_of_an_api_version_before_its_version_so_v1_is_none():
    assert not parse_place("preference=ConfigMap.v1:data").matches("v1", "ConfigMap", "x")


def test_a_colon_after_the_first_belongs_to_the_path():
    assert parse_place('preference=ConfigMap:data["a:b"]').steps == (Step(key="data"), Step(key="a:b"))


def test_a_place_without_a_group_matches_the_kind_in_any_group():
    assert parse_place("instancetype=VMInstance:spec.instanceType").matches("any.example/v9", "VMInstance", "x")


PIPELINE = {
    "spec": {"params": [{"name": "instanceTypeName", "default": "u1.large"},
                        {"name": "preferenceName", "default": "windows.11.virtio"},
                        {"name": "other", "default": "x"}]},
}


@pytest.mark.parametrize("path, values", [
    ("spec.params[name=preferenceName].default", [(("spec", "params", 1, "default"), "windows.11.virtio")]),
    ("spec.params[*].name", [(("spec", "params", 0, "name"), "instanceTypeName"),
                             (("spec", "params", 1, "name"), "preferenceName"),
                             (("spec", "params", 2, "name"), "other")]),
    ("spec.params.*.default", [(("spec", "params", 0, "default"), "u1.large"),
                               (("spec", "params", 1, "default"), "windows.11.virtio"),
                               (("spec", "params", 2, "default"), "x")]),
    ("spec.params[2].default", [(("spec", "params", 2, "default"), "x")]),
    ("spec.params[3].default", []),
    ("spec.missing.default", []),
    ("spec.params.default", []),
    ("spec.p*", [(("spec", "params"), PIPELINE["spec"]["params"])]),
])
def test_a_path_leads_to_every_value_it_selects_in_the_order_they_are_written(path: str, values: list):
    assert list(parse_place(f"preference=Pipeline:{path}").values(PIPELINE)) == values


def test_every_value_of_a_mapping_is_led_to_with_its_key():
    data = {"data": {"win10": "windows.10", "rhel9": "rhel.9"}}
    assert list(parse_place("preference=ConfigMap:data.*").values(data)) == [
        (("data", "win10"), "windows.10"), (("data", "rhel9"), "rhel.9")]


@pytest.mark.parametrize("path", ["data.t", "data.t*", "data[0]", "data[*]", "data[t=x]"])
def test_a_step_into_a_text_leads_nowhere(path: str):
    assert list(parse_place(f"preference=ConfigMap:{path}").values({"data": "text"})) == []


def test_a_quoted_key_is_taken_as_written_without_wildcards():
    data = {"data": {"a*": "star", "ab": "plain"}}
    assert list(parse_place('preference=ConfigMap:data["a*"]').values(data)) == [(("data", "a*"), "star")]
    assert list(parse_place("preference=ConfigMap:data.a*").values(data)) == [
        (("data", "a*"), "star"), (("data", "ab"), "plain")]


# --------------------------------------------------------------------------- the configuration file


def test_a_configuration_file_lists_places_as_specs_or_as_mappings(tmp_path):
    config = tmp_path / "refs.yaml"
    config.write_text(
        "names:\n"
        "  - preference=ConfigMap/forklift-*-osmap:data.*\n"
        "  - {family: instancetype, apiVersion: apps.cozystack.io/v1alpha1, kind: VMInstance,\n"
        "     path: spec.instanceType}\n"
        "  - {family: preference, group: apps.cozystack.io, kind: VMInstance, name: test,\n"
        "     path: spec.instanceProfile}\n")
    first, second, third = load_places(config, "refs.yaml")
    assert first == parse_place("preference=ConfigMap/forklift-*-osmap:data.*")
    assert second == Place("instancetype", "VMInstance", (Step(key="spec"), Step(key="instanceType")),
                           "spec.instanceType", api_version="apps.cozystack.io/v1alpha1")
    assert second.matches("apps.cozystack.io/v1alpha1", "VMInstance", "x")
    assert not second.matches("apps.cozystack.io/v1", "VMInstance", "x")
    assert str(third) == "preference=VMInstance.apps.cozystack.io/test:spec.instanceProfile"


def test_an_empty_configuration_file_names_no_places(tmp_path):
    config = tmp_path / "refs.yaml"
    config.write_text("")
    assert load_places(config) == ()


def test_every_mistake_of_a_configuration_file_is_located_at_its_line(tmp_path):
    config = tmp_path / "refs.yaml"
    config.write_text(
        "names:\n"
        "  - preference=ConfigMap/forklift-*-osmap:data.*\n"
        "  - {family: preferences, kind: X, path: a}\n"
        '  - {family: preference, kind: X, path: "a..b"}\n'
        '  - "preference=X:a["\n'
        "  - {family: preference, kind: X, group: g, apiVersion: g/v1, path: a}\n"
        "  - {family: preference, kind: X}\n"
        "  - 3\n"
        "name: x\n")
    with pytest.raises(InputError) as caught:
        load_places(config, "refs.yaml")
    assert [str(p) for p in caught.value.problems] == [
        "refs.yaml:3:14: names[1].family: expected one of instancetype, preference, got 'preferences'",
        "refs.yaml:4:41: names[2].path: at character 3 of the path: expected a key before '.'",
        f"refs.yaml:5:5: names[3]: 'preference=X:a[': path 'a[', at character 2: '[' is never closed; {SYNTAX}",
        "refs.yaml:6:5: names[4]: give apiVersion or group, not both",
        "refs.yaml:7:5: names[5]: missing required key 'path'",
        "refs.yaml:8:5: names[6]: expected a string or a mapping, got 3",
        "refs.yaml:9:1: name: unknown key 'name' (did you mean 'names'?); expected one of: names",
    ]


@pytest.mark.parametrize("display, shown", [("absent.yaml", "absent.yaml"), (None, "{tmp_path}/absent.yaml")])
def test_a_configuration_file_that_is_not_there_is_refused_by_the_reader(tmp_path, display, shown):
    with pytest.raises(InputError) as caught:
        load_places(tmp_path / "absent.yaml", display)
    assert [str(p) for p in caught.value.problems] == [f"{shown.format(tmp_path=tmp_path)}: no such file or folder"]
