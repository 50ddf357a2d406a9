"""`citgen list`: browsing instancetypes and preferences, filtered like kubectl get -l."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.query import matches, parse_selector
from generator.errors import InputError
from generator.model import label


def names(*args: str) -> list[str]:
    result = CliRunner().invoke(main, ["list", "-o", "name", *args])
    assert result.exit_code == 0, result.output
    return result.output.split()


def test_a_label_selector_filters_like_kubectl():
    assert names("-l", "instancetype.kubevirt.io/cpu=32,class=general.purpose") == ["u1.8xlarge"]
    assert names("-l", "cpu=4,!hugepages,!dedicatedCPUPlacement") == ["o1.xlarge", "u1.xlarge"]
    assert names("-l", "hugepages in (1Gi),cpu=2") == ["cx1.large1gi", "m1.large1gi", "rt1.large"]


def test_series_vcpu_and_memory_filters():
    assert names("--series", "m", "--cpu", "2") == ["m1.large", "m1.large1gi"]
    assert names("--series", "u1", "--memory", "4096Mi") == ["u1.2xmedium", "u1.medium"]


def test_the_table_shows_class_vcpus_memory_and_features():
    result = CliRunner().invoke(main, ["list", "--series", "rt", "--cpu", "1"])
    assert result.output.splitlines() == [
        "NAME         CLASS      VCPUS   MEMORY   FEATURES",
        "rt1.medium   realtime   1       4Gi      dedicatedCPUPlacement,hugepages,isolateEmulatorThread,numa,realtime",
        "rt1.micro    realtime   1       1Gi      dedicatedCPUPlacement,hugepages,isolateEmulatorThread,numa,realtime",
        "rt1.small    realtime   1       2Gi      dedicatedCPUPlacement,hugepages,isolateEmulatorThread,numa,realtime",
    ]


def test_preferences_are_browsed_the_same_way():
    assert names("--preferences", "-l", "required-architecture=arm64") == ["fedora.arm64", "rhel.10.arm64",
                                                                           "rhel.9.arm64"]
    result = CliRunner().invoke(main, ["list", "--preferences", "--cpu", "8"])
    assert [line.split()[0] for line in result.output.splitlines()[1:]] == ["centos.stream9.dpdk", "rhel.8.dpdk",
                                                                            "rhel.9.dpdk"]


def test_a_bad_selector_or_memory_is_a_usage_error():
    result = CliRunner().invoke(main, ["list", "-l", "=4"])
    assert result.exit_code == 2 and "cannot read label selector '=4'" in result.output
    result = CliRunner().invoke(main, ["list", "--memory", "4GB"])
    assert result.exit_code == 2 and "--memory: '4GB' is not a Kubernetes quantity" in result.output


@pytest.mark.parametrize(
    ("selector", "labels", "expected"),
    [
        ("cpu!=4", {}, True),
        ("cpu!=4", {label("cpu"): "4"}, False),
        ("cpu notin (1,2)", {label("cpu"): "3"}, True),
        ("example.com/team", {"example.com/team": "a"}, True),
        ("!numa", {label("numa"): "true"}, False),
    ],
)
def test_selector_semantics(selector, labels, expected):
    assert matches(parse_selector(selector), labels) is expected


def test_selector_syntax_errors_say_what_is_expected():
    with pytest.raises(InputError, match="expected key=value, key!=value, key, !key"):
        parse_selector("cpu in 4")
