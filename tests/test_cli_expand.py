"""`citgen expand` through click's runner: output, refusals (exit 1), unusable input (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from generator.cli.expand import expand_command

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
    assert result.stderr == (
        f"error: {vm_file}:8:5: spec.instancetype: insufficient Memory resources of 128Mi provided by "
        "instance type, preference requires 512Mi [expand-memory]\n"
    )


def test_conflicts_keep_kubevirts_order() -> None:
    case = CASES / "conflicts"
    result = run(case / "vm.yaml", "--bundle", case / "bundle.yaml")
    assert result.exit_code == 1
    fields = [line.split(": ")[2] for line in result.stderr.splitlines()]
    assert fields == [line.split(": ")[0] for line in (case / "expected-errors.txt").read_text().splitlines()]


def test_a_missing_instancetype_is_input_error_naming_the_file(tmp_path: Path) -> None:
    vm_file = tmp_path / "vm.yaml"
    vm_file.write_text("apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: x}\n"
                       "spec:\n  instancetype:\n    name: huge\n  template:\n    spec: {}\n")
    case = CASES / "conflicts"
    result = run(vm_file, "--bundle", case / "bundle.yaml")
    assert result.exit_code == 2
    assert result.stderr == (f'error: {vm_file}:6:11: spec.instancetype.name: VirtualMachineClusterInstancetype '
                             f'"huge" not found (searched {case / "bundle.yaml"})\n')


@pytest.mark.parametrize(
    "text, message",
    [
        ("kind: [unclosed\n", None),
        ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n", "expected a kubevirt.io/v1 VirtualMachine, found v1 Pod"),
        ("- a list\n", "expected a VirtualMachine mapping"),
        ("apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nspec: {}\n", "the VirtualMachine has no spec.template"),
    ],
)
def test_unusable_vm_files_exit_2(tmp_path: Path, text: str, message: str | None) -> None:
    vm_file = tmp_path / "vm.yaml"
    vm_file.write_text(text)
    result = run(vm_file, "--bundle", CASES / "conflicts" / "bundle.yaml")
    assert result.exit_code == 2
    assert str(vm_file) in result.stderr
    if message:
        assert message in result.stderr
    assert "Traceback" not in result.output


def test_a_missing_bundle_exits_2(tmp_path: Path) -> None:
    result = run(CASES / "conflicts" / "vm.yaml", "--bundle", tmp_path / "absent.yaml")
    assert result.exit_code == 2
    assert f"{tmp_path / 'absent.yaml'}: file not found" in result.stderr


def test_without_bundles_the_catalogs_own_objects_are_used() -> None:
    result = run(CASES / "windows-11-u1-large" / "vm.yaml")
    assert result.exit_code == 0, result.output
    spec = yaml.safe_load(result.stdout)["spec"]["template"]["spec"]
    assert spec["domain"]["memory"]["guest"] == "8Gi"
    assert spec["domain"]["cpu"] == {"cores": 2, "sockets": 1, "threads": 1}


def test_refusals_point_at_the_line_that_causes_them(tmp_path: Path) -> None:
    case = CASES / "conflicts"
    lines = run(case / "vm.yaml", "--bundle", case / "bundle.yaml").stderr.splitlines()
    where = {line.split(": ")[2]: line.split(": ")[1] for line in lines}
    vm_file = case / "vm.yaml"
    assert where["annotations.cpu-quota.crio.io"] == f"{vm_file}:14:28"
    assert where["spec.template.spec.domain.cpu.dedicatedCPUPlacement"] == f"{vm_file}:22:34"

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
        f"error: {vm}:5:17: instancetype.spec.cpu.guest: 3 vCPUs provided by the instance type are not divisible "
        "by the Spec.PreferSpreadSocketToCoreRatio or Spec.CPU.PreferSpreadOptions.Ratio of 2 provided by the "
        "preference [expand-topology]\n")
