"""Plain-text and Markdown tables of catalog objects, for `citgen list` and the README."""

from __future__ import annotations

from typing import Sequence

from .. import escape
from ..quantity import format_bytes


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Columns padded to their widest cell, as kubectl prints them; each cell on one line (escape.text)."""
    rows = [[escape.text(cell) for cell in row] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]
    lines = ["   ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in [header, *rows]]
    return "\n".join(lines) + "\n"


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A GitHub table of cells that are Markdown already: text through escape.markdown, names through
    escape.markdown_code, words of ours as they are. escape.markdown_cell keeps each cell one column."""

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(escape.markdown_cell(c) for c in cells) + " |"

    return "\n".join([line(header), line(["---"] * len(header)), *(line(r) for r in rows)]) + "\n"


def memory(value: int | None) -> str:
    return format_bytes(value) if value else "-"
