"""What a command did, as one value: its problems, what it says, and its exit code.

Every ``citgen`` command returns a Result instead of printing and exiting on its
own, so the three reporters (report.py) show every command the same way and the
exit status is derived here, in one place, from what the command found:

- 0: the command did its job and found nothing wrong;
- 1: it found problems in what it checked (``validate``, ``expand``'s refusals),
  or differences it was asked to look for (``diff``, ``readme --check``);
- 2: its input or usage was unusable (a CitgenError of exit code 2, a click usage
  error), and nothing was written.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, Mapping

from .errors import CitgenError
from .frozen import frozen
from .problems import Problem

OK, FOUND, UNUSABLE = 0, 1, 2


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@frozen
class Result:
    """One command's outcome; reporters print it, the command line exits with ``exit_code``.

    command
        The command's name as typed (``build``, ``schema import``), which the JSON
        and GitHub reports name.
    problems
        What counts against the run: the findings of a check, a refusal, or the
        input errors that stopped it.
    newer_rule_findings
        Findings of checks newer than their object's release: reported apart, never
        counted (docs/validation.md).
    warnings
        What KubeVirt admits with a warning (a deprecated value): reported in every
        format, not counted; ``--warnings-as-errors`` makes them problems instead.
    outputs
        What the command says when it has done its job (``wrote 9 files to bundles
        ...``), one line each; standard output in the text format.
    notes
        What it says beside that, on standard error in the text format: a note on
        retained objects, ``README.md is out of date``, the count closing a refusal.
    product
        The text a command exists to print (a table, a VirtualMachine, a diff), printed
        as it is in the text and GitHub formats.
    data
        The same product for programs: keys of the JSON report beside the common ones.
    counts
        Figures the summary is made of (objects per kind, documents checked).
    documents
        How many documents were validated, when the problems are a validation's
        findings: they are then the command's report, on standard output, rather
        than a refusal on standard error.
    found
        Something was found that is no located problem: two builds differ, a README
        is stale.
    unusable
        The input or usage could not be used (exit 2).
    json_document
        A command's JSON report that predates the common object and is printed
        instead of it, since scripts parse it (``validate --matrix``'s list of pairs).
    renditions
        The product in formats only this command has, by format name (``diff``'s
        ``markdown``, the release-note section); printed instead of the product.
    subject
        What a validation judged, when it names it: the catalog ``validate`` built
        and checked (``built-in catalog v1.8.0-dev``), opening its summary.
    pipeable
        The product is data another program reads (``expand``'s VirtualMachines):
        the findings go to standard error in the text format, so that standard
        output holds nothing else.
    """

    command: str
    problems: tuple[Problem, ...] = ()
    newer_rule_findings: tuple[Problem, ...] = ()
    warnings: tuple[Problem, ...] = ()
    outputs: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    product: str = ""
    data: Mapping[str, Any] = field(default_factory=dict)
    counts: Mapping[str, int] = field(default_factory=dict)
    documents: int | None = None
    found: bool = False
    unusable: bool = False
    json_document: Any = None
    renditions: Mapping[str, str] = field(default_factory=dict)
    subject: str | None = None
    pipeable: bool = False

    @property
    def exit_code(self) -> int:
        """0 clean, 1 problems (or differences) found, 2 unusable input or usage: decided only here."""
        if self.unusable:
            return UNUSABLE
        return FOUND if self.problems or self.found else OK

    @property
    def ok(self) -> bool:
        return self.exit_code == OK

    @property
    def is_report(self) -> bool:
        """Whether the problems are what the command was asked to find, not why it stopped."""
        return self.documents is not None and not self.unusable

    @classmethod
    def refused(cls, command: str, error: CitgenError, closing: str | None = None) -> "Result":
        """The Result of a command stopped by ``error``; ``closing`` ends it with the count.

        ``closing`` is a format string with ``{problems}`` (``citgen: {problems},
        nothing written``), for commands that collect every mistake of a catalog
        before they stop.
        """
        notes = (closing.format(problems=_plural(len(error.problems), "problem")),) if closing else ()
        return cls(command, problems=tuple(error.problems), notes=notes, unusable=error.exit_code == UNUSABLE)
