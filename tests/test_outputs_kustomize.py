"""The kustomize tree, built with real kustomize (`kubectl kustomize`) and compared with the bundles.

Every generated kustomization is built: the root must give the all-bundle, a
kind directory its kind's bundle, a series or family directory that group's
objects of that kind. Which objects belong to which group is read off the
catalog's objects, not off the tree. kubectl is a tool on the machine: absent,
the tests skip, except under CI=true, where its absence is a failure.
"""

from __future__ import annotations

import copy
import os
import subprocess
import textwrap
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

import pytest
import yaml
from click.testing import CliRunner

from generator.cli import main
from generator.outputs.context import OutputContext
from generator.outputs.kustomize import kustomize_files
from tests.helpers import default_build, kubectl, parse_stream

pytestmark = pytest.mark.heavy(7)  # seconds of a worker's time: run early (conftest.py)

BUNDLE_OF = {
    "instancetypes/cluster": "common-clusterinstancetypes-bundle.yaml",
    "instancetypes/namespaced": "common-instancetypes-bundle.yaml",
    "preferences/cluster": "common-clusterpreferences-bundle.yaml",
    "preferences/namespaced": "common-preferences-bundle.yaml",
}
ALL_BUNDLE = "common-instancetypes-all-bundle.yaml"


def kustomization_dirs() -> list[str]:
    """Every directory of the generated tree that holds a kustomization, relative to the output.

    The components of KubeVirt releases (``kustomize/components/``) are not bases but
    changes to one: tests/test_outputs_releases.py builds them with the tree.
    """
    names = default_build().files
    return sorted(n[: -len("/kustomization.yaml")] for n in names
                  if n.startswith("kustomize/") and n.endswith("/kustomization.yaml")
                  and not n.startswith("kustomize/components/")) + ["kustomize"]


#: kubectl's environment here: Go's collector left to run four times less often, which takes a
#: quarter of the CPU time kustomize spends on the catalog (what it prints is the same).
KUBECTL_ENV = {**os.environ, "GOGC": "400"}


def kustomize(directory: Path) -> list[dict]:
    run = subprocess.run([kubectl(), "kustomize", str(directory)], capture_output=True, text=True, env=KUBECTL_ENV)
    assert run.returncode == 0, run.stderr
    return parse_stream(run.stdout)


@lru_cache(maxsize=None)
def kustomized_output(directory: Path) -> tuple[dict, ...]:
    """``kustomize`` of a folder of the shared earlier build (``previous_output``, read only), run once for the
    module: the root kustomization is the one both the per-folder check and the order check build."""
    return tuple(kustomize(directory))


def stream(text: str) -> list[dict]:
    return parse_stream(text)


def keyed(docs: Iterable[dict]) -> dict[tuple[str, str], dict]:
    docs = list(docs)
    out = {(d["kind"], d["metadata"]["name"]): d for d in docs}
    assert len(out) == len(docs), "the same kind and name twice"
    return out


@lru_cache(maxsize=None)
def bundle_objects(name: str) -> tuple[dict, ...]:
    """The documents of one of the default build's bundles, parsed once for the module: read only."""
    return tuple(stream(default_build().bundles[name]))


def expected_objects(directory: str) -> list[dict]:
    """What the catalog says a kustomization directory must hold."""
    build = default_build()
    if directory == "kustomize":
        return list(bundle_objects(ALL_BUNDLE))
    parts = directory.split("/")
    bundle = list(bundle_objects(BUNDLE_OF["/".join(parts[1:3])]))
    if len(parts) == 3:
        return bundle
    family = parts[1][: -len("s")]
    members = {o.name for o in build.objects if o.family == family and o.group == parts[3]}
    return [d for d in bundle if d["metadata"]["name"] in members]


@pytest.fixture
def out(previous_output: Path) -> Path:
    """The default build's files as `citgen build --out` wrote them (shared: read only)."""
    return previous_output


def test_the_tree_has_a_kustomization_per_kind_and_per_series_or_family():
    build = default_build()
    groups = {family: sorted({o.group for o in build.objects if o.family == family})
              for family in ("instancetype", "preference")}
    wanted = {"kustomize"} | {f"kustomize/{kind}" for kind in BUNDLE_OF}
    for kind in BUNDLE_OF:
        wanted |= {f"kustomize/{kind}/{g}" for g in groups[kind.split("s/")[0]]}
    assert set(kustomization_dirs()) == wanted
    assert "kustomize/instancetypes/cluster/u" in wanted and "kustomize/preferences/namespaced/windows" in wanted


@pytest.mark.parametrize("directory", kustomization_dirs())
def test_kustomization_builds_exactly_its_bundle_objects(out: Path, directory: str):
    built = list(kustomized_output(out / directory))
    expected = expected_objects(directory)
    assert expected, f"{directory} stands for no object"
    assert keyed(built) == keyed(expected)


def test_the_root_keeps_the_all_bundle_order(out: Path):
    assert list(kustomized_output(out / "kustomize")) == stream(default_build().bundles[ALL_BUNDLE])


def test_resource_files_are_the_bundle_documents_as_rendered():
    """Concatenating a kind's group files in kustomization order gives its bundle text, byte for byte."""
    files = default_build().files
    for kind, bundle in BUNDLE_OF.items():
        listed = yaml.safe_load(files[f"kustomize/{kind}/kustomization.yaml"])["resources"]
        text = b"".join(files[f"kustomize/{kind}/{group}/{group}.yaml"] for group in listed)
        assert text.decode() == default_build().bundles[bundle], kind


def test_the_tree_cut_from_the_bundles_is_the_tree_made_from_each_rendered_text():
    """Without the rendered texts (a producer called on bundles alone) the tree is the same."""
    build = default_build()
    ctx = OutputContext(build.catalog, build.version, build.objects, build.bundles, documents=build.documents)
    assert ctx.texts == {}
    assert kustomize_files(ctx) == {n: d for n, d in build.files.items() if n.startswith("kustomize/")}


def overlay(directory: Path, base: Path, text: str) -> Path:
    directory.mkdir()
    spec: dict[str, Any] = yaml.safe_load(textwrap.dedent(text))
    spec["resources"] = [os.path.relpath(base, directory)]
    (directory / "kustomization.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))
    return directory


def test_a_gitops_overlay_takes_the_u_series_relabels_prefixes_and_drops_a_size(out: Path, tmp_path: Path):
    base = out / "kustomize" / "instancetypes" / "cluster" / "u"
    dropped = "u1.8xlarge"
    site = overlay(tmp_path / "site", base, f"""
        apiVersion: kustomize.config.k8s.io/v1beta1
        kind: Kustomization
        namePrefix: acme-
        labels:
          - pairs:
              example.com/team: platform
        patches:
          - patch: |
              $patch: delete
              apiVersion: instancetype.kubevirt.io/v1beta1
              kind: VirtualMachineClusterInstancetype
              metadata:
                name: {dropped}
        """)
    source = copy.deepcopy(expected_objects("kustomize/instancetypes/cluster/u"))  # the cached objects are shared
    assert dropped in {d["metadata"]["name"] for d in source}
    expected = []
    for doc in source:
        if doc["metadata"]["name"] == dropped:
            continue
        doc["metadata"]["name"] = "acme-" + doc["metadata"]["name"]
        doc["metadata"]["labels"]["example.com/team"] = "platform"
        expected.append(doc)
    built = kustomize(site)
    assert keyed(built) == keyed(expected)
    assert len(built) == len(source) - 1


def test_citgen_build_out_writes_the_tree_under_out(tmp_path: Path):
    result = CliRunner().invoke(main, ["build", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert keyed(kustomize(tmp_path / "out" / "kustomize")) == keyed(expected_objects("kustomize"))
