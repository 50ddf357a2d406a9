"""Refusals in KubeVirt's words: field paths and the conflict message (generator/tools/vmexpand/conflicts.py)."""

from __future__ import annotations

from generator.tools.vmexpand.conflicts import ExpandError, annotation_conflict, conflict, field_path, joined


def test_a_refusal_prints_as_field_colon_message() -> None:
    assert str(ExpandError("spec.a", "went wrong", "cpu")) == "spec.a: went wrong"


def test_field_paths_join_with_dots() -> None:
    assert field_path("spec", "template", "spec") == "spec.template.spec"
    assert field_path("one") == "one"


def test_a_conflict_hangs_off_the_template_spec() -> None:
    assert conflict("domain", "cpu", "sockets") == ExpandError(
        "spec.template.spec.domain.cpu.sockets",
        "VM field(s) spec.template.spec.domain.cpu.sockets conflicts with selected instance type",
        "conflict",
    )


def test_an_annotation_conflict_is_rooted_at_annotations() -> None:
    assert annotation_conflict("cpu-quota.crio.io") == ExpandError(
        "annotations.cpu-quota.crio.io",
        "VM field(s) annotations.cpu-quota.crio.io conflicts with selected instance type",
        "conflict",
    )


def test_several_paths_are_listed_with_commas() -> None:
    assert joined(["a", "b", "c"]) == "a, b, c"
    assert joined(iter(["a"])) == "a"
    assert joined([]) == ""
