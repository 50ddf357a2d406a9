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

from typing import Iterator, Sequence

from ....load.gpu import opt_in_note
from ....problems import Problem, excerpt
from ....suggest import Index, Suggestions
from ..target import Resolution
from .base import JudgeContext, history, names, one_of, quoted
from .invalid_name import invalid

ID = "unknown-name"

#: How many names a finding suggests.
SUGGESTIONS = 3


def suggestions(name: str, known: Index, context: str | None = None) -> Suggestions:
    """The names of ``known`` nearest ``name`` by the structure of catalog names (suggest.py), nearest first;
    ``context`` is the name of the object naming it (a DataVolume ``windows-2019``)."""
    return known.structured(name, SUGGESTIONS, context)


def _namespace(namespace: str | None) -> str:
    return f"in namespace {quoted(namespace)}" if namespace else "without a namespace"


def check(resolutions: Sequence[Resolution], ctx: JudgeContext) -> Iterator[Problem]:
    for one in resolutions:
        reference = one.reference
        if (reference.name is None or one.kind is None or one.resolved or one.shipped_as is not None
                or one.defined_as is not None):
            continue
        if (reference.family, reference.name) in ctx.target.left_out or invalid(reference.name):
            continue  # the release rule's, the invalid-name rule's
        message = f"{names(reference)}, which {ctx.target.described} does not have"
        # a name the target holds deprecated resolves, or is shipped as the other kind: a record here is retired
        record = ctx.target.lifecycle.get((reference.family, reference.name))
        elsewhere = ctx.resolver.namespaces(one.kind, reference.name)
        if elsewhere:
            message += (f" and the manifests read define as a {one.kind} only "
                        f"{', '.join(_namespace(n) for n in elsewhere)}, not {_namespace(reference.owner.namespace)}"
                        "; KubeVirt looks a namespaced kind up in the namespace of the object naming it")
        elif (reference.family, reference.name) in ctx.resolver.unserved:
            unserved = ctx.resolver.unserved[(reference.family, reference.name)]
            message += (f"; the manifests read write a {excerpt(unserved.kind)} of that name "
                        f"({unserved.location.file_line()}), a kind the API server does not serve: that object is "
                        "never created")
        elif record is not None:
            message += f": {history(record, ctx.target.lifecycle, ctx.target.described)}"
        elif reference.family == "instancetype" and (note := opt_in_note(reference.name, ctx.target.opt_in)):
            message += f": {note}"  # not another series' name that looks alike
        else:
            nearest = suggestions(reference.name, ctx.resolver.index(reference.family), reference.owner.name)
            if nearest.note:
                message += f" ({nearest.note})"
            if nearest.names:
                message += f"; did you mean {one_of(nearest.names)}?"
        yield Problem(reference.location, message, ID)
