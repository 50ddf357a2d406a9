"""generator/validate/__init__.py: what validate_documents keeps of the rules' findings, across documents.

The schema runs first, and a rule's finding on a field the schema already reported is
dropped, so that one mistake reads once. A field is a place in one document: the same
path in another document of the same file is another field, and its findings stand.
"""

from __future__ import annotations

from generator.model import API_VERSION
from generator.source.documents import BundleDoc
from generator.validate import validate_documents
from generator.validate.rules import RuleContext

CPU_LABEL = "instancetype.kubevirt.io/cpu"


def instancetype(index: int, cpu_label: object) -> BundleDoc:
    return BundleDoc("b.yaml", index, {
        "apiVersion": API_VERSION, "kind": "VirtualMachineClusterInstancetype",
        "metadata": {"name": f"u1.n{index}", "labels": {"instancetype.kubevirt.io/vendor": "kubevirt.io",
                                                         CPU_LABEL: cpu_label}},
        "spec": {"cpu": {"guest": 2}, "memory": {"guest": "8Gi"}}})


def on_the_cpu_label(docs: list[BundleDoc]) -> list[tuple[int | None, str, str]]:
    return [(p.location.doc, p.rule, p.message) for p in validate_documents(docs, RuleContext())
            if p.location.path == ("metadata", "labels", CPU_LABEL)]


def test_a_field_the_schema_reported_gets_no_second_finding():
    assert on_the_cpu_label([instancetype(0, 3)]) == [(0, "schema", "expected string, got integer 3")]


def test_the_same_field_of_another_document_keeps_its_own_finding():
    assert on_the_cpu_label([instancetype(0, 3), instancetype(1, "3")]) == [
        (0, "schema", "expected string, got integer 3"),
        (1, "labels-match-spec", f"label {CPU_LABEL} is '3' but spec.cpu.guest is 2")]
