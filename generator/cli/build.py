"""``citgen build``: generate, validate and write the catalog's outputs, all or nothing."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Sequence

import click

from ..errors import InputError
from ..expand.retain import retained_note
from ..load.gpu import left_out_note
from ..paths import builtin_catalog
from ..pipeline import Build, BuildOptions, generate
from ..result import Result
from ..schemas.releases import Release
from ..write import LOCK_TIMEOUT, Staging
from .options import (PathParam, Seconds, catalog_build_options, command, default_out, kubevirt_option,
                      osinfo_option)


@command(closing="citgen: {problems}, nothing written")
@catalog_build_options
@click.option("--out", type=PathParam(file_okay=False, path_type=Path), default=lambda: default_out("bundles"),
              help="Output directory; a build replaces its whole contents (default: bundles/ of the catalog the "
                   "working directory is in, else ./bundles).")
@click.option("--release", default=None, metavar="vX.Y.Z",
              help="Also write versioned bundle names (common-...-bundle-vX.Y.Z.yaml) for a release.")
@click.option("--helm-package", is_flag=True, help="Also write the packaged Helm chart (.tgz).")
@click.option("--policy", is_flag=True,
              help="Also write the admission policy (common-instancetypes-policy.yaml, a kustomize component "
                   "and a chart value, off by default): Kubernetes warns about VMs and inference labels naming "
                   "deprecated names, and warns about or refuses (catalog.yaml's policy.retired) retired ones.")
@click.option("--lock-timeout", type=Seconds(), default=LOCK_TIMEOUT, show_default=True,
              metavar="SECONDS", help="How long to wait while another citgen build writes the same --out.")
@click.option("--check", is_flag=True,
              help="Write nothing: build in memory and compare with --out; exit 1 listing stale, missing "
                   "and extra files.")
@kubevirt_option("Build for this KubeVirt release: every output holds only what its API server accepts, "
                 "fields it lacks written in their older spelling or left out")
@osinfo_option
def build(catalog: Path | None, out: Path, version: str | None, release: str | None,
          gpu_device: str | None, gpu_count: int | None, retain_from: Sequence[Path],
          overlays: Sequence[Path], os_labels: bool, helm_package: bool, policy: bool, lock_timeout: float,
          check: bool, kubevirt: Release | None, osinfo_db: Path | None) -> Result:
    """Build, validate and write the bundles and checksums.

    Everything is rendered and validated first; the output directory is replaced
    only when all of it passed, so a failed build leaves earlier outputs untouched.
    Builds writing the same output directory take turns. With --check nothing is
    written: the outputs are compared with those in --out, byte for byte.

    With --kubevirt the objects are built for that KubeVirt release and judged by
    its CRD schemas and admission webhooks: a field the release lacks is written in
    the older spelling catalog.yaml gives it, or left out, and an object whose
    essential trait needs such a field is left out. The summary lists each change.

    With --policy (or catalog.yaml's policy) the admission policy is written too:
    common-instancetypes-policy.yaml, the kustomize component components/policy and
    the chart's value policy.enabled, off by default (docs/gitops.md).

    Each preference that names its OS is judged against libosinfo's database (the
    osinfo rule) where one is found (--osinfo-db, then libosinfo's folders); a note
    names the database and its version, or says none was found (--check says
    nothing then).

    With --os-labels (or catalog.yaml's osLabels) every preference is labelled
    os.template.kubevirt.io/<short-id> for the libosinfo OS releases it is for
    (docs/catalog-format.md), which for a line needs the database.
    """
    options = BuildOptions(catalog=catalog, version=version, release=release, gpu_device=gpu_device,
                           gpu_count=gpu_count, retain_from=tuple(retain_from),
                           overlays=tuple(overlays), helm_package=helm_package, kubevirt=kubevirt,
                           policy=policy, osinfo=True, osinfo_db=osinfo_db, os_labels=os_labels)
    if check:
        return checked(options, out)
    # an unusable --out (or one inside a catalog the build reads) refused first; staged as made, swapped in if valid
    with Staging(out, lock_timeout, reads=(options.catalog_dir, builtin_catalog())) as staging:
        result = generate(options, files_ready=staging.add)  # written by a child process while the build goes on
        if result.problems:
            raise InputError(list(result.problems))
        staging.commit()
    done = built(result, out)
    return replace(done, warnings=(*done.warnings, *staging.warnings))


def checked(options: BuildOptions, out: Path) -> Result:
    """``build --check``: the build made in memory and compared with ``out``; exit 1 when they differ.

    A build with problems is refused as a build is (exit 2): stale outputs are only
    worth reporting against a catalog that builds.
    """
    from ..tools.freshness import compare  # only --check needs it: a build does not pay for its import

    result = generate(options)
    if result.problems:
        raise InputError(list(result.problems))
    freshness = compare(out, result.files)
    data = {"out": str(out), "catalog": result.source_record, "upToDate": freshness.fresh,
            "stale": [s.name for s in freshness.stale],
            "missing": list(freshness.missing), "extra": list(freshness.extra),
            "summaries": {s.name: s.summary for s in freshness.stale if s.summary}}
    counts = {"files": freshness.files, "stale": len(freshness.stale), "missing": len(freshness.missing),
              "extra": len(freshness.extra)}
    said = freshness.lines()
    return Result("build", outputs=(f"{result.source}: {said[0]}", *said[1:], *_judged_note(result)),
                  found=not freshness.fresh, data=data, counts=counts)


def _judged_note(build: Build) -> tuple[str, ...]:
    """``--check``'s note on libosinfo's database: which one judged the preferences; none when none was found, so
    that a check in a pre-commit hook stays silent on a machine without one."""
    from ..osinfo.discovery import NONE_FOUND

    return (build.osinfo_note,) if build.osinfo_note and build.osinfo_note != NONE_FOUND else ()


def built(build: Build, out: Path) -> Result:
    """What a build that wrote ``out`` says: its files, objects per kind, what it left out.

    Findings of newer rules on retained objects do not block the build; one note
    says how many there are and how to list them.
    """
    counts: dict[str, int] = {}
    for obj in build.objects:
        for kind in obj.kinds:
            counts[kind] = counts.get(kind, 0) + 1
    summary = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))
    note = left_out_note(build.left_out)
    said = f"{build.source}: wrote {len(build.files)} files to {out} ({summary})" + (f"; {note}" if note else "")
    notes = (retained_note(build.newer_rule_findings, out),) if build.newer_rule_findings else ()
    osinfo = (build.osinfo_note,) if build.osinfo_note else ()  # said with the summary, as the GN note is
    return Result("build", newer_rule_findings=build.newer_rule_findings, warnings=build.warnings,
                  outputs=(said, *adjusted_lines(build), *osinfo), notes=notes,
                  counts=dict(sorted(counts.items())),
                  data={"out": str(out), "catalog": build.source_record, "files": sorted(build.files),
                        "leftOut": [s.prefix for s in build.left_out],
                        "kubevirt": str(build.kubevirt),
                        "adjusted": [a.record() for a in build.adjustments]})


def adjusted_lines(build: Build) -> tuple[str, ...]:
    """What building for an older KubeVirt release changed: a heading, then one line per change."""
    if not build.adjustments:
        return ()
    objects = len({(a.family, a.name) for a in build.adjustments})
    dropped = len({(a.family, a.name) for a in build.adjustments if a.action == "object left out"})
    head = (f"for KubeVirt {build.kubevirt}: {objects} object{'s' if objects != 1 else ''} changed"
            + (f", {dropped} of them left out" if dropped else "") + " (each kind of both):")
    return (head, *(f"  {a}" for a in build.adjustments))
