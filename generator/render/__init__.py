"""Render catalog objects to YAML text through the catalog's Jinja templates.

Every template goes through sandbox.py's one environment (a vendor's template
cannot reach Python internals, files or the environment; StrictUndefined, so a
misspelt variable is an error, not an empty string; trailing newlines kept),
rendered in the build's rendering process (process.py), which the operating
system bounds in time and memory. Every value from the data reaches the text
through the yaml filters, which quote and escape it, so no description or label
can change the structure of a document.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable, Sequence

from ..errors import InputError
from ..model import API_VERSION, CatalogObject
from ..problems import Location
from ..source.yamlsrc import iter_documents
from .process import Job, render, render_one, rendering, submit

__all__ = ["TEMPLATES", "Job", "Renderer", "render", "render_one", "rendering", "submit"]

TEMPLATES = {"instancetype": "instancetype.yaml.j2", "preference": "preference.yaml.j2"}


class Renderer:
    """Renders objects with the templates of ``template_dirs`` (earlier folders win)."""

    def __init__(self, template_dirs: Sequence[Path], display_prefix: str = "templates/"):
        self.dirs = list(template_dirs)
        self.prefix = display_prefix

    def _job(self, obj: CatalogObject, kind: str, labels: dict, annotations: dict) -> Job:
        variables = {"api_version": API_VERSION, "kind": kind, "name": obj.name, "labels": labels,
                     "annotations": annotations, "spec": obj.spec}
        return Job(TEMPLATES[obj.family], variables, f"{obj.name!r} as {kind}")

    def render(self, obj: CatalogObject, kind: str) -> str:
        return render(self.dirs, [self._job(obj, kind, dict(obj.labels), dict(obj.annotations))], self.prefix)[0]

    def _check_yaml(self, obj: CatalogObject, kind: str, text: str) -> None:
        """Refuse text that is not one YAML document of the right kind and name, naming the
        template: a value written without the yaml filters, broken indentation, an
        empty template or one that writes two documents is found here."""
        where = Location(self.prefix + TEMPLATES[obj.family])
        rendering = f"rendering {obj.name!r} as {kind}"
        try:  # the strict loader of catalog input: duplicate keys are refused, not silently merged
            docs = [d.data for d in iter_documents(text, "the text")]
        except InputError as exc:
            found = "; ".join(str(p) for p in exc.problems)
            raise InputError.at(where, f"{rendering} gave text that is not valid YAML ({found}); "
                                "pass values through the yaml_scalar or yaml_block filters") from None
        if len(docs) != 1 or not isinstance(docs[0], dict):
            got = f"{len(docs)} documents" if len(docs) != 1 else f"a {type(docs[0]).__name__}, not a mapping"
            raise InputError.at(where, f"{rendering} gave {got}; a template renders exactly one object")
        metadata = docs[0].get("metadata")
        name = metadata.get("name") if isinstance(metadata, dict) else None
        if docs[0].get("kind") != kind or name != obj.name:
            raise InputError.at(where, f"{rendering} gave an object of kind {docs[0].get('kind')!r} named "
                                f"{name!r}; write kind: {{{{ kind }}}} and name: {{{{ name | yaml_scalar }}}}")

    def render_all(self, objects: Iterable[CatalogObject]) -> dict[str, list[str]]:
        """Rendered text per kind, in the order given: one batch for the rendering process."""
        with rendering():
            return self.start_all(objects)()

    def start_all(self, objects: Iterable[CatalogObject]) -> Callable[..., dict[str, list[str]]]:
        """``render_all`` handed to the rendering process: calling the result waits for the texts, and gives
        each to ``each(kind, text)`` as it comes, where given.

        Must be called within ``rendering()``, whose child renders the batch meanwhile.
        """
        jobs: list[tuple[CatalogObject, str]] = []
        batch: list[Job] = []
        for obj in objects:
            labels, annotations = dict(obj.labels), dict(obj.annotations)  # the same values for every kind
            for kind in obj.kinds:
                jobs.append((obj, kind))
                batch.append(self._job(obj, kind, labels, annotations))
        texts = submit(self.dirs, batch, self.prefix)

        def by_kind(each: Callable[[str, str], None] | None = None) -> dict[str, list[str]]:
            out: dict[str, list[str]] = {}
            checked: set[tuple[str, str]] = set()
            given = None if each is None else (lambda number, text: each(jobs[number][1], text))
            for (obj, kind), text in zip(jobs, texts(given)):
                if (obj.family, kind) not in checked:  # the first of each is enough to catch a broken template
                    checked.add((obj.family, kind))
                    self._check_yaml(obj, kind, text)
                out.setdefault(kind, []).append(text)
            return out
        return by_kind
