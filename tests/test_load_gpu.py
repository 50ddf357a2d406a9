"""load/gpu.py on its own: which GPU device names are accepted, and when the GN series is built."""

from __future__ import annotations

from fractions import Fraction

import pytest

from generator.load.gpu import (HOW_TO_ENABLE, OWN_SERIES, configured, device_problem, extended_resource_problem,
                                left_out, left_out_note, needs_device, opt_in_note, series_of)
from generator.model import Series, Variant
from generator.problems import Location

HERE = Location("series/x.yaml", 1, 1)
EXPECTED = ("expected an extended resource name: a domain such as nvidia.com, '/', and at most 63 letters, digits, "
            "'-', '_' or '.' starting and ending with a letter or digit (such as nvidia.com/A400)")


def series(prefix: str, features: dict | None = None, variants: tuple[Variant, ...] = ()) -> Series:
    return Series(prefix=prefix, version=1, cls="gpu.nvidia", display_name="x", description="x", icon="x",
                  ratio=Fraction(4), matrix="standard", sizes=("xlarge",), features=features or {}, spec={},
                  variants=variants, deprecated=False, location=HERE)


@pytest.mark.parametrize("device", ["nvidia.com/A400", "nvidia.com/GH100_H100_PCIE", "nvidia.com/a.b-c_d",
                                    "nvidia.com/" + "x" * 63])
def test_nvidia_devices_are_accepted(device) -> None:
    assert device_problem(device) is None
    assert extended_resource_problem(device) is None


@pytest.mark.parametrize("device, got", [
    ("", "an empty name"), ("A400", "'A400'"), ("nvidia.com/", "'nvidia.com/'"), ("Nvidia.com/A400", "'Nvidia.com/A400'"),
    ("nvidia.com/-A400", "'nvidia.com/-A400'"), ("nvidia.com/" + "x" * 64, repr("nvidia.com/" + "x" * 64)),
    ("a/b/c", "'a/b/c'"),
])
def test_names_that_are_no_extended_resource(device, got) -> None:
    assert extended_resource_problem(device) == f"{EXPECTED}, got {got}"
    assert device_problem(device) == f"{EXPECTED}, got {got}"


def test_another_vendors_device_is_no_gn_device() -> None:
    assert extended_resource_problem("amd.com/gpu") is None
    assert device_problem("amd.com/gpu") == (
        "'amd.com/gpu' is not an NVIDIA device: GN is the NVIDIA series and asks for devices under nvidia.com/; "
        + OWN_SERIES)


def test_a_device_is_configured_only_by_a_non_empty_name() -> None:
    assert configured({"gpu": {"deviceName": "nvidia.com/A400"}})
    assert not configured({})
    assert not configured({"gpu": None})
    assert not configured({"gpu": {"count": 2}})
    assert not configured({"gpu": {"deviceName": ""}})


def test_series_that_need_a_device_are_left_out_without_one() -> None:
    gn = series("gn", {"gpus": True})
    variant_only = series("gv", {}, (Variant("g", {"gpus": True}, HERE),))
    off = series("go", {"gpus": False})
    plain = series("u")
    assert [needs_device(s) for s in (gn, variant_only, off, plain)] == [True, True, False, False]
    assert left_out([gn, variant_only, off, plain], {}) == [gn, variant_only]
    assert left_out([gn, variant_only, off, plain], {"gpu": {"deviceName": "nvidia.com/A400"}}) == []


def test_the_build_summary_names_what_was_left_out() -> None:
    assert left_out_note([]) == ""
    assert left_out_note([series("gn")]) == f"GN series left out: no GPU device configured; {HOW_TO_ENABLE}"
    assert left_out_note([series("gn"), series("gv")]).startswith("GN, GV series left out: ")


def test_a_name_of_a_series_left_out_is_explained_and_any_other_is_not() -> None:
    gn = series("gn", {"gpus": True})
    note = ("the GN series, which is built only with a GPU device (--gpu-device nvidia.com/<model>, or "
            "parameters.gpu.deviceName in the catalog)")
    assert opt_in_note("gn1.xlarge", [gn]) == f"gn1.xlarge belongs to {note}"
    assert opt_in_note("gn", [gn]) == f"gn is {note}"
    assert opt_in_note("gn1", [gn]) == f"gn1 is {note}"
    assert opt_in_note("n1.xlarge", [gn]) is None and opt_in_note("gn2.xlarge", [gn]) is None
    assert opt_in_note("gn1.xlarge", []) is None
    assert series_of("gn1.xlarge", [series("u"), gn]) is gn
