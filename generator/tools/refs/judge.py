"""The judge: every reference a scan found, looked up in the target and held to each rule.

``judge(scan, target)`` resolves each reference once (target.Resolver: the target's
objects, and those the manifests define themselves), runs every rule of
rules/ over the resolutions and returns the findings with the counts a report
closes with: references checked, those that could not be (a template parameter
without a default: counted, never reported), files read and skipped.
"""

from __future__ import annotations

from typing import Sequence

from ...frozen import frozen
from ...problems import Problem, sort_problems
from .model import Scan
from .rules import RULES, JudgeContext
from .target import Resolution, Resolver, Target


@frozen
class Verdict:
    """What the judge found: the findings, every reference's resolution, and the counts."""

    findings: tuple[Problem, ...]
    resolutions: tuple[Resolution, ...]
    checked: int
    unchecked: int
    files: int
    skipped: int

    @property
    def counts(self) -> dict[str, int]:
        return {"references": self.checked + self.unchecked, "checked": self.checked, "unchecked": self.unchecked,
                "files": self.files, "skipped": self.skipped, "findings": len(self.findings)}


def judge(scan: Scan, target: Target, rules: Sequence[str] | None = None) -> Verdict:
    """The findings of ``rules`` (every rule by default) on ``scan``'s references, judged against ``target``."""
    resolver = Resolver(target, scan.definitions)
    resolutions = tuple(resolver.resolve(reference) for reference in scan.references)
    context = JudgeContext(target, resolver)
    findings: list[Problem] = []
    for rule_id, rule in RULES.items():
        if rules is None or rule_id in rules:
            findings += rule.check(resolutions, context)
    unchecked = sum(1 for reference in scan.references if reference.name is None)
    return Verdict(tuple(sort_problems(findings)), resolutions, len(scan.references) - unchecked, unchecked,
                   scan.files, len(scan.skipped))
