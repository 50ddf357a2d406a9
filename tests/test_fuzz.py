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

import yaml
from hypothesis import given, note, strategies as st

from generator.errors import CitgenError, InputError
from generator.paths import builtin_catalog
from generator.pipeline import Build, BuildOptions, generate
from generator.problems import Problem

TRAITS = ("rng", "virtio-disk", "virtio-interface")  # built-in traits that never conflict
GiB = 1024**3
MiB = 1024**2

# --------------------------------------------------------------------------- valid definitions

label_value = st.from_regex(r"[a-z0-9]([a-z0-9.-]{0,20}[a-z0-9])?", fullmatch=True)
size_name = st.from_regex(r"[a-z0-9]{1,10}", fullmatch=True)
text = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=80).filter(lambda t: t.strip())
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
    "arbitrary YAML for a file": lambda d, draw: d.files.update(
        {draw(st.sampled_from(sorted(d.files))): draw(json_values)}),
    "arbitrary text for a file": lambda d, draw: d.files.update(
        {draw(st.sampled_from(sorted(d.files))): RawText(draw(st.text(max_size=200)))}),
}


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
