"""Outputs derived from a build besides the bundle files: each a function of the build.

Every producer gets the same OutputContext and returns relative paths (inside
the output directory) mapped to file contents. The pipeline collects them all
before anything is written, so they are part of the same atomic replacement.
"""

from __future__ import annotations

from typing import Callable, Mapping

from .context import OutputContext
from .helm import helm_files
from .kustomize import kustomize_files

Producer = Callable[[OutputContext], Mapping[str, bytes]]


#: Every producer, in the order their files are laid out.
OUTPUTS: list[Producer] = [kustomize_files, helm_files]


def output_files(ctx: OutputContext) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for produce in OUTPUTS:
        files.update(produce(ctx))
    return files
