"""expand/preferences.py's ``build_preferences``: read a catalog's preferences/ folder and expand it in one step.

What reading finds wrong and what expanding finds wrong come out together, in one
InputError; a catalog with nothing wrong gives its objects.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.expand.preferences import build_preferences
from generator.model import CatalogObject
from generator.problems import Location

PROVIDER = {"displayName": "KubeVirt", "documentationURL": "https://d", "supportURL": "https://s"}
RNG = """\
    description: A random number generator.
    spec:
      devices:
        preferredRng: {}
    """
FAMILY = """\
    osType: linux
    iconClass: icon-os
    traits: [rng]
    preferences:
      os:
        displayName: OS
        description: A guest.
    """


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "preferences" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def refusal(root: Path, provider: dict[str, str] = PROVIDER) -> list[str]:
    with pytest.raises(InputError) as raised:
        build_preferences(root, provider=provider)
    return [str(p) for p in raised.value.problems]


def test_a_catalog_with_nothing_wrong_gives_its_preferences(tmp_path: Path) -> None:
    root = write(tmp_path, {"traits/rng.yaml": RNG, "os.yaml": FAMILY})
    assert build_preferences(root, provider=PROVIDER) == [CatalogObject(
        family="preference", name="os", group="os",
        labels={"instancetype.kubevirt.io/os-type": "linux"},
        annotations={"iconClass": "icon-os", "instancetype.kubevirt.io/description": "A guest.",
                     "openshift.io/display-name": "OS", "openshift.io/documentation-url": "https://d",
                     "openshift.io/provider-display-name": "KubeVirt", "openshift.io/support-url": "https://s",
                     "tags": ""},
        spec={"annotations": {"vm.kubevirt.io/os": "linux"}, "devices": {"preferredRng": {}}},
        location=Location("preferences/os.yaml", 5, 3, ("preferences", "os")),
        facts={"displayName": "OS", "cpu": None, "memory": None, "architecture": None, "osType": "linux",
               "essential": ()})]


def test_a_problem_found_reading_is_reported_even_when_expanding_finds_none(tmp_path: Path) -> None:
    root = write(tmp_path, {"traits/rng.yaml": RNG, "traits/Odd.yaml": RNG, "os.yaml": FAMILY})
    assert refusal(root) == [
        "preferences/traits/Odd.yaml: trait name 'Odd' (the file name) must be lower-case letters, digits and dashes"]


def test_a_problem_found_expanding_is_reported(tmp_path: Path) -> None:
    root = write(tmp_path, {"os.yaml": FAMILY})
    assert refusal(root) == [
        "preferences/os.yaml:3:10: traits[0]: unknown trait 'rng' (traits are the files of preferences/traits/)"]


def test_problems_found_reading_and_expanding_come_in_one_error(tmp_path: Path) -> None:
    root = write(tmp_path, {"traits/rng.yaml": RNG, "traits/Odd.yaml": RNG, "os.yaml": FAMILY})
    assert refusal(root, {"displayName": "KubeVirt", "documentationURL": "https://d"}) == [
        "catalog.yaml: provider.supportURL: provider.supportURL must be a non-empty string (it is an annotation of "
        "every preference)",
        "preferences/traits/Odd.yaml: trait name 'Odd' (the file name) must be lower-case letters, digits and dashes"]


def test_a_problem_several_preferences_lead_to_is_reported_once(tmp_path: Path) -> None:
    root = write(tmp_path, {"traits/rng.yaml": RNG, "os.yaml": """\
        osType: linux
        iconClass: icon-os
        preferences:
          os.a:
            basedOn: os.b
            description: A.
          os.b:
            basedOn: os.a
            description: B.
          os.c:
            basedOn: os.a
            description: C.
        """})
    assert refusal(root) == [
        "preferences/os.yaml:5:14: preferences.os.a.basedOn: basedOn goes round in a circle: os.a -> os.b -> os.a",
        "preferences/os.yaml:8:14: preferences.os.b.basedOn: basedOn goes round in a circle: os.b -> os.a -> os.b"]
