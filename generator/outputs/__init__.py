"""Outputs derived from a build besides the bundle files: each a function of the build.

Every producer gets the same OutputContext and returns relative paths (inside
the output directory) mapped to file contents. A build hands each producer's files
to its staging folder as they are made (pipeline.py, write.py), and puts them in
place only once all of them are there and valid: one atomic replacement.
"""

from __future__ import annotations

from typing import Callable, Iterator, Mapping

from .context import OutputContext
from .helm import helm_files
from .kustomize import kustomize_files

Producer = Callable[[OutputContext], Mapping[str, bytes]]


#: Every producer, in the order their files are laid out.
OUTPUTS: list[Producer] = [kustomize_files, helm_files]


def output_files(ctx: OutputContext) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for made in each_output(ctx):
        files.update(made)
    return files


def each_output(ctx: OutputContext) -> Iterator[Mapping[str, bytes]]:
    """Each producer's files, as soon as it has made them: a build hands them to the thread that writes them."""
    for produce in OUTPUTS:
        yield produce(ctx)
