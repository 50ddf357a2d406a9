"""The reporters on the same problems: one line per finding for people, JSON for programs, GitHub annotations."""

from __future__ import annotations

import json
import re

from generator.problems import Location, Problem, sort_problems
from generator.report import finding_line, github, json_report, render, summary, text

LABEL = ("metadata", "labels", "instancetype.kubevirt.io/cpu")
CIT, IT = "VirtualMachineClusterInstancetype", "VirtualMachineInstancetype"
PROBLEMS = [
    Problem(Location("bundles/all.yaml", 12, 5, LABEL, 3, "u1.large", CIT),
            "label instancetype.kubevirt.io/cpu is '4' but spec.cpu.guest is 2", "labels-match-spec"),
    Problem(Location("bundles/all.yaml", None, None, ("spec", "cpu", "gueest"), 7, "cx1.large", IT, "ns"),
            "unknown field 'gueest'; did you mean 'guest'?", "schema"),
]


def test_text_is_one_line_per_problem_as_linters_write_them_then_a_summary():
    assert text(PROBLEMS, 244) == (
        f"bundles/all.yaml:12:5: error: {CIT} u1.large $.metadata.labels['instancetype.kubevirt.io/cpu']: "
        "label instancetype.kubevirt.io/cpu is '4' but spec.cpu.guest is 2 [labels-match-spec]\n"
        f"bundles/all.yaml: error: {IT} ns/cx1.large (document 7) $.spec.cpu.gueest: unknown field 'gueest'; "
        "did you mean 'guest'? [schema]\n"
        "2 problems in 2 of 244 documents\n"
    )


def test_every_line_matches_the_pattern_editors_jump_to():
    pattern = re.compile(r"^(?P<file>[^:]+)(:(?P<line>[0-9]+)(:(?P<column>[0-9]+))?)?: (?P<severity>error|warning|note): "
                         r"(?P<message>.+) \[(?P<rule>[a-z-]+)\]$")
    lines = text([*PROBLEMS, SIZE_MISSING, Problem(Location("--out"), "is a file")]).splitlines()
    assert [pattern.fullmatch(line)["rule"] for line in lines] == [
        "labels-match-spec", "schema", "labels-match-spec", "input"]


def test_a_finding_line_is_sorted_as_the_report_and_names_no_object_it_lacks():
    assert finding_line(Problem(Location("b.yaml", 1, 2, (), 0), "not a mapping", "api-version")) == (
        "b.yaml:1:2: error: not a mapping [api-version]")


def test_summary_counts_documents_and_speaks_singular():
    assert summary([], 1) == "no problems in 1 document"
    assert summary([], 0) == "no problems in 0 documents"
    assert summary(PROBLEMS[:1] * 2, 1) == "2 problems in 1 of 1 document"
    assert summary(PROBLEMS[:1], 5) == "1 problem in 1 of 5 documents"


def test_json_is_a_list_of_records_with_every_field():
    assert json.loads(json_report(PROBLEMS, 244)) == [
        {"file": "bundles/all.yaml", "line": 12, "column": 5, "document": 3, "kind": CIT, "namespace": None,
         "name": "u1.large",
         "path": "$.metadata.labels['instancetype.kubevirt.io/cpu']", "rule": "labels-match-spec",
         "severity": "error", "message": "label instancetype.kubevirt.io/cpu is '4' but spec.cpu.guest is 2",
         "since": None, "newerThanRelease": None},
        {"file": "bundles/all.yaml", "line": None, "column": None, "document": 7, "kind": IT, "namespace": "ns",
         "name": "cx1.large",
         "path": "$.spec.cpu.gueest", "rule": "schema", "severity": "error",
         "message": "unknown field 'gueest'; did you mean 'guest'?", "since": None, "newerThanRelease": None},
    ]


def test_json_of_no_problems_is_an_empty_list():
    assert json_report([], 3) == "[]\n"


def test_github_annotations_carry_line_when_known_and_escape_their_fields():
    odd = Problem(Location("a,b:c.yaml", 2, None, ("spec",), 0, None), "50% done\nnext line", "twins-identical")
    assert github([*PROBLEMS, odd], 244).splitlines() == [
        f"::error file=bundles/all.yaml,line=12,col=5,title=labels-match-spec::{CIT} u1.large "
        "$.metadata.labels['instancetype.kubevirt.io/cpu']: label instancetype.kubevirt.io/cpu is '4' but "
        "spec.cpu.guest is 2",
        f"::error file=bundles/all.yaml,title=schema::{IT} ns/cx1.large (document 7) $.spec.cpu.gueest: unknown "
        "field 'gueest'; did you mean 'guest'?",
        "::error file=a%2Cb%3Ac.yaml,line=2,title=twins-identical::$.spec: 50%25 done%0Anext line",
        "::notice title=citgen validate::3 problems in 3 of 244 documents",
    ]


def test_catalog_input_problems_keep_their_dotted_path():
    problem = Problem(Location("series/u.yaml", 4, 1, ("sizes", "large")), "unknown size")
    assert json.loads(json_report([problem], 0))[0]["path"] == "sizes.large"
    assert github([problem], 0).splitlines()[0] == (
        "::error file=series/u.yaml,line=4,col=1,title=input::sizes.large: unknown size")


def test_render_is_deterministic_and_picks_the_format():
    for fmt, reporter in (("text", text), ("json", json_report), ("github", github)):
        assert render(PROBLEMS, 244, fmt) == render(list(PROBLEMS), 244, fmt) == reporter(PROBLEMS, 244)


# --- findings of checks newer than the object's release ----------------------------------------

SIZE_MISSING = Problem(Location("old.yaml", None, None, ("metadata", "labels"), 0, "u1.large", CIT),
                       "the size in the name u1.large is 'large' but label instancetype.kubevirt.io/size is missing",
                       "labels-match-spec", since="v1.1.0", older_release="v1.0.0")
WRONG_CPU = Problem(Location("old.yaml", None, None, LABEL, 1, "u1.small", CIT),
                    "label instancetype.kubevirt.io/cpu is '4' but spec.cpu.guest is 1", "labels-match-spec")


def test_text_shows_newer_rule_findings_as_notes_that_say_why_they_do_not_count():
    assert text(sort_problems([SIZE_MISSING, WRONG_CPU]), 2) == (
        f"old.yaml: note: {CIT} u1.large (document 0) $.metadata.labels: the size in the name u1.large is 'large' "
        "but label instancetype.kubevirt.io/size is missing (rule since v1.1.0, newer than the object's release "
        "v1.0.0) [labels-match-spec]\n"
        f"old.yaml: error: {CIT} u1.small (document 1) $.metadata.labels['instancetype.kubevirt.io/cpu']: "
        "label instancetype.kubevirt.io/cpu is '4' but spec.cpu.guest is 1 [labels-match-spec]\n"
        "1 problem in 1 of 2 documents; 1 finding from rules newer than release v1.0.0 in 1 of them, not counted\n"
    )


def test_summary_of_only_newer_rule_findings_says_no_problems():
    assert summary([SIZE_MISSING, SIZE_MISSING], 142) == (
        "no problems in 142 documents; 2 findings from rules newer than release v1.0.0 in 1 of them, not counted")


def test_json_marks_newer_rule_findings_with_the_release_they_are_newer_than():
    records = json.loads(json_report([SIZE_MISSING, WRONG_CPU], 2))
    assert [(r["document"], r["since"], r["newerThanRelease"]) for r in records] == [
        (0, "v1.1.0", "v1.0.0"), (1, None, None)]


def test_github_shows_newer_rule_findings_as_notices():
    assert github([SIZE_MISSING], 1).splitlines() == [
        f"::notice file=old.yaml,title=labels-match-spec::{CIT} u1.large (document 0) $.metadata.labels: the size in the name "
        "u1.large is 'large' but label instancetype.kubevirt.io/size is missing (rule since v1.1.0, newer than "
        "the object's release v1.0.0)",
        "::notice title=citgen validate::no problems in 1 document; 1 finding from rules newer than release "
        "v1.0.0 in 1 of them, not counted",
    ]


def test_problems_pointed_at_a_catalogs_lines_are_counted_apart_from_documents():
    at_overlay = Problem(Location("overlay.yaml", 3, 5, ("series", "change", "u")), "makes 'u1.large' invalid",
                         "schema")
    assert summary([at_overlay], 244) == "1 problem in 244 documents, pointed at the catalog's lines"
    assert summary([at_overlay, PROBLEMS[0]], 244) == (
        "2 problems in 244 documents: 1 in 1 of them, 1 pointed at the catalog's lines")


def test_a_finding_said_at_thousands_of_places_is_shown_at_its_first_and_counted():
    same = [Problem(Location("vms.yaml", 10 * n, 11, ("spec",), n, f"vm{n}", "VirtualMachine"),
                    "names instancetype 'u1.huge', which the built-in catalog does not have", "unknown-name")
            for n in range(1, 5001)]
    other = Problem(Location("vms.yaml", 15, 3, ("spec",), 1, "vm1", "VirtualMachine"), "another", "kind")
    lines = text(sort_problems([*same, other])).splitlines()
    assert lines[:6] == [finding_line(p) for p in sort_problems([*same[:5], other])]
    assert lines[6:] == ["citgen: 4995 more places of the error \"names instancetype 'u1.huge', which the built-in "
                         "catalog does not have\" [unknown-name] not shown; --format json or sarif lists every place"]
    assert len(json.loads(json_report(same, 5000))) == 5000  # every place, for programs


def test_twenty_places_of_one_finding_are_all_shown():
    same = [Problem(Location("vms.yaml", n, 1), "x", "kind") for n in range(1, 21)]
    assert text(same).splitlines() == [finding_line(p) for p in same]
