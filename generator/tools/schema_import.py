"""Turn KubeVirt's OpenAPI (swagger 2.0) document into the JSON Schemas we validate against.

Upstream validates bundles with kubeconform and schemas fetched at build time; this
converter lets the project ship the schemas instead, so validation works offline and
its messages are ours. It keeps only what constrains a value (types, required fields,
enums, formats, nested definitions) and drops the prose, which is most of the bytes.

Three things are added on top of what the document says, each because the document
states the rule only in words or in Go code:

- strictness: an object that lists its properties accepts no others, the way
  ``kubeconform -strict`` reads a schema, so a misspelt field is an error rather than
  something the API server silently prunes;
- integer ranges for the ``int32``/``int64`` formats, which JSON Schema validators do
  not check on their own;
- the quantity grammar for ``resource.Quantity``, written in its description only.

The output is a pure function of the input document and the recorded KubeVirt
version: keys sorted, two-space indentation, a trailing newline.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any, Iterator, Mapping

from ..errors import CitgenError, InputError
from ..frozen import frozen
from ..problems import Location, Problem
from ..schemas import INTEGER_RANGES, METADATA_FILE, QUANTITY_PATTERN
from ..source.inputfiles import lookup, read_bytes
from ..source.jsonsrc import json_document
from ..write import record, umasked

DRAFT = "https://json-schema.org/draft/2020-12/schema"
QUANTITY_DEFINITION = "k8s.io.apimachinery.pkg.api.resource.Quantity"

#: Keywords carried over unchanged: they constrain values.
_KEPT = frozenset(
    {"enum", "format", "pattern", "minimum", "maximum", "minLength", "maxLength",
     "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties", "multipleOf"}
)
#: Keywords whose value must have a given JSON shape for the conversion to make sense.
_SHAPES: Mapping[str, type | tuple[type, ...]] = {
    "properties": dict, "required": list, "items": dict, "additionalProperties": (bool, dict),
    "allOf": list, "anyOf": list, "oneOf": list,
}
_SHAPE_NAMES = {"properties": "object", "required": "array", "items": "object",
                "additionalProperties": "object or boolean", "allOf": "array", "anyOf": "array",
                "oneOf": "array"}
#: Keywords dropped: prose, defaults and hints for generators and the API server.
_DROPPED = frozenset({"description", "default", "example", "title", "externalDocs"})


@frozen
class KindSource:
    """One kind we ship a schema for and the definition of the document it comes from."""

    kind: str
    api_version: str
    definition: str

    @property
    def file(self) -> str:
        """``<kind>_<version>.json``, lower case: kubeconform's usual naming for CRD schemas."""
        return f"{self.kind.lower()}_{self.api_version.rsplit('/', 1)[-1]}.json"


#: What the OpenAPI document is the source for: the VirtualMachine (``expand``) and, through
#: its ``$defs``, ObjectMeta. The instancetype and preference kinds come from each release's
#: CRDs instead (tools/crd_import.py), which say what the API server enforces.
KIND_SOURCES: tuple[KindSource, ...] = (
    KindSource("VirtualMachine", "kubevirt.io/v1", "v1.VirtualMachine"),
)


class SchemaSourceError(CitgenError):
    """The OpenAPI document cannot be read or lacks what the schemas are built from."""


def _fail(source: str, message: str) -> SchemaSourceError:
    return SchemaSourceError([Problem(Location(source), message)])


def load_openapi(path: Path) -> tuple[dict[str, Any], bytes]:
    """Read and parse the document; return it with its raw bytes (hashed into the metadata)."""
    name = str(path)
    try:
        found = lookup(path)
        if found is not None and stat.S_ISDIR(found.st_mode):
            raise _fail(name, "is a directory, expected KubeVirt's swagger.json")
        raw = read_bytes(path)
        # standard JSON, read as every input file is: not there, not a regular file, too large, NaN, all refused
        document = json_document(raw, name, "an OpenAPI document")
    except InputError as exc:
        raise SchemaSourceError(exc.problems) from None
    if not isinstance(document, dict) or not isinstance(document.get("definitions"), dict):
        raise _fail(name, "not an OpenAPI (swagger 2.0) document: it has no 'definitions' object")
    return document, raw


class _Converter:
    """Converts definitions on demand, collecting those reachable from the kinds' roots."""

    def __init__(self, source: str, definitions: Mapping[str, Any]):
        self.source = source
        self.definitions = definitions
        self.pending: list[str] = []

    def ref(self, target: str, where: str) -> dict[str, Any]:
        prefix = "#/definitions/"
        if not target.startswith(prefix) or target[len(prefix):] not in self.definitions:
            raise _fail(self.source, f"{where}: $ref {target!r} names no definition of the document")
        name = target[len(prefix):]
        self.pending.append(name)
        return {"$ref": f"#/$defs/{name}"}

    def definition(self, name: str) -> dict[str, Any]:
        schema = self.node(self.definitions[name], f"definitions.{name}")
        if name == QUANTITY_DEFINITION:
            schema["pattern"] = QUANTITY_PATTERN
        return schema

    def node(self, node: Any, where: str) -> dict[str, Any]:
        if not isinstance(node, dict):
            raise _fail(self.source, f"{where}: expected a schema object, got {type(node).__name__}")
        if "$ref" in node:  # swagger 2.0 ignores a $ref's siblings, and so do we
            return self.ref(node["$ref"], where)
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in _DROPPED or key.startswith("x-"):
                continue
            if key in _SHAPES and not isinstance(value, _SHAPES[key]):
                raise _fail(self.source, f"{where}: {key!r} must be a JSON {_SHAPE_NAMES[key]}")
            if key == "type":
                out["type"] = value
            elif key == "nullable":
                pass  # folded into "type" below
            elif key == "required":
                out["required"] = sorted(value)
            elif key == "properties":
                out["properties"] = {
                    prop: self.node(sub, f"{where}.{prop}") for prop, sub in sorted(value.items())
                }
            elif key == "additionalProperties":
                out[key] = value if isinstance(value, bool) else self.node(value, f"{where}.*")
            elif key == "items":
                out[key] = self.node(value, f"{where}[]")
            elif key in ("allOf", "anyOf", "oneOf"):
                out[key] = [self.node(sub, f"{where}.{key}[{i}]") for i, sub in enumerate(value)]
            elif key in _KEPT:
                out[key] = value
            else:
                raise _fail(self.source, f"{where}: unsupported schema keyword {key!r}; "
                                         "the converter needs to learn what it means")
        if "properties" in out and "additionalProperties" not in out:
            out["additionalProperties"] = False
        if out.get("format") == "int-or-string":
            out["type"] = ["integer", "string"]  # the document says string; the type takes both
        if out.get("type") == "integer" and out.get("format") in INTEGER_RANGES:
            low, high = INTEGER_RANGES[out["format"]]
            out.setdefault("minimum", low)
            out.setdefault("maximum", high)
        if node.get("nullable") is True and "type" in out:
            out["type"] = _with_null(out["type"])
        return out


def _with_null(kind: Any) -> list[str]:
    kinds = [kind] if isinstance(kind, str) else list(kind)
    return kinds if "null" in kinds else kinds + ["null"]


def convert_kind(document: Mapping[str, Any], spec: KindSource, source: str = "swagger.json") -> dict[str, Any]:
    """The JSON Schema of one kind: its definition with apiVersion and kind pinned, plus ``$defs``."""
    definitions = document["definitions"]
    if spec.definition not in definitions:
        raise _fail(source, f"definition {spec.definition!r} of {spec.kind} is missing from 'definitions'")
    converter = _Converter(source, definitions)
    root = converter.node(definitions[spec.definition], f"definitions.{spec.definition}")
    properties = root.setdefault("properties", {})
    properties["apiVersion"] = {"const": spec.api_version, "type": "string"}
    properties["kind"] = {"const": spec.kind, "type": "string"}
    root["required"] = sorted(set(root.get("required", [])) | {"apiVersion", "kind"})
    root.setdefault("additionalProperties", False)
    defs: dict[str, Any] = {}
    while converter.pending:
        name = converter.pending.pop()
        if name not in defs:
            defs[name] = converter.definition(name)
    _refuse_cycles(defs, source)
    schema = {"$schema": DRAFT, **root}
    if defs:
        schema["$defs"] = dict(sorted(defs.items()))
    return schema


def _refs(node: Any) -> Iterator[str]:
    """The definitions a converted schema node refers to, anywhere inside it."""
    stack = [node]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            target = value.get("$ref")
            if isinstance(target, str):
                yield target.rpartition("/")[2]
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)


def _refuse_cycles(defs: Mapping[str, Any], source: str) -> None:
    """A definition that refers to itself, through others or directly, is refused.

    A Kubernetes object's schema is a tree; a cycle would make every reader of the
    shipped schemas (the fields by path, the quantities) follow it for ever.
    """
    edges = {name: sorted(set(_refs(node)) & set(defs)) for name, node in defs.items()}
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    for start in sorted(edges):
        if state.get(start):
            continue
        path, stack = [start], [iter(edges[start])]
        state[start] = 1
        while stack:
            step = next(stack[-1], None)
            if step is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(step) == 1:
                loop = path[path.index(step):] + [step]
                raise _fail(source, f"definitions.{loop[0]}: $ref cycle {' -> '.join(loop)}; the schemas citgen "
                                    "ships are trees, and a cycle would be followed for ever")
            elif not state.get(step):
                state[step] = 1
                path.append(step)
                stack.append(iter(edges[step]))


def convert(document: Mapping[str, Any], raw: bytes, kubevirt_version: str | None = None,
            source: str = "swagger.json") -> dict[str, Any]:
    """Every shipped file by name: one schema per kind and the metadata that dates them."""
    files: dict[str, Any] = {spec.file: convert_kind(document, spec, source) for spec in KIND_SOURCES}
    info = document.get("info") if isinstance(document.get("info"), dict) else {}
    files[METADATA_FILE] = {
        "kubevirtVersion": kubevirt_version or info.get("version"),
        "source": {
            "document": "api/openapi-spec/swagger.json of kubevirt/kubevirt",
            "sha256": hashlib.sha256(raw).hexdigest(),
            "swagger": document.get("swagger"),
            "title": info.get("title"),
            "version": info.get("version"),
        },
        "kinds": {
            spec.kind: {"apiVersion": spec.api_version, "definition": spec.definition, "file": spec.file}
            for spec in KIND_SOURCES
        },
        "generatedBy": "citgen schema import",
    }
    return files


def render(value: Any) -> str:
    """The one text form of a shipped file, so regenerating is byte-for-byte stable."""
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_files(files: Mapping[str, Any], out_dir: Path) -> list[Path]:
    """Write each file atomically (a reader never sees half a schema); return the paths."""
    out_dir = Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _fail(str(out_dir), f"cannot create the output directory: {exc.strerror}") from None
    written: list[Path] = []
    for name in sorted(files):
        target = out_dir / name
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{name}.", dir=out_dir)
        except OSError as exc:
            raise _fail(str(target), f"cannot write it: {exc.strerror or exc}; it is unchanged") from None
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(render(files[name]).encode())
            os.chmod(tmp, umasked(0o666))  # mkstemp made it 0o600: a new file's mode under the umask
            os.replace(tmp, target)
            record(target)
        except OSError as exc:  # a full file system: this file as it was, the ones before it written
            Path(tmp).unlink(missing_ok=True)
            done = f"; {len(written)} of the {len(files)} files were written before it" if written else ""
            raise _fail(str(target), f"cannot write it: {exc.strerror or exc}; it is unchanged{done}") from None
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        written.append(target)
    return written


def import_schemas(path: Path, out_dir: Path, kubevirt_version: str | None = None) -> list[Path]:
    """Read the OpenAPI document at ``path`` and write every schema file into ``out_dir``."""
    document, raw = load_openapi(path)
    files = convert(document, raw, kubevirt_version, source=str(path))
    return write_files(files, out_dir)
