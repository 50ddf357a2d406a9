"""`citgen build` refuses values the API server would refuse in metadata, where they enter.

An option, a catalog file or an overlay whose value would become a bad label
key or value is refused with exit 2, naming the option or the file and line,
and nothing is written. What only shows in the rendered objects (a vendor's
template, an annotation grown too large) is caught by the object-metadata rule,
which every build runs.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.cli.init import init
from tests.helpers import REPO, copy_catalog, finding

VALUE = ("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and "
         "must start and end with an alphanumeric character")
NAME_PART = ("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
             "with an alphanumeric character")
STAMPED = "it is stamped as the label instancetype.kubevirt.io/common-instancetypes-version"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def build(*args: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(main, ["build", "--out", "out", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stderr.splitlines()


def vendor_catalog(overlay: str) -> Path:
    """A `citgen init` catalog in ./acme whose overlay.yaml is ``overlay``."""
    result = CliRunner().invoke(init, ["acme", "--vendor", "acme.example.com"])
    assert result.exit_code == 0, result.output
    (Path("acme") / "overlay.yaml").write_text(textwrap.dedent(overlay))
    return Path("acme")


def test_a_version_that_is_no_label_value_is_refused(here: Path):
    assert build("--version", "not a version") == (2, [
        finding(f"--version: 'not a version' is not a valid label value: {VALUE}; {STAMPED}"),
        "citgen: 1 problem, nothing written"])
    assert not (here / "out").exists()


def test_a_version_of_70_characters_is_refused(here: Path):
    version = "v1.0.0-" + "a" * 63
    assert len(version) == 70
    assert build("--version", version) == (2, [
        finding(f"--version: {version!r} is not a valid label value: must be no more than 63 characters; "
                f"{STAMPED}"),
        "citgen: 1 problem, nothing written"])
    assert not (here / "out").exists()


def test_a_release_keeps_its_own_form_and_must_also_fit_the_label(here: Path):
    release = "v1.0.0-" + "a" * 60
    assert build("--release", "1.0") == (2, [
        finding("--release: expected a release such as v1.2.3, got '1.0'"),
        "citgen: 1 problem, nothing written"])
    assert build("--release", release) == (2, [
        finding(f"--release: {release!r} is not a valid label value: must be no more than 63 characters; "
                f"without --version {STAMPED}"),
        "citgen: 1 problem, nothing written"])
    assert not (here / "out").exists()


def test_a_series_class_with_a_space_is_refused_at_its_line(here: Path):
    catalog = vendor_catalog("""\
        series:
          change:
            u:
              class: general purpose!
        """)
    assert build("--catalog", str(catalog)) == (2, [
        finding(f"acme/overlay.yaml:4:14: series.change.u.class: 'general purpose!' is not a valid label value: "
                f"{VALUE}"),
        "citgen: 1 problem, nothing written"])
    assert not (here / "out").exists()


def test_a_series_file_class_with_a_space_is_refused_at_its_line(here: Path):
    catalog = copy_catalog(here / "catalog")
    path = catalog / "series" / "u.yaml"
    text = path.read_text()
    assert "class: general.purpose\n" in text
    path.write_text(text.replace("class: general.purpose\n", "class: general purpose!\n"))
    line = text[:text.index("class: general.purpose")].count("\n") + 1
    assert build("--catalog", "catalog") == (2, [
        finding(f"series/u.yaml:{line}:8: class: 'general purpose!' is not a valid label value: {VALUE}"),
        "citgen: 1 problem, nothing written"])
    assert not (here / "out").exists()


def test_an_extra_label_key_with_a_space_is_refused_at_its_line(here: Path):
    catalog = vendor_catalog("""\
        labels:
          example.com/team: platform
          team example: platform
        """)
    assert build("--catalog", str(catalog)) == (2, [
        finding(f"acme/overlay.yaml:3:3: labels.team example: 'team example' is not a valid label key: {NAME_PART}; "
                "a key looks like example.com/team"),
        "citgen: 1 problem, nothing written"])
    assert not (here / "out").exists()


def test_an_extra_label_value_is_held_to_the_same_rule(here: Path):
    catalog = vendor_catalog("""\
        labels:
          example.com/team: -platform
        """)
    assert build("--catalog", str(catalog)) == (2, [
        finding(f"acme/overlay.yaml:2:21: labels.example.com/team: '-platform' is not a valid label value: {VALUE}"),
        "citgen: 1 problem, nothing written"])


def test_annotation_keys_are_qualified_names_in_any_case(here: Path):
    catalog = vendor_catalog("""\
        annotations:
          Example.com/Notes: upper case is fine in annotation keys
          example.com/a/b: two slashes are not
        """)
    assert build("--catalog", str(catalog)) == (2, [
        finding("acme/overlay.yaml:3:3: annotations.example.com/a/b: 'example.com/a/b' is not a valid annotation "
                "key: a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and "
                "end with an alphanumeric character, with an optional DNS subdomain prefix and '/' (e.g. "
                "'example.com/MyName'); a key looks like example.com/team"),
        "citgen: 1 problem, nothing written"])


def test_extra_annotations_over_256_kib_are_refused_at_the_overlay(here: Path):
    catalog = vendor_catalog(f"""\
        annotations:
          example.com/notes: {"x" * 262144}
        """)
    assert build("--catalog", str(catalog)) == (2, [
        finding("acme/overlay.yaml:1:1: annotations: annotations take 262161 bytes (keys and values together), "
                "more than the 262144 bytes (256 KiB) the API server allows on one object"),
        "citgen: 1 problem, nothing written"])


def test_what_only_the_rendered_objects_show_is_caught_by_the_rule(here: Path):
    # A vendor's template adds a label the API server refuses: no input check sees it,
    # the object-metadata rule that every build runs does.
    catalog = vendor_catalog("")
    (catalog / "templates").mkdir()
    template = (REPO / "templates" / "preference.yaml.j2").read_text()
    line = "  labels:{{ labels | yaml_block(4) }}\n"
    assert line in template
    (catalog / "templates" / "preference.yaml.j2").write_text(
        template.replace(line, line + "    team example: platform\n"))
    code, stderr = build("--catalog", str(catalog))
    assert code == 2
    # the document's index depends on how many instancetypes precede the preferences
    head, _, rest = stderr[0].partition(" (document ")
    assert head == "common-instancetypes-all-bundle.yaml: error: VirtualMachineClusterPreference alpine"
    index, _, rest = rest.partition(") ")
    assert index.isdigit() and rest == (
        "$.metadata.labels['team example']: 'team example' is not a valid label key: "
        f"{NAME_PART} (defined in preferences/alpine.yaml:9) [object-metadata]")
    assert stderr[-1] == "citgen: 114 problems, nothing written"  # 57 preferences, each of two kinds
    assert not (here / "out").exists()


def test_a_description_too_large_for_the_annotations_is_caught_by_the_rule(here: Path):
    catalog = vendor_catalog(f"""\
        annotations:
          acme.example.com/notes: {"y" * 200000}
        series:
          change:
            u:
              description: {"x" * 65536}
        """)
    # Each is allowed on its own; together they pass what one object may carry. The build's validation
    # finds it on the objects and blames it at the overlay line that shaped them.
    code, lines = build("--catalog", str(catalog))
    assert code == 2 and lines[-1] == "citgen: 1 problem, nothing written"
    where, severity = lines[0].split(": ")[:2]
    assert where.startswith("acme/overlay.yaml:") and severity == "error"
    assert lines[0].endswith("$.metadata.annotations: annotations take 265645 bytes (keys and values together), "
                             "more than the 262144 bytes (256 KiB) the API server allows on one object "
                             "[object-metadata]")


def test_a_description_longer_than_a_quarter_of_the_annotations_is_refused_at_its_line(here: Path):
    catalog = vendor_catalog(f"""\
        series:
          change:
            u:
              description: {"x" * 65537}
        """)
    code, lines = build("--catalog", str(catalog))
    assert code == 2
    assert lines[0].startswith("acme/overlay.yaml:4:20: error: series.change.u.description: expected text that "
                               "is not blank, at most 65536 characters")
    assert not (here / "out").exists()
