"""The five bundles: every object rendered as each of its kinds, and the bundle texts they make.

The file names and the all-bundle's order are what virt-operator and upstream's release
expect; the renderer (render/__init__.py) makes each document, this module lays them out.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Mapping, Sequence

from ..frozen import frozen
from ..model import INSTANCETYPE_KINDS, KINDS, PREFERENCE_KINDS, Catalog, CatalogObject
from ..paths import builtin_catalog
from ..source.inputfiles import usable_folder
from . import Renderer, rendering

#: Bundle file name (without .yaml) for each kind, as KubeVirt's virt-operator expects them.
BUNDLES = {
    INSTANCETYPE_KINDS[0]: "common-clusterinstancetypes-bundle",
    INSTANCETYPE_KINDS[1]: "common-instancetypes-bundle",
    PREFERENCE_KINDS[0]: "common-clusterpreferences-bundle",
    PREFERENCE_KINDS[1]: "common-preferences-bundle",
}
ALL_BUNDLE = "common-instancetypes-all-bundle"
#: The all-bundle's order: cluster kinds first, then namespaced ones.
ALL_ORDER = (INSTANCETYPE_KINDS[0], PREFERENCE_KINDS[0], INSTANCETYPE_KINDS[1], PREFERENCE_KINDS[1])


@frozen
class Rendered:
    """The rendered text: each kind's documents one by one, and the five bundles they make."""

    by_kind: Mapping[str, Sequence[str]]
    bundles: Mapping[str, str]  # file name -> text


def template_folders(root: Path) -> list[Path]:
    """The template folders of the catalog at ``root``: its own, then the built-in ones it may override."""
    dirs = [root / "templates"]
    if builtin_catalog() / "templates" != dirs[0]:
        dirs.append(builtin_catalog() / "templates")
    return dirs


def render_bundles(catalog: Catalog, objects: Sequence[CatalogObject]) -> Rendered:
    """Every object rendered as each of its kinds, and the five bundle texts."""
    with rendering():
        return start_bundles(catalog, objects)()


def start_bundles(catalog: Catalog, objects: Sequence[CatalogObject]) -> Callable[..., Rendered]:
    """``render_bundles`` handed to the rendering process: calling the result waits for the bundles, and
    gives each document to ``each(kind, text)`` as it comes, where given (a build parses it meanwhile).

    Within ``rendering()``: its child renders while the caller does something else.
    """
    dirs = template_folders(catalog.root)
    usable_folder(dirs[0], "templates")  # an unreadable one would fall back to the built-in templates unsaid
    texts_by_kind = Renderer(dirs).start_all(objects)

    def rendered(each: Callable[[str, str], None] | None = None) -> Rendered:
        by_kind = texts_by_kind(each)
        texts = {kind: "".join(by_kind.get(kind, [])) for kind in KINDS}
        bundles = {f"{BUNDLES[kind]}.yaml": texts[kind] for kind in KINDS}
        bundles[f"{ALL_BUNDLE}.yaml"] = "".join(texts[kind] for kind in ALL_ORDER)
        return Rendered({kind: by_kind.get(kind, []) for kind in KINDS}, bundles)
    return rendered
