"""A name no object can have: text KubeVirt will never find, whatever the cluster holds.

A catalog object's name is a DNS subdomain (lower-case letters, digits, ``-`` and
``.``, at most 253 characters), as the API server requires of every object: a
reference whose name is not one (``U1.medium``, ``my vm``) can match nothing, and is
a mistake of another kind than a name the target lacks. Text another tool replaces
(``<instance-type>``, ``${X}``, ``$(params.x)``, ``{{ }}``) is a placeholder, counted
as unchecked and never reported (forms.py). The finding suggests the names nearest, as
unknown-name does.

Example::

    vm.yaml:8:11: spec.instancetype.name: VirtualMachine web names instancetype 'U1.medium', which is no name an object can have: a DNS-1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character; did you mean 'u1.medium'? [invalid-name]
"""

from __future__ import annotations

from typing import Iterator, Sequence

from ....objectmeta import subdomain_errors
from ....problems import Problem
from ..target import Resolution
from .base import JudgeContext, names, one_of

ID = "invalid-name"

#: How many names a finding suggests.
SUGGESTIONS = 3


def invalid(name: str) -> list[str]:
    """Why ``name`` can name no object (apimachinery's IsDNS1123Subdomain); empty when it can."""
    return subdomain_errors(name)


def check(resolutions: Sequence[Resolution], ctx: JudgeContext) -> Iterator[Problem]:
    for one in resolutions:
        reference = one.reference
        if reference.name is None or one.kind is None or one.resolved:
            continue
        errors = invalid(reference.name)
        if not errors:
            continue
        message = f"{names(reference)}, which is no name an object can have: {'; '.join(errors)}"
        nearest = ctx.resolver.index(reference.family).structured(reference.name, SUGGESTIONS,
                                                                  reference.owner.name).names
        if nearest:
            message += f"; did you mean {one_of(nearest)}?"
        yield Problem(reference.location, message, ID)
