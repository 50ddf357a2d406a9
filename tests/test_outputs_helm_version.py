"""The chart version (outputs/helm.py `chart_version`): a catalog version made SemVer 2, case by case.

Helm refuses a chart whose version is not SemVer 2; a catalog version is a tag as
a project writes it (``v1.8.0-dev``). Each case states what is dropped, filled in
or turned into a pre-release, and `_identifiers`, which makes the pre-release
identifiers, is checked on its own edges: separators, leading zeros, characters
SemVer does not allow.
"""

from __future__ import annotations

import pytest

from generator.outputs.helm import _identifiers, chart_version


@pytest.mark.parametrize("version, semver", [
    ("1.8.0", "1.8.0"),  # already SemVer: unchanged
    ("v1.8.0", "1.8.0"),  # a leading v is dropped
    ("V1.8.0", "1.8.0"),  # in either case
    ("v1.8.0-dev", "1.8.0-dev"),
    ("v1.8.0-rc.1+build.5", "1.8.0-rc.1+build.5"),  # SemVer with build metadata stays as it is
])
def test_a_semver_version_keeps_all_but_its_leading_v(version: str, semver: str):
    assert chart_version(version) == semver


@pytest.mark.parametrize("version, semver", [
    ("v2", "2.0.0"),  # missing minor and patch become 0
    ("v1.8", "1.8.0"),
    ("007", "7.0.0"),  # numbers lose their leading zeros
    ("v01.02.03", "1.2.3"),
    ("v1.08", "1.8.0"),
])
def test_missing_numbers_become_zero_and_leading_zeros_go(version: str, semver: str):
    assert chart_version(version) == semver


@pytest.mark.parametrize("version, semver", [
    ("v1.8rc1", "1.8.0-rc1"),  # whatever follows the numbers is the pre-release
    ("1.2.3.4", "1.2.3-4"),  # a fourth number too
    ("v1.2.3-01", "1.2.3-1"),  # a numeric identifier loses its leading zero (SemVer refuses it)
    ("v1.2.3-rc.01+b", "1.2.3-rc.1.b"),  # not SemVer as written: its build metadata joins the pre-release
    ("1.2.3_foo bar", "1.2.3-foo-bar"),  # characters SemVer has no place for become hyphens
    ("v1.8.0-RC_1", "1.8.0-RC-1"),  # upper-case letters are SemVer's too
    ("v1.2.3-a..b", "1.2.3-a.b"),  # an empty identifier is dropped
])
def test_what_follows_the_numbers_becomes_the_pre_release(version: str, semver: str):
    assert chart_version(version) == semver


@pytest.mark.parametrize("version, semver", [
    ("v1.2-..", "1.2.0"),  # nothing usable after the numbers: no pre-release at all
    ("v1.2.3+", "1.2.3"),
    ("v1.2.3-\u00e9", "1.2.3"),
])
def test_a_pre_release_with_no_identifier_left_is_dropped(version: str, semver: str):
    assert chart_version(version) == semver


@pytest.mark.parametrize("version, semver", [
    ("main", "0.0.0-main"),
    ("x.y", "0.0.0-x.y"),
    ("", "0.0.0"),
    # The whole version, its v included, is the pre-release: "vv1" is not "v1".
    ("v", "0.0.0-v"),
    ("vv1", "0.0.0-vv1"),
])
def test_a_version_with_no_leading_number_is_a_pre_release_of_0_0_0(version: str, semver: str):
    assert chart_version(version) == semver


@pytest.mark.parametrize("text, identifiers", [
    ("a.b+c", ["a", "b", "c"]),  # dots and pluses separate identifiers
    ("-x_y-", ["x-y"]),  # other characters become one hyphen; hyphens at the ends go
    ("a b.c$$d", ["a-b", "c-d"]),
    ("007.0.00", ["7", "0", "0"]),  # numeric: no leading zeros, and zero stays "0"
    ("-01-", ["1"]),  # numeric once its hyphens are gone
    ("0a.00a", ["0a", "00a"]),  # alphanumeric identifiers keep their zeros
    ("X1.aX.-X-", ["X1", "aX", "X"]),  # only hyphens are stripped from the ends
    ("..", []),
    ("", []),
])
def test_identifiers(text: str, identifiers: list[str]):
    """Private helper, tested on purpose: _identifiers splits a version's prerelease as SemVer does, for versions no
    catalog uses.
    """
    assert _identifiers(text) == identifiers
