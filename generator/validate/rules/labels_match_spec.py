"""Labels that describe an object agree with its spec.

Labels are how users and UIs pick an instancetype or preference without
reading its spec (``kubectl get virtualmachineclusterinstancetypes -l
instancetype.kubevirt.io/cpu=4``), so a label that disagrees with the spec
sends them to the wrong object. A label is expected exactly when the spec has
what it describes, and must then say the same thing.

On instancetypes:

- ``cpu`` is ``spec.cpu.guest``;
- ``memory`` is ``spec.memory.guest``, compared as quantities (``1Gi`` equals
  ``1024Mi``);
- ``size`` is the part of the name after the first dot (``2xlarge1gi`` for
  ``cx1.2xlarge1gi``);
- ``hugepages`` is ``spec.memory.hugepages.pageSize``, compared as quantities;
- ``numa``, ``dedicatedCPUPlacement``, ``isolateEmulatorThread``, ``realtime``
  and ``gpus`` are ``"true"`` exactly when the spec has the feature:
  ``spec.cpu.numa.guestMappingPassthrough`` is set, ``spec.cpu.dedicatedCPUPlacement``
  is true, ``spec.cpu.isolateEmulatorThread`` is true, ``spec.cpu.realtime`` is
  set, ``spec.gpus`` lists at least one GPU. Any other value (such as
  ``"false"``) is the same as no label.

On preferences:

- ``required-cpu`` is ``spec.requirements.cpu.guest``;
- ``required-memory`` is ``spec.requirements.memory.guest``, as quantities;
- ``preferred-architecture`` is ``spec.preferredArchitecture``;
- ``required-architecture`` is ``spec.requirements.architecture``.

A spec value that is itself malformed (memory that is not a quantity) is left
to the schema check. The ``vendor`` label has its own rule, vendor-label.

Some of these labels came later than the objects of older releases, which
cannot have them. A finding of such a check on an object whose release (its
``common-instancetypes-version`` label, on objects of vendor ``kubevirt.io``)
came before the check is reported as from a rule newer than that release, and
does not count:

- ``size`` missing: introduced in v1.1.0;
- ``required-cpu`` or ``required-memory`` missing: introduced in v1.1.0;
- ``hugepages`` as the page size: introduced in v1.4.0; before, the label was
  ``"true"`` on every instancetype with hugepages, and that is still accepted
  on an object of an older release.

A label an older object does carry must still agree with its spec.

Examples::

    bundle.yaml#0 (u1.small) $.metadata.labels['instancetype.kubevirt.io/memory']: label instancetype.kubevirt.io/memory is '4Gi' but spec.memory.guest is '2Gi' [labels-match-spec]
    bundle.yaml#0 (cx1.large) $.metadata.labels: spec.cpu.numa.guestMappingPassthrough is set but label instancetype.kubevirt.io/numa is missing (expected 'true') [labels-match-spec]
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping, Optional, Sequence, Tuple

from ...frozen import frozen
from ...model import label
from ...problems import Problem, dotted
from ...source.documents import BundleDoc
from ._objects import LABELS, count, dig, family, labels, quantity, split_name
from .base import RuleContext

ID = "labels-match-spec"

#: The catalog releases that introduced checks of this rule (see the docstring).
SIZE_LABEL_SINCE = "v1.1.0"  # kubevirt/common-instancetypes#239, after v1.0.0
REQUIREMENT_LABELS_SINCE = "v1.1.0"  # absent from every preference of v1.0.0
HUGEPAGES_SIZE_SINCE = "v1.4.0"  # kubevirt/common-instancetypes#387; a "true" flag before


@frozen
class _Value:
    """A label that repeats a spec value; ``read_label`` and ``read_spec`` read each side.

    ``since`` is the release that introduced the label, when objects of earlier
    releases lack it; ``flag_until`` the release from which the label holds the
    value rather than ``"true"``, when it was a flag before.
    """

    short: str
    path: Tuple[str, ...]
    read_label: Callable[[Any], Any]
    read_spec: Callable[[Any], Any]
    since: Optional[str] = None
    flag_until: Optional[str] = None


@frozen
class _Flag:
    """A label that is "true" exactly when ``present(spec)`` holds."""

    short: str
    where: str  # the spec field, as the message names it
    present: Callable[[Any], bool]
    yes: str  # how the message says the spec has the feature
    no: str  # ... and that it does not


def _whole(value: Any) -> Optional[int]:
    """A label's vCPU count: labels are strings of digits."""
    return int(value) if isinstance(value, str) and value.isdigit() else None


def _text(value: Any) -> Optional[str]:
    return value if isinstance(value, str) else None


def _list(value: Any) -> bool:
    return isinstance(value, list) and len(value) > 0


_INSTANCETYPE_VALUES = (
    _Value("cpu", ("spec", "cpu", "guest"), _whole, count),
    _Value("memory", ("spec", "memory", "guest"), quantity, quantity),
    _Value("hugepages", ("spec", "memory", "hugepages", "pageSize"), quantity, quantity,
           flag_until=HUGEPAGES_SIZE_SINCE),
)
_PREFERENCE_VALUES = (
    _Value("required-cpu", ("spec", "requirements", "cpu", "guest"), _whole, count,
           since=REQUIREMENT_LABELS_SINCE),
    _Value("required-memory", ("spec", "requirements", "memory", "guest"), quantity, quantity,
           since=REQUIREMENT_LABELS_SINCE),
    _Value("preferred-architecture", ("spec", "preferredArchitecture"), _text, _text),
    _Value("required-architecture", ("spec", "requirements", "architecture"), _text, _text),
)
_FLAGS = (
    _Flag("dedicatedCPUPlacement", "spec.cpu.dedicatedCPUPlacement",
          lambda d: dig(d, "spec", "cpu", "dedicatedCPUPlacement") is True, "is true", "is not true"),
    _Flag("isolateEmulatorThread", "spec.cpu.isolateEmulatorThread",
          lambda d: dig(d, "spec", "cpu", "isolateEmulatorThread") is True, "is true", "is not true"),
    _Flag("numa", "spec.cpu.numa.guestMappingPassthrough",
          lambda d: dig(d, "spec", "cpu", "numa", "guestMappingPassthrough") is not None, "is set", "is not set"),
    _Flag("realtime", "spec.cpu.realtime",
          lambda d: dig(d, "spec", "cpu", "realtime") is not None, "is set", "is not set"),
    _Flag("gpus", "spec.gpus", lambda d: _list(dig(d, "spec", "gpus")), "lists GPUs", "lists no GPUs"),
)

#: Worked out once, not once per document: each value's spec path as messages write it,
#: and the full key of every label the rule reads.
_WHERE = {item: dotted(item.path) for item in _INSTANCETYPE_VALUES + _PREFERENCE_VALUES}
_KEY = {short: label(short) for short in
        [item.short for item in _INSTANCETYPE_VALUES + _PREFERENCE_VALUES] + [f.short for f in _FLAGS] + ["size"]}


def _show(value: Any) -> str:
    return repr(value) if isinstance(value, str) else str(value)


def _compare(doc: BundleDoc, found: Mapping[str, Any], short: str, what: str, written: Any,
             expected: Any, parse: Callable[[Any], Any], since: Optional[str] = None,
             flag_until: Optional[str] = None) -> Optional[Problem]:
    """One value label against the value ``what`` (a spec path or the name) says it should be.

    A missing label is dated ``since``; a ``"true"`` where the value is expected
    is dated ``flag_until``, the release that turned the flag into a value.
    """
    key = _KEY[short]
    if key not in found:
        if expected is None:
            return None
        return Problem(doc.locate(LABELS), f"{what} is {_show(written)} but label {key} is missing", ID,
                       since=since)
    value = found[key]
    if expected is None:
        return Problem(doc.locate(LABELS + (key,)), f"label {key} is {_show(value)} but {what} is not set", ID)
    if parse(value) != expected:
        return Problem(doc.locate(LABELS + (key,)),
                       f"label {key} is {_show(value)} but {what} is {_show(written)}", ID,
                       since=flag_until if value == "true" else None)
    return None


def _values(doc: BundleDoc, found: Mapping[str, Any], table: Sequence[_Value]) -> Iterator[Problem]:
    for item in table:
        written = dig(doc.data, *item.path)
        expected = item.read_spec(written) if written is not None else None
        if written is not None and expected is None:
            continue  # malformed spec value: the schema check reports it
        problem = _compare(doc, found, item.short, _WHERE[item], written, expected, item.read_label,
                           item.since, item.flag_until)
        if problem is not None:
            yield problem


def _flags(doc: BundleDoc, found: Mapping[str, Any]) -> Iterator[Problem]:
    for flag in _FLAGS:
        key = _KEY[flag.short]
        has = flag.present(doc.data)
        value = found.get(key)
        if has and value != "true":
            if key in found:
                yield Problem(doc.locate(LABELS + (key,)),
                              f"label {key} is {_show(value)} but {flag.where} {flag.yes} "
                              "(expected 'true')", ID)
            else:
                yield Problem(doc.locate(LABELS),
                              f"{flag.where} {flag.yes} but label {key} is missing "
                              "(expected 'true')", ID)
        elif not has and value == "true":
            yield Problem(doc.locate(LABELS + (key,)),
                          f"label {key} is 'true' but {flag.where} {flag.no}", ID)


def _size(doc: BundleDoc, found: Mapping[str, Any]) -> Iterator[Problem]:
    parts = split_name(doc.name)
    if parts is None:
        return  # name-grammar reports names without a size
    size = parts[1]
    if found.get(_KEY["size"]) == size:
        return
    problem = _compare(doc, found, "size", f"the size in the name {doc.name}", size, size, lambda v: v,
                       since=SIZE_LABEL_SINCE)
    if problem is not None:
        yield problem


def check(docs: Sequence[BundleDoc], ctx: RuleContext) -> Iterator[Problem]:
    for doc in docs:
        fam = family(doc)
        if fam is None:
            continue
        found = labels(doc)
        if fam == "instancetype":
            yield from _values(doc, found, _INSTANCETYPE_VALUES)
            yield from _size(doc, found)
            yield from _flags(doc, found)
        else:
            yield from _values(doc, found, _PREFERENCE_VALUES)
