"""report.py's GitHub Actions annotations, one problem each, at their edges.

An annotation is a workflow command: ``::error``, ``::warning`` or ``::notice``, the file, line
and column as properties when there is a file to point at, the rule as its title,
and the message with ``%``, carriage returns and line feeds escaped as GitHub reads
them. A command-line option or the run itself (``citgen``) is no file: it is named
in the message instead.
"""

from __future__ import annotations

from generator.problems import Location, Problem
from generator.report import annotation

CIT = "VirtualMachineClusterInstancetype"


def test_a_carriage_return_in_a_message_is_escaped_as_percent_0d():
    problem = Problem(Location("a.yaml", 3, 1), "one\r\ntwo\rthree 100%")
    assert annotation(problem) == "::error file=a.yaml,line=3,col=1,title=input::one%0D%0Atwo%0Dthree 100%25"


def test_a_problem_of_the_run_itself_points_at_no_file():
    assert annotation(Problem(Location("citgen"), "interrupted")) == "::error title=input::citgen: interrupted"
    assert annotation(Problem(Location("citgen", path=("x", "y")), "interrupted")) == (
        "::error title=input::citgen: x.y: interrupted")


def test_an_option_is_named_in_the_message_with_the_keys_it_set():
    assert annotation(Problem(Location("--gpu-count"), "expected 1 to 16 GPUs, got 17")) == (
        "::error title=input::--gpu-count: expected 1 to 16 GPUs, got 17")
    assert annotation(Problem(Location("--set", path=("series", "u")), "bad value")) == (
        "::error title=input::--set: series.u: bad value")


def test_an_object_without_a_path_is_the_object_alone_and_its_document_where_no_line_says_which():
    assert annotation(Problem(Location("b.yaml", None, None, (), 3, None), "x", "schema")) == (
        "::error file=b.yaml,title=schema::(document 3): x")
    assert annotation(Problem(Location("b.yaml", None, None, (), 3, "u1.large", CIT), "x", "schema")) == (
        f"::error file=b.yaml,title=schema::{CIT} u1.large (document 3): x")
    assert annotation(Problem(Location("b.yaml", 7, 1, (), 3, "u1.large", "VirtualMachineInstancetype", "ns"), "x",
                              "schema")) == (
        "::error file=b.yaml,line=7,col=1,title=schema::VirtualMachineInstancetype ns/u1.large: x")


def test_a_warning_is_a_warning_command_with_every_property():
    problem = Problem(Location("b.yaml", 4, 2, ("spec",), 3, "u1.large", CIT), "deprecated\nsoon", "webhook-cpu",
                      severity="warning")
    assert annotation(problem) == f"::warning file=b.yaml,line=4,col=2,title=webhook-cpu::{CIT} u1.large $.spec: " \
                                  "deprecated%0Asoon"


def test_a_finding_on_an_object_older_than_its_check_is_a_notice_saying_the_release_it_is_newer_than():
    problem = Problem(Location("b.yaml", 4, 2, ("spec",), 3, "u1.large", CIT), "deprecated", "webhook-cpu",
                      since="v1.1.0", older_release="v1.0.0", severity="warning")
    assert annotation(problem) == (
        f"::notice file=b.yaml,line=4,col=2,title=webhook-cpu::{CIT} u1.large $.spec: deprecated "
        "(rule since v1.1.0, newer than the object's release v1.0.0)")
