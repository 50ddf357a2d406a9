"""What a build for an older KubeVirt release does is the catalog's data: spellings and essential traits.

catalog.yaml's ``spellings`` say how older releases spelt a setting; a trait marked
``essential`` says its fields are what a preference is for. A vendor's catalog or
overlay states its own. These tests build copies of the built-in catalog with
``citgen build --kubevirt`` in this process and read what they wrote.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from generator.cli import main
from generator.load.catalog import load_catalog
from generator.model import OlderField, OlderValue
from generator.paths import builtin_catalog

from tests.helpers import copy_catalog, read_yaml_stream

ALL = "common-instancetypes-all-bundle.yaml"


def build(catalog: Path, out: Path, *args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(main, ["--format", "json", "build", "--catalog", str(catalog), "--out", str(out),
                                       *args])
    return result.exit_code, json.loads(result.output)


def objects(out: Path) -> dict[tuple[str, str], dict]:
    docs = read_yaml_stream(out / ALL)
    return {(d["kind"], d["metadata"]["name"]): d for d in docs}


def test_the_built_in_catalog_states_three_older_spellings():
    spellings = {".".join(s.field): s for s in load_catalog(builtin_catalog()).settings.spellings}
    assert list(spellings) == ["spec.firmware.preferredEfi", "spec.cpu.spreadOptions",
                               "spec.cpu.preferredCPUTopology"]
    assert spellings["spec.firmware.preferredEfi"].writes == (
        OlderField(("spec", "firmware", "preferredUseEfi"), value=True),
        OlderField(("spec", "firmware", "preferredUseSecureBoot"), source="secureBoot"))
    assert spellings["spec.cpu.spreadOptions"].when == {"across": ("SocketsCores", None)}
    assert spellings["spec.cpu.preferredCPUTopology"].values["spread"] == OlderValue("v1.4", "preferSpread")
    assert spellings["spec.cpu.preferredCPUTopology"].values["preferAny"] == OlderValue("v1.1")


def with_overlay(tmp_path: Path, text: str) -> Path:
    """A copy of the built-in catalog whose catalog.yaml applies an overlay of ``text``."""
    catalog = copy_catalog(tmp_path / "catalog")
    (catalog / "overlay.yaml").write_text(text, encoding="utf-8")
    settings = (catalog / "catalog.yaml").read_text(encoding="utf-8")
    (catalog / "catalog.yaml").write_text(settings + "overlays: [overlay.yaml]\n", encoding="utf-8")
    return catalog


def test_an_overlay_can_mark_a_trait_of_its_own_essential(tmp_path):
    catalog = with_overlay(tmp_path, 
        "traits:\n"
        "  add:\n"
        "    arm-only:\n"
        "      description: Only for arm64, and nothing without it.\n"
        "      essential: true\n"
        "      spec:\n"
        "        preferredArchitecture: arm64\n"
        "preferences:\n"
        "  change:\n"
        "    fedora.arm64:\n"
        "      addTraits: [arm-only]\n")
    code, report = build(catalog, tmp_path / "out", "--kubevirt", "v1.6")
    assert code == 0, report
    left_out = sorted({a["name"] for a in report["adjusted"] if a["action"] == "object left out"})
    assert left_out == ["fedora.arm64", "fedora.s390x.secex", "rhel.10.s390x.secex", "rhel.9.s390x.secex"]
    assert ("VirtualMachineClusterPreference", "fedora.arm64") not in objects(tmp_path / "out")
    # rhel.9.arm64 sets the same field through a trait that is not essential: only the field goes
    assert "preferredArchitecture" not in objects(tmp_path / "out")[
        ("VirtualMachineClusterPreference", "rhel.9.arm64")]["spec"]


def test_an_overlay_replaces_the_spelling_of_a_field(tmp_path):
    catalog = with_overlay(tmp_path, 
        "spellings:\n"
        "  - field: spec.firmware.preferredEfi   # this vendor's clusters want EFI without Secure Boot\n"
        "    as:\n"
        "      spec.firmware.preferredUseEfi: {value: true}\n"
        "      spec.firmware.preferredUseSecureBoot: {value: false}\n")
    code, report = build(catalog, tmp_path / "out", "--kubevirt", "v1.3")
    assert code == 0, report
    windows = objects(tmp_path / "out")[("VirtualMachineClusterPreference", "windows.11")]
    assert windows["spec"]["firmware"] == {"preferredUseEfi": True, "preferredUseSecureBoot": False}
    # the other spellings of catalog.yaml still hold
    assert windows["spec"]["cpu"]["preferredCPUTopology"] == "preferCores"


def test_a_catalog_without_spellings_leaves_the_fields_out(tmp_path):
    catalog = copy_catalog(tmp_path / "catalog")
    text = (catalog / "catalog.yaml").read_text(encoding="utf-8")
    (catalog / "catalog.yaml").write_text(text[:text.index("\n# How older KubeVirt releases")] + "\n",
                                          encoding="utf-8")
    code, report = build(catalog, tmp_path / "out", "--kubevirt", "v1.3")
    assert code == 0, report
    windows = objects(tmp_path / "out")[("VirtualMachineClusterPreference", "windows.11")]
    assert "firmware" not in windows["spec"] or "preferredEfi" not in windows["spec"]["firmware"]
    assert {"family": "preference", "name": "windows.11", "field": "spec.firmware.preferredEfi",
            "action": "left out", "since": "v1.4", "writtenAs": None} in report["adjusted"]


def test_a_spelling_that_breaks_its_format_is_refused_at_its_line(tmp_path):
    catalog = copy_catalog(tmp_path / "catalog")
    text = (catalog / "catalog.yaml").read_text(encoding="utf-8")
    (catalog / "catalog.yaml").write_text(
        text.replace("  - field: spec.firmware.preferredEfi\n", "  - field: firmware.preferredEfi\n"),
        encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "--catalog", str(catalog), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    line = text[:text.index("  - field: spec.firmware.preferredEfi")].count("\n") + 1
    assert f"catalog.yaml:{line}:12: error: spellings[0].field:" in result.output
    assert "expected a field path such as spec.firmware.preferredEfi" in result.output
    assert not (tmp_path / "out").exists()
