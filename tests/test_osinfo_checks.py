"""The osinfo rule's checks by name (osinfo/checks.py): what the rule finds is what catalog data may accept."""

from __future__ import annotations

import inspect

from generator.osinfo.checks import CHECKS
from generator.source.formats.preferences import OSINFO
from generator.validate.rules import osinfo as rule
from tests.helpers import REPO


def test_the_catalog_format_accepts_exactly_the_checks_by_name():
    assert OSINFO["properties"]["accept"]["propertyNames"]["enum"] == sorted(CHECKS)


def test_every_check_is_named_by_the_rule_and_in_the_catalog_format_s_documentation():
    source = inspect.getsource(rule)
    documented = (REPO / "docs" / "catalog-format.md").read_text(encoding="utf-8")
    assert [name for name in CHECKS if f'"{name}"' not in source] == []
    assert [name for name in CHECKS if f"`{name}`" not in documented] == []
