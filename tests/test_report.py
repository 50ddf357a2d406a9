"""The three reporters on the same problems: text for people, JSON for programs, GitHub annotations."""

from __future__ import annotations

import json

from generator.problems import Location, Problem
from generator.report import github, json_report, render, summary, text

LABEL = ("metadata", "labels", "instancetype.kubevirt.io/cpu")
PROBLEMS = [
    Problem(Location("bundles/all.yaml", 12, 5, LABEL, 3, "u1.large"),
            "label instancetype.kubevirt.io/cpu is '4' but spec.cpu.guest is 2", "labels-match-spec"),
    Problem(Location("bundles/all.yaml", None, None, ("spec", "cpu", "gueest"), 7, "cx1.large"),
            "unknown field 'gueest'; did you mean 'guest'?", "schema"),
]


def test_text_is_one_line_per_problem_then_a_summary():
    assert text(PROBLEMS, 244) == (
        "bundles/all.yaml#3 (u1.large) $.metadata.labels['instancetype.kubevirt.io/cpu']: "
        "label instancetype.kubevirt.io/cpu is '4' but spec.cpu.guest is 2 [labels-match-spec]\n"
        "bundles/all.yaml#7 (cx1.large) $.spec.cpu.gueest: unknown field 'gueest'; did you mean 'guest'? [schema]\n"
        "2 problems in 2 of 244 documents\n"
    )


def test_summary_counts_documents_and_speaks_singular():
    assert summary([], 1) == "no problems in 1 document"
    assert summary([], 0) == "no problems in 0 documents"
    assert summary(PROBLEMS[:1] * 2, 1) == "2 problems in 1 of 1 document"
    assert summary(PROBLEMS[:1], 5) == "1 problem in 1 of 5 documents"


def test_json_is_a_list_of_records_with_every_field():
    assert json.loads(json_report(PROBLEMS, 244)) == [
        {"file": "bundles/all.yaml", "line": 12, "column": 5, "document": 3, "name": "u1.large",
         "path": "$.metadata.labels['instancetype.kubevirt.io/cpu']", "rule": "labels-match-spec",
         "severity": "error", "message": "label instancetype.kubevirt.io/cpu is '4' but spec.cpu.guest is 2",
         "since": None, "newerThanRelease": None},
        {"file": "bundles/all.yaml", "line": None, "column": None, "document": 7, "name": "cx1.large",
         "path": "$.spec.cpu.gueest", "rule": "schema", "severity": "error",
         "message": "unknown field 'gueest'; did you mean 'guest'?", "since": None, "newerThanRelease": None},
    ]


def test_json_of_no_problems_is_an_empty_list():
    assert json_report([], 3) == "[]\n"


def test_github_annotations_carry_line_when_known_and_escape_their_fields():
    odd = Problem(Location("a,b:c.yaml", 2, None, ("spec",), 0, None), "50% done\nnext line", "twins-identical")
    assert github([*PROBLEMS, odd], 244).splitlines() == [
        "::error file=bundles/all.yaml,line=12,col=5,title=labels-match-spec::#3 (u1.large) "
        "$.metadata.labels['instancetype.kubevirt.io/cpu']: label instancetype.kubevirt.io/cpu is '4' but "
        "spec.cpu.guest is 2",
        "::error file=bundles/all.yaml,title=schema::#7 (cx1.large) $.spec.cpu.gueest: unknown field 'gueest'; "
        "did you mean 'guest'?",
        "::error file=a%2Cb%3Ac.yaml,line=2,title=twins-identical::#0 $.spec: 50%25 done%0Anext line",
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

SIZE_MISSING = Problem(Location("old.yaml", None, None, ("metadata", "labels"), 0, "u1.large"),
                       "the size in the name u1.large is 'large' but label instancetype.kubevirt.io/size is missing",
                       "labels-match-spec", since="v1.1.0", older_release="v1.0.0")
WRONG_CPU = Problem(Location("old.yaml", None, None, LABEL, 1, "u1.small"),
                    "label instancetype.kubevirt.io/cpu is '4' but spec.cpu.guest is 1", "labels-match-spec")


def test_text_lists_newer_rule_findings_apart_after_the_real_problems():
    assert text([SIZE_MISSING, WRONG_CPU], 2) == (
        "old.yaml#1 (u1.small) $.metadata.labels['instancetype.kubevirt.io/cpu']: "
        "label instancetype.kubevirt.io/cpu is '4' but spec.cpu.guest is 1 [labels-match-spec]\n"
        "\n"
        "from rules newer than the objects' release v1.0.0 (not counted):\n"
        "old.yaml#0 (u1.large) $.metadata.labels: the size in the name u1.large is 'large' but label "
        "instancetype.kubevirt.io/size is missing [labels-match-spec, since v1.1.0]\n"
        "\n"
        "1 problem in 1 of 2 documents; 1 finding from rules newer than release v1.0.0 in 1 of them, not counted\n"
    )


def test_summary_of_only_newer_rule_findings_says_no_problems():
    assert summary([SIZE_MISSING, SIZE_MISSING], 142) == (
        "no problems in 142 documents; 2 findings from rules newer than release v1.0.0 in 1 of them, not counted")


def test_json_marks_newer_rule_findings_with_the_release_they_are_newer_than():
    records = json.loads(json_report([SIZE_MISSING, WRONG_CPU], 2))
    assert [(r["document"], r["since"], r["newerThanRelease"]) for r in records] == [
        (0, "v1.1.0", "v1.0.0"), (1, None, None)]


def test_github_shows_newer_rule_findings_as_warnings():
    assert github([SIZE_MISSING], 1).splitlines() == [
        "::warning file=old.yaml,title=labels-match-spec::#0 (u1.large) $.metadata.labels: the size in the name "
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
