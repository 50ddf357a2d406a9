"""The vCPUs-against-memory chart, drawn as SVG by us at build time.

A chart drawn here needs no charting library and no request to another host,
shows without scripts, and is byte-for-byte the same on every run. Both axes are
log-scaled in powers of two, which is how the sizes grow (each size doubles the
last), so every series is a straight line at its vCPU:memory ratio and a
reader can compare ratios by the lines' offsets.
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from ... import escape
from ...frozen import frozen

#: Okabe and Ito's colour-blind-safe palette; each series also has a mark of its own.
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#b8860b", "#7f7f7f")
MARKS = ("circle", "square", "diamond", "triangle", "down", "plus", "cross", "star")

WIDTH, HEIGHT = 720, 440
LEFT, RIGHT, TOP, BOTTOM = 72, 16, 16, 52
GIB = 1024**3


def _mark(shape: str, x: float, y: float, r: float = 5.0) -> str:
    """An SVG element drawing one mark centred on (x, y)."""
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}"/>'
    if shape == "square":
        return f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}"/>'
    points = {
        "diamond": [(0, -1.3), (1.3, 0), (0, 1.3), (-1.3, 0)],
        "triangle": [(0, -1.3), (1.2, 1), (-1.2, 1)],
        "down": [(0, 1.3), (1.2, -1), (-1.2, -1)],
        "plus": [(-0.4, -1.2), (0.4, -1.2), (0.4, -0.4), (1.2, -0.4), (1.2, 0.4), (0.4, 0.4), (0.4, 1.2),
                 (-0.4, 1.2), (-0.4, 0.4), (-1.2, 0.4), (-1.2, -0.4), (-0.4, -0.4)],
        "cross": [(-1, -0.6), (-0.6, -1), (0, -0.4), (0.6, -1), (1, -0.6), (0.4, 0), (1, 0.6), (0.6, 1),
                  (0, 0.4), (-0.6, 1), (-1, 0.6), (-0.4, 0)],
        "star": [(math.sin(i * math.pi / 5) * (1.3 if i % 2 == 0 else 0.55),
                  -math.cos(i * math.pi / 5) * (1.3 if i % 2 == 0 else 0.55)) for i in range(10)],
    }[shape]
    return '<polygon points="' + " ".join(f"{x + dx * r:.1f},{y + dy * r:.1f}" for dx, dy in points) + '"/>'


def style(index: int) -> tuple[str, str]:
    """The colour and mark of the series at this position; they repeat only after eight series."""
    return COLOURS[index % len(COLOURS)], MARKS[index % len(MARKS)]


def _powers(low: float, high: float) -> list[int]:
    """The exponents of two spanning [low, high], at least one step wide."""
    first = math.floor(math.log2(low))
    last = max(math.ceil(math.log2(high)), first + 1)
    return list(range(first, last + 1))


def _memory_tick(exponent: int) -> str:
    value = 2.0**exponent
    return f"{value:g}Gi" if value >= 1 else f"{value * 1024:g}Mi"


@frozen
class _Scale:
    """Where a vCPU count and a memory size land: log2 axes from the outer ticks, a quarter doubling beyond."""

    xs: tuple[int, ...]  # the ticks, as powers of two
    ys: tuple[int, ...]

    @property
    def width(self) -> float:
        return WIDTH - LEFT - RIGHT

    @property
    def height(self) -> float:
        return HEIGHT - TOP - BOTTOM

    def x_at(self, cpu: float) -> float:
        low, high = self.xs[0] - 0.25, self.xs[-1] + 0.25  # marks on the outer ticks are not cut by the axes
        return LEFT + (math.log2(cpu) - low) / (high - low) * self.width

    def y_at(self, memory: float) -> float:
        low, high = self.ys[0] - 0.25, self.ys[-1] + 0.25
        return TOP + self.height - (math.log2(memory / GIB) - low) / (high - low) * self.height


def _grid(scale: _Scale) -> list[str]:
    """A line across the plot at every tick."""
    out = ['<g class="grid">']
    for e in scale.xs:
        out.append(f'<line x1="{scale.x_at(2**e):.1f}" y1="{TOP}" x2="{scale.x_at(2**e):.1f}" '
                   f'y2="{TOP + scale.height}"/>')
    for e in scale.ys:
        y = scale.y_at(2.0**e * GIB)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + scale.width}" y2="{y:.1f}"/>')
    out.append('</g>')
    return out


def _axes(scale: _Scale) -> list[str]:
    """Both axes with their tick labels (vCPUs as counts, memory in Mi, Gi or Ti) and their names."""
    bottom = TOP + scale.height
    out = ['<g class="axis">',
           f'<line x1="{LEFT}" y1="{bottom}" x2="{LEFT + scale.width}" y2="{bottom}"/>',
           f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{bottom}"/>']
    for e in scale.xs:
        out.append(f'<text x="{scale.x_at(2**e):.1f}" y="{bottom + 22}" text-anchor="middle">{2**e}</text>')
    for e in scale.ys:
        out.append(f'<text x="{LEFT - 6}" y="{scale.y_at(2.0**e * GIB) + 4:.1f}" text-anchor="end">'
                   f'{_memory_tick(e)}</text>')
    out.append(f'<text x="{LEFT + scale.width / 2:.1f}" y="{HEIGHT - 6}" text-anchor="middle" '
               'class="label">vCPUs</text>')
    out.append(f'<text transform="translate(14 {TOP + scale.height / 2:.1f}) rotate(-90)" text-anchor="middle" '
               'class="label">memory</text></g>')
    return out


def _marks(scale: _Scale, points: Sequence[Mapping[str, Any]], order: Sequence[str]) -> list[str]:
    """Each series' points in its colour and mark, a link and a tooltip each.

    Series whose points coincide are set four pixels apart around the shared point,
    each in its own direction, so every mark stays visible.
    """
    out = []
    for index, name in enumerate(order):
        colour, shape = style(index)
        angle = 2 * math.pi * index / len(order)
        dx, dy = (4 * math.cos(angle), 4 * math.sin(angle)) if len(order) > 1 else (0.0, 0.0)
        out.append(f'<g class="series" data-series="{escape.html(name)}" fill="{colour}" stroke="{colour}">')
        for p in (p for p in points if p["series"] == name):
            text = f"{p['name']}: {p['cpu']} vCPU{'s' if p['cpu'] != 1 else ''}, {p['memoryText']}"
            out.append(f'<a href="#{escape.html(p["name"])}" class="point" data-name="{escape.html(p["name"])}" '
                       f'aria-label="{escape.html(text)}"><title>{escape.html(text)}</title>'
                       f'{_mark(shape, scale.x_at(p["cpu"]) + dx, scale.y_at(p["memory"]) + dy)}</a>')
        out.append("</g>")
    return out


def chart(series: Sequence[Mapping[str, Any]], instancetypes: Sequence[Mapping[str, Any]]) -> str:
    """The scatter chart: one point per instancetype (variants share their base's point), one mark per series.

    Series whose points coincide (U and O have the same ratio) are set a few
    pixels apart around the shared point, so every mark stays visible.
    """
    points = [it for it in instancetypes if it["cpu"] and it["memory"] and not it["variant"]]
    order = [s["name"] for s in series] + sorted({p["series"] for p in points} - {s["name"] for s in series})
    if not points:
        return '<p class="empty">No instancetypes to chart.</p>'
    scale = _Scale(tuple(_powers(min(p["cpu"] for p in points), max(p["cpu"] for p in points))),
                   tuple(_powers(min(p["memory"] for p in points) / GIB, max(p["memory"] for p in points) / GIB)))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" class="chart" '
           f'role="img" aria-labelledby="chart-title chart-desc">',
           '<title id="chart-title">vCPUs against memory, every instancetype</title>',
           f'<desc id="chart-desc">Log-scaled scatter plot of {len(points)} instancetype'
           f'{"" if len(points) == 1 else "s"} of {len(order)} '
           'series; each series has its own colour and mark.</desc>']
    out += _grid(scale) + _axes(scale) + _marks(scale, points, order)
    out.append("</svg>")
    return "".join(out)


def legend(series: Sequence[Mapping[str, Any]], extra: Sequence[str] = ()) -> str:
    """The chart's legend as HTML: each series' mark, colour and display name."""
    items = []
    for index, record in enumerate([*series, *({"name": n, "displayName": n} for n in extra)]):
        colour, shape = style(index)
        items.append(f'<li><svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" '
                     f'fill="{colour}" stroke="{colour}">{_mark(shape, 8, 8)}</svg>'
                     f'{escape.html(record["name"].upper())} <span class="muted">{escape.html(record["displayName"])}'
                     f'</span></li>')
    return '<ul class="legend" aria-label="Chart legend">' + "".join(items) + "</ul>"
