"""``citgen diff``: what changed between two builds or bundles, for release notes."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..result import Result
from ..tools.diff import diff_paths, render_json, render_text
from ..tools.release_notes import render_markdown
from .options import PathParam, command


@command(formats={"markdown": "the release-note section of a GitHub release"})
@click.argument("old", type=PathParam(path_type=Path))
@click.argument("new", type=PathParam(path_type=Path))
@click.option("--include-version-label", is_flag=True,
              help="Also compare the common-instancetypes-version label, which differs between any two versions.")
def diff(old: Path, new: Path, include_version_label: bool) -> Result:
    """Compare two builds (output directories) or two bundle files, for release notes.

    Lists objects added, removed and changed (each changed field with its old
    and new value). --format markdown writes it as a release note instead, grouped
    by kind and series. Exit code 0 when they are equal, 1 when they differ, 2 when
    an input cannot be read.
    """
    result = diff_paths(old, new, include_version_label=include_version_label)
    report = json.loads(render_json(result))
    return Result("diff", product=render_text(result), data=report, counts=report["summary"],
                  found=not result.equal, renditions={"markdown": render_markdown(result)})
