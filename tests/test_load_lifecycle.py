"""Deprecations and retired names: read where they are written, judged on the finished model (load/lifecycle.py).

Most cases are an overlay on the built-in catalog (``--overlay o.yaml``), loaded as a build loads
(``pipeline.load_all``), so each refusal reads as a user meets it: at the overlay's line, before
anything is expanded. The series, family and catalog.yaml forms are read from a copy of the
built-in catalog.
"""

from __future__ import annotations

import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import InputError
from generator.load.lifecycle import (CIRCLE, CURRENT, DEAD_END, SHOWN, Chain, ends, follow, lifecycle_problems,
                                      shown_chain)
from generator.model import Deprecation, Retirement, preference_deprecation
from generator.pipeline import BuildOptions, load_all
from generator.problems import Location
from tests.helpers import copy_catalog


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Overlays are named relative to a scratch directory, so messages read ``o.yaml:line:column``."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def with_overlay(text: str):
    Path("o.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    return load_all(BuildOptions(overlays=(Path("o.yaml"),)))


def refused(text: str) -> list[str]:
    with pytest.raises(InputError) as caught:
        with_overlay(text)
    return [str(p) for p in caught.value.problems]


def at(line: int, column: int, *path: str | int, file: str = "o.yaml") -> Location:
    return Location(file, line, column, tuple(path))


# --------------------------------------------------------------------------- following replacements


def test_following_replacements_ends_at_a_current_name_a_name_without_one_or_a_circle():
    replacement_of = {"a": "b", "b": "c", "x": None, "p": "q", "q": "p"}
    assert follow("a", replacement_of) == (("a", "b", "c"), CURRENT)
    assert follow("c", replacement_of) == (("c",), CURRENT)
    assert follow("x", replacement_of) == (("x",), DEAD_END)
    assert follow("p", replacement_of) == (("p", "q", "p"), CIRCLE)


@pytest.mark.parametrize("replacement_of", [
    {"a": "b", "b": "c", "x": None, "p": "q", "q": "p"},
    {"a": "b", "b": "c", "c": "d", "d": "b", "e": "a", "z": "z"},  # into a circle, and a name naming itself
    {"y": "x", "x": None, "w": "y"},
    {f"n{i}": f"n{i + 1}" for i in range(50)},
])
def test_every_name_followed_at_once_ends_where_following_it_alone_does(replacement_of):
    found = ends(replacement_of)
    for name in replacement_of:
        chain, how = follow(name, replacement_of)
        assert (found[name].steps, found[name].last, found[name].how) == (len(chain) - 1, chain[-1], how)
        assert Chain(replacement_of[name] or "", replacement_of, found[name]) == chain[1:]


def test_a_chain_is_read_from_the_replacements_when_used():
    replacement_of = {"a": "b", "b": "c", "c": "d"}
    chain = Chain("b", replacement_of, ends(replacement_of)["a"])
    assert (len(chain), chain[0], chain[-1], chain[1:], list(chain)) == (3, "b", "d", ("c", "d"), ["b", "c", "d"])
    assert chain == ("b", "c", "d") and chain != ("b", "c") and hash(chain) == hash(("b", "c", "d"))
    with pytest.raises(IndexError):
        chain[3]


def test_a_long_chain_is_shown_cut_short():
    replacement_of = {f"n{i}": f"n{i + 1}" for i in range(100)}
    shown = shown_chain("n0", replacement_of, ends(replacement_of)["n0"])
    assert shown == f"{' -> '.join(f'n{i}' for i in range(SHOWN))} -> ... ({101 - SHOWN - 1} more) -> n100"
    short = {"a": "b", "b": "a"}
    assert shown_chain("a", short, ends(short)["a"]) == "a -> b -> a"


# --------------------------------------------------------------------------- what the forms say


def test_a_series_deprecation_names_a_series_whose_sizes_replace_those_of_the_same_name():
    catalog, _ = with_overlay("""\
        series:
          change:
            o1:
              deprecated: {since: v1.9.0, replacement: u1}
        """)
    [o1] = [s for s in catalog.series if s.name == "o1"]
    assert o1.deprecated is True
    assert o1.deprecation == Deprecation(at(4, 7, "series", "change", "o1", "deprecated"), "v1.9.0", "u1",
                                         at(4, 48, "series", "change", "o1", "deprecated", "replacement"))
    assert o1.size_deprecation("medium") == Deprecation(
        at(4, 7, "series", "change", "o1", "deprecated"), "v1.9.0", "u1.medium",
        at(4, 48, "series", "change", "o1", "deprecated", "replacement"))


def test_a_size_says_for_itself_and_takes_the_series_since_and_replacement_where_it_gives_none():
    catalog, _ = with_overlay("""\
        series:
          change:
            o1:
              deprecated: {since: v1.9.0, replacement: u1}
              deprecatedSizes:
                nano: {replacement: u1.micro}
                micro: {since: v1.8.0}
                small: false
        """)
    [o1] = [s for s in catalog.series if s.name == "o1"]
    here = ("series", "change", "o1", "deprecatedSizes")
    assert o1.size_deprecation("nano") == Deprecation(at(6, 9, *here, "nano"), "v1.9.0", "u1.micro",
                                                      at(6, 29, *here, "nano", "replacement"))
    assert o1.size_deprecation("micro") == Deprecation(
        at(7, 9, *here, "micro"), "v1.8.0", "u1.micro",
        at(4, 48, "series", "change", "o1", "deprecated", "replacement"))
    assert o1.size_deprecation("small") is None  # false: kept current in the deprecated series
    assert o1.size_deprecation("large").replacement == "u1.large"


def test_a_size_of_a_current_series_is_deprecated_on_its_own():
    catalog, _ = with_overlay("""\
        series:
          change:
            u1:
              deprecatedSizes: {medium: true, large: {since: v1.9.0, replacement: u1.xlarge}}
        """)
    [u1] = [s for s in catalog.series if s.name == "u1"]
    here = ("series", "change", "u1", "deprecatedSizes")
    assert u1.deprecated is False
    assert u1.size_deprecation("medium") == Deprecation(at(4, 25, *here, "medium"))
    assert u1.size_deprecation("large") == Deprecation(at(4, 39, *here, "large"), "v1.9.0", "u1.xlarge",
                                                       at(4, 75, *here, "large", "replacement"))
    assert u1.size_deprecation("small") is None


def test_an_overlay_takes_a_size_entry_away_with_null_and_false_undoes_a_deprecation():
    Path("first.yaml").write_text("series: {change: {u1: {deprecatedSizes: {medium: true, large: true}}}}\n")
    Path("o.yaml").write_text("series: {change: {u1: {deprecatedSizes: {medium: null}, deprecated: false}}}\n")
    catalog, _ = load_all(BuildOptions(overlays=(Path("first.yaml"), Path("o.yaml"))))
    [u1] = [s for s in catalog.series if s.name == "u1"]
    assert sorted(u1.deprecated_sizes) == ["large"]
    assert (u1.size_deprecation("medium"), u1.size_deprecation("large") is not None) == (None, True)


def test_a_series_file_says_the_same_as_an_overlay(tmp_path: Path):
    root = copy_catalog(tmp_path / "c")
    (root / "series" / "o.yaml").write_text((root / "series" / "o.yaml").read_text() + textwrap.dedent("""\
        deprecated: {since: v1.9.0, replacement: u1}
        deprecatedSizes:
          nano: {replacement: u1.micro}
        """))
    catalog, _ = load_all(BuildOptions(catalog=root))
    [o1] = [s for s in catalog.series if s.name == "o1"]
    last = len((root / "series" / "o.yaml").read_text().splitlines())
    assert o1.deprecation == Deprecation(at(last - 2, 1, "deprecated", file="series/o.yaml"), "v1.9.0", "u1",
                                         at(last - 2, 42, "deprecated", "replacement", file="series/o.yaml"))
    assert o1.size_deprecation("nano").replacement == "u1.micro"


def test_a_family_gives_its_since_and_each_preference_its_replacement_or_false_keeps_it(tmp_path: Path):
    root = copy_catalog(tmp_path / "c")
    family = root / "preferences" / "opensuse.yaml"
    family.write_text("deprecated: {since: v1.9.0}\n" + family.read_text().replace(
        "  opensuse.leap:\n", "  opensuse.leap:\n    deprecated: {replacement: opensuse.tumbleweed}\n").replace(
        "  opensuse.tumbleweed:\n", "  opensuse.tumbleweed:\n    deprecated: false\n"))
    _, preferences = load_all(BuildOptions(catalog=root))
    file = "preferences/opensuse.yaml"
    assert preferences.families["opensuse"].deprecation == Deprecation(at(1, 1, "deprecated", file=file), "v1.9.0")
    leap = preferences.preferences["opensuse.leap"]
    assert leap.deprecation == Deprecation(at(9, 5, "preferences", "opensuse.leap", "deprecated", file=file), None,
                                           "opensuse.tumbleweed",
                                           at(9, 31, "preferences", "opensuse.leap", "deprecated", "replacement",
                                              file=file))
    assert preference_deprecation(leap, preferences.families["opensuse"]) == replace(leap.deprecation,
                                                                                     since="v1.9.0")
    tumbleweed = preferences.preferences["opensuse.tumbleweed"]
    assert preference_deprecation(tumbleweed, preferences.families["opensuse"]) is None


def test_a_whole_family_deprecated_leaves_the_replacements_leading_into_it_nowhere(tmp_path: Path):
    root = copy_catalog(tmp_path / "c")
    family = root / "preferences" / "centos-stream.yaml"
    family.write_text("deprecated: true\n" + family.read_text())
    with pytest.raises(InputError) as caught:
        load_all(BuildOptions(catalog=root))
    assert [str(p) for p in caught.value.problems][-1] == (
        f"catalog.yaml:{retired_line('centos.stream8.dpdk')}:55: retired.preferences.centos.stream8.dpdk.replacement: "
        "the replacements of 'centos.stream8.dpdk' end at 'centos.stream9.dpdk' (centos.stream8.dpdk -> "
        "centos.stream9.dpdk), which is deprecated and names no replacement; they must lead to a preference that is "
        "neither deprecated nor retired")


def test_catalog_yaml_retires_names_by_family():
    catalog, _ = load_all(BuildOptions())
    assert catalog.retirements[("preference", "centos.stream8")] == Retirement(
        "preference", "centos.stream8", "v1.2.1", catalog.retirements[("preference", "centos.stream8")].location,
        "centos.stream9", catalog.retirements[("preference", "centos.stream8")].replacement_location)
    renamed = catalog.retirements[("preference", "centos.8.stream")]
    assert (renamed.since, renamed.replacement, renamed.renamed) == ("v0.4.0", "centos.stream8", True)
    assert str(renamed.location).startswith("catalog.yaml:")
    assert catalog.retirements[("instancetype", "server.medium")].replacement == "u1.medium"
    assert [key for key in catalog.retirements if key[0] == "instancetype"] == [
        ("instancetype", name) for name in ("highperformance.large", "highperformance.medium",
                                            "highperformance.small", "server.large", "server.medium",
                                            "server.micro", "server.small", "server.tiny")]


def test_an_overlay_adds_changes_and_takes_away_retired_names():
    catalog, _ = with_overlay("""\
        retired:
          instancetypes:
            acme1.huge: {since: v2.0.0, replacement: u1.8xlarge}
          preferences:
            centos.7: {since: v1.2.1}
            centos.stream8: null
        """)
    assert catalog.retirements[("instancetype", "acme1.huge")] == Retirement(
        "instancetype", "acme1.huge", "v2.0.0", at(3, 5, "retired", "instancetypes", "acme1.huge"), "u1.8xlarge",
        at(3, 46, "retired", "instancetypes", "acme1.huge", "replacement"))
    assert catalog.retirements[("preference", "centos.7")] == Retirement(
        "preference", "centos.7", "v1.2.1", at(5, 5, "retired", "preferences", "centos.7"))  # no replacement, nowhere
    assert ("preference", "centos.stream8") not in catalog.retirements


def test_an_entry_taken_away_is_no_end_to_the_entries_after_it():
    catalog, _ = with_overlay("""\
        retired:
          preferences:
            centos.7: null
            acme.os: {since: v2.0.0}
        """)
    assert (("preference", "centos.7") in catalog.retirements, ("preference", "acme.os") in catalog.retirements) == (
        False, True)


def test_a_size_taken_away_that_had_no_entry_changes_nothing():
    catalog, _ = with_overlay("series: {change: {u1: {deprecatedSizes: {medium: null}}}}\n")
    assert [s.deprecated_sizes for s in catalog.series if s.name == "u1"] == [{}]


# --------------------------------------------------------------------------- refusals, each at its line


def test_a_series_replacement_must_be_another_series_of_the_catalog():
    assert refused("series: {change: {o1: {deprecated: {since: v1.9.0, replacement: x1}}}}\n") == [
        "o.yaml:1:65: series.change.o1.deprecated.replacement: replacement 'x1' of series 'o1' is no series of the "
        "catalog; did you mean 'cx1'? (series: cx1, d1, gn1, m1, n1, o1, rt1, u1)"]
    assert refused("series: {change: {o1: {deprecated: {replacement: o1}}}}\n") == [
        "o.yaml:1:50: series.change.o1.deprecated.replacement: series 'o1' names itself as its replacement"]


def test_a_replacement_series_lacking_a_size_asks_for_that_size_s_own_replacement():
    assert refused("series: {change: {cx: {deprecated: {replacement: m1}}}}\n") == [
        "o.yaml:1:50: series.change.cx.deprecated.replacement: replacement 'm1.medium' of 'cx1.medium' is no "
        "instancetype the catalog defines; did you mean 'd1.medium'? (series 'm1' has no size 'medium'; give "
        "'cx1.medium' a replacement of its own under deprecatedSizes)",
        "o.yaml:1:50: series.change.cx.deprecated.replacement: replacement 'm1.medium1gi' of 'cx1.medium1gi' is no "
        "instancetype the catalog defines; did you mean 'd1.medium'? (series 'm1' has no size 'medium1gi'; "
        "give 'cx1.medium1gi' a replacement of its own under deprecatedSizes)"]
    # with its own, the size is replaced as it says
    catalog, _ = with_overlay("series: {change: {cx: {deprecated: {replacement: m1}, deprecatedSizes: "
                              "{medium: {replacement: m1.large}, medium1gi: {replacement: m1.large1gi}}}}}\n")
    [cx1] = [s for s in catalog.series if s.name == "cx1"]
    assert [cx1.size_deprecation(size).replacement for size in ("medium", "medium1gi", "large")] == [
        "m1.large", "m1.large1gi", "m1.large"]


def test_a_size_the_series_does_not_make_is_refused_at_its_key():
    assert refused("series: {change: {o1: {deprecatedSizes: {medium1gi: true}}}}\n") == [
        "o.yaml:1:42: series.change.o1.deprecatedSizes.medium1gi: series 'o1' has no size 'medium1gi'; did you mean "
        "'medium'? (its sizes: nano, micro, small, medium, large, xlarge, 2xlarge, 4xlarge, 8xlarge)"]


def test_a_replacement_names_an_object_of_its_family_the_catalog_defines():
    assert refused("""\
        series: {change: {u1: {deprecatedSizes: {medium: {replacement: u1.larg}, large: {replacement: fedora}}}}}
        preferences: {change: {alpine: {deprecated: {replacement: u1.small}}}}
        """) == [
        "o.yaml:1:64: series.change.u1.deprecatedSizes.medium.replacement: replacement 'u1.larg' of 'u1.medium' is "
        "no instancetype the catalog defines; did you mean 'u1.large'?",
        "o.yaml:1:95: series.change.u1.deprecatedSizes.large.replacement: replacement 'fedora' of 'u1.large' is a "
        "preference; the replacement of an instancetype is an instancetype",
        "o.yaml:2:59: preferences.change.alpine.deprecated.replacement: replacement 'u1.small' of 'alpine' is an "
        "instancetype; the replacement of a preference is a preference"]


def test_a_replacement_is_not_the_object_itself():
    assert refused("preferences: {change: {alpine: {deprecated: {replacement: alpine}}}}\n") == [
        "o.yaml:1:59: preferences.change.alpine.deprecated.replacement: preference 'alpine' names itself as its "
        "replacement"]


def test_replacements_that_go_round_in_a_circle_are_refused_at_each():
    assert refused("""\
        preferences:
          change:
            alpine: {deprecated: {replacement: cirros}}
            cirros: {deprecated: {replacement: alpine}}
        """) == [
        "o.yaml:3:40: preferences.change.alpine.deprecated.replacement: the replacements of 'alpine' go round in a "
        "circle (alpine -> cirros -> alpine); they must lead to a preference that is neither deprecated nor retired",
        "o.yaml:4:40: preferences.change.cirros.deprecated.replacement: the replacements of 'cirros' go round in a "
        "circle (cirros -> alpine -> cirros); they must lead to a preference that is neither deprecated nor retired"]


def test_a_deprecated_replacement_is_allowed_only_when_its_own_replacement_leads_to_a_current_object():
    assert refused("""\
        preferences:
          change:
            alpine: {deprecated: {replacement: cirros}}
            cirros: {deprecated: true}
        """) == [
        "o.yaml:3:40: preferences.change.alpine.deprecated.replacement: the replacements of 'alpine' end at 'cirros' "
        "(alpine -> cirros), which is deprecated and names no replacement; they must lead to a preference that is "
        "neither deprecated nor retired"]
    _, preferences = with_overlay("""\
        preferences:
          change:
            alpine: {deprecated: {replacement: cirros}}
            cirros: {deprecated: {replacement: debian}}
        """)
    assert preferences.preferences["alpine"].deprecation.replacement == "cirros"


def test_a_series_replacement_refused_once_leaves_the_other_replacements_judged():
    assert refused("""\
        series: {change: {o1: {deprecated: {replacement: x1}}}}
        preferences: {change: {alpine: {deprecated: {replacement: u1.small}}}}
        """) == [
        "o.yaml:1:50: series.change.o1.deprecated.replacement: replacement 'x1' of series 'o1' is no series of the "
        "catalog; did you mean 'cx1'? (series: cx1, d1, gn1, m1, n1, o1, rt1, u1)",
        "o.yaml:2:59: preferences.change.alpine.deprecated.replacement: replacement 'u1.small' of 'alpine' is an "
        "instancetype; the replacement of a preference is a preference"]


def test_a_deprecated_object_s_replacement_is_suggested_among_the_names_the_catalog_defines_only():
    assert refused("preferences: {change: {alpine: {deprecated: {replacement: centos.7.desktp}}}}\n") == [
        "o.yaml:1:59: preferences.change.alpine.deprecated.replacement: replacement 'centos.7.desktp' of 'alpine' is "
        "no preference the catalog defines; did you mean 'centos.stream9.desktop'?"]
    assert refused("retired: {preferences: {acme.old: {since: v2.0.0, replacement: centos.7.desktp}}}\n") == [
        "o.yaml:1:64: retired.preferences.acme.old.replacement: replacement 'centos.7.desktp' of 'acme.old' is no "
        "preference the catalog defines or retires; did you mean 'centos.7.desktop'?"]


def test_a_deprecated_object_is_not_replaced_by_a_retired_name():
    assert refused("preferences: {change: {alpine: {deprecated: {replacement: centos.stream8}}}}\n") == [
        "o.yaml:1:59: preferences.change.alpine.deprecated.replacement: replacement 'centos.stream8' of 'alpine' "
        "was retired in v1.2.1; a deprecated object is replaced by one the catalog defines"]


def test_a_retired_name_the_catalog_defines_again_is_refused_unless_the_overlay_takes_the_entry_away():
    assert refused("""\
        preferences:
          add:
            centos.7: {family: centos-stream, displayName: CentOS 7, description: Back again.}
        """) == [
        f"catalog.yaml:{retired_line('centos.7')}:5: retired.preferences.centos.7: 'centos.7' is retired here, but "
        "the catalog defines preference 'centos.7'; a name is retired once the catalog no longer defines it (until "
        "then, mark it deprecated; an overlay that brings it back takes the entry away with null)"]
    _, preferences = with_overlay("""\
        preferences:
          add:
            centos.7: {family: centos-stream, displayName: CentOS 7, description: Back again.}
        retired:
          preferences:
            centos.7: null
        """)
    assert "centos.7" in preferences.preferences


def retired_line(name: str) -> int:
    """The line of the built-in catalog.yaml that retires ``name``."""
    from generator.paths import builtin_catalog

    lines = (builtin_catalog() / "catalog.yaml").read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.startswith(f"    {name}:"))


def test_a_retirement_names_a_replacement_the_catalog_defines_or_retires():
    assert refused("""\
        retired:
          instancetypes:
            acme1.huge: {since: v2.0.0, replacement: u1.hug}
          preferences:
            acme.old: {since: v2.0.0, replacement: centos.8.stream.dektop}
        """) == [
        "o.yaml:3:46: retired.instancetypes.acme1.huge.replacement: replacement 'u1.hug' of 'acme1.huge' is no "
        "instancetype the catalog defines or retires",
        "o.yaml:5:44: retired.preferences.acme.old.replacement: replacement 'centos.8.stream.dektop' of 'acme.old' "
        "is no preference the catalog defines or retires; did you mean 'centos.8.stream.desktop'?"]
    # a retired name replaced by one whose own replacement leads to a current one: centos.8.stream's chain
    catalog, _ = with_overlay("retired: {preferences: {acme.old: {since: v2.0.0, replacement: centos.8.stream}}}\n")
    assert catalog.retirements[("preference", "acme.old")].replacement == "centos.8.stream"


def test_retired_names_that_go_round_or_lead_nowhere_are_refused():
    assert refused("""\
        retired:
          preferences:
            acme.a: {since: v2.0.0, replacement: acme.b}
            acme.b: {since: v2.0.0, replacement: acme.a}
            acme.c: {since: v2.0.0, replacement: acme.d}
            acme.d: {since: v2.0.0}
        """) == [
        "o.yaml:3:42: retired.preferences.acme.a.replacement: the replacements of 'acme.a' go round in a circle "
        "(acme.a -> acme.b -> acme.a); they must lead to a preference that is neither deprecated nor retired",
        "o.yaml:4:42: retired.preferences.acme.b.replacement: the replacements of 'acme.b' go round in a circle "
        "(acme.b -> acme.a -> acme.b); they must lead to a preference that is neither deprecated nor retired",
        "o.yaml:5:42: retired.preferences.acme.c.replacement: the replacements of 'acme.c' end at 'acme.d' "
        "(acme.c -> acme.d), which is retired and names no replacement; they must lead to a preference that is "
        "neither deprecated nor retired"]


def test_a_chain_of_three_is_said_to_end_at_its_last_name_in_the_state_of_that_name():
    assert refused("""\
        preferences: {change: {cirros: {deprecated: true}}}
        retired:
          preferences:
            acme.a: {since: v2.0.0, replacement: acme.b}
            acme.b: {since: v2.0.0, replacement: cirros}
        """)[0] == (
        "o.yaml:4:42: retired.preferences.acme.a.replacement: the replacements of 'acme.a' end at 'cirros' "
        "(acme.a -> acme.b -> cirros), which is deprecated and names no replacement; they must lead to a preference "
        "that is neither deprecated nor retired")


def test_a_model_made_without_locations_is_judged_and_its_problems_said_of_catalog_yaml():
    """lifecycle_problems takes any model, as a caller builds it: a replacement without a location is said of
    catalog.yaml, and a preference whose family the model lacks is left to the expansion, which says so."""
    catalog, preferences = load_all(BuildOptions())
    stray = Retirement("preference", "acme.old", "v2.0.0", at(1, 1), "nowhere")
    assert [str(p) for p in lifecycle_problems(
        replace(catalog, retirements={("preference", "acme.old"): stray}), preferences)] == [
        "catalog.yaml: replacement 'nowhere' of 'acme.old' is no preference the catalog defines or retires"]
    lacking = replace(preferences, families={k: v for k, v in preferences.families.items() if k != "alpine"})
    assert lifecycle_problems(catalog, lacking) == []


def test_a_rename_names_the_new_name_and_only_a_retired_name_is_taken_away():
    assert refused("""\
        retired:
          preferences:
            acme.os: {since: v2.0.0, renamed: true}
            centos.6: null
        """) == [
        "o.yaml:3:39: retired.preferences.acme.os.renamed: renamed: true needs the new name as replacement",
        "o.yaml:4:5: retired.preferences.centos.6: 'centos.6' is no retired preference of the catalog: there is no "
        "entry to take away"]


def test_the_catalog_s_own_retirements_stay_when_an_overlay_narrows_the_catalog():
    catalog, preferences = with_overlay("""\
        series: {keep: [u1]}
        preferences: {drop: ['centos.*', rhel.7, rhel.7.desktop]}
        """)
    assert "centos.stream9" not in preferences.preferences
    assert catalog.retirements[("preference", "centos.stream8")].replacement == "centos.stream9"
    assert catalog.retirements[("instancetype", "highperformance.small")].replacement == "d1.small"


def test_a_deprecated_object_s_replacement_an_overlay_removes_is_refused():
    assert refused("series: {change: {o1: {deprecated: {replacement: u1}}}, drop: [u1]}\n") == [
        "o.yaml:1:50: series.change.o1.deprecated.replacement: replacement 'u1' of series 'o1' is no series of the "
        "catalog (series: cx1, d1, gn1, m1, n1, o1, rt1)"]


def test_the_forms_are_explained_by_the_format():
    assert refused("preferences: {change: {alpine: {deprecated: {since: v1, replacemnt: cirros}}}}\n") == [
        "o.yaml:1:57: preferences.change.alpine.deprecated.replacemnt: unknown key 'replacemnt' in a preference's "
        "deprecation; did you mean 'replacement'?"]
    assert refused("series: {change: {o1: {deprecatedSizes: {large: {}}, deprecated: [v1]}}}\n") == [
        "o.yaml:1:49: series.change.o1.deprecatedSizes.large: expected at least one entry, got an empty mapping",
        "o.yaml:1:66: series.change.o1.deprecated: expected true, false or a mapping with since and replacement, "
        "got a list"]


def test_a_family_names_no_replacement(tmp_path: Path):
    root = copy_catalog(tmp_path / "c")
    family = root / "preferences" / "cirros.yaml"
    family.write_text("deprecated: {since: v1.9.0, replacement: alpine}\n" + family.read_text())
    with pytest.raises(InputError) as caught:
        load_all(BuildOptions(catalog=root))
    assert [str(p) for p in caught.value.problems] == [
        "preferences/cirros.yaml:1:29: deprecated.replacement: unknown key 'replacement' in a family's deprecation, "
        "which names no replacement (each preference names its own); expected one of: since"]


def test_a_catalog_yaml_retirement_is_judged_where_it_is_written_and_the_build_exits_2(tmp_path: Path):
    root = copy_catalog(tmp_path / "c")
    text = (root / "catalog.yaml").read_text()
    (root / "catalog.yaml").write_text(text.replace("replacement: rhel.7}", "replacement: rhel.77}"))
    result = CliRunner().invoke(main, ["build", "--catalog", str(root), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    line = retired_line("centos.7")
    assert f"catalog.yaml:{line}:44: error: retired.preferences.centos.7.replacement: replacement 'rhel.77' of " \
           "'centos.7' is no preference the catalog defines or retires; did you mean 'rhel.7'?" in result.output
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------------------- as documented


def test_the_documented_forms_load_as_documented(tmp_path: Path):
    import yaml

    from generator.expand.lifecycle import lifecycles
    from generator.pipeline import catalog_objects
    from tests.helpers import documented_yaml

    root = copy_catalog(tmp_path / "c")
    series = root / "series" / "o.yaml"
    series.write_text(series.read_text() + documented_yaml("catalog-format.md", "### Deprecating", 0))
    family = root / "preferences" / "opensuse.yaml"
    data = yaml.safe_load(family.read_text())
    shown = yaml.safe_load(documented_yaml("catalog-format.md", "### Deprecating", 1))
    data["deprecated"] = shown["deprecated"]
    for name, body in shown["preferences"].items():
        data["preferences"][name].update(body)
    family.write_text(yaml.safe_dump(data))
    Path("vendor.yaml").write_text(documented_yaml("vendor-guide.md", "### Deprecating, and names you retire"))
    catalog, _, objects = catalog_objects(BuildOptions(catalog=root, overlays=(Path("vendor.yaml"),)))
    records = lifecycles(objects, catalog.retirements)
    said = {name: (r.status, r.since, r.chain) for (_, name), r in records.items()
            if name.startswith(("o1.", "u1.", "opensuse", "acme", "centos.7"))}
    # the overlay's series deprecation over the file's: its sizes (nano's own replacement, small kept) stay
    assert said == {
        **{f"o1.{size}": ("deprecated", "v2.1.0", (f"u1.{size}",))
           for size in ("micro", "medium", "large", "xlarge", "2xlarge", "4xlarge", "8xlarge")},
        "o1.nano": ("deprecated", "v2.1.0", ("u1.micro",)),
        "u1.2xmedium": ("deprecated", "v2.1.0", ("u1.large",)),
        "opensuse.leap": ("deprecated", "v2.1.0", ("opensuse.tumbleweed",)),
        "acme-legacy.os": ("retired", "v2.0.0", ("legacy",)),
        "centos.7.desktop": ("retired", "v1.2.1", ("rhel.7.desktop",)),
    }
