"""The types every rule shares: the context it is given and its registry entry."""

from __future__ import annotations

import inspect
from dataclasses import field
from fractions import Fraction
from types import ModuleType
from typing import TYPE_CHECKING, AbstractSet, Callable, Iterator, Mapping, Optional, Sequence

from ...frozen import frozen
from ...model import Catalog, label
from ...problems import Problem
from ...schemas.releases import Release, newest
from ...source.documents import BundleDoc
from ._objects import labels

if TYPE_CHECKING:
    from packaging.version import Version

    from ...osinfo.claims import OsinfoContext

Check = Callable[[Sequence[BundleDoc], "RuleContext"], Iterator[Problem]]

#: Whose releases a check's ``since`` counts in: KubeVirt's own catalog. A vendor
#: numbers its releases its own way, so its version label dates nothing here.
UPSTREAM_VENDOR = "kubevirt.io"
_VENDOR = label("vendor")
_VERSION = label("common-instancetypes-version")


def _version(text: str) -> Optional[Version]:
    """``text`` as a version, None when it is none (imported here: a clean build never dates a finding)."""
    from packaging.version import InvalidVersion, Version

    try:
        return Version(text)
    except InvalidVersion:
        return None


def release_of(doc: BundleDoc) -> Optional[str]:
    """The KubeVirt catalog release ``doc`` was shipped in, as its own labels say.

    That is its ``common-instancetypes-version`` label when its vendor label is
    KubeVirt's and the version reads as one (``v1.0.0``, ``v1.1.0-rc.1``); None
    otherwise, and such an object is held to every check.
    """
    found = labels(doc)
    version = found.get(_VERSION)
    if found.get(_VENDOR) != UPSTREAM_VENDOR or not isinstance(version, str):
        return None
    return version if _version(version) is not None else None


def predates(release: str, since: str) -> bool:
    """Whether ``release`` came out before ``since``, the release that introduced a check."""
    shipped, introduced = _version(release), _version(since)
    return shipped is not None and introduced is not None and shipped < introduced


@frozen
class SeriesRatio:
    """How much memory a series gives each vCPU, and which sizes are exempt.

    ``ratio`` is GiB of memory per vCPU (``Fraction(4)`` for u1, ``Fraction(1, 2)``
    for half a GiB). ``exceptions`` holds the sizes whose memory is fixed rather
    than derived from the ratio, spelled as they appear after the dot of an
    instancetype name (``nano``, ``2xmedium``); a variant size such as
    ``medium1gi`` is its own entry, so list it too when its base size is exempt.
    """

    ratio: Fraction
    exceptions: AbstractSet[str] = frozenset()


@frozen
class RuleContext:
    """What rules need to know beyond the documents they check.

    vendor
        The value every object's ``instancetype.kubevirt.io/vendor`` label must
        hold (catalog.yaml ``vendor``, or ``citgen validate --vendor``). ``None``
        means no vendor is known: the objects must then agree on one among
        themselves (a vendor's bundle validated without flags).
    series
        Series name as written before the dot of an instancetype name (``u1``,
        ``cx1``) mapped to its SeriesRatio. An instancetype of a series missing
        here is not ratio-checked: a user's file may carry series this tool
        knows nothing about, and guessing a ratio would only produce noise.
    kubevirt
        The KubeVirt release whose API server and admission webhooks judge the
        objects (``citgen validate --kubevirt``): its CRD schemas, and the webhook
        rules as that release has them. The newest release citgen knows by default.
    osinfo
        libosinfo's database and the OS each preference of the catalog names
        (generator/osinfo/claims.py), for the ``osinfo`` rule; None when no
        database was found or the objects are no catalog's, and the rule is skipped.
    """

    vendor: Optional[str] = None
    series: Mapping[str, SeriesRatio] = field(default_factory=dict)
    kubevirt: Release = field(default_factory=newest)
    osinfo: Optional["OsinfoContext"] = None

    @classmethod
    def from_catalog(cls, catalog: "Catalog") -> "RuleContext":
        """The context a catalog implies: its vendor, and each series' ratio and exceptions.

        A size is an exception when its matrix fixes its memory (the small sizes
        and 2xmedium of the standard matrix); each variant of the series adds the
        same sizes with its suffix, since ``medium1gi`` is sized like ``medium``.
        """
        series = {}
        for one in catalog.series:
            matrix = catalog.matrices.get(one.matrix)
            fixed = [s.name for s in (matrix.sizes if matrix else ()) if s.memory is not None]
            suffixes = [""] + [v.suffix for v in one.variants]
            exceptions = frozenset(size + suffix for size in fixed for suffix in suffixes)
            series[one.name] = SeriesRatio(one.ratio, exceptions)
        return cls(vendor=catalog.settings.vendor, series=series)


@frozen
class Rule:
    """A registered rule: its ID, one-line summary, documentation and check."""

    id: str
    summary: str
    doc: str
    check: Check
    admission: bool = False  # a rule of KubeVirt's admission webhook (webhook_*.py)

    @classmethod
    def from_module(cls, module: ModuleType) -> "Rule":
        """A rule module's entry: its ID, docstring, ``check`` and whether it is an ``ADMISSION`` rule."""
        text = inspect.cleandoc(module.__doc__ or "")
        summary, _, rest = text.partition("\n")
        return cls(module.ID, summary.strip(), rest.strip(), module.check, getattr(module, "ADMISSION", False))
