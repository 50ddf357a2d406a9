"""Small helpers shared by tests: building a catalog once, reading bundles."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from generator.pipeline import Build, BuildOptions, generate

REPO = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=None)
def default_build() -> Build:
    """The built-in catalog, built once per test session (it is a pure value)."""
    return generate(BuildOptions())


def parse_stream(text: str) -> list[Any]:
    return [d for d in yaml.safe_load_all(text) if d is not None]


def read_yaml_stream(path: Path) -> list[Any]:
    return parse_stream(path.read_text(encoding="utf-8"))


def by_name(docs: list[Any], kind: str | None = None) -> dict[str, Any]:
    return {d["metadata"]["name"]: d for d in docs if kind is None or d["kind"] == kind}
