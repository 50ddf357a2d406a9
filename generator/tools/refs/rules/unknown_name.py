"""A name the target does not have: the nearest names it does, or what became of the name.

A reference is looked up in the target (the built-in catalog's build, a catalog's,
the build for a KubeVirt release, or published bundles) and among the objects the
manifests read define themselves (a VirtualMachineInstancetype beside its
VirtualMachine, in the same namespace). When the target's lifecycle data knows the
name was renamed or removed (catalog.yaml's ``retired``), the finding tells that
history, step by step along the replacements, and names what to use today;
when the name belongs to a series the build leaves out for want of a GPU device
(GN), it says so and how to build it; otherwise it suggests the nearest names of
the same family.

A reference whose name cannot be known offline (a template parameter without a
default) is counted as unchecked and never reported.

Examples::

    hco.yaml:6:45: [0].metadata.labels['instancetype.kubevirt.io/default-preference']: DataImportCronTemplate centos-stream8 names preference 'centos.8.stream', which the built-in catalog does not have: centos.8.stream was renamed centos.stream8 in v0.4.0, then centos.stream8 was removed in v1.2.1; use 'centos.stream9' [unknown-name]
    vm.yaml:8:11: spec.preference.name: VirtualMachine web names preference 'fedoar', which the built-in catalog does not have; did you mean 'fedora'? [unknown-name]
"""

from __future__ import annotations

import difflib
from typing import Iterator, Sequence

from ....load.gpu import opt_in_note
from ....problems import Problem
from ..target import Resolution
from .base import JudgeContext, history, names, one_of, quoted

ID = "unknown-name"

#: How many names a finding suggests, and how alike (difflib's ratio) a name must be to be one.
SUGGESTIONS, LIKENESS = 3, 0.6


def suggestions(name: str, known: Sequence[str]) -> list[str]:
    """The names of ``known`` nearest ``name``, nearest first."""
    return difflib.get_close_matches(name, known, SUGGESTIONS, LIKENESS)


def _namespace(namespace: str | None) -> str:
    return f"in namespace {quoted(namespace)}" if namespace else "without a namespace"


def check(resolutions: Sequence[Resolution], ctx: JudgeContext) -> Iterator[Problem]:
    for one in resolutions:
        reference = one.reference
        if reference.name is None or one.kind is None or one.resolved or one.shipped_as is not None:
            continue
        if (reference.family, reference.name) in ctx.target.left_out:
            continue  # the release rule's
        message = f"{names(reference)}, which {ctx.target.described} does not have"
        # a name the target holds deprecated resolves, or is shipped as the other kind: a record here is retired
        record = ctx.target.lifecycle.get((reference.family, reference.name))
        elsewhere = ctx.resolver.namespaces(one.kind, reference.name)
        if elsewhere:
            message += (f" and the manifests read define as a {one.kind} only "
                        f"{', '.join(_namespace(n) for n in elsewhere)}, not {_namespace(reference.owner.namespace)}"
                        "; KubeVirt looks a namespaced kind up in the namespace of the object naming it")
        elif record is not None:
            message += f": {history(record, ctx.target.lifecycle, ctx.target.described)}"
        elif reference.family == "instancetype" and (note := opt_in_note(reference.name, ctx.target.opt_in)):
            message += f": {note}"  # not another series' name that looks alike
        else:
            nearest = suggestions(reference.name, ctx.resolver.names(reference.family))
            if nearest:
                message += f"; did you mean {one_of(nearest)}?"
        yield Problem(reference.location, message, ID)
