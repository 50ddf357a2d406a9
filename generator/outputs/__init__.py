"""Outputs derived from a build besides the bundle files: each a function of the build.

Every producer gets the same OutputContext and gives relative paths (inside the
output directory) mapped to file contents, in batches as it makes them. A build
hands each batch to its staging folder at once (pipeline.py, write.py), where a
child process writes it while the next is made, and puts them in place only once all of
them are there and valid: one atomic replacement.
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator, Mapping

from .context import OutputContext
from .helm import helm_batches
from .kustomize import kustomize_batches

Producer = Callable[[OutputContext], Iterable[Mapping[str, bytes]]]


#: Every producer, in the order their files are laid out and written.
OUTPUTS: list[Producer] = [kustomize_batches, helm_batches]


def output_files(ctx: OutputContext) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for made in each_output(ctx):
        files.update(made)
    return files


def each_output(ctx: OutputContext) -> Iterator[Mapping[str, bytes]]:
    """Each batch of each producer's files, as soon as it is made: a build hands it to the process that writes them."""
    for produce in OUTPUTS:
        yield from produce(ctx)
