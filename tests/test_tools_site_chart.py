"""generator/tools/site/chart.py: the vCPUs-against-memory chart, drawn as SVG at build time.

One point per instancetype that is not a variant, in its series' colour and mark (the
series of the catalog first, in order, then any other, by name); both axes log2, from the
power of two below the smallest value to the one above the largest, at least one doubling
wide; series whose points coincide are set four pixels apart. The legend names each
series in the same colour and mark; the styles repeat only after eight series.
"""

from __future__ import annotations

import re
from typing import Any

from generator.tools.site.chart import COLOURS, HEIGHT, MARKS, WIDTH, chart, legend, style

GIB = 1024**3
SERIES = [{"name": "u1", "displayName": "Universal"}, {"name": "o1", "displayName": "Overcommitted"}]


def point(name: str, cpu: int, memory: int, text: str, variant: bool = False) -> dict[str, Any]:
    return {"name": name, "series": name.split(".")[0], "cpu": cpu, "memory": memory, "memoryText": text,
            "variant": variant}


POINTS = [point("u1.small", 1, 2 * GIB, "2Gi"), point("o1.small", 1, 2 * GIB, "2Gi"),
          point("u1.small1gi", 1, 2 * GIB, "2Gi", variant=True), point("x1.big", 4, GIB // 2, "512Mi")]


def ticks(svg: str) -> tuple[list[str], list[str]]:
    """The labels of the vCPU axis and of the memory axis."""
    return (re.findall(r'text-anchor="middle">([^<]+)</text>', svg),
            re.findall(r'text-anchor="end">([^<]+)</text>', svg))


def test_eight_colours_and_marks_then_they_repeat():
    assert len(COLOURS) == len(MARKS) == 8 and len(set(COLOURS)) == len(set(MARKS)) == 8
    assert [style(i) for i in (0, 1, 8, 9)] == [("#0072b2", "circle"), ("#d55e00", "square"),
                                                 ("#0072b2", "circle"), ("#d55e00", "square")]


def test_nothing_to_chart_is_said_in_words():
    assert chart(SERIES, []) == '<p class="empty">No instancetypes to chart.</p>'
    assert chart(SERIES, [POINTS[2]]) == '<p class="empty">No instancetypes to chart.</p>'  # variants only


def test_one_point_per_instancetype_that_is_no_variant_linked_and_titled():
    svg = chart(SERIES, POINTS)
    assert svg.startswith(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" class="chart" ')
    assert ('<desc id="chart-desc">Log-scaled scatter plot of 3 instancetypes of 3 series; each series has its own '
            'colour and mark.</desc>') in svg
    assert re.findall(r'data-name="([^"]+)" aria-label="([^"]+)"', svg) == [
        ("u1.small", "u1.small: 1 vCPU, 2Gi"), ("o1.small", "o1.small: 1 vCPU, 2Gi"),
        ("x1.big", "x1.big: 4 vCPUs, 512Mi")]


def test_one_instancetype_is_told_in_the_singular():
    assert "Log-scaled scatter plot of 1 instancetype of 2 series;" in chart(SERIES, [POINTS[0]])


def test_the_catalog_s_series_come_first_in_order_then_the_others_by_name():
    svg = chart(SERIES, POINTS + [point("a1.tiny", 2, GIB, "1Gi")])
    assert re.findall(r'data-series="([^"]+)" fill="([^"]+)"', svg) == [
        ("u1", COLOURS[0]), ("o1", COLOURS[1]), ("a1", COLOURS[2]), ("x1", COLOURS[3])]


def test_the_axes_span_the_powers_of_two_around_the_values():
    assert ticks(chart(SERIES, POINTS)) == (["1", "2", "4"], ["512Mi", "1Gi", "2Gi"])
    one = chart(SERIES, [point("u1.small", 1, 2 * GIB, "2Gi")])  # one value: one doubling wide
    assert ticks(one) == (["1", "2"], ["2Gi", "4Gi"])
    wide = chart(SERIES, [point("u1.a", 3, 3 * GIB, "3Gi"), point("u1.b", 64, 1024 * GIB, "1Ti")])
    assert ticks(wide) == (["2", "4", "8", "16", "32", "64"],
                           ["2Gi", "4Gi", "8Gi", "16Gi", "32Gi", "64Gi", "128Gi", "256Gi", "512Gi", "1024Gi"])


def test_two_series_at_one_point_are_set_apart_and_one_series_alone_is_not():
    both = chart(SERIES, POINTS[:2])
    assert '<circle cx="181.3" cy="326.0" r="5.0"/>' in both  # four pixels right of the shared point
    assert '<rect x="168.3" y="321.0" width="10.0" height="10.0"/>' in both  # four pixels left
    alone = chart(SERIES[:1], POINTS[:1])
    assert '<circle cx="177.3" cy="326.0" r="5.0"/>' in alone


def test_names_are_escaped_in_links_and_titles():
    svg = chart([{"name": "u1", "displayName": "U"}], [point('u1."<b>', 1, GIB, "1Gi")])
    assert 'href="#u1.&quot;&lt;b&gt;"' in svg and "<b>" not in svg


def test_the_legend_names_each_series_in_its_style_and_the_others_after():
    assert legend(SERIES[:1], ["x1"]) == (
        '<ul class="legend" aria-label="Chart legend">'
        '<li><svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" fill="#0072b2" stroke="#0072b2">'
        '<circle cx="8.0" cy="8.0" r="5.0"/></svg>U1 <span class="muted">Universal</span></li>'
        '<li><svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" fill="#d55e00" stroke="#d55e00">'
        '<rect x="3.0" y="3.0" width="10.0" height="10.0"/></svg>X1 <span class="muted">x1</span></li></ul>')
    assert legend([], []) == '<ul class="legend" aria-label="Chart legend"></ul>'
