"""generator/suggest.py: the names nearest an unknown one, by spelling and by the structure of catalog names.

The names here are the built-in catalog's (a part of them), so that each case reads as
the mistake it stands for; the sizes of the index (a set compared whole, and one
reached through its buckets) are both walked.
"""

from __future__ import annotations

import difflib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.suggest import BUCKET, SCAN_ALL, Index, Suggestions, did_you_mean, nearest

PREFERENCES = (
    "alpine", "centos.stream10", "centos.stream9", "centos.stream9.desktop", "centos.stream9.dpdk", "cirros",
    "fedora", "fedora.arm64", "fedora.s390x", "rhel.10", "rhel.7", "rhel.8", "rhel.9", "rhel.9.arm64",
    "rhel.9.desktop", "rhel.9.dpdk", "rhel.9.realtime", "rhel.9.s390x", "ubuntu", "windows.10", "windows.10.virtio",
    "windows.11", "windows.11.virtio", "windows.2k12", "windows.2k16", "windows.2k19", "windows.2k19.virtio",
    "windows.2k22", "windows.7", "windows.xp")
SERIES = ("cx1", "d1", "m1", "n1", "o1", "rt1", "u1")
SIZES = ("nano", "micro", "small", "medium", "large", "xlarge", "2xlarge")
INSTANCETYPES = tuple(f"{series}.{size}" for series in SERIES for size in SIZES)
#: Enough names that lookups go through the index rather than over every name.
MANY = tuple(f"filler-{number:04d}" for number in range(2 * SCAN_ALL))


def preference(name: str, context: str | None = None) -> Suggestions:
    return Index(PREFERENCES + MANY).structured(name, context=context)


def instancetype(name: str) -> tuple[str, ...]:
    return Index(INSTANCETYPES).structured(name).names


def test_an_unknown_variant_is_dropped_first_then_the_same_os_and_version_and_where_it_exists_is_said():
    found = preference("rhel.9.virtio")
    assert found.names[0] == "rhel.9" and all(name.startswith("rhel.9.") for name in found.names[1:])
    assert found.note == "'.virtio' names exist only for windows"


def test_a_last_part_spelt_like_a_known_one_comes_before_the_name_without_it():
    assert preference("fedora.arm").names[:2] == ("fedora.arm64", "fedora")


def test_a_bare_os_is_offered_its_versions_nearest_the_name_of_the_object_naming_it():
    assert preference("windows", context="windows-2019").names[0] == "windows.2k19"


def test_one_letter_away_comes_first():
    assert preference("fedoar").names[0] == "fedora"
    assert preference("rhel9").names[0] == "rhel.9"
    assert preference("windows.2019").names[0] == "windows.2k19"
    assert instancetype("n.medium")[0] == "n1.medium"
    assert instancetype("U1.medium")[0] == "u1.medium"


def test_a_bare_size_is_offered_the_names_that_have_it():
    assert set(instancetype("medium")) <= {f"{series}.medium" for series in SERIES}


def test_a_version_other_oses_have_is_no_variant_to_speak_of():
    assert preference("rhel.11").note is None
    assert preference("rhel.9.virtio.x").note == "'.virtio' names exist only for windows"


def test_a_name_nothing_is_like_has_no_suggestion():
    assert preference("zzzzzz") == Suggestions(())


@pytest.mark.parametrize("word", ["fedoar", "windos.11", "rhel.9.desktp", "alpin", "u1.smal", "xyz"])
def test_by_spelling_a_small_set_gives_what_difflib_gives(word):
    known = PREFERENCES + INSTANCETYPES[:10]
    assert len(set(known)) <= SCAN_ALL
    assert nearest(word, known) == difflib.get_close_matches(word, sorted(known), n=1)


def test_by_spelling_a_large_set_finds_a_typo_through_the_index():
    index = Index(MANY + PREFERENCES + INSTANCETYPES)
    assert not index.small
    assert index.spelling("filler-0042x") == ["filler-0042"]
    assert index.spelling("u1.meduim") == ["u1.medium"]
    assert index.spelling("vmpwindows.11") == ["windows.11"]


def test_a_bucket_is_read_at_most_so_deep():
    index = Index(f"os.{number}" for number in range(10 * BUCKET))
    assert len(index.structured("os").names) == 3


def test_did_you_mean_is_a_suffix_or_nothing():
    assert did_you_mean("vendr", ["vendor", "version"]) == "; did you mean 'vendor'?"
    assert did_you_mean("zzz", ["vendor"]) == ""
    assert did_you_mean("vendr", Index(["vendor"])) == "; did you mean 'vendor'?"


NAME = st.from_regex(r"[a-z][a-z0-9]{1,6}(\.[a-z0-9]{1,6}){0,2}", fullmatch=True)


@settings(max_examples=30, deadline=None)
@given(st.lists(NAME, min_size=1, max_size=3, unique=True), st.data())
def test_a_name_one_edit_away_from_a_known_one_is_always_offered_it(names, data):
    index = Index([*names, *MANY])  # through the index's buckets, not a whole comparison
    known = data.draw(st.sampled_from(names))
    position = data.draw(st.integers(0, len(known)))
    typo = data.draw(st.sampled_from([known[:position] + "x" + known[position:],  # a letter more
                                      known[:position] + known[position + 1:]]))  # a letter less
    if typo != known and typo not in names and typo:
        assert known in index.structured(typo, limit=len(names) + 3).names
