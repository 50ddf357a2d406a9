"""Pausing Python's cyclic garbage collector while a build or a validation runs.

CPython frees an object the moment its last reference goes; the cyclic
collector exists only for objects that refer to each other in a loop. It runs
whenever enough new containers have been made, and each pass walks the objects
made since the last one, and every so often all of them. A large build makes
millions of small dicts, lists and YAML nodes, and no loops: the pipeline is
written so that nothing it allocates refers back to itself (the few objects a
Jinja environment ties in a loop are the same for any catalog size; see
tests/test_gcpause.py). The collector's passes found nothing and cost about a
twentieth of a large build, so it is paused for the length of one; memory is
still given back as it is freed, and what was paused is re-enabled after.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def paused_collector() -> Iterator[None]:
    """Run the block with the cyclic collector off; leave it as it was found."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
