"""The judge's rules: one module per rule, registered in one explicit dict, as validate's rules are.

A rule module has an ``ID`` (kebab-case), a docstring whose first line is its
one-line summary and whose rest is its documentation (ending with an example
finding), and a ``check(resolutions, ctx)`` generator yielding Problems located at
the references they are about. Each reference is looked up once, before any rule
runs (target.Resolver); a rule only reads where it led.
"""

from __future__ import annotations

from . import deprecated, invalid_name, kind, release, requirements, unknown_name
from .base import JudgeContext, RefRule

__all__ = ["JudgeContext", "RULES", "RefRule"]

#: Every rule of the judge, by ID, in the order they run.
RULES: dict[str, RefRule] = {
    rule.id: rule for rule in map(RefRule.from_module, (kind, invalid_name, unknown_name, release, deprecated,
                                                requirements))
}
