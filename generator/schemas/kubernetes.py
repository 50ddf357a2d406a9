"""The Kubernetes releases each KubeVirt release supports, as that release says it.

Read at each minor release's first tag of kubevirt/kubevirt: the Kubernetes
providers its ``cluster-up/cluster/`` (``kubevirtci/cluster-up/cluster/`` from
v1.3 on) holds, ``k8s-1.NN``, the clusters its end-to-end lanes run on (for
example ``git ls-tree --name-only v1.0.0 cluster-up/cluster/``: ``k8s-1.25``,
``k8s-1.26``, ``k8s-1.27``). kubevirt/sig-release's
``releases/k8s-support-matrix.md``, which a robot writes from the same
providers, says the same for every release but two, in ways that change
nothing the admission policy needs: v1.6 from 1.31 (its tag still holds
``k8s-1.30``) and v1.7 to 1.34 (its tag already holds ``k8s-1.35``).

What it is for: the admission policy (outputs/policy.py) is
``admissionregistration.k8s.io/v1``, which Kubernetes serves from 1.30 on, and
a build for a KubeVirt release says which of that release's clusters cannot
take it. ``tests/test_kubernetes_support.py`` checks that every release citgen
has schemas for is here.
"""

from __future__ import annotations

from ..frozen import frozen
from .releases import Release

__all__ = ["KUBERNETES", "Supported", "supported"]


@frozen
class Supported:
    """The Kubernetes minor releases a KubeVirt release supports, oldest and newest, and the tag read."""

    oldest: tuple[int, int]
    newest: tuple[int, int]
    tag: str

    def __str__(self) -> str:
        return f"{self.oldest[0]}.{self.oldest[1]} to {self.newest[0]}.{self.newest[1]}"


#: KubeVirt minor release -> the Kubernetes releases it supports (see the module's text for the source).
KUBERNETES = {
    Release(1, 0): Supported((1, 25), (1, 27), "v1.0.0"),
    Release(1, 1): Supported((1, 26), (1, 28), "v1.1.0"),
    Release(1, 2): Supported((1, 27), (1, 29), "v1.2.0"),
    Release(1, 3): Supported((1, 28), (1, 30), "v1.3.0"),
    Release(1, 4): Supported((1, 29), (1, 31), "v1.4.0"),
    Release(1, 5): Supported((1, 30), (1, 32), "v1.5.0"),
    Release(1, 6): Supported((1, 30), (1, 33), "v1.6.0"),
    Release(1, 7): Supported((1, 32), (1, 35), "v1.7.0"),
    Release(1, 8): Supported((1, 33), (1, 35), "v1.8.0"),
    Release(1, 9): Supported((1, 34), (1, 36), "v1.9.0"),
}


def supported(release: Release) -> Supported | None:
    """What ``release`` supports; None for a release not recorded here."""
    return KUBERNETES.get(release)
