"""generator/golower.py: text lower-cased as Go's strings.ToLower does it, as KubeVirt reads a kind."""

from __future__ import annotations

import pytest

from generator.golower import ASCII_FOLDS, go_lower


def test_the_kind_kubevirt_reads_as_the_cluster_kind_though_python_would_not():
    assert go_lower("VirtualMachineClusterİnstancetype") == "virtualmachineclusterinstancetype"
    assert "VirtualMachineClusterİnstancetype".lower() != "virtualmachineclusterinstancetype"  # i + a dot above


def test_each_character_is_lowered_by_itself_as_go_does():
    assert go_lower("ΟΔΟΣ") == "οδοσ"  # Go has no final sigma: Python writes ς
    assert go_lower("\u212aelvin") == "kelvin"
    assert go_lower("ı") == "ı"  # the dotless i stays itself
    assert go_lower("ÀÉ\U00010400") == "àé\U00010428"  # beyond ASCII and beyond the plane, one character each


def test_ascii_text_is_lowered_as_ascii():
    assert go_lower("VirtualMachinePreferences") == "virtualmachinepreferences"
    assert go_lower("") == ""


def test_every_character_lowers_to_one_character_and_only_the_folds_to_ascii():
    text = "".join(map(chr, range(0x80, 0x110000)))
    changed = [char for char in text if char.lower() != char]  # the rest go_lower leaves as they are, too
    assert all(len(go_lower(char)) == 1 for char in changed)
    assert {char: go_lower(char) for char in changed if go_lower(char).isascii()} == ASCII_FOLDS == {
        "\u0130": "i", "\u212a": "k"}


@pytest.mark.parametrize("text, lowered", [
    ("VirtualMachineClusterİnstancetype", "virtualmachineclusterinstancetype"),
    ("VirtualMachinePreference", "virtualmachinepreference"),
    ("ΟΔΟΣ", "οδοσ"),  # no final sigma: Go lowers each letter alone
    ("KELVIN\u212a", "kelvink"),
    ("", ""),
])
def test_a_kind_is_lowered_one_character_at_a_time_as_go_lowers_it(text, lowered):
    assert go_lower(text) == lowered
