"""`citgen expand` through click's runner: output, refusals (exit 1, on standard error), unusable input (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from generator.cli.expand import MAX_OBJECT_BYTES, expand_command

CASES = Path(__file__).parent / "cases" / "expand"


def run(*args: str):
    return CliRunner().invoke(expand_command, [str(a) for a in args])


def test_prints_the_expanded_vm_as_yaml() -> None:
    case = CASES / "disk-bus-per-disk"
    result = run(case / "vm.yaml", "--bundle", case / "bundle.yaml")
    assert result.exit_code == 0, result.output
    assert yaml.safe_load(result.stdout) == yaml.safe_load((case / "expected.yaml").read_text())


def test_json_output() -> None:
    case = CASES / "interface-model"
    result = run(case / "vm.yaml", "--bundle", case / "bundle.yaml", "-o", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == yaml.safe_load((case / "expected.yaml").read_text())


def test_arch_option_sets_the_cluster_default(tmp_path: Path) -> None:
    case = CASES / "interface-model"
    result = run(case / "vm.yaml", "--bundle", case / "bundle.yaml", "--arch", "arm64")
    spec = yaml.safe_load(result.stdout)["spec"]["template"]["spec"]
    assert (spec["architecture"], spec["domain"]["machine"]["type"]) == ("arm64", "virt")


def test_refusal_exits_1_with_located_kubevirt_messages() -> None:
    case = CASES / "requirements-memory"
    result = run(case / "vm.yaml", "--bundle", case / "bundle.yaml")
    assert result.exit_code == 1
    vm_file = case / "vm.yaml"
    assert (result.stdout, result.stderr) == ("", (
        f"{vm_file}:8:5: error: VirtualMachine tiny $.spec.instancetype: insufficient Memory resources of 128Mi "
        "provided by instance type, preference requires 512Mi [requirements]\n"))


def test_conflicts_are_kubevirts_messages_in_the_order_of_the_file() -> None:
    case = CASES / "conflicts"
    result = run(case / "vm.yaml", "--bundle", case / "bundle.yaml")
    assert result.exit_code == 1
    # FILE:LINE:COL: error: VirtualMachine clash $.path: KubeVirt's message [rule], sorted as every report is
    lines = result.stderr.splitlines()
    places = [tuple(int(n) for n in line.split(": ", 1)[0].split(":")[1:3]) for line in lines]
    assert places == sorted(places)
    messages = [line.split(": ", 3)[3] for line in lines]
    assert sorted(messages) == sorted(f"{line.split(': ', 1)[1]} [expand-conflict]"
                                      for line in (case / "expected-errors.txt").read_text().splitlines())


def test_a_missing_instancetype_is_an_unknown_name_naming_the_bundle(tmp_path: Path) -> None:
    vm_file = tmp_path / "vm.yaml"
    vm_file.write_text("apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: x}\n"
                       "spec:\n  instancetype:\n    name: huge\n  template:\n    spec: {}\n")
    case = CASES / "conflicts"
    result = run(vm_file, "--bundle", case / "bundle.yaml")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (f"{vm_file}:6:11: error: VirtualMachine x $.spec.instancetype.name: VirtualMachine x "
                             f"names instancetype 'huge', which bundle {case / 'bundle.yaml'} does not have "
                             "[unknown-name]\n")


NO_VM = ": error: no VirtualMachine: the input holds {}; expected kubevirt.io/v1 VirtualMachines [input]"


@pytest.mark.parametrize(
    "text, code, said",
    [
        ("kind: [unclosed\n", 2,
         ":2:1: error: malformed YAML: did not find expected ',' or ']' (while parsing a flow sequence) [input]"),
        ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n", 2, NO_VM.format("Pod objects")),
        ("apiVersion: v1\nkind: VirtualMachine\nmetadata: {name: p}\n", 2, NO_VM.format("VirtualMachine objects")),
        ("kind: VirtualMachine\nmetadata: {name: p}\n", 2, NO_VM.format("VirtualMachine objects")),
        ("- a list\n", 2, NO_VM.format("no objects")),
        ("apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: p}\n", 1,
         ":1:1: error: VirtualMachine p: the VirtualMachine has no spec [expand-input]"),
        ("apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: p}\nspec: {}\n", 1,
         ":1:1: error: VirtualMachine p: the VirtualMachine has no spec.template [expand-input]"),
        ("apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nspec: {}\n", 1,
         ":1:1: error: VirtualMachine $.metadata: metadata must be a mapping holding at least the name "
         "[object-metadata]"),
    ],
)
def test_unusable_vm_files_are_refused_saying_why_in_the_file(tmp_path: Path, text: str, code: int,
                                                              said: str) -> None:
    """A file without a kubevirt.io VirtualMachine is unusable input (exit 2); a VM that cannot be expanded is
    refused as KubeVirt would refuse it (exit 1), beside the others."""
    vm_file = tmp_path / "vm.yaml"
    vm_file.write_text(text)
    result = run(vm_file, "--bundle", CASES / "conflicts" / "bundle.yaml")
    assert (result.exit_code, result.stdout, result.stderr) == (code, "", f"{vm_file}{said}\n")


def big_vm(tmp_path: Path, size: int) -> Path:
    """A VirtualMachine file of exactly ``size`` bytes as compact JSON, padded by an annotation of its template (the
    VM's own annotations may take 256 KiB: object-metadata)."""
    pad: dict = {"pad": ""}
    vm = {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine",
          "metadata": {"name": "big"}, "spec": {"template": {"metadata": {"annotations": pad}, "spec": {}}}}
    pad["pad"] = "x" * (size - len(json.dumps(vm, separators=(",", ":"))))
    path = tmp_path / f"vm-{size}.json"
    path.write_text(json.dumps(vm))
    return path


def test_a_vm_of_etcds_limit_is_read_and_one_byte_more_is_refused(tmp_path: Path) -> None:
    read = run(big_vm(tmp_path, MAX_OBJECT_BYTES), "--bundle", CASES / "conflicts" / "bundle.yaml")
    assert (read.exit_code, read.stderr) == (0, "")
    assert yaml.safe_load(read.stdout)["metadata"]["name"] == "big"
    over = big_vm(tmp_path, MAX_OBJECT_BYTES + 1)
    refused = run(over, "--bundle", CASES / "conflicts" / "bundle.yaml")
    assert (refused.exit_code, refused.stdout, refused.stderr) == (1, "", (
        f"{over}:1:1: error: VirtualMachine big: the VirtualMachine is 1572865 bytes as JSON; no API server stores an "
        "object over 1572864 bytes (1.5 MiB, etcd's limit on a request), so there is nothing to expand "
        "[object-metadata]\n"))


def test_a_missing_bundle_exits_2(tmp_path: Path) -> None:
    result = run(CASES / "conflicts" / "vm.yaml", "--bundle", tmp_path / "absent.yaml")
    assert result.exit_code == 2
    assert (result.stdout, result.stderr) == ("", f"{tmp_path / 'absent.yaml'}: error: no such file or folder [input]\n")


def test_without_bundles_the_catalogs_own_objects_are_used() -> None:
    result = run(CASES / "windows-11-u1-large" / "vm.yaml")
    assert result.exit_code == 0, result.output
    spec = yaml.safe_load(result.stdout)["spec"]["template"]["spec"]
    assert spec["domain"]["memory"]["guest"] == "8Gi"
    assert spec["domain"]["cpu"] == {"cores": 2, "sockets": 1, "threads": 1}


def test_refusals_point_at_the_line_that_causes_them(tmp_path: Path) -> None:
    case = CASES / "conflicts"
    lines = run(case / "vm.yaml", "--bundle", case / "bundle.yaml").stderr.splitlines()
    # FILE:LINE:COL: error: VirtualMachine clash $.path: message [rule]
    where = {line.split(": ")[2].rsplit(" ", 1)[1]: line.split(": ")[0] for line in lines}
    vm_file = case / "vm.yaml"
    assert where["$.spec.template.metadata.annotations['cpu-quota.crio.io']"] == f"{vm_file}:14:28"
    assert where["$.spec.template.spec.domain.cpu.dedicatedCpuPlacement"] == f"{vm_file}:22:34"

    bundle = tmp_path / "bundle.yaml"
    bundle.write_text(
        "kind: VirtualMachineClusterInstancetype\nmetadata: {name: three}\n"
        "spec: {cpu: {guest: 3}, memory: {guest: 1Gi}}\n---\n"
        "kind: VirtualMachineClusterPreference\nmetadata: {name: spread}\n"
        "spec: {cpu: {preferredCPUTopology: spread}}\n")
    vm = tmp_path / "vm.yaml"
    vm.write_text("apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: s}\nspec:\n"
                  "  instancetype: {name: three}\n  preference: {name: spread}\n  template: {spec: {}}\n")
    result = run(vm, "--bundle", bundle)
    assert result.exit_code == 1
    assert result.stderr == (
        f"{vm}:5:17: error: VirtualMachine s $.spec.instancetype: 3 vCPUs provided by the instance type are not divisible "
        "by the Spec.PreferSpreadSocketToCoreRatio or Spec.CPU.PreferSpreadOptions.Ratio of 2 provided by the "
        "preference [expand-topology]\n")


def test_an_unknown_instancetype_says_where_it_was_searched(tmp_path: Path) -> None:
    vm_file = tmp_path / "vm.yaml"
    vm_file.write_text("apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: x}\n"
                       "spec:\n  instancetype:\n    name: huge\n  template:\n    spec: {}\n")
    bundle = CASES / "conflicts" / "bundle.yaml"
    said = f"{vm_file}:6:11: error: VirtualMachine x $.spec.instancetype.name: VirtualMachine x names instancetype 'huge'"
    assert run(vm_file).stderr == f"{said}, which the built-in catalog does not have [unknown-name]\n"
    assert run(vm_file, "--bundle", bundle, "--bundle", bundle).stderr == (
        f"{said}, which bundles {bundle}, {bundle} does not have [unknown-name]\n")


FOUR_VCPUS = """\
kind: VirtualMachineClusterPreference
metadata: {name: four}
spec:
  cpu: {preferredCPUTopology: any}
  requirements: {cpu: {guest: 4}}
"""


def test_a_refusal_naming_several_fields_points_at_the_first(tmp_path: Path) -> None:
    (tmp_path / "bundle.yaml").write_text(FOUR_VCPUS)
    vm = tmp_path / "vm.yaml"
    vm.write_text("apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: v}\nspec:\n"
                  "  preference: {name: four}\n  template:\n    spec:\n      domain:\n        cpu:\n"
                  "          sockets: 1\n          cores: 1\n          threads: 1\n")
    result = run(vm, "--bundle", tmp_path / "bundle.yaml")
    cpu = "spec.template.spec.domain.cpu"
    assert (result.exit_code, result.stderr) == (1, (
        f"{vm}:11:18: error: VirtualMachine v $.{cpu}.cores: insufficient CPU resources of 1 vCPU "
        "provided by VirtualMachine, preference requires 4 vCPU provided as cores, sockets and threads [requirements]\n"))


def test_what_the_api_server_refuses_of_the_expanded_vm_is_located_at_the_key_or_the_value(tmp_path: Path) -> None:
    (tmp_path / "bundle.yaml").write_text(FOUR_VCPUS)
    vm = tmp_path / "vm.yaml"
    vm.write_text("apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: v}\nspec:\n"
                  "  preference: {name: four}\n  template:\n    spec:\n      domain:\n"
                  "        cpu: {sockets: 2, cores: 2, threads: 1}\n        bogus: 1\n        firmware:\n"
                  "          serial: 5\n")
    result = run(vm, "--bundle", tmp_path / "bundle.yaml")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", (
        f"{vm}:10:9: error: VirtualMachine v $.spec.template.spec.domain.bogus: unknown field 'bogus' (the API server "
        "refuses this VirtualMachine) [schema]\n"
        f"{vm}:12:19: error: VirtualMachine v $.spec.template.spec.domain.firmware.serial: expected string, got "
        "integer 5 (the API server refuses this VirtualMachine) [schema]\n"))
