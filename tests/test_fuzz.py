"""Property-based tests: generated catalogs, valid and broken, through the whole build.

A valid catalog (size matrix, series, preference family) must build and
validate clean, and what it says must come out of the bundles unchanged. A
broken one (one mistake made on purpose, or a file replaced by arbitrary YAML)
must end in a CitgenError whose every problem says where it is; never in any
other exception.

``make test`` runs the ``ci`` profile (a few dozen examples each);
``make fuzz`` runs the ``fuzz`` profile (HYPOTHESIS_PROFILE=fuzz), see conftest.py.
"""

from __future__ import annotations

import copy
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml
from hypothesis import given, note, strategies as st

from generator.errors import CitgenError, InputError
from generator.paths import builtin_catalog
from generator.pipeline import Build, BuildOptions, generate
from generator.problems import Problem
from generator.source.yamlsrc import uncarried

pytestmark = pytest.mark.heavy(10)  # seconds of a worker's time: run early (conftest.py)

TRAITS = ("rng", "virtio-disk", "virtio-interface")  # built-in traits that never conflict
GiB = 1024**3
MiB = 1024**2

# --------------------------------------------------------------------------- valid definitions

label_value = st.from_regex(r"[a-z0-9]([a-z0-9.-]{0,20}[a-z0-9])?", fullmatch=True)
size_name = st.from_regex(r"[a-z0-9]{1,10}", fullmatch=True)
#: Text a valid definition may hold: anything but what the outputs' readers do not carry (yamlsrc.UNCARRIED).
text = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=80).filter(
    lambda t: t.strip() and uncarried(t) is None)
FEATURES = [
    {},
    {"overcommitPercent": 50},
    {"dedicatedCPUPlacement": True, "isolateEmulatorThread": True},
    {"dedicatedCPUPlacement": True, "numa": True, "maxSocketsMatchVCPUs": True},
    {"hugepages": "2Mi"},
    {"hugepages": "1Gi"},
]


@dataclass
class Definition:
    """A whole small catalog as data: file name (relative) -> YAML value."""

    files: dict[str, Any]

    def write(self, root: Path) -> None:
        source = builtin_catalog() / "preferences" / "traits"
        (root / "preferences" / "traits").mkdir(parents=True)
        for name in TRAITS:
            shutil.copy(source / f"{name}.yaml", root / "preferences" / "traits" / f"{name}.yaml")
        for relative, value in self.files.items():
            path = root / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(value, RawText):
                path.write_text(value.text, encoding="utf-8")
            else:
                # escaped, not raw: PyYAML's pure-Python emitter writes U+0085 raw, which reads back as a space
                path.write_text(yaml.safe_dump(value, allow_unicode=False, sort_keys=False), encoding="utf-8")


@dataclass(frozen=True)
class RawText:
    """A file written as given, not dumped from data (for text that is not YAML)."""

    text: str


@st.composite
def matrices(draw: Callable) -> dict[str, Any]:
    names = draw(st.lists(size_name, min_size=1, max_size=5, unique=True))
    rows: dict[str, Any] = {}
    for name in names:
        cpu = draw(st.integers(1, 64))
        fixed = draw(st.booleans())
        rows[name] = {"cpu": cpu, "memory": f"{draw(st.integers(1, 256))}Gi"} if fixed else cpu
    return {"matrices": {"standard": rows}}


def memory_of(row: Any, ratio: str) -> int:
    if isinstance(row, dict):
        return int(row["memory"][:-2]) * GiB
    cpu, per = ratio.split(":")
    return int(row * GiB * float(per) / int(cpu))


@st.composite
def valid_definitions(draw: Callable) -> Definition:
    sizes = draw(matrices())
    rows = sizes["matrices"]["standard"]
    prefixes = draw(st.lists(st.from_regex(r"[a-z]{1,4}", fullmatch=True), min_size=1, max_size=2, unique=True))
    files: dict[str, Any] = {
        "catalog.yaml": {"vendor": draw(label_value), "version": draw(label_value)},
        "series/sizes.yaml": sizes,
    }
    offered = []  # (vCPUs, memory) of every instancetype
    for prefix in prefixes:
        ratio = draw(st.sampled_from(["1:1", "1:2", "1:4", "1:8", "1:16", "1:0.5", "1:0.25"]))
        series = {
            "prefix": prefix,
            "version": draw(st.integers(1, 9)),
            "class": draw(label_value),
            "displayName": draw(text),
            "description": draw(text),
            "icon": draw(label_value),
            "ratio": ratio,
        }
        chosen = draw(st.lists(st.sampled_from(sorted(rows)), unique=True))
        if chosen:
            series["sizes"] = chosen
        for name in chosen or rows:
            row = rows[name]
            offered.append((row["cpu"] if isinstance(row, dict) else row, memory_of(row, ratio)))
        features = draw(st.sampled_from(FEATURES))
        if features:
            series["features"] = features
        files[f"series/{prefix}.yaml"] = series
    # requirements some instancetype meets: at most the resources of one of them
    top_cpu, top_memory = draw(st.sampled_from(offered))
    names = draw(st.lists(st.from_regex(r"[a-z]([a-z0-9-]{0,12}[a-z0-9])?", fullmatch=True),
                          min_size=1, max_size=3, unique=True))
    preferences = {}
    for name in names:
        entry: dict[str, Any] = {"displayName": draw(text), "description": draw(text)}
        if draw(st.booleans()):
            entry["requirements"] = {"cpu": draw(st.integers(1, top_cpu)),
                                     "memory": f"{draw(st.integers(1, max(1, top_memory // MiB)))}Mi"}
        preferences[name] = entry
    files["preferences/fuzzed.yaml"] = {
        "osType": draw(st.sampled_from(["linux", "windows"])),
        "iconClass": draw(label_value),
        "traits": draw(st.lists(st.sampled_from(TRAITS), unique=True)),
        "preferences": preferences,
    }
    return Definition(files)


# --------------------------------------------------------------------------- invalid definitions

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | text,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(text, children, max_size=4),
    max_leaves=12,
)


def _series_key(definition: Definition) -> str:
    return next(k for k in definition.files if k.startswith("series/") and k != "series/sizes.yaml")


MUTATIONS: dict[str, Callable[[Definition, Callable], None]] = {
    "drop a required series key": lambda d, draw: d.files[_series_key(d)].pop(
        draw(st.sampled_from(["prefix", "version", "class", "displayName", "description", "icon", "ratio"]))),
    "wrong type": lambda d, draw: d.files[_series_key(d)].update(
        {draw(st.sampled_from(["version", "class", "ratio", "sizes", "features"])): draw(st.lists(st.integers()))}),
    "unknown series key": lambda d, draw: d.files[_series_key(d)].update(
        {draw(st.sampled_from(["ratios", "feature", "Prefix", "size"])): 1}),
    "vCPUs below one": lambda d, draw: d.files["series/sizes.yaml"]["matrices"]["standard"].update(
        {"broken": draw(st.integers(max_value=0))}),
    "bad quantity": lambda d, draw: d.files["series/sizes.yaml"]["matrices"]["standard"].update(
        {"broken": {"cpu": 1, "memory": draw(st.sampled_from(["4GB", "-1Gi", "1.5.2Gi", "0", "Gi", "lots"])
                                             | text.filter(lambda t: not t[:1].isdigit()))}}),
    "bad ratio": lambda d, draw: d.files[_series_key(d)].update(
        {"ratio": draw(st.sampled_from(["1:0", "0:4", "4", "1:4:2", "one to four", "1:-4", "1:", ":4"]))}),
    "undefined matrix": lambda d, draw: d.files[_series_key(d)].update({"matrix": "nosuchmatrix"}),
    "undefined size": lambda d, draw: d.files[_series_key(d)].update({"sizes": ["nosuchsize"]}),
    "undefined trait": lambda d, draw: d.files["preferences/fuzzed.yaml"].update({"traits": ["nosuchtrait"]}),
    "bad preference name": lambda d, draw: d.files["preferences/fuzzed.yaml"]["preferences"].update(
        {draw(st.sampled_from(["../x", "Upper", "a_b", "-a", "a" * 254, ""])): {"displayName": "x",
                                                                              "description": "x"}}),
    "bad label value": lambda d, draw: d.files[_series_key(d)].update(
        {draw(st.sampled_from(["class", "icon"])): draw(st.sampled_from(["a b", "-a", "a" * 64, "ü", "a/b"]))}),
    "duplicate series": lambda d, draw: d.files.update(
        {"series/zz-copy.yaml": copy.deepcopy(d.files[_series_key(d)])}),
    "bad spec fragment": lambda d, draw: d.files[_series_key(d)].update(
        {"spec": draw(st.sampled_from([{"cpu": 3}, {"memory": {"guest": "lots"}}, {"nosuchfield": 1},
                                       {"cpu": {"numa": 3}}, {"memory": {"hugepages": {"pageSize": 2}}}]))}),
    "bad requirements": lambda d, draw: next(iter(d.files["preferences/fuzzed.yaml"]["preferences"].values())).update(
        {"requirements": draw(st.sampled_from([{"cpu": 0}, {"memory": "-1Gi"}, {"cpus": 1}, [1], "2Gi"]))}),
    "whole number of the wrong kind": lambda d, draw: _set_whole_number(d, draw, draw(not_whole_numbers)),
    "arbitrary YAML for a file": lambda d, draw: d.files.update(
        {draw(st.sampled_from(sorted(d.files))): draw(json_values)}),
    "arbitrary text for a file": lambda d, draw: d.files.update(
        {draw(st.sampled_from(sorted(d.files))): RawText(draw(st.text(max_size=200)))}),
}


# --------------------------------------------------------------------------- issue 14: numbers and quantities

#: What a YAML author may write where a whole number belongs and is not one: a float
#: (1.0 included), a boolean (True == 1 in Python, not in a catalog) or digits in quotes.
#: Numbers of the wrong kind the reader takes (an exponent from -99 to 99: quantity.MAX_EXPONENT).
not_whole_numbers = (st.integers(1, 64).map(float)
                     | st.floats(-1e99, 1e99, allow_nan=False).filter(lambda x: x == 0 or abs(x) >= 1e-99)
                     | st.booleans() | st.integers(1, 64).map(str))


def _whole_number_fields(definition: Definition) -> list[tuple[str, tuple, str]]:
    """(file, key path, what the message says is expected) of every whole number the definition writes."""
    fields = [(name, ("version",), "a whole number") for name in definition.files
              if name.startswith("series/") and name != "series/sizes.yaml"]
    rows = definition.files["series/sizes.yaml"]["matrices"]["standard"]
    fields += [("series/sizes.yaml", ("matrices", "standard", size, "cpu"), "a whole number")
               for size, row in rows.items() if isinstance(row, dict)]
    family = definition.files["preferences/fuzzed.yaml"]
    fields += [("preferences/fuzzed.yaml", ("preferences", name, "requirements", "cpu"),
                "a whole number of vCPUs (1 or more)")
               for name, entry in family["preferences"].items() if "requirements" in entry]
    return fields


def _set_whole_number(definition: Definition, draw: Callable, value: Any) -> tuple[str, tuple, str]:
    """Replace one whole number of ``definition`` (or a size's vCPUs) with ``value``; which one."""
    fields = _whole_number_fields(definition)
    if not fields:  # every size a plain vCPU count: write one as a mapping
        rows = definition.files["series/sizes.yaml"]["matrices"]["standard"]
        size = sorted(rows)[0]
        rows[size] = {"cpu": rows[size], "memory": "1Gi"}
        fields = _whole_number_fields(definition)
    file, path, expected = draw(st.sampled_from(fields))
    node = definition.files[file]
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return file, path, expected


@given(valid_definitions(), st.data())
def test_a_whole_number_of_the_wrong_kind_is_named_at_its_field(definition: Definition, data: st.DataObject):
    from generator.source.inputcheck import describe

    value = data.draw(not_whole_numbers, label="written")
    file, path, expected = _set_whole_number(definition, data.draw, value)
    with pytest.raises(InputError) as caught:
        build(definition)
    found = [(p.location.file, p.location.path, p.message) for p in caught.value.problems]
    assert (file, path, f"expected {expected}, got {describe(value)}") in found
    for problem in caught.value.problems:
        assert_located(problem, definition)


def _other_units(mebibytes: int, draw: Callable) -> Any:
    """The same amount of memory as ``<mebibytes>Mi``, written another way."""
    spellings = [f"{mebibytes * 1024}Ki", mebibytes * MiB, f"{mebibytes * MiB}"]
    if mebibytes % 1024 == 0:
        spellings.append(f"{mebibytes // 1024}Gi")
    return draw(st.sampled_from(spellings))


@given(valid_definitions(), st.data())
def test_requirements_and_spec_in_other_units_agree(definition: Definition, data: st.DataObject):
    """Memory a preference requires, repeated in its spec in other units, is one value: no conflict."""
    entries = definition.files["preferences/fuzzed.yaml"]["preferences"]
    name = data.draw(st.sampled_from(sorted(entries)))
    memory = data.draw(st.integers(1, 64)) * 1024
    entries[name]["requirements"] = {"memory": f"{memory}Mi"}
    entries[name]["spec"] = {"requirements": {"memory": {"guest": _other_units(memory, data.draw)}}}
    # a size every series offers that meets any such requirement
    definition.files["series/sizes.yaml"]["matrices"]["standard"]["huge"] = {"cpu": 64, "memory": "64Gi"}
    for file, series in definition.files.items():
        if file.startswith("series/") and "sizes" in series:
            series["sizes"] = [*series["sizes"], "huge"]
    result = build(definition)
    assert result.problems == ()
    [composed] = [o for o in result.objects if o.family == "preference" and o.name == name]
    assert composed.spec["requirements"]["memory"] == {"guest": f"{memory}Mi"}  # the first layer's spelling


@st.composite
def invalid_definitions(draw: Callable) -> tuple[str, Definition]:
    definition = draw(valid_definitions())
    mistake = draw(st.sampled_from(sorted(MUTATIONS)))
    MUTATIONS[mistake](definition, draw)
    return mistake, definition


# --------------------------------------------------------------------------- running a build


def build(definition: Definition) -> Build:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "catalog"
        definition.write(root)
        return generate(BuildOptions(catalog=root))


def assert_located(problem: Problem, definition: Definition) -> None:
    """A problem names a file; in a catalog file written as YAML data, also a line."""
    where = problem.location
    assert where.file, problem
    value = definition.files.get(where.file)
    if where.doc is not None:
        return  # a document of a rendered bundle: file and document index
    if value is None or isinstance(value, RawText):
        return  # a file of the base catalog (a trait), or text YAML may not even read
    if value in ({}, [], None, "") or not isinstance(value, (dict, list)):
        return  # a file with no node to point at (empty, or one plain value)
    assert where.line is not None, problem


# --------------------------------------------------------------------------- properties


@given(valid_definitions())
def test_a_valid_definition_builds_and_validates_clean(definition: Definition):
    note(yaml.safe_dump(definition.files, allow_unicode=True))
    result = build(definition)
    assert result.problems == ()
    series = {k: v for k, v in definition.files.items() if k.startswith("series/") and k != "series/sizes.yaml"}
    rows = definition.files["series/sizes.yaml"]["matrices"]["standard"]
    expected = {f"{s['prefix']}{s['version']}.{size}"
                for s in series.values() for size in (s.get("sizes") or rows)}
    assert {o.name for o in result.objects if o.family == "instancetype"} == expected
    assert {o.name for o in result.objects if o.family == "preference"} == set(
        definition.files["preferences/fuzzed.yaml"]["preferences"])


@given(valid_definitions())
def test_a_valid_definition_round_trips_through_yaml(definition: Definition):
    result = build(definition)
    # what is shipped parses, with PyYAML's own loader, to exactly what was validated ...
    shipped = [d for d in yaml.safe_load_all(result.files["common-instancetypes-all-bundle.yaml"].decode())
               if d is not None]
    assert shipped == [doc.data for doc in result.documents]
    # ... dumping and reading it again changes nothing ...
    assert list(yaml.safe_load_all(yaml.safe_dump_all(shipped))) == shipped
    # ... and the text of the definition comes out unchanged
    by_name = {d["metadata"]["name"]: d for d in shipped}
    for key, series in definition.files.items():
        if not key.startswith("series/") or key == "series/sizes.yaml":
            continue
        for size in series.get("sizes") or definition.files["series/sizes.yaml"]["matrices"]["standard"]:
            annotations = by_name[f"{series['prefix']}{series['version']}.{size}"]["metadata"]["annotations"]
            assert annotations["instancetype.kubevirt.io/displayName"] == series["displayName"]
            assert annotations["instancetype.kubevirt.io/description"] == series["description"]  # as written
    for name, entry in definition.files["preferences/fuzzed.yaml"]["preferences"].items():
        annotations = by_name[name]["metadata"]["annotations"]
        assert annotations["openshift.io/display-name"] == entry["displayName"].strip()
        assert annotations["instancetype.kubevirt.io/description"] == entry["description"]


@given(invalid_definitions())
def test_an_invalid_definition_is_a_located_error(case: tuple[str, Definition]):
    mistake, definition = case
    note(f"mistake: {mistake}")
    note(repr(definition.files))
    try:
        result = build(definition)
    except InputError as exc:
        problems = exc.problems
    except CitgenError as exc:  # pragma: no cover - any other kind would be a surprise worth seeing
        raise AssertionError(f"{type(exc).__name__} where an InputError was expected: {exc}") from None
    else:
        problems = list(result.problems)
    if mistake.startswith("arbitrary") and not problems:
        return  # arbitrary data may happen to be valid (an optional file replaced by a fine one)
    assert problems, f"{mistake}: no problem reported"
    for problem in problems:
        assert_located(problem, definition)


# --------------------------------------------------------------------------- hostile YAML (issue 14)

_ALIAS = object()  # where the alias goes in a generated value

flow_scalars = st.one_of(st.integers(-1000, 1000), st.booleans(), st.from_regex(r"[a-z][a-z0-9]{0,8}", fullmatch=True))


def _flow(value: Any) -> str:
    """``value`` written in YAML's flow style, with ``*self`` where _ALIAS stands."""
    if value is _ALIAS:
        return "*self"
    if isinstance(value, dict):
        return "{" + ", ".join(f"k{i}: {_flow(v)}" for i, v in enumerate(value.values())) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)


@st.composite
def self_referencing(draw: Callable) -> str:
    """A document whose anchored list or mapping holds, somewhere inside, an alias of itself."""
    inner: Any = _ALIAS
    for _ in range(draw(st.integers(0, 4))):  # wrap the alias in a few more lists and mappings
        siblings = draw(st.lists(flow_scalars, max_size=3))
        position = draw(st.integers(0, len(siblings)))
        items = siblings[:position] + [inner] + siblings[position:]
        inner = dict(enumerate(items)) if draw(st.booleans()) else items
    if not isinstance(inner, (dict, list)):
        inner = [inner]
    before = draw(st.lists(flow_scalars, max_size=3))
    return "".join(f"b{i}: {_flow(v)}\n" for i, v in enumerate(before)) + f"top: &self {_flow(inner)}\n"


def refusals_of_both_readers(text: str) -> list[Problem]:
    """The one problem each YAML reader (the located one and the fast one) refuses ``text`` with."""
    from generator.source.yamlsrc import iter_documents, load_stream_fast

    found = []
    for read in (lambda t: list(iter_documents(t, "f.yaml")), lambda t: load_stream_fast(t, "f.yaml")):
        try:
            read(text)
        except InputError as exc:
            [problem] = exc.problems
            found.append(problem)
        else:
            raise AssertionError(f"read without complaint: {text!r}")
    return found


@given(self_referencing())
def test_yaml_that_refers_to_itself_is_refused_at_its_alias(text: str):
    line = text.count("\n", 0, text.index("*self")) + 1
    column = text.index("*self") - (text.rfind("\n", 0, text.index("*self")) + 1) + 1
    for problem in refusals_of_both_readers(text):
        assert (problem.location.file, problem.location.line, problem.location.column) == ("f.yaml", line, column)
        assert problem.message == (f"alias '*self' refers to the list or mapping that contains it (anchored at "
                                   f"line {line}); YAML that refers to itself cannot be read")


tag_names = st.one_of(
    st.from_regex(r"!!python/(object/apply|object/new|object|name|module):[a-z_.]{1,20}", fullmatch=True),
    st.from_regex(r"![a-z][a-zA-Z0-9_-]{0,15}", fullmatch=True),
    st.sampled_from(["!!set", "!!omap", "!!pairs", "!!binary", "!!timestamp", "!!merge", "!!value"]),
)


@given(tag_names, st.sampled_from(["{tag} value", "{tag} [1, 2]", "{tag} {{a: 1}}", "[{tag} x]"]))
def test_a_tag_beyond_plain_values_is_refused_in_both_readers(tag: str, shape: str):
    text = "key: " + shape.format(tag=tag) + "\n"
    for problem in refusals_of_both_readers(text):
        assert problem.location.line == 1 and problem.location.column == text.index(tag) + 1
        assert problem.message.startswith(f"unknown tag '{tag}'; citgen reads only plain YAML values")


# --------------------------------------------------------------------------- hostile templates (issue 14, class 3)

#: Small limits, so that every generated template ends quickly whichever way it goes.
FUZZ_LIMITS = {"CITGEN_TEMPLATE_MAX_SIZE": "20000", "CITGEN_TEMPLATE_SECONDS": "0.5", "CITGEN_TEMPLATE_MAX_MEMORY": "64"}
amounts = st.one_of(st.integers(-2, 40), st.integers(10**3, 10**12))
#: Expressions that grow what they are given, by an amount or by combining two values.
GROWING = [
    "({0} ~ {1})", "({0} * {n})", "({0} + {1})", "[{0}, {1}]", "{{'k': {0}, 'v': {1}}}",
    "({0} | join({1}))", "({0} | center({n}))", "({0} | indent({n}))", "({0} | replace('', {1}))",
    "({0} | format({1}))", "('%0{n}d' % {n})", "('{{:>{n}}}'.format({0}))", "({0} | list)",
    "({0} | batch({n}, {1}) | list)", "({0} | tojson(indent={n}))", "({0} | string).ljust({n})",
    "({0} | map('string') | join({1}))", "(range({n}) | list)", "({0} | sum(start=[]))",
]


@st.composite
def growing_expressions(draw: Callable, depth: int = 3) -> str:
    if depth == 0 or draw(st.booleans()):
        return draw(st.sampled_from(["name", "'ab'", "[name]", "labels", "range(9)", "spec.cpu.guest"]))
    form = draw(st.sampled_from(GROWING))
    return form.format(draw(growing_expressions(depth - 1)), draw(growing_expressions(depth - 1)),
                       n=draw(amounts))


@st.composite
def hostile_lines(draw: Callable) -> str:
    """One template line: a growing expression, perhaps in loops that feed it back into itself."""
    expression = draw(growing_expressions())
    loops = draw(st.integers(0, 2))
    if not loops:
        return f"# {{{{ {expression} | length }}}}"
    body = f"{{% set ns.v = {expression.replace('name', 'ns.v', 1)} %}}"
    for level in range(loops):
        body = f"{{% for i{level} in range({draw(amounts)}) %}}{body}{{% endfor %}}"
    return "{% set ns = namespace(v=name) %}" + body + "# {{ ns.v | length }}"


@given(hostile_lines())
def test_a_template_ends_rendered_or_refused_at_its_line_never_otherwise(line: str):
    """Whatever a template grows, loops or combines, rendering ends: text, or a located InputError."""
    from unittest import mock

    from generator.model import CatalogObject
    from generator.problems import Location
    from generator.render import Renderer

    note(line)
    obj = CatalogObject(family="instancetype", name="u1.large", group="u", labels={"a": "b"}, annotations={},
                        spec={"cpu": {"guest": 2}}, location=Location("series/u.yaml", 1, 1))
    with tempfile.TemporaryDirectory() as folder, mock.patch.dict("os.environ", FUZZ_LIMITS):
        templates = Path(folder) / "templates"
        templates.mkdir()
        (templates / "instancetype.yaml.j2").write_text(
            "---\nkind: {{ kind }}\nmetadata: {name: {{ name | yaml_scalar }}}\n" + line + "\n")
        try:
            text = Renderer([templates]).render(obj, "VirtualMachineClusterInstancetype")
        except InputError as exc:
            [problem] = exc.problems
            assert problem.location.file == "templates/instancetype.yaml.j2"
            if problem.message.startswith("template exceeded a limit"):  # at its line, or stopped from
                assert problem.location.line in (4, None), problem  # outside (time, the text's size)
        else:
            assert len(text) <= 20000
