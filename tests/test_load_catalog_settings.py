"""catalog.yaml's settings: vendor, version, parameters, provider, overlays and spellings.

What a catalog leaves out comes from the defaults, or, for a catalog that extends
another, from the settings it inherits (``_settings``'s ``inherited``); the GPU device
and the overlays catalog.yaml names are checked where they are written.

Private helper, tested on purpose: _settings reads catalog.yaml's settings alone, with no catalog
folder around each case.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import InputError
from generator.load.catalog import DEFAULT_PROVIDER, _settings, load_catalog, spellings_of
from generator.model import OlderField, OlderValue, Settings, Spelling
from generator.problems import Location
from generator.source.yamlsrc import load_text

CATALOG = "vendor: example.com\nversion: v1\n"
PROVIDER = {"displayName": "Example", "documentationURL": "https://example.com/docs",
            "supportURL": "https://example.com/help"}
SPELLINGS = """\
spellings:
  - field: spec.firmware.preferredEfi
    as:
      spec.firmware.preferredUseEfi: {value: true}
      spec.firmware.preferredUseSecureBoot: {from: secureBoot}
  - when:
      across: [SocketsCores, null]
      ratio: [2, 4]
    field: spec.cpu.spreadOptions
    as:
      spec.preferSpreadSocketToCoreRatio: {from: ratio}
  - field: spec.cpu.preferredCPUTopology
    values:
      sockets: {since: v1.4, was: preferSockets}
      preferAny: {since: v1.1}
"""
NOT_NVIDIA = ("'amd.com/mi300' is not an NVIDIA device: GN is the NVIDIA series and asks for devices under "
              "nvidia.com/; for another vendor's GPUs, add a series of your own in an overlay (series.add, with "
              "spec.gpus naming your device; see \"A GPU series of your own\" in docs/vendor-guide.md)")
NO_DEVICE = ("sets how many GPUs each GN instancetype gets, but no GPU device is configured, so GN is not built; "
             "set parameters.gpu.deviceName (nvidia.com/<model>) too")
INHERITED = Settings(vendor="base.io", version="v9", parameters={"gpu": {"count": 2}, "other": 1},
                     provider={"displayName": "Base", "documentationURL": "d", "supportURL": "s"},
                     location=Location("base/catalog.yaml", 1, 1),
                     spellings=(Spelling(("spec", "x"), Location("base/catalog.yaml", 3, 5)),))


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A catalog with no series: settings are all that is loaded."""
    (tmp_path / "catalog" / "series").mkdir(parents=True)
    (tmp_path / "catalog" / "series" / "sizes.yaml").write_text("matrices:\n  standard:\n    one: 1\n")
    return tmp_path / "catalog"


def settings_of(root: Path, text: str) -> Settings:
    (root / "catalog.yaml").write_text(text)
    return load_catalog(root).settings


def problems_of(root: Path, text: str) -> list[str]:
    (root / "catalog.yaml").write_text(text)
    with pytest.raises(InputError) as caught:
        load_catalog(root)
    return [str(p) for p in caught.value.problems]


def doc(text: str):
    return load_text(text, "catalog.yaml")


# --------------------------------------------------------------------------- a catalog of its own


def test_a_catalog_with_only_vendor_and_version_takes_the_default_provider_and_nothing_else(root):
    assert settings_of(root, CATALOG) == Settings(
        vendor="example.com", version="v1", parameters={}, provider=DEFAULT_PROVIDER,
        location=Location("catalog.yaml", 1, 1, ()), overlays=(), spellings=())


def test_the_default_provider_is_kubevirt(root):
    assert settings_of(root, CATALOG).provider == {
        "displayName": "KubeVirt",
        "documentationURL": "https://github.com/kubevirt/common-instancetypes",
        "supportURL": "https://github.com/kubevirt/common-instancetypes/issues",
    }


def test_a_provider_replaces_the_default_one(root):
    text = CATALOG + "provider:\n" + "".join(f"  {k}: {v}\n" for k, v in PROVIDER.items())
    assert settings_of(root, text).provider == PROVIDER


def test_the_settings_are_located_at_the_top_of_catalog_yaml(root):
    assert settings_of(root, "# settings\n\n" + CATALOG).location == Location("catalog.yaml", 3, 1, ())


def test_a_gpu_device_is_a_parameter(root):
    text = CATALOG + "parameters:\n  gpu: {deviceName: nvidia.com/A400, count: 2}\n"
    assert settings_of(root, text).parameters == {"gpu": {"deviceName": "nvidia.com/A400", "count": 2}}


def test_empty_parameters_are_no_parameters(root):
    assert settings_of(root, CATALOG + "parameters: {}\n").parameters == {}


def test_overlays_are_joined_to_the_catalog_directory_in_their_order(root):
    (root / "b.yaml").write_text("{}\n")
    (root / "sub").mkdir()
    (root / "sub" / "a.yaml").write_text("{}\n")
    assert settings_of(root, CATALOG + "overlays: [b.yaml, sub/a.yaml]\n").overlays == (
        root / "b.yaml", root / "sub" / "a.yaml")


def test_without_a_catalog_directory_overlays_are_relative_to_the_working_directory():
    assert _settings(doc(CATALOG + "overlays: [b.yaml, sub/a.yaml]\n")).overlays == (Path("b.yaml"),
                                                                                     Path("sub/a.yaml"))


# --------------------------------------------------------------------------- spellings


def test_spellings_are_read_each_located_at_its_entry(root):
    assert settings_of(root, CATALOG + SPELLINGS).spellings == (
        Spelling(("spec", "firmware", "preferredEfi"), Location("catalog.yaml", 4, 5, ("spellings", 0)),
                 writes=(OlderField(("spec", "firmware", "preferredUseEfi"), True, None),
                         OlderField(("spec", "firmware", "preferredUseSecureBoot"), None, "secureBoot")),
                 when={}, values={}),
        Spelling(("spec", "cpu", "spreadOptions"), Location("catalog.yaml", 8, 5, ("spellings", 1)),
                 writes=(OlderField(("spec", "preferSpreadSocketToCoreRatio"), None, "ratio"),),
                 when={"across": ("SocketsCores", None), "ratio": (2, 4)}, values={}),
        Spelling(("spec", "cpu", "preferredCPUTopology"), Location("catalog.yaml", 14, 5, ("spellings", 2)),
                 writes=(), when={},
                 values={"sockets": OlderValue("v1.4", "preferSockets"), "preferAny": OlderValue("v1.1", None)}),
    )


def test_spellings_of_reads_an_overlay_the_same_way():
    found = spellings_of(load_text("spellings:\n  - field: spec.a\n    as: {spec.b: {value: 0}}\n", "o.yaml"))
    assert found == (Spelling(("spec", "a"), Location("o.yaml", 2, 5, ("spellings", 0)),
                              writes=(OlderField(("spec", "b"), 0, None),)),)


def test_the_parts_of_a_spelling_are_tuples():
    [spelling] = spellings_of(doc("spellings:\n  - field: spec.a\n    when: {x: [1]}\n"))
    assert type(spelling.field) is tuple
    assert type(spelling.when["x"]) is tuple
    assert type(spelling.writes) is tuple


def test_no_spellings_are_an_empty_tuple(root):
    assert settings_of(root, CATALOG + "spellings: []\n").spellings == ()


# --------------------------------------------------------------------------- settings inherited


def test_inherited_settings_fill_in_what_a_catalog_leaves_out():
    assert _settings(doc("extends: builtin\n"), Path("vendor"), INHERITED) == Settings(
        vendor="base.io", version="v9", parameters={"gpu": {"count": 2}, "other": 1}, provider=INHERITED.provider,
        location=Location("catalog.yaml", 1, 1, ()), overlays=(), spellings=INHERITED.spellings)


def test_a_catalog_vendor_and_version_win_over_inherited_ones():
    found = _settings(doc("vendor: example.com\nversion: v1\n"), Path("vendor"), INHERITED)
    assert (found.vendor, found.version) == ("example.com", "v1")


def test_a_catalog_vendor_alone_keeps_the_inherited_version():
    found = _settings(doc("vendor: example.com\n"), Path("vendor"), INHERITED)
    assert (found.vendor, found.version) == ("example.com", "v9")


def test_a_catalog_version_alone_keeps_the_inherited_vendor():
    found = _settings(doc("version: v1\n"), Path("vendor"), INHERITED)
    assert (found.vendor, found.version) == ("base.io", "v1")


def test_a_catalog_parameter_wins_over_the_inherited_one_of_the_same_name():
    found = _settings(doc("parameters:\n  gpu: {deviceName: nvidia.com/A400}\n"), Path("vendor"), INHERITED)
    assert found.parameters == {"gpu": {"deviceName": "nvidia.com/A400"}, "other": 1}


def test_a_catalog_provider_entry_wins_over_the_inherited_one():
    found = _settings(doc("provider: {displayName: Mine}\n"), Path("vendor"), INHERITED)
    assert found.provider == {"displayName": "Mine", "documentationURL": "d", "supportURL": "s"}


def test_a_provider_entry_of_a_catalog_of_its_own_is_merged_over_the_default():
    found = _settings(doc(CATALOG + "provider: {supportURL: https://example.com}\n"))
    assert found.provider == {**DEFAULT_PROVIDER, "supportURL": "https://example.com"}


def test_a_catalog_spellings_replace_the_inherited_ones():
    found = _settings(doc("spellings:\n  - field: spec.a\n    values: {v: {since: v1.2}}\n"), Path("vendor"),
                      INHERITED)
    assert found.spellings == (Spelling(("spec", "a"), Location("catalog.yaml", 2, 5, ("spellings", 0)),
                                        values={"v": OlderValue("v1.2")}),)


def test_empty_spellings_replace_the_inherited_ones():
    assert _settings(doc("spellings: []\n"), Path("vendor"), INHERITED).spellings == ()


def test_overlays_are_not_inherited():
    assert _settings(doc("overlays: [o.yaml]\n"), Path("vendor"), INHERITED).overlays == (Path("vendor/o.yaml"),)


# --------------------------------------------------------------------------- the GPU device


def test_a_gpu_count_without_a_device_is_refused_at_the_gpu_key(root):
    assert problems_of(root, CATALOG + "parameters:\n  gpu:\n    count: 2\n") == [
        f"catalog.yaml:4:3: parameters.gpu: {NO_DEVICE}"]


def test_a_gpu_device_of_another_vendor_is_refused_at_its_value(root):
    assert problems_of(root, CATALOG + "parameters:\n  gpu:\n    deviceName: amd.com/mi300\n") == [
        f"catalog.yaml:5:17: parameters.gpu.deviceName: {NOT_NVIDIA}"]


def test_a_gpu_device_that_is_no_resource_name_is_refused_at_its_value(root):
    assert problems_of(root, CATALOG + "parameters:\n  gpu: {count: 1, deviceName: A400}\n") == [
        "catalog.yaml:4:31: parameters.gpu.deviceName: expected an extended resource name: a domain such as "
        "nvidia.com, '/', and at most 63 letters, digits, '-', '_' or '.' starting and ending with a letter or "
        "digit (such as nvidia.com/A400), got 'A400'"]


# --------------------------------------------------------------------------- overlays named by catalog.yaml


NOT_INSIDE = ("is not inside the catalog directory; catalog.yaml names its overlays by a path inside the catalog, "
              "without '..' (an overlay elsewhere: --overlay)")


@pytest.mark.parametrize("name", ["/etc/o.yaml", "../o.yaml", "sub/../../o.yaml", "sub/../o.yaml", "sub\\o.yaml"])
def test_an_overlay_path_leaving_the_catalog_is_refused_before_it_is_looked_for(root, name):
    (root / "sub").mkdir()
    (root / "o.yaml").write_text("{}\n")
    (root / "sub\\o.yaml").write_text("{}\n")
    assert problems_of(root, CATALOG + f"overlays: ['{name}']\n") == [
        f"catalog.yaml:3:12: overlays[0]: overlay file {name!r} {NOT_INSIDE}"]


def test_an_overlay_name_with_two_dots_inside_a_file_name_is_inside_the_catalog(root):
    (root / "a..b.yaml").write_text("{}\n")
    assert settings_of(root, CATALOG + "overlays: [a..b.yaml]\n").overlays == (root / "a..b.yaml",)


def test_a_missing_overlay_is_refused_naming_the_catalog_directory(root):
    assert problems_of(root, CATALOG + "overlays: [gone.yaml]\n") == [
        f"catalog.yaml:3:12: overlays[0]: overlay file 'gone.yaml' not found in {root}"]


def test_each_refused_overlay_is_located_at_its_entry(root):
    (root / "here.yaml").write_text("{}\n")
    assert problems_of(root, CATALOG + "overlays:\n  - here.yaml\n  - gone.yaml\n  - /abs.yaml\n") == [
        f"catalog.yaml:5:5: overlays[1]: overlay file 'gone.yaml' not found in {root}",
        f"catalog.yaml:6:5: overlays[2]: overlay file '/abs.yaml' {NOT_INSIDE}",
    ]


def test_a_long_overlay_name_is_quoted_in_part(root):
    name = "o" * 70 + ".yaml"
    assert problems_of(root, CATALOG + f"overlays: [{name}]\n") == [
        f"catalog.yaml:3:12: overlays[0]: overlay file '{'o' * 60}... (15 more characters)' not found in {root}"]


def test_a_long_overlay_path_leaving_the_catalog_is_quoted_in_part(root):
    name = "/" + "o" * 70
    assert problems_of(root, CATALOG + f"overlays: ['{name}']\n") == [
        f"catalog.yaml:3:12: overlays[0]: overlay file '{name[:60]}... (11 more characters)' {NOT_INSIDE}"]


def test_an_overlay_that_links_out_of_the_catalog_is_refused(root, tmp_path):
    (tmp_path / "elsewhere.yaml").write_text("{}\n")
    (root / "o.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    assert problems_of(root, CATALOG + "overlays: [o.yaml]\n") == [
        "catalog.yaml:3:12: overlays[0]: overlay file 'o.yaml' is a symbolic link to a file outside the catalog "
        "directory; citgen reads only files inside the catalog"]


def test_an_overlay_that_links_to_a_file_inside_the_catalog_is_accepted(root):
    (root / "real.yaml").write_text("{}\n")
    (root / "o.yaml").symlink_to(root / "real.yaml")
    assert settings_of(root, CATALOG + "overlays: [o.yaml]\n").overlays == (root / "o.yaml",)


# --------------------------------------------------------------------------- the opt-in OS labels


def test_os_labels_are_off_unless_catalog_yaml_turns_them_on(root):
    assert settings_of(root, CATALOG).os_labels is False
    assert settings_of(root, CATALOG + "osLabels: true\n").os_labels is True


def test_os_labels_must_be_a_boolean(root):
    assert problems_of(root, CATALOG + "osLabels: yes please\n") == [
        "catalog.yaml:3:11: osLabels: expected true or false, got 'yes please'"]


def test_an_extending_catalog_inherits_the_os_labels_unless_it_sets_them():
    on = Settings(**{**INHERITED.__dict__, "os_labels": True})
    assert _settings(doc("extends: builtin\n"), Path("vendor"), on).os_labels is True
    assert _settings(doc("extends: builtin\nosLabels: false\n"), Path("vendor"), on).os_labels is False
