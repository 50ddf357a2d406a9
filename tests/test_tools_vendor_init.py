"""`citgen init`: a vendor catalog that extends the built-in one, and what its overlay documents."""

from __future__ import annotations

from pathlib import Path

import yaml
from click.testing import CliRunner

from generator.cli.init import init
from generator.model import label
from generator.pipeline import BuildOptions, generate
from generator.source.formats import OVERLAY
from tests.helpers import default_build


def run_init(*args: str):
    return CliRunner().invoke(init, list(args))


def uncommented(overlay: Path) -> str:
    """The overlay with every example line switched on (``# `` lines; ``##`` lines explain)."""
    lines = overlay.read_text().splitlines()
    return "".join(line[2:] + "\n" for line in lines if line.startswith("# "))


def test_init_writes_a_catalog_that_builds_the_builtin_objects_under_the_vendors_label(tmp_path: Path):
    target = tmp_path / "acme"
    result = run_init(str(target), "--vendor", "acme.example.com")
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in target.iterdir()) == ["catalog.yaml", "overlay.yaml"]
    assert f"build it with: citgen build --catalog {target}" in result.output
    settings = yaml.safe_load((target / "catalog.yaml").read_text())
    assert settings == {"extends": "builtin", "vendor": "acme.example.com", "version": "v0.1.0-dev",
                        "overlays": ["overlay.yaml"]}
    assert yaml.safe_load((target / "overlay.yaml").read_text()) is None  # comments only

    build = generate(BuildOptions(catalog=target))
    assert build.problems == ()
    builtin = {o.name: o for o in default_build().objects}
    assert {o.name for o in build.objects} == set(builtin)
    for obj in build.objects:
        assert obj.spec == builtin[obj.name].spec
        assert obj.labels[label("vendor")] == "acme.example.com"
        assert obj.labels[label("common-instancetypes-version")] == "v0.1.0-dev"


def test_init_accepts_an_empty_directory(tmp_path: Path):
    assert run_init(str(tmp_path)).exit_code == 0
    assert (tmp_path / "overlay.yaml").is_file()


def test_init_refuses_a_directory_that_is_not_empty(tmp_path: Path):
    (tmp_path / "notes.txt").write_text("mine\n")
    result = run_init(str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr == (f"{tmp_path}: error: refusing to initialise a directory that is not empty; "
                             "choose a new or empty directory [input]\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_init_refuses_a_file_and_a_bad_vendor(tmp_path: Path):
    (tmp_path / "file").write_text("x")
    assert run_init(str(tmp_path / "file")).stderr == (f"{tmp_path / 'file'}: error: exists and is a regular file, "
                                                       "not a directory [input]\n")
    result = run_init(str(tmp_path / "new"), "--vendor", "acme corp")
    assert result.exit_code == 2
    assert result.stderr == ("--vendor: error: expected a vendor such as example.com: 'acme corp' is not a valid "
                             "label value: a valid label must be an empty string or consist of alphanumeric "
                             "characters, '-', '_' or '.', and must start and end with an alphanumeric character "
                             "[input]\n")
    assert not (tmp_path / "new").exists()


def test_the_empty_overlay_shows_every_key_and_each_example_works(tmp_path: Path):
    target = tmp_path / "acme"
    assert run_init(str(target)).exit_code == 0
    switched_on = uncommented(target / "overlay.yaml")
    data = yaml.safe_load(switched_on)
    assert sorted(data) == sorted(OVERLAY["properties"])
    # keep, the alternative to drop, is shown (commented twice) for series, sizes and preferences
    assert (target / "overlay.yaml").read_text().count("##  keep: [") == 3
    (target / "overlay.yaml").write_text(switched_on)

    build = generate(BuildOptions(catalog=target))
    assert build.problems == ()
    found = {o.name: o for o in build.objects}
    assert found["gn1.xlarge"].spec["gpus"][1] == {"name": "gpu2", "deviceName": "nvidia.com/L40S"}
    assert found["hm1.large"].spec["memory"]["guest"] == "128Gi"
    assert "rt1.large" not in found and "u1.8xlarge" not in found and "windows.xp" not in found
    assert found["cx1.large"].spec["memory"]["hugepages"] == {"pageSize": "1Gi"}
    assert found["fedora.desktop"].spec["devices"]["preferredAutoattachGraphicsDevice"] is True
    assert found["ubuntu"].annotations["openshift.io/display-name"] == "Ubuntu (supported by Example Cloud)"
    assert found["u1.large"].labels["example.com/catalog"] == "vendor"
