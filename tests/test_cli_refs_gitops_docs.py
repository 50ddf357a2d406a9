"""docs/gitops.md, "Checking the references of a GitOps repository": every citgen command it shows, run.

The CI job's step, the commands that read a rendered chart and a cluster dump on
standard input, and the upgrade check (its command, and the job's step in a real Git
repository with the pull request's base branch) are each run as the section writes
them, on a small GitOps repository written here. The pre-commit hook and its
configuration are run by the real pre-commit in tests/test_precommit_hooks.py.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result as Run

from generator.cli import main
from tests.conftest import SHARED, shared_file
from tests.helpers import REPO, documented_section, documented_yaml

SECTION = "## Checking the references of a GitOps repository"
CI = "### In CI, with annotations on the pull request"
UPGRADE = "### What an upgrade breaks, as a pull-request comment"
BUNDLE = "catalog/common-instancetypes-all-bundle.yaml"
V1_0_0 = SHARED / "reference" / "releases" / "v1.0.0-common-instancetypes-all-bundle.yaml"


def vm(name: str, preference: str, instancetype: str = "u1.medium", namespace: str = "shop") -> dict[str, Any]:
    return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine",
            "metadata": {"name": name, "namespace": namespace},
            "spec": {"instancetype": {"name": instancetype}, "preference": {"name": preference},
                     "runStrategy": "Always", "template": {"spec": {"domain": {"devices": {}}}}}}


def data_source(name: str, preference: str) -> dict[str, Any]:
    return {"apiVersion": "cdi.kubevirt.io/v1beta1", "kind": "DataSource",
            "metadata": {"name": name, "namespace": "os-images",
                         "labels": {"instancetype.kubevirt.io/default-instancetype": "u1.medium",
                                    "instancetype.kubevirt.io/default-preference": preference}},
            "spec": {"source": {"pvc": {"name": name, "namespace": "os-images"}}}}


def write(path: Path, *documents: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump_all(documents, sort_keys=False), encoding="utf-8")


def sh_lines(heading: str) -> list[str]:
    """The command lines of the ``sh`` blocks of the section ``heading`` opens."""
    blocks = re.findall(r"^```sh\n(.*?)^```", documented_section("gitops.md", heading), re.S | re.M)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def citgen(command: str, stdin: str | None = None) -> Run:
    """A documented ``citgen ...`` command line, run in this process."""
    words = shlex.split(command)
    assert words[0] == "citgen", command
    return CliRunner().invoke(main, words[1:], input=stdin)


@pytest.fixture
def gitops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A GitOps repository as the working directory: manifests whose names resolve, and the documented names file."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".citgen-refs.yaml").write_text(documented_yaml("gitops.md", SECTION), encoding="utf-8")
    write(tmp_path / "manifests" / "shop.yaml", vm("web", "fedora"), vm("db", "rhel.9", "u1.large"))
    write(tmp_path / "manifests" / "images.yaml", data_source("centos-stream9", "centos.stream9"))
    write(tmp_path / "manifests" / "forklift.yaml", {
        "apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "forklift-vsphere-osmap"},
        "data": {"rhel9_64Guest": "rhel.9", "windows2019srv_64Guest": "windows.2k19.virtio"}})
    return tmp_path


def ci_commands() -> list[str]:
    """The citgen steps of the documented CI job."""
    job = yaml.safe_load(documented_yaml("gitops.md", CI))["jobs"]["refs"]
    return [step["run"] for step in job["steps"] if step.get("run", "").startswith("citgen ")]


def test_the_ci_step_passes_a_repository_whose_names_resolve(gitops: Path):
    (command,) = ci_commands()
    run = citgen(command)
    assert run.exit_code == 0, run.output
    assert run.stdout == ("::notice title=citgen refs::8 references checked against the build for KubeVirt v1.8 of "
                          "the built-in catalog v1.8.0-dev; 3 files read; nothing found\n")  # the step reports for GitHub


def test_the_ci_step_annotates_each_finding_on_its_line(gitops: Path):
    write(gitops / "manifests" / "forklift.yaml", {
        "apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "forklift-vsphere-osmap"},
        "data": {"rhel9_64Guest": "rhel.9", "windows2019srv_64Guest": "windows.2019"}})
    write(gitops / "manifests" / "legacy.yaml", vm("legacy", "centos.8.stream"))
    (command,) = ci_commands()
    run = citgen(command)
    assert run.exit_code == 1
    annotations = [line.split("::")[1] for line in run.stdout.splitlines() if line.startswith("::error ")]
    assert annotations == ["error file=manifests/forklift.yaml,line=7,col=27,title=unknown-name",
                           "error file=manifests/legacy.yaml,line=10,col=11,title=unknown-name"]
    assert "names preference 'centos.8.stream', which the build for KubeVirt v1.8" in run.stdout


def test_a_rendered_chart_and_a_cluster_dump_are_read_on_standard_input(gitops: Path):
    lines = sh_lines(CI)
    assert [line.split(" | ")[0].split()[:2] for line in lines] == [["helm", "template"], ["kubectl", "get"]]
    rendered = "".join(f"---\n# Source: shop/templates/{document['metadata']['name']}.yaml\n"
                       + yaml.safe_dump(document, sort_keys=False)
                       for document in (vm("web", "fedora"), vm("legacy", "centos.stream8")))
    dump = yaml.safe_dump({"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""},
                           "items": [vm("web", "fedora"), data_source("centos-stream8", "centos.stream8")]})
    for line, stdin in zip(lines, (rendered, dump)):
        run = citgen(line.split(" | ")[1], stdin)
        assert run.exit_code == 1, run.output
        assert "names preference 'centos.stream8', which the build for KubeVirt v1.8 of the built-in catalog " \
               "does not have: centos.stream8 was removed in v1.2.1; use 'centos.stream9' [unknown-name]" in run.stdout
        assert run.stdout.splitlines()[-1].startswith("4 references checked against the build for KubeVirt v1.8")
        assert run.stderr == ""
    assert "$.items[1].metadata.labels['instancetype.kubevirt.io/default-preference']" in run.stdout


def test_the_upgrade_check_is_a_ready_comment_of_what_breaks(gitops: Path):
    (command,) = sh_lines(UPGRADE)
    shutil.copy(shared_file(V1_0_0), gitops / "old-bundle.yaml")
    (gitops / "catalog").mkdir()
    shutil.copy(REPO / "bundles" / "common-instancetypes-all-bundle.yaml", gitops / BUNDLE)
    write(gitops / "manifests" / "ci.yaml", vm("build-8", "centos.stream8"))
    run = citgen(command)
    assert run.exit_code == 1
    assert run.stdout.startswith("### citgen refs: references this upgrade breaks or changes\n\n"
                                 "From bundle old-bundle.yaml to bundle catalog/common-instancetypes-all-bundle.yaml.")
    assert "| `centos.stream8` preference | 1 | bundle catalog/common-instancetypes-all-bundle.yaml does not have " \
           "it" in run.stdout


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=test", "-c", "user.email=test@example.com", *args], cwd=cwd,
                   check=True, capture_output=True)


def test_the_upgrade_step_compares_the_bundle_of_the_base_branch(tmp_path: Path):
    """The job's step in a clone whose pull request moves the bundle from v1.0.0 to today's, as bash -e runs it."""
    script = Path(sys.executable).with_name("citgen")
    if not script.is_file():
        pytest.skip("no citgen console script beside this interpreter")
    workflow = yaml.safe_load(documented_yaml("gitops.md", UPGRADE))
    (step,) = [s for s in workflow["jobs"]["upgrade"]["steps"] if s.get("id") == "upgrade"]
    origin, repo = tmp_path / "origin.git", tmp_path / "repo"
    git(tmp_path, "init", "-q", "--bare", str(origin))
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    (repo / "catalog").mkdir()
    shutil.copy(shared_file(V1_0_0), repo / BUNDLE)
    write(repo / "manifests" / "ci.yaml", vm("build-8", "centos.stream8"), vm("web", "fedora"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "v1.0.0")
    git(repo, "remote", "add", "origin", str(origin))
    git(repo, "push", "-q", "origin", "main")
    git(repo, "checkout", "-q", "-b", "upgrade")
    shutil.copy(REPO / "bundles" / "common-instancetypes-all-bundle.yaml", repo / BUNDLE)
    git(repo, "commit", "-q", "-am", "today's catalog")
    env = {**os.environ, "PATH": f"{script.parent}{os.pathsep}{os.environ['PATH']}",
           **{name: value.replace("${{ github.base_ref }}", "main") for name, value in step["env"].items()}}
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], cwd=repo, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 1, done.stderr  # the upgrade breaks a name: the comment step runs
    comment = (repo / "upgrade.md").read_text(encoding="utf-8")
    assert comment.startswith("### citgen refs: references this upgrade breaks or changes\n")
    assert "`manifests/ci.yaml:" in comment and "`centos.stream8` preference | 1 |" in comment
