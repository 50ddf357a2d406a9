"""citgen: generate KubeVirt's common instancetype and preference catalog from data."""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
