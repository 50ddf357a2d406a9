"""Overlay provenance: applying an overlay records which line changed which model item,
expansion carries the lines to the objects, and the build's one validation points each
problem at them (validate/provenance.py)."""

from __future__ import annotations

import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

import generator.validate
from generator.cli import main
from generator.osinfo.discovery import NONE_FOUND
from generator.load.catalog import load_catalog
from generator.load.overlays import apply_overlay, load_overlay
from generator.load.preferences import load_preference_catalog
from generator.model import Catalog, CatalogObject, Change, PreferenceCatalog
from generator.paths import builtin_catalog
from generator.pipeline import BuildOptions, catalog_objects, generate
from generator.problems import Location, Problem
from generator.source.documents import BundleDoc
from generator.validate.provenance import decided, deciding, point_at_sources


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Overlays are named relative to a scratch directory, so their locations read as written."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(name: str, text: str) -> Path:
    Path(name).write_text(textwrap.dedent(text), encoding="utf-8")
    return Path(name)


def applied(path: Path) -> tuple[Catalog, PreferenceCatalog]:
    """The built-in model with one overlay applied."""
    catalog = load_catalog(builtin_catalog())
    return apply_overlay(catalog, load_preference_catalog(catalog.root), load_overlay(path))


def objects(*overlays: Path) -> dict[str, CatalogObject]:
    _, _, found = catalog_objects(BuildOptions(overlays=overlays))
    return {o.name: o for o in found}


def at(line: int, column: int, *path: str | int, file: str = "o.yaml") -> Location:
    return Location(file, line, column, tuple(path))


SERIES_CHANGE = at(3, 5, "series", "change", "u")
#: Where BREAKS_U writes the field it breaks: the line a problem on it is blamed on.
U_SPEC = "o.yaml:5:15: series.change.u.spec.cpu.dedicatedCpuPlacement"
U_AT, U_PATH = U_SPEC.split(": ")

BREAKS_U = """\
    series:
      change:
        u:
          spec:
            cpu: {dedicatedCpuPlacement: true}
    """
BROKEN_U = ("makes instancetype 'u1.2xlarge' invalid (and 9 more: u1.2xmedium, u1.4xlarge, u1.8xlarge, u1.large, "
            "u1.medium, ...): $.spec.cpu.dedicatedCpuPlacement: unknown field 'dedicatedCpuPlacement'; did you mean "
            "'dedicatedCPUPlacement'?")


# --------------------------------------------------------------------------- recording


def test_applying_an_overlay_records_the_line_of_each_change():
    catalog, preferences = applied(write("o.yaml", """\
        vendor: acme.example.com
        series:
          change:
            u: {displayName: Ours}
          drop: [rt]
        matrices:
          add:
            tiny: {pico: 1}
        traits:
          add:
            vnc: {description: A console., spec: {devices: {preferredAutoattachGraphicsDevice: true}}}
        preferences:
          change:
            fedora: {displayName: Fedora (ours)}
        """))
    assert catalog.changes == (
        Change(("catalog", "vendor"), at(1, 1, "vendor")),
        Change(("catalog", "series"), at(2, 1, "series")),
        Change(("catalog", "preferences"), at(12, 1, "preferences")),
        Change(("matrix", "tiny"), at(8, 5, "matrices", "add", "tiny")),
        Change(("series", "u1"), at(4, 9, "series", "change", "u", "displayName")),
    )
    assert preferences.changes == (
        Change(("trait", "vnc"), at(11, 5, "traits", "add", "vnc")),
        Change(("preference", "fedora"), at(14, 14, "preferences", "change", "fedora", "displayName")),
    )


def test_a_size_selection_is_a_change_of_the_catalog_not_of_each_series():
    catalog, _ = applied(write("o.yaml", "sizes:\n  drop: [2xmedium]\n"))
    assert catalog.changes == (Change(("catalog", "sizes"), at(1, 1, "sizes")),)
    assert objects(write("p.yaml", "sizes:\n  drop: [2xmedium]\n"))["u1.large"].shaped_by == ()


def test_the_changes_of_a_second_overlay_follow_those_of_the_first():
    catalog, preferences = applied(write("o.yaml", "series:\n  change:\n    u: {displayName: Ours}\n"))
    catalog, preferences = apply_overlay(catalog, preferences, load_overlay(
        write("p.yaml", "series:\n  change:\n    u: {icon: fa-server}\n")))
    assert [c.location for c in catalog.changes if c.subject == ("series", "u1")] == [
        at(3, 9, "series", "change", "u", "displayName"), at(3, 9, "series", "change", "u", "icon", file="p.yaml")]


def test_an_empty_overlay_records_nothing():
    catalog, preferences = applied(write("o.yaml", "# nothing yet\n"))
    assert (catalog.changes, preferences.changes) == ((), ())


# --------------------------------------------------------------------------- expansion


def test_expansion_carries_the_lines_to_the_objects_an_item_becomes():
    found = objects(write("o.yaml", """\
        series:
          change:
            u: {displayName: Ours}
        preferences:
          change:
            windows.7: {displayName: Windows 7 (ours)}
        """))
    assert {o.shaped_by for n, o in found.items() if n.startswith("u1.")} == {
        (at(3, 9, "series", "change", "u", "displayName"),)}
    changed = at(6, 17, "preferences", "change", "windows.7", "displayName")
    assert found["windows.7"].shaped_by == (changed,)
    assert found["windows.7.virtio"].shaped_by == (changed,)  # basedOn windows.7
    assert found["o1.large"].shaped_by == () and found["fedora"].shaped_by == ()


def test_a_preference_using_a_trait_an_overlay_added_carries_both_lines():
    found = objects(write("o.yaml", """\
        traits:
          add:
            vnc: {description: A console., spec: {devices: {preferredAutoattachGraphicsDevice: true}}}
        preferences:
          change:
            fedora: {addTraits: [vnc]}
        """))
    assert found["fedora"].shaped_by == (at(3, 5, "traits", "add", "vnc"),
                                         at(6, 14, "preferences", "change", "fedora", "addTraits"))


# --------------------------------------------------------------------------- the one validation


def test_an_object_an_overlay_breaks_is_reported_once_at_its_line_by_the_one_validation(
        monkeypatch: pytest.MonkeyPatch):
    calls = []
    validate_documents = generator.validate.validate_documents

    def counted(*args, **kwargs):
        calls.append(len(args[0]))
        return validate_documents(*args, **kwargs)

    monkeypatch.setattr(generator.validate, "validate_documents", counted)
    build = generate(BuildOptions(overlays=(write("o.yaml", BREAKS_U), write("p.yaml", "sizes:\n  drop: [nano]\n"))))
    # p.yaml's drop of the nano sizes leaves nine u1 objects to blame, and does not take the blame itself
    assert [str(p) for p in build.problems] == [
        f"{U_SPEC}: " + BROKEN_U.replace("(and 9 more:", "(and 8 more:") + " [schema]"]
    assert calls == [len(build.documents)]  # once, on the documents that ship


def test_the_cli_refuses_it_with_exit_2_and_one_problem(tmp_path: Path):
    write("o.yaml", BREAKS_U)
    result = CliRunner().invoke(main, ["build", "--overlay", "o.yaml", "--out", "out"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [f"{U_AT}: error: {U_PATH}: {BROKEN_U} [schema]",
                                          "citgen: 1 problem, nothing written"]
    assert not (tmp_path / "out").exists()


def test_validate_of_the_catalog_reports_it_at_the_same_line_with_exit_1(tmp_path: Path):
    CliRunner().invoke(main, ["init", "catalog"])
    Path("catalog/overlay.yaml").write_text(textwrap.dedent(BREAKS_U))
    result = CliRunner().invoke(main, ["validate", "--catalog", "catalog"])
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"catalog/overlay{U_AT[1:]}: error: {U_PATH}: {BROKEN_U} [schema]",
        "catalog catalog/ v0.1.0-dev: 1 problem in 244 documents, pointed at the catalog's lines", NONE_FOUND]


# --------------------------------------------------------------------------- any number of overlays

ICON = "series:\n  change:\n    u: {icon: fa-server}\n"
THREADS = "series:\n  change:\n    u:\n      spec: {ioThreadsPolicy: auto}\n"


def problems(*overlays: tuple[str, str]) -> list[str]:
    return [str(p) for p in generate(BuildOptions(overlays=tuple(write(n, t) for n, t in overlays))).problems]


@pytest.mark.parametrize("order", [("o.yaml", "p.yaml"), ("p.yaml", "o.yaml")])
def test_another_overlays_change_of_the_object_elsewhere_takes_none_of_the_blame(order: tuple[str, str]):
    """Once blamed on the last overlay that changed the series at all (its icon), whichever broke the spec."""
    texts = {"o.yaml": BREAKS_U, "p.yaml": ICON}
    assert problems(*((name, texts[name]) for name in order)) == [f"{U_SPEC}: {BROKEN_U} [schema]"]


def test_of_three_overlays_of_one_series_the_one_that_wrote_the_field_is_blamed():
    assert problems(("p.yaml", ICON), ("o.yaml", BREAKS_U), ("q.yaml", THREADS)) == [
        f"{U_SPEC}: {BROKEN_U} [schema]"]


def test_overlays_writing_the_same_field_blame_the_last_and_name_the_earlier():
    again = "series:\n  change:\n    u:\n      spec:\n        cpu: {dedicatedCpuPlacement: false}\n"
    assert problems(("o.yaml", BREAKS_U), ("p.yaml", ICON), ("q.yaml", again)) == [
        f"q.yaml:5:15: series.change.u.spec.cpu.dedicatedCpuPlacement: {BROKEN_U} (also shaped by o.yaml:5) "
        "[schema]"]


def test_overlays_breaking_different_objects_are_each_blamed_for_their_own():
    breaks_o = "series:\n  change:\n    o:\n      spec:\n        memory: {overcommitPercentage: 10}\n"
    found = problems(("o.yaml", BREAKS_U), ("p.yaml", breaks_o), ("q.yaml", ICON))
    assert [line.split(": makes")[0] for line in found] == [
        "p.yaml:5:18: series.change.o.spec.memory.overcommitPercentage", U_SPEC]


def test_a_preference_problem_is_blamed_on_the_requirements_not_on_the_names_around_them():
    found = problems(("o.yaml", "preferences:\n  change:\n    fedora: {displayName: Ours}\n"),
                     ("p.yaml", "preferences:\n  change:\n    fedora:\n      requirements: {cpu: 128}\n"),
                     ("q.yaml", "preferences:\n  change:\n    fedora: {description: Mine.}\n"))
    assert [line.split(" invalid")[0] for line in found] == [
        "p.yaml:4:22: preferences.change.fedora.requirements.cpu: makes preference 'fedora'"]


def test_an_object_renamed_by_one_overlay_and_narrowed_out_by_another_blames_the_narrowing():
    """rhel.9.dpdk's requirements go unmet when the sizes are cut; its new display name did not do that."""
    found = problems(("o.yaml", "preferences:\n  change:\n    rhel.9.dpdk: {displayName: DPDK}\n"),
                     ("p.yaml", "series:\n  keep: [u, o]\nsizes:\n  keep: [nano, micro, small, medium]\n"))
    assert len(found) == 1 and found[0].startswith("p.yaml:3:1: sizes: makes preference 'centos.stream9.dpdk' ")
    assert "rhel.9.dpdk" in found[0] and "also shaped by" not in found[0]


def test_two_overlays_narrowing_the_sizes_are_both_named_the_last_blamed():
    found = problems(("o.yaml", "series:\n  keep: [u, o]\n"),
                     ("p.yaml", "sizes:\n  keep: [nano, micro, small, medium]\n"),
                     ("q.yaml", "sizes:\n  drop: [micro]\n"))
    assert len(found) == 1 and found[0].startswith("q.yaml:1:1: sizes: makes preference 'centos.stream9.dpdk' ")
    assert found[0].endswith(" (also shaped by p.yaml:1) [requirements-met]")


def test_what_each_overlay_line_decides_of_an_object():
    assert decided(at(5, 1, "series", "change", "u", "spec", "cpu", "model")) == (("spec", "cpu", "model"),)
    assert decided(at(5, 1, "preferences", "change", "f", "overrideSpec", "devices")) == (("spec", "devices"),)
    assert decided(at(5, 1, "preferences", "change", "f", "requirements", "cpu")) == (("spec", "requirements", "cpu"),)
    assert decided(at(5, 1, "series", "change", "u", "displayName")) == (("metadata", "annotations"),)
    assert decided(at(5, 1, "parameters", "gpu")) == (("spec", "gpus"), ("metadata",))
    for whole in (at(5, 1, "series", "add", "z"), at(5, 1, "series", "change", "u", "sizes"),
                  at(5, 1, "preferences", "change", "f", "basedOn"), at(5, 1, "matrices", "add", "tiny"),
                  at(5, 1, "series", "change", "u")):
        assert decided(whole) == ((),)


def test_of_the_lines_that_shaped_an_object_those_writing_the_field_or_around_or_inside_it_decide():
    spec = at(4, 1, "series", "change", "u", "spec", "cpu", file="o.yaml")
    icon = at(3, 1, "series", "change", "u", "icon", file="p.yaml")
    added = at(2, 1, "series", "add", "u", file="q.yaml")
    assert deciding((added, spec, icon), ("spec", "cpu", "model")) == (added, spec)
    assert deciding((spec, icon), ("spec",)) == (spec,)
    assert deciding((spec, icon), ("spec", "memory")) == ()
    assert deciding((spec, icon), ()) == (spec, icon)


def test_a_later_overlay_may_repair_what_an_earlier_one_broke():
    repair = write("p.yaml", "series:\n  change:\n    u:\n      spec:\n        cpu: null\n")
    build = generate(BuildOptions(overlays=(write("o.yaml", BREAKS_U), repair)))
    assert build.problems == ()


# --------------------------------------------------------------------------- point_at_sources


def obj(name: str, *, shaped_by: tuple[Location, ...] = (), retained: bool = False) -> CatalogObject:
    return CatalogObject("preference", name, name, {}, {}, {}, Location("preferences/x.yaml", 7),
                         facts={"retained": True} if retained else {}, shaped_by=shaped_by)


def found(doc: int, name: str, rule: str = "requirements-met") -> Problem:
    return Problem(Location("all.yaml", doc=doc, name=name, path=("spec", "requirements")), "too big", rule)


SIZES = Change(("catalog", "sizes"), at(4, 1, "sizes"))
LABELS = Change(("catalog", "labels"), at(1, 1, "labels"))


def test_every_kind_and_object_with_the_same_lines_rule_and_field_is_one_problem():
    shaped = (SERIES_CHANGE,)
    pointed = point_at_sources([found(0, "a"), found(1, "a"), found(2, "b"), found(3, "c", rule="schema")],
                               [obj("a", shaped_by=shaped), obj("b", shaped_by=shaped), obj("c", shaped_by=shaped)])
    assert [str(p) for p in pointed] == [
        "o.yaml:3:5: series.change.u: makes preference 'a' invalid (and 1 more: b): $.spec.requirements: too big "
        "[requirements-met]",
        "o.yaml:3:5: series.change.u: makes preference 'c' invalid: $.spec.requirements: too big [schema]"]


def test_an_untouched_object_is_blamed_on_a_narrowing_before_a_stamped_setting():
    pointed = point_at_sources([found(0, "a")], [obj("a")], [SIZES, LABELS])
    assert [str(p) for p in pointed] == [
        "o.yaml:4:1: sizes: makes preference 'a' invalid: $.spec.requirements: too big [requirements-met]"]
    pointed = point_at_sources([found(0, "a")], [obj("a")], [LABELS])
    assert str(pointed[0]).startswith("o.yaml:1:1: labels: makes preference 'a' invalid: ")


def test_without_overlays_or_for_a_retained_object_the_definition_is_named():
    expected = "all.yaml#0 (a) $.spec.requirements: too big (defined in preferences/x.yaml:7) [requirements-met]"
    assert [str(p) for p in point_at_sources([found(0, "a")], [obj("a")])] == [expected]
    assert [str(p) for p in point_at_sources([found(0, "a")], [obj("a", retained=True)], [SIZES])] == [expected]


def test_a_series_given_a_new_version_keeps_the_lines_that_shaped_it():
    first = write("o.yaml", "series:\n  change:\n    u: {displayName: Ours}\n")
    found = objects(first, write("p.yaml", "series:\n  change:\n    u: {version: 2}\n"))
    assert found["u2.large"].shaped_by == (at(3, 9, "series", "change", "u", "displayName"),
                                           at(3, 9, "series", "change", "u", "version", file="p.yaml"))


def instancetype_obj(name: str, *, shaped_by: tuple[Location, ...] = ()) -> CatalogObject:
    return CatalogObject("instancetype", name, "u", {}, {}, {}, Location("series/u.yaml", 3), shaped_by=shaped_by)


def test_five_other_objects_are_all_named_without_an_ellipsis():
    shaped = (SERIES_CHANGE,)
    names = ["a", "b", "c", "d", "e", "f"]
    pointed = point_at_sources([found(i, name) for i, name in enumerate(names)],
                               [obj(name, shaped_by=shaped) for name in names])
    assert [str(p) for p in pointed] == [
        "o.yaml:3:5: series.change.u: makes preference 'a' invalid (and 5 more: b, c, d, e, f): "
        "$.spec.requirements: too big [requirements-met]"]


def test_every_earlier_line_that_shaped_an_object_is_named_in_order():
    lines = (at(3, 5, "series"), at(4, 5, "series", file="p.yaml"), at(5, 5, "series", file="q.yaml"))
    pointed = point_at_sources([found(0, "a")], [obj("a", shaped_by=lines)])
    assert [str(p) for p in pointed] == [
        "q.yaml:5:5: series: makes preference 'a' invalid: $.spec.requirements: too big "
        "(also shaped by o.yaml:3, p.yaml:4) [requirements-met]"]


def test_a_problem_blamed_on_a_line_keeps_the_release_that_introduced_its_check():
    dated = Problem(Location("all.yaml", doc=0, name="a", path=("metadata", "labels")), "label missing",
                    "labels-match-spec", since="v1.1.0")
    pointed = point_at_sources([dated], [obj("a", shaped_by=(SERIES_CHANGE,))])
    assert [(str(p), p.since) for p in pointed] == [
        ("o.yaml:3:5: series.change.u: makes preference 'a' invalid: $.metadata.labels: label missing "
         "[labels-match-spec]", "v1.1.0")]


def test_a_warning_blamed_on_a_line_stays_a_warning_and_apart_from_the_errors_of_its_field():
    """A KubeVirt warning on objects an overlay shaped was once blamed on the overlay as an error, blocking the build."""
    warned = replace(found(0, "a"), message="KubeVirt warns: spread", severity="warning")
    pointed = point_at_sources([warned, found(1, "b")], [obj("a", shaped_by=(SERIES_CHANGE,)),
                                                         obj("b", shaped_by=(SERIES_CHANGE,))])
    assert [(str(p), p.severity) for p in pointed] == [
        ("o.yaml:3:5: series.change.u: makes preference 'a' draw a warning: $.spec.requirements: KubeVirt warns: "
         "spread "
         "[requirements-met]", "warning"),
        ("o.yaml:3:5: series.change.u: makes preference 'b' invalid: $.spec.requirements: too big "
         "[requirements-met]", "error")]


def test_a_definition_without_a_line_is_named_by_its_file():
    defined = CatalogObject("preference", "a", "a", {}, {}, {}, Location("preferences/x.yaml"))
    assert [str(p) for p in point_at_sources([found(0, "a")], [defined])] == [
        "all.yaml#0 (a) $.spec.requirements: too big (defined in preferences/x.yaml) [requirements-met]"]


def test_the_kind_of_a_problems_document_tells_objects_of_one_name_apart():
    """An instancetype and a preference both named 'a': each problem goes to the object of its document's kind."""
    documents = [BundleDoc("all.yaml", 0, {"kind": "VirtualMachineClusterInstancetype", "metadata": {"name": "a"}}),
                 BundleDoc("all.yaml", 1, {"kind": "VirtualMachineClusterPreference", "metadata": {"name": "a"}})]
    pointed = point_at_sources([found(0, "a"), found(1, "a")], [instancetype_obj("a", shaped_by=(SERIES_CHANGE,)),
                                                                obj("a")], documents=documents)
    assert [str(p) for p in pointed] == [
        "o.yaml:3:5: series.change.u: makes instancetype 'a' invalid: $.spec.requirements: too big "
        "[requirements-met]",
        "all.yaml#1 (a) $.spec.requirements: too big (defined in preferences/x.yaml:7) [requirements-met]"]


def test_a_problem_on_no_catalog_object_or_of_an_older_release_is_kept_as_it_is_in_its_place():
    older = replace(found(2, "c"), older_release="v1.0.0", since="v1.1.0")
    unknown = found(1, "zzz")
    pointed = point_at_sources([found(0, "a"), unknown, older, found(3, "b")],
                               [obj("a"), obj("b"), obj("c", shaped_by=(SERIES_CHANGE,))])
    assert pointed[1:3] == [unknown, older]
    assert [str(p) for p in pointed] == [
        "all.yaml#0 (a) $.spec.requirements: too big (defined in preferences/x.yaml:7) [requirements-met]",
        "all.yaml#1 (zzz) $.spec.requirements: too big [requirements-met]",
        "all.yaml#2 (c) $.spec.requirements: too big [requirements-met]",
        "all.yaml#3 (b) $.spec.requirements: too big (defined in preferences/x.yaml:7) [requirements-met]"]


def test_an_empty_name_is_a_name_a_retained_object_is_found_by():
    """An old bundle may hold an object named ''; a problem on its document still names where it was defined."""
    problem = Problem(Location("all.yaml", doc=0, name="", path=("metadata",)), "metadata.name is required",
                      "object-metadata")
    assert [str(p) for p in point_at_sources([problem], [obj("", retained=True)], [SIZES])] == [
        "all.yaml#0 $.metadata: metadata.name is required (defined in preferences/x.yaml:7) [object-metadata]"]
