"""report.py showing any command's Result, called directly, as exact text.

``show`` picks the format: text, JSON, GitHub, Markdown (a command's own rendition
where it has one) or SARIF. Findings are a command's report on standard output; the
problems of a refusal are why it stopped, on standard error. The JSON object is
two-space indented with its keys sorted; a product printed in a GitHub log is kept
from running as workflow commands (``inert``).
"""

from __future__ import annotations

import json

from generator.problems import Location, Problem
from generator.report import (Shown, envelope, inert, json_report, markdown_report, render, show, show_github,
                              show_json, show_markdown, show_text, text)
from generator.result import Result

AT_INPUT = Problem(Location("series/u.yaml", 4, 1, ("sizes", "large")), "unknown size")
CIT = "VirtualMachineClusterInstancetype"
WARNED = Problem(Location("b.yaml", None, None, ("spec",), 0, "u1.large", CIT), "deprecated", "webhook-cpu",
                 severity="warning")
NEWER = Problem(Location("old.yaml", None, None, ("metadata", "labels"), 0, "u1.large", CIT), "missing",
                "labels-match-spec", since="v1.1.0", older_release="v1.0.0")

AT_INPUT_RECORD = {"file": "series/u.yaml", "line": 4, "column": 1, "document": None, "kind": None,
                   "namespace": None, "name": None,
                   "path": "sizes.large", "rule": "input", "severity": "error", "message": "unknown size",
                   "since": None, "newerThanRelease": None}
WARNED_RECORD = {"file": "b.yaml", "line": None, "column": None, "document": 0, "kind": CIT, "namespace": None,
                 "name": "u1.large",
                 "path": "$.spec", "rule": "webhook-cpu", "severity": "warning", "message": "deprecated",
                 "since": None, "newerThanRelease": None}
NEWER_RECORD = {"file": "old.yaml", "line": None, "column": None, "document": 0, "kind": CIT, "namespace": None,
                "name": "u1.large",
                "path": "$.metadata.labels", "rule": "labels-match-spec", "severity": "error",
                "message": "missing", "since": "v1.1.0", "newerThanRelease": "v1.0.0"}


# --- the validation report -------------------------------------------------------------------

def test_render_prints_text_unless_told_otherwise():
    assert render([AT_INPUT], 2) == text([AT_INPUT], 2) == (
        "series/u.yaml:4:1: error: sizes.large: unknown size [input]\n1 problem in 2 documents, pointed at the "
        "catalog's lines\n")


def test_the_json_report_is_a_two_space_indented_list_in_field_order():
    assert json_report([AT_INPUT], 1) == (
        '[\n  {\n    "file": "series/u.yaml",\n    "line": 4,\n    "column": 1,\n    "document": null,\n'
        '    "kind": null,\n    "namespace": null,\n    "name": null,\n    "path": "sizes.large",\n    "rule": "input",\n    "severity": "error",\n'
        '    "message": "unknown size",\n    "since": null,\n    "newerThanRelease": null\n  }\n]\n')


def test_a_validation_of_no_documents_says_so_in_text_and_github():
    checked_nothing = Result("validate", documents=0)
    assert show_text(checked_nothing) == Shown("no problems in 0 documents\n", "")
    assert show_github(checked_nothing) == Shown("::notice title=citgen validate::no problems in 0 documents\n", "")


def test_a_validation_s_problems_are_its_report_on_standard_output_and_never_on_standard_error():
    found = Result("validate", problems=(AT_INPUT,), documents=2, notes=("see docs/validation.md",))
    assert show_text(found) == Shown(
        "series/u.yaml:4:1: error: sizes.large: unknown size [input]\n1 problem in 2 documents, pointed at the "
        "catalog's lines\n", "see docs/validation.md\n")


def test_any_command_s_findings_are_its_output_on_standard_output_before_what_it_says():
    found = Result("refs", problems=(AT_INPUT,), warnings=(WARNED,), outputs=("1 reference checked",),
                   notes=("a note",))
    assert show_text(found) == Shown(
        f"b.yaml: warning: {CIT} u1.large (document 0) $.spec: deprecated [webhook-cpu]\n"
        "series/u.yaml:4:1: error: sizes.large: unknown size [input]\n1 reference checked\n", "a note\n")


def test_a_product_other_programs_read_keeps_standard_output_to_itself():
    expanded = Result("expand", problems=(AT_INPUT,), product="kind: VirtualMachine\n", pipeable=True)
    assert show_text(expanded) == Shown("kind: VirtualMachine\n",
                                        "series/u.yaml:4:1: error: sizes.large: unknown size [input]\n")


def test_a_refusal_s_problems_and_warnings_go_to_standard_error():
    refused = Result("build", problems=(AT_INPUT,), warnings=(WARNED,), notes=("citgen: 1 problem",),
                     unusable=True)
    assert show_text(refused) == Shown("", f"b.yaml: warning: {CIT} u1.large (document 0) $.spec: deprecated "
                                           "[webhook-cpu]\n"
                                           "series/u.yaml:4:1: error: sizes.large: unknown size [input]\n"
                                           "citgen: 1 problem\n")


# --- any command's JSON --------------------------------------------------------------------------

def test_the_json_object_is_two_space_indented_with_its_keys_sorted_the_command_s_own_among_them():
    assert show_json(Result("list", data={"zeta": 1, "alpha": []})) == Shown(
        '{\n  "alpha": [],\n  "command": "list",\n  "counts": {},\n  "exitCode": 0,\n'
        '  "newerRuleFindings": [],\n  "notes": [],\n  "ok": true,\n  "outputs": [],\n  "problems": [],\n'
        '  "warnings": [],\n  "zeta": 1\n}\n')


def test_the_envelope_holds_a_record_of_every_problem_warning_and_newer_finding():
    result = Result("expand", problems=(AT_INPUT,), warnings=(WARNED,), newer_rule_findings=(NEWER,),
                    outputs=("wrote x",), notes=("a note",), data={"vms": ["a"]}, counts={"vms": 1})
    assert envelope(result) == {
        "vms": ["a"], "command": "expand", "ok": False, "exitCode": 1, "problems": [AT_INPUT_RECORD],
        "newerRuleFindings": [NEWER_RECORD], "warnings": [WARNED_RECORD], "outputs": ["wrote x"],
        "notes": ["a note"], "counts": {"vms": 1}}
    assert json.loads(show_json(result).stdout) == envelope(result)


def test_a_json_document_of_its_own_is_printed_two_space_indented_instead_of_the_envelope():
    assert show_json(Result("validate", json_document=[["a", "b"]], documents=1)) == Shown(
        '[\n  [\n    "a",\n    "b"\n  ]\n]\n')


def test_a_validation_in_json_is_the_list_of_its_findings():
    result = Result("validate", problems=(AT_INPUT,), warnings=(WARNED,), newer_rule_findings=(NEWER,),
                    documents=0)
    assert json.loads(show_json(result).stdout) == [WARNED_RECORD, NEWER_RECORD, AT_INPUT_RECORD]


# --- every format, and a command's own Markdown --------------------------------------------------

def test_show_prints_text_by_default_and_each_format_by_its_name():
    result = Result("list", product="a table\n", outputs=("wrote x",), notes=("a note",))
    assert show(result) == show(result, "text") == Shown("a table\nwrote x\n", "a note\n")
    assert show(result, "json") == show_json(result)
    assert show(result, "github") == show_github(result)
    assert show(result, "markdown") == show_markdown(result)
    assert json.loads(show(result, "sarif").stdout)["version"] == "2.1.0"


def test_a_command_s_own_markdown_prints_its_rendition_in_place_of_the_product():
    result = Result("diff", product="a table\n", outputs=("compared",), notes=("a note",),
                    renditions={"markdown": "| a | table |\n"})
    assert show(result, "markdown") == Shown("| a | table |\ncompared\n", "a note\n")


def test_markdown_without_a_rendition_is_a_table_of_findings_with_the_product_in_a_block():
    result = Result("refs", problems=(AT_INPUT,), warnings=(WARNED,), product="a | b\n", outputs=("done *now*",))
    assert show(result, "markdown") == Shown(markdown_report(result))
    assert markdown_report(result) == (
        "### citgen refs: 2 findings\n\n"
        "| where | severity | finding | rule |\n| --- | --- | --- | --- |\n"
        f"| `b.yaml` | warning | {CIT} u1.large (document 0) \\$.spec: deprecated | `webhook-cpu` |\n"
        "| `series/u.yaml:4:1` | error | sizes.large: unknown size | `input` |\n\n"
        "```text\na | b\n```\n\ndone \\*now\\*\n")


def test_a_refusal_in_markdown_is_its_table_too():
    refused = Result("diff", problems=(AT_INPUT,), notes=("citgen: 1 problem",), unusable=True,
                     renditions={"markdown": "never shown"})
    assert "never shown" not in show(refused, "markdown").stdout
    assert "| `series/u.yaml:4:1` | error | sizes.large: unknown size | `input` |" in show(refused, "markdown").stdout


# --- a product in a GitHub log -------------------------------------------------------------------

def test_a_product_whose_lines_are_no_workflow_commands_is_printed_as_it_is():
    assert inert("a table\nx :: y\nz::\n") == "a table\nx :: y\nz::\n"
    assert show_github(Result("list", product="a table\n")) == Shown("a table\n")


def test_a_product_with_a_line_that_starts_with_two_colons_after_blanks_is_stopped_from_running():
    product = "table\n  ::add-mask::secret\n"
    token = "417ec53c578cac613030269f5b04dce360e79df93ad51eeb32d2a3bf93d1ab81"  # sha256 of the product
    assert inert(product) == f"::stop-commands::{token}\n{product}::{token}::\n"


def test_a_stopped_product_without_a_final_line_break_gets_one_before_the_token():
    product = "::stop-commands::x"
    token = "093c69bb10a917b842aabeb37a4c13c683cb399a2a70f417e8c5350336d445c6"
    assert inert(product) == f"::stop-commands::{token}\n::stop-commands::x\n::{token}::\n"
