"""One chart and one kustomize tree for every KubeVirt release, checked against `citgen build --kubevirt`.

The chart's value ``kubevirt.version`` and the tree's ``components/kubevirt-<release>``
must give exactly the documents of the build for that release: rendered by Helm's own
engine (helm-python-sdk) and built by real kustomize (`kubectl kustomize`), for every
release citgen knows. Each release is built once for the module, and the kustomize runs
are made side by side, once, for the tests to read. The differences themselves
(outputs/releases.py) are checked in plain Python too, on the built-in catalog and on
one whose templates do not write objects as given.
"""

from __future__ import annotations

import copy
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Iterator, Mapping

import pytest
import yaml

from generator.expand.kubevirt import for_release
from generator.outputs.context import OutputContext
from generator.outputs.kustomize import COMPONENTS, component_dir, target_name, template_dirs
from generator.outputs.releases import Op, ReleaseDelta, release_deltas
from generator.pipeline import Build, BuildOptions, generate
from generator.schemas.releases import Release, known, newest
from tests.helpers import copy_catalog, default_build, kubectl, parse_stream
from tests.test_outputs_helm import NOTES, expected, keyed
from tests.test_outputs_kustomize import KUBECTL_ENV

pytestmark = pytest.mark.heavy(7)  # seconds of a worker's time: Helm and kubectl for every release

try:
    import helm_python
except ImportError:  # pragma: no cover - depends on the test environment
    helm_python = None

CHART = "helm/common-instancetypes"
RELEASES = [str(r) for r in known()]


@pytest.fixture(scope="module")
def builds() -> dict[str, Build]:
    """`citgen build --kubevirt <release>` of the built-in catalog, for every release (the newest: the default)."""
    return {str(r): generate(BuildOptions(kubevirt=r)) if r != newest() else default_build() for r in known()}


def documents(build: Build) -> list[dict]:
    return [d.data for d in build.documents]


def context(build: Build) -> OutputContext:
    return OutputContext(build.catalog, build.version, build.objects, build.bundles, documents=build.documents)


def applied(build: Build, delta: ReleaseDelta) -> list[dict]:
    """The build's documents with a release's differences applied in Python, as the chart and components do."""
    left_out = {(o.family, o.name) for o in delta.left_out}
    changes = {(o.obj.family, o.obj.name): o for o in delta.changed}
    family = {(kind, o.name): (o.family, o.name) for o in build.objects for kind in o.kinds}
    out = []
    for doc in documents(build):
        key = family[(doc["kind"], doc["metadata"]["name"])]
        if key in left_out:
            continue
        doc = copy.deepcopy(doc)
        for op in changes[key].ops[doc["kind"]] if key in changes else ():
            node = doc
            for part in op.path[:-1]:
                node = node[part]
            if op.op == "remove":
                del node[op.path[-1]]
            else:
                assert (op.path[-1] in node) == (op.op == "replace"), op
                node[op.path[-1]] = copy.deepcopy(op.value)
        out.append(doc)
    return out


# --------------------------------------------------------------------------- the differences


def test_each_release_is_the_build_with_its_differences_applied(builds: dict[str, Build]):
    build = default_build()
    deltas = release_deltas(context(build), template_dirs(context(build)))
    assert [str(d.release) for d in deltas] == RELEASES
    for delta in deltas:
        assert applied(build, delta) == documents(builds[str(delta.release)]), delta.release
    newest_delta = deltas[-1]
    assert newest_delta.left_out == () and newest_delta.changed == ()
    assert {o.name for o in deltas[0].left_out} == {"fedora.s390x.secex", "rhel.9.s390x.secex",
                                                    "rhel.10.s390x.secex"}


def test_the_differences_are_every_object_for_release_changes_and_no_other():
    """Its shortcuts (objects a release cannot change, releases alike for an object) skip nothing."""
    build = default_build()
    spellings = build.catalog.settings.spellings
    for delta in release_deltas(context(build), template_dirs(context(build))):
        kept, adjustments = for_release(build.objects, delta.release, spellings)
        built = {(o.family, o.name): o for o in build.objects}
        assert {(o.family, o.name) for o in delta.left_out} == set(built) - {(o.family, o.name) for o in kept}
        assert {(c.obj.family, c.obj.name) for c in delta.changed} == {
            (o.family, o.name) for o in kept if o is not built[(o.family, o.name)]}
        said = [a for c in delta.changed for a in c.why] + [a for why in delta.why_left_out.values() for a in why]
        assert sorted(said) == sorted(map(str, adjustments))
        assert all(c.ops[kind] for c in delta.changed for kind in c.obj.kinds)


def test_a_catalog_whose_templates_add_to_the_objects_gets_the_documents_they_write(tmp_path: Path):
    """A template that writes something of its own from the spec: the differences are read off rendered text."""
    catalog = copy_catalog(tmp_path / "vendor")
    template = catalog / "templates" / "preference.yaml.j2"
    text = template.read_text()
    marker = "  annotations:{{ annotations | yaml_block(4) }}\n"
    assert marker in text
    template.write_text(text.replace(marker, marker + (
        "    example.com/efi: {{ ('yes' if spec.firmware is defined and spec.firmware.preferredEfi is defined "
        "else 'no') | yaml_scalar }}\n")))
    build = generate(BuildOptions(catalog=catalog))
    old = generate(BuildOptions(catalog=catalog, kubevirt=Release(1, 3)))
    assert not build.problems and not old.problems
    [delta] = [d for d in release_deltas(context(build), template_dirs(context(build)))
               if d.release == Release(1, 3)]
    assert applied(build, delta) == documents(old)
    fedora = next(c for c in delta.changed if c.obj.name == "fedora")
    assert Op("replace", ("metadata", "annotations", "example.com/efi"), "no") in fedora.ops[fedora.obj.kinds[0]]


# --------------------------------------------------------------------------- Helm


@pytest.fixture(scope="module")
def chart(previous_output: Path) -> Iterator[Any]:
    if helm_python is None:
        if os.environ.get("CI") == "true":
            pytest.fail("helm-python-sdk is required under CI")
        pytest.skip("helm-python-sdk is not installed")
    with helm_python.Chart.load(str(previous_output / CHART)) as loaded:
        yield loaded


def render(chart: Any, values: Mapping[str, Any]) -> list[dict]:
    out = chart.render(dict(values), name="catalog", namespace="vms")
    return [d for name, text in out.items() if name != NOTES for d in parse_stream(text)]


@pytest.mark.parametrize("release", RELEASES)
def test_the_chart_renders_the_build_for_each_release(chart: Any, builds: dict[str, Build], release: str):
    assert render(chart, {"kubevirt": {"version": release}}) == documents(builds[release])


@pytest.mark.parametrize("spelt", ["v1.8.4", "1.8"])
def test_a_release_may_be_spelt_as_a_patch_release_or_without_the_v(chart: Any, builds: dict[str, Build],
                                                                     spelt: str):
    assert render(chart, {"kubevirt": {"version": spelt}}) == documents(builds["v1.8"])


def test_the_default_is_the_newest_release(chart: Any, previous_output: Path):
    values = yaml.safe_load((previous_output / CHART / "values.yaml").read_text())
    assert values["kubevirt"] == {"version": str(newest())}
    assert chart.values["kubevirt"] == {"version": str(newest())}
    assert render(chart, {"kubevirt": {"version": ""}}) == documents(default_build())


@pytest.mark.parametrize("version", ["v2.0", "v0.59", "latest", "v1.8.4.1", "1"])
def test_a_release_the_chart_does_not_know_fails_naming_those_it_does(chart: Any, version: str):
    with pytest.raises(helm_python.HelmRenderError) as refused:
        chart.render({"kubevirt": {"version": version}}, name="catalog", namespace="vms")
    assert (f'kubevirt.version "{version}" is not a KubeVirt release this chart has objects for; expected one of '
            f'{", ".join(RELEASES)} (v1.8, 1.8 and v1.8.4 all mean v1.8)') in str(refused.value)


def test_a_version_that_is_a_number_is_refused_by_the_schema(chart: Any):
    """A values file's unquoted 1.8 is a number to YAML (and 1.10 would be 1.1): the schema says to quote it."""
    with pytest.raises(helm_python.HelmValuesError) as refused:
        chart.render({"kubevirt": {"version": 1.8}}, name="catalog", namespace="vms")
    assert "at '/kubevirt/version': got number, want string" in str(refused.value)


def test_the_other_values_apply_to_an_older_releases_objects(chart: Any, builds: dict[str, Build]):
    values = {"kinds": {"cluster": False}, "preferences": {"include": ["fedora", "windows"]},
              "vendor": "example.com", "labels": {"example.com/team": "platform"}}
    wanted = expected(builds["v1.0"], values)
    assert wanted and wanted != expected(default_build(), values)
    assert keyed(render(chart, {**values, "kubevirt": {"version": "v1.0"}})) == keyed(wanted)


# --------------------------------------------------------------------------- kustomize

#: Parts of the tree built with a component: (directory, release, its kind, its series or family),
#: each against that release's build.
SUBTREES = {
    "preferences-cluster": ("preferences/cluster", "v1.0", "VirtualMachineClusterPreference", None),
    "cx-namespaced": ("instancetypes/namespaced/cx", "v1.2", "VirtualMachineInstancetype", "cx"),
}


def kustomization(directory: Path, tree: Path, resource: str, release: str) -> Path:
    directory.mkdir(parents=True)
    (directory / "kustomization.yaml").write_text(yaml.safe_dump({
        "apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization",
        "sortOptions": {"order": "fifo"},
        "resources": [os.path.relpath(tree / resource, directory)],
        "components": [os.path.relpath(tree / component_dir(release), directory)],
    }, sort_keys=False))
    return directory


@pytest.fixture(scope="module")
def kustomized(previous_output: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """`kubectl kustomize` of the tree with each release's component, and of the SUBTREES, side by side."""
    tool = kubectl()
    tree = previous_output / "kustomize"
    root = tmp_path_factory.mktemp("components")
    wanted = {release: kustomization(root / release, tree, ".", release) for release in RELEASES}
    wanted.update({name: kustomization(root / name, tree, resource, release)
                   for name, (resource, release, _, _) in SUBTREES.items()})

    def run(where: Path) -> tuple[str, str, int]:
        done = subprocess.run([tool, "kustomize", str(where)], capture_output=True, text=True, env=KUBECTL_ENV)
        return done.stdout, done.stderr, done.returncode

    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:  # ~100 MB each
        return dict(zip(wanted, pool.map(run, wanted.values())))


def built(kustomized: dict[str, Any], name: str) -> list[dict]:
    out, err, code = kustomized[name]
    assert code == 0, err
    return parse_stream(out)


@pytest.mark.parametrize("release", RELEASES)
def test_the_tree_with_a_releases_component_is_its_build(kustomized: dict[str, Any], builds: dict[str, Build],
                                                         release: str):
    assert built(kustomized, release) == documents(builds[release])


@pytest.mark.parametrize("name", SUBTREES)
def test_a_component_works_on_part_of_the_tree(kustomized: dict[str, Any], builds: dict[str, Build], name: str):
    """Patches for objects the part does not hold match nothing and do nothing."""
    _, release, kind, group = SUBTREES[name]
    build = builds[release]
    members = {o.name for o in build.objects if group is None or o.group == group}
    wanted = [d for d in documents(build) if d["kind"] == kind and d["metadata"]["name"] in members]
    assert wanted
    got = built(kustomized, name)
    assert got == wanted
    newest_kind = [d for d in documents(default_build()) if d["kind"] == kind and d["metadata"]["name"] in {
        o.name for o in default_build().objects if group is None or o.group == group}]
    assert got != newest_kind, "a part the release does not change checks nothing"


def test_there_is_a_component_per_release_and_the_newest_changes_nothing(previous_output: Path):
    tree = previous_output / "kustomize"
    assert sorted(p.name for p in (tree / COMPONENTS).iterdir()) == sorted(f"kubevirt-{r}" for r in RELEASES)
    for release in RELEASES:
        component = yaml.safe_load((tree / component_dir(release) / "kustomization.yaml").read_text())
        assert component["apiVersion"] == "kustomize.config.k8s.io/v1alpha1"
        assert component["kind"] == "Component"
        assert (component["patches"] == []) is (release == str(newest()))
        for patch in component["patches"]:
            assert set(patch) == {"target", "patch"} and set(patch["target"]) == {"kind", "name"}
    readme = (tree / "README.md").read_text()
    assert "components:" in readme and "observedKubeVirtVersion" in readme
    assert all(f"`{component_dir(r)}`" in readme for r in RELEASES)


@pytest.mark.parametrize("name, pattern", [
    ("u1.large", r"u1\.large"), ("rhel.9.s390x.secex", r"rhel\.9\.s390x\.secex"), ("Odd name+", '"Odd name\\\\+"')])
def test_a_target_name_matches_only_its_object(name: str, pattern: str):
    """kustomize reads a target's name as an anchored regular expression: a dot would match any character."""
    assert target_name(name) == pattern


def test_an_older_releases_build_serves_it_and_the_releases_before_it(builds: dict[str, Build]):
    """A build for v1.3 starts from v1.3's objects: what v1.4 on would add is not in them."""
    build = builds["v1.3"]
    ctx = OutputContext(build.catalog, build.version, build.objects, build.bundles, documents=build.documents,
                        kubevirt=Release(1, 3))
    deltas = release_deltas(ctx, template_dirs(ctx))
    assert [str(d.release) for d in deltas] == ["v1.0", "v1.1", "v1.2", "v1.3"]
    assert deltas[-1].left_out == () and deltas[-1].changed == ()
    for delta in deltas:
        assert applied(build, delta) == documents(builds[str(delta.release)]), delta.release
    components = sorted(p for p in build.files if p.startswith("kustomize/components/"))
    assert components == [f"kustomize/components/kubevirt-v1.{minor}/kustomization.yaml" for minor in range(4)]
    values = yaml.safe_load(build.files["helm/common-instancetypes/values.yaml"])
    assert values["kubevirt"] == {"version": "v1.3"}


def test_a_component_larger_than_a_template_may_write_is_still_written(tmp_path: Path, monkeypatch):
    """The patches of a large catalog run to megabytes: they are written beside the template, not by it.

    The built-in catalog's v1.0 component is about 43,000 characters; with the limit on
    what one template may write set below that, the build must still succeed, and
    write the same tree the default limit does.
    """
    monkeypatch.setenv("CITGEN_TEMPLATE_MAX_SIZE", "30000")
    build = generate(BuildOptions())
    component = build.files["kustomize/components/kubevirt-v1.0/kustomization.yaml"]
    assert len(component) > 30000
    assert component == default_build().files["kustomize/components/kubevirt-v1.0/kustomization.yaml"]
    assert component.endswith(b"\n") and not component.endswith(b"\n\n") and b"\npatches:\n  # " in component


def test_a_value_of_a_release_citgen_does_not_know_yet_is_served_as_its_older_spelling(tmp_path: Path):
    """catalog.yaml may date a value by a release newer than any citgen has schemas for."""
    catalog = copy_catalog(tmp_path / "catalog")
    text = (catalog / "catalog.yaml").read_text(encoding="utf-8")
    (catalog / "catalog.yaml").write_text(text.replace("      preferAny: {since: v1.1}\n",
                                                       "      preferAny: {since: v1.1}\n"
                                                       "      sockets: {since: v1.12, was: preferSockets}\n", 1)
                                          .replace("      sockets: {since: v1.4, was: preferSockets}\n", "", 1),
                                          encoding="utf-8")
    build = generate(BuildOptions(catalog=catalog))  # the value is later than every release: respelt in all
    assert build.problems == ()
    windows = next(d for d in documents(build) if d["metadata"]["name"] == "windows.2k16.virtio")
    assert windows["spec"]["cpu"]["preferredCPUTopology"] == "preferSockets"
    ctx = context(build)
    deltas = release_deltas(ctx, template_dirs(ctx))
    assert [str(d.release) for d in deltas] == RELEASES and deltas[-1].changed == ()


def test_an_instancetype_and_a_preference_of_one_name_each_get_their_own_differences(tmp_path: Path):
    """Two objects of one name, one of each family, that one release changes each its own way: neither takes the
    other's changes (v1.2 changes cx1.2xlarge, and a preference of Fedora's traits)."""
    catalog = copy_catalog(tmp_path / "vendor")
    family = catalog / "preferences" / "fedora.yaml"
    family.write_text(family.read_text().replace("preferences:\n", (
        "preferences:\n  cx1.2xlarge:\n    displayName: Fedora, named as an instancetype is\n"
        "    traits: [arch-amd64, efi-secureboot]\n    description: A preference that shares its name.\n"), 1))
    build = generate(BuildOptions(catalog=catalog))
    old = generate(BuildOptions(catalog=catalog, kubevirt=Release(1, 2)))
    assert not build.problems and not old.problems
    assert {o.family for o in build.objects if o.name == "cx1.2xlarge"} == {"instancetype", "preference"}
    [delta] = [d for d in release_deltas(context(build), template_dirs(context(build)))
               if d.release == Release(1, 2)]
    assert applied(build, delta) == documents(old)
