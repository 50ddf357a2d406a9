"""Render catalog objects to YAML text through the catalog's Jinja templates.

The environment comes from sandbox.py, the one factory every template goes
through: sandboxed and bounded (a vendor's template cannot reach Python
internals, files or the environment, nor run away with time or memory),
StrictUndefined (a misspelt variable is an error, not an empty string),
trailing newlines kept. Every value from the data reaches the text through the
yaml filters, which quote and escape it, so no description or label can change
the structure of a document.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Sequence

import jinja2

from ..errors import InputError
from ..model import API_VERSION, CatalogObject
from ..problems import Location
from ..source.yamlsrc import iter_documents
from .sandbox import environment, template_error

TEMPLATES = {"instancetype": "instancetype.yaml.j2", "preference": "preference.yaml.j2"}


class Renderer:
    """Renders objects with templates compiled once per build."""

    def __init__(self, template_dirs: Sequence[Path], display_prefix: str = "templates/"):
        self.env = environment(template_dirs)
        self.prefix = display_prefix
        self._compiled: dict[str, jinja2.Template] = {}
        self._memo: dict[tuple, tuple[Any, str]] = {}
        for name in ("yaml_block", "yaml_scalar"):
            self.env.filters[name] = self._remembering(name, self.env.filters[name])

    def _remembering(self, name: str, dump: Any) -> Any:
        """The filter ``dump``, remembering its text for each value while one object is rendered.

        Each object is rendered once per kind from the very same values, so dumping
        them again for the second kind was half of all rendering. An entry holds its
        value, so the id it is keyed by cannot be reused while it is remembered, and
        render_all forgets everything after each object.
        """
        memo = self._memo

        def remembered(value: Any, *args: Any, **kwargs: Any) -> str:
            key = (name, id(value), args, tuple(sorted(kwargs.items())))
            hit = memo.get(key)
            if hit is not None and hit[0] is value:
                return hit[1]
            text = dump(value, *args, **kwargs)
            memo[key] = (value, text)
            return text

        return remembered

    def template(self, family: str) -> jinja2.Template:
        name = TEMPLATES[family]
        found = self._compiled.get(name)
        if found is None:
            try:
                found = self._compiled[name] = self.env.get_template(name)
            except jinja2.TemplateNotFound:
                raise InputError.at(Location(self.prefix + name), "template not found") from None
            except jinja2.TemplateSyntaxError as exc:
                raise template_error(exc, name, self.env, self.prefix + name) from None
            except UnicodeDecodeError as exc:
                raise InputError.at(Location(self.prefix + name),
                                    f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        return found

    def render(self, obj: CatalogObject, kind: str) -> str:
        return self._render(obj, kind, dict(obj.labels), dict(obj.annotations))

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

    def _render(self, obj: CatalogObject, kind: str, labels: dict, annotations: dict) -> str:
        template = self.template(obj.family)
        try:
            return template.render(
                api_version=API_VERSION,
                kind=kind,
                name=obj.name,
                labels=labels,
                annotations=annotations,
                spec=obj.spec,
            )
        except Exception as exc:  # any failure inside a template is the template's fault
            name = TEMPLATES[obj.family]
            raise template_error(exc, name, self.env, self.prefix + name) from None

    def render_all(self, objects: Iterable[CatalogObject]) -> dict[str, list[str]]:
        """Rendered text per kind, in the order given."""
        out: dict[str, list[str]] = {}
        checked: set[tuple[str, str]] = set()
        for obj in objects:
            labels, annotations = dict(obj.labels), dict(obj.annotations)  # the same values for every kind
            for kind in obj.kinds:
                text = self._render(obj, kind, labels, annotations)
                if (obj.family, kind) not in checked:  # the first of each is enough to catch a broken template
                    checked.add((obj.family, kind))
                    self._check_yaml(obj, kind, text)
                out.setdefault(kind, []).append(text)
            self._memo.clear()
        return out
