"""Where libosinfo's database is found (osinfo/discovery.py): the option, its variable, then libosinfo's folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import InputError
from generator.osinfo.discovery import NONE_FOUND, OPTION, candidates, find_database
from generator.problems import Location
from tests.osinfodb import database


def test_the_option_comes_first_then_the_variable_then_the_folders_libosinfo_reads(tmp_path):
    given = tmp_path / "given"
    assert candidates(given, {"OSINFO_SYSTEM_DIR": "/opt/osinfo", "HOME": "/home/u"}) == [
        (given, OPTION), (Path("/opt/osinfo"), "OSINFO_SYSTEM_DIR"), (Path("/etc/osinfo"), "/etc/osinfo"),
        (Path("/home/u/.config/osinfo"), "~/.config/osinfo")]
    assert candidates(None, {})[0] == (Path("/usr/share/osinfo"), "/usr/share/osinfo")


def test_a_folder_without_os_is_passed_over_and_the_next_one_found(tmp_path):
    (tmp_path / "empty").mkdir()
    home = tmp_path / "home"
    db = database(home / ".config" / "osinfo", {})
    found = find_database(None, {"OSINFO_SYSTEM_DIR": str(tmp_path / "empty"), "HOME": str(home)})
    assert found in (db, Path("/etc/osinfo"))  # /etc/osinfo comes before the user's folder where it is a database


def test_the_option_must_name_a_database(tmp_path):
    assert find_database(database(tmp_path / "db", {}), {}) == tmp_path / "db"
    (tmp_path / "plain").mkdir()
    with pytest.raises(InputError) as refused:
        find_database(tmp_path / "plain", {})
    [problem] = refused.value.problems
    assert problem.location == Location(OPTION)
    assert "is no osinfo database: it holds no os/ folder" in problem.message
    with pytest.raises(InputError, match="is a regular file, not a directory"):
        find_database(tmp_path / "db" / "VERSION", {})


def test_no_database_anywhere_is_none_and_the_run_says_where_it_looked(tmp_path):
    assert find_database(None, {"OSINFO_SYSTEM_DIR": str(tmp_path / "absent"), "HOME": str(tmp_path)}) in (
        None, Path("/etc/osinfo"))  # /etc/osinfo is libosinfo's, and may hold one on the machine
    for named in ("--osinfo-db", "OSINFO_SYSTEM_DIR", "/usr/share/osinfo", "/etc/osinfo", "~/.config/osinfo"):
        assert named in NONE_FOUND
