"""Why an expansion was refused, in KubeVirt's words.

KubeVirt reports three kinds of refusal, each as a field path plus a message:
a VM field the instancetype also sets (a *conflict*), a preference requirement
the instancetype or VM does not meet, and a spread CPU topology the instancetype's
vCPUs cannot be divided into. The paths are Go ``field.Path`` strings
(``spec.template.spec.domain.cpu.sockets``) so a user can search KubeVirt's docs
and issues for the same text.
"""

from __future__ import annotations

from typing import Iterable

from ...frozen import frozen

#: KubeVirt's wording for a VM field that an instancetype also sets.
CONFLICT_FORMAT = "VM field(s) {} conflicts with selected instance type"

#: The path every instancetype conflict hangs off, as in KubeVirt's VM admission.
TEMPLATE_SPEC = ("spec", "template", "spec")


@frozen
class ExpandError:
    """One refusal: the field KubeVirt names, its message, and which check made it."""

    field: str
    message: str
    reason: str  # "conflict", "topology", or the unmet requirement: "cpu", "memory", "architecture"

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


def field_path(*parts: str) -> str:
    """Join path parts the way Go's ``field.Path.String()`` does for named children."""
    return ".".join(parts)


def conflict(*parts: str) -> ExpandError:
    """A conflict at ``parts`` below ``spec.template.spec``."""
    name = field_path(*TEMPLATE_SPEC, *parts)
    return ExpandError(name, CONFLICT_FORMAT.format(name), "conflict")


def annotation_conflict(key: str) -> ExpandError:
    """An instancetype annotation the VM template sets to another value.

    KubeVirt roots this path at ``annotations`` rather than at the template, and
    so does this port, so the message is the one a cluster prints.
    """
    name = field_path("annotations", key)
    return ExpandError(name, CONFLICT_FORMAT.format(name), "conflict")


def joined(paths: Iterable[str]) -> str:
    """Several paths as KubeVirt lists them in one message: ``a, b, c``."""
    return ", ".join(paths)
