"""Overlay series, size and matrix steps applied to the loaded model: the catalog each yields, or its exact problems.

Covers series.keep/drop (by name or prefix, contradictions, a catalog emptied), sizes.keep/drop,
matrices.add, series.add and series.change (every field, a new version and what shaped the old one).

Private class, used on purpose: _Overlay applies one overlay document, with no catalog folder for
each case.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from generator.load.overlays import _Overlay
from generator.model import Deprecation, Series, Variant
from generator.problems import Location
from tests.test_load_overlays_settings import applied, builtin, changes, in_tmp, overlay, problems  # noqa: F401

SERIES = "(series: cx1, d1, gn1, m1, n1, o1, rt1, u1)"


def series(catalog) -> dict[str, Series]:
    return {s.name: s for s in catalog.series}


def sizes(catalog) -> dict[str, tuple[str, ...]]:
    return {s.name: s.sizes for s in catalog.series}


def at(line: int, column: int, *path) -> Location:
    return Location("o.yaml", line, column, path)


U2 = ("series:\n  add:\n    u:\n      version: 2\n      class: general.purpose\n      displayName: U two\n"
      "      description: A second u.\n      icon: pficon-server-group\n      ratio: \"1:4\"\n")


# --------------------------------------------------------------------------- series.keep and series.drop


def test_series_are_dropped_by_name_or_prefix_and_the_rest_keep_their_order():
    catalog, _ = applied("series:\n  drop: [cx, u1, cx1]\n")
    assert catalog.series == tuple(s for s in builtin()[0].series if s.name not in ("cx1", "u1"))
    assert changes(catalog) == [(("catalog", "series"), "o.yaml:1:1: series")]


def test_keep_and_drop_both_name_series_of_the_catalog_as_it_was():
    catalog, _ = applied("series:\n  keep: [u1, o, d]\n  drop: [m]\n")
    assert [s.name for s in catalog.series] == ["d1", "o1", "u1"]


def test_a_series_both_kept_and_dropped_is_refused_at_the_drop_naming_its_first_keep():
    assert problems("series:\n  keep: [u, cx, cx1, o]\n  drop: [m, cx1, o1]\n") == [
        "o.yaml:3:13: series.drop[1]: series 'cx1' is both kept (series.keep[1]) and dropped; name it in one of "
        "the two lists",
        "o.yaml:3:18: series.drop[2]: series 'o1' is both kept (series.keep[3]) and dropped; name it in one of "
        "the two lists"]


def test_contradictions_are_reported_in_the_order_of_the_drop_list():
    step = _Overlay(overlay("series:\n  keep: [cx, u]\n  drop: [u, cx]\n"), *builtin())
    step.select_series()
    assert [str(p) for p in step.problems] == [
        "o.yaml:3:10: series.drop[0]: series 'u1' is both kept (series.keep[1]) and dropped; name it in one of "
        "the two lists",
        "o.yaml:3:13: series.drop[1]: series 'cx1' is both kept (series.keep[0]) and dropped; name it in one of "
        "the two lists"]


def test_an_unknown_series_suggests_the_closest_name_or_prefix():
    assert problems("series:\n  keep: [u]\n  drop: [ux, cx2]\n") == [
        f"o.yaml:3:10: series.drop[0]: unknown series 'ux'; did you mean 'u'? {SERIES}",
        f"o.yaml:3:14: series.drop[1]: unknown series 'cx2'; did you mean 'cx'? {SERIES}"]


def test_a_prefix_of_two_series_is_refused_and_their_names_work():
    two = applied(U2)
    assert [s.name for s in two[0].series][-2:] == ["u1", "u2"]
    catalog, preferences = two
    step = _Overlay(overlay("series:\n  drop: [u]\n  change:\n    u: {icon: x}\n"), catalog, preferences)
    step.apply()
    assert [str(p) for p in step.problems] == [
        "o.yaml:2:10: series.drop[0]: prefix 'u' names several series (u1, u2); write the series name",
        "o.yaml:4:5: series.change.u: prefix 'u' names several series (u1, u2); write the series name"]
    assert [s.name for s in applied("series:\n  drop: [u1]\n", start=two)[0].series][-1] == "u2"


def test_removing_every_series_is_refused_at_the_list_that_did_it():
    every = "[cx, d, gn, m, n, o, rt, u]"
    assert problems(f"series:\n  drop: {every}\n") == [
        "o.yaml:2:3: series.drop: leaves the catalog without instancetypes (it removes every series: cx1, d1, "
        "gn1, m1, n1, o1, rt1, u1); keep at least one, or add one under series.add"]
    assert problems("series:\n  keep: [cx]\n  drop: [d, gn, m, n, o, rt, u, cx]\n")[-1] == (
        "o.yaml:3:33: series.drop[7]: series 'cx1' is both kept (series.keep[0]) and dropped; name it in one of "
        "the two lists")


def test_removing_every_series_is_blamed_on_keep_when_there_is_one():
    step = _Overlay(overlay("series:\n  keep: [u]\n  drop: [u]\n"), *builtin())
    step.select_series()
    step.problems.clear()
    step.instancetypes_left(builtin()[0].series)
    assert [str(p) for p in step.problems] == [
        "o.yaml:2:3: series.keep: leaves the catalog without instancetypes (it removes every series: cx1, d1, "
        "gn1, m1, n1, o1, rt1, u1); keep at least one, or add one under series.add"]


def test_a_catalog_emptied_with_a_problem_already_found_gets_no_second_one():
    assert problems("series:\n  keep: [u]\n  drop: [u]\n") == [
        "o.yaml:3:10: series.drop[0]: series 'u1' is both kept (series.keep[0]) and dropped; name it in one of "
        "the two lists"]


def test_a_catalog_that_had_no_series_is_not_said_to_be_emptied():
    catalog, preferences = builtin()
    empty = replace(catalog, series=())
    assert applied("vendor: acme.io\n", start=(empty, preferences))[0].series == ()


def test_removing_every_series_and_adding_one_is_fine():
    catalog, _ = applied(U2 + "  drop: [cx, d, gn, m, n, o, rt, u]\n")
    assert [s.name for s in catalog.series] == ["u2"]


# --------------------------------------------------------------------------- sizes.keep and sizes.drop


def test_sizes_kept_and_dropped_across_every_series():
    catalog, _ = applied("series:\n  keep: [u1, o]\nsizes:\n  keep: [small, nano, micro]\n  drop: [large]\n")
    assert sizes(catalog) == {"o1": ("nano", "micro", "small"), "u1": ("nano", "micro", "small")}
    assert catalog.series[0] == replace(series(builtin()[0])["o1"], sizes=("nano", "micro", "small"))
    assert changes(catalog) == [(("catalog", "sizes"), "o.yaml:3:1: sizes"),
                                (("catalog", "series"), "o.yaml:1:1: series")]


def test_sizes_dropped_alone_leave_the_others_in_order():
    catalog, _ = applied("sizes:\n  drop: [nano, 8xlarge]\n")
    before = sizes(builtin()[0])
    assert sizes(catalog) == {name: tuple(s for s in offered if s not in ("nano", "8xlarge"))
                              for name, offered in before.items()}


def test_unknown_and_contradictory_sizes_are_named_with_their_first_index():
    known = "(sizes: 2xlarge, 2xmedium, 4xlarge, 8xlarge, large, medium, micro, nano, small, xlarge)"
    assert problems("sizes:\n  keep: [nano, huge, small, nano]\n  drop: [small, nano, micr]\n") == [
        f"o.yaml:2:16: sizes.keep[1]: unknown size 'huge' {known}",
        "o.yaml:3:10: sizes.drop[0]: size 'small' is both kept (sizes.keep[2]) and dropped; name it in one of the "
        "two lists",
        "o.yaml:3:17: sizes.drop[1]: size 'nano' is both kept (sizes.keep[0]) and dropped; name it in one of the "
        "two lists",
        f"o.yaml:3:23: sizes.drop[2]: unknown size 'micr'; did you mean 'micro'? {known}"]


def test_a_series_left_without_sizes_is_named_at_the_list_that_emptied_it_and_kept_for_later_steps():
    assert problems("series:\n  keep: [u, gn]\n  change:\n    gn: {icon: x}\nsizes:\n  drop: [xlarge, 2xlarge, "
                    "4xlarge, 8xlarge]\n") == [
        "o.yaml:6:3: sizes.drop: leaves series 'gn1' without sizes (it has: xlarge, 2xlarge, 4xlarge, 8xlarge); "
        "drop the series with series.drop, or keep one of its sizes"]
    assert problems("series:\n  keep: [u, gn]\nsizes:\n  keep: [nano]\n  drop: [small]\n") == [
        "o.yaml:4:3: sizes.keep: leaves series 'gn1' without sizes (it has: xlarge, 2xlarge, 4xlarge, 8xlarge); "
        "drop the series with series.drop, or keep one of its sizes"]


def test_with_a_size_problem_no_series_is_said_to_be_emptied():
    assert problems("series:\n  keep: [gn]\nsizes:\n  keep: [nano, xlarge]\n  drop: [xlarge]\n") == [
        "o.yaml:5:10: sizes.drop[0]: size 'xlarge' is both kept (sizes.keep[1]) and dropped; name it in one of "
        "the two lists"]


# --------------------------------------------------------------------------- matrices.add


def test_a_new_matrix_is_added_after_the_catalogs_and_recorded_at_its_key():
    catalog, _ = applied("matrices:\n  add:\n    tiny:\n      pico: {cpu: 1, memory: 256Mi}\n      mini: 2\n")
    assert list(catalog.matrices) == ["standard", "network", "tiny"]
    tiny = catalog.matrices["tiny"]
    assert [(s.name, s.cpu, s.memory) for s in tiny.sizes] == [("pico", 1, 256 * 2**20), ("mini", 2, None)]
    assert str(tiny.sizes[0].location) == "o.yaml:4:13: matrices.add.tiny.pico"
    assert changes(catalog) == [(("matrix", "tiny"), "o.yaml:3:5: matrices.add.tiny")]
    assert catalog.series == builtin()[0].series


def test_a_matrix_of_an_existing_name_is_refused_and_the_new_ones_still_added():
    assert problems("matrices:\n  add:\n    network: {big: 64}\n") == [
        "o.yaml:3:5: matrices.add.network: size matrix 'network' already exists; a new matrix needs a name of its "
        "own (defined: network, standard)"]
    step = _Overlay(overlay("matrices:\n  add:\n    network: {big: 64}\n    tiny: {pico: 1}\n"), *builtin())
    step.add_matrices()
    assert step.catalog.matrices["network"] == builtin()[0].matrices["network"]
    assert list(step.catalog.matrices) == ["standard", "network", "tiny"]
    assert [str(c.location) for c in step.catalog_changes] == ["o.yaml:4:5: matrices.add.tiny"]


# --------------------------------------------------------------------------- series.add


def test_a_new_series_is_loaded_like_a_series_file_and_recorded_at_its_key():
    catalog, _ = applied(U2)
    added = catalog.series[-1]
    assert added == Series(prefix="u", version=2, cls="general.purpose", display_name="U two",
                           description="A second u.", icon="pficon-server-group", ratio=Fraction(4),
                           matrix="standard", sizes=series(builtin()[0])["u1"].sizes, features={}, spec={},
                           variants=(), deprecated=False, location=added.location)
    assert catalog.series[:-1] == builtin()[0].series
    assert changes(catalog) == [(("catalog", "series"), "o.yaml:1:1: series"),
                                (("series", "u2"), "o.yaml:3:5: series.add.u")]


def test_a_new_series_may_repeat_its_prefix_and_use_another_matrix():
    catalog, _ = applied(U2 + "      prefix: u\n      matrix: network\n")
    assert (catalog.series[-1].name, catalog.series[-1].matrix, catalog.series[-1].sizes) == (
        "u2", "network", ("medium", "large", "xlarge", "2xlarge", "4xlarge", "8xlarge"))


def test_new_series_problems_are_named_at_the_overlay():
    body = "      version: 1\n      class: c\n      displayName: X\n      description: X.\n      icon: i\n" \
           "      ratio: \"1:4\"\n"
    text = (f"series:\n  add:\n    x:\n      prefix: y\n{body}    z:\n      matrix: standrd\n{body}"
            f"    w:\n      sizes: [nano, huge]\n{body}    u:\n{body}")
    assert problems(text) == [
        "o.yaml:4:15: series.add.x.prefix: prefix 'y' differs from the key 'x' it is added under; leave prefix "
        "out or make them equal",
        "o.yaml:12:15: series.add.z.matrix: unknown size matrix 'standrd'; did you mean 'standard'? (defined: "
        "network, standard; add one under matrices.add)",
        "o.yaml:20:21: series.add.w.sizes[1]: size 'huge' is not in size matrix 'standard' (it has: nano, micro, "
        "small, medium, 2xmedium, large, xlarge, 2xlarge, 4xlarge, 8xlarge)",
        "o.yaml:27:5: series.add.u: series 'u1' is already in the catalog; change it under series.change, or give "
        "the new series another prefix or version"]


def test_a_new_series_may_use_a_matrix_added_by_the_same_overlay():
    catalog, _ = applied("matrices:\n  add:\n    tiny: {pico: 1}\n" + U2 + "      matrix: tiny\n")
    assert catalog.series[-1].sizes == ("pico",)


# --------------------------------------------------------------------------- series.change


def test_every_field_of_a_series_changes_and_the_new_version_is_a_new_name():
    catalog, _ = applied("""\
        series:
          change:
            cx:
              version: 2
              class: compute.new
              displayName: CX two
              description: "  New text.  "
              icon: fa-new
              deprecated: true
              ratio: "1:3"
              features: {numa: null, realtime: true, hugepages: 1Gi, overcommitPercent: null}
              variants: {b: {hugepages: 2Mi}, a: {}}
              spec: {ioThreadsPolicy: null, foo: {bar: 1}}
        """)
    old = series(builtin()[0])["cx1"]
    assert catalog.series[0] == replace(
        old, version=2, cls="compute.new", display_name="CX two", description="  New text.  ", icon="fa-new",
        deprecated=True, deprecation=Deprecation(at(9, 7, "series", "change", "cx", "deprecated")), ratio=Fraction(3),
        features={"dedicatedCPUPlacement": True, "isolateEmulatorThread": True, "hugepages": "1Gi",
                  "maxSocketsMatchVCPUs": True, "realtime": True},
        variants=(Variant("a", {}, at(12, 42, "series", "change", "cx", "variants", "a")),
                  Variant("b", {"hugepages": "2Mi"}, at(12, 21, "series", "change", "cx", "variants", "b"))),
        spec={"foo": {"bar": 1}})
    assert [s.name for s in catalog.series] == ["cx2", "d1", "gn1", "m1", "n1", "o1", "rt1", "u1"]
    # each key its own line, each leaf of the spec patch too: a problem is blamed on what decided it
    assert changes(catalog) == [(("catalog", "series"), "o.yaml:1:1: series")] + [
        (("series", "cx2"), f"o.yaml:{line}: series.change.cx.{key}") for line, key in (
            ("4:7", "version"), ("5:7", "class"), ("6:7", "displayName"), ("7:7", "description"), ("8:7", "icon"),
            ("9:7", "deprecated"), ("10:7", "ratio"), ("11:7", "features"), ("12:7", "variants"),
            ("13:14", "spec.ioThreadsPolicy"), ("13:43", "spec.foo.bar"))]


def test_a_change_of_nothing_but_the_icon_keeps_every_other_field():
    catalog, _ = applied("series:\n  change:\n    n1: {icon: fa-net}\n")
    assert catalog.series == tuple(replace(s, icon="fa-net") if s.name == "n1" else s for s in builtin()[0].series)


def test_a_new_version_carries_the_lines_that_shaped_the_old_one():
    catalog, _ = applied("series:\n  change:\n    m: {icon: x}\n",
                         "parameters:\n  gpu: {deviceName: nvidia.com/L4}\nseries:\n  change:\n    gn: {version: 2}\n"
                         "    m: {version: 3}\n")
    assert changes(catalog) == [
        (("catalog", "series"), "o.yaml:1:1: series"),
        (("series", "m1"), "o.yaml:3:9: series.change.m.icon"),
        (("catalog", "parameters"), "o1.yaml:1:1: parameters"),
        (("catalog", "series"), "o1.yaml:3:1: series"),
        (("series", "gn1"), "o1.yaml:2:8: parameters.gpu"),
        (("series", "gn2"), "o1.yaml:2:8: parameters.gpu"),
        (("series", "gn2"), "o1.yaml:5:10: series.change.gn.version"),
        (("series", "m3"), "o.yaml:3:9: series.change.m.icon"),
        (("series", "m3"), "o1.yaml:6:9: series.change.m.version")]


def test_a_new_version_that_exists_already_is_refused_at_the_version():
    catalog, preferences = applied(U2)
    step = _Overlay(overlay("series:\n  change:\n    u1: {version: 2}\n"), catalog, preferences)
    step.apply()
    assert [str(p) for p in step.problems] == [
        "o.yaml:3:19: series.change.u1.version: series 'u2' is already in the catalog"]


def test_the_same_version_again_is_no_clash():
    catalog, _ = applied("series:\n  change:\n    u: {version: 1, icon: x}\n")
    assert series(catalog)["u1"] == replace(series(builtin()[0])["u1"], icon="x")


def test_sizes_and_matrix_of_a_series_change_together_or_alone():
    catalog, _ = applied("series:\n  change:\n    cx: {matrix: network}\n    d: {matrix: network, sizes: [large]}\n"
                         "    u: {sizes: {from: large}}\n")
    found = {s.name: (s.matrix, s.sizes) for s in catalog.series}
    assert found["cx1"] == ("network", ("medium", "large", "xlarge", "2xlarge", "4xlarge", "8xlarge"))
    assert found["d1"] == ("network", ("large",))
    assert found["u1"] == ("standard", ("large", "xlarge", "2xlarge", "4xlarge", "8xlarge"))
    assert found["m1"] == ("standard", series(builtin()[0])["m1"].sizes)


def test_a_bad_matrix_or_size_of_a_change_is_named_at_the_overlay_and_nothing_changes():
    assert problems("series:\n  change:\n    u: {matrix: nope}\n    m: {sizes: [huge]}\n    o: {icon: x}\n") == [
        "o.yaml:3:17: series.change.u.matrix: unknown size matrix 'nope' (defined: network, standard; add one "
        "under matrices.add)",
        "o.yaml:4:17: series.change.m.sizes[0]: size 'huge' is not in size matrix 'standard' (it has: nano, "
        "micro, small, medium, 2xmedium, large, xlarge, 2xlarge, 4xlarge, 8xlarge)"]
    step = _Overlay(overlay("series:\n  change:\n    u: {matrix: nope, icon: x}\n"), *builtin())
    step.change_series()
    assert step.catalog.series == builtin()[0].series and step.catalog_changes == []


def test_an_unknown_series_to_change_is_named_at_its_key():
    assert problems("series:\n  change:\n    q: {icon: x}\n") == [
        f"o.yaml:3:5: series.change.q: unknown series 'q' {SERIES}"]


def test_after_an_unknown_series_to_change_the_next_change_is_still_checked():
    assert problems("series:\n  change:\n    q: {icon: x}\n    u: {matrix: nope}\n") == [
        f"o.yaml:3:5: series.change.q: unknown series 'q' {SERIES}",
        "o.yaml:4:17: series.change.u.matrix: unknown size matrix 'nope' (defined: network, standard; add one "
        "under matrices.add)"]


def test_after_a_series_that_exists_the_next_new_series_is_still_checked():
    body = "      class: c\n      displayName: X\n      description: X.\n      icon: i\n      ratio: \"1:4\"\n"
    assert problems(f"series:\n  add:\n    u:\n      version: 1\n{body}    z:\n      version: 1\n"
                    f"      matrix: standrd\n{body}") == [
        "o.yaml:3:5: series.add.u: series 'u1' is already in the catalog; change it under series.change, or give "
        "the new series another prefix or version",
        "o.yaml:12:15: series.add.z.matrix: unknown size matrix 'standrd'; did you mean 'standard'? (defined: "
        "network, standard; add one under matrices.add)"]


def test_an_unknown_field_in_a_new_series_spec_is_named_at_its_key():
    """The series loader reports it through the overlay's source map, seen from a series file's paths."""
    assert problems(U2 + "      spec:\n        cpu: {nope: 1}\n") == [
        "o.yaml:11:15: series.add.u.spec.cpu.nope: unknown field 'nope'"]
