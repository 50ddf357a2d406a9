"""Validation rules: one module per rule, registered in one explicit dict.

A rule module has an ``ID`` (kebab-case), a docstring whose first line is the
rule's one-line summary and whose rest is its user documentation (printed by
``citgen validate --list-rules`` and copied into docs/validation.md), and a
``check(docs, ctx)`` generator yielding located Problems. Rules see the whole
validated set at once because several of them (duplicates, twins, requirements)
are about relations between objects; each must stay linear in the number of
documents, since catalogs of 100,000 objects are validated in benchmarks.

Anything a rule needs beyond the documents themselves comes from a RuleContext,
so a rule never reads the catalog on its own: the same rules then work on the
built-in catalog, a vendor catalog and a file a user hands over.
"""

from __future__ import annotations

from . import api_version
from . import known_labels
from . import labels_match_spec
from . import name_grammar
from . import object_metadata
from . import requirements_met
from . import series_ratio
from . import twins_identical
from . import unique_names
from . import vendor_label
from .base import Rule, RuleContext, SeriesRatio

__all__ = ["RULES", "Rule", "RuleContext", "SeriesRatio"]

#: Every rule, by ID, in the order --list-rules shows them.
RULES: dict[str, Rule] = {
    rule.id: rule
    for rule in map(
        Rule.from_module,
        (
            api_version,
            object_metadata,
            name_grammar,
            unique_names,
            twins_identical,
            known_labels,
            labels_match_spec,
            vendor_label,
            series_ratio,
            requirements_met,
        ),
    )
}
