"""Objects written out for the rule tests (tests/test_validate_rules_*.py), and one rule's findings on them.

Each rule module is called directly, not through the registry, so a test file
named after a rule checks that module and nothing else.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from generator.problems import sort_problems
from generator.source.documents import BundleDoc
from generator.validate.rules.base import RuleContext

CIT, NIT = "VirtualMachineClusterInstancetype", "VirtualMachineInstancetype"
CPREF, NPREF = "VirtualMachineClusterPreference", "VirtualMachinePreference"
P = "instancetype.kubevirt.io/"
API = P + "v1beta1"


def obj(kind: str, name: Any, labels: dict | None = None, spec: dict | None = None, **metadata: Any) -> dict:
    """An object of ``kind``; label keys without a '/' get the instancetype.kubevirt.io/ prefix."""
    meta = {"name": name, **metadata}
    if labels is not None:
        meta["labels"] = {(k if "/" in k else P + k): v for k, v in labels.items()}
    return {"apiVersion": API, "kind": kind, "metadata": meta, "spec": spec if spec is not None else {}}


def instancetype(name: str = "u1.large", cpu: Any = 2, memory: Any = "8Gi", labels: dict | None = None,
                 kind: str = CIT, **spec: Any) -> dict:
    return obj(kind, name, labels, {"cpu": {"guest": cpu}, "memory": {"guest": memory}, **spec})


def preference(name: str = "fedora", labels: dict | None = None, kind: str = CPREF, **spec: Any) -> dict:
    return obj(kind, name, labels, spec)


def findings(rule: ModuleType, *objects: Any, ctx: RuleContext | None = None, file: str = "b.yaml") -> list[str]:
    """The rule's problems on ``objects`` (document i of ``file``), as a user reads them, in report order."""
    docs = [BundleDoc(file, i, data) for i, data in enumerate(objects)]
    return [str(p) for p in sort_problems(rule.check(docs, ctx if ctx is not None else RuleContext()))]
