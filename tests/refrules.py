"""References and targets written out for the tests of the judge's rule modules (tests/test_tools_refs_rules_*.py).

Each rule module's ``check`` is called directly, not through the judge, on resolutions a
Resolver makes of references written by hand, so a test file named after a rule checks that
module and nothing else.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Mapping

from generator.model import DEPRECATED_LABEL, DEPRECATED_REPLACEMENT, DEPRECATED_SINCE, Retirement
from generator.problems import Location
from generator.source.documents import BundleDoc
from generator.tools.refs.model import Definition, Owner, Reference
from generator.tools.refs.rules import JudgeContext
from generator.tools.refs.target import Resolver, Target

CIT, NIT = "VirtualMachineClusterInstancetype", "VirtualMachineInstancetype"
CPREF, NPREF = "VirtualMachineClusterPreference", "VirtualMachinePreference"
WEB = Owner("vm.yaml#0", "VirtualMachine", "web", "vms")


def ref(family: str, name: str | None, kind: str | None = None, owner: Owner = WEB, line: int = 8,
        unchecked: str | None = None) -> Reference:
    """A matcher's name at ``vm.yaml:<line>:11`` (``spec.<family>.name``)."""
    return Reference(family, name, kind, owner, Location("vm.yaml", line, 11, ("spec", family, "name")),
                     f"spec.{family}", unchecked=unchecked)


def obj(kind: str, name: str, spec: Mapping[str, Any] | None = None, deprecated: bool = False,
        since: str | None = None, replacement: str | None = None) -> dict[str, Any]:
    """A catalog object; ``deprecated`` labels it so, with the since and replacement annotations when given."""
    metadata: dict[str, Any] = {"name": name}
    if deprecated:
        metadata["labels"] = {DEPRECATED_LABEL: "true"}
        metadata["annotations"] = {key: value for key, value in ((DEPRECATED_SINCE, since),
                                                                  (DEPRECATED_REPLACEMENT, replacement)) if value}
    return {"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": kind, "metadata": metadata,
            "spec": dict(spec or {})}


def made(*objects: dict[str, Any], retired: tuple[Retirement, ...] = (), **more: Any) -> Target:
    """A target holding ``objects`` as a bundle shipped.yaml would, with catalog.yaml's ``retired`` names."""
    return Target(tuple(BundleDoc("shipped.yaml", i, o) for i, o in enumerate(objects)), "bundle shipped.yaml",
                  retirements={(r.family, r.name): r for r in retired}, **more)


def retirement(family: str, name: str, since: str, replacement: str | None = None, renamed: bool = False) -> Retirement:
    return Retirement(family, name, since, Location("catalog.yaml"), replacement, renamed=renamed)


def findings(rule: ModuleType, *references: Reference, target: Target,
             definitions: tuple[Definition, ...] = ()) -> list[str]:
    """The rule's problems on ``references`` judged against ``target``, as a user reads them, in the rule's order."""
    resolver = Resolver(target, definitions)
    resolutions = [resolver.resolve(reference) for reference in references]
    return [str(p) for p in rule.check(resolutions, JudgeContext(target, resolver))]
