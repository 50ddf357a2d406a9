"""Rendered text back to documents: what is validated is exactly what is shipped.

Parsing is the costliest step after rendering, so each cluster document's parse serves its
namespaced twin when the two texts differ only in the kind line; anything else, or any
doubt, is parsed on its own or as the whole stream. A build parses each document as the
rendering process gives it (``Twins``), while the next ones are still being rendered.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, Mapping, Sequence

from .errors import InputError
from .frozen import frozen
from .model import INSTANCETYPE_KINDS, PREFERENCE_KINDS
from .problems import Location
from .render.bundles import ALL_BUNDLE, ALL_ORDER, Rendered
from .source.documents import BundleDoc
from .source.yamlsrc import load_stream_fast


def _parse_one(text: str) -> Any | None:
    """The one document ``text`` is; None unless it is exactly one, written as a bundle's documents are."""
    if not (text.startswith("---\n") and text.endswith("\n")):
        return None
    one = load_stream_fast(text)
    return one[0] if len(one) == 1 else None


#: Each namespaced kind's cluster twin.
_CLUSTER_OF = {INSTANCETYPE_KINDS[1]: INSTANCETYPE_KINDS[0], PREFERENCE_KINDS[1]: PREFERENCE_KINDS[0]}


class Twins:
    """The rendered documents parsed one by one, as the rendering process gives them (pipeline.generate()), a
    cluster document's parse serving its namespaced twin.

    A namespaced document is reused only when its text is the cluster document's
    text to the byte but for the kind line; since parsing is deterministic, it
    then parses to the same object with the other kind. Anything else (retained
    objects in one kind only, a template that renders kinds differently) is
    parsed on its own. A text that is not exactly one document, or that does not
    parse, stops it (``whole`` is False): parse_rendered then parses the whole
    stream, and says what is wrong there. ``add`` never raises, so that a caller
    may hand it each text while the rest are still being rendered.

    Mutable on purpose: it fills as the texts come.
    """

    def __init__(self) -> None:
        self.by_kind: dict[str, list[Any]] = {kind: [] for kind in ALL_ORDER}
        self.whole = True
        self._cluster: dict[tuple[str, str], Any] = {}  # (kind, text) -> its parse

    def add(self, kind: str, text: str) -> None:
        if not self.whole:
            return
        try:
            doc = self._twin(kind, text)
            if doc is None:
                doc = _parse_one(text)
        except Exception:  # noqa: BLE001 - parse_rendered parses the whole stream and says what is wrong
            doc = None
        if doc is None or kind not in self.by_kind:
            self.whole = False
            return
        if kind not in _CLUSTER_OF:
            self._cluster[(kind, text)] = doc
        self.by_kind[kind].append(doc)

    def _twin(self, kind: str, text: str) -> Any | None:
        """The parse of ``text``'s cluster twin, as this kind's document; None where there is none."""
        cluster = _CLUSTER_OF.get(kind)
        if cluster is None:
            return None
        swap = (f"\nkind: {cluster}\n", f"\nkind: {kind}\n")
        original = text.replace(swap[1], swap[0], 1)
        if original == text or original.replace(*swap, 1) != text:
            return None
        twin = self._cluster.get((cluster, original))
        if not isinstance(twin, dict) or twin.get("kind") != cluster:  # none, or a document of another shape
            return None
        return {**twin, "kind": kind}

    def documents(self, rendered: Rendered) -> list[Any] | None:
        """Every document in the all-bundle's order, when each of ``rendered``'s texts was parsed here."""
        if not self.whole or any(len(self.by_kind[kind]) != len(rendered.by_kind[kind]) for kind in ALL_ORDER):
            return None
        return [doc for kind in ALL_ORDER for doc in self.by_kind[kind]]


def _parse_twins(rendered: Rendered) -> list[Any] | None:
    """Parse the cluster kinds, and reuse each parse for its namespaced twin; None: parse the whole stream."""
    twins = Twins()
    for kind in ALL_ORDER:
        for text in rendered.by_kind[kind]:
            twins.add(kind, text)
    return twins.documents(rendered)


@frozen
class Parsed:
    """The all-bundle's documents, and each kind's rendered texts when each is known to be one document.

    ``texts`` lets an output that lays documents out again (the kustomize tree) reuse
    their exact text instead of dumping them anew; it is empty when the stream had
    to be parsed as a whole, and such an output then dumps.
    """

    documents: tuple[BundleDoc, ...]
    texts: Mapping[str, Sequence[str]] = field(default_factory=dict)


def parse_back(rendered: Rendered) -> tuple[BundleDoc, ...]:
    """Parse the all-bundle's documents as a consumer will; it holds every other bundle's.

    Each cluster document is parsed once and serves its namespaced twin when the
    two texts differ only in the kind line; when in doubt the whole stream is parsed.
    """
    return parse_rendered(rendered).documents


def parse_rendered(rendered: Rendered, twins: Twins | None = None) -> Parsed:
    """parse_back's documents, with each kind's texts when each rendered text was one document.

    ``twins``: the texts already parsed as they were rendered, used where they are all there.
    """
    name = f"{ALL_BUNDLE}.yaml"
    try:
        parsed = twins.documents(rendered) if twins is not None else None
        if parsed is None:
            parsed = _parse_twins(rendered)
        one_each = parsed is not None
        if parsed is None:
            parsed = load_stream_fast(rendered.bundles[name])
    except InputError:  # a template produced text that is not YAML, or YAML citgen refuses
        load_stream_fast(rendered.bundles[name], f"rendered {name}")  # located in the whole bundle's text
        raise
    except Exception as exc:
        raise InputError.at(Location(name), f"rendered bundle is not valid YAML: {exc}") from None
    return Parsed(tuple(BundleDoc(name, i, data) for i, data in enumerate(parsed)),
                  rendered.by_kind if one_each else {})
