"""What an upgrade of the catalog does to references (``citgen refs --from OLD --to NEW``).

The references are written by hand here, as the scan hands them over, and looked up
in real releases: upstream's v0.1.0 and v1.0.0 bundles (../shared/reference/releases/)
and today's build. """

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from generator.cli import main
from generator.model import label
from generator.problems import Location
from generator.schemas.releases import Release
from generator.source.documents import BundleDoc
from generator.tools.refs.model import Definition, Owner, Reference, Scan
from generator.tools.refs.target import Target, target_objects
from generator.tools.refs.upgrade import meaning_changes, render_markdown, render_text, upgrade
from tests.conftest import SHARED, shared_file
from tests.helpers import copy_catalog

V0_1_0 = SHARED / "reference" / "releases" / "v0.1.0-all.yaml"
V1_0_0 = SHARED / "reference" / "releases" / "v1.0.0-common-instancetypes-all-bundle.yaml"
WEB = Owner("vms.yaml#0", "VirtualMachine", "web", "vms")
DB = Owner("vms.yaml#1", "VirtualMachine", "db", "vms")


@lru_cache(maxsize=None)
def today() -> Target:
    return target_objects()


@lru_cache(maxsize=None)
def release(path: Path) -> Target:
    return target_objects(bundles=(shared_file(path),))


def ref(family: str, name: str | None, owner: Owner = WEB, line: int = 8, kind: str | None = None) -> Reference:
    return Reference(family, name, kind, owner, Location("vms.yaml", line, 11, ("spec", family, "name")),
                     f"spec.{family}", unchecked=None if name else "parameter NAME has no default")


def scanned(*references: Reference, definitions: tuple[Definition, ...] = ()) -> Scan:
    return Scan(references, definitions, 1, (), ())


# --------------------------------------------------------------------------- what breaks


def test_names_v1_0_0_had_and_today_has_not_break_and_are_counted_per_object():
    result = upgrade(scanned(ref("preference", "centos.stream8"), ref("preference", "centos.stream8", DB, 30),
                             ref("preference", "centos.7", line=40), ref("instancetype", "u1.medium")),
                     release(V1_0_0), today())
    assert [(n.name, n.count, n.what) for n in result.breaks] == [
        ("centos.7", 1, "the built-in catalog does not have it: centos.7 was removed in v1.2.1; use 'rhel.7'"),
        ("centos.stream8", 2, "the built-in catalog does not have it: centos.stream8 was removed in v1.2.1; use "
                              "'centos.stream9'")]
    assert [r.location.line for r in result.breaks[1].references] == [8, 30]
    assert result.found
    assert result.counts == {"references": 4, "checked": 4, "unchecked": 0, "files": 1, "skipped": 0,
                             "breaks": 3, "breaksObjects": 2, "deprecates": 0, "deprecatesObjects": 0,
                             "changes": 0, "changesObjects": 0}


def test_a_name_broken_before_the_upgrade_is_not_the_upgrades():
    result = upgrade(scanned(ref("preference", "no.such.thing")), release(V1_0_0), today())
    assert not result.found


def test_unchecked_references_are_counted_and_never_compared():
    result = upgrade(scanned(ref("preference", None), ref("preference", "fedora")), release(V1_0_0), today())
    assert (result.checked, result.unchecked, result.found) == (1, 1, False)


def test_an_object_the_manifests_define_themselves_survives_any_upgrade():
    mine = Definition("preference", "VirtualMachinePreference", "centos.stream8", "vms",
                      Location("defs.yaml", 5, 9, ("metadata", "name")))
    result = upgrade(scanned(ref("preference", "centos.stream8", kind="VirtualMachinePreference"),
                             definitions=(mine,)), release(V1_0_0), today())
    assert not result.found


def test_a_namespaced_kind_new_ships_only_cluster_wide_breaks():
    cluster_only = Target(tuple(d for d in today().documents if "Cluster" in (d.kind or "")), "bundle cluster.yaml")
    result = upgrade(scanned(ref("instancetype", "u1.medium", kind="VirtualMachineInstancetype")), today(),
                     cluster_only)
    assert [(n.name, n.kind, n.what) for n in result.breaks] == [
        ("u1.medium", "VirtualMachineInstancetype",
         "bundle cluster.yaml ships it only as a VirtualMachineClusterInstancetype")]


def test_an_object_the_build_for_an_older_kubevirt_leaves_out_breaks_with_the_field_that_did():
    result = upgrade(scanned(ref("preference", "fedora.s390x.secex")), today(),
                     target_objects(kubevirt=Release(1, 8)))
    assert [(n.name, n.what) for n in result.breaks] == [
        ("fedora.s390x.secex", "the build for KubeVirt v1.8 of the built-in catalog leaves it out: its "
                               "spec.preferredLaunchSecurity came in KubeVirt v1.9")]


# --------------------------------------------------------------------------- what changes meaning


def test_upstreams_neutral_n1_sizes_became_the_network_class():
    result = upgrade(scanned(ref("instancetype", "n1.medium"), ref("instancetype", "n1.large", DB)),
                     release(V0_1_0), today())
    assert [(n.name, n.what) for n in result.changes] == [
        ("n1.large", "class none -> network, vCPUs 2 -> 4, dedicated CPUs no -> yes"),
        ("n1.medium", "class none -> network, vCPUs 1 -> 4, dedicated CPUs no -> yes")]
    assert result.breaks == ()


def it(name: str, cpu: int, memory: str, klass: str | None = None, dedicated: bool = False) -> dict:
    labels = {label("class"): klass} if klass else {}
    spec = {"cpu": {"guest": cpu, **({"dedicatedCPUPlacement": True} if dedicated else {})},
            "memory": {"guest": memory}}
    return {"kind": "VirtualMachineClusterInstancetype", "metadata": {"name": name, "labels": labels}, "spec": spec}


@pytest.mark.parametrize(("old", "new", "said"), [
    (it("x", 1, "1Gi"), it("x", 1, "1Gi"), []),
    (it("x", 1, "1Gi"), it("x", 1, "1024Mi"), []),  # the same amount, written another way
    (it("x", 1, "1Gi", "general.purpose"), it("x", 1, "1Gi", "compute.exclusive"),
     ["class general.purpose -> compute.exclusive"]),
    (it("x", 1, "1Gi"), it("x", 2, "2Gi"), ["vCPUs 1 -> 2", "memory 1Gi -> 2Gi"]),
    (it("x", 1, "1Gi"), it("x", 1, "1Gi", dedicated=True), ["dedicated CPUs no -> yes"]),
])
def test_what_a_name_means_is_its_class_vcpus_memory_and_dedicated_cpus(old, new, said):
    assert meaning_changes(old, new) == said


def test_preferences_are_not_compared_for_meaning():
    result = upgrade(scanned(ref("preference", "fedora")), release(V0_1_0), today())
    assert result.changes == ()


# --------------------------------------------------------------------------- what new deprecates


def deprecated_u1_medium() -> Target:
    """Today's build with u1.medium labelled deprecated for u1.large, as a later release might ship it."""
    docs = []
    for doc in today().documents:
        data = doc.data
        if doc.name == "u1.medium":
            meta = {**data["metadata"], "labels": {**data["metadata"]["labels"], label("deprecated"): "true"},
                    "annotations": {label("deprecated-since"): "v9.0.0", label("deprecated-replacement"): "u1.large"}}
            data = {**data, "metadata": meta}
        docs.append(BundleDoc(doc.file, doc.index, data))
    return Target(tuple(docs), "bundle next.yaml")


def test_an_object_new_deprecates_that_is_still_named_is_listed_with_its_replacement():
    result = upgrade(scanned(ref("instancetype", "u1.medium")), today(), deprecated_u1_medium())
    assert [(n.name, n.what) for n in result.deprecates] == [("u1.medium", "deprecated in v9.0.0; use 'u1.large'")]
    assert result.found


def test_an_object_deprecated_on_both_sides_is_not_news():
    new = deprecated_u1_medium()
    assert not upgrade(scanned(ref("instancetype", "u1.medium")), new, new).found


# --------------------------------------------------------------------------- reports


def test_the_text_report_lists_each_object_its_references_and_the_summary():
    result = upgrade(scanned(ref("preference", "centos.7", line=40), ref("instancetype", "n1.medium")),
                     release(V0_1_0), today())
    old = str(shared_file(V0_1_0))
    assert render_text(result) == (
        "Names that no longer resolve:\n"
        "  preference centos.7 (VirtualMachineClusterPreference), 1 reference: the built-in catalog does not have "
        "it: centos.7 was removed in v1.2.1; use 'rhel.7'\n"
        "    vms.yaml:40:11 VirtualMachine vms/web\n"
        "\n"
        "Names that now mean something else:\n"
        "  instancetype n1.medium (VirtualMachineClusterInstancetype), 1 reference: class none -> network, "
        "vCPUs 1 -> 4, dedicated CPUs no -> yes\n"
        "    vms.yaml:8:11 VirtualMachine vms/web\n"
        "\n"
        "A VirtualMachine already running keeps the copy of its instancetype and preference it stored (its "
        "ControllerRevision) and runs on; what breaks is creating it again from its manifest (a GitOps re-sync, a "
        "new cluster, a restore), and every VirtualMachine that has none yet.\n"
        "\n"
        f"from bundle {old} to the built-in catalog: 1 reference to 1 object broken, 0 to 0 objects newly "
        "deprecated, 1 to 1 object changed in meaning; 2 references checked, 1 file read\n")


def test_the_markdown_report_is_a_pull_request_comment_with_every_name_escaped():
    hostile = Owner("vms.yaml#2", "VirtualMachine", "<img src=x>|*x*", "vms")
    result = upgrade(scanned(ref("preference", "centos.7", hostile, 50)), release(V1_0_0), today())
    shown = render_markdown(result)
    assert shown.startswith("### citgen refs: references this upgrade breaks or changes\n")
    assert "| object | references | what | named in |\n| --- | ---: | --- | --- |\n" in shown
    assert ("| `centos.7` preference | 1 | the built-in catalog does not have it: centos.7 was removed in v1.2.1; "
            "use 'rhel.7' | `vms.yaml:50:11` (VirtualMachine vms/&lt;img src=x&gt;\\\\|\\*x\\*) |") in shown
    assert "<img" not in shown


def test_an_upgrade_that_changes_nothing_says_so():
    result = upgrade(scanned(ref("preference", "fedora")), today(), today())
    assert render_markdown(result).startswith("### citgen refs: no reference changes\n")
    assert render_text(result) == ("from the built-in catalog to the built-in catalog: 0 references to 0 objects "
                                   "broken, 0 to 0 objects newly deprecated, 0 to 0 objects changed in meaning; "
                                   "1 reference checked, 1 file read\n")


# --------------------------------------------------------------------------- the command


def vm(name: str, instancetype: str, preference: str) -> dict:
    return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": name, "namespace": "shop"},
            "spec": {"instancetype": {"name": instancetype}, "preference": {"name": preference},
                     "template": {"spec": {"domain": {"devices": {}}}}}}


@pytest.fixture
def vms(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """VirtualMachines written against upstream's v1.0.0: two name preferences that release deprecated and later
    removed, one a network instancetype, one what is current throughout."""
    monkeypatch.chdir(tmp_path)
    documents = [vm("build-8", "u1.medium", "centos.stream8"), vm("build-7", "u1.small", "centos.7"),
                 vm("router", "n1.medium", "fedora"), vm("web", "u1.medium", "fedora"),
                 vm("legacy", "u1.medium", "centos.stream8")]
    path = tmp_path / "vms.yaml"
    path.write_text(yaml.safe_dump_all(documents, sort_keys=False), encoding="utf-8")
    return path


def refs(*args: str | Path) -> Any:
    return CliRunner().invoke(main, ["refs", *map(str, args)])


def test_from_v1_0_0_to_todays_build_lists_what_breaks_and_exits_1(vms):
    old = shared_file(V1_0_0)
    run = refs("vms.yaml", "--from", old)
    assert run.exit_code == 1
    assert run.stdout == (
        "Names that no longer resolve:\n"
        "  preference centos.7 (VirtualMachineClusterPreference), 1 reference: the built-in catalog does not have "
        "it: centos.7 was removed in v1.2.1; use 'rhel.7'\n"
        "    vms.yaml:25:11 VirtualMachine shop/build-7\n"
        "  preference centos.stream8 (VirtualMachineClusterPreference), 2 references: the built-in catalog does not "
        "have it: centos.stream8 was removed in v1.2.1; use 'centos.stream9'\n"
        "    vms.yaml:10:11 VirtualMachine shop/build-8\n"
        "    vms.yaml:70:11 VirtualMachine shop/legacy\n"
        "\n"
        "A VirtualMachine already running keeps the copy of its instancetype and preference it stored (its "
        "ControllerRevision) and runs on; what breaks is creating it again from its manifest (a GitOps re-sync, a "
        "new cluster, a restore), and every VirtualMachine that has none yet.\n"
        "\n"
        f"from bundle {old} to the built-in catalog: 3 references to 2 objects broken, 0 to 0 objects newly "
        "deprecated, 0 to 0 objects changed in meaning; 10 references checked, 1 file read\n")
    assert run.stderr.splitlines()[0] == (
        "error: vms.yaml#0 (build-8) $.spec.preference.name: VirtualMachine shop/build-8 names preference "
        "'centos.stream8', which no longer resolves after the upgrade to the built-in catalog: the built-in catalog "
        "does not have it: centos.stream8 was removed in v1.2.1; use 'centos.stream9' [upgrade-breaks]")


def test_the_upgrade_as_json_counts_per_object(vms):
    report = json.loads(refs("vms.yaml", "--from", shared_file(V1_0_0), "--format", "json").stdout)
    assert report["counts"]["breaks"] == 3 and report["counts"]["breaksObjects"] == 2
    assert [(n["name"], n["references"], [p["line"] for p in n["places"]]) for n in report["upgrade"]["breaks"]] == [
        ("centos.7", 1, [25]), ("centos.stream8", 2, [10, 70])]
    assert [p["rule"] for p in report["problems"]] == ["upgrade-breaks"] * 3


def test_the_upgrade_as_a_pull_request_comment(vms):
    run = refs("vms.yaml", "--from", shared_file(V1_0_0), "--format", "markdown")
    assert run.stdout.startswith("### citgen refs: references this upgrade breaks or changes\n\nFrom bundle ")
    assert ("| `centos.stream8` preference | 2 | the built-in catalog does not have it: centos.stream8 was removed in "
            "v1.2.1; use 'centos.stream9' | `vms.yaml:10:11` (VirtualMachine shop/build-8), `vms.yaml:70:11` "
            "(VirtualMachine shop/legacy) |") in run.stdout


def test_from_v0_1_0_the_n1_sizes_changed_meaning(vms):
    run = refs("vms.yaml", "--from", shared_file(V0_1_0), "--format", "json")
    report = json.loads(run.stdout)
    assert [(n["name"], n["what"]) for n in report["upgrade"]["changes"]] == [
        ("n1.medium", "class none -> network, vCPUs 1 -> 4, dedicated CPUs no -> yes")]


def test_a_build_output_folder_and_a_catalog_folder_are_sides_too(vms, previous_output, tmp_path):
    copy_catalog(tmp_path / "catalog")
    run = refs("vms.yaml", "--from", previous_output, "--to", tmp_path / "catalog")
    assert run.exit_code == 0, run.output
    assert run.stdout.endswith(f"from build {previous_output} to catalog {tmp_path / 'catalog'}: 0 references to 0 "
                               "objects broken, 0 to 0 objects newly deprecated, 0 to 0 objects changed in meaning; "
                               "10 references checked, 1 file read\n")


def test_a_downgrade_is_an_upgrade_read_backwards(vms):
    run = refs("vms.yaml", "--from", shared_file(V1_0_0), "--to", shared_file(V0_1_0), "--format", "json")
    report = json.loads(run.stdout)
    assert run.exit_code == 1
    assert [n["name"] for n in report["upgrade"]["breaks"]] == ["centos.stream8", "u1.medium", "u1.small"]


def test_a_folder_that_is_neither_a_build_nor_a_catalog_is_refused(vms, tmp_path):
    (tmp_path / "empty").mkdir()
    run = refs("vms.yaml", "--from", tmp_path / "empty")
    assert run.exit_code == 2
    assert run.stderr == (f"error: --from: '{tmp_path / 'empty'}' is neither a catalog (catalog.yaml) nor a build "
                          "output (common-instancetypes-all-bundle.yaml); name a bundle file, a folder citgen build "
                          "wrote, or a catalog folder\n")
