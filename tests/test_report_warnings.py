"""report.py's text report and summary around what does not count: warnings and newer-rule findings.

A warning (what KubeVirt admits and warns about) and a finding of a check newer
than its object's release are shown, each in a section of its own after the real
problems, and counted apart in the summary. Each section is set apart by exactly
one blank line, whichever of the three are there.
"""

from __future__ import annotations

from generator.problems import Location, Problem
from generator.report import summary, text

WARNINGS_HEADING = "warnings (KubeVirt admits these objects and warns; not counted without --warnings-as-errors):"

REAL = Problem(Location("bundles/all.yaml", 12, 5, ("spec",), 3, "u1.small"), "bad", "schema")
MODEL = Problem(Location("bundles/all.yaml", None, None, ("spec", "cpu", "model"), 4, "u1.large"),
                "cpu model 'host-model' is deprecated", "webhook-cpu", severity="warning")
CLOCK = Problem(Location("bundles/all.yaml", None, None, ("spec", "clock"), 4, "u1.large"),
                "clock is deprecated", "webhook-cpu", severity="warning")
NEWER = Problem(Location("old.yaml", None, None, ("metadata", "labels"), 0, "u1.large"), "missing",
                "labels-match-spec", since="v1.1.0", older_release="v1.0.0")
OLDER = Problem(Location("older.yaml", None, None, ("metadata", "labels"), 1, "u1.small"), "missing",
                "labels-match-spec", since="v1.1.0", older_release="v0.9.0")
#: A warning on an object older than the check: a newer-rule finding, not a warning.
OLD_WARNING = Problem(Location("old.yaml", None, None, ("spec",), 2, "u1.medium"), "deprecated",
                      "webhook-cpu", since="v1.1.0", older_release="v1.0.0", severity="warning")

REAL_LINE = "bundles/all.yaml#3 (u1.small) $.spec: bad [schema]"
MODEL_LINE = "bundles/all.yaml#4 (u1.large) $.spec.cpu.model: cpu model 'host-model' is deprecated [webhook-cpu]"
CLOCK_LINE = "bundles/all.yaml#4 (u1.large) $.spec.clock: clock is deprecated [webhook-cpu]"
NEWER_LINE = "old.yaml#0 (u1.large) $.metadata.labels: missing [labels-match-spec, since v1.1.0]"
OLDER_LINE = "older.yaml#1 (u1.small) $.metadata.labels: missing [labels-match-spec, since v1.1.0]"


def test_warnings_alone_are_shown_under_their_heading_then_the_summary():
    assert text([MODEL], 1) == "\n".join([
        WARNINGS_HEADING,
        MODEL_LINE,
        "",
        "no problems in 1 document; 1 warning in 1 of them, not counted",
    ]) + "\n"


def test_warnings_come_after_the_real_problems_one_blank_line_apart():
    assert text([REAL, MODEL, CLOCK], 10) == "\n".join([
        REAL_LINE,
        "",
        WARNINGS_HEADING,
        MODEL_LINE,
        CLOCK_LINE,
        "",
        "1 problem in 1 of 10 documents; 2 warnings in 1 of them, not counted",
    ]) + "\n"


def test_problems_warnings_and_newer_findings_are_three_sections_one_blank_line_apart():
    assert text([REAL, MODEL, CLOCK, NEWER, OLDER], 10) == "\n".join([
        REAL_LINE,
        "",
        WARNINGS_HEADING,
        MODEL_LINE,
        CLOCK_LINE,
        "",
        "from rules newer than the objects' releases v0.9.0, v1.0.0 (not counted):",
        NEWER_LINE,
        OLDER_LINE,
        "",
        "1 problem in 1 of 10 documents; 2 warnings in 1 of them, not counted; 2 findings from rules newer than "
        "releases v0.9.0, v1.0.0 in 2 of them, not counted",
    ]) + "\n"


def test_warnings_then_newer_findings_without_real_problems_are_one_blank_line_apart():
    assert text([MODEL, NEWER], 2) == "\n".join([
        WARNINGS_HEADING,
        MODEL_LINE,
        "",
        "from rules newer than the objects' release v1.0.0 (not counted):",
        NEWER_LINE,
        "",
        "no problems in 2 documents; 1 warning in 1 of them, not counted; 1 finding from rules newer than "
        "release v1.0.0 in 1 of them, not counted",
    ]) + "\n"


def test_real_problems_then_newer_findings_are_one_blank_line_apart():
    assert text([REAL, NEWER], 2) == "\n".join([
        REAL_LINE,
        "",
        "from rules newer than the objects' release v1.0.0 (not counted):",
        NEWER_LINE,
        "",
        "1 problem in 1 of 2 documents; 1 finding from rules newer than release v1.0.0 in 1 of them, not counted",
    ]) + "\n"


def test_a_warning_on_an_object_older_than_its_check_is_a_newer_rule_finding_not_a_warning():
    assert text([OLD_WARNING], 3) == "\n".join([
        "from rules newer than the objects' release v1.0.0 (not counted):",
        "old.yaml#2 (u1.medium) $.spec: deprecated [webhook-cpu, since v1.1.0]",
        "",
        "no problems in 3 documents; 1 finding from rules newer than release v1.0.0 in 1 of them, not counted",
    ]) + "\n"


def test_the_summary_counts_warnings_and_the_documents_they_are_in():
    assert summary([MODEL], 3) == "no problems in 3 documents; 1 warning in 1 of them, not counted"
    assert summary([MODEL, CLOCK], 3) == "no problems in 3 documents; 2 warnings in 1 of them, not counted"
    assert summary([REAL, MODEL, CLOCK], 3) == (
        "1 problem in 1 of 3 documents; 2 warnings in 1 of them, not counted")


def test_the_summary_names_every_release_the_findings_are_newer_than_in_order():
    assert summary([NEWER, OLDER], 2) == (
        "no problems in 2 documents; 2 findings from rules newer than releases v0.9.0, v1.0.0 in 2 of them, "
        "not counted")
    assert summary([NEWER, NEWER], 2) == (
        "no problems in 2 documents; 2 findings from rules newer than release v1.0.0 in 1 of them, not counted")
