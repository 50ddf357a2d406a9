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
    tiny = chart(SERIES, [point("u1.a", 1, 1024**2 // 2, "512Ki"), point("u1.b", 1, 1024**2, "1Mi")])
    assert ticks(tiny)[1] == ["0.5Mi", "1Mi"]  # under a mebibyte, a fraction of one


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


def elements(svg: str) -> list[str]:
    """The SVG's elements, one a line, as the expected values below are written."""
    return svg.replace("><", ">\n<").split("\n")


def test_a_chart_of_two_sizes_is_drawn_exactly():
    # The plot runs from x 72 to 704 and from y 388 up to 16; each axis reaches a quarter doubling
    # beyond its outer ticks, so with ticks 1 and 2 (2Gi and 4Gi) one doubling is 632 / 1.5 pixels
    # wide (372 / 1.5 high) and the ticks are at 72 + 632 * 0.25 / 1.5 = 177.3 and 598.7
    # (y 388 - 372 * 0.25 / 1.5 = 326.0 and 78.0).
    svg = chart(SERIES[:1], [point("u1.small", 1, 2 * GIB, "2Gi"), point("u1.large", 2, 4 * GIB, "4Gi")])
    assert elements(svg) == [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 720 440" class="chart" role="img" '
        'aria-labelledby="chart-title chart-desc">',
        '<title id="chart-title">vCPUs against memory, every instancetype</title>',
        '<desc id="chart-desc">Log-scaled scatter plot of 2 instancetypes of 1 series; each series has its own '
        'colour and mark.</desc>',
        '<g class="grid">',
        '<line x1="177.3" y1="16" x2="177.3" y2="388"/>',
        '<line x1="598.7" y1="16" x2="598.7" y2="388"/>',
        '<line x1="72" y1="326.0" x2="704" y2="326.0"/>',
        '<line x1="72" y1="78.0" x2="704" y2="78.0"/>',
        '</g>',
        '<g class="axis">',
        '<line x1="72" y1="388" x2="704" y2="388"/>',
        '<line x1="72" y1="16" x2="72" y2="388"/>',
        '<text x="177.3" y="410" text-anchor="middle">1</text>',
        '<text x="598.7" y="410" text-anchor="middle">2</text>',
        '<text x="66" y="330.0" text-anchor="end">2Gi</text>',
        '<text x="66" y="82.0" text-anchor="end">4Gi</text>',
        '<text x="388.0" y="434" text-anchor="middle" class="label">vCPUs</text>',
        '<text transform="translate(14 202.0) rotate(-90)" text-anchor="middle" class="label">memory</text>',
        '</g>',
        '<g class="series" data-series="u1" fill="#0072b2" stroke="#0072b2">',
        '<a href="#u1.small" class="point" data-name="u1.small" aria-label="u1.small: 1 vCPU, 2Gi">',
        '<title>u1.small: 1 vCPU, 2Gi</title>',
        '<circle cx="177.3" cy="326.0" r="5.0"/>',
        '</a>',
        '<a href="#u1.large" class="point" data-name="u1.large" aria-label="u1.large: 2 vCPUs, 4Gi">',
        '<title>u1.large: 2 vCPUs, 4Gi</title>',
        '<circle cx="598.7" cy="78.0" r="5.0"/>',
        '</a>',
        '</g>',
        '</svg>']


def test_a_value_between_ticks_lands_between_them_and_memory_under_a_gibibyte_reads_in_mi():
    # ticks 1, 2, 4 vCPUs: a doubling is 632 / 2.5 = 252.8 pixels, and 3 vCPUs land log2(3) doublings
    # past 1; ticks 256Mi to 4Gi: a doubling is 372 / 4.5 = 82.7 pixels high.
    svg = chart([], [point("u1.small", 1, GIB // 4, "256Mi"), point("u1.large", 3, 3 * GIB, "3Gi"),
                     point("u1.nocpu", 0, GIB, "1Gi"), point("u1.nomemory", 2, None, "")])  # neither is charted
    assert [e for e in elements(svg) if e.startswith(("<line", "<text x", "<circle"))] == [
        '<line x1="135.2" y1="16" x2="135.2" y2="388"/>',
        '<line x1="388.0" y1="16" x2="388.0" y2="388"/>',
        '<line x1="640.8" y1="16" x2="640.8" y2="388"/>',
        '<line x1="72" y1="367.3" x2="704" y2="367.3"/>',
        '<line x1="72" y1="284.7" x2="704" y2="284.7"/>',
        '<line x1="72" y1="202.0" x2="704" y2="202.0"/>',
        '<line x1="72" y1="119.3" x2="704" y2="119.3"/>',
        '<line x1="72" y1="36.7" x2="704" y2="36.7"/>',
        '<line x1="72" y1="388" x2="704" y2="388"/>',
        '<line x1="72" y1="16" x2="72" y2="388"/>',
        '<text x="135.2" y="410" text-anchor="middle">1</text>',
        '<text x="388.0" y="410" text-anchor="middle">2</text>',
        '<text x="640.8" y="410" text-anchor="middle">4</text>',
        '<text x="66" y="371.3" text-anchor="end">256Mi</text>',
        '<text x="66" y="288.7" text-anchor="end">512Mi</text>',
        '<text x="66" y="206.0" text-anchor="end">1Gi</text>',
        '<text x="66" y="123.3" text-anchor="end">2Gi</text>',
        '<text x="66" y="40.7" text-anchor="end">4Gi</text>',
        '<text x="388.0" y="434" text-anchor="middle" class="label">vCPUs</text>',
        '<circle cx="135.2" cy="367.3" r="5.0"/>',
        '<circle cx="535.9" cy="71.0" r="5.0"/>']
    assert "Log-scaled scatter plot of 2 instancetypes of 1 series;" in svg


def test_three_series_at_one_point_are_set_four_pixels_apart_a_third_of_a_turn_each():
    # the shared point is (177.3, 326.0); the series sit at 0, 120 and 240 degrees around it
    svg = chart(SERIES, [point("u1.small", 1, 2 * GIB, "2Gi"), point("o1.small", 1, 2 * GIB, "2Gi"),
                         point("x1.small", 1, 2 * GIB, "2Gi")])
    assert re.findall(r"</title>(<[^>]+>)</a>", svg) == [
        '<circle cx="181.3" cy="326.0" r="5.0"/>',
        '<rect x="170.3" y="324.5" width="10.0" height="10.0"/>',
        '<polygon points="175.3,316.0 181.8,322.5 175.3,329.0 168.8,322.5"/>']


def test_each_of_the_eight_marks_has_its_own_shape():
    eight = [{"name": f"s{i}", "displayName": f"S{i}"} for i in range(8)]
    assert re.findall(r'aria-hidden="true" fill="[^"]+" stroke="[^"]+">(.*?)</svg>', legend(eight)) == [
        '<circle cx="8.0" cy="8.0" r="5.0"/>',
        '<rect x="3.0" y="3.0" width="10.0" height="10.0"/>',
        '<polygon points="8.0,1.5 14.5,8.0 8.0,14.5 1.5,8.0"/>',  # diamond
        '<polygon points="8.0,1.5 14.0,13.0 2.0,13.0"/>',  # triangle
        '<polygon points="8.0,14.5 14.0,3.0 2.0,3.0"/>',  # down
        '<polygon points="6.0,2.0 10.0,2.0 10.0,6.0 14.0,6.0 14.0,10.0 10.0,10.0 10.0,14.0 6.0,14.0 6.0,10.0 '
        '2.0,10.0 2.0,6.0 6.0,6.0"/>',  # plus
        '<polygon points="3.0,5.0 5.0,3.0 8.0,6.0 11.0,3.0 13.0,5.0 10.0,8.0 13.0,11.0 11.0,13.0 8.0,10.0 '
        '5.0,13.0 3.0,11.0 6.0,8.0"/>',  # cross
        '<polygon points="8.0,1.5 9.6,5.8 14.2,6.0 10.6,8.8 11.8,13.3 8.0,10.8 4.2,13.3 5.4,8.8 1.8,6.0 '
        '6.4,5.8"/>']  # star
