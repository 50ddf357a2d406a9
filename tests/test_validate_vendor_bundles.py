"""`citgen validate FILE` on a vendor's bundle needs no flags; --vendor and --catalog name what to expect.

Each vendor catalog (examples/edge, examples/gpu-cloud and one straight from
`citgen init`) is built with `citgen build` into a temporary directory, and its
all-bundle is validated as a user would: with no flags, with the wrong --vendor,
and against its own catalog with --catalog.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.cli.init import init
from generator.osinfo.discovery import NONE_FOUND
from tests.helpers import REPO

EXAMPLES = REPO / "examples"
ALL = "common-instancetypes-all-bundle.yaml"
VENDORS = {"edge": "edge.example.net", "gpu-cloud": "gpucloud.example.com", "init": "acme.example.com"}


@pytest.fixture(scope="module")
def bundles(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each vendor catalog's all-bundle as `citgen build` writes it, by catalog name."""
    root = tmp_path_factory.mktemp("vendors")
    catalogs = {"edge": EXAMPLES / "edge", "gpu-cloud": EXAMPLES / "gpu-cloud", "init": root / "acme"}
    made = CliRunner().invoke(init, [str(catalogs["init"]), "--vendor", VENDORS["init"]])
    assert made.exit_code == 0, made.output
    found = {}
    for name, catalog in catalogs.items():
        out = root / f"{name}-out"
        result = CliRunner().invoke(main, ["build", "--catalog", str(catalog), "--out", str(out)])
        assert result.exit_code == 0, result.output
        found[name] = out / ALL
    return found


def validate(*args: str):
    return CliRunner().invoke(main, ["validate", *map(str, args)])


def documents(path: Path) -> int:
    return path.read_text().count("\nkind: ")


@pytest.mark.parametrize("name", sorted(VENDORS))
def test_a_vendors_bundle_validates_clean_without_flags(name: str, bundles: dict[str, Path]):
    result = validate(bundles[name])
    assert (result.exit_code, result.output) == (0, f"no problems in {documents(bundles[name])} documents\n")


def test_objects_of_two_vendors_in_one_bundle_are_reported(bundles: dict[str, Path], tmp_path: Path):
    text = (bundles["edge"].parent / "common-clusterinstancetypes-bundle.yaml").read_text()
    mixed = tmp_path / "mixed.yaml"
    mixed.write_text(text.replace("instancetype.kubevirt.io/vendor: edge.example.net",
                                  "instancetype.kubevirt.io/vendor: gpucloud.example.com", 1))
    result = validate(mixed)
    assert result.output == (
        f"{mixed}:18:38: error: VirtualMachineClusterInstancetype o1.large $.metadata.labels['instancetype.kubevirt.io/vendor']: label "
        "instancetype.kubevirt.io/vendor is 'gpucloud.example.com', but 10 of 11 objects have 'edge.example.net': "
        "one bundle, one vendor (name the right one with --vendor or --catalog) [vendor-label]\n"
        "1 problem in 1 of 11 documents\n")
    assert result.exit_code == 1


def test_a_vendor_other_than_the_one_given_is_reported(bundles: dict[str, Path]):
    result = validate("--vendor", "kubevirt.io", bundles["edge"])
    lines = result.output.splitlines()
    assert lines[0] == (
        f"{bundles['edge']}:18:38: error: VirtualMachineClusterInstancetype o1.large $.metadata.labels['instancetype.kubevirt.io/vendor']: label "
        "instancetype.kubevirt.io/vendor is 'edge.example.net', expected 'kubevirt.io' [vendor-label]")
    assert lines[-1] == "38 problems in 38 of 38 documents"
    assert result.exit_code == 1


@pytest.mark.parametrize("name", ["edge", "gpu-cloud"])
def test_a_bundle_passes_against_its_own_catalog(name: str, bundles: dict[str, Path]):
    result = validate("--catalog", EXAMPLES / name, bundles[name])
    assert (result.exit_code, result.output) == (0, f"no problems in {documents(bundles[name])} documents\n")


def test_a_catalog_named_without_files_validates_its_own_output():
    result = validate("--catalog", EXAMPLES / "edge")
    assert (result.exit_code, result.output) == (  # conftest.py: no database where libosinfo looks
        0, f"catalog {EXAMPLES / 'edge'}/ v0.1.0-dev: no problems in 38 documents\n{NONE_FOUND}\n")


def test_against_another_catalog_the_vendor_is_that_catalogs(bundles: dict[str, Path]):
    result = validate("--catalog", EXAMPLES / "edge", bundles["gpu-cloud"])
    assert result.output.splitlines()[0] == (
        f"{bundles['gpu-cloud']}:23:38: error: VirtualMachineClusterInstancetype cx1.2xlarge $.metadata.labels['instancetype.kubevirt.io/vendor']: label "
        "instancetype.kubevirt.io/vendor is 'gpucloud.example.com', expected 'edge.example.net' [vendor-label]")
    assert result.exit_code == 1


def test_a_changed_ratio_is_held_to_the_builtin_one_only_when_the_bundle_claims_to_be_builtin(
        bundles: dict[str, Path]):
    # gpu-cloud's overlay gives gn1 8Gi per vCPU. Without --catalog its bundle is its own
    # vendor's and not ratio-checked; claimed as kubevirt.io's, the built-in 4Gi applies.
    claimed = validate("--vendor", "kubevirt.io", "--rule", "series-ratio", bundles["gpu-cloud"])
    assert claimed.output.splitlines()[0] == (
        f"{bundles['gpu-cloud']}:787:12: error: VirtualMachineClusterInstancetype gn1.2xlarge $.spec.memory.guest: 8 vCPUs with '64Gi' of memory break "
        "series gn1's ratio of 4Gi per vCPU (expected 32Gi), and 2xlarge is not a declared exception "
        "[series-ratio]")
    assert claimed.exit_code == 1
    unclaimed = validate("--rule", "series-ratio", bundles["gpu-cloud"])
    assert (unclaimed.exit_code, unclaimed.output) == (0, "no problems in 140 documents\n")


def test_a_catalog_that_is_not_one_is_unusable_input(bundles: dict[str, Path], tmp_path: Path):
    result = validate("--catalog", tmp_path / "nowhere", bundles["edge"])
    assert result.exit_code == 2
    assert result.output == (f"{tmp_path / 'nowhere'}: error: not a catalog directory: catalog.yaml is missing "
                             "[input]\n")


def test_a_releases_bundles_overlap_so_each_file_is_checked_on_its_own(bundles: dict[str, Path]):
    files = sorted(bundles["edge"].parent.glob("common-*.yaml"))
    assert len(files) == 5
    together = validate(*files)
    assert together.exit_code == 1  # the all-bundle holds every object of the other four
    assert {line.rsplit("[", 1)[-1] for line in together.stdout.splitlines()[:-1]} == {"unique-names]"}
    each = validate("--each-file", *files)
    assert (each.exit_code, each.stdout) == (0, f"no problems in {sum(documents(f) for f in files)} documents\n")
    broken = files[0].parent / "broken.yaml"
    broken.write_text(files[0].read_text().replace("guest: 1\n", "guest: one\n", 1))
    found = validate("--each-file", broken, *files)
    assert found.exit_code == 1
    assert all(line.startswith(f"{broken}:") for line in found.stdout.splitlines()[:-1])
