"""generator/features.py: how each series feature flag is written into an instancetype's spec.

A flag that is on writes its piece (a flag that is off, ``false``, writes nothing);
hugepages and overcommitPercent write their value; maxSocketsMatchVCPUs takes the size's
vCPUs and gpus the device and count of parameters.gpu (one GPU unless a count is given).
Flags are applied in the table's order, beside what the spec already holds.
"""

from __future__ import annotations

from typing import Any

import pytest

from generator.features import DEFAULT_GPU_COUNT, FEATURES, Context, apply_features

CTX = Context(cpu=4, parameters={})


def spec_of(features: dict[str, Any], ctx: Context = CTX, spec: dict[str, Any] | None = None) -> dict[str, Any]:
    written: dict[str, Any] = {} if spec is None else spec
    apply_features(written, features, ctx)
    return written


def test_the_table_holds_every_flag_in_the_order_they_are_applied():
    assert list(FEATURES) == ["dedicatedCPUPlacement", "isolateEmulatorThread", "numa", "realtime",
                              "maxSocketsMatchVCPUs", "hugepages", "overcommitPercent", "gpus"]
    assert all(name == feature.name and feature.summary for name, feature in FEATURES.items())


def test_each_flag_s_value_in_a_series_file():
    schemas = {name: feature.schema for name, feature in FEATURES.items()}
    assert schemas["hugepages"] == {"enum": ["2Mi", "1Gi"]}
    assert schemas["overcommitPercent"] == {"type": "integer", "minimum": 1, "maximum": 100}
    assert {name for name, schema in schemas.items() if schema == {"type": "boolean"}} == {
        "dedicatedCPUPlacement", "isolateEmulatorThread", "numa", "realtime", "maxSocketsMatchVCPUs", "gpus"}


@pytest.mark.parametrize("name, spec", [
    ("dedicatedCPUPlacement", {"cpu": {"dedicatedCPUPlacement": True}}),
    ("isolateEmulatorThread", {"cpu": {"isolateEmulatorThread": True}}),
    ("numa", {"cpu": {"numa": {"guestMappingPassthrough": {}}}}),
    ("realtime", {"cpu": {"realtime": {}}}),
    ("maxSocketsMatchVCPUs", {"cpu": {"maxSockets": 4}}),
])
def test_a_flag_that_is_on_writes_its_piece_and_one_that_is_off_nothing(name: str, spec: dict[str, Any]):
    assert spec_of({name: True}) == spec
    assert spec_of({name: False}) == {}


def test_hugepages_and_overcommit_write_their_value():
    assert spec_of({"hugepages": "1Gi"}) == {"memory": {"hugepages": {"pageSize": "1Gi"}}}
    assert spec_of({"overcommitPercent": 10}) == {"memory": {"overcommitPercent": 10}}
    assert spec_of({"hugepages": "2Mi", "overcommitPercent": 50}) == {
        "memory": {"hugepages": {"pageSize": "2Mi"}, "overcommitPercent": 50}}


def test_max_sockets_is_the_size_s_vcpus():
    assert spec_of({"maxSocketsMatchVCPUs": True}, Context(cpu=16, parameters={})) == {"cpu": {"maxSockets": 16}}


def test_gpus_are_named_in_turn_for_the_device_one_unless_a_count_is_given():
    assert DEFAULT_GPU_COUNT == 1
    one = Context(cpu=4, parameters={"gpu": {"deviceName": "nvidia.com/A400"}})
    assert spec_of({"gpus": True}, one) == {"gpus": [{"name": "gpu1", "deviceName": "nvidia.com/A400"}]}
    two = Context(cpu=4, parameters={"gpu": {"deviceName": "nvidia.com/H100", "count": 2}})
    assert spec_of({"gpus": True}, two) == {"gpus": [{"name": "gpu1", "deviceName": "nvidia.com/H100"},
                                                     {"name": "gpu2", "deviceName": "nvidia.com/H100"}]}
    assert spec_of({"gpus": False}, two) == {}


def test_flags_are_written_beside_what_the_spec_holds_in_the_table_s_order():
    spec = spec_of({"numa": True, "dedicatedCPUPlacement": True, "hugepages": "1Gi"},
                   spec={"cpu": {"guest": 4}, "memory": {"guest": "8Gi"}})
    assert spec == {"cpu": {"guest": 4, "dedicatedCPUPlacement": True, "numa": {"guestMappingPassthrough": {}}},
                    "memory": {"guest": "8Gi", "hugepages": {"pageSize": "1Gi"}}}
    assert list(spec["cpu"]) == ["guest", "dedicatedCPUPlacement", "numa"]


def test_a_name_that_is_no_flag_writes_nothing():
    assert spec_of({"unknown": True, "Numa": True}) == {}
