"""--retain-from: objects an earlier release shipped stay available, marked deprecated."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from generator.cli import main
from generator.model import label
from generator.paths import builtin_catalog
from generator.pipeline import BuildOptions, generate
from generator.readme import tables
from tests.helpers import by_name, read_yaml_stream

OLD_SERIES = """\
prefix: legacy
version: 1
class: legacy.general
displayName: Legacy
description: A series an earlier release shipped and this one drops.
icon: pficon-server-group
ratio: "1:4"
sizes: [small, medium]
"""


def build(args: list[str]) -> None:
    result = CliRunner().invoke(main, ["build", *args])
    assert result.exit_code == 0, result.output


def old_release(tmp_path: Path) -> Path:
    """Build a catalog with one more series than the built-in one, as a past release."""
    catalog = tmp_path / "old-catalog"
    shutil.copytree(builtin_catalog(), catalog, ignore=shutil.ignore_patterns("bundles", ".*"),
                    dirs_exist_ok=True)
    (catalog / "series" / "legacy.yaml").write_text(OLD_SERIES)
    build(["--catalog", str(catalog), "--out", str(tmp_path / "old"), "--version", "v1.0.0"])
    return tmp_path / "old" / "common-instancetypes-all-bundle.yaml"


def test_dropped_objects_are_carried_over_deprecated_and_otherwise_unchanged(tmp_path):
    old_bundle = old_release(tmp_path)
    build(["--out", str(tmp_path / "new"), "--retain-from", str(old_bundle)])
    old = read_yaml_stream(old_bundle)
    new = read_yaml_stream(tmp_path / "new" / "common-instancetypes-all-bundle.yaml")
    for kind in ("VirtualMachineClusterInstancetype", "VirtualMachineInstancetype"):
        old_objects, new_objects = by_name(old, kind), by_name(new, kind)
        for name in ("legacy1.small", "legacy1.medium"):
            carried = new_objects[name]
            assert carried["metadata"]["labels"].pop(label("deprecated")) == "true"
            assert carried == old_objects[name]
        # objects the catalog still defines come from the catalog, once, at the new version
        assert new_objects["u1.small"]["metadata"]["labels"][label("common-instancetypes-version")] != "v1.0.0"
        assert [d["metadata"]["name"] for d in new if d["kind"] == kind].count("u1.small") == 1


def test_retained_objects_know_their_size_but_stay_out_of_the_readme_tables(tmp_path):
    build_result = generate(BuildOptions(retain_from=(old_release(tmp_path),)))
    retained = {o.name: o for o in build_result.objects if o.facts.get("retained")}
    assert sorted(retained) == ["legacy1.medium", "legacy1.small"]
    assert retained["legacy1.small"].facts["cpu"] == 1
    assert retained["legacy1.small"].facts["memory"] == 2 * 1024**3
    assert "legacy1" not in tables(build_result.objects)["instancetypes"]


def test_an_old_bundle_that_is_not_a_catalog_bundle_is_refused(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
    result = CliRunner().invoke(main, ["build", "--out", str(tmp_path / "out"), "--retain-from", str(bad)])
    assert result.exit_code == 2
    assert f"{bad}#0 (x) $.kind: expected one of the kinds" in result.output
    assert not (tmp_path / "out").exists()
