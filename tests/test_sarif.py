"""generator/sarif.py: any command's findings as SARIF 2.1.0, valid against OASIS's published schema."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft4Validator

from generator.problems import Location, Problem
from generator.result import Result
from generator.sarif import sarif_log

from tests.conftest import SHARED, shared_file

ON_OBJECT = Problem(Location("bundles/all.yaml", 212, 7, ("spec", "cpu", "guest"), 3, "u1.large",
                             "VirtualMachineInstancetype", "ns"), "must be at least 1", "schema")
IN_CATALOG = Problem(Location("series/cx.yaml", 14, 3, ("sizes", "large", "memory")), "expected a quantity")
ON_OPTION = Problem(Location("--out"), "is a file, not a folder")
ON_STDIN = Problem(Location("<stdin>", 5, 24, ("spec", "instancetype", "name"), 0, "vm"), "unknown name",
                   "unknown-name")
WARNING = Problem(Location("b.yaml", 3, 1, (), 0, "x", "VirtualMachineClusterPreference"), "deprecated value",
                  "webhook-spread-options", severity="warning")
NEWER = Problem(Location("old.yaml", None, None, ("metadata",), 0, "u1.large"), "label size is missing",
                "labels-match-spec", since="v1.1.0", older_release="v1.0.0")
FINDINGS = [ON_OBJECT, IN_CATALOG, ON_OPTION, ON_STDIN, WARNING, NEWER]


@pytest.fixture(scope="module")
def validator() -> Draft4Validator:
    schema = json.loads(shared_file(SHARED / "reference" / "sarif" / "sarif-schema-2.1.0.json").read_text())
    return Draft4Validator(schema)


def log(*findings: Problem, result: Result | None = None) -> dict:
    return sarif_log(result or Result("validate", problems=findings, documents=1), findings)


def test_a_log_of_every_kind_of_location_and_severity_is_valid_sarif(validator):
    errors = sorted(validator.iter_errors(log(*FINDINGS)), key=str)
    assert errors == []


def test_a_log_without_findings_is_valid_sarif(validator):
    assert list(validator.iter_errors(log())) == []


def test_a_refusal_is_an_unsuccessful_run_with_its_exit_code(validator):
    refused = Result("refs", problems=(ON_OPTION,), notes=("citgen: 1 problem",), unusable=True)
    found = log(ON_OPTION, result=refused)
    assert list(validator.iter_errors(found)) == []
    [invocation] = found["runs"][0]["invocations"]
    assert (invocation["executionSuccessful"], invocation["exitCode"]) == (False, 2)
    assert invocation["toolExecutionNotifications"] == [{"message": {"text": "citgen: 1 problem"}, "level": "note"}]


def test_a_finding_on_an_object_is_in_its_file_at_its_line_and_names_the_object():
    [result] = log(ON_OBJECT)["runs"][0]["results"]
    assert result["ruleId"] == "schema" and result["level"] == "error"
    assert result["locations"] == [{
        "physicalLocation": {"artifactLocation": {"uri": "bundles/all.yaml"},
                             "region": {"startLine": 212, "startColumn": 7}},
        "logicalLocations": [{"fullyQualifiedName": "VirtualMachineInstancetype/ns/u1.large$.spec.cpu.guest",
                              "name": "u1.large", "kind": "object"}]}]


def test_an_option_or_standard_input_has_no_file_to_point_at():
    results = log(ON_OPTION, ON_STDIN)["runs"][0]["results"]
    assert [r["locations"] for r in results][0] == []
    assert "physicalLocation" not in results[1]["locations"][0]


def test_severities_become_sarif_levels_and_a_newer_rule_s_finding_a_note():
    results = log(ON_OBJECT, WARNING, NEWER)["runs"][0]["results"]
    assert [r["level"] for r in results] == ["error", "warning", "note"]
    assert results[2]["message"]["text"].endswith("(rule since v1.1.0, newer than the object's release v1.0.0)")


def test_rules_are_listed_once_each_with_their_description_and_results_point_at_them():
    run = log(ON_OBJECT, ON_OBJECT, IN_CATALOG)["runs"][0]
    assert [rule["id"] for rule in run["tool"]["driver"]["rules"]] == ["input", "schema"]
    assert run["tool"]["driver"]["rules"][1]["shortDescription"]["text"].startswith("Every object matches")
    assert [r["ruleIndex"] for r in run["results"]] == [1, 1, 0]


def test_a_path_with_spaces_or_an_absolute_path_is_a_uri():
    spaced = Problem(Location("my bundles/a#1.yaml", 1, 1), "x")
    absolute = Problem(Location("/srv/b.yaml", 1, 1), "x")
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in log(spaced, absolute)["runs"][0]["results"]]
    assert uris == ["my%20bundles/a%231.yaml", "file:///srv/b.yaml"]
