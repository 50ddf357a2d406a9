"""The typed model between loading and expansion, and the objects expansion yields.

Everything here is frozen: a loaded catalog is a value. Each model element keeps
the Location it was written at so later steps can point back at the source.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping

from .problems import Location

GROUP = "instancetype.kubevirt.io"
API_VERSION = f"{GROUP}/v1beta1"
LABEL_PREFIX = f"{GROUP}/"

#: The two kinds each catalog object is rendered as: cluster-wide and namespaced.
INSTANCETYPE_KINDS = ("VirtualMachineClusterInstancetype", "VirtualMachineInstancetype")
PREFERENCE_KINDS = ("VirtualMachineClusterPreference", "VirtualMachinePreference")
KINDS = INSTANCETYPE_KINDS + PREFERENCE_KINDS
CLUSTER_KINDS = (INSTANCETYPE_KINDS[0], PREFERENCE_KINDS[0])


def label(key: str) -> str:
    """The full label key for a short name: ``cpu`` -> ``instancetype.kubevirt.io/cpu``."""
    return LABEL_PREFIX + key


@dataclass(frozen=True)
class Size:
    """One row of a size matrix: vCPUs, and memory when it is fixed rather than ratio-derived."""

    name: str
    cpu: int
    memory: int | None  # bytes; None means vCPUs x the series' ratio
    location: Location


@dataclass(frozen=True)
class SizeMatrix:
    name: str
    sizes: tuple[Size, ...]  # in the order written, smallest first
    location: Location

    def get(self, name: str) -> Size | None:
        return next((s for s in self.sizes if s.name == name), None)


@dataclass(frozen=True)
class Variant:
    """A second flavour of every size of a series, named ``<size><suffix>``."""

    suffix: str
    features: Mapping[str, Any]
    location: Location


@dataclass(frozen=True)
class Series:
    """A class of instancetypes: what every size of it shares."""

    prefix: str  # "cx": names are cx<version>.<size>
    version: int
    cls: str  # the class label, e.g. compute.exclusive
    display_name: str
    description: str
    icon: str
    ratio: Fraction  # GiB of memory per vCPU
    matrix: str
    sizes: tuple[str, ...]  # which sizes of the matrix it offers
    features: Mapping[str, Any]
    spec: Mapping[str, Any]  # extra spec fragment merged over what features render
    variants: tuple[Variant, ...]
    deprecated: bool
    location: Location

    @property
    def name(self) -> str:
        return f"{self.prefix}{self.version}"


@dataclass(frozen=True)
class CatalogObject:
    """One catalog entry, ready to render as each of its two kinds.

    ``group`` is the series (``u``) or preference family (``windows``) it belongs
    to; outputs that split the catalog (kustomize bases, Helm values) use it.
    """

    family: str  # "instancetype" or "preference"
    name: str
    group: str
    labels: Mapping[str, str]
    annotations: Mapping[str, str]
    spec: Mapping[str, Any]
    location: Location
    facts: Mapping[str, Any] = field(default_factory=dict)  # derived numbers for tables and lists
    only_kinds: tuple[str, ...] = ()  # set for objects retained from an old bundle in some kinds only

    @property
    def kinds(self) -> tuple[str, ...]:
        if self.only_kinds:
            return self.only_kinds
        return INSTANCETYPE_KINDS if self.family == "instancetype" else PREFERENCE_KINDS
