"""expand/instancetypes.py on its own: the overlay lines each instancetype carries (CatalogObject.shaped_by).

An object carries the lines that changed its series or its size matrix, in the order
they were applied, each once; lines that changed another series, another matrix or the
catalog as a whole are not its own.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from generator.expand.instancetypes import instancetype, instancetype_objects, series_objects
from generator.model import Change
from generator.problems import Location
from tests.test_expand_instancetypes import SIZES, catalog, series

SERIES_LINE, MATRIX_LINE, OTHER_LINE, LATER_SERIES_LINE = (Location("overlay.yaml", n) for n in (3, 7, 9, 12))
CHANGES = (
    Change(("series", "cx1"), SERIES_LINE),
    Change(("matrix", "standard"), MATRIX_LINE),
    Change(("series", "u1"), OTHER_LINE),
    Change(("matrix", "other"), OTHER_LINE),
    Change(("catalog", "version"), OTHER_LINE),
    Change(("series", "cx1"), LATER_SERIES_LINE),
    Change(("matrix", "standard"), SERIES_LINE),
)


def test_each_object_carries_the_lines_that_changed_its_series_or_its_matrix_in_order():
    cx1 = series("cx1", Fraction(2), ("small", "large"))
    objects = series_objects(cx1, replace(catalog(cx1), changes=CHANGES), {})
    assert [(o.name, o.shaped_by) for o in objects] == [
        ("cx1.small", (SERIES_LINE, MATRIX_LINE, LATER_SERIES_LINE)),
        ("cx1.large", (SERIES_LINE, MATRIX_LINE, LATER_SERIES_LINE))]


def test_a_series_only_its_matrix_was_changed_for_carries_the_matrix_lines():
    changes = (Change(("matrix", "standard"), MATRIX_LINE), Change(("series", "u1"), OTHER_LINE))
    cx1 = series("cx1", Fraction(2), ("small",))
    [obj] = series_objects(cx1, replace(catalog(cx1), changes=changes), {})
    assert obj.shaped_by == (MATRIX_LINE,)


def test_an_object_no_overlay_changed_carries_no_lines():
    cx1, u1 = series("cx1", Fraction(2), ("small",)), series("u1", Fraction(4), ("small",))
    changes = (Change(("series", "u1"), OTHER_LINE), Change(("catalog", "version"), MATRIX_LINE))
    objects = instancetype_objects(replace(catalog(cx1, u1), changes=changes))
    assert [(o.name, o.shaped_by) for o in objects] == [("cx1.small", ()), ("u1.small", (OTHER_LINE,))]


def test_an_instancetype_made_alone_carries_the_lines_it_is_given_or_none():
    assert instancetype(series(), SIZES.sizes[1], "", {}, {}).shaped_by == ()
    assert instancetype(series(), SIZES.sizes[1], "", {}, {}, (MATRIX_LINE, SERIES_LINE)).shaped_by == \
        (MATRIX_LINE, SERIES_LINE)
