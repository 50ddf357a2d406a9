"""GN is opt-in: built only with a GPU device, which must be an NVIDIA extended resource.

The default build is upstream's object set (tests/test_bundle_parity.py compares
it object by object); these tests check how GN is switched on, what a build says
when it is off, and that every way of naming a wrong device is refused with the
same words, exit status 2 and nothing written.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from generator.cli import main
from generator.model import label
from generator.pipeline import BuildOptions, generate
from tests.helpers import REPO, builtin_name, default_build, documented_yaml, osinfo_notes

LEFT_OUT = ("GN series left out: no GPU device configured; "
            "pass --gpu-device nvidia.com/<model> or set parameters.gpu.deviceName")
NOT_NVIDIA = ("'amd.com/gpu' is not an NVIDIA device: GN is the NVIDIA series and asks for devices under "
              "nvidia.com/; for another vendor's GPUs, add a series of your own in an overlay (series.add, "
              "with spec.gpus naming your device; see \"A GPU series of your own\" in docs/vendor-guide.md)")
EXPECTED_NAME = ("expected an extended resource name: a domain such as nvidia.com, '/', and at most 63 "
                 "letters, digits, '-', '_' or '.' starting and ending with a letter or digit "
                 "(such as nvidia.com/A400)")
COUNT_ALONE = ("sets how many GPUs each GN instancetype gets, but no GPU device is configured, so GN is "
               "not built; pass --gpu-device nvidia.com/<model> or set parameters.gpu.deviceName too")
COUNT_IN_A_FILE = ("sets how many GPUs each GN instancetype gets, but no GPU device is configured, so GN is "
                   "not built; set parameters.gpu.deviceName (nvidia.com/<model>) too")
GN = ["gn1.2xlarge", "gn1.4xlarge", "gn1.8xlarge", "gn1.xlarge"]


def build(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["build", "--catalog", "builtin", *args])
    return result.exit_code, result.output


def names(found_build, prefix: str) -> list[str]:
    return sorted({o.name for o in found_build.objects if o.name.startswith(prefix)})

#: What a build says of libosinfo's database on standard error, after the summary.
NOTES = "".join(f"{note}\n" for note in osinfo_notes())


def test_the_default_build_leaves_gn_out_and_says_how_to_get_it(tmp_path: Path):
    code, output = build("--out", str(tmp_path / "out"))
    assert code == 0
    assert output == (f"{builtin_name()}: wrote 111 files to {tmp_path / 'out'} (65 VirtualMachineClusterInstancetype, "
                      "57 VirtualMachineClusterPreference, 65 VirtualMachineInstancetype, "
                      f"57 VirtualMachinePreference); {LEFT_OUT}\n") + NOTES
    assert not list((tmp_path / "out").rglob("*gn*"))
    assert names(default_build(), "gn") == []


def test_a_gpu_device_builds_gn_and_the_summary_has_no_note(tmp_path: Path):
    code, output = build("--out", str(tmp_path / "out"), "--gpu-device", "nvidia.com/A400")
    assert code == 0
    assert output == (f"{builtin_name()}: wrote 115 files to {tmp_path / 'out'} (69 VirtualMachineClusterInstancetype, "
                      "57 VirtualMachineClusterPreference, 69 VirtualMachineInstancetype, "
                      "57 VirtualMachinePreference)\n") + NOTES
    assert (tmp_path / "out" / "kustomize" / "instancetypes" / "cluster" / "gn" / "kustomization.yaml").is_file()


@pytest.mark.parametrize("device, message", [
    ("amd.com/gpu", NOT_NVIDIA),
    ("", f"{EXPECTED_NAME}, got an empty name"),
    ("A400", f"{EXPECTED_NAME}, got 'A400'"),
    ("nvidia.com/", f"{EXPECTED_NAME}, got 'nvidia.com/'"),
    ("Nvidia.com/A400", f"{EXPECTED_NAME}, got 'Nvidia.com/A400'"),
    ("nvidia.com/A400 ", f"{EXPECTED_NAME}, got 'nvidia.com/A400 '"),
    ("nvidia.com/-A400", f"{EXPECTED_NAME}, got 'nvidia.com/-A400'"),
    ("nvidia.com/" + "a" * 64, f"{EXPECTED_NAME}, got 'nvidia.com/{'a' * 64}'"),
    ("nvidia..com/A400", f"{EXPECTED_NAME}, got 'nvidia..com/A400'"),
])
def test_a_device_that_is_not_an_nvidia_extended_resource_is_refused(tmp_path: Path, device: str, message: str):
    code, output = build("--out", str(tmp_path / "out"), "--gpu-device", device)
    assert (code, output) == (2, f"--gpu-device: error: {message} [input]\ncitgen: 1 problem, nothing written\n")
    assert not (tmp_path / "out").exists()


def test_the_longest_names_kubernetes_accepts_are_accepted():
    device = "nvidia.com/" + "A" * 63
    found = generate(BuildOptions(gpu_device=device))
    assert found.problems == ()
    assert found.objects and {g["deviceName"] for o in found.objects for g in o.spec.get("gpus", [])} == {device}


def test_a_gpu_count_without_a_device_is_refused(tmp_path: Path):
    code, output = build("--out", str(tmp_path / "out"), "--gpu-count", "2")
    assert (code, output) == (2, f"--gpu-count: error: {COUNT_ALONE} [input]\ncitgen: 1 problem, nothing written\n")
    assert not (tmp_path / "out").exists()


def vendor_catalog(root: Path, catalog: str, overlay: str | None = None) -> Path:
    root.mkdir()
    (root / "catalog.yaml").write_text(textwrap.dedent(catalog))
    if overlay is not None:
        (root / "overlay.yaml").write_text(textwrap.dedent(overlay))
    return root


def test_a_non_nvidia_device_in_catalog_yaml_is_refused_at_its_line(tmp_path: Path):
    root = vendor_catalog(tmp_path / "acme", """\
        extends: builtin
        vendor: acme.example.com
        parameters:
          gpu:
            deviceName: amd.com/gpu
        """)
    code, output = build("--catalog", str(root), "--out", str(tmp_path / "out"))
    assert (code, output) == (2, f"catalog.yaml:5:17: error: parameters.gpu.deviceName: {NOT_NVIDIA} [input]\n"
                                 "citgen: 1 problem, nothing written\n")
    assert not (tmp_path / "out").exists()


def test_a_count_without_a_device_in_catalog_yaml_is_refused_at_its_line(tmp_path: Path):
    root = vendor_catalog(tmp_path / "acme", """\
        extends: builtin
        parameters:
          gpu:
            count: 2
        """)
    code, output = build("--catalog", str(root), "--out", str(tmp_path / "out"))
    assert (code, output) == (2, f"catalog.yaml:3:3: error: parameters.gpu: {COUNT_IN_A_FILE} [input]\n"
                                 "citgen: 1 problem, nothing written\n")


def test_a_device_in_catalog_yaml_builds_gn(tmp_path: Path):
    root = vendor_catalog(tmp_path / "acme", """\
        extends: builtin
        parameters:
          gpu: {deviceName: nvidia.com/L4}
        """)
    found = generate(BuildOptions(catalog=root))
    assert found.problems == () and found.left_out == ()
    assert names(found, "gn1.") == GN
    assert {g["deviceName"] for o in found.objects for g in o.spec.get("gpus", [])} == {"nvidia.com/L4"}


def test_overlay_devices_are_refused_at_the_overlay_line(tmp_path: Path):
    overlay = tmp_path / "o.yaml"
    overlay.write_text("labels: {example.com/team: vm}\nparameters:\n  gpu:\n    deviceName: amd.com/gpu\n")
    code, output = build("--overlay", str(overlay), "--out", str(tmp_path / "out"))
    assert (code, output) == (2, f"{overlay}:4:17: error: parameters.gpu.deviceName: {NOT_NVIDIA} [input]\n"
                                 "citgen: 1 problem, nothing written\n")
    overlay.write_text("parameters:\n  gpu:\n    count: 2\n")
    code, output = build("--overlay", str(overlay), "--out", str(tmp_path / "out"))
    assert (code, output) == (2, f"{overlay}:2:3: error: parameters.gpu: {COUNT_IN_A_FILE} [input]\n"
                                 "citgen: 1 problem, nothing written\n")
    assert not (tmp_path / "out").exists()


def test_the_vendor_guides_amd_series_builds_and_validates(tmp_path: Path):
    overlay = tmp_path / "amd.yaml"
    overlay.write_text(documented_yaml("vendor-guide.md", "### A GPU series of your own"))
    found = generate(BuildOptions(overlays=(overlay,)))
    assert found.problems == ()
    ga = {o.name: o for o in found.objects if o.name.startswith("ga1.")}
    assert sorted(ga) == ["ga1.2xlarge", "ga1.4xlarge", "ga1.8xlarge", "ga1.xlarge"]
    for obj in ga.values():
        assert obj.spec["gpus"] == [{"name": "gpu1", "deviceName": "amd.com/gpu"}]
        assert obj.labels[label("gpus")] == "true"
        assert obj.labels[label("class")] == "gpu.amd"
    assert names(found, "gn1.") == []  # GN still needs an NVIDIA device
    chart_values = yaml.safe_load(found.files["helm/common-instancetypes/values.yaml"])
    assert chart_values["gpu"] == {"deviceName": "amd.com/gpu"}


def test_the_gpu_cloud_example_configures_its_device():
    found = generate(BuildOptions(catalog=REPO / "examples" / "gpu-cloud"))
    assert found.left_out == ()
    assert names(found, "gn1.") == ["gn1.2xlarge", "gn1.4xlarge", "gn1.8xlarge"]


def test_the_gn_description_is_text_for_cluster_uis():
    found = generate(BuildOptions(gpu_device="nvidia.com/A400"))
    description = {o.name: o for o in found.objects}["gn1.xlarge"].annotations[label("description")]
    assert "NVIDIA GPUs" in description
    for build_words in ("--gpu", "parameters", "catalog.yaml", "citgen"):
        assert build_words not in description


def test_the_chart_of_the_default_build_offers_no_gpu_value():
    files = default_build().files
    values = yaml.safe_load(files["helm/common-instancetypes/values.yaml"])
    assert "gpu" not in values
    schema = yaml.safe_load(files["helm/common-instancetypes/values.schema.json"])
    assert "gpu" not in schema["properties"]
    assert not [s for s in schema["properties"]["instancetypes"]["properties"]["series"]["items"]["enum"]
                if s.startswith("gn")]
