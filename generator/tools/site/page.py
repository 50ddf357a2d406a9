"""The page itself: one HTML file with its styles, script, chart and data inside.

Browsers refuse fetch() from a file:// page, and the page must make no request
to any host, so everything it needs is written into it: the stylesheet and
script (files of ours beside this module, so they can be read, linted and
reviewed as what they are), the SVG chart and the catalog data as JSON. The
Content-Security-Policy in the page forbids any request, so a later edit that
reaches out would fail loudly in the browser tests instead of leaking.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import Any, Mapping

from ... import escape
from .chart import chart, legend

_SLOT = re.compile(r"<!--@(\w+)@-->")


def asset(name: str) -> str:
    """One of the page's files (page.html, site.css, site.js), as text."""
    return resources.files(__package__).joinpath("assets", name).read_text(encoding="utf-8")


def data_json(data: Mapping[str, Any]) -> str:
    """The data as compact JSON with sorted keys: the same bytes on every run, and safe inside <script>.

    escape.html_script writes ``<`` as ``\\u003c`` (it can only occur inside
    strings), so no description can close the script element that carries the
    data or open a comment in it.
    """
    return escape.html_script(escape.json_text(data, sort_keys=True, separators=(",", ":")))


def page(data: Mapping[str, Any]) -> str:
    """The HTML text of index.html for this catalog data."""
    series = data["series"]
    extra = sorted({it["series"] for it in data["instancetypes"] if not it["variant"]} - {s["name"] for s in series})
    title = f"{data['vendor']} virtual machine catalog"
    summary = (f"{data['vendor']} {data['version']}: {len(series)} series, {len(data['instancetypes'])} "
               f"instancetypes, {len(data['preferences'])} preferences")
    slots = {
        "title": escape.html(title),
        "summary": escape.html(summary),
        "prefix": escape.html(data["labelPrefix"]),
        "css": asset("site.css"),
        "js": asset("site.js"),
        "chart": chart(series, data["instancetypes"]),
        "legend": legend(series, extra),
        "data": data_json(data),
    }
    # one pass over the template: a slot's value is never searched for slots itself
    return _SLOT.sub(lambda m: slots[m.group(1)], asset("page.html"))
