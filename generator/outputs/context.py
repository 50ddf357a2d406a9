"""What every output producer is given: the finished build, before anything is written.

Apart from the package so that the producers (helm.py, kustomize.py) and the
package that lists them can all import it without importing each other.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, Callable, Mapping, Sequence, TypeVar

from ..frozen import frozen
from ..model import Catalog, CatalogObject
from ..schemas.releases import Release, known, newest
from ..source.documents import BundleDoc
from .policy import Policy

T = TypeVar("T")


@frozen
class OutputContext:
    """The finished build every output producer is given, and what they derive from it and share."""

    catalog: Catalog
    version: str
    objects: Sequence[CatalogObject]  # sorted by family, then name
    bundles: Mapping[str, str]  # bundle file name -> rendered text
    helm_package: bool = False  # also write the packaged chart (.tgz)
    # The all-bundle as the pipeline parsed it back, in its order; producers use it
    # instead of parsing the bundles again (empty: parse them yourself).
    documents: Sequence[BundleDoc] = ()
    # Each kind's documents as rendered, in bundle order (its bundle is these texts
    # joined), given when each text was parsed as exactly one document. Producers
    # that need documents one by one take them from here instead of cutting the
    # bundles apart (empty: cut them apart).
    texts: Mapping[str, Sequence[str]] = field(default_factory=dict)
    # The KubeVirt release the objects were built for (``build --kubevirt``): the chart and
    # the components serve it and the releases before it, whose objects can be made from these.
    kubevirt: Release = field(default_factory=newest)
    # The admission policy, when the build makes it (``build --policy``, catalog.yaml's ``policy``):
    # the kustomize tree gets a component of it, the chart a template and a value.
    policy: Policy | None = None
    # What producers derive from the build and share, made once for this context (once()).
    _made: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    @property
    def releases(self) -> tuple[Release, ...]:
        """The releases the outputs serve, oldest first: every release known up to the build's."""
        return tuple(release for release in known() if release <= self.kubevirt)

    def once(self, what: str, make: Callable[[], T]) -> T:
        """``make()``'s value, made the first time a producer asks for ``what`` in this build.

        Lives as long as the context: what the chart and the kustomize tree both derive
        (the releases' differences) is made once per build, and nothing outlives it.
        """
        if what not in self._made:
            self._made[what] = make()
        return self._made[what]
