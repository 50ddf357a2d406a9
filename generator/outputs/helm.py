"""The Helm chart: the catalog as a chart whose values pick kinds, series, sizes and preferences.

Two kinds of files meet here and never mix. Helm's own templates (Go
templates full of ``{{ }}``) are static files under ``templates/helm/chart/``,
copied as they are (text read as every input file is: no byte-order mark, LF line
ends). What belongs to one build is generated: Chart.yaml,
values.yaml and README.md from Jinja templates (``templates/helm/*.j2``), the
values schema from the catalog's names, and ``catalog/objects.json``, the
objects the Go templates read with ``.Files.Get | fromJson``. The objects are
the bundles' documents parsed back, so default values render exactly the
all-bundle. ``catalog/kubevirt.json`` holds every KubeVirt release as its
differences from those objects (releases.py): the objects it leaves out, and
the JSON-patch operations that turn each object it changes into the document
``citgen build --kubevirt`` writes; the value ``kubevirt.version`` picks one.
The README's table of values is read off the rendered values.yaml (defaults)
and the schema (types, descriptions, accepted names), so it cannot disagree
with either.

Chart versions must be SemVer 2; catalog versions are tags like ``v1.8.0-dev``.
:func:`chart_version` maps one to the other (see its docstring); appVersion
keeps the catalog version as written.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path, PurePosixPath
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from .. import escape
from ..errors import InputError
from ..load.overlays import RESERVED_ANNOTATIONS
from ..model import CLUSTER_KINDS, LABEL_PREFIX, CatalogObject, label
from ..objectmeta import LABEL_KEY_PATTERN, QUALIFIED_NAME_MAX, SUBDOMAIN_MAX
from ..problems import Location
from ..render import Job, submit
from ..source.inputfiles import folder_files, read_file
from ..source.yamlsrc import load_stream_fast
from . import policy
from .context import OutputContext
from .kustomize import template_dirs
from .releases import Changed, Op, ReleaseDelta, build_deltas, documents_by_key
from .tables import markdown_table

CHART = "common-instancetypes"
ROOT = f"helm/{CHART}"
STATIC = "helm/chart"  # inside a templates directory: copied verbatim
RENDERED = {"Chart.yaml": "helm/Chart.yaml.j2", "values.yaml": "helm/values.yaml.j2"}
README_TEMPLATE = "helm/README.md.j2"  # rendered after values.yaml, whose defaults it lists
DATA_FILE = "catalog/objects.json"
RELEASES_FILE = "catalog/kubevirt.json"
FAMILY_KEY = {"instancetype": "instancetypes", "preference": "preferences"}

_SEMVER = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?"
    r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$")
_NUMERIC_HEAD = re.compile(r"^(\d+)(?:\.(\d+))?(?:\.(\d+))?(.*)$")
#: A label value as Kubernetes accepts it (empty or 63 characters, alphanumeric at both ends).
LABEL_VALUE = r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$"


def _identifiers(text: str) -> list[str]:
    """Dot-separated SemVer pre-release identifiers made of what ``text`` holds."""
    out = []
    for part in re.split(r"[.+]", text):
        part = re.sub(r"[^0-9A-Za-z-]+", "-", part).strip("-")
        if part.isdigit():
            part = str(int(part))  # numeric identifiers have no leading zeros
        if part:
            out.append(part)
    return out


def chart_version(version: str) -> str:
    """The SemVer 2 chart version for a catalog version.

    ``v1.8.0`` -> ``1.8.0`` and ``v1.8.0-dev`` -> ``1.8.0-dev`` (a leading ``v``
    is dropped; ``-dev`` is a pre-release, so Helm repositories need
    ``--devel`` to offer it). Missing minor or patch numbers become 0
    (``v2`` -> ``2.0.0``) and whatever follows the numbers becomes the
    pre-release (``v1.8rc1`` -> ``1.8.0-rc1``). A version with no leading
    number is a pre-release of 0.0.0 (``main`` -> ``0.0.0-main``).
    """
    text = version[1:] if version[:1] in ("v", "V") else version
    if _SEMVER.fullmatch(text):
        return text
    found = _NUMERIC_HEAD.match(text)
    if found:
        core = ".".join(str(int(n or 0)) for n in found.group(1, 2, 3))
        rest = found.group(4)
    else:
        core, rest = "0.0.0", version
    identifiers = _identifiers(rest)
    result = f"{core}-{'.'.join(identifiers)}" if identifiers else core
    return result if _SEMVER.fullmatch(result) else core


def static_files(dirs: Sequence[Path]) -> dict[str, bytes]:
    """Helm's own chart files as they are (text without what an editor adds); a catalog's copy of a file wins."""
    files: dict[str, bytes] = {}
    for base in reversed(dirs):
        root = base / STATIC
        for relative in folder_files(root, f"templates/{STATIC}", within=base):  # a folder unread is refused
            files[relative] = read_file(root / relative, f"templates/{STATIC}/{relative}", within=base)
    if "templates/catalog.yaml" not in files:
        raise InputError.at(Location(f"templates/{STATIC}/templates/catalog.yaml"), "Helm chart template not found")
    return files


def _documents(ctx: OutputContext) -> dict[tuple[str, str], dict]:
    """The all-bundle parsed back, by (kind, name): what the chart renders is what is shipped."""
    return documents_by_key(ctx)


def _entry(obj: CatalogObject, documents: Mapping[tuple[str, str], dict]) -> dict[str, Any]:
    """One object as the chart's templates read it: what values select on, and its document."""
    scopes = ["cluster" if kind in CLUSTER_KINDS else "namespaced" for kind in obj.kinds]
    document = dict(documents[(obj.kinds[0], obj.name)])
    document.pop("kind", None)  # the template sets the kind it renders
    entry: dict[str, Any] = {"name": obj.name}
    if obj.family == "instancetype":
        head, _, size = obj.name.partition(".")
        entry.update(group=obj.group, series=head, size=size)
    else:
        entry.update(family=obj.group)
    entry.update(deprecated=obj.labels.get(label("deprecated")) == "true", kinds=scopes, document=document)
    return entry


def gpu_device_name(ctx: OutputContext) -> str | None:
    """The GPU device the objects ask for when they all ask for one; None when none asks for a GPU.

    With several devices in one build there is no single default to show, so
    the value is empty and the chart leaves every device as built. A chart
    without GPU instancetypes (GN is built only with a GPU device) has no
    ``gpu`` value at all: it would advertise a series the chart does not hold.
    """
    names = {gpu.get("deviceName") for o in ctx.objects for gpu in (o.spec.get("gpus") or [])
             if isinstance(gpu, Mapping)}
    if not names:
        return None
    return str(names.pop()) if len(names) == 1 else ""


def chart_data(ctx: OutputContext) -> dict[str, Any]:
    """``catalog/objects.json``: the objects per family, in bundle order, and what they were built with."""
    documents = _documents(ctx)
    data: dict[str, Any] = {"built": {"vendor": ctx.catalog.settings.vendor,
                                      "gpuDeviceName": gpu_device_name(ctx) or ""}}
    for family, key in FAMILY_KEY.items():
        data[key] = [_entry(o, documents) for o in ctx.objects if o.family == family]
    return data


def releases_data(deltas: Sequence[ReleaseDelta]) -> dict[str, Any]:
    """``catalog/kubevirt.json``: each release as the objects it leaves out and the operations on those it changes.

    Per family (names are unique within one), ``leftOut`` lists names and each
    changed object's name maps to its operations, each ``{"op", "path",
    "value"}`` with ``path`` the keys from the document's root (the chart's
    template walks them; JSON pointers would need parsing there). A release
    changes an object's kinds alike, so the operations of its first kind serve.
    """
    changes: dict[str, Any] = {}
    made: dict[int, tuple[Changed, list[dict[str, Any]]]] = {}  # one list per Changed, shared by the releases

    def operations(change: Changed) -> list[dict[str, Any]]:
        found = made.get(id(change))
        if found is None:
            found = made[id(change)] = (change, [_chart_op(op) for op in change.ops[change.obj.kinds[0]]])
        return found[1]

    for delta in deltas:
        left = {key: [o.name for o in delta.left_out if o.family == family] for family, key in FAMILY_KEY.items()}
        entry: dict[str, Any] = {"leftOut": left}
        for family, key in FAMILY_KEY.items():
            entry[key] = {c.obj.name: operations(c) for c in delta.changed if c.obj.family == family}
        changes[str(delta.release)] = entry
    return {"newest": str(deltas[-1].release), "releases": [str(d.release) for d in deltas], "changes": changes}


def _chart_op(op: Op) -> dict[str, Any]:
    out: dict[str, Any] = {"op": op.op, "path": list(op.path)}
    if op.op != "remove":
        out["value"] = op.value
    return out


def _dump_releases(data: Mapping[str, Any]) -> bytes:
    """Like _dump_data: one release's left-out names a line, one changed object a line."""

    def compact(value: Any) -> str:
        return escape.json_text(value, separators=(",", ":"))

    lines: dict[tuple[str, int], tuple[Any, str]] = {}  # releases that change an object alike share its operations

    def line(name: str, ops: Any) -> str:
        found = lines.get((name, id(ops)))
        if found is None or found[0] is not ops:
            found = lines[(name, id(ops))] = (ops, f"{compact(name)}:{compact(ops)}")
        return found[1]

    releases = []
    for release, entry in data["changes"].items():
        parts = [f"{compact('leftOut')}:{compact(entry['leftOut'])}"]
        for key in FAMILY_KEY.values():
            objects = ",\n".join(line(name, ops) for name, ops in entry[key].items())
            parts.append(f"{compact(key)}:{{\n{objects}\n}}" if objects else f"{compact(key)}:{{}}")
        releases.append(f"{compact(release)}:{{\n" + ",\n".join(parts) + "\n}")
    head = [f"{compact(key)}:{compact(value)}" for key, value in data.items() if key != "changes"]
    body = ",\n".join(releases)
    return ("{\n" + ",\n".join(head + [f"{compact('changes')}:{{\n{body}\n}}"]) + "\n}\n").encode()


def _names(ctx: OutputContext) -> dict[str, list[str]]:
    """What values may name: series (prefix and versioned name), sizes, preferences and families."""
    instancetypes = [o for o in ctx.objects if o.family == "instancetype"]
    preferences = [o for o in ctx.objects if o.family == "preference"]
    series: dict[str, set[str]] = {}
    for obj in instancetypes:
        series.setdefault(obj.group, set()).add(obj.name.partition(".")[0])
    return {
        "series_help": [f"{g} ({', '.join(sorted(s))})" for g, s in sorted(series.items())],
        "series": sorted(set(series) | {n for s in series.values() for n in s}),
        "sizes": sorted({o.name.partition(".")[2] for o in instancetypes}, key=_size_order(ctx)),
        "families": sorted({o.group for o in preferences}),
        "preferences": sorted({o.group for o in preferences} | {o.name for o in preferences}),
    }


def _size_order(ctx: OutputContext):
    """Smallest first, as the size matrices list them; a variant (``large1gi``) right after its size."""
    known = [s.name for m in ctx.catalog.matrices.values() for s in m.sizes]

    def key(size: str) -> tuple[int, int, str]:
        bases = [i for i, name in enumerate(known) if size.startswith(name)]
        best = max(bases, key=lambda i: len(known[i]), default=len(known))
        return (best, len(size), size)

    return key


def _string_list(names: Iterable[str]) -> dict[str, Any]:
    return {"type": "array", "uniqueItems": True, "items": {"type": "string", "enum": list(names)}}


#: The lengths LABEL_KEY_PATTERN leaves out: a prefix of at most 253 characters, a name of at most 63.
_KEY_LENGTHS = rf"^([^/]{{1,{SUBDOMAIN_MAX}}}/)?[^/]{{1,{QUALIFIED_NAME_MAX}}}$"


#: What Helm itself writes on every object it installs, to know the release that owns it:
#: a value setting these would take the objects away from their release.
HELM_OWNED = {
    "labels": ("app.kubernetes.io/managed-by",),
    "annotations": ("meta.helm.sh/release-name", "meta.helm.sh/release-namespace"),
}


def _metadata_map(section: str, value: dict[str, Any]) -> dict[str, Any]:
    """Extra ``labels`` or ``annotations``: keys as the API server accepts them, none the catalog owns.

    The keys the catalog owns are the ones an overlay may not set either
    (load/overlays.py): everything under instancetype.kubevirt.io/, whose labels
    describe each object's spec, and the annotations the catalog writes from
    its own settings (display names, provider, icon, tags); and, in a chart,
    the keys by which Helm records which release owns each object. A schema
    of ``false`` refuses them; Helm names the key in its message.
    """
    # The API server reads an annotation key without regard to case (ValidateAnnotations).
    key_pattern = LABEL_KEY_PATTERN if section == "labels" else "(?i)" + LABEL_KEY_PATTERN
    owned = dict.fromkeys(HELM_OWNED[section], False)
    if section == "annotations":
        owned.update(dict.fromkeys(RESERVED_ANNOTATIONS, False))
    owned = dict(sorted(owned.items()))
    return {
        "type": "object",
        "propertyNames": {"type": "string", "allOf": [{"pattern": key_pattern},
                                                      {"pattern": _KEY_LENGTHS}]},
        "properties": owned,
        "patternProperties": {"^" + re.escape(LABEL_PREFIX): False},
        "additionalProperties": value,
    }


#: What each value does, by its path: the schema's ``description`` (editors and
#: ``helm show`` readers see it) and the chart README's table both come from here.
DESCRIPTIONS = {
    "global": "Helm's values shared between a parent chart and its subcharts; this chart reads none of them.",
    "kinds.cluster": "Install VirtualMachineClusterInstancetype and VirtualMachineClusterPreference objects "
                     "(cluster-wide).",
    "kinds.namespaced": "Install VirtualMachineInstancetype and VirtualMachinePreference objects, in the "
                        "release namespace.",
    "kubevirt.version": "The KubeVirt release to install the objects for, as citgen build --kubevirt writes them: "
                        "fields it lacks left out or in its older spelling, objects it cannot hold left out. "
                        "v1.8, 1.8 and v1.8.4 all mean v1.8 (quote it in a values file); empty means the newest. "
                        "Releases: {releases}.",
    "instancetypes.enabled": "false installs no instancetype of either kind.",
    "instancetypes.series": "Series to install, by prefix (u) or versioned name (u1); empty installs all.",
    "instancetypes.excludeSeries": "Series never to install, same names.",
    "instancetypes.sizes": "Sizes to install: the part of a name after the dot (u1.2xlarge -> 2xlarge; a "
                           "variant such as cx1.2xlarge1gi is size 2xlarge1gi); empty installs all.",
    "instancetypes.excludeSizes": "Sizes never to install.",
    "preferences.enabled": "false installs no preference of either kind.",
    "preferences.include": "Preferences to install, by name (rhel.9) or family (rhel); empty installs all.",
    "preferences.exclude": "Preferences never to install, by name or family.",
    "vendor": "The instancetype.kubevirt.io/vendor label on every object: who ships the catalog.",
    "labels": "Extra labels on every object; they win over the catalog's extra labels. Keys under "
              "instancetype.kubevirt.io/ and app.kubernetes.io/managed-by are refused.",
    "annotations": "Extra annotations on every object; they win over the catalog's extra annotations. Keys under "
                   "instancetype.kubevirt.io/, the annotations the catalog writes itself and Helm's release "
                   "annotations are refused.",
    "keepDeprecated": "Keep objects labelled instancetype.kubevirt.io/deprecated: \"true\" (for the VMs that "
                      "still use them); false leaves them out.",
    "gpu.deviceName": "The device every GPU instancetype (spec.gpus) asks for.",
    "policy.enabled": "Install the admission policy: Kubernetes (1.30 or later) warns about VMs, VM pools and "
                      "inference labels naming deprecated or retired instancetypes and preferences. Rendered only "
                      "where the cluster serves admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy.",
    "policy.retired": "What a VM or VM pool naming a retired instancetype or preference gets: Warn or Deny.",
}


def _describe(schema: dict[str, Any], releases: Sequence[Any], path: str = "") -> dict[str, Any]:
    """``schema`` with each property's description from DESCRIPTIONS added, recursively."""
    for key, sub in (schema.get("properties") or {}).items():
        if isinstance(sub, dict):
            where = f"{path}{key}"
            if where in DESCRIPTIONS:
                sub["description"] = DESCRIPTIONS[where].replace("{releases}", ", ".join(map(str, releases)))
            _describe(sub, releases, where + ".")
    return schema


def values_schema(ctx: OutputContext) -> dict[str, Any]:
    """values.schema.json: every value typed and described, every name checked against what the catalog has."""
    names = _names(ctx)
    device = gpu_device_name(ctx)

    def closed(properties: dict[str, Any]) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": False, "required": sorted(properties),
                "properties": properties}

    schema: dict[str, Any] = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": f"Values of the {CHART} chart",
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "global": {"type": "object"},
            "kinds": closed({"cluster": {"type": "boolean"}, "namespaced": {"type": "boolean"}}),
            # Any text: the chart's template refuses a release it has no objects for, naming those it has.
            "kubevirt": closed({"version": {"type": "string"}}),
            "instancetypes": closed({
                "enabled": {"type": "boolean"},
                "series": _string_list(names["series"]),
                "excludeSeries": _string_list(names["series"]),
                "sizes": _string_list(names["sizes"]),
                "excludeSizes": _string_list(names["sizes"]),
            }),
            "preferences": closed({
                "enabled": {"type": "boolean"},
                "include": _string_list(names["preferences"]),
                "exclude": _string_list(names["preferences"]),
            }),
            "vendor": {"type": "string", "minLength": 1, "maxLength": 63, "pattern": LABEL_VALUE},
            "labels": _metadata_map("labels", {"type": "string", "maxLength": 63, "pattern": LABEL_VALUE}),
            "annotations": _metadata_map("annotations", {"type": "string"}),
            "keepDeprecated": {"type": "boolean"},
        },
    }
    if device is not None:  # only a chart with GPU instancetypes has a device to choose
        # Empty only when the build had no single device to show (and keeps every one as built).
        schema["properties"]["gpu"] = closed({"deviceName": {"type": "string", "minLength": 1 if device else 0}})
    if ctx.policy is not None:  # only a chart built with the policy has it to turn on
        schema["properties"]["policy"] = json.loads(json.dumps(policy.CHART_SCHEMA))
    return _describe(schema, ctx.releases)


def _is_group(schema: Mapping[str, Any]) -> bool:
    """A closed object of named values (``kinds``), as opposed to a value that is itself a map (``labels``)."""
    return schema.get("type") == "object" and schema.get("additionalProperties") is False


def _type_text(schema: Mapping[str, Any]) -> str:
    kind = schema.get("type")
    if kind == "array":
        items = schema.get("items") or {}
        return "list of names" if "enum" in items else f"list of {items.get('type', 'value')}s"
    if kind == "object":
        extra = schema.get("additionalProperties")
        return f"map of {extra['type']}s" if isinstance(extra, Mapping) and "type" in extra else "map"
    return str(kind)


def _show(value: Any) -> str:
    """A default as a user writes it in a values file (JSON is YAML): ``true``, ``[]``, ``"kubevirt.io"``."""
    return escape.markdown_code(json.dumps(value, ensure_ascii=False))


def _walk_values(properties: Mapping[str, Any], defaults: Mapping[str, Any], prefix: str,
                 rows: list[list[str]], names: dict[tuple, list[str]]) -> None:
    """Adds a row per value under ``prefix``, and each list of names to ``names``.

    A module function rather than a closure calling itself: such a closure is a
    reference cycle, which lives until the cyclic collector comes by.
    """
    keys = [k for k in defaults if k in properties] + [k for k in properties if k not in defaults]
    for key in keys:
        sub, path = properties[key], f"{prefix}{key}"
        if _is_group(sub):
            _walk_values(sub.get("properties") or {}, defaults.get(key) or {}, path + ".", rows, names)
            continue
        default = _show(defaults[key]) if key in defaults else "unset"
        rows.append([escape.markdown_code(path), _type_text(sub), default, str(sub.get("description", ""))])
        enum = (sub.get("items") or {}).get("enum") if sub.get("type") == "array" else None
        if enum:
            names.setdefault(tuple(enum), []).append(escape.markdown_code(path))


def values_reference(values: Mapping[str, Any],
                     schema: Mapping[str, Any]) -> tuple[str, list[tuple[list[str], list[str]]]]:
    """The README's table of every value, and the names the name-list values accept.

    The rows follow values.yaml's order, then any value only the schema has
    (``global``, which values.yaml leaves unset). Each list of names appears once,
    with every value that accepts exactly those names.
    """
    rows: list[list[str]] = []
    names: dict[tuple, list[str]] = {}
    _walk_values(schema.get("properties") or {}, values, "", rows, names)
    table = markdown_table(["value", "type", "default", "what it does"], rows)
    return table, [(paths, [escape.markdown_code(name) for name in enum]) for enum, paths in names.items()]


def _render(dirs: Sequence[Path], variables: Mapping[str, Any], templates: Mapping[str, str]) -> dict[str, bytes]:
    """Each of ``templates`` (target: template name) rendered with ``variables``, in one batch."""
    return _start(dirs, variables, templates)()


def _start(dirs: Sequence[Path], variables: Mapping[str, Any],
           templates: Mapping[str, str]) -> Callable[[], dict[str, bytes]]:
    """``_render`` handed to the rendering process: calling the result waits for the files."""
    texts = submit(dirs, [Job(name, variables) for name in templates.values()])
    return lambda: {target: text.encode() for target, text in zip(templates, texts())}


def _dump_data(data: Mapping[str, Any]) -> bytes:
    """JSON, not YAML: Helm reads YAML 1.1, where a series named ``n`` would turn into false.

    One object a line: a change to one object is a one-line diff, and compact
    separators keep the JSON encoder on its fast path (indenting is several times slower).
    """

    def compact(value: Any) -> str:
        return escape.json_text(value, separators=(",", ":"))

    parts = []
    for key, value in data.items():
        if isinstance(value, list):
            body = ",\n".join(compact(item) for item in value)
            parts.append(f"{compact(key)}:[\n{body}\n]" if value else f"{compact(key)}:[]")
        else:
            parts.append(f"{compact(key)}:{compact(value)}")
    return ("{\n" + ",\n".join(parts) + "\n}\n").encode()


def _parsed_values(text: bytes) -> Mapping[str, Any]:
    """The rendered values.yaml, read back for the README's defaults."""
    try:
        [values] = load_stream_fast(text.decode()) or [{}]
    except Exception as exc:  # a catalog's own values template produced text that is not one YAML mapping
        raise InputError.at(Location("templates/" + RENDERED["values.yaml"]),
                            f"the rendered values.yaml is not one YAML mapping: {exc}") from None
    if not isinstance(values, Mapping):
        raise InputError.at(Location("templates/" + RENDERED["values.yaml"]),
                            "the rendered values.yaml is not a mapping of values")
    return values


def chart_files(ctx: OutputContext) -> dict[str, bytes]:
    """Every file of the chart, keyed by its path inside the chart directory."""
    dirs = template_dirs(ctx)
    names = _names(ctx)
    files = static_files(dirs)
    home = ctx.catalog.settings.provider.get("documentationURL", "")
    variables = {
        "name": CHART,
        # The same for every vendor (the vendor is in the annotations), so it always fits the lint's line.
        "description": "Common instancetypes (VM sizes) and preferences (guest OS settings) for KubeVirt",
        "chart_version": chart_version(ctx.version),
        "app_version": ctx.version,
        "home": home,
        "sources": [home] if home else [],
        "vendor": ctx.catalog.settings.vendor,
        "gpu_device_name": gpu_device_name(ctx),
        "series": names["series_help"],
        "sizes": names["sizes"],
        "families": names["families"],
        "owned_prefix": LABEL_PREFIX,
        "owned_annotations": sorted(RESERVED_ANNOTATIONS),
        "kubevirt_releases": [str(r) for r in ctx.releases],
        "kubevirt_version": str(ctx.kubevirt),
    }
    deltas = build_deltas(ctx)  # made before a batch is owed: nothing else may render then (it may)
    rendered = _start(dirs, variables, RENDERED)  # rendered while the schema and the data are made
    schema = values_schema(ctx)
    data = _dump_data(chart_data(ctx))
    releases = _dump_releases(releases_data(deltas))
    files.update(rendered())
    if ctx.policy is not None:  # the admission policy: a template, its documents, and a value that turns it on
        files.update(policy.chart_files(ctx.policy))
        files["values.yaml"] += policy.chart_values(ctx.policy)
    table, accepted = values_reference(_parsed_values(files["values.yaml"]), schema)
    # The README is Markdown: the catalog's words in it are Markdown text (the table's cells are already).
    readme = {**variables, "vendor": escape.markdown(variables["vendor"]),
              "app_version": escape.markdown(variables["app_version"]),
              "values_table": table, "accepted_names": accepted}
    files.update(_render(dirs, readme, {"README.md": README_TEMPLATE}))
    files["values.schema.json"] = (escape.json_text(schema, indent=2, sort_keys=True) + "\n").encode()
    files[DATA_FILE] = data
    files[RELEASES_FILE] = releases
    _one_kind_each(files)
    return dict(sorted(files.items()))


def _one_kind_each(files: Mapping[str, bytes]) -> None:
    """Refuse a chart whose files need a name to be a file and a folder at once, at the catalog's chart folder.

    A catalog's chart folder holding ``values.yaml/`` (or a file ``catalog``) meets the
    chart's own ``values.yaml`` (``catalog/objects.json``): writing both would fail as an
    error of the output folder, far from its cause.
    """
    for name in sorted(files):
        for parent in PurePosixPath(name).parents:
            if str(parent) in files:
                raise InputError.at(Location(f"templates/{STATIC}/{parent}"), (
                    f"the chart has both a file {parent} and a folder of that name (holding {name}): one of them "
                    f"comes from the catalog's templates/{STATIC}; rename or remove it"))


def package(files: Mapping[str, bytes], chart: str = CHART) -> bytes:
    """The chart as ``helm package`` lays it out (``<chart>/...`` in a gzipped tar), reproducibly.

    Sorted entries, mtime 0, owner root, mode 0644 and a gzip header without
    name or time: the same chart always gives the same bytes. Compressed at
    zlib's default level (6), as ``helm package`` does: level 9 took three times
    as long for a 3% smaller file.
    """
    import gzip  # only --helm-package packs the chart
    import tarfile

    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, data in sorted(files.items()):
            info = tarfile.TarInfo(f"{chart}/{name}")
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(data))
    packed = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=packed, mtime=0, compresslevel=6) as gz:
        gz.write(raw.getvalue())
    return packed.getvalue()


def helm_batches(ctx: OutputContext) -> Iterator[Mapping[str, bytes]]:
    """The chart as a producer of outputs gives its files (outputs/__init__.py): in one batch."""
    yield helm_files(ctx)


def helm_files(ctx: OutputContext) -> Mapping[str, bytes]:
    """The chart directory under ``helm/``, and its package when asked for."""
    files = chart_files(ctx)
    out = {f"{ROOT}/{name}": data for name, data in files.items()}
    if ctx.helm_package:
        out[f"helm/{CHART}-{chart_version(ctx.version)}.tgz"] = package(files)
    return out
