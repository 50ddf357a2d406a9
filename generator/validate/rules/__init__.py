"""Validation rules: one module per rule, registered in one explicit dict.

A rule module has an ``ID`` (kebab-case), a docstring whose first line is the
rule's one-line summary and whose rest is its user documentation (printed by
``citgen validate --list-rules`` and copied into docs/validation.md), and a
``check(docs, ctx)`` generator yielding located Problems. Rules see the whole
validated set at once because several of them (duplicates, twins, requirements)
are about relations between objects; each must stay linear in the number of
documents.

Anything a rule needs beyond the documents themselves comes from a RuleContext,
so a rule never reads the catalog on its own: the same rules then work on the
built-in catalog, a vendor catalog and a file a user hands over.

The rules of KubeVirt's admission webhooks are rule modules too (``webhook_*.py``,
marked ``ADMISSION``): they judge objects as virt-api of the context's KubeVirt
release does, and quote its words (_webhook.py).

The CRD schema check is a rule module too (``crd_schema``, ID ``schema``), kept
apart from RULES because it runs first and decides which fields the other rules
may still speak about (validate/__init__.py); CHECKS is every check in run order.
"""

from __future__ import annotations

from . import api_version
from . import crd_schema
from . import known_labels
from . import labels_match_spec
from . import name_grammar
from . import object_metadata
from . import osinfo
from . import requirements_met
from . import series_ratio
from . import twins_identical
from . import unique_names
from . import vendor_label
from . import webhook_cpu_topology
from . import webhook_decode
from . import webhook_launch_security
from . import webhook_overcommit
from . import webhook_spread_options
from .base import Rule, RuleContext, SeriesRatio

__all__ = ["CHECKS", "RULES", "SCHEMA", "SCHEMA_RULE", "Rule", "RuleContext", "SeriesRatio"]

#: The CRD schema check: every object against the schema of its kind, before any rule.
SCHEMA_RULE: Rule = Rule.from_module(crd_schema)
#: Its ID, which --rule selects and its problems carry.
SCHEMA: str = SCHEMA_RULE.id

#: Every rule but the schema, by ID, in the order they run after it.
RULES: dict[str, Rule] = {
    rule.id: rule
    for rule in map(
        Rule.from_module,
        (
            api_version,
            object_metadata,
            webhook_decode,
            webhook_overcommit,
            webhook_cpu_topology,
            webhook_spread_options,
            webhook_launch_security,
            name_grammar,
            unique_names,
            twins_identical,
            known_labels,
            labels_match_spec,
            vendor_label,
            series_ratio,
            requirements_met,
            osinfo,
        ),
    )
}

#: Every check by ID in the order it runs and --list-rules shows it: the schema, then the rules.
CHECKS: dict[str, Rule] = {SCHEMA: SCHEMA_RULE, **RULES}
