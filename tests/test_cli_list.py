"""`citgen list`: browsing instancetypes and preferences, filtered like kubectl get -l."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.query import matches, parse_selector
from generator.errors import InputError
from generator.model import label
from tests.helpers import builtin_name, default_build

VERSION = default_build().version


def names(*args: str) -> list[str]:
    result = CliRunner().invoke(main, ["list", "-o", "name", *args])
    assert result.exit_code == 0, result.output
    return result.stdout.split()


def rows(result) -> list[str]:
    """The table's lines, without the blank line and the summary that end it (tested on their own below)."""
    lines = result.stdout.splitlines()
    assert lines[-2] == "" and " catalog " in f" {lines[-1]}", lines[-2:]
    return lines[:-2]


def test_the_table_ends_with_a_summary_naming_the_catalog_and_names_and_json_have_none(
        tmp_path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)  # in no catalog: the built-in one
    table = CliRunner().invoke(main, ["list", "--series", "u", "--cpu", "1"])
    assert table.stdout.splitlines()[-2:] == ["", f"{builtin_name()}: 4 instancetypes"] and table.stderr == ""
    named = CliRunner().invoke(main, ["list", "--series", "u", "--cpu", "1", "-o", "name"])
    assert (named.stdout, named.stderr) == ("u1.medium\nu1.micro\nu1.nano\nu1.small\n", "")
    records = json.loads(CliRunner().invoke(main, ["list", "--series", "u", "--cpu", "1", "--format", "json"]).stdout)
    assert (records["summary"], records["catalog"]) == (f"{builtin_name()}: 4 instancetypes",
                                                       {"path": None, "builtIn": True, "version": VERSION})


def test_a_label_selector_filters_like_kubectl():
    assert names("-l", "instancetype.kubevirt.io/cpu=32,class=general.purpose") == ["u1.8xlarge"]
    assert names("-l", "cpu=4,!hugepages,!dedicatedCPUPlacement") == ["o1.xlarge", "u1.xlarge"]
    assert names("-l", "hugepages in (1Gi),cpu=2") == ["cx1.large1gi", "m1.large1gi", "rt1.large"]


def test_series_vcpu_and_memory_filters():
    assert names("--series", "m", "--cpu", "2") == ["m1.large", "m1.large1gi"]
    assert names("--series", "u1", "--memory", "4096Mi") == ["u1.2xmedium", "u1.medium"]


def test_the_table_shows_class_vcpus_memory_features_and_the_oldest_kubevirt():
    result = CliRunner().invoke(main, ["list", "--series", "rt", "--cpu", "1"])
    features = "dedicatedCPUPlacement,hugepages,isolateEmulatorThread,numa,realtime"
    assert rows(result) == [
        "NAME         CLASS      VCPUS   MEMORY   FEATURES" + " " * 62 + "KUBEVIRT",
        f"rt1.medium   realtime   1       4Gi      {features}   v1.1",  # spec.annotations came in v1.1
        f"rt1.micro    realtime   1       1Gi      {features}   v1.1",
        f"rt1.small    realtime   1       2Gi      {features}   v1.1",
    ]


def kubevirt_column(*args: str) -> dict[str, str]:
    result = CliRunner().invoke(main, ["list", *args])
    assert result.exit_code == 0, result.output
    return {line.split()[0]: line.split()[-1] for line in rows(result)[1:]}


def test_the_oldest_kubevirt_is_the_release_of_the_newest_field_an_object_has():
    oldest = kubevirt_column("--preferences")
    assert oldest["windows.11.virtio"] == "v1.9"  # spec.devices.preferredVideoType
    assert oldest["fedora.s390x.secex"] == "v1.9"  # spec.preferredLaunchSecurity
    assert oldest["fedora.arm64"] == "v1.7"  # spec.preferredArchitecture
    assert oldest["windows.11"] == "v1.4"  # spec.firmware.preferredEfi
    assert oldest["alpine"] == "v1.1"  # spec.annotations
    assert kubevirt_column("--series", "cx")["cx1.large"] == "v1.3"  # spec.cpu.maxSockets


def test_list_kubevirt_shows_what_a_build_for_that_release_holds():
    oldest = kubevirt_column("--preferences", "--kubevirt", "v1.8")
    assert "fedora.s390x.secex" not in oldest  # its launch security is what it is for
    assert oldest["windows.11.virtio"] == "v1.4"  # preferredVideoType left out; preferredEfi kept
    assert set(kubevirt_column("--preferences", "--kubevirt", "v1.4").values()) == {"v1.1", "v1.3", "v1.4"}
    assert set(kubevirt_column("--preferences", "--kubevirt", "v1.0").values()) == {"v1.0"}


def test_list_kubevirt_json_records_carry_the_release_and_the_objects_as_built_for_it():
    result = CliRunner().invoke(main, ["list", "--preferences", "--kubevirt", "1.3", "-o", "json", "-l", "arch=arm64"])
    assert result.exit_code == 0
    records = json.loads(result.stdout)
    assert [r["name"] for r in records] == ["fedora.arm64", "rhel.10.arm64", "rhel.9.arm64"]
    for record in records:  # preferredArchitecture (v1.7) left out, and the label read off it
        assert record["kubevirt"] == "v1.1"
        assert "preferredArchitecture" not in record["spec"]
        assert label("preferred-architecture") not in record["labels"]
        assert record["labels"][label("arch")] == "arm64"


def test_an_unknown_kubevirt_release_is_refused_with_the_known_ones():
    result = CliRunner().invoke(main, ["list", "--kubevirt", "v2.0"])
    assert result.exit_code == 2
    assert "--kubevirt: error: 'v2.0' is a release citgen has no schemas for; expected one of v1.0, v1.1" in \
        result.output


def test_preferences_are_browsed_the_same_way():
    assert names("--preferences", "-l", "required-architecture=arm64") == ["fedora.arm64", "rhel.10.arm64",
                                                                           "rhel.9.arm64"]
    result = CliRunner().invoke(main, ["list", "--preferences", "--cpu", "8"])
    assert [line.split()[0] for line in rows(result)[1:]] == ["centos.stream9.dpdk", "rhel.8.dpdk",
                                                                            "rhel.9.dpdk"]


@pytest.mark.parametrize(("args", "table"), [
    (["--series", "legacy"], [
        "NAME     DISPLAY NAME   MIN VCPUS   MIN MEMORY   ARCH   KUBEVIRT",
        "legacy   Legacy Guest   -           -            -      v1.1"]),
    (["--cpu", "8"], [
        "NAME                  DISPLAY NAME                              MIN VCPUS   MIN MEMORY   ARCH    KUBEVIRT",
        "centos.stream9.dpdk   CentOS Stream 9                           8           1.5Gi        -       v1.3",
        "rhel.8.dpdk           Red Hat Enterprise Linux 8                8           1.5Gi        -       v1.3",
        "rhel.9.dpdk           Red Hat Enterprise Linux 9 DPDK (amd64)   8           1.5Gi        amd64   v1.7"]),
])
def test_the_preference_table_shows_what_each_requires_and_a_dash_for_what_it_does_not(args, table):
    result = CliRunner().invoke(main, ["list", "--preferences", *args])
    assert (result.exit_code, rows(result)) == (0, table)


def test_a_bad_selector_or_memory_is_a_usage_error():
    result = CliRunner().invoke(main, ["list", "-l", "=4"])
    assert result.exit_code == 2 and "cannot read label selector '=4'" in result.output
    result = CliRunner().invoke(main, ["list", "--memory", "4GB"])
    assert result.exit_code == 2 and "--memory: error: '4GB' is not a Kubernetes quantity" in result.output


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


# --------------------------------------------------------------------------- deprecations


DEPRECATING = """\
series:
  change:
    o1:
      deprecated: {since: v1.9.0, replacement: u1}
      deprecatedSizes: {nano: {replacement: u1.micro}, micro: true}
    u1:
      deprecatedSizes: {micro: {replacement: u1.small}}
preferences:
  change:
    cirros: {deprecated: true}
"""


@pytest.fixture
def vendor(tmp_path):
    """A catalog extending the built-in one whose overlay deprecates o1 (to u1), two sizes and cirros."""
    (tmp_path / "catalog.yaml").write_text("extends: builtin\noverlays: [o.yaml]\n")
    (tmp_path / "o.yaml").write_text(DEPRECATING)
    return str(tmp_path)


def test_the_table_shows_a_deprecated_column_only_when_something_listed_is_deprecated(vendor):
    result = CliRunner().invoke(main, ["list", "--catalog", vendor, "--series", "o1", "--series", "u1", "--cpu", "1",
                                       "--memory", "1Gi"])
    assert result.exit_code == 0, result.output
    assert rows(result) == [
        "NAME       CLASS             VCPUS   MEMORY   FEATURES   KUBEVIRT   DEPRECATED",
        "o1.micro   overcommitted     1       1Gi      -          v1.0       since v1.9.0, use u1.micro -> u1.small",
        "u1.micro   general.purpose   1       1Gi      -          v1.0       use u1.small",
    ]
    beside = CliRunner().invoke(main, ["list", "--catalog", vendor, "--series", "o1", "--series", "u1", "--cpu", "1",
                                       "--memory", "2Gi"])
    assert rows(beside) == [
        "NAME       CLASS             VCPUS   MEMORY   FEATURES   KUBEVIRT   DEPRECATED",
        "o1.small   overcommitted     1       2Gi      -          v1.0       since v1.9.0, use u1.small",
        "u1.small   general.purpose   1       2Gi      -          v1.0       -",
    ]
    assert "DEPRECATED" not in CliRunner().invoke(main, ["list", "--catalog", vendor, "--series", "u1",
                                                         "--cpu", "2"]).stdout
    assert "DEPRECATED" not in CliRunner().invoke(main, ["list"]).stdout


def test_a_deprecated_preference_that_says_nothing_more_is_marked_yes(vendor):
    result = CliRunner().invoke(main, ["list", "--catalog", vendor, "--preferences", "-l", "deprecated"])
    assert result.stdout.splitlines()[1].split()[0] == "cirros"
    assert result.stdout.splitlines()[1].split()[-1] == "yes"


def test_json_records_say_since_the_replacement_and_where_it_leads(vendor):
    result = CliRunner().invoke(main, ["list", "--catalog", vendor, "-o", "json", "--series", "o1", "--cpu", "1"])
    records = {r["name"]: r["deprecated"] for r in json.loads(result.stdout)}
    assert records == {
        "o1.medium": {"since": "v1.9.0", "replacement": "u1.medium", "chain": ["u1.medium"], "current": "u1.medium"},
        "o1.micro": {"since": "v1.9.0", "replacement": "u1.micro", "chain": ["u1.micro", "u1.small"],
                     "current": "u1.small"},
        "o1.nano": {"since": "v1.9.0", "replacement": "u1.micro", "chain": ["u1.micro", "u1.small"],
                    "current": "u1.small"},
        "o1.small": {"since": "v1.9.0", "replacement": "u1.small", "chain": ["u1.small"], "current": "u1.small"},
    }
    current = json.loads(CliRunner().invoke(main, ["list", "-o", "json", "--series", "u1", "--cpu", "8"]).stdout)
    assert [(r["name"], r["deprecated"]) for r in current] == [("u1.2xlarge", None)]


def test_an_object_with_a_field_no_kubevirt_release_has_shows_a_dash_for_the_oldest(tmp_path):
    """list builds without judging: a field of a vendor's own (a typo) is listed, and no release accepts it."""
    (tmp_path / "catalog.yaml").write_text("extends: builtin\noverlays: [o.yaml]\n")
    (tmp_path / "o.yaml").write_text("series:\n  change:\n    n:\n      spec:\n        bogusField: 1\n")
    result = CliRunner().invoke(main, ["list", "--catalog", str(tmp_path), "--series", "n", "--cpu", "4",
                                       "--memory", "8Gi"])
    assert (result.exit_code, rows(result)) == (0, [
        "NAME       CLASS     VCPUS   MEMORY   FEATURES                                                KUBEVIRT",
        "n1.large   network   4       8Gi      dedicatedCPUPlacement,hugepages,isolateEmulatorThread   -"])


# --------------------------------------------------------------------------- the GN series, built only with a device


def test_listing_gn_without_a_device_says_why_it_is_empty():
    """`list --series gn` printed an empty table and nothing else."""
    why = ("gn is the GN series, which is built only with a GPU device (--gpu-device nvidia.com/<model>, or "
           "parameters.gpu.deviceName in the catalog)")
    result = CliRunner().invoke(main, ["list", "--catalog", "builtin", "--series", "gn"])
    assert result.stdout == (
        f"NAME   CLASS   VCPUS   MEMORY   FEATURES   KUBEVIRT\n\n{builtin_name()}: 0 instancetypes; {why}\n")
    named = CliRunner().invoke(main, ["list", "--catalog", "builtin", "--series", "gn", "-o", "name"])
    assert (named.stdout, named.stderr) == ("", f"{builtin_name()}: 0 instancetypes; {why}\n")


def test_a_gpu_device_lists_gn_and_the_summary_says_nothing_of_it():
    result = CliRunner().invoke(main, ["list", "--series", "gn", "-o", "name", "--gpu-device", "nvidia.com/L4",
                                       "--gpu-count", "2"])
    assert (result.stdout.split(), result.stderr) == (["gn1.2xlarge", "gn1.4xlarge", "gn1.8xlarge", "gn1.xlarge"], "")
    assert CliRunner().invoke(main, ["list", "--series", "gn", "--gpu-device", "nvidia.com/L4"]).stdout.endswith(
        ": 4 instancetypes\n")
    records = json.loads(CliRunner().invoke(main, ["list", "--series", "gn", "--gpu-device", "nvidia.com/L4",
                                                   "--gpu-count", "2", "--format", "json"]).stdout)
    assert records["leftOut"] == [] and records["objects"][0]["spec"]["gpus"][0]["deviceName"] == "nvidia.com/L4"
    assert [g["name"] for g in records["objects"][0]["spec"]["gpus"]] == ["gpu1", "gpu2"]  # --gpu-count 2


def test_a_listing_of_every_series_names_the_series_left_out_and_one_of_others_does_not():
    every = CliRunner().invoke(main, ["list", "--cpu", "1"])
    assert every.stdout.endswith("; GN series left out: no GPU device configured; pass --gpu-device "
                                 "nvidia.com/<model> or set parameters.gpu.deviceName\n")
    assert json.loads(CliRunner().invoke(main, ["list", "--format", "json", "--cpu", "1"]).stdout)["leftOut"] == ["gn"]
    assert CliRunner().invoke(main, ["list", "--series", "u", "--cpu", "1"]).stdout.endswith(": 4 instancetypes\n")


def test_a_wrong_gpu_device_is_refused_as_build_refuses_it():
    result = CliRunner().invoke(main, ["list", "--gpu-device", "amd.com/gpu"])
    assert result.exit_code == 2 and result.stderr.startswith("--gpu-device: error: 'amd.com/gpu' is not an NVIDIA "
                                                              "device")
