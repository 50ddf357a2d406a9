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
         "message": "label instancetype.kubevirt.io/cpu is '4' but spec.cpu.guest is 2"},
        {"file": "bundles/all.yaml", "line": None, "column": None, "document": 7, "name": "cx1.large",
         "path": "$.spec.cpu.gueest", "rule": "schema",
         "message": "unknown field 'gueest'; did you mean 'guest'?"},
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
