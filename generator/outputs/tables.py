"""Plain-text and Markdown tables of catalog objects, for `citgen list` and the README."""

from __future__ import annotations

from typing import Sequence

from ..problems import printable
from ..quantity import format_bytes


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Columns padded to their widest cell, as kubectl prints them."""
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]
    lines = ["   ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in [header, *rows]]
    return "\n".join(lines) + "\n"


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(printable(c).replace("|", "\\|") for c in cells) + " |"

    return "\n".join([line(header), line(["---"] * len(header)), *(line(r) for r in rows)]) + "\n"


def memory(value: int | None) -> str:
    return format_bytes(value) if value else "-"
