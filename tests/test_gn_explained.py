"""The GN series explained wherever its names are met: refs, expand and the upgrade report (load/gpu.py).

GN is built only with a GPU device. A VM naming gn1.xlarge was judged against a build
without one as if the name were a typo (refs suggested n1.xlarge), refused by expand as
not found, and called broken by the upgrade report; each now says why the name is
missing and how to build it, and takes --gpu-device (and --gpu-count) to judge
against the build that has it. `list` and `diff` are tested with their commands.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from generator.cli import main

WHY = ("gn1.xlarge belongs to the GN series, which is built only with a GPU device (--gpu-device nvidia.com/<model>, "
       "or parameters.gpu.deviceName in the catalog)")


@pytest.fixture
def vm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "vm.yaml"
    path.write_text(textwrap.dedent("""\
        apiVersion: kubevirt.io/v1
        kind: VirtualMachine
        metadata: {name: gpu-vm}
        spec:
          instancetype: {name: gn1.xlarge}
          preference: {name: fedora}
          template:
            spec:
              domain: {devices: {}}
        """))
    return path


def run(*args: object) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def test_refs_says_a_gn_name_needs_a_device_instead_of_suggesting_another_series(vm: Path):
    found = run("refs", vm, "--format", "json")
    assert found.exit_code == 1
    [problem] = json.loads(found.stdout)["problems"]
    assert problem["rule"] == "unknown-name" and problem["message"] == (
        f"names instancetype 'gn1.xlarge', which the built-in catalog does not have: {WHY}")
    assert "did you mean" not in problem["message"]


def test_refs_with_a_gpu_device_judges_against_the_build_that_has_gn(vm: Path):
    judged = run("refs", vm, "--gpu-device", "nvidia.com/L4", "--gpu-count", "2")
    assert judged.exit_code == 0 and judged.stdout.endswith("; 1 file read; nothing found\n")


def test_a_gpu_device_beside_a_bundle_is_refused_as_the_catalog_is(vm: Path, tmp_path: Path):
    bundle = tmp_path / "b.yaml"
    bundle.write_text("")
    refused = run("refs", vm, "--bundle", bundle, "--gpu-device", "nvidia.com/L4")
    assert refused.exit_code == 2 and "--gpu-device chooses a build, and --bundle names objects already built" \
        in refused.stderr


def test_expand_says_why_gn_is_not_found_and_expands_it_with_a_device(vm: Path):
    refused = run("expand", vm)  # the finding refs makes of the name, as expand reports unknown names
    assert refused.exit_code == 1
    assert (f"{vm}:5:24: error: VirtualMachine gpu-vm $.spec.instancetype.name: names instancetype 'gn1.xlarge', "
            f"which the built-in catalog does not have: {WHY} [unknown-name]\n") in refused.output
    expanded = run("expand", vm, "--gpu-device", "nvidia.com/L4", "-o", "json")
    assert expanded.exit_code == 0
    assert json.loads(expanded.stdout)["spec"]["template"]["spec"]["domain"]["devices"]["gpus"] == [
        {"deviceName": "nvidia.com/L4", "name": "gpu1"}]


def test_the_upgrade_from_a_build_with_gn_to_one_without_says_why_its_vms_lose_their_instancetype(
        vm: Path, tmp_path: Path):
    with_gpu = tmp_path / "gpu"
    assert run("build", "--catalog", "builtin", "--gpu-device", "nvidia.com/L4", "--out", with_gpu).exit_code == 0
    upgrade = run("refs", vm, "--from", with_gpu, "--format", "json")
    assert upgrade.exit_code == 1
    broken = json.loads(upgrade.stdout)["upgrade"]["breaks"]
    assert [(b["name"], b["what"]) for b in broken] == [("gn1.xlarge", f"the built-in catalog does not have it: {WHY}")]
    same = run("refs", vm, "--from", with_gpu, "--gpu-device", "nvidia.com/L4")
    assert same.exit_code == 0
