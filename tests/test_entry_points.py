"""The repository's kustomize entry points, where users of upstream's catalog already point.

KubeVirt's user guide deploys the catalog with `kubectl apply -k <repository URL>`, and
GitOps repositories take upstream's kind-level directories (VirtualMachineClusterInstancetypes/,
...) as remote bases. This repository has the same entry points at its root, each a thin
kustomization of the generated tree under bundles/kustomize; every one is built here with
real `kubectl kustomize`, from the checkout and as a remote base fetched from a Git URL, and
compared with the committed bundle it stands for.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from generator.outputs.kustomize import BUNDLE_OF_KIND, KIND_DIRS
from tests.helpers import REPO, kubectl, parse_stream

pytestmark = pytest.mark.heavy(4)  # seconds of a worker's time: run early (conftest.py)

ALL_BUNDLE = "common-instancetypes-all-bundle.yaml"
#: Upstream's kind-level directories are named after the kind they hold, in the plural.
ENTRY_POINTS = {f"{kind}s": kind for kind in KIND_DIRS}
#: Every entry point (the root is "") and the committed bundle it must build.
BUNDLE_OF_ENTRY = {"": ALL_BUNDLE, **{name: BUNDLE_OF_KIND[kind] for name, kind in ENTRY_POINTS.items()}}
TAG = "v1.8.0"


def build(target: str) -> list[dict]:
    """`kubectl kustomize` of a directory or a remote URL, as `kubectl apply -k` reads it."""
    run = subprocess.run([kubectl(), "kustomize", target], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return parse_stream(run.stdout)


def committed(bundle: str) -> list[dict]:
    return parse_stream((REPO / "bundles" / bundle).read_text(encoding="utf-8"))


def test_the_root_has_upstreams_kind_level_entry_points_and_no_other():
    found = {p.parent.name for p in REPO.glob("*/kustomization.yaml")}
    assert found == set(ENTRY_POINTS) == {"VirtualMachineClusterInstancetypes", "VirtualMachineInstancetypes",
                                          "VirtualMachineClusterPreferences", "VirtualMachinePreferences"}
    assert (REPO / "kustomization.yaml").is_file()


@pytest.mark.parametrize("entry", BUNDLE_OF_ENTRY, ids=lambda e: e or "root")
def test_each_entry_point_points_at_its_generated_kustomization(entry: str):
    """A thin kustomization: one resource, the generated directory of its kind (or the whole tree)."""
    spec = yaml.safe_load((REPO / entry / "kustomization.yaml").read_text(encoding="utf-8"))
    wanted = "bundles/kustomize" if not entry else f"../bundles/kustomize/{KIND_DIRS[ENTRY_POINTS[entry]]}"
    assert spec["resources"] == [wanted]
    assert spec["sortOptions"] == {"order": "fifo"}


@pytest.mark.parametrize("entry", BUNDLE_OF_ENTRY, ids=lambda e: e or "root")
def test_each_entry_point_builds_its_bundle_in_order(entry: str):
    built = build(str(REPO / entry))
    assert built == committed(BUNDLE_OF_ENTRY[entry])
    if entry:
        assert {d["kind"] for d in built} == {ENTRY_POINTS[entry]}


@pytest.fixture(scope="module")
def remote(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A Git repository holding the entry points and the generated tree, tagged, as a URL kustomize fetches."""
    git = shutil.which("git")
    if git is None:
        if os.environ.get("CI") == "true":
            pytest.fail("git is required under CI: kustomize fetches remote bases with it")
        pytest.skip("git is not installed")
    repo = tmp_path_factory.mktemp("remote") / "common-instancetypes"
    shutil.copytree(REPO / "bundles" / "kustomize", repo / "bundles" / "kustomize")
    for entry in BUNDLE_OF_ENTRY:
        (repo / entry).mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / entry / "kustomization.yaml", repo / entry / "kustomization.yaml")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": os.devnull}
    for command in (["init", "--quiet"], ["add", "--all"], ["commit", "--quiet", "--message", "catalog"],
                    ["tag", TAG]):
        subprocess.run([git, *command], cwd=repo, env=env, check=True, capture_output=True)
    return repo.as_uri()


def test_kubectl_apply_k_with_the_repository_url_gets_the_whole_catalog(remote: str):
    assert build(f"{remote}?ref={TAG}") == committed(ALL_BUNDLE)


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_an_upstream_remote_base_needs_only_a_new_url(remote: str, entry: str, tmp_path: Path):
    """An overlay written against upstream's directory, with this repository's URL in its place."""
    (tmp_path / "kustomization.yaml").write_text(yaml.safe_dump({
        "apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization",
        "resources": [f"{remote}//{entry}?ref={TAG}"],
        "labels": [{"pairs": {"example.com/team": "platform"}}],
    }))
    wanted = committed(BUNDLE_OF_ENTRY[entry])
    for doc in wanted:
        doc["metadata"]["labels"]["example.com/team"] = "platform"
    assert build(str(tmp_path)) == wanted


def test_docs_map_every_upstream_entry_point_to_this_repository():
    text = (REPO / "docs" / "gitops.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `https://github\.com/kubevirt/common-instancetypes(/[^`?]*)?(?:\?[^`]*)?` \| "
                      r"`\$\{CATALOG\}(/[^`?]*)?(?:\?[^`]*)?` \|", text, re.M)
    assert sorted(rows) == sorted((f"/{e}" if e else "", f"/{e}" if e else "") for e in BUNDLE_OF_ENTRY)
