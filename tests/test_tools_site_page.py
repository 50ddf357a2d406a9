"""generator/tools/site/page.py: index.html, one file holding its styles, script, chart and data.

Every slot of the page's template is filled once, with its value escaped where it is
text (the vendor in the title and summary), the assets as they are, and the data as
compact JSON with sorted keys in which no ``<`` can close the script that carries it.
A slot's value is never searched for slots itself; series of instancetypes that the
catalog does not list are added to the legend by name.
"""

from __future__ import annotations

import io
import json
import re
from typing import Any

from generator.tools.site.chart import chart, legend
from generator.tools.site.page import asset, data_json, page

GIB = 1024**3


def data(**more: Any) -> dict[str, Any]:
    """Catalog data of one series and two instancetypes, one of a series the catalog does not list."""
    return {"vendor": "acme <b>", "version": "v1.2.3", "labelPrefix": "instancetype.kubevirt.io/",
            "series": [{"name": "u1", "displayName": "Universal"}],
            "instancetypes": [
                {"name": "u1.small", "series": "u1", "cpu": 1, "memory": GIB, "memoryText": "1Gi", "variant": False},
                {"name": "z1.big", "series": "z1", "cpu": 2, "memory": GIB, "memoryText": "1Gi", "variant": False},
                {"name": "y1.var", "series": "y1", "cpu": 2, "memory": GIB, "memoryText": "1Gi", "variant": True},
            ],
            "preferences": [], **more}


def test_the_assets_are_the_files_beside_the_module():
    assert asset("page.html").count("<!--@data@-->") == 1
    assert asset("site.css").startswith("/* ") and asset("site.js")


def test_the_assets_are_read_as_utf_8_whatever_the_locale(monkeypatch):
    """A Latin-1 locale, as far as reading a file goes: Path.read_text asks io.text_encoding when given no encoding."""
    monkeypatch.setattr(io, "text_encoding", lambda encoding, stacklevel=2: encoding or "latin-1")
    assert '" → "' in asset("site.js")


def test_data_is_compact_sorted_json_that_cannot_close_its_script():
    text = data_json({"b": "</script><!--", "a": [1, 2]})
    assert text == '{"a":[1,2],"b":"\\u003c/script>\\u003c!--"}'
    assert json.loads(text) == {"a": [1, 2], "b": "</script><!--"}


def test_every_slot_is_filled_and_the_vendor_escaped():
    html = page(data())
    assert "<!--@" not in html
    assert re.findall(r"<title>[^<]*</title>", html)[0] == "<title>acme &lt;b&gt; virtual machine catalog</title>"
    assert html.count("acme &lt;b&gt; v1.2.3: 1 series, 3 instancetypes, 0 preferences") == 2
    assert "acme <b>" not in html.replace(data_json(data()), "")


def test_the_chart_legend_styles_script_and_data_are_written_in_whole():
    html = page(data())
    series, instancetypes = data()["series"], data()["instancetypes"]
    assert chart(series, instancetypes) in html
    assert legend(series, ["z1"]) in html  # a variant's series alone is not a series of the chart
    assert asset("site.css") in html and asset("site.js") in html
    assert data_json(data()) in html


def test_a_value_that_looks_like_a_slot_is_left_as_written():
    html = page(data(vendor="<!--@js@-->"))
    assert "&lt;!--@js@--&gt; virtual machine catalog" in html and html.count(asset("site.js")) == 1
