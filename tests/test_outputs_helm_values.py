"""The chart's values and their schema (outputs/helm.py `values_schema`, `_names`, `gpu_device_name`).

values.schema.json types every value and checks every name against what the
catalog has: series by prefix and versioned name, sizes smallest first (a
variant right after its size), preferences by name and family. Extra labels and
annotations take keys as the API server does, none the catalog or Helm owns.
Only a chart with GPU instancetypes has a ``gpu`` value. Each value's
description comes from DESCRIPTIONS, with the KubeVirt releases filled in.
The rendered values.yaml is checked value by value against the build.

Private helpers, tested on purpose: the order and descriptions of values.yaml (_size_order, _names,
_describe) for sizes the catalog does not have.
"""

from __future__ import annotations

import dataclasses
import json
from functools import lru_cache

import pytest
import yaml

from generator.load.overlays import RESERVED_ANNOTATIONS
from generator.model import CatalogObject, Size, SizeMatrix
from generator.objectmeta import LABEL_KEY_PATTERN
from generator.outputs.context import OutputContext
from generator.outputs.helm import (
    DESCRIPTIONS, LABEL_VALUE, _describe, _names, _size_order, chart_files, gpu_device_name, values_schema,
)
from generator.outputs.policy import Policy
from generator.pipeline import Build, BuildOptions, generate
from generator.problems import Location
from generator.schemas.releases import Release
from tests.helpers import default_build

SERIES = ["cx", "cx1", "d", "d1", "m", "m1", "n", "n1", "o", "o1", "rt", "rt1", "u", "u1"]
SIZES = ["nano", "micro", "small", "medium", "medium1gi", "2xmedium", "large", "large1gi", "xlarge", "xlarge1gi",
         "2xlarge", "2xlarge1gi", "4xlarge", "4xlarge1gi", "8xlarge", "8xlarge1gi"]
FAMILIES = ["alpine", "centos-stream", "cirros", "debian", "fedora", "legacy", "linux", "opensuse", "oraclelinux",
            "rhel", "sles", "ubuntu", "windows"]
RELEASES = "v1.0, v1.1, v1.2, v1.3, v1.4, v1.5, v1.6, v1.7, v1.8, v1.9"


def context(build: Build | None = None) -> OutputContext:
    build = build or default_build()
    return OutputContext(build.catalog, build.version, build.objects, build.bundles, documents=build.documents)


@lru_cache(maxsize=None)
def gpu_build() -> Build:
    """The built-in catalog with a GPU device, so that it holds the GN series."""
    return generate(BuildOptions(gpu_device="nvidia.com/A400"))


def instancetype(name: str, spec: dict | None = None) -> CatalogObject:
    return CatalogObject("instancetype", name, name.partition(".")[0].rstrip("0123456789"), {}, {}, spec or {},
                         Location("series/x.yaml"))


def with_objects(*objects: CatalogObject) -> OutputContext:
    return dataclasses.replace(context(), objects=objects)


def string_list(names: list[str]) -> dict:
    return {"type": "array", "uniqueItems": True, "items": {"type": "string", "enum": names}}


# --------------------------------------------------------------------------- names


def test_series_are_named_by_prefix_and_by_versioned_name():
    names = _names(context())
    assert names["series"] == SERIES
    assert names["series_help"] == ["cx (cx1)", "d (d1)", "m (m1)", "n (n1)", "o (o1)", "rt (rt1)", "u (u1)"]


def test_a_series_with_several_versions_lists_them_all():
    names = _names(with_objects(instancetype("u2.small"), instancetype("u1.small"), instancetype("cx1.large")))
    assert names["series_help"] == ["cx (cx1)", "u (u1, u2)"]
    assert names["series"] == ["cx", "cx1", "u", "u1", "u2"]
    assert names["sizes"] == ["small", "large"]


def test_a_name_is_cut_at_its_first_dot_as_the_chart_entries_are():
    """Series and size are what comes before and after the first dot, as `_entry` cuts them for the templates.

    Private helpers, tested on purpose: the order and descriptions of values.yaml (_size_order, _names, _describe)
    for sizes the catalog does not have.
    """
    names = _names(with_objects(instancetype("u1.2xlarge.v2")))
    assert (names["series"], names["sizes"]) == (["u", "u1"], ["2xlarge.v2"])
    assert names["series_help"] == ["u (u1)"]


def test_sizes_come_smallest_first_each_variant_right_after_its_size():
    assert _names(context())["sizes"] == SIZES


def test_preferences_are_named_by_name_and_by_family():
    ctx = context()
    names = _names(ctx)
    assert names["families"] == FAMILIES
    preferences = [o for o in ctx.objects if o.family == "preference"]
    assert names["preferences"] == sorted(set(FAMILIES) | {o.name for o in preferences})
    assert names["preferences"][:3] == ["alpine", "centos-stream", "centos.stream10"]
    assert "rhel" in names["preferences"] and "rhel.9" in names["preferences"]


def size_key(*sizes: str):
    """The size order of a catalog whose only size matrix lists ``sizes``.

    Private helpers, tested on purpose: the order and descriptions of values.yaml (_size_order, _names, _describe)
    for sizes the catalog does not have.
    """
    matrix = SizeMatrix("m", tuple(Size(name, 1, None, Location("series/sizes.yaml")) for name in sizes),
                        Location("series/sizes.yaml"))
    catalog = dataclasses.replace(default_build().catalog, matrices={"m": matrix})
    return _size_order(dataclasses.replace(context(), catalog=catalog))


def test_a_size_sorts_by_the_longest_size_it_starts_with_then_its_length_then_its_name():
    key = size_key("large", "large2", "xl")
    assert key("large") == (0, 5, "large")
    assert key("large2") == (1, 6, "large2")  # "large" fits too; the longest known name decides
    assert key("large2x") == (1, 7, "large2x")
    assert key("large1gi") == (0, 8, "large1gi")
    assert key("xl") == (2, 2, "xl")


def test_a_size_no_matrix_knows_comes_last():
    key = size_key("large", "xl")
    assert key("huge") == (2, 4, "huge")
    assert sorted(["huge", "xl", "large", "abc"], key=key) == ["large", "xl", "abc", "huge"]


def test_sizes_of_several_matrices_sort_by_their_first_place():
    key = size_key("small", "large", "small")
    assert key("small") == (0, 5, "small")


# --------------------------------------------------------------------------- gpu_device_name


def test_no_gpu_instancetype_means_no_gpu_device():
    assert gpu_device_name(context()) is None
    assert gpu_device_name(with_objects(instancetype("u1.small", {"gpus": []}))) is None
    assert gpu_device_name(with_objects(instancetype("u1.small", {"gpus": None}))) is None


def test_one_device_asked_for_by_every_gpu_is_the_gpu_device():
    ctx = with_objects(instancetype("gn1.small", {"gpus": [{"name": "a", "deviceName": "nvidia.com/X"}]}),
                       instancetype("gn1.large", {"gpus": [{"name": "a", "deviceName": "nvidia.com/X"},
                                                           "not a mapping"]}),
                       instancetype("u1.small"))
    assert gpu_device_name(ctx) == "nvidia.com/X"


def test_a_device_name_yaml_read_as_a_number_is_the_device_as_text():
    assert gpu_device_name(with_objects(instancetype("gn1.small", {"gpus": [{"deviceName": 7}]}))) == "7"


def test_several_devices_leave_the_gpu_device_empty():
    ctx = with_objects(instancetype("gn1.small", {"gpus": [{"deviceName": "nvidia.com/X"}]}),
                       instancetype("gn1.large", {"gpus": [{"deviceName": "nvidia.com/Y"}]}))
    assert gpu_device_name(ctx) == ""


def test_the_gpu_device_of_the_built_in_catalog_with_one_configured():
    assert gpu_device_name(context(gpu_build())) == "nvidia.com/A400"


# --------------------------------------------------------------------------- values_schema


def test_the_schema_is_draft_7_closed_and_titled():
    schema = values_schema(context())
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert schema["title"] == "Values of the common-instancetypes chart"
    assert (schema["type"], schema["additionalProperties"]) == ("object", False)
    assert list(schema["properties"]) == ["global", "kinds", "kubevirt", "instancetypes", "preferences", "vendor",
                                          "labels", "annotations", "keepDeprecated"]


def test_each_group_of_values_is_closed_and_requires_all_of_its_values():
    properties = values_schema(context())["properties"]
    assert properties["global"] == {"type": "object", "description": DESCRIPTIONS["global"]}
    for group, keys in {"kinds": ["cluster", "namespaced"], "kubevirt": ["version"],
                        "instancetypes": ["enabled", "excludeSeries", "excludeSizes", "series", "sizes"],
                        "preferences": ["enabled", "exclude", "include"]}.items():
        schema = properties[group]
        assert list(schema) == ["type", "additionalProperties", "required", "properties"], group
        assert (schema["type"], schema["additionalProperties"], schema["required"]) == ("object", False, keys)
        assert sorted(schema["properties"]) == keys


def test_booleans_and_the_kubevirt_version_are_typed():
    properties = values_schema(context())["properties"]
    for path in ("kinds.cluster", "kinds.namespaced", "instancetypes.enabled", "preferences.enabled"):
        group, key = path.split(".")
        assert properties[group]["properties"][key] == {"type": "boolean", "description": DESCRIPTIONS[path]}
    assert properties["keepDeprecated"] == {"type": "boolean", "description": DESCRIPTIONS["keepDeprecated"]}
    assert properties["kubevirt"]["properties"]["version"] == {
        "type": "string", "description": DESCRIPTIONS["kubevirt.version"].replace("{releases}", RELEASES)}


def test_name_lists_accept_only_the_names_the_catalog_has():
    ctx = context()
    properties = values_schema(ctx)["properties"]
    preferences = _names(ctx)["preferences"]
    expected = {"instancetypes": {"series": SERIES, "excludeSeries": SERIES, "sizes": SIZES, "excludeSizes": SIZES},
                "preferences": {"include": preferences, "exclude": preferences}}
    for group, lists in expected.items():
        for key, names in lists.items():
            schema = dict(properties[group]["properties"][key])
            assert schema.pop("description") == DESCRIPTIONS[f"{group}.{key}"]
            assert schema == string_list(names), key


def test_the_vendor_is_a_label_value_of_at_least_one_character():
    vendor = values_schema(context())["properties"]["vendor"]
    assert vendor == {"type": "string", "minLength": 1, "maxLength": 63, "pattern": LABEL_VALUE,
                      "description": DESCRIPTIONS["vendor"]}


def metadata_map(owned: list[str], key_pattern: str, value: dict, description: str) -> dict:
    return {
        "type": "object",
        "propertyNames": {"type": "string", "allOf": [{"pattern": key_pattern},
                                                      {"pattern": "^([^/]{1,253}/)?[^/]{1,63}$"}]},
        "properties": dict.fromkeys(owned, False),
        "patternProperties": {"^instancetype\\.kubevirt\\.io/": False},
        "additionalProperties": value,
        "description": description,
    }


def test_labels_take_label_keys_and_values_but_none_the_catalog_or_helm_owns():
    labels = values_schema(context())["properties"]["labels"]
    assert labels == metadata_map(["app.kubernetes.io/managed-by"], LABEL_KEY_PATTERN,
                                  {"type": "string", "maxLength": 63, "pattern": LABEL_VALUE},
                                  DESCRIPTIONS["labels"])


def test_annotations_take_keys_in_any_case_but_none_the_catalog_or_helm_owns():
    annotations = values_schema(context())["properties"]["annotations"]
    owned = sorted(["meta.helm.sh/release-name", "meta.helm.sh/release-namespace", *RESERVED_ANNOTATIONS])
    assert annotations == metadata_map(owned, "(?i)" + LABEL_KEY_PATTERN, {"type": "string"},
                                       DESCRIPTIONS["annotations"])
    assert list(annotations["properties"]) == owned
    assert owned[:3] == ["iconClass", "meta.helm.sh/release-name", "meta.helm.sh/release-namespace"]


def test_a_chart_without_gpu_instancetypes_has_no_gpu_value():
    assert "gpu" not in values_schema(context())["properties"]


def test_a_chart_with_one_gpu_device_requires_a_device_name():
    gpu = values_schema(context(gpu_build()))["properties"]["gpu"]
    assert gpu == {"type": "object", "additionalProperties": False, "required": ["deviceName"],
                   "properties": {"deviceName": {"type": "string", "minLength": 1,
                                                 "description": DESCRIPTIONS["gpu.deviceName"]}}}


def test_a_chart_with_several_gpu_devices_allows_an_empty_device_name():
    ctx = with_objects(instancetype("gn1.small", {"gpus": [{"deviceName": "nvidia.com/X"}]}),
                       instancetype("gn1.large", {"gpus": [{"deviceName": "nvidia.com/Y"}]}))
    gpu = values_schema(ctx)["properties"]["gpu"]
    assert gpu["properties"]["deviceName"] == {"type": "string", "minLength": 0,
                                               "description": DESCRIPTIONS["gpu.deviceName"]}


def test_the_gpu_series_is_a_name_of_a_chart_with_gpus():
    assert {"gn", "gn1"} <= set(values_schema(context(gpu_build()))["properties"]["instancetypes"]["properties"]
                                ["series"]["items"]["enum"])


def test_every_value_the_schema_describes_is_one_of_descriptions():
    # a chart with GPU instancetypes and the admission policy: every value there is
    schema = values_schema(dataclasses.replace(context(gpu_build()), policy=Policy({})))
    described = {}

    def walk(node: dict, prefix: str) -> None:
        for key, sub in node.get("properties", {}).items():
            if isinstance(sub, dict):
                if "description" in sub:
                    described[prefix + key] = sub["description"]
                walk(sub, prefix + key + ".")

    walk(schema, "")
    assert described == {path: text.replace("{releases}", RELEASES) for path, text in DESCRIPTIONS.items()}


def test_only_a_chart_built_with_the_policy_has_its_value():
    assert "policy" not in values_schema(context())["properties"]
    policy = values_schema(dataclasses.replace(context(), policy=Policy({}, "Deny")))["properties"]["policy"]
    assert policy["properties"]["retired"]["enum"] == ["Warn", "Deny"]
    assert policy["additionalProperties"] is False


def test_descriptions_name_the_releases_the_chart_serves():
    ctx = dataclasses.replace(context(), kubevirt=Release(1, 2))
    version = values_schema(ctx)["properties"]["kubevirt"]["properties"]["version"]
    assert version["description"].endswith("empty means the newest. Releases: v1.0, v1.1, v1.2.")


def test_describe_adds_descriptions_by_path_and_leaves_the_rest():
    schema = {"properties": {"kubevirt": {"properties": {"version": {}, "other": {}}}, "flag": False,
                             "vendor": {"type": "string"}, "none": {"properties": None}}}
    assert _describe(schema, ["a", "b"]) == {"properties": {
        "kubevirt": {"properties": {"version": {"description": DESCRIPTIONS["kubevirt.version"].replace(
            "{releases}", "a, b")}, "other": {}}},
        "flag": False, "vendor": {"type": "string", "description": DESCRIPTIONS["vendor"]},
        "none": {"properties": None}}}


def test_the_schema_file_is_the_schema_as_indented_sorted_json():
    ctx = context()
    assert chart_files(ctx)["values.schema.json"] == (json.dumps(values_schema(ctx), indent=2, sort_keys=True)
                                                      + "\n").encode()


# --------------------------------------------------------------------------- values.yaml


def test_the_default_values_select_everything_for_the_newest_release():
    values = yaml.safe_load(chart_files(context())["values.yaml"])
    assert values == {
        "kinds": {"cluster": True, "namespaced": True},
        "kubevirt": {"version": "v1.9"},
        "instancetypes": {"enabled": True, "series": [], "excludeSeries": [], "sizes": [], "excludeSizes": []},
        "preferences": {"enabled": True, "include": [], "exclude": []},
        "vendor": "kubevirt.io",
        "labels": {},
        "annotations": {},
        "keepDeprecated": True,
    }


def test_the_values_of_a_chart_with_gpus_name_the_device():
    values = yaml.safe_load(chart_files(context(gpu_build()))["values.yaml"])
    assert values["gpu"] == {"deviceName": "nvidia.com/A400"}


def test_the_values_file_lists_what_exists_in_comments():
    ctx = context()
    text = chart_files(ctx)["values.yaml"].decode()
    assert f"# Values of the common-instancetypes chart ({ctx.version}), generated by citgen." in text
    assert "# Releases: " + RELEASES + "\n" in text
    assert "  # Available: cx (cx1), d (d1), m (m1), n (n1), o (o1), rt (rt1), u (u1)\n" in text
    assert ("  # Families: alpine, centos-stream, cirros, debian, fedora, legacy, linux, opensuse, oraclelinux, rhel,"
            " sles,\n  #   ubuntu, windows\n") in text
    assert ("  # Available: nano, micro, small, medium, medium1gi, 2xmedium, large, large1gi, xlarge, xlarge1gi,"
            " 2xlarge,\n  #   2xlarge1gi, 4xlarge, 4xlarge1gi, 8xlarge, 8xlarge1gi\n") in text
    assert "# Keys under instancetype.kubevirt.io/ and the annotations" in text
    assert ("#   iconClass, openshift.io/display-name, openshift.io/documentation-url,\n"
            "#   openshift.io/provider-display-name, openshift.io/support-url, tags\n") in text


@pytest.mark.parametrize("release", ["v1.2", "v1.9"])
def test_the_default_kubevirt_version_is_the_build_s(release: str):
    ctx = dataclasses.replace(context(), kubevirt=Release.parse(release))
    assert yaml.safe_load(chart_files(ctx)["values.yaml"])["kubevirt"] == {"version": release}
