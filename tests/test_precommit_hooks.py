"""The pre-commit hooks of .pre-commit-hooks.yaml, run by the real pre-commit in a vendor's and a GitOps repository.

The vendor's repository is made as a vendor makes one: `citgen init`, a build, the
README tables, a commit, and a .pre-commit-config.yaml naming this project's
repository at a revision. The GitOps repository holds manifests that name catalog
objects, and the .pre-commit-config.yaml and names file docs/gitops.md shows for the
`citgen-refs` hook. pre-commit installs citgen from that revision into its own
environment (once for the module, in a private PRE_COMMIT_HOME) and runs the hooks.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SHARED, shared_file
from tests.helpers import REPO, documented_section, documented_yaml

pytestmark = pytest.mark.heavy(18)  # seconds of a worker's time: run early (conftest.py)

HOOKS = ("citgen-build-check", "citgen-readme-check", "citgen-validate")
README = "# Example catalog\n" + "".join(f"\n<!-- BEGIN citgen readme: {table} -->\n<!-- END citgen readme: {table} -->\n"
                                         for table in ("series", "instancetypes", "preferences"))


def run(args: list[str], cwd: Path, env: dict[str, str] | None = None, check: bool = True):
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise AssertionError(f"{args} failed with {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done


def git(cwd: Path, *args: str) -> str:
    return run(["git", "-c", "user.name=test", "-c", "user.email=test@example.com", *args], cwd).stdout.strip()


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """This project as pre-commit fetches it: a git repository holding the working tree, and its revision."""
    snapshot = tmp_path_factory.mktemp("citgen-repo")
    listed = run(["git", "ls-files", "-co", "--exclude-standard", "-z"], REPO).stdout.split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():
            target = snapshot / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    git(snapshot, "init", "-q")
    git(snapshot, "add", "-A")
    git(snapshot, "commit", "-q", "-m", "snapshot")
    return snapshot, git(snapshot, "rev-parse", "HEAD")


@pytest.fixture(scope="module")
def environment(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    home = tmp_path_factory.mktemp("pre-commit-home")
    return {**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never", "LC_ALL": "C.UTF-8"}


@pytest.fixture(scope="module")
def committed_catalog(tmp_path_factory: pytest.TempPathFactory, project: tuple[Path, str]) -> Path:
    """A vendor's catalog repository, outputs built and committed, configured to use the hooks. Read only."""
    citgen = [sys.executable, "-m", "generator.cli"]
    repo = tmp_path_factory.mktemp("vendor") / "catalog"
    run([*citgen, "init", str(repo), "--vendor", "example.com"], repo.parent)
    (repo / "README.md").write_text(README)
    with (repo / "catalog.yaml").open("a") as settings:  # every output citgen writes, the admission policy too
        settings.write("policy: {}\n")
    run([*citgen, "build", "--catalog", ".", "--out", "bundles"], repo)
    run([*citgen, "readme", "--catalog", "."], repo)
    url, rev = project
    hooks = "".join(f"      - id: {hook}\n" for hook in HOOKS)
    (repo / ".pre-commit-config.yaml").write_text(f"repos:\n  - repo: {url}\n    rev: {rev}\n    hooks:\n{hooks}")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "catalog")
    return repo


@pytest.fixture
def catalog_repo(tmp_path: Path, committed_catalog: Path) -> Path:
    """This test's own copy of that repository (its .git included), to change and commit in."""
    repo = tmp_path / "catalog"
    shutil.copytree(committed_catalog, repo, symlinks=True)
    return repo


def pre_commit(repo: Path, env: dict[str, str], *args: str):
    return run([sys.executable, "-m", "pre_commit", "run", *args], repo, env, check=False)


def test_a_clean_change_passes_every_hook(catalog_repo: Path, environment):
    done = pre_commit(catalog_repo, environment, "--all-files")
    assert done.returncode == 0, done.stdout + done.stderr
    for name in ("citgen outputs are fresh", "citgen README tables are fresh", "citgen validate bundles"):
        assert any(line.startswith(name) and line.endswith("Passed") for line in done.stdout.splitlines()), done.stdout
    assert (catalog_repo / "bundles" / "common-instancetypes-policy.yaml").is_file()  # among the outputs checked


def test_a_catalog_change_without_a_rebuild_fails_with_citgens_message(catalog_repo: Path, environment):
    overlay = catalog_repo / "overlay.yaml"
    overlay.write_text(overlay.read_text() + "series:\n  drop: [rt]\n")
    git(catalog_repo, "add", "overlay.yaml")
    done = pre_commit(catalog_repo, environment, "citgen-build-check")
    assert done.returncode == 1
    assert "bundles is out of date: " in done.stdout
    assert "  stale:   common-clusterinstancetypes-bundle.yaml (0 added, 8 removed, 0 changed)" in done.stdout
    readme = pre_commit(catalog_repo, environment, "citgen-readme-check")
    assert readme.returncode == 1
    assert "README.md is out of date: run `citgen readme`" in readme.stdout


def test_a_broken_bundle_fails_validation_at_its_line(catalog_repo: Path, environment):
    bundle = catalog_repo / "bundles" / "common-clusterinstancetypes-bundle.yaml"
    bundle.write_text(bundle.read_text().replace("guest: 1\n", "guest: one\n", 1))
    git(catalog_repo, "add", "-A")
    done = pre_commit(catalog_repo, environment, "citgen-validate")
    assert done.returncode == 1
    assert ("bundles/common-clusterinstancetypes-bundle.yaml:324:12: error: VirtualMachineClusterInstancetype "
            "cx1.medium $.spec.cpu.guest: expected integer, got string 'one' [schema]\n"
            "1 problem in 1 of 65 documents\n") in done.stdout


# --------------------------------------------------------------------------- citgen-refs in a GitOps repository

#: The section of docs/gitops.md that shows the hook, and the one that shows the names file.
HOOK_SECTION = "### Before every commit: the `citgen-refs` hook"
NAMES_SECTION = "## Checking the references of a GitOps repository"



def vm(name: str, namespace: str, preference: str, instancetype: str | None = None) -> str:
    """A VirtualMachine naming a preference, and an instancetype when given."""
    matchers = f"  instancetype:\n    name: {instancetype}\n" if instancetype else ""
    return (f"apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: {name}\n  namespace: {namespace}\n"
            f"spec:\n{matchers}  preference:\n    name: {preference}\n  runStrategy: Always\n"
            "  template:\n    spec:\n      domain:\n        devices: {}\n")


DATA_SOURCE = """\
apiVersion: cdi.kubevirt.io/v1beta1
kind: DataSource
metadata:
  name: centos-stream9
  namespace: os-images
  labels:
    instancetype.kubevirt.io/default-instancetype: u1.medium
    instancetype.kubevirt.io/default-preference: centos.stream9
spec:
  source:
    pvc: {name: centos-stream9, namespace: os-images}
"""
#: A guest-OS map as Forklift keeps one (../shared/reference/consumers/forklift-osmap-ovirt).
OSMAP = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: forklift-ovirt-osmap
  namespace: konveyor-forklift
data:
  rhel_9x64: "rhel.9"
  ubuntu_14_04: "ubuntu"
  windows_2022: "{windows}"
"""


def documented_output(heading: str) -> str:
    """The first plain (untagged) code block of the section ``heading`` opens in docs/gitops.md: what is printed."""
    blocks = re.findall(r"^```(\w*)\n(.*?)^```", documented_section("gitops.md", heading), re.S | re.M)
    return next(text for language, text in blocks if not language)


@pytest.fixture(scope="module")
def committed_gitops(tmp_path_factory: pytest.TempPathFactory, project: tuple[Path, str]) -> Path:
    """A GitOps repository whose manifests name catalog objects, configured as docs/gitops.md shows. Read only."""
    repo = tmp_path_factory.mktemp("gitops") / "cluster"
    url, rev = project
    files = {
        ".pre-commit-config.yaml": documented_yaml("gitops.md", HOOK_SECTION).replace(
            "https://github.com/<owner>/<citgen repository>", str(url)).replace("<tag or commit>", rev),
        ".citgen-refs.yaml": documented_yaml("gitops.md", NAMES_SECTION),
        "manifests/apps/shop.yaml": vm("shop", "shop", "fedora", "u1.medium"),
        "manifests/images/centos.yaml": DATA_SOURCE,
        "manifests/forklift/osmap.yaml": OSMAP.format(windows="windows.2k22.virtio"),
        "manifests/values.yaml": "replicas: 2\nimage: {tag: v1}\n",  # no Kubernetes object: skipped
    }
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "cluster")
    return repo


@pytest.fixture
def gitops_repo(tmp_path: Path, committed_gitops: Path) -> Path:
    """This test's own copy of the GitOps repository, to change and stage files in."""
    repo = tmp_path / "cluster"
    shutil.copytree(committed_gitops, repo, symlinks=True)
    return repo


def staged(repo: Path, name: str, text: str) -> None:
    (repo / name).parent.mkdir(parents=True, exist_ok=True)
    (repo / name).write_text(text)
    git(repo, "add", name)


def test_the_refs_hook_passes_manifests_whose_references_resolve(gitops_repo: Path, environment):
    done = pre_commit(gitops_repo, environment, "citgen-refs", "--all-files", "--verbose")
    assert done.returncode == 0, done.stdout + done.stderr
    assert any(line.startswith("citgen refs") and line.endswith("Passed") for line in done.stdout.splitlines())
    # every manifest in one run, the places of the names file read, the values file skipped
    assert ("7 references checked against the build for KubeVirt v1.8 of the built-in catalog v1.8.0-dev; "
            "6 files read, 3 skipped (no Kubernetes manifests and no references); nothing found") in done.stdout


def test_a_vm_naming_centos_8_stream_fails_with_the_documented_finding(gitops_repo: Path, environment):
    staged(gitops_repo, "manifests/apps/build.yaml", vm("build", "ci", "centos.8.stream"))
    done = pre_commit(gitops_repo, environment, "citgen-refs")
    assert done.returncode == 1
    shown = documented_output(HOOK_SECTION)
    assert shown in done.stdout, done.stdout  # the failure docs/gitops.md shows is what pre-commit prints


def test_a_guest_os_map_the_names_file_names_is_checked(gitops_repo: Path, environment):
    staged(gitops_repo, "manifests/forklift/osmap.yaml", OSMAP.format(windows="windows.2022"))
    done = pre_commit(gitops_repo, environment, "citgen-refs")
    assert done.returncode == 1
    assert ("manifests/forklift/osmap.yaml:9:17: error: ConfigMap konveyor-forklift/forklift-ovirt-osmap "
            "$.data.windows_2022: names preference 'windows.2022', which the build for KubeVirt v1.8 of the built-in "
            "catalog does not have; did you mean") in done.stdout, done.stdout
    # only the changed file is read
    assert "3 references checked against the build for KubeVirt v1.8 of the built-in catalog v1.8.0-dev; " \
           "1 file read; 1 finding" in done.stdout


def test_the_release_pinned_in_args_judges_what_its_build_leaves_out(gitops_repo: Path, environment):
    staged(gitops_repo, "manifests/apps/secure.yaml", vm("secure", "shop", "fedora.s390x.secex", "u1.medium"))
    done = pre_commit(gitops_repo, environment, "citgen-refs")
    assert done.returncode == 1
    assert ("names preference 'fedora.s390x.secex', which the build for KubeVirt v1.8 of the built-in catalog "
            "leaves out: its spec.preferredLaunchSecurity came in KubeVirt v1.9 [release]") in done.stdout


def test_a_bundle_pinned_in_args_is_what_names_are_judged_against(gitops_repo: Path, environment):
    """A cluster whose virt-operator deploys upstream's v1.0.0: centos.stream8 is there, today's centos.stream10 not."""
    release = shared_file(SHARED / "reference" / "releases" / "v1.0.0-common-instancetypes-all-bundle.yaml")
    shutil.copy(release, gitops_repo / "catalog.yaml")
    config = gitops_repo / ".pre-commit-config.yaml"
    config.write_text(config.read_text().replace("args: [--kubevirt, v1.8,", "args: [--bundle, catalog.yaml,"))
    git(gitops_repo, "add", "-A")
    staged(gitops_repo, "manifests/apps/old.yaml", vm("old", "shop", "centos.stream8", "u1.medium"))
    assert pre_commit(gitops_repo, environment, "citgen-refs", "--files", "manifests/apps/old.yaml").returncode == 0
    staged(gitops_repo, "manifests/apps/new.yaml", vm("new", "shop", "centos.stream10", "u1.medium"))
    done = pre_commit(gitops_repo, environment, "citgen-refs", "--files", "manifests/apps/new.yaml")
    assert done.returncode == 1
    assert "names preference 'centos.stream10', which bundle catalog.yaml does not have" in done.stdout, done.stdout


INSTANCETYPE = """\
apiVersion: instancetype.kubevirt.io/v1beta1
kind: VirtualMachineInstancetype
metadata:
  name: shop.small
  namespace: shop
spec:
  cpu: {guest: 1}
  memory: {guest: 1Gi}
"""


def test_a_definition_in_an_unchanged_file_is_read_when_the_hook_checks_the_whole_folder(gitops_repo: Path,
                                                                                          environment):
    staged(gitops_repo, "manifests/platform/instancetypes.yaml", INSTANCETYPE)
    git(gitops_repo, "commit", "-q", "-m", "the shop's own instancetype")
    namespaced = "    kind: VirtualMachineInstancetype\n    name: shop.small\n"
    staged(gitops_repo, "manifests/apps/small.yaml",
           vm("small", "shop", "fedora", "shop.small").replace("    name: shop.small\n", namespaced))
    changed = pre_commit(gitops_repo, environment, "citgen-refs")
    assert changed.returncode == 1  # only the VM's file is read: its instancetype is unknown
    assert ("manifests/apps/small.yaml:9:11: error: VirtualMachine shop/small $.spec.instancetype.name: names "
            "instancetype 'shop.small', which the build for KubeVirt v1.8 of the built-in catalog does not have") \
        in changed.stdout, changed.stdout
    section = documented_section("gitops.md", HOOK_SECTION)
    folder = re.search(r"`(args: \[[^`]*manifests/\])`", section).group(1)
    assert "`pass_filenames: false`" in section
    config = gitops_repo / ".pre-commit-config.yaml"
    config.write_text(re.sub(r"args: \[.*\]", f"pass_filenames: false\n        {folder}", config.read_text()))
    git(gitops_repo, "add", ".pre-commit-config.yaml")
    whole = pre_commit(gitops_repo, environment, "citgen-refs")
    assert whole.returncode == 0, whole.stdout
