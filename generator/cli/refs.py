"""``citgen refs PATH... | -``: every reference to catalog objects in manifests, judged against what a cluster has.

The scan (tools/refs/scan.py) finds the references in files, folders or standard
input; the judge (tools/refs/judge.py) looks each up in the target
(tools/refs/target.py: the built-in catalog's build, a catalog's, the build for a
KubeVirt release, or published bundles) and reports what its rules find. With
``--from OLD`` the references are looked up in OLD and in NEW (``--to``, or the
target) instead, and the report is what the upgrade breaks, deprecates or changes
(tools/refs/upgrade.py).

Exit status: 0 nothing found; 1 findings (or an upgrade that breaks or changes a
reference, or a file that could not be used beside others that could); 2 nothing
could be read, or an option or target that cannot be used.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

import click

from ..errors import InputError
from ..problems import Location, Problem, excerpt
from ..result import Result
from ..schemas.releases import Release
from ..tools.refs.judge import Verdict, judge
from ..tools.refs.model import Reference, Scan
from ..tools.refs.target import Target, target_at, target_objects
from ..tools.refs.upgrade import record as upgrade_record, render_markdown, render_text, upgrade
from .options import CheckedParam, PathParam, catalog_option, command, gpu_options, kubevirt_option

MARKDOWN_HELP = "a pull-request comment: a table of findings, or with --from of what an upgrade breaks and changes"


class Later(Mapping[str, Any]):
    """A mapping whose values are made when first read: what only one format prints (JSON's list of every
    reference, the Markdown comment) is not made for the others, however many references a dump holds."""

    def __init__(self, makers: Mapping[str, Callable[[], Any]]):
        self._makers = dict(makers)
        self._made: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        if key not in self._made:
            self._made[key] = self._makers[key]()
        return self._made[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._makers)

    def __len__(self) -> int:
        return len(self._makers)


class PlaceParam(CheckedParam):
    """A place a user names, where values are catalog names (``--names``), as the scan's places.parse_place reads it."""

    name = "SPEC"

    def check(self, value: str, option: str) -> Any:
        if not value.isprintable():
            raise ValueError(f"expected text without control characters, line breaks or direction marks, got "
                             f"{excerpt(value)!r}")
        from ..tools.refs.places import parse_place

        return parse_place(value, option)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def summary(verdict: Verdict, target: Target, unread: int) -> str:
    """The line closing the judge's report: what was checked against what, and what was found.

    ``unread`` counts the scan's own problems: what it could not read or use.
    """
    said = f"{_plural(verdict.checked, 'reference')} checked against {target.summary_name}"
    if verdict.unchecked:
        said += f", {verdict.unchecked} unchecked (no value offline)"
    said += f"; {_plural(verdict.files, 'file')} read"
    if verdict.skipped:
        said += f", {verdict.skipped} skipped (no Kubernetes manifests and no references)"
    if unread:
        said += f", {_plural(unread, 'problem')} reading them"
    found = len(verdict.findings)
    return f"{said}; {_plural(found, 'finding') if found else 'nothing found'}"


def _reference(one: Reference, resolved: bool | None) -> dict[str, Any]:
    loc = one.location
    return {"family": one.family, "name": one.name, "kind": one.kind, "via": one.via, "unchecked": one.unchecked,
            "parameter": one.parameter, "resolved": resolved,
            "file": loc.file, "line": loc.line, "column": loc.column, "document": loc.doc,
            "owner": {"kind": one.owner.kind, "name": one.owner.name, "namespace": one.owner.namespace}}


def _target_options(catalog: Path | None, overlays: Sequence[Path], bundles: Sequence[Path],
                    kubevirt: Release | None) -> list[str]:
    return [name for name, given in (("--catalog", catalog), ("--overlay", overlays), ("--bundle", bundles),
                                     ("--kubevirt", kubevirt)) if given]


#: Read at least this much before a terminal is shown the reading's progress: a moment's work shows none.
PROGRESS_FROM = 8 << 20


@contextlib.contextmanager
def _bar(total: int) -> Iterator[Callable[[int], None]]:
    """click's progress bar on standard error, for a reading of ``total`` bytes that takes more than a moment."""
    if total < PROGRESS_FROM or not sys.stderr.isatty():
        yield lambda read: None
        return
    with click.progressbar(length=total, label="reading manifests", file=sys.stderr, show_eta=True,
                           show_percent=True) as bar:
        yield bar.update


def _scan(paths: Sequence[str], places: Sequence[Any]) -> Scan:
    from ..tools.refs.scan import scan

    return scan(tuple(paths), tuple(places), progress=_bar)


def _nothing_read(found: Scan, allow_empty: bool) -> Result | None:
    """The refusal of a scan that could read no file at all, or found nothing to check in what it read: exit 2.

    A checker never says "all clear" about what it did not check: files that hold no
    reference to an instancetype or preference are said to hold none, unless
    ``allow_empty`` (a hook run on whatever files a commit changed) makes that a pass.
    """
    if not found.files:
        problems = found.problems or (Problem(Location("citgen"), "no file to read: name manifests, folders or -"),)
        return Result("refs", problems=tuple(problems), notes=("citgen: nothing could be read",), unusable=True)
    if found.references or found.problems or found.definitions:
        return None
    none = ("no VirtualMachine, pool, template, DataSource, DataVolume, PVC or DataImportCron naming one, and no "
            "--names place")
    if found.files == 1:
        said = f"nothing to check: it holds no reference to an instancetype or preference ({none})"
    else:
        read = [excerpt(name) for name in found.read[:3]] + ([f"{found.files - 3} more"] if found.files > 3 else [])
        said = (f"nothing to check: no reference to an instancetype or preference in the {found.files} files read "
                f"({', '.join(read)}: {none})")
    if allow_empty:
        return Result("refs", outputs=(said,), notes=found.notes, counts={"references": 0})
    where = Location(found.read[0] if found.files == 1 else "citgen")
    return Result("refs", problems=(Problem(where, said + "; pass --allow-empty where that is fine"),),
                  notes=found.notes, unusable=True)


@command("refs", formats={"markdown": MARKDOWN_HELP})
@click.argument("paths", nargs=-1, required=True, type=PathParam(path_type=str))
@catalog_option
@gpu_options
@click.option("--overlay", "overlays", multiple=True, type=PathParam(dir_okay=False, path_type=Path),
              help="Overlay applied to the catalog's build the references are judged against. Repeatable.")
@click.option("--bundle", "bundles", multiple=True, type=PathParam(path_type=Path),
              help="Judge against the objects of this published bundle (what a virt-operator release deploys, "
                   "or a vendor's: a file, a folder, - or a pipe) instead of a build. Repeatable.")
@kubevirt_option("Judge against the catalog's build for this KubeVirt release (citgen build --kubevirt): an "
                 "object it leaves out is a finding")
@click.option("--names", "names", multiple=True, type=PlaceParam(),
              help="A place whose values are catalog names, in objects of a kind (and name), as SPEC says "
                   "(docs/refs.md). Repeatable.")
@click.option("--names-file", "names_file", type=PathParam(dir_okay=False, path_type=Path), default=None,
              help="A configuration file listing such places under names: (docs/refs.md).")
@click.option("--from", "old", type=PathParam(path_type=Path), default=None, metavar="OLD",
              help="Report what upgrading from OLD (a bundle file, a build output folder or a catalog folder) "
                   "breaks, deprecates or changes, instead of judging the references.")
@click.option("--allow-empty", is_flag=True,
              help="Exit 0 when the files hold no reference to check (a hook run on whatever files a commit "
                   "changed); without it, nothing to check is refused (exit 2), never reported as all clear.")
@click.option("--to", "new", type=PathParam(path_type=Path), default=None, metavar="NEW",
              help="With --from: the catalog upgraded to, as OLD is given (default: the target the other "
                   "options choose, the built-in catalog's build without them).")
def refs(paths: tuple[str, ...], catalog: Path | None, gpu_device: str | None, gpu_count: int | None,
         overlays: tuple[Path, ...], bundles: tuple[Path, ...], kubevirt: Release | None, names: tuple[Any, ...],
         names_file: Path | None, old: Path | None, new: Path | None, allow_empty: bool) -> Result:
    """Check every reference to catalog objects in PATH... (files, folders, or - for standard input).

    Reads Kubernetes manifests (multi-document files, kind: List dumps of
    kubectl get -o yaml, folders of *.yaml, *.yml and *.json) and finds the
    instancetypes and preferences they name: VirtualMachines and their pools and
    templates, the inference labels of DataSources, DataVolumes, PVCs and
    DataImportCrons, and the places --names gives. Each is judged against what
    the cluster will have (the catalog the working directory is in, else the
    built-in one; --catalog, --bundle, --kubevirt, --gpu-device): unknown
    names, deprecated objects, kinds KubeVirt does not accept, unmet
    preference requirements, objects a KubeVirt release's build leaves out.

    With --from OLD (and --to NEW) it lists what the upgrade breaks instead.

    Exit status: 0 nothing found, 1 findings (or an upgrade that breaks or
    changes a reference), 2 nothing could be read or an option is unusable.
    """
    chosen = _target_options(catalog, overlays, bundles, kubevirt) + [
        name for name, given in (("--gpu-device", gpu_device), ("--gpu-count", gpu_count)) if given]
    after = target_at(new, "--to") if new is not None else None  # read first: an unusable NEW is refused as such
    if new is not None and old is None:
        raise InputError.at(Location("--to"), "--to names the catalog upgraded to; give --from, the one upgraded "
                            "from, too")
    if new is not None and chosen:
        raise InputError.at(Location(chosen[0]), f"{', '.join(chosen)} chooses the target, and --to already "
                            "names it; give one or the other")
    places = list(names)
    if names_file is not None:
        from ..tools.refs.places import load_places

        places += load_places(names_file)
    before = target_at(old, "--from") if old is not None else None
    target = after if after is not None else target_objects(catalog, overlays, bundles, kubevirt, gpu_device,
                                                            gpu_count)
    found = _scan(paths, places)
    refused = _nothing_read(found, allow_empty)
    if refused is not None:
        return refused
    if before is not None:
        return _upgrade(found, before, target)
    verdict = judge(found, target)
    closing = summary(verdict, target, len(found.problems))

    def references() -> list[dict[str, Any]]:
        return [_reference(r.reference, r.resolved if r.reference.name is not None else None)
                for r in verdict.resolutions]

    return Result("refs", problems=(*found.problems, *verdict.findings), outputs=(closing,), notes=found.notes,
                  counts={**verdict.counts, "problems": len(found.problems)}, found=bool(verdict.findings),
                  data=Later({"target": lambda: target.described,
                              "kubevirt": lambda: str(target.kubevirt) if target.kubevirt else None,
                              "skipped": lambda: list(found.skipped), "references": references}))


def _upgrade(found: Scan, old: Target, new: Target) -> Result:
    result = upgrade(found, old, new)
    # each reference the upgrade breaks, deprecates or changes is one of its problems: they set the exit status
    return Result("refs", problems=(*found.problems, *result.problems()), product=render_text(result),
                  counts=result.counts, notes=found.notes,
                  data=Later({"upgrade": lambda: upgrade_record(result), "skipped": lambda: list(found.skipped)}),
                  renditions=Later({"markdown": lambda: render_markdown(result)}))
