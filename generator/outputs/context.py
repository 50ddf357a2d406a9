"""What every output producer is given: the finished build, before anything is written.

Apart from the package so that the producers (helm.py, kustomize.py) and the
package that lists them can all import it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Mapping, Sequence

from ..model import Catalog, CatalogObject
from ..schemas.releases import Release, known, newest
from ..source.documents import BundleDoc
from .policy import Policy

if TYPE_CHECKING:
    from .releases import ReleaseDelta


@dataclass(frozen=True)
class OutputContext:
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

    @property
    def releases(self) -> tuple[Release, ...]:
        """The releases the outputs serve, oldest first: every release known up to the build's."""
        return tuple(release for release in known() if release <= self.kubevirt)

    @cached_property
    def release_deltas(self) -> tuple["ReleaseDelta", ...]:
        """Every release the outputs serve as its differences from the build's objects.

        Computed once per build: the kustomize components and the chart's release data
        are two views of the same differences.
        """
        from ..render.searchpath import search_path
        from .releases import release_deltas

        return release_deltas(self, search_path(self.catalog.root))
