"""``citgen validate``: check bundles against the CRD schema and the catalog rules.

Kept apart from the group (cli/__init__.py) so the command can be tested on its own and
loaded only when it runs; the group only registers it. The command returns its findings
as a Result (generator/result.py), which decides the exit code: 0 clean, 1 problems found,
2 unusable input or usage, never a traceback.
"""

from __future__ import annotations

import dataclasses
import os
import textwrap
from pathlib import Path
from typing import Optional, Sequence, Tuple

import click

from ..errors import InputError
from ..model import GROUP, INSTANCETYPE_KINDS, KINDS, PREFERENCE_KINDS, label

#: The label every object of a catalog carries its version in.
VERSION_LABEL = label("common-instancetypes-version")
from ..problems import Location, Problem
from ..result import Result
from ..schemas.releases import Release
from ..source.documents import BundleDoc
from ..source.objects import read_bundles
from ..tools.refs.target import target_objects
from ..tools.vmexpand.matrix import format_text, matrix as pair_matrix, summary as pair_summary
from ..tools.vmexpand.mutate import MACHINE_TYPES
from ..validate import validate_documents
from ..validate.rules import CHECKS, RuleContext
from ..validate.rules.vendor_label import agreed_vendor
from .options import PathParam, command, gpu_options, kubevirt_option, osinfo_option


def default_context() -> RuleContext:
    """The rule context of the built-in catalog: its vendor and its series' ratios."""
    from ..pipeline import rule_context  # the pipeline's imports only when a bundle needs them

    return rule_context()


def catalog_context(catalog: Path) -> RuleContext:
    """The rule context of the catalog in ``catalog``, overlays applied: its vendor and series ratios."""
    from ..pipeline import BuildOptions, load_all, rule_context

    found, _preferences = load_all(BuildOptions(catalog=catalog))
    return rule_context(found)


def bundle_context(docs: Sequence[BundleDoc], vendor: Optional[str]) -> RuleContext:
    """What files are checked against when no catalog is named: themselves, and what they claim.

    The vendor is ``--vendor``'s, or else none, so that the vendor rule asks the
    objects to agree on one among themselves. The built-in catalog's series
    ratios apply only to a bundle that is the built-in catalog's by its vendor
    label (``--vendor`` or, without it, the vendor its objects agree on): a
    vendor's overlay may change a series' ratio (examples/gpu-cloud gives gn1
    8Gi per vCPU), and without that vendor's catalog there is nothing to tell
    a changed ratio from a broken one, so a vendor's bundle is not
    ratio-checked unless ``--catalog`` names its catalog.
    """
    builtin = default_context()
    claimed = vendor
    if claimed is None:
        agreement = agreed_vendor(docs)
        claimed = agreement.vendor if agreement else None
    series = builtin.series if claimed is not None and claimed == builtin.vendor else {}
    return RuleContext(vendor=vendor, series=series)


def _checked_catalog(catalog: Optional[Path], selected: Tuple[str, ...], vendor: Optional[str],
                     kubevirt: Optional[Release], gpu_device: Optional[str], gpu_count: Optional[int],
                     osinfo_db: Optional[Path], notes: list[str]) -> Tuple[Sequence[BundleDoc], list]:
    """The catalog's documents and problems as its build judges them (overlay lines pointed at); ``notes`` gets
    what the run says of libosinfo's database, when the osinfo rule is among those run."""
    from ..pipeline import check_catalog

    osinfo = not selected or "osinfo" in selected
    return check_catalog(catalog, rules=selected or None, vendor=vendor, kubevirt=kubevirt, gpu_device=gpu_device,
                         gpu_count=gpu_count, osinfo=osinfo, osinfo_db=osinfo_db, notes=notes)


def _named(catalog: Optional[Path], docs: Sequence[BundleDoc]) -> Optional[str]:
    """The catalog validate built and judged, as every summary names it, by the version its objects carry."""
    from ..paths import catalog_name

    version = next((d.data["metadata"].get("labels", {}).get(VERSION_LABEL) for d in docs
                    if isinstance(d.data, dict) and isinstance(d.data.get("metadata"), dict)), None)
    return catalog_name(catalog, version) if isinstance(version, str) else None


def _problems(docs: Sequence[BundleDoc], vendor: Optional[str], known: Optional[RuleContext],
              selected: Tuple[str, ...], kubevirt: Optional[Release]) -> list:
    """The problems of one set of FILEs' documents, checked against a catalog (``known``) or themselves."""
    context = known if known is not None else bundle_context(docs, vendor)
    if vendor is not None:
        context = dataclasses.replace(context, vendor=vendor)
    if kubevirt is not None:
        context = dataclasses.replace(context, kubevirt=kubevirt)
    return validate_documents(docs, context, rules=selected or None)


def _once(files: Tuple[Path, ...]) -> Tuple[Path, ...]:
    """Each file once, in the order first named: the same file twice is not two sets of objects."""
    seen: dict[str, Path] = {}
    for path in files:
        seen.setdefault(os.path.realpath(path), path)
    return tuple(seen.values())


def list_rules() -> str:
    """Each check's ID, summary and documentation, in the order they run: the schema first."""
    blocks = []
    for rule in CHECKS.values():
        block = f"{rule.id}: {rule.summary}"
        if rule.doc:
            block += "\n" + textwrap.indent(rule.doc, "    ")
        blocks.append(block)
    return "\n\n".join(blocks) + "\n"


@command("validate")
@click.argument("files", nargs=-1, type=PathParam(path_type=Path))
@click.option("--vendor", metavar="V",
              help="Expected instancetype.kubevirt.io/vendor label (default: the vendor of --catalog, or "
                   "of the built-in catalog when no FILE is given; FILEs without --catalog must agree on one "
                   "vendor).")
@click.option("--catalog", "catalog", type=PathParam(file_okay=False, path_type=Path), metavar="DIR",
              help="Check against this catalog (overlays applied): its vendor and series ratios. "
                   "Without FILEs, validate this catalog's output.")
@click.option("--list-rules", "show_rules", is_flag=True, help="Describe every rule and exit.")
@click.option("--rule", "selected", multiple=True, metavar="ID",
              help="Run only this rule (repeatable); 'schema' selects the schema check.")
@click.option("--matrix", "cross_product", is_flag=True,
              help="Instead of checking objects, expand every cluster instancetype against every cluster "
                   "preference on a default VM and report the pairs KubeVirt would reject, and why.")
@click.option("--arch", default="amd64", show_default=True, type=click.Choice(sorted(MACHINE_TYPES)),
              help="With --matrix: the cluster's default architecture.")
@click.option("--each-file", "each_file", is_flag=True,
              help="Check each FILE on its own, as alternatives (a release's bundles overlap: the all-bundle "
                   "holds every other one), not as one set whose names must be unique across files.")
@kubevirt_option("Judge the objects as this KubeVirt release's API server and admission webhooks do: its CRD "
                 "schemas, strict field validation and webhook rules")
@click.option("--warnings-as-errors", "strict_warnings", is_flag=True,
              help="Count what KubeVirt admits with a warning (a deprecated value) as a problem: exit 1.")
@gpu_options
@osinfo_option
def validate(files: Tuple[Path, ...], vendor: Optional[str], catalog: Optional[Path], show_rules: bool,
             selected: Tuple[str, ...], cross_product: bool, arch: str, each_file: bool,
             kubevirt: Optional[Release], strict_warnings: bool, gpu_device: Optional[str],
             gpu_count: Optional[int], osinfo_db: Optional[Path]) -> Result:
    """Validate FILE... (bundles: files, folders, - or pipes), or the catalog's output when none is given.

    FILEs without --catalog or --vendor are checked as they are: their objects
    must agree on one vendor, and the built-in catalog's series ratios apply
    only when that vendor is the built-in catalog's.

    Objects are judged as the API server and admission webhooks of a KubeVirt
    release judge them (--kubevirt; the newest release by default): a field the
    release does not know is a problem naming the release that brought it. What
    the release admits with a warning is reported and does not count unless
    --warnings-as-errors says so.

    Exit status: 0 clean, 1 problems found, 2 unusable input. Findings of checks
    newer than an object's release (its common-instancetypes-version label) are
    listed apart and do not count. With --matrix the rejected pairs are a report,
    not problems: the exit status is 0 unless the input is unusable.

    --format json prints the findings as a list of problem records, and --matrix
    as a list of pairs, as scripts have parsed them (docs/validation.md).

    The catalog's output (no FILE) is judged against libosinfo's database too (the
    osinfo rule: each preference against the OS its data names), where one is found:
    --osinfo-db, then libosinfo's folders; a note names it, or says none was found.
    """
    files = _once(files)
    unknown = [rule for rule in dict.fromkeys(selected) if rule not in CHECKS]
    if unknown:  # before anything is read: a typo in --rule must not pass as "no problems found"
        raise InputError.at(Location("--rule"), f"unknown rule {', '.join(map(repr, unknown))}; known rules: "
                            f"{', '.join(CHECKS)}")
    gpu = [name for name, given in (("--gpu-device", gpu_device), ("--gpu-count", gpu_count)) if given]
    if gpu and files:  # objects already built: no GN to build
        raise InputError.at(Location(gpu[0]), f"{', '.join(gpu)} builds the GN series of a catalog, and FILEs are "
                            "objects already built; give one or the other")
    if cross_product:
        ignored = [name for name, given in (("--rule", selected), ("--vendor", vendor), ("--each-file", each_file),
                                             ("--kubevirt", kubevirt), ("--warnings-as-errors", strict_warnings))
                   if given]
        if ignored:  # the matrix judges pairs, not objects: these would be ignored without a word
            raise InputError.at(Location(ignored[0]), f"{', '.join(ignored)} cannot be used with --matrix, which "
                                "expands instancetype and preference pairs rather than checking objects")
    if show_rules:
        return Result("validate", product=list_rules(),
                      data={"rules": [{"id": r.id, "summary": r.summary, "doc": r.doc} for r in CHECKS.values()]})
    if not files and not cross_product:  # the catalog's own output, judged as its build judges it
        notes: list[str] = []
        docs, problems = _checked_catalog(catalog, selected, vendor, kubevirt, gpu_device, gpu_count, osinfo_db,
                                          notes)
        found = _findings(docs, problems, strict_warnings)
        return dataclasses.replace(found, subject=_named(catalog, docs), outputs=(*found.outputs, *notes))
    if cross_product:  # the objects every command that expands VMs takes (tools/refs/target.py)
        objects = target_objects(catalog=None if files else catalog, bundles=files, gpu_device=gpu_device,
                                 gpu_count=gpu_count, option=None).objects
        _no_osinfo(osinfo_db)
        if files:
            _pairable(files, objects)
        results = pair_matrix(objects, objects, arch=arch)
        return Result("validate", product=format_text(results), counts=pair_summary(results),
                      json_document=[r.record() for r in results])
    docs, others = _catalog_group(read_bundles(files))
    _no_osinfo(osinfo_db)
    sets = [[d for d in docs if d.file == f] for f in dict.fromkeys(d.file for d in docs)] if each_file else [docs]
    known = catalog_context(catalog) if catalog is not None else None
    problems = []
    for found in sets:
        problems += _problems(found, vendor, known, selected, kubevirt)
    return _findings(docs, problems, strict_warnings, others)


def _no_osinfo(osinfo_db: Optional[Path]) -> None:
    """InputError for --osinfo-db where objects, not a catalog, are judged (after they are read: a FILE that cannot
    be is named first). The OS a preference is for is the catalog's data, which no object carries."""
    if osinfo_db is not None:
        from ..osinfo.discovery import find_database

        find_database(osinfo_db)  # a path that is no database is refused as such first
        raise InputError.at(Location("--osinfo-db"), "--osinfo-db judges the preferences of a catalog against the "
                            "OS their data names, and FILEs (or --matrix) are objects without that data; validate "
                            "the catalog (no FILE) to use it")


def _catalog_group(docs: Sequence[BundleDoc]) -> tuple[list[BundleDoc], list[BundleDoc]]:
    """The objects validate judges, and the others: objects of other API groups beside the catalog's (the
    admission policy citgen build --policy writes beside the bundles) are not the catalog's, and not judged."""
    judged, others = [], []
    for doc in docs:
        version = doc.data.get("apiVersion") if isinstance(doc.data, dict) else None
        foreign = isinstance(version, str) and "/" in version and version.split("/")[0] != GROUP
        (others if foreign and doc.kind not in KINDS else judged).append(doc)
    return judged, others


def _pairable(files: Tuple[Path, ...], objects: Sequence[object]) -> None:
    """InputError unless the FILEs hold both kinds --matrix pairs: no pair at all is no report of none refused."""
    kinds = {o.get("kind") for o in objects if isinstance(o, dict)}
    lacking = [kind for kind in (INSTANCETYPE_KINDS[0], PREFERENCE_KINDS[0]) if kind not in kinds]
    if lacking:
        named = ", ".join(map(str, files))
        held = "holds" if len(files) == 1 else "hold"
        raise InputError.at(Location(named), (
            f"{held} no {' and no '.join(lacking)}; --matrix pairs each {INSTANCETYPE_KINDS[0]} with each "
            f"{PREFERENCE_KINDS[0]} of the files named, so they must hold both (a build's all-bundle does)"))


def _findings(docs: Sequence[BundleDoc], problems: Sequence[Problem], strict_warnings: bool,
              others: Sequence[BundleDoc] = ()) -> Result:
    """A validation's Result: the problems that count; warnings and findings of rules newer than their object apart.

    With ``strict_warnings`` (--warnings-as-errors) a warning counts as the problem it then is; ``others`` are
    the objects of other API groups that were read and not judged, which a note counts.
    """
    if strict_warnings:
        problems = [dataclasses.replace(p, severity="error") for p in problems]
    current = [p for p in problems if p.older_release is None]
    return Result("validate", problems=tuple(p for p in current if not p.is_warning),
                  warnings=tuple(p for p in current if p.is_warning),
                  newer_rule_findings=tuple(p for p in problems if p.older_release is not None),
                  documents=len(docs), notes=_not_judged(others))


def _not_judged(others: Sequence[BundleDoc]) -> tuple[str, ...]:
    if not others:
        return ()
    kinds = ", ".join(sorted({str(d.kind) for d in others}))
    return (f"{len(others)} object{'s' if len(others) != 1 else ''} of other API groups not judged ({kinds}): "
            f"validate judges the catalog's {GROUP} objects",)
