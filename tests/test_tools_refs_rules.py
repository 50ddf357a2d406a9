"""generator/tools/refs/rules/__init__.py: the judge's registry of rules.

Every rule module is in RULES under its ID, in the order they run (a refused kind first,
the requirements of a pair last), each entry made from its module; the rules' own
behaviour is pinned by tests/test_tools_refs_rules_<rule>.py.
"""

from __future__ import annotations

import inspect

from generator.tools.refs import rules
from generator.tools.refs.rules import RULES, JudgeContext, RefRule, deprecated, invalid_name, kind, release, \
    requirements, unknown_name
from generator.tools.refs.rules.base import JudgeContext as BaseContext


def test_every_rule_by_its_id_in_the_order_they_run():
    assert list(RULES) == ["kind", "invalid-name", "unknown-name", "release", "deprecated", "requirements"]
    modules = (kind, invalid_name, unknown_name, release, deprecated, requirements)
    assert list(RULES.values()) == [RefRule.from_module(module) for module in modules]
    assert [rule.check for rule in RULES.values()] == [module.check for module in modules]


def test_each_rule_has_a_summary_of_one_line_and_documentation_ending_with_an_example():
    for rule in RULES.values():
        assert rule.summary and "\n" not in rule.summary, rule.id
        assert "Example" in rule.doc and rule.doc.rstrip().endswith(f"[{rule.id}]"), rule.id
        assert rule.summary == inspect.cleandoc(inspect.getmodule(rule.check).__doc__).splitlines()[0]


def test_the_package_exports_the_registry_and_what_a_rule_is_given():
    assert sorted(rules.__all__) == ["JudgeContext", "RULES", "RefRule"]
    assert JudgeContext is BaseContext
