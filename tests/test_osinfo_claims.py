"""The OS each preference is for (issue 42): ``osinfo:`` read, inherited, and its names checked against a database.

The catalog files here are written into tmp_path; the database is Debian 12's copy of
osinfo-db in ../shared/reference/osinfo-db (skipped when absent, except under CI).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from generator.expand.preferences import build_preferences
from generator.model import OsinfoClaim
from generator.osinfo.claims import OsinfoContext, name_problems, newer_names, releases
from generator.problems import Location
from tests.conftest import SHARED, shared_file
from tests.helpers import read_debian_osinfo
from tests.helpers import default_build

PROVIDER = {"displayName": "KubeVirt", "documentationURL": "https://d", "supportURL": "https://s"}


@pytest.fixture(scope="module")
def debian():
    return read_debian_osinfo(shared_file(SHARED / "reference" / "osinfo-db"))[0]


def preferences(tmp_path: Path, text: str) -> dict[str, object]:
    """The preferences of one family file ``preferences/os.yaml``, built, by name."""
    path = tmp_path / "preferences" / "os.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return {o.name: o for o in build_preferences(tmp_path, provider=PROVIDER)}


FAMILY = """
    osType: linux
    iconClass: icon
    osinfo:
      accept: {rec-memory: the family's reason}
    preferences:
      rhel.9:
        displayName: RHEL 9
        description: d
        osinfo: {line: rhel9, accept: {min-cpu: its own reason}}
      rhel.9.desktop:
        basedOn: rhel.9
        description: d
        osinfo: {accept: {virtio-input: the desktop's reason}}
      win:
        displayName: Windows
        description: d
        osinfo: [win2k19, http://microsoft.com/win/2k22]
      bare:
        displayName: Bare
        description: d
    """


def test_a_claim_is_read_with_where_each_name_and_reason_is_written(tmp_path):
    claim = preferences(tmp_path, FAMILY)["win"].facts["osinfoClaim"]
    assert claim.short_ids == ("win2k19", "http://microsoft.com/win/2k22")
    assert claim.line is None
    assert claim.written_at == {"win2k19": Location("preferences/os.yaml", 17, 14, ("preferences", "win", "osinfo", 0)),
                                "http://microsoft.com/win/2k22": Location("preferences/os.yaml", 17, 23,
                                                                          ("preferences", "win", "osinfo", 1))}


def test_a_preference_takes_its_os_from_what_it_is_based_on_and_adds_the_reasons_of_each_layer(tmp_path):
    built = preferences(tmp_path, FAMILY)
    desktop = built["rhel.9.desktop"].facts["osinfoClaim"]
    assert (desktop.short_ids, desktop.line) == ((), "rhel9")
    assert desktop.accepted == {"rec-memory": "the family's reason", "min-cpu": "its own reason",
                                "virtio-input": "the desktop's reason"}
    assert built["rhel.9.desktop"].facts["osinfo"] == ()
    assert built["win"].facts["osinfo"] == ("win2k19", "http://microsoft.com/win/2k22")


def test_a_preference_whose_layers_name_no_os_has_no_claim(tmp_path):
    bare = preferences(tmp_path, FAMILY)["bare"]
    assert "osinfo" not in bare.facts and "osinfoClaim" not in bare.facts


def test_the_osinfo_key_changes_no_object(tmp_path):
    with_claim = preferences(tmp_path / "a", FAMILY)
    without = preferences(tmp_path / "b", "\n".join(line for line in FAMILY.splitlines() if "osinfo" not in line
                                                    and "accept: {rec" not in line))
    assert {n: (o.spec, o.labels, o.annotations) for n, o in with_claim.items()} == \
        {n: (o.spec, o.labels, o.annotations) for n, o in without.items()}


# --------------------------------------------------------------------------- against the database


def claim(*short_ids: str, line: str | None = None, since: str | None = None) -> OsinfoClaim:
    where = Location("preferences/os.yaml", 3, 11)
    written = {name: Location("preferences/os.yaml", 3, 11 + i) for i, name in enumerate(short_ids)}
    if line:
        written[line] = Location("preferences/os.yaml", 4, 11)
    if since:
        written[since] = Location("preferences/os.yaml", 5, 12)
    return OsinfoClaim(short_ids, line, {}, where, written, since=since)


def test_a_line_stands_for_its_releases_from_since_on(debian):
    assert [r.short_id for r in releases(claim(line="rhel9"), debian)] == ["rhel9.0", "rhel9.1"]
    assert [r.short_id for r in releases(claim(line="fedora", since="fedora35"), debian)] == \
        ["fedora35", "fedora36", "fedora37"]
    assert [r.short_id for r in releases(claim("win2k19", "http://microsoft.com/win/2k22"), debian)] == \
        ["win2k19", "win2k22"]


def test_an_unknown_short_id_is_an_error_at_its_place_with_the_nearest_ones(debian):
    [problem] = name_problems([claim("rhel9.1", "windows2k19")], debian)
    assert problem.severity == "error" and problem.rule == "osinfo"
    assert str(problem) == ("preferences/os.yaml:3:12: libosinfo OS 'windows2k19' is no OS of the osinfo database "
                            "20221203; did you mean win2k19? [osinfo]")


def test_a_release_newer_than_the_database_is_no_problem_but_named_as_not_judged(debian):
    newer = [claim("win2k25"), claim(line="rhel10"), claim("rhel9.1")]
    assert name_problems(newer, debian) == []
    assert newer_names(newer, debian) == ("rhel10", "win2k25")


def test_a_line_the_database_has_no_release_of_is_an_error_naming_the_nearest(debian):
    assert [str(p) for p in name_problems([claim(line="rhle9")], debian)] == [
        "preferences/os.yaml:4:11: line 'rhle9' holds no release of the osinfo database 20221203; did you mean "
        "rhl9? [osinfo]"]  # Red Hat Linux 9


def test_since_must_be_a_release_of_its_line(debian):
    [problem] = name_problems([claim(line="fedora", since="rhel9.1")], debian)
    assert str(problem) == ("preferences/os.yaml:5:12: since: 'rhel9.1' is no release of the line 'fedora' in the "
                            "osinfo database 20221203 [osinfo]")


def test_a_name_written_once_is_checked_once_however_many_preferences_inherit_it(debian):
    shared = claim("nosuchos1")
    assert len(name_problems([shared, shared, shared], debian)) == 1


def test_every_os_preference_of_the_built_in_catalog_names_its_os_and_the_database_knows_it_or_is_older(debian):
    context = OsinfoContext.of(debian, default_build().objects)
    assert context.without == ("legacy",)
    assert name_problems(context.claims.values(), debian) == []
    assert newer_names(context.claims.values(), debian) == ("centos-stream10", "ol9", "rhel10", "win2k25")
    assert context.note() == (
        f"osinfo: 56 preferences judged against the osinfo database 20221203 ({debian.path}); naming no OS: legacy; "
        "newer than the database, not judged: centos-stream10, ol9, rhel10, win2k25")
    assert {o.short_id for o in releases(context.claims["rhel.9.arm64"], debian)} == {"rhel9.0", "rhel9.1"}
