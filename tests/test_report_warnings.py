"""report.py's text report and summary around what does not count: warnings and newer-rule findings.

A warning (what KubeVirt admits and warns about) and a finding of a check newer
than its object's release (a note) are shown one line each, as every finding is,
their severity saying how they count, and counted apart in the summary.
"""

from __future__ import annotations

from generator.problems import Location, Problem
from generator.report import summary, text

CIT = "VirtualMachineClusterInstancetype"

REAL = Problem(Location("bundles/all.yaml", 12, 5, ("spec",), 3, "u1.small", CIT), "bad", "schema")
MODEL = Problem(Location("bundles/all.yaml", None, None, ("spec", "cpu", "model"), 4, "u1.large", CIT),
                "cpu model 'host-model' is deprecated", "webhook-cpu", severity="warning")
CLOCK = Problem(Location("bundles/all.yaml", None, None, ("spec", "clock"), 4, "u1.large", CIT),
                "clock is deprecated", "webhook-cpu", severity="warning")
NEWER = Problem(Location("old.yaml", None, None, ("metadata", "labels"), 0, "u1.large", CIT), "missing",
                "labels-match-spec", since="v1.1.0", older_release="v1.0.0")
OLDER = Problem(Location("older.yaml", None, None, ("metadata", "labels"), 1, "u1.small", CIT), "missing",
                "labels-match-spec", since="v1.1.0", older_release="v0.9.0")
#: A warning on an object older than the check: a newer-rule finding, not a warning.
OLD_WARNING = Problem(Location("old.yaml", None, None, ("spec",), 2, "u1.medium", CIT), "deprecated",
                      "webhook-cpu", since="v1.1.0", older_release="v1.0.0", severity="warning")

REAL_LINE = f"bundles/all.yaml:12:5: error: {CIT} u1.small $.spec: bad [schema]"
MODEL_LINE = (f"bundles/all.yaml: warning: {CIT} u1.large (document 4) $.spec.cpu.model: cpu model 'host-model' is "
              "deprecated [webhook-cpu]")
CLOCK_LINE = f"bundles/all.yaml: warning: {CIT} u1.large (document 4) $.spec.clock: clock is deprecated [webhook-cpu]"
NEWER_LINE = (f"old.yaml: note: {CIT} u1.large (document 0) $.metadata.labels: missing (rule since v1.1.0, newer "
              "than the object's release v1.0.0) [labels-match-spec]")
OLDER_LINE = (f"older.yaml: note: {CIT} u1.small (document 1) $.metadata.labels: missing (rule since v1.1.0, newer "
              "than the object's release v0.9.0) [labels-match-spec]")


def test_a_warning_is_one_line_of_severity_warning_then_the_summary():
    assert text([MODEL], 1) == "\n".join([
        MODEL_LINE,
        "no problems in 1 document; 1 warning in 1 of them, not counted",
    ]) + "\n"


def test_problems_warnings_and_newer_findings_are_lines_in_the_order_given_then_the_summary():
    assert text([REAL, MODEL, CLOCK, NEWER, OLDER], 10) == "\n".join([
        REAL_LINE,
        MODEL_LINE,
        CLOCK_LINE,
        NEWER_LINE,
        OLDER_LINE,
        "1 problem in 1 of 10 documents; 2 warnings in 1 of them, not counted; 2 findings from rules newer than "
        "releases v0.9.0, v1.0.0 in 2 of them, not counted",
    ]) + "\n"


def test_warnings_and_newer_findings_without_real_problems_count_nothing():
    assert text([MODEL, NEWER], 2) == "\n".join([
        MODEL_LINE,
        NEWER_LINE,
        "no problems in 2 documents; 1 warning in 1 of them, not counted; 1 finding from rules newer than "
        "release v1.0.0 in 1 of them, not counted",
    ]) + "\n"


def test_a_warning_on_an_object_older_than_its_check_is_a_newer_rule_finding_not_a_warning():
    assert text([OLD_WARNING], 3) == "\n".join([
        f"old.yaml: note: {CIT} u1.medium (document 2) $.spec: deprecated (rule since v1.1.0, newer than the "
        "object's release v1.0.0) [webhook-cpu]",
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
