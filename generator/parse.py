"""Rendered text back to documents: what is validated is exactly what is shipped.

Parsing is the costliest step after rendering, so each cluster document's parse serves its
namespaced twin when the two texts differ only in the kind line; anything else, or any
doubt, is parsed on its own or as the whole stream.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from .errors import InputError
from .model import INSTANCETYPE_KINDS, PREFERENCE_KINDS
from .problems import Location
from .render.bundles import ALL_BUNDLE, ALL_ORDER, Rendered
from .source.documents import BundleDoc
from .source.yamlsrc import load_stream_fast


def _parse_each(texts: Sequence[str]) -> list[Any] | None:
    """Parse documents one by one; None unless each text is exactly one document."""
    parsed = []
    for text in texts:
        if not (text.startswith("---\n") and text.endswith("\n")):
            return None
        one = load_stream_fast(text)
        if len(one) != 1:
            return None
        parsed.append(one[0])
    return parsed


def _parse_twins(rendered: Rendered) -> list[Any] | None:
    """Parse the cluster kinds, and reuse each parse for its namespaced twin.

    A namespaced document is reused only when its text is the cluster document's
    text to the byte but for the kind line; since parsing is deterministic, it
    then parses to the same object with the other kind. Anything else (retained
    objects in one kind only, a template that renders kinds differently) is
    parsed on its own. None means "parse the whole stream instead".
    """
    out: dict[str, list[Any]] = {}
    for cluster, namespaced in (INSTANCETYPE_KINDS, PREFERENCE_KINDS):
        first = _parse_each(rendered.by_kind[cluster])
        if first is None:
            return None
        out[cluster] = first
        by_text = dict(zip(rendered.by_kind[cluster], first))
        swap = (f"\nkind: {cluster}\n", f"\nkind: {namespaced}\n")
        twins = []
        for text in rendered.by_kind[namespaced]:
            original = text.replace(swap[1], swap[0], 1)
            twin = by_text.get(original) if original != text and original.replace(*swap, 1) == text else None
            if not isinstance(twin, dict) or twin.get("kind") != cluster:  # none, or a document of another shape
                alone = _parse_each([text])
                if alone is None:
                    return None
                twins.append(alone[0])
            else:
                twins.append({**twin, "kind": namespaced})
        out[namespaced] = twins
    return [doc for kind in ALL_ORDER for doc in out[kind]]


@dataclass(frozen=True)
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


def parse_rendered(rendered: Rendered) -> Parsed:
    """parse_back's documents, with each kind's texts when each rendered text was one document."""
    name = f"{ALL_BUNDLE}.yaml"
    try:
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
