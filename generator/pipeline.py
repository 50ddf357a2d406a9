"""The build, step by step: load, expand, render, parse back, validate, lay out outputs.

Each step lives in its own module; this one only strings them together and
decides what a build produces. Nothing is written here (see write.py), so the
same pipeline serves `citgen build`, `citgen validate`, `citgen list` and tests.

A build validates once: overlays only change the model (load/overlays.py), and
the problems of the rendered documents are pointed back at the overlay lines or
catalog files behind their objects (validate/provenance.py).
"""

from __future__ import annotations

import importlib
import re
from dataclasses import field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

from .errors import InputError
from .expand.instancetypes import instancetype_objects, unique
from .expand.preferences import expand_preferences
from .expand.retain import retained_objects
from .expand.stamp import stamp
from .frozen import frozen
from .load.catalog import load_catalog
from .load.gpu import HOW_TO_ENABLE, device_problem, left_out
from .load.lifecycle import lifecycle_problems
from .load.preferences import load_preference_catalog
from .model import Catalog, CatalogObject, PreferenceCatalog, Series, label
from .objectmeta import label_value_problem
from .paths import builtin_catalog, catalog_folder, catalog_name, catalog_record
from .problems import Location, Problem
from .render import rendering
from .render.bundles import render_bundles, start_bundles, template_folders
from .expand.kubevirt import Adjustment, for_release
from .schemas.releases import Release, newest
from .source.documents import BundleDoc
from .source.inputfiles import usable_folder
from .write import checksums

if TYPE_CHECKING:
    from .parse import Parsed
    from .render.bundles import Rendered

RELEASE = re.compile(r"^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$")

#: The modules of the steps after rendering (parse back, validate, lay out the outputs, their checksums): a
#: build imports them while its rendering process renders the objects on the second core (generate()).
LATER_STEPS = ("generator.parse", "generator.validate", "generator.validate.provenance", "generator.outputs",
               "generator.outputs.context", "generator.outputs.policy", "hashlib")


@frozen
class BuildOptions:
    """Everything a build can be told; None means "as the catalog says"."""

    #: The catalog's folder; None: the one the working directory is in, else the built-in one (paths.py).
    catalog: Path | None = None
    version: str | None = None
    release: str | None = None
    gpu_device: str | None = None
    gpu_count: int | None = None
    retain_from: tuple[Path, ...] = ()
    helm_package: bool = False
    #: Also build the admission policy (outputs/policy.py), as catalog.yaml's ``policy`` does.
    policy: bool = False
    #: Label every preference with the OS releases it is for (expand/stamp.py), as catalog.yaml's ``osLabels`` does.
    os_labels: bool = False
    overlays: tuple[Path, ...] = ()
    #: The KubeVirt release to build for (expand/kubevirt.py); None: the newest citgen knows.
    kubevirt: Release | None = None
    #: Judge the preferences against libosinfo's database (the osinfo rule), where one is found:
    #: ``osinfo_db``, else libosinfo's folders (osinfo/database.py).
    osinfo: bool = False
    osinfo_db: Path | None = None

    @property
    def catalog_dir(self) -> Path:
        return catalog_folder(self.catalog)

    def named(self, version: str) -> str:
        """The catalog as a summary names it: ``built-in catalog v1.8.0-dev``, ``catalog ./ v1.9.0``."""
        return catalog_name(self.catalog, version)

    def record(self, version: str) -> dict[str, Any]:
        """The catalog for a JSON report: ``{"path": "." or null for the built-in one, "builtIn", "version"}``."""
        return catalog_record(self.catalog, version)


@frozen
class Build:
    """The result of a build: objects, rendered bundles, parsed documents, problems, files."""

    catalog: Catalog
    version: str
    objects: tuple[CatalogObject, ...]
    bundles: Mapping[str, str]  # file name -> text
    documents: tuple[BundleDoc, ...]  # the all-bundle, parsed back
    problems: tuple[Problem, ...] = ()
    files: Mapping[str, bytes] = field(default_factory=dict)
    # Series not built because they need a GPU device and none was configured (load/gpu.py).
    left_out: tuple[Series, ...] = ()
    #: findings on retained objects of checks newer than their release: reported, never blocking
    newer_rule_findings: tuple[Problem, ...] = ()
    #: what KubeVirt admits with a warning (a deprecated value): reported, never blocking
    warnings: tuple[Problem, ...] = ()
    #: the KubeVirt release built for, and what that changed or left out of the objects
    kubevirt: Release = field(default_factory=newest)
    adjustments: tuple[Adjustment, ...] = ()
    #: The catalog built, as a summary names it (BuildOptions.named).
    source: str = ""
    #: The same for programs (BuildOptions.record).
    source_record: Mapping[str, Any] = field(default_factory=dict)
    #: With BuildOptions.osinfo: which osinfo database judged the preferences, or that none was found.
    osinfo_note: str | None = None


def _option_problems(options: BuildOptions) -> list[Problem]:
    problems = []
    stamped = f"it is stamped as the label {label('common-instancetypes-version')}"
    if options.version is not None:
        wrong = label_value_problem(options.version)
        if wrong:
            problems.append(Problem(Location("--version"), f"{wrong}; {stamped}"))
    if options.release is not None and not RELEASE.fullmatch(options.release):
        problems.append(Problem(Location("--release"), f"expected a release such as v1.2.3, got {options.release!r}"))
    elif options.release is not None and options.version is None:
        wrong = label_value_problem(options.release)
        if wrong:
            problems.append(Problem(Location("--release"), f"{wrong}; without --version {stamped}"))
    if options.gpu_device is not None:
        found = device_problem(options.gpu_device)
        if found:
            problems.append(Problem(Location("--gpu-device"), found))
    return problems


def _parameters(catalog: Catalog, options: BuildOptions) -> dict:
    """The catalog's parameters with the build's options over them.

    A GPU count with no device anywhere is refused: GN is built only with a
    device, so the count would silently do nothing.
    """
    gpu = dict(catalog.settings.parameters.get("gpu") or {})
    if options.gpu_device is not None:
        gpu["deviceName"] = options.gpu_device
    if options.gpu_count is not None:
        if "deviceName" not in gpu:
            raise InputError.at(Location("--gpu-count"), (
                f"sets how many GPUs each GN instancetype gets, but no GPU device is configured, so GN is "
                f"not built; {HOW_TO_ENABLE} too"))
        gpu["count"] = options.gpu_count
    return {**catalog.settings.parameters, "gpu": gpu}  # read only where a device is configured (load/gpu.py)


def left_out_series(catalog: Catalog, options: BuildOptions) -> tuple[Series, ...]:
    """The series a build of ``catalog`` with ``options`` leaves out for want of a GPU device (load/gpu.py)."""
    return tuple(left_out(catalog.series, _parameters(catalog, options)))


def _preference_problems(root: Path) -> list[Problem]:
    """What is wrong with a catalog's preferences, to report beside what is wrong elsewhere."""
    from .expand.preferences import build_preferences
    from .load.catalog import DEFAULT_PROVIDER

    try:
        usable_folder(root, str(root))
    except InputError:  # no catalog folder to look into: load_catalog said so already
        return []
    try:
        if usable_folder(root / "preferences", "preferences"):
            build_preferences(root, provider=DEFAULT_PROVIDER)
    except InputError as exc:
        return list(exc.problems)
    return []


def load_all(options: BuildOptions) -> tuple[Catalog, PreferenceCatalog]:
    """Both halves of the catalog's model, with the overlays applied in order."""
    problems = _option_problems(options)
    try:
        catalog = load_catalog(options.catalog_dir, extra_problems=problems)
    except InputError as exc:  # one run reports the mistakes of both halves of the catalog
        raise InputError([*exc.problems, *_preference_problems(options.catalog_dir)]) from None
    preferences = load_preference_catalog(catalog.base or catalog.root)  # a vendor catalog starts from its base
    problems = lifecycle_problems(catalog, preferences)  # replacements and retired names, as the files say them
    if problems:
        raise InputError(problems)
    overlays = catalog.settings.overlays + tuple(options.overlays)  # catalog.yaml's first, then --overlay
    if overlays:
        from .load.overlays import apply_overlays

        own = catalog.retirements
        catalog, preferences = apply_overlays(catalog, preferences, overlays)
        problems = lifecycle_problems(catalog, preferences, inherited=own)  # and as the build will have them
        if problems:
            raise InputError(problems)
    return catalog, preferences


def catalog_objects(options: BuildOptions) -> tuple[Catalog, str, list[CatalogObject]]:
    """Load and expand the catalog: every object, stamped and sorted, with retained ones."""
    catalog, preferences = load_all(options)
    version = options.version or options.release or catalog.settings.version
    problems: list[Problem] = []
    try:
        instancetypes = instancetype_objects(catalog, _parameters(catalog, options))
    except InputError as exc:  # still expand the preferences, to report their problems too
        problems += exc.problems
    try:
        prefs = expand_preferences(preferences, provider=catalog.settings.provider)
    except InputError as exc:
        problems += exc.problems
    if problems:
        raise InputError(problems)
    own = instancetypes + prefs
    with_os_labels = options.os_labels or catalog.settings.os_labels
    own = stamp(own, catalog.settings.vendor, version, labels=catalog.settings.extra_labels,
                annotations=catalog.settings.extra_annotations, with_os_labels=with_os_labels,
                osinfo=_labels_database(options, catalog, prefs) if with_os_labels else None)
    retained = _retained(options.retain_from)
    kept = retained_objects(retained, own, catalog.retirements)
    return catalog, version, unique([*own, *kept])


def _labels_database(options: BuildOptions, catalog: Catalog, preferences: Sequence[CatalogObject]):
    """libosinfo's database the OS labels list a line's releases from (-> OsinfoDatabase | None).

    Needed only where a preference's claim is a line: without a database its labels could
    not be listed, and a build on a machine without one would write other objects than one
    with it, so it is refused, saying where the database was looked for.
    """
    lines = sorted(o.name for o in preferences if getattr(o.facts.get("osinfoClaim"), "line", None) is not None)
    if not lines:
        return None
    from .osinfo.database import load_database
    from .osinfo.discovery import candidates

    found = load_database(options.osinfo_db)
    if found is None:
        where = Location("--os-labels") if options.os_labels else catalog.settings.location
        looked = ", ".join(str(path) for path, _ in candidates(options.osinfo_db))
        shown = ", ".join(lines[:3]) + (f" and {len(lines) - 3} more" if len(lines) > 3 else "")
        raise InputError.at(where, f"osLabels: the OS labels of {shown} list the releases of a line, which only "
                            f"libosinfo's database knows, and none was found (looked in {looked}); install osinfo-db "
                            "or name it with --osinfo-db")
    return found


def _retained(bundles: Sequence[Path]) -> list[BundleDoc]:
    """The objects of the old bundles --retain-from names, read by the one reader of objects (none without it)."""
    if not bundles:
        return []
    from .source.objects import read_bundles  # only a build that retains reads objects

    return read_bundles(bundles, option="--retain-from")


def release_files(bundles: Mapping[str, str], release: str | None) -> dict[str, bytes]:
    """The bundles, plus their versioned names when building a release, plus checksums."""
    files = {name: text.encode() for name, text in bundles.items()}
    if release:
        for name, text in bundles.items():
            files[name.replace(".yaml", f"-{release}.yaml")] = text.encode()
    files["CHECKSUMS.sha256"] = checksums(files)
    return files


def _outputs(catalog: Catalog, version: str, objects: Sequence[CatalogObject], rendered: Rendered,
             parsed: Parsed, options: BuildOptions) -> Iterator[Mapping[str, bytes]]:
    """Every file a build writes, a batch at a time as each is made: the bundles (and their release names, the
    policy) with their checksums first, then each of the other outputs (outputs/__init__.py)."""
    from .outputs import each_output
    from .outputs.context import OutputContext
    from .outputs.policy import POLICY_FILE, build_policy, policy_text

    policy = build_policy(catalog, objects, options.policy, options.kubevirt or newest())
    written = {**rendered.bundles, POLICY_FILE: policy_text(policy)} if policy is not None else rendered.bundles
    yield release_files(written, options.release)
    yield from each_output(OutputContext(catalog, version, objects, rendered.bundles, options.helm_package,
                                         documents=parsed.documents, texts=parsed.texts,
                                         kubevirt=options.kubevirt or newest(), policy=policy))


def generate(options: BuildOptions = BuildOptions(),
             files_ready: Callable[[Mapping[str, bytes]], None] | None = None) -> Build:
    """Run every step but writing. Input errors raise InputError; validation problems are returned.

    The steps: load -> expand -> render -> parse -> outputs -> validate. ``files_ready`` is
    called with each batch of output files as soon as it is made (the bundles, then each
    other output); a caller writes them where they can still be thrown away (write.Staging),
    by a process of its own while the build goes on, and only the returned problems say
    whether the files may be used. The later steps' modules are imported while the
    rendering process renders (``LATER_STEPS``).
    """
    release = options.kubevirt or newest()
    with rendering() as renderer:  # one rendering process for every template of the build
        renderer.prepare(template_folders(options.catalog_dir))  # it compiles them while the catalog loads
        catalog, version, objects = catalog_objects(options)  # load, expand
        objects, adjustments = for_release(objects, release, catalog.settings.spellings)
        osinfo = osinfo_context(options, objects)
        rendering_done = start_bundles(catalog, objects)  # the rendering process renders them meanwhile
        for module in LATER_STEPS:
            importlib.import_module(module)
        from .parse import Twins, parse_rendered

        twins = Twins()  # each document parsed as it comes, while the next ones are rendered
        rendered = rendering_done(twins.add)
        parsed = parse_rendered(rendered, twins)
        files: dict[str, bytes] = {}
        for made in _outputs(catalog, version, objects, rendered, parsed, options):
            files.update(made)
            if files_ready is not None:  # written while the next batch is made and all are validated
                files_ready(made)
        found = judge(catalog, parsed.documents, objects, release, osinfo)  # the build's one validation
    current = [p for p in found if p.older_release is None]  # findings newer than a retained object's
    newer = tuple(p for p in found if p.older_release is not None)  # release are reported, never blocking
    problems = tuple(p for p in current if not p.is_warning)
    skipped = left_out_series(catalog, options)
    return Build(catalog, version, tuple(objects), rendered.bundles, parsed.documents, problems, files,
                 left_out=skipped, newer_rule_findings=newer, warnings=tuple(p for p in current if p.is_warning),
                 kubevirt=release, adjustments=tuple(adjustments), source=options.named(version),
                 source_record=options.record(version), osinfo_note=_osinfo_note(options, osinfo))


def osinfo_context(options: BuildOptions, objects: Sequence[CatalogObject]):  # -> OsinfoContext | None
    """libosinfo's database and the OS each preference names, when the build is to be judged against it and a
    database is found; InputError for a database with a file that cannot be used."""
    if not options.osinfo:
        return None
    from .osinfo.discovery import find_database

    if find_database(options.osinfo_db) is None:  # as on most machines: nothing to read, nor to import a reader for
        return None
    from .osinfo.claims import OsinfoContext
    from .osinfo.database import load_database

    database = load_database(options.osinfo_db)
    return OsinfoContext.of(database, objects) if database is not None else None


def _osinfo_note(options: BuildOptions, osinfo) -> str | None:
    """What a run says about the osinfo database: which one judged, or that none was found (never a failure)."""
    if not options.osinfo:
        return None
    from .osinfo.discovery import NONE_FOUND

    return osinfo.note() if osinfo is not None else NONE_FOUND


def judge(catalog: Catalog, documents: Sequence[BundleDoc], objects: Sequence[CatalogObject], release: Release,
          osinfo=None) -> list[Problem]:
    """A build's one validation: every problem of its documents, judged by ``release`` (a retained object by its
    own), each pointed at the catalog line or overlay behind it (validate/provenance.py).

    Made by the build's own process, after the outputs: the second core is the writing
    child's by then (treewriter.py), and a child that validated beside the outputs took it
    from the writer, which then finished 25 to 35 ms later than the validation would have."""
    from .validate.provenance import point_at_sources

    found = _validate(catalog, documents, objects, release, osinfo)
    return point_at_sources(found, objects, catalog.changes, documents)


def _validate(catalog: Catalog, documents: Sequence[BundleDoc], objects: Sequence[CatalogObject],
              release: Release, osinfo=None) -> list[Problem]:
    """Every problem of the documents, judged by ``release``; only retained objects are judged by their own release."""
    from .validate import validate_documents

    retained = {(kind, o.name) for o in objects if o.facts.get("retained") for kind in o.kinds}
    return validate_documents(documents, replace(rule_context(catalog), kubevirt=release, osinfo=osinfo),
                              dated=lambda doc: (doc.kind, doc.name) in retained)


def rule_context(catalog: Catalog | None = None):  # -> generator.validate.rules.RuleContext
    """What validation rules need to know of a catalog: its vendor and its series' ratios."""
    from .validate.rules import RuleContext

    catalog = catalog or load_catalog(builtin_catalog())
    return RuleContext.from_catalog(catalog)


def check_catalog(catalog: Path | None = None, rules: Sequence[str] | None = None,
                  vendor: str | None = None, kubevirt: Release | None = None, gpu_device: str | None = None,
                  gpu_count: int | None = None, osinfo: bool = False, osinfo_db: Path | None = None,
                  notes: list[str] | None = None) -> tuple[tuple[BundleDoc, ...], list[Problem]]:
    """A catalog's all-bundle and its problems, judged and pointed as a build judges and points them.

    ``citgen validate`` without files: the same documents a build ships, the same
    rules (or the ``rules`` chosen), and each problem on an object an overlay shaped
    reported at that overlay's line, as the build would report it. With ``osinfo``
    the preferences are judged against libosinfo's database too, and what the run
    says of it is added to ``notes``.
    """
    from .parse import parse_back
    from .validate import validate_documents
    from .validate.provenance import point_at_sources

    options = BuildOptions(catalog=catalog, gpu_device=gpu_device, gpu_count=gpu_count, osinfo=osinfo,
                           osinfo_db=osinfo_db)
    found, _version, objects = catalog_objects(options)
    judged = osinfo_context(options, objects)
    note = _osinfo_note(options, judged)
    if note is not None and notes is not None:
        notes.append(note)
    documents = parse_back(render_bundles(found, objects))
    context = replace(rule_context(found), osinfo=judged)
    if vendor is not None:
        context = replace(context, vendor=vendor)
    if kubevirt is not None:
        context = replace(context, kubevirt=kubevirt)
    problems = validate_documents(documents, context, rules=rules)
    return documents, point_at_sources(problems, objects, found.changes, documents)

