"""Label selectors as ``kubectl get -l`` reads them.

Supported: ``key=value``, ``key==value``, ``key!=value``, ``key``, ``!key``,
``key in (a,b)``, ``key notin (a,b)``, joined by commas (all must hold). A key
without a ``/`` is taken as ``instancetype.kubevirt.io/<key>``, so ``-l cpu=4``
works as well as ``-l instancetype.kubevirt.io/cpu=4``.

As kubectl does, each key must be a label key and each value a label value
(objectmeta.py: ``a/b/c``, a key of 120,000 characters, ``é`` and ``4!=5`` are
none). A set reads as kubectl's parser reads it: ``in ()`` is the set of the empty
value, as is an empty item (``in (a,)`` holds ``a`` and ``""``). The catalog page
reads selectors with a port of this module (tools/site/assets/site.js) that
words every refusal the same.
"""

from __future__ import annotations

import re
from typing import Callable, Mapping

from ..errors import InputError
from ..frozen import frozen
from ..model import LABEL_PREFIX
from ..objectmeta import label_key_problem, label_value_problem
from ..problems import Location, excerpt

_TERM = re.compile(
    r"\s*(?:(?P<not>!)\s*(?P<nkey>[^\s,!=()]+)"
    r"|(?P<key>[^\s,!=()]+)\s*(?:(?P<op>==|!=|=)\s*(?P<value>[^\s,()]*)"
    r"|\s+(?P<set>in|notin)\s*\((?P<values>[^()]*)\))?)\s*(?:,|$)"
)

Test = Callable[[Mapping[str, str]], bool]


@frozen
class Requirement:
    key: str
    op: str  # "=", "!=", "exists", "!exists", "in", "notin"
    values: frozenset[str] = frozenset()

    def matches(self, labels: Mapping[str, str]) -> bool:
        value = labels.get(self.key)
        if self.op == "exists":
            return value is not None
        if self.op == "!exists":
            return value is None
        if self.op in ("=", "in"):
            return value in self.values
        return value not in self.values  # != and notin also match when the label is absent


def _full(key: str) -> str:
    return key if "/" in key else LABEL_PREFIX + key


def parse_selector(text: str) -> tuple[Requirement, ...]:
    """Parse a selector; an unparsable one is an InputError naming the option and the text."""
    requirements = []
    position = 0
    text = text.strip()
    while position < len(text):
        match = _TERM.match(text, position)
        if not match or match.end() == position:
            raise InputError.at(Location("--selector"), f"cannot read label selector {text!r} at "
                                f"character {position + 1}; expected key=value, key!=value, key, !key, "
                                "key in (a,b) or key notin (a,b), separated by commas")
        position = match.end()
        if match["nkey"]:
            requirement = Requirement(_full(match["nkey"]), "!exists")
        elif match["op"]:
            op = "=" if match["op"] in ("=", "==") else "!="
            requirement = Requirement(_full(match["key"]), op, frozenset([match["value"]]))
        elif match["set"]:
            # as apimachinery's parseValues: "()" is the set of the empty value, and so is an empty item
            values = [v.strip() for v in match["values"].split(",")]
            requirement = Requirement(_full(match["key"]), match["set"], frozenset(values))
        else:
            requirement = Requirement(_full(match["key"]), "exists")
        requirements.append(_checked(text, requirement))
    return tuple(requirements)


def _checked(text: str, requirement: Requirement) -> Requirement:
    """The requirement, if its key is a label key and each value a label value, as kubectl demands."""
    problem = label_key_problem(requirement.key)
    for value in sorted(requirement.values):
        problem = problem or label_value_problem(value)
    if problem:
        raise _refused(text, problem)
    return requirement


def _refused(text: str, why: str) -> InputError:
    return InputError.at(Location("--selector"), f"cannot read label selector {excerpt(text)!r}: {why}")


def matches(requirements: tuple[Requirement, ...], labels: Mapping[str, str]) -> bool:
    return all(r.matches(labels) for r in requirements)
