"""Every object is an instancetype or preference of instancetype.kubevirt.io/v1beta1.

The catalog ships exactly four kinds: VirtualMachineClusterInstancetype,
VirtualMachineInstancetype, VirtualMachineClusterPreference and
VirtualMachinePreference, all at apiVersion ``instancetype.kubevirt.io/v1beta1``
(the older v1alpha1 and v1alpha2 are gone from KubeVirt's current API). A
document of another kind, or one that is not a mapping at all, is reported
here. The schema check makes the same demands, so in a full run its message
is shown instead of this rule's.

Example::

    bundle.yaml#0 (u1.small) $.apiVersion: apiVersion is 'instancetype.kubevirt.io/v1alpha2', expected 'instancetype.kubevirt.io/v1beta1' [api-version]
"""

from __future__ import annotations

from typing import Iterator, Sequence

from ...model import API_VERSION, KINDS
from ...problems import Problem
from ...source.documents import BundleDoc
from .base import RuleContext

ID = "api-version"


def check(docs: Sequence[BundleDoc], ctx: RuleContext) -> Iterator[Problem]:
    for doc in docs:
        if not isinstance(doc.data, dict):
            yield Problem(doc.locate(), "a document must be a mapping (a Kubernetes object)", ID)
            continue
        kind = doc.data.get("kind")
        if kind not in KINDS:
            yield Problem(
                doc.locate(("kind",)),
                f"kind is {kind!r}, expected one of {', '.join(KINDS)}",
                ID,
            )
            continue  # its apiVersion is whatever its own kind needs
        api_version = doc.data.get("apiVersion")
        if api_version != API_VERSION:
            yield Problem(
                doc.locate(("apiVersion",)),
                f"apiVersion is {api_version!r}, expected {API_VERSION!r}",
                ID,
            )
