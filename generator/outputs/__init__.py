"""Outputs derived from a build besides the bundle files: each a function of the build.

Every producer gets the same OutputContext and returns relative paths (inside
the output directory) mapped to file contents. The pipeline collects them all
before anything is written, so they are part of the same atomic replacement.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from ..documents import BundleDoc
from ..load import Catalog
from ..model import CatalogObject


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


Producer = Callable[[OutputContext], Mapping[str, bytes]]

from .helm import helm_files  # noqa: E402 - producers import OutputContext lazily
from .kustomize import kustomize_files  # noqa: E402

#: Every producer, in the order their files are laid out.
OUTPUTS: list[Producer] = [kustomize_files, helm_files]


def output_files(ctx: OutputContext) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for produce in OUTPUTS:
        files.update(produce(ctx))
    return files
