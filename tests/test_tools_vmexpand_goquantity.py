"""Quantities printed as Kubernetes' Go code prints them (generator/tools/vmexpand/goquantity.py)."""

from __future__ import annotations

import pytest

from generator.tools.vmexpand.goquantity import go_string


@pytest.mark.parametrize("text, printed", [("1.5Gi", "1536Mi"), ("2Gi", "2Gi"), ("1000M", "1G"), ("0.5", "500m"),
                                           ("1536", "1536"), ("1e3", "1e3"), ("100Mi", "100Mi")])
def test_quantities_print_as_go_prints_them(text, printed) -> None:
    assert go_string(text) == printed
