"""The opt-in OS labels (issue 42): off by default, listed from libosinfo's database, refused without one.

The labels are stamped in pipeline.catalog_objects (expand/stamp.py), so every command
that builds the catalog sees them: a build writes them, ``citgen list -l`` selects on them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import InputError
from generator.pipeline import BuildOptions, catalog_objects, generate
from tests.conftest import SHARED, shared_file
from tests.helpers import copy_catalog, default_build

DEBIAN = SHARED / "reference" / "osinfo-db"
OS = "os.template.kubevirt.io/"


def os_labels(objects, name: str) -> list[str]:
    found = next(o for o in objects if o.name == name and o.family == "preference")
    return sorted(key[len(OS):] for key in found.labels if key.startswith(OS))


def test_the_default_build_has_no_os_label():
    assert not any(key.startswith(OS) for o in default_build().objects for key in o.labels)


def test_with_os_labels_each_preference_is_labelled_with_the_releases_it_is_for(debian_osinfo_read_once):
    _, _, objects = catalog_objects(BuildOptions(os_labels=True, osinfo_db=shared_file(DEBIAN)))
    assert os_labels(objects, "rhel.9") == ["rhel9.0", "rhel9.1"]  # the line rhel9 as the 2022 database has it
    assert os_labels(objects, "rhel.9.desktop") == ["rhel9.0", "rhel9.1"]  # based on rhel.9: its claim
    assert os_labels(objects, "windows.2k19.virtio") == ["win2k19"]
    assert os_labels(objects, "fedora") == ["fedora36", "fedora37"]  # since: fedora36
    assert os_labels(objects, "legacy") == []  # it names no OS
    assert not any(key.startswith(OS) for o in objects if o.family == "instancetype" for key in o.labels)


def test_catalog_yaml_s_os_labels_turns_them_on_and_a_selector_finds_a_guest_s_preferences(tmp_path: Path,
                                                                                        debian_osinfo_read_once):
    catalog = copy_catalog(tmp_path / "catalog")
    with (catalog / "catalog.yaml").open("a", encoding="utf-8") as settings:
        settings.write("osLabels: true\n")
    result = CliRunner().invoke(main, ["list", "--catalog", str(catalog), "--preferences", "-o", "name",
                                       "-l", OS + "win2k19"], env={"OSINFO_SYSTEM_DIR": str(shared_file(DEBIAN))})
    assert result.exit_code == 0, result.output
    assert result.stdout == "windows.2k19\nwindows.2k19.virtio\n"


def test_without_a_database_a_line_s_labels_cannot_be_listed_and_the_build_is_refused(tmp_path: Path,
                                                                                     monkeypatch: pytest.MonkeyPatch):
    if Path("/etc/osinfo").exists():
        pytest.skip("this machine has /etc/osinfo, which libosinfo reads")
    monkeypatch.setenv("OSINFO_SYSTEM_DIR", str(tmp_path / "none"))
    monkeypatch.setenv("HOME", str(tmp_path))
    with pytest.raises(InputError) as refused:
        catalog_objects(BuildOptions(os_labels=True))
    (problem,) = refused.value.problems
    assert str(problem).startswith("--os-labels: osLabels: the OS labels of alpine, cirros, debian and 24 more list "
                                   "the releases of a line, which only libosinfo's database knows, and none was found "
                                   f"(looked in {tmp_path / 'none'}, /etc/osinfo, {tmp_path / '.config' / 'osinfo'})")


def test_a_build_with_os_labels_validates_clean(debian_osinfo_read_once):
    built = generate(BuildOptions(os_labels=True, osinfo_db=shared_file(DEBIAN)))
    assert built.problems == ()
    assert "os.template.kubevirt.io/win2k19: 'true'" in built.bundles["common-clusterpreferences-bundle.yaml"]
