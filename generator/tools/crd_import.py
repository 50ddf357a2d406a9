"""Turn the CRD schemas of a KubeVirt release into the JSON Schemas citgen judges that release by.

virt-operator installs the four instancetype.kubevirt.io CRDs with an
``openAPIV3Schema`` each, and the API server checks every object against it. A
release file (``../shared/kubevirt/crds/v1.8.4.json``: the release's tag, commit and
the four schemas, taken from virt-operator's ``validations_generated.go``) becomes
``generator/schemas/kubevirt/v1.8.json``: one file per minor release, since a minor
release's patches install the same schemas, recorded with the tag and commit it
was imported from.

The conversion keeps what the API server enforces and nothing else:

- **strict field validation**, kubectl's default: these schemas carry no
  ``x-kubernetes-preserve-unknown-fields``, so a field an object's schema does not
  list is refused (``additionalProperties: false``), in an empty struct too;
- ``type``, ``required``, ``minimum``/``maximum``, ``pattern``, ``items`` and
  ``additionalProperties`` as written;
- ``x-kubernetes-int-or-string`` (an integer or a string) as the type list it means.
  Where its pattern is the quantity grammar, it becomes the grammar citgen's own
  quantity parser uses (``schemas.QUANTITY_PATTERN``): a text the CRD's wider
  pattern lets through is refused by resource.Quantity when the webhook decodes it;
- ``format`` is kept as a note and not turned into a range: the API server checks
  formats of strings only. That an int32 or uint32 field holds no larger number is
  the admission webhook's decoding, a rule of validate/rules/ (``go-types``);
- ``metadata`` stays ``{"type": "object"}``: the API server checks it as
  ObjectMeta, and generator/schemas/ composes that schema in when it loads a release.

Descriptions and list-type hints change nothing an object may hold and are dropped.
The output is a pure function of the input: keys sorted, two-space indentation.
"""

from __future__ import annotations

import fnmatch
import json
import re
import stat
from pathlib import Path
from typing import Any, Mapping

from ..errors import InputError
from ..problems import Location, Problem
from ..quantity import MAX_DIGITS
from ..schemas import QUANTITY_PATTERN
from ..schemas.releases import RELEASE_FILES, minor_of
from ..source.inputfiles import folder_names, lookup, read_bytes
from ..source.jsonsrc import json_document
from ..schemas.fields import FIELDS_FILE, folder_index
from .schema_import import DRAFT, SchemaSourceError, write_files

#: The kinds a release file must hold, each a CRD of instancetype.kubevirt.io.
KINDS = ("VirtualMachineClusterInstancetype", "VirtualMachineClusterPreference",
         "VirtualMachineInstancetype", "VirtualMachinePreference")
#: Kubernetes' quantity pattern as controller-gen writes it into CRDs.
CRD_QUANTITY_PATTERN = (r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?"
                        r"(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$")
#: A release tag, its numbers as long as any number citgen reads (schemas.releases reads them alike).
_TAG = re.compile(rf"v[0-9]{{1,{MAX_DIGITS}}}\.[0-9]{{1,{MAX_DIGITS}}}\.[0-9]{{1,{MAX_DIGITS}}}")
#: What controller-gen writes beside x-kubernetes-int-or-string, and nothing else is taken for it.
_INT_OR_STRING = [{"type": "integer"}, {"type": "string"}]
_DROPPED = frozenset({"description", "x-kubernetes-list-type", "x-kubernetes-map-type", "x-kubernetes-list-map-keys"})
#: Nesting deeper than any schema of a Kubernetes object; a document deeper is refused, not recursed into.
MAX_DEPTH = 64


def _fail(source: str, message: str) -> SchemaSourceError:
    return SchemaSourceError([Problem(Location(source), message)])


def load_release(path: Path) -> dict[str, Any]:
    """The release file at ``path``, checked for the fields the conversion reads."""
    name = str(path)
    try:
        document = json_document(read_bytes(path), name, "a schema file")
    except InputError as exc:
        raise SchemaSourceError(exc.problems) from None
    if not isinstance(document, dict):
        raise _fail(name, "expected a KubeVirt release's CRD schemas (an object with kubevirt, commit and schemas)")
    tag, commit, schemas = document.get("kubevirt"), document.get("commit"), document.get("schemas")
    if not isinstance(tag, str) or not _TAG.fullmatch(tag):
        got = f"{tag[:40]!r}" if isinstance(tag, str) else "nothing" if tag is None else \
            f"{json.dumps(tag)[:40]}, which is no text"
        raise _fail(name, f"'kubevirt': expected a release tag such as v1.8.4, got {got}")
    if not isinstance(commit, str) or not re.fullmatch(r"[0-9a-f]{7,40}", commit):
        raise _fail(name, "'commit': expected the hexadecimal commit the schemas come from")
    if document.get("source") is not None and not isinstance(document["source"], str):
        raise _fail(name, "'source': expected the path of the file the schemas were taken from")
    if not isinstance(schemas, dict) or sorted(schemas) != sorted(KINDS):
        raise _fail(name, f"'schemas': expected exactly the kinds {', '.join(KINDS)}")
    return document


class _Converter:
    def __init__(self, source: str):
        self.source = source

    def node(self, node: Any, where: str, depth: int = 0) -> dict[str, Any]:
        if not isinstance(node, dict):
            raise _fail(self.source, f"{where}: expected a schema object, got {type(node).__name__}")
        if depth > MAX_DEPTH:
            raise _fail(self.source, f"{where}: schemas nested more than {MAX_DEPTH} levels deep")
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in _DROPPED:
                continue
            if key == "type" and isinstance(value, str):
                out["type"] = value
            elif key == "required" and isinstance(value, list) and all(isinstance(v, str) for v in value):
                out["required"] = sorted(value)
            elif key == "properties" and isinstance(value, dict):
                out["properties"] = {prop: self.node(sub, f"{where}.{prop}", depth + 1)
                                     for prop, sub in sorted(value.items())}
            elif key == "items":
                out["items"] = self.node(value, f"{where}[]", depth + 1)
            elif key == "additionalProperties":
                out[key] = value if isinstance(value, bool) else self.node(value, f"{where}.*", depth + 1)
            elif key == "pattern" and isinstance(value, str):
                out["pattern"] = QUANTITY_PATTERN if value == CRD_QUANTITY_PATTERN else value
            elif key == "x-kubernetes-int-or-string" and value is True:
                pass  # its type list is set below, whatever order the keys come in
            elif key == "anyOf" and node.get("x-kubernetes-int-or-string") is True and value == _INT_OR_STRING:
                pass  # the two types it lists are the type list set below
            elif key in ("minimum", "maximum") and type(value) in (int, float):
                out[key] = value
            elif key == "format" and isinstance(value, str):
                out[key] = value
            else:
                raise _fail(self.source, f"{where}: unsupported schema keyword {key!r}; "
                                         "the converter needs to learn what it means")
        if node.get("x-kubernetes-int-or-string") is True:
            out["type"] = ["integer", "string"]
        if out.get("type") == "object" and "additionalProperties" not in out:
            out.setdefault("properties", {})
            out["additionalProperties"] = False  # strict field validation: only the fields listed
        return out

    def kind(self, kind: str, api_version: str, schema: Any) -> dict[str, Any]:
        root = self.node(schema, kind)
        properties = root.setdefault("properties", {})
        properties["apiVersion"] = {"const": api_version, "type": "string"}
        properties["kind"] = {"const": kind, "type": "string"}
        properties["metadata"] = {"type": "object"}  # ObjectMeta, composed in by generator/schemas
        root["required"] = sorted(set(root.get("required", [])) | {"apiVersion", "kind"})
        return {"$schema": DRAFT, **root}


def convert_release(document: Mapping[str, Any], source: str) -> dict[str, Any]:
    """The shipped file of one release: where it comes from, and each kind's JSON Schema."""
    api_version = document.get("apiVersion")
    if not isinstance(api_version, str) or not api_version.startswith("instancetype.kubevirt.io/"):
        raise _fail(source, "'apiVersion': expected instancetype.kubevirt.io/<version>")
    converter = _Converter(source)
    return {
        "apiVersion": api_version,
        "commit": document["commit"],
        "generatedBy": "citgen schema import",
        "kubevirt": document["kubevirt"],
        "kinds": {kind: converter.kind(kind, api_version, document["schemas"][kind]) for kind in sorted(KINDS)},
        "source": f"{document.get('source') or 'virt-operator CRDs'} of kubevirt/kubevirt",
    }


def release_files(paths: list[Path]) -> dict[str, Any]:
    """Every release file among ``paths`` converted, by its shipped name; the newest patch of a minor wins."""
    chosen: dict[str, tuple[tuple[int, ...], str, Any]] = {}
    for path in paths:
        document = load_release(path)
        tag = document["kubevirt"]
        minor = minor_of(tag)
        patch = tuple(int(p) for p in tag[1:].split("."))
        if minor not in chosen or patch > chosen[minor][0]:
            chosen[minor] = (patch, str(path), document)
    return {f"{minor}.json": convert_release(document, source)
            for minor, (_, source, document) in sorted(chosen.items())}


def import_releases(path: Path, out_dir: Path) -> list[Path]:
    """Import one release file, or every ``v*.json`` of a folder, into ``out_dir``/kubevirt."""
    path = Path(path)
    found = lookup(path)
    if found is not None and stat.S_ISDIR(found.st_mode):  # every release file of the folder, or it is refused
        paths = [path / name for name in folder_names(path, str(path), catalog=False)
                 if fnmatch.fnmatchcase(name, "v*.json")]
    else:
        paths = [path]
    if not paths:
        raise _fail(str(path), "holds no release file (v1.8.4.json and the like)")
    written = write_files(release_files(paths), Path(out_dir) / RELEASE_FILES)
    # the index of every release's fields, of all the release files there now (schemas/fields.py)
    return written + write_files({FIELDS_FILE: folder_index(Path(out_dir) / RELEASE_FILES)}, Path(out_dir))
