"""The typed model between loading and expansion, and the objects expansion yields.

Everything here is frozen: a loaded catalog is a value. Each model element keeps
the Location it was written at so later steps can point back at the source, and
the catalog keeps the overlay lines that changed it (Change), so that the build's
one validation can point a problem on an object an overlay shaped at those lines.
"""

from __future__ import annotations

from dataclasses import field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Mapping, Sequence

from .frozen import frozen
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


#: The label KubeVirt's user interfaces read: the object is on its way out.
DEPRECATED_LABEL = label("deprecated")
#: The annotations a deprecated object carries beside that label when the catalog data says more
#: (docs/catalog-format.md, "Deprecation and retired names"): the catalog release that deprecated
#: it, and the name of the object of its family to use instead.
DEPRECATED_SINCE = label("deprecated-since")
DEPRECATED_REPLACEMENT = label("deprecated-replacement")
#: The two families of catalog objects, as the data, the objects and the lifecycle records name them.
FAMILIES = ("instancetype", "preference")


@frozen
class Deprecation:
    """What the data says of a deprecated item beyond the deprecated label.

    ``since`` is the catalog release that deprecated it (``v1.3.0``) and
    ``replacement`` the name of the object of the same family to use instead
    (``u1.medium``), both None where the data gives none (``deprecated: true``).
    On a series, ``replacement`` names a series, whose size of the same name
    replaces each size (``Series.size_deprecation``). ``location`` is where the
    deprecation is written, ``replacement_location`` where its replacement is.
    """

    location: Location
    since: str | None = None
    replacement: str | None = None
    replacement_location: Location | None = None


@frozen
class Retirement:
    """A name the catalog no longer defines: catalog.yaml's ``retired``.

    ``family`` is ``instancetype`` or ``preference``; ``since`` the catalog release
    whose build no longer has the name; ``replacement`` the name to use instead (a
    name the catalog builds, or another retired name whose own replacement leads to
    one), None where nothing replaces it; ``renamed`` that the replacement is the
    same object under a new name rather than a successor.
    """

    family: str
    name: str
    since: str
    location: Location
    replacement: str | None = None
    replacement_location: Location | None = None
    renamed: bool = False


@frozen
class Lifecycle:
    """What the catalog says of a name that is not current: what it is, since when, and what replaces it.

    ``status`` is ``deprecated`` for an object the objects hold, labelled
    deprecated (one of the catalog's, a retained one, or one of a bundle), and
    ``retired`` for a name they do not hold that catalog.yaml retires. ``since``
    is the release that deprecated the object (its ``deprecated-since``
    annotation) or retired the name; ``retired`` the release that retired the
    name, where catalog.yaml retires it, for a deprecated object too.
    ``replacement`` is the name to use instead, and ``chain`` every name met
    following replacements from it, the last being ``current``: the object the
    objects hold that is neither deprecated nor retired. ``current`` is None when
    nothing replaces the name, or when the replacements lead nowhere the objects
    hold (then ``chain`` ends where they stopped). ``renamed``: catalog.yaml says
    the replacement is the same object under a new name.
    """

    family: str
    name: str
    status: str
    since: str | None = None
    replacement: str | None = None
    chain: Sequence[str] = ()  # a tuple, or load.lifecycle.Chain: the names read when used
    current: str | None = None
    retired: str | None = None
    renamed: bool = False


@frozen
class Size:
    """One row of a size matrix: vCPUs, and memory when it is fixed rather than ratio-derived."""

    name: str
    cpu: int
    memory: int | None  # bytes; None means vCPUs x the series' ratio
    location: Location


@frozen
class SizeMatrix:
    """A named list of sizes (sizes.yaml): what each series of it is offered in, smallest first."""

    name: str
    sizes: tuple[Size, ...]  # in the order written, smallest first
    location: Location


@frozen
class Variant:
    """A second flavour of every size of a series, named ``<size><suffix>``."""

    suffix: str
    features: Mapping[str, Any]
    location: Location


@frozen
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
    #: Where the series is deprecated, and its since and replacement (a series) when written; None when current.
    deprecation: Deprecation | None = None
    #: ``deprecatedSizes``: by the part of the name after the dot (``medium``, ``medium1gi``), a size's
    #: own deprecation, or None where ``false`` keeps the size current in a deprecated series.
    deprecated_sizes: Mapping[str, Deprecation | None] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"{self.prefix}{self.version}"

    def size_deprecation(self, size: str) -> Deprecation | None:
        """The deprecation of this series' instancetype ``<name>.<size>``; None when it is current.

        A size of ``deprecatedSizes`` says for itself, taking the series' ``since``
        and its size in the series' replacement where it gives none; any other size
        of a deprecated series is replaced by the size of the same name in the
        series' replacement.
        """
        own = self.deprecated_sizes.get(size)
        if own is None and (size in self.deprecated_sizes or not self.deprecated):
            return None
        series = self.deprecation or Deprecation(self.location)  # a current series has no deprecation
        inherited = Deprecation(series.location, series.since,
                                f"{series.replacement}.{size}" if series.replacement else None,
                                series.replacement_location)
        if own is None:
            return inherited
        if own.replacement is not None:
            return replace(own, since=own.since or inherited.since)
        return replace(inherited, location=own.location, since=own.since or inherited.since)


@frozen
class Change:
    """One change an overlay line made to the model: which item, and the line.

    ``subject`` names the item as ``(kind, name)``: ``("series", "u1")``,
    ``("matrix", "tiny")``, ``("preference", "fedora")``, ``("trait", "vnc")``, or
    ``("catalog", key)`` for what an overlay changes of the catalog as a whole
    (``vendor``, ``version``, ``labels``, ``annotations``, ``parameters``,
    ``provider``, and the selections ``sizes``, ``series`` and ``preferences``).
    A setting that shapes some items (GPU parameters the GPU series, the provider
    every preference) is recorded for each of them too. Applying an overlay only
    records; expansion carries the lines to the objects each item becomes.
    """

    subject: tuple[str, str]
    location: Location


def lines_of(changes: Sequence[Change], *subjects: tuple[str, str]) -> tuple[Location, ...]:
    """The overlay lines that changed any of ``subjects``, in the order they were applied, each once."""
    wanted = set(subjects)
    return tuple(dict.fromkeys(c.location for c in changes if c.subject in wanted))


@frozen
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
    #: The overlay lines that shaped the item this object was expanded from, in the order
    #: they were applied (model.Change); empty for an object no overlay changed.
    shaped_by: tuple[Location, ...] = ()

    @property
    def kinds(self) -> tuple[str, ...]:
        if self.only_kinds:
            return self.only_kinds
        return INSTANCETYPE_KINDS if self.family == "instancetype" else PREFERENCE_KINDS


# --------------------------------------------------------------------------- the catalog


@frozen
class OlderField:
    """One field an older spelling writes: a fixed ``value``, or the value of the sub-field ``source``."""

    path: tuple[str, ...]
    value: Any = None
    source: str | None = None


@frozen
class OlderValue:
    """A value of a field that KubeVirt knows ``since`` a release, and what it was spelt before (``was``)."""

    since: str
    was: str | None = None


@frozen
class Spelling:
    """How KubeVirt releases older than a field (or than some of its values) spelt the same setting.

    catalog.yaml's ``spellings`` (docs/gitops.md): for ``field`` (a path from the
    object's root), ``writes`` are the older fields that say the same, used only
    when the field's sub-fields match ``when`` (sub-field -> allowed values, None
    meaning absent); ``values`` are the values of the field that came later than the
    field itself, each with its older spelling.
    """

    field: tuple[str, ...]
    location: Location
    writes: tuple[OlderField, ...] = ()
    when: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    values: Mapping[str, OlderValue] = field(default_factory=dict)


@frozen
class Settings:
    """catalog.yaml: what applies to the whole catalog."""

    vendor: str
    version: str
    parameters: Mapping[str, Any]
    provider: Mapping[str, str]
    location: Location
    # Stamped on every object beside the vendor label; only overlays set them.
    extra_labels: Mapping[str, str] = field(default_factory=dict)
    extra_annotations: Mapping[str, str] = field(default_factory=dict)
    # catalog.yaml's overlays, joined to the catalog directory as it was named.
    overlays: tuple[Path, ...] = ()
    # Older spellings of settings, for builds for older KubeVirt releases (expand/kubevirt.py).
    spellings: tuple[Spelling, ...] = ()
    # catalog.yaml's ``policy``: the admission policy is built (outputs/policy.py), retired names
    # warned about ("warn") or refused ("deny"); None: only ``build --policy`` builds it.
    policy: str | None = None
    # catalog.yaml's ``osLabels``: every preference carries the labels os.template.kubevirt.io/<short-id> of the
    # OS releases its osinfo claim names (expand/stamp.py); off by default, as upstream's objects have none.
    os_labels: bool = False


@frozen
class Catalog:
    """A catalog's instancetype half as loaded: its folder, catalog.yaml's settings, the size matrices and
    the series, with what overlays changed and the names it retired."""

    root: Path
    settings: Settings
    matrices: Mapping[str, SizeMatrix]
    series: tuple[Series, ...]
    # The catalog this one extends (its series and preferences are the starting
    # point, its templates the fallback); None for a self-contained catalog.
    base: Path | None = None
    #: What overlays changed of settings, matrices and series, in the order applied.
    changes: tuple[Change, ...] = ()
    #: catalog.yaml's ``retired``: the names it no longer defines, by (family, name).
    retirements: Mapping[tuple[str, str], Retirement] = field(default_factory=dict)


# --------------------------------------------------------------------------- preferences


@frozen
class Trait:
    """One reusable fragment of a preference spec, named after its file.

    ``essential``: the fragment is what a preference using it is for (IBM Secure
    Execution's launch security). A build for a KubeVirt release whose schema lacks
    one of its fields leaves such a preference out rather than ship it without.
    """

    name: str
    description: str
    spec: Mapping[str, Any]
    tags: tuple[str, ...]  # added to the ``tags`` annotation of every preference using it
    location: Location
    essential: bool = False


@frozen
class TraitRef:
    """One entry of a ``traits:`` list: a trait name, whether it overrides, where it is written."""

    name: str
    override: bool
    location: Location


@frozen
class Requirements:
    """Minimum resources a guest needs: vCPUs and memory (a quantity as written)."""

    cpu: int | None = None
    memory: str | None = None
    location: Location | None = None

    def spec(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.cpu is not None:
            out["cpu"] = {"guest": self.cpu}
        if self.memory is not None:
            out["memory"] = {"guest": self.memory}
        return {"requirements": out} if out else {}

    def over(self, base: "Requirements") -> "Requirements":
        """These requirements, with what they leave unset taken from ``base``."""
        return Requirements(self.cpu if self.cpu is not None else base.cpu,
                            self.memory if self.memory is not None else base.memory,
                            self.location or base.location)


@frozen
class OsinfoClaim:
    """The libosinfo OS releases a preference is for (``osinfo:`` of a family or preference file).

    ``short_ids``: the releases the data names (short-ids such as ``rhel9.1``, or id URIs), first
    the representative one; a line (``line: rhel9``) stands for every release of it the database
    knows (generator/osinfo/claims.py), and may name none itself. ``accepted``: the checks of the
    ``osinfo`` rule the data accepts a difference from the database for, each with its reason.
    """

    short_ids: tuple[str, ...]
    line: str | None
    accepted: Mapping[str, str]
    location: Location
    #: Where each name (a short-id, an id, the line) is written, for a problem about it.
    written_at: Mapping[str, Location] = field(default_factory=dict)
    #: Where each accepted check's reason is written.
    accepted_at: Mapping[str, Location] = field(default_factory=dict)
    #: The first release of the line the preference is for (``fedora36`` of ``line: fedora``); None: all of it.
    since: str | None = None

    @property
    def names_os(self) -> bool:
        """Whether the claim names an OS (releases or a line), not only accepted differences."""
        return bool(self.short_ids) or self.line is not None

    def over(self, base: "OsinfoClaim | None") -> "OsinfoClaim":
        """This claim with what it leaves out taken from ``base``: the releases unless it names some, and the
        accepted checks of both (its own reasons win)."""
        if base is None:
            return self
        own = self if self.names_os else base
        return OsinfoClaim(own.short_ids, own.line, {**base.accepted, **self.accepted}, own.location, own.written_at,
                           {**base.accepted_at, **self.accepted_at}, own.since)


@frozen
class Family:
    """What every preference of one family file shares: the file's top-level keys."""

    name: str  # the file stem; the group of its objects
    os_type: str | None
    icon_class: str | None
    tags: tuple[str, ...] | None
    traits: tuple[TraitRef, ...]
    requirements: Requirements  # defaults: fill only what the composition leaves unset
    deprecated: bool
    location: Location
    os_type_location: Location | None = None
    #: Where the family is deprecated and its ``since`` (a family names no replacement: each preference its own).
    deprecation: Deprecation | None = None
    #: The OS every preference of the family is for, unless it (or one it is based on) says otherwise.
    osinfo: OsinfoClaim | None = None


@frozen
class PreferenceDef:
    """One preference as written; ``None`` means "inherit" (from ``based_on``, then the family)."""

    name: str
    family: str
    description: str
    location: Location
    based_on: str | None = None
    based_on_location: Location | None = None
    display_name: str | None = None
    os_type: str | None = None
    os_type_location: Location | None = None
    icon_class: str | None = None
    tags: tuple[str, ...] | None = None
    traits: tuple[TraitRef, ...] = ()
    requirements: Requirements = Requirements()
    spec: Mapping[str, Any] | None = None
    spec_location: Location | None = None
    override_spec: Mapping[str, Any] | None = None
    override_spec_location: Location | None = None
    deprecated: bool | None = None
    #: Where ``deprecated: true`` (or the mapping) is written, with its own since and replacement.
    deprecation: Deprecation | None = None
    #: The libosinfo OS it is for, as written on it (over what it is based on, then its family's).
    osinfo: OsinfoClaim | None = None


def preference_deprecation(pref: PreferenceDef, family: Family) -> Deprecation | None:
    """The deprecation of a preference: its own, else its family's; None when it is current.

    ``deprecated`` written on the preference replaces the family's (``false`` keeps
    one preference of a deprecated family current); a preference that names no
    ``since`` takes its deprecated family's.
    """
    deprecated = pref.deprecated if pref.deprecated is not None else family.deprecated
    if not deprecated:
        return None
    inherited = family.deprecation if family.deprecated else None
    since = inherited.since if inherited else None
    if pref.deprecated is None:
        return inherited or Deprecation(family.location)
    own = pref.deprecation or Deprecation(pref.location)
    return replace(own, since=own.since or since)


@frozen
class PreferenceCatalog:
    """The loaded preference half of a catalog: traits, families and preferences by name."""

    traits: Mapping[str, Trait]
    families: Mapping[str, Family]
    preferences: Mapping[str, PreferenceDef]
    #: What overlays changed of traits and preferences, in the order applied.
    changes: tuple[Change, ...] = ()
