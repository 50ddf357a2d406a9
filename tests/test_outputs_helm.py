"""The Helm chart, rendered and linted by Helm's own engine (helm-python-sdk, `helm_python`).

What each set of values must give is worked out here from the build's
documents and the catalog's objects with plain Python, following the values'
documented meaning; the chart's Go templates are the thing under test.
"""

from __future__ import annotations

import copy
import gzip
import io
import json
import re
import tarfile
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Mapping

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given, strategies as st

from generator.cli import main
from generator.load.overlays import RESERVED_ANNOTATIONS
from generator.model import CLUSTER_KINDS, INSTANCETYPE_KINDS, label
from generator.outputs.helm import chart_version
from generator.pipeline import Build, BuildOptions, generate
from tests.helpers import REPO, default_build, helm_engine, parse_stream

pytestmark = pytest.mark.heavy(10)  # seconds of a worker's time: run early (conftest.py)


CHART = "helm/common-instancetypes"
#: SemVer 2, as written on semver.org.
SEMVER = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$")


@pytest.fixture(scope="module")
def helm() -> Any:
    return helm_engine()


def write_files(build: Build, root: Path) -> Path:
    for name, data in build.files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return root


@pytest.fixture(scope="module")
def chart_dir(previous_output: Path) -> Path:
    """The default build's chart as `citgen build --out` wrote it (shared: read only)."""
    return previous_output / CHART


@pytest.fixture(scope="module")
def chart(helm: Any, chart_dir: Path) -> Iterator[Any]:
    with helm.Chart.load(str(chart_dir)) as loaded:
        yield loaded


@lru_cache(maxsize=None)
def gpu_build() -> Build:
    """The built-in catalog with a GPU device, so that it holds the GN series."""
    return generate(BuildOptions(gpu_device="nvidia.com/A400"))


@pytest.fixture(scope="module")
def gpu_chart(helm: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with helm.Chart.load(str(write_files(gpu_build(), tmp_path_factory.mktemp("gpu")) / CHART)) as loaded:
        yield loaded


NOTES = "common-instancetypes/templates/NOTES.txt"


def render(chart: Any, values: Mapping[str, Any] | None = None) -> list[dict]:
    """The manifests of a release; NOTES.txt is what Helm prints after an install, not a manifest."""
    out = chart.render(dict(values or {}), name="catalog", namespace="vms")
    return [d for name, text in out.items() if name != NOTES for d in parse_stream(text)]


def keyed(docs: list[dict]) -> dict[tuple[str, str], dict]:
    out = {(d["kind"], d["metadata"]["name"]): d for d in docs}
    assert len(out) == len(docs), "the same kind and name twice"
    return out


def expected(build: Build, values: Mapping[str, Any]) -> list[dict]:
    """The objects a release with ``values`` must hold, by the values' documented meaning."""
    kinds = {"cluster": True, "namespaced": True, **values.get("kinds", {})}
    its = {"enabled": True, "series": [], "excludeSeries": [], "sizes": [], "excludeSizes": [],
           **values.get("instancetypes", {})}
    prefs = {"enabled": True, "include": [], "exclude": [], **values.get("preferences", {})}
    group = {(o.family, o.name): o.group for o in build.objects}
    out = []
    for doc in (d.data for d in build.documents):
        kind, name, labels = doc["kind"], doc["metadata"]["name"], doc["metadata"]["labels"]
        if not kinds["cluster" if kind in CLUSTER_KINDS else "namespaced"]:
            continue
        if labels.get(label("deprecated")) == "true" and not values.get("keepDeprecated", True):
            continue
        if kind in INSTANCETYPE_KINDS:
            series, _, size = name.partition(".")
            names = {series, group[("instancetype", name)]}
            if (not its["enabled"] or (its["series"] and not names & set(its["series"]))
                    or names & set(its["excludeSeries"])
                    or (its["sizes"] and size not in its["sizes"]) or size in its["excludeSizes"]):
                continue
        else:
            names = {name, group[("preference", name)]}
            if not prefs["enabled"] or (prefs["include"] and not names & set(prefs["include"])) \
                    or names & set(prefs["exclude"]):
                continue
        doc = copy.deepcopy(doc)
        meta = doc["metadata"]
        if "vendor" in values:
            meta["labels"][label("vendor")] = values["vendor"]
        meta["labels"].update(values.get("labels", {}))
        meta["annotations"].update(values.get("annotations", {}))
        for gpu in doc["spec"].get("gpus", []):
            gpu["deviceName"] = values.get("gpu", {}).get("deviceName", gpu["deviceName"])
        out.append(doc)
    return out


VALUE_SETS: dict[str, dict[str, Any]] = {
    "namespaced-only": {"kinds": {"cluster": False}},
    "cluster-only": {"kinds": {"namespaced": False}},
    "series-subset": {"instancetypes": {"series": ["u", "cx1", "o"], "excludeSeries": ["o1"]}},
    "sizes": {"instancetypes": {"sizes": ["large", "2xlarge", "2xlarge1gi"], "excludeSizes": ["2xlarge"]}},
    "no-instancetypes": {"instancetypes": {"enabled": False}},
    "vendor-label": {"vendor": "example.com"},
    "preferences-excluded": {"preferences": {"enabled": False}},
    "preferences-exclude-list": {"preferences": {"exclude": ["windows", "rhel.9"]}},
    "preferences-include-list": {"preferences": {"include": ["fedora", "ubuntu", "rhel.9"]}},
    "extra-labels-and-annotations": {
        "labels": {"example.com/team": "platform", "app.kubernetes.io/part-of": "vm-catalog", "tier": ""},
        "annotations": {"example.com/contact": "VM team <vm-team@example.com>",
                        "example.com/notes": "Markdown: *yes*\n\n- one\n- two\n"}},
    "together": {"kinds": {"namespaced": False}, "instancetypes": {"series": ["cx", "u"], "sizes": ["xlarge"]},
                 "preferences": {"include": ["windows"], "exclude": ["windows.xp"]},
                 "vendor": "example.com", "keepDeprecated": False},
}
#: Value sets of a chart built with a GPU device (gpu_build), which has the GN series and a gpu value.
GPU_VALUE_SETS: dict[str, dict[str, Any]] = {
    "gpu-device": {"gpu": {"deviceName": "nvidia.com/GH100"}},
    "gn-only": {"instancetypes": {"series": ["gn"]}},
    "together": {"kinds": {"namespaced": False}, "instancetypes": {"series": ["gn", "u"], "sizes": ["xlarge"]},
                 "preferences": {"include": ["windows"], "exclude": ["windows.xp"]},
                 "vendor": "example.com", "gpu": {"deviceName": "nvidia.com/L4"}, "keepDeprecated": False},
}


def test_default_values_render_exactly_the_all_bundle(chart: Any):
    bundle = [d.data for d in default_build().documents]
    assert render(chart) == bundle
    assert len(bundle) == sum(len(o.kinds) for o in default_build().objects)


@pytest.mark.parametrize("values", VALUE_SETS.values(), ids=VALUE_SETS.keys())
def test_values_choose_and_change_objects(chart: Any, values: dict):
    wanted = expected(default_build(), values)
    assert wanted, "a value set that selects nothing checks nothing"
    assert wanted != expected(default_build(), {}), "a value set that changes nothing checks nothing"
    assert keyed(render(chart, values)) == keyed(wanted)


@pytest.mark.parametrize("values", GPU_VALUE_SETS.values(), ids=GPU_VALUE_SETS.keys())
def test_values_choose_and_change_objects_of_a_chart_with_gpus(gpu_chart: Any, values: dict):
    wanted = expected(gpu_build(), values)
    assert wanted and wanted != expected(gpu_build(), {})
    assert keyed(render(gpu_chart, values)) == keyed(wanted)


def test_a_chart_with_gpus_renders_its_all_bundle_and_passes_lint(helm: Any, gpu_chart: Any, tmp_path: Path):
    assert render(gpu_chart) == [d.data for d in gpu_build().documents]
    assert gpu_chart.values["gpu"] == {"deviceName": "nvidia.com/A400"}
    report = helm.lint(str(write_files(gpu_build(), tmp_path) / CHART), GPU_VALUE_SETS["together"], strict=True)
    assert report["errors"] == []


def test_the_gpu_device_reaches_every_gpu_instancetype(gpu_chart: Any):
    gpus = [g for d in render(gpu_chart, GPU_VALUE_SETS["gpu-device"]) for g in d["spec"].get("gpus", [])]
    assert len(gpus) == 8 and {g["deviceName"] for g in gpus} == {"nvidia.com/GH100"}


def test_a_chart_without_gpu_instancetypes_has_no_gpu_value(helm: Any, chart: Any):
    assert "gpu" not in chart.values
    with pytest.raises(helm.HelmValuesError) as refused:
        chart.render({"gpu": {"deviceName": "nvidia.com/GH100"}}, name="catalog", namespace="vms")
    assert "gpu" in str(refused.value)
    with pytest.raises(helm.HelmValuesError) as refused:
        chart.render({"instancetypes": {"series": ["gn"]}}, name="catalog", namespace="vms")
    assert "/instancetypes/series/0" in str(refused.value)


def test_deprecated_objects_are_kept_unless_told_otherwise(helm: Any, tmp_path: Path):
    """Retained objects (gone from the catalog, labelled deprecated) follow keepDeprecated."""
    current = {d.data["metadata"]["name"]: d.data for d in default_build().documents
               if d.data["kind"] == INSTANCETYPE_KINDS[0]}
    old = copy.deepcopy(current["u1.large"])
    old["metadata"]["name"] = "u1.3xlarge"
    old["metadata"]["labels"][label("size")] = "3xlarge"
    (tmp_path / "old.yaml").write_text(yaml.safe_dump(old))
    build = generate(BuildOptions(retain_from=(tmp_path / "old.yaml",)))
    with helm.Chart.load(str(write_files(build, tmp_path / "out") / CHART)) as retained:
        kept = keyed(render(retained))
        dropped = keyed(render(retained, {"keepDeprecated": False}))
    assert kept[(INSTANCETYPE_KINDS[0], "u1.3xlarge")]["metadata"]["labels"][label("deprecated")] == "true"
    assert (INSTANCETYPE_KINDS[1], "u1.3xlarge") not in kept  # it was only ever a cluster object
    assert kept == keyed(expected(build, {}))
    assert dropped == keyed(expected(build, {"keepDeprecated": False}))
    assert set(kept) - set(dropped) == {(INSTANCETYPE_KINDS[0], "u1.3xlarge")}


def test_helm_lint_finds_no_errors(helm: Any, chart_dir: Path):
    for values in (None, VALUE_SETS["together"]):
        report = helm.lint(str(chart_dir), values, strict=True)
        assert report["errors"] == []
        assert [m for m in report["messages"] if m["severity"] >= 2] == []


BAD_VALUES = {
    "kind-not-boolean": ({"kinds": {"cluster": "yes"}}, "/kinds/cluster"),
    "unknown-series": ({"instancetypes": {"series": ["zz"]}}, "/instancetypes/series/0"),
    "unknown-size": ({"instancetypes": {"excludeSizes": ["huge"]}}, "/instancetypes/excludeSizes/0"),
    "unknown-preference": ({"preferences": {"include": ["windows.95"]}}, "/preferences/include/0"),
    "series-not-a-list": ({"instancetypes": {"series": "u"}}, "/instancetypes/series"),
    "unknown-value": ({"namespace": "vms"}, "namespace"),
    "misspelt-key": ({"kinds": {"clusters": False}}, "clusters"),
    "vendor-not-a-label-value": ({"vendor": "ACME Inc."}, "/vendor"),
    "label-value-too-long": ({"labels": {"example.com/team": "x" * 64}}, "/labels/example.com~1team"),
    "label-value-with-a-space": ({"labels": {"example.com/team": "a b"}}, "/labels/example.com~1team"),
    "label-key-with-a-space": ({"labels": {"team example": "x"}}, "invalid propertyName 'team example'"),
    "label-key-prefix-too-long": ({"labels": {"a" * 254 + "/b": "x"}}, "does not match pattern '^([^/]{1,253}/)?"),
    "label-key-uppercase-prefix": ({"labels": {"Example.com/team": "x"}}, "invalid propertyName 'Example.com/team'"),
    "annotation-key-not-qualified": ({"annotations": {"example.com/": "x"}}, "invalid propertyName 'example.com/'"),
    "catalog-label": ({"labels": {label("cpu"): "4"}}, "/labels/instancetype.kubevirt.io~1cpu"),
    "catalog-vendor-label": ({"labels": {label("vendor"): "example.com"}}, "/labels/instancetype.kubevirt.io~1vendor"),
    "catalog-annotation": ({"annotations": {label("description"): "x"}},
                           "/annotations/instancetype.kubevirt.io~1description"),
    "catalog-written-annotation": ({"annotations": {"openshift.io/display-name": "x"}},
                                   "/annotations/openshift.io~1display-name"),
    "catalog-tags-annotation": ({"annotations": {"tags": "x"}}, "/annotations/tags"),
    "helm-owner-label": ({"labels": {"app.kubernetes.io/managed-by": "me"}},
                         "/labels/app.kubernetes.io~1managed-by"),
    "helm-release-annotation": ({"annotations": {"meta.helm.sh/release-name": "other"}},
                                "/annotations/meta.helm.sh~1release-name"),
    "annotation-not-a-string": ({"annotations": {"example.com/n": 3}}, "/annotations/example.com~1n"),
    "deprecated-not-boolean": ({"keepDeprecated": "no"}, "/keepDeprecated"),
}


@pytest.mark.parametrize("values, where", BAD_VALUES.values(), ids=BAD_VALUES.keys())
def test_values_breaking_the_schema_are_rejected(helm: Any, chart: Any, values: dict, where: str):
    with pytest.raises(helm.HelmValuesError) as refused:
        chart.render(values, name="catalog", namespace="vms")
    assert where in str(refused.value)
    with pytest.raises(helm.HelmValuesError):
        chart.validate_schema(values)


BAD_GPU_VALUES = {
    "device-not-a-string": ({"gpu": {"deviceName": 1}}, "/gpu/deviceName"),
    "device-emptied": ({"gpu": {"deviceName": ""}}, "/gpu/deviceName"),
}


@pytest.mark.parametrize("values, where", BAD_GPU_VALUES.values(), ids=BAD_GPU_VALUES.keys())
def test_gpu_values_breaking_the_schema_are_rejected(helm: Any, gpu_chart: Any, values: dict, where: str):
    with pytest.raises(helm.HelmValuesError) as refused:
        gpu_chart.render(values, name="catalog", namespace="vms")
    assert where in str(refused.value)


def test_notes_explain_coexisting_with_virt_operator(chart: Any):
    """NOTES.txt, rendered by Helm: the virt-operator advice only when cluster kinds are installed."""
    notes = chart.render({}, name="catalog", namespace="vms")[NOTES]
    version = default_build().version
    assert notes.startswith(f"common-instancetypes {version}, release catalog.\n")
    assert "spec.configuration.commonInstancetypesDeployment.enabled to false (it\ndefaults to true)" in notes
    assert '"invalid ownership metadata"' in notes
    assert "helm upgrade catalog <chart> --reuse-values --set kinds.cluster=false" in notes
    assert "in namespace vms; virt-operator never deploys these kinds." in notes
    namespaced = chart.render({"kinds": {"cluster": False}}, name="catalog", namespace="vms")[NOTES]
    assert "commonInstancetypesDeployment" not in namespaced
    assert "in namespace vms; virt-operator never deploys these kinds." in namespaced
    cluster = chart.render({"kinds": {"namespaced": False}}, name="catalog", namespace="vms")[NOTES]
    assert "commonInstancetypesDeployment" in cluster and "namespace vms" not in cluster


def test_a_label_the_catalog_owns_fails_to_render_naming_the_key(helm: Any, chart: Any):
    """The same keys an overlay may not set (load/overlays.py): the catalog's labels describe each spec."""
    with pytest.raises(helm.HelmValuesError) as refused:
        chart.render({"labels": {"instancetype.kubevirt.io/cpu": "64"}}, name="catalog", namespace="vms")
    assert str(refused.value) == (
        "values don't meet the specifications of the schema(s) in the following chart(s):\n"
        "common-instancetypes:\n"
        "- at '/labels/instancetype.kubevirt.io~1cpu': false schema\n")


def test_keys_the_catalog_owns_are_the_ones_overlays_may_not_set(chart_dir: Path):
    schema = json.loads((chart_dir / "values.schema.json").read_text())["properties"]
    assert schema["labels"]["patternProperties"] == {"^instancetype\\.kubevirt\\.io/": False}
    assert schema["annotations"]["patternProperties"] == {"^instancetype\\.kubevirt\\.io/": False}
    assert schema["labels"]["properties"] == {"app.kubernetes.io/managed-by": False}
    assert schema["annotations"]["properties"] == {key: False for key in [
        *RESERVED_ANNOTATIONS, "meta.helm.sh/release-name", "meta.helm.sh/release-namespace"]}
    assert set(RESERVED_ANNOTATIONS) >= {"openshift.io/display-name", "openshift.io/support-url", "tags"}


def test_an_allowed_label_renders_on_every_object(chart: Any):
    docs = render(chart, {"labels": {"example.com/team": "platform"}})
    assert docs and {d["metadata"]["labels"]["example.com/team"] for d in docs} == {"platform"}


@pytest.mark.parametrize("values", VALUE_SETS.values(), ids=VALUE_SETS.keys())
def test_documented_value_sets_pass_the_schema(chart: Any, values: dict):
    chart.validate_schema(values)


def test_helm_templates_are_copied_verbatim(chart_dir: Path):
    static = REPO / "templates" / "helm" / "chart"
    copied = sorted(p.relative_to(static) for p in static.rglob("*") if p.is_file())
    assert Path("templates/catalog.yaml") in copied
    for relative in copied:
        assert (chart_dir / relative).read_bytes() == (static / relative).read_bytes(), relative


def test_chart_yaml_carries_the_catalog_version(chart: Any):
    meta = chart.metadata
    assert meta["appVersion"] == default_build().version
    assert meta["version"] == chart_version(default_build().version)
    assert SEMVER.match(meta["version"])


def test_chart_yaml_has_what_a_chart_repository_shows(chart: Any):
    meta = chart.metadata
    home = "https://github.com/kubevirt/common-instancetypes"  # the built-in catalog's documentationURL
    assert meta["home"] == home and meta["sources"] == [home]
    assert meta["icon"] == "https://raw.githubusercontent.com/kubevirt/community/main/logo/KubeVirt_icon.svg"
    assert meta["kubeVersion"] == ">=1.25.0-0"
    assert meta["description"] == "Common instancetypes (VM sizes) and preferences (guest OS settings) for KubeVirt"
    assert {"kubevirt", "instancetype", "preference"} <= set(meta["keywords"])


def test_helm_lint_strict_reports_nothing_not_even_information(helm: Any, chart_dir: Path, tmp_path: Path):
    """The INFO finding "icon is recommended" is what a chart without an icon gets; there is none left."""
    clean = {"total_charts_linted": 1, "messages": [], "errors": []}
    for values in (None, VALUE_SETS["together"]):
        assert helm.lint(str(chart_dir), values, strict=True) == clean
    gpu_chart_dir = write_files(gpu_build(), tmp_path) / CHART
    assert helm.lint(str(gpu_chart_dir), GPU_VALUE_SETS["together"], strict=True) == clean


def readme_values(chart_dir: Path) -> dict[str, list[str]]:
    """The chart README's table of values: the path of each value -> its type, default and description."""
    rows = re.findall(r"^\| `([^`]+)` \| (.*?) \| (.*?) \| (.*) \|$", (chart_dir / "README.md").read_text(), re.M)
    return {path: [kind, default, text] for path, kind, default, text in rows}


def leaves(values: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Every value of values.yaml by its dotted path; a non-empty mapping is a group of values."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, dict) and value:
            out.update(leaves(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def schema_at(schema: Mapping[str, Any], path: str) -> Mapping[str, Any]:
    for key in path.split("."):
        schema = schema["properties"][key]
    return schema


@pytest.mark.parametrize("gpus", [False, True], ids=["default", "with-gpus"])
def test_the_chart_readme_lists_every_value_with_its_default(chart_dir: Path, tmp_path: Path, gpus: bool):
    where = write_files(gpu_build(), tmp_path) / CHART if gpus else chart_dir
    values = yaml.safe_load((where / "values.yaml").read_text())
    schema = json.loads((where / "values.schema.json").read_text())
    table = readme_values(where)
    assert {path: row[1] for path, row in table.items()} == {
        **{path: f"`{json.dumps(value)}`" for path, value in leaves(values).items()}, "global": "unset"}
    for path, (kind, _default, text) in table.items():
        assert text == schema_at(schema, path)["description"] != ""
    assert table["kinds.cluster"][0] == "boolean" and table["instancetypes.sizes"][0] == "list of names"
    assert table["labels"][0] == "map of strings"
    assert ("gpu.deviceName" in table) is gpus
    if gpus:
        assert table["gpu.deviceName"][1] == '`"nvidia.com/A400"`'


def test_the_chart_readme_lists_the_names_each_value_accepts(chart_dir: Path):
    text = (chart_dir / "README.md").read_text()
    schema = json.loads((chart_dir / "values.schema.json").read_text())
    for paths in (["instancetypes.series", "instancetypes.excludeSeries"],
                  ["instancetypes.sizes", "instancetypes.excludeSizes"],
                  ["preferences.include", "preferences.exclude"]):
        heading = ", ".join(f"`{p}`" for p in paths) + " accept:\n"
        listed = text[text.index(heading) + len(heading):].split("\n\n")[0]
        assert re.findall(r"`([^`]+)`", listed) == schema_at(schema, paths[0])["items"]["enum"]


@pytest.mark.parametrize("version, semver", [
    ("v1.8.0-dev", "1.8.0-dev"),
    ("v1.8.0", "1.8.0"),
    # no "v1.8.0+build.7": '+' cannot be in the version label, so `build` refuses that version
    ("v2", "2.0.0"),
    ("v1.9rc1", "1.9.0-rc1"),
    ("2024.01.15", "2024.1.15"),
    ("main", "0.0.0-main"),
])
def test_catalog_versions_become_chart_versions_helm_accepts(helm: Any, tmp_path: Path, version: str, semver: str):
    build = generate(BuildOptions(version=version))
    with helm.Chart.load(str(write_files(build, tmp_path) / CHART)) as loaded:
        assert loaded.version == semver
        assert loaded.metadata["appVersion"] == version


@given(st.text(max_size=30))
def test_every_version_maps_to_semver(version: str):
    assert SEMVER.match(chart_version(version))


@pytest.fixture(scope="module")
def packaged() -> tuple[Build, str]:
    build = generate(BuildOptions(helm_package=True))
    archives = [n for n in build.files if n.endswith(".tgz")]
    assert archives == [f"helm/common-instancetypes-{chart_version(build.version)}.tgz"]
    return build, archives[0]


def test_the_package_loads_and_renders_like_the_directory(helm: Any, chart: Any, packaged: tuple[Build, str],
                                                          tmp_path: Path):
    build, archive = packaged
    (tmp_path / "chart.tgz").write_bytes(build.files[archive])
    with helm.Chart.load(str(tmp_path / "chart.tgz")) as from_file:
        assert render(from_file) == render(chart)
        assert render(from_file, VALUE_SETS["together"]) == render(chart, VALUE_SETS["together"])
    with helm.Chart.load_archive(build.files[archive]) as from_bytes:
        assert from_bytes.metadata == chart.metadata
        assert render(from_bytes) == [d.data for d in build.documents]
    lint = helm.lint(str(tmp_path / "chart.tgz"))
    assert lint["errors"] == []


def test_the_package_is_reproducible(packaged: tuple[Build, str]):
    build, archive = packaged
    data = build.files[archive]
    assert generate(BuildOptions(helm_package=True)).files[archive] == data
    assert data[4:8] == b"\0\0\0\0"  # gzip header mtime
    with tarfile.open(fileobj=io.BytesIO(gzip.decompress(data))) as tar:
        members = tar.getmembers()
        names = [m.name for m in members]
        assert names == sorted(names)
        chart_files = sorted(n for n in build.files if n.startswith(CHART + "/"))
        assert ["helm/" + n for n in names] == chart_files
        assert {(m.mtime, m.uid, m.gid, m.mode) for m in members} == {(0, 0, 0, 0o644)}
        for member in members:
            assert tar.extractfile(member).read() == build.files["helm/" + member.name]


def test_without_helm_package_no_archive_is_written():
    assert not [n for n in default_build().files if n.endswith(".tgz")]


def test_citgen_build_helm_package_writes_a_chart_helm_loads(helm: Any, tmp_path: Path):
    result = CliRunner().invoke(main, ["build", "--out", str(tmp_path / "out"), "--helm-package"])
    assert result.exit_code == 0, result.output
    archives = sorted((tmp_path / "out" / "helm").glob("*.tgz"))
    assert [a.name for a in archives] == [f"common-instancetypes-{chart_version(default_build().version)}.tgz"]
    with helm.Chart.load(str(archives[0])) as loaded:
        assert render(loaded) == [d.data for d in default_build().documents]

def test_an_annotation_key_with_an_uppercase_prefix_renders_as_the_api_server_reads_it(chart: Any):
    """Annotation keys are checked without regard to case (apimachinery's ValidateAnnotations)."""
    docs = render(chart, {"annotations": {"Example.com/Contact": "vm-team"}})
    assert docs and {d["metadata"]["annotations"]["Example.com/Contact"] for d in docs} == {"vm-team"}
