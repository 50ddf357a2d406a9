"""A description reaches its annotation exactly as its YAML scalar says.

The YAML source decides every line break: a literal block (``|``) keeps each line,
a folded block (``>``) joins lines with spaces and keeps blank lines as breaks,
and its chomping indicator decides the final line break. citgen keeps that text
byte for byte in the bundles, in the kustomize tree (built by real kustomize)
and in what Helm's own engine renders from the chart.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import assume, given
from hypothesis import strategies as st

from generator.cli import main
from generator.model import label
from generator.pipeline import Build, BuildOptions, generate
from generator.source.yamlsrc import UNCARRIED
from tests.helpers import kubectl, parse_stream

try:
    import helm_python
except ImportError:  # pragma: no cover - depends on the test environment
    helm_python = None

DESCRIPTION = label("description")
ALL = "common-instancetypes-all-bundle.yaml"
#: Everything of a series file but its description.
SERIES_REST = "prefix: t\nversion: 1\nclass: test\ndisplayName: Test\nicon: pficon-server\nratio: \"1:4\"\n"


def write_catalog(root: Path, series_description: str, preference_description: str) -> Path:
    """A catalog of one series of one size and one preference, each description written as given
    (the YAML text after ``description:``, style and all)."""
    (root / "series").mkdir(parents=True)
    (root / "preferences" / "traits").mkdir(parents=True)
    (root / "catalog.yaml").write_text("vendor: example.com\nversion: v1.0.0\n", encoding="utf-8")
    (root / "series" / "sizes.yaml").write_text("matrices:\n  standard:\n    large: 2\n", encoding="utf-8")
    (root / "series" / "t.yaml").write_text(f"description: {series_description}\n{SERIES_REST}",
                                            encoding="utf-8")
    (root / "preferences" / "traits" / "virtio-disk.yaml").write_text(
        "description: Virtio disks.\nspec:\n  devices:\n    preferredDiskBus: virtio\n", encoding="utf-8")
    indented = "\n".join("      " + line if line else line for line in preference_description.split("\n"))
    (root / "preferences" / "testos.yaml").write_text(
        "osType: linux\niconClass: icon-linux\ntraits: [virtio-disk]\npreferences:\n  testos:\n    displayName: Test OS\n"
        f"    description: {indented.lstrip()}\n", encoding="utf-8")
    return root


def annotations_in_bundle(build: Build) -> dict[tuple[str, str], str]:
    docs = parse_stream(build.files[ALL])
    return {(d["kind"], d["metadata"]["name"]): d["metadata"]["annotations"][DESCRIPTION] for d in docs}


def source_text(scalar: str) -> str:
    """What a YAML parser reads from ``description: <scalar>``: the expected annotation."""
    return yaml.safe_load(f"description: {scalar}\n")["description"]


STYLES = st.sampled_from([None, "'", '"', "|", ">"])


def write_dumped_catalog(root: Path, text: str, style: str | None, width: int) -> Path:
    """The same catalog, its series and preference files written by PyYAML with every scalar
    in ``style`` (where YAML allows it) and folded at ``width``."""
    write_catalog(root, "Replaced.", "Replaced.")

    def dump(data: dict) -> str:
        return yaml.safe_dump(data, default_style=style, width=width, allow_unicode=True, sort_keys=False)

    (root / "series" / "t.yaml").write_text(dump({"description": text, **yaml.safe_load(SERIES_REST)}),
                                            encoding="utf-8")
    (root / "preferences" / "testos.yaml").write_text(dump({
        "osType": "linux", "iconClass": "icon-linux", "traits": ["virtio-disk"],
        "preferences": {"testos": {"displayName": "Test OS", "description": text}}}), encoding="utf-8")
    return root


@given(st.text(min_size=1, max_size=200), STYLES, st.sampled_from([20, 80, 1 << 16]))
def test_any_description_written_as_a_yaml_scalar_comes_out_byte_identical(tmp_path_factory, text, style, width):
    assume(text.strip())  # a blank description is refused
    assume(not UNCARRIED.search(text))  # and one the readers of the outputs cannot carry (test_text_carried.py)
    root = write_dumped_catalog(tmp_path_factory.mktemp("desc"), text, style, width)
    written = yaml.safe_load((root / "series" / "t.yaml").read_text(encoding="utf-8"))["description"]
    assume(written == text)  # what PyYAML writes it also reads back
    found = annotations_in_bundle(generate(BuildOptions(catalog=root)))
    assert len(found) == 4
    assert set(found.values()) == {text}


#: Descriptions as a person writes them in a source file, and the text each stands for.
CASES = {
    "literal-markdown": (
        "|\n"
        "  # Compute Exclusive\n"
        "\n"
        "  *CX* is the abbreviation of \"Compute Exclusive\".\n"
        "\n"
        "      indented code: a & b # not a comment\n"
        "  - a list item\n"
        "  Größe, 日本語, ελληνικά\n",
        "# Compute Exclusive\n\n*CX* is the abbreviation of \"Compute Exclusive\".\n\n"
        "    indented code: a & b # not a comment\n- a list item\nGröße, 日本語, ελληνικά\n"),
    "literal-strip": ("|-\n  first line\n  second line\n", "first line\nsecond line"),
    "folded-clip": (">\n  Shared vCPUs, folded\n  into one line.\n\n  A second paragraph.\n",
                    "Shared vCPUs, folded into one line.\nA second paragraph.\n"),
    "folded-strip": (">-\n  Shared, burstable vCPUs and memory that is fully backed by the host. The\n"
                     "  default choice for a workload without special needs.\n",
                     "Shared, burstable vCPUs and memory that is fully backed by the host. The default choice "
                     "for a workload without special needs."),
    "quotes-and-symbols": ("'It''s \"quoted\": #1 & *starred* &anchor-like !tag-like'",
                           "It's \"quoted\": #1 & *starred* &anchor-like !tag-like"),
    "double-quoted-escapes": ('"tab\\there, two  spaces, a line\\nbreak and \\u00e9"',
                              "tab\there, two  spaces, a line\nbreak and é"),
    "plain-non-ascii": ("Ünïcödé guests — 日本語 and ελληνικά, 100% * 2", "Ünïcödé guests — 日本語 and ελληνικά, 100% * 2"),
}


@pytest.fixture(scope="module")
def case_builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Build]]:
    out = {}
    for name, (scalar, _) in CASES.items():
        root = write_catalog(tmp_path_factory.mktemp(name), scalar, scalar)
        build = generate(BuildOptions(catalog=root))
        written = tmp_path_factory.mktemp(name + "-out")
        for path, data in build.files.items():
            (written / path).parent.mkdir(parents=True, exist_ok=True)
            (written / path).write_bytes(data)
        out[name] = (written, build)
    return out


@pytest.mark.parametrize("name", CASES)
def test_the_source_says_what_the_text_is(name: str):
    scalar, text = CASES[name]
    assert source_text(scalar) == text


@pytest.mark.parametrize("name", CASES)
def test_a_description_comes_out_of_the_bundle_as_written(case_builds: dict, name: str):
    found = annotations_in_bundle(case_builds[name][1])
    assert sorted(found) == [("VirtualMachineClusterInstancetype", "t1.large"),
                             ("VirtualMachineClusterPreference", "testos"),
                             ("VirtualMachineInstancetype", "t1.large"),
                             ("VirtualMachinePreference", "testos")]
    assert set(found.values()) == {CASES[name][1]}


@pytest.mark.parametrize("name", CASES)
def test_a_description_comes_out_of_kustomize_as_written(case_builds: dict, name: str):
    run = subprocess.run([kubectl(), "kustomize", str(case_builds[name][0] / "kustomize")],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    docs = [d for d in yaml.safe_load_all(run.stdout) if d]
    assert len(docs) == 4
    assert {d["metadata"]["annotations"][DESCRIPTION] for d in docs} == {CASES[name][1]}


@pytest.mark.parametrize("name", CASES)
def test_a_description_comes_out_of_helm_as_written(case_builds: dict, name: str):
    if helm_python is None:
        if os.environ.get("CI") == "true":
            pytest.fail("helm-python-sdk is required under CI")
        pytest.skip("helm-python-sdk is not installed")
    with helm_python.Chart.load(str(case_builds[name][0] / "helm" / "common-instancetypes")) as chart:
        rendered = chart.render({}, name="catalog", namespace="vms")
    manifests = [text for name, text in rendered.items() if not name.endswith("/NOTES.txt")]  # NOTES is prose
    docs: list[Any] = [d for text in manifests for d in yaml.safe_load_all(text) if d]
    assert len(docs) == 4
    assert {d["metadata"]["annotations"][DESCRIPTION] for d in docs} == {CASES[name][1]}


def test_a_blank_description_is_refused(tmp_path: Path):
    root = write_catalog(tmp_path / "c", "'   '", "Fine.")
    result = CliRunner().invoke(main, ["build", "--catalog", str(root), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "series/t.yaml:1:14: error: description: expected text that is not blank" in result.output
    assert not (tmp_path / "out").exists()
