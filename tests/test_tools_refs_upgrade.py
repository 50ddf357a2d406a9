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
from generator.expand.kubevirt import OBJECT_LEFT_OUT, Adjustment
from generator.model import Retirement, label
from generator.problems import Location
from generator.schemas.releases import Release
from generator.source.documents import BundleDoc
from generator.tools.refs.model import Definition, Owner, Reference, Scan
from generator.tools.refs.target import Target, target_objects
from generator.tools.refs.upgrade import meaning_changes, record, render_markdown, render_text, upgrade
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
    (it("x", 1, "lots"), it("x", 1, "lots"), []),  # not a quantity: compared as written
    (it("x", 1, "lots"), it("x", 1, "1Gi"), ["memory lots -> 1Gi"]),
    (it("x", 1, "lots"), it("x", 1, "much"), ["memory lots -> much"]),
    ({"metadata": "x", "spec": [1]}, it("x", 1, "1Gi", "general.purpose"),
     ["class none -> general.purpose", "vCPUs none -> 1", "memory none -> 1Gi"]),
    ({"metadata": {"labels": "x"}, "spec": {"cpu": 1, "memory": 2}}, it("x", 1, "1Gi"),
     ["vCPUs none -> 1", "memory none -> 1Gi"]),
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
        "\n"
        "Names that now mean something else:\n"
        "  instancetype n1.medium (VirtualMachineClusterInstancetype), 1 reference: class none -> network, "
        "vCPUs 1 -> 4, dedicated CPUs no -> yes\n"
        "\n"
        "A VirtualMachine already running keeps the copy of its instancetype and preference it stored (its "
        "ControllerRevision) and runs on; what breaks is creating it again from its manifest (a GitOps re-sync, a "
        "new cluster, a restore), and every VirtualMachine that has none yet.\n"
        "\n"
        f"from bundle {old} to the built-in catalog v1.8.0-dev: 1 reference to 1 object broken, 0 to 0 objects newly "
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
    assert render_text(result) == ("from the built-in catalog v1.8.0-dev to the built-in catalog v1.8.0-dev: "
                                   "0 references to 0 objects "
                                   "broken, 0 to 0 objects newly deprecated, 0 to 0 objects changed in meaning; "
                                   "1 reference checked, 1 file read\n")


# --------------------------------------------------------------------------- every section at once, on small sides


def pref(name: str, deprecated: bool = False, since: str | None = None, replacement: str | None = None) -> dict:
    meta: dict[str, Any] = {"name": name}
    if deprecated:
        meta["labels"] = {label("deprecated"): "true"}
        meta["annotations"] = {key: value for key, value in ((label("deprecated-since"), since),
                                                              (label("deprecated-replacement"), replacement)) if value}
    return {"kind": "VirtualMachineClusterPreference", "metadata": meta}


def side(described: str, *objects: dict, **more: Any) -> Target:
    return Target(tuple(BundleDoc("t.yaml", i, o) for i, o in enumerate(objects)), described, **more)


OLD = side("bundle old.yaml", it("a", 1, "1Gi"), it("b", 1, "1Gi"), pref("p"), pref("q"), pref("r"), pref("s"),
           pref("secex"))
NEW = side("bundle new.yaml", it("b", 2, "1Gi"), pref("p", True, "v2", "q"), pref("q"), pref("r", True),
           pref("s", True, replacement="t"),
           left_out={("preference", "secex"): Adjustment("preference", "secex", "spec.x", OBJECT_LEFT_OUT, None,
                                                         Release(1, 8))})


def every_section() -> Any:
    located = [Reference(family, name, None, WEB, Location("vms.yaml", line, 11, ("spec", family, "name"), 0, "web"),
                         f"spec.{family}", unchecked=None if name else "parameter NAME has no default")
               for family, name, line in (("preference", None, 14), ("preference", "nowhere", 6),
                                          ("preference", "mine", 7), ("instancetype", "a", 8), ("instancetype", "b", 9),
                                          ("preference", "p", 10), ("preference", "r", 11), ("preference", "s", 12),
                                          ("preference", "secex", 13))]
    mine = Definition("preference", "VirtualMachineClusterPreference", "mine", None, Location("defs.yaml", 2, 9))
    return upgrade(Scan(tuple(located), (mine,), 2, ("notes.txt",), ()), OLD, NEW)


SUMMARY = ("from bundle old.yaml to bundle new.yaml: 2 references to 2 objects broken, 3 to 3 objects newly "
           "deprecated, 1 to 1 object changed in meaning; 8 references checked, 1 unchecked, 2 files read, 1 skipped")


def test_each_reference_of_an_upgrade_is_a_finding_of_its_section_in_file_order():
    at = ("vms.yaml#0 (web) $.spec.{}.name: names {} '{}', which {} after the upgrade to "
          "bundle new.yaml: {}")
    assert [str(p) for p in every_section().problems()] == [
        at.format("instancetype", "instancetype", "a", "no longer resolves", "bundle new.yaml does not have it")
        + " [upgrade-breaks]",
        at.format("instancetype", "instancetype", "b", "now means something else", "vCPUs 1 -> 2")
        + " [upgrade-changes]",
        at.format("preference", "preference", "p", "is deprecated", "deprecated in v2; use 'q'")
        + " [upgrade-deprecates]",
        at.format("preference", "preference", "r", "is deprecated", "deprecated") + " [upgrade-deprecates]",
        at.format("preference", "preference", "s", "is deprecated", "deprecated; its replacements end at 't', which "
                  "bundle new.yaml does not hold") + " [upgrade-deprecates]",
        at.format("preference", "preference", "secex", "no longer resolves",
                  "bundle new.yaml leaves it out: its spec.x "
                  "is in no KubeVirt release citgen knows") + " [upgrade-breaks]",
    ]


def test_the_json_report_gives_each_object_with_every_place_that_names_it():
    def named(family: str, name: str, kind: str, what: str, line: int) -> dict:
        return {"family": family, "name": name, "kind": kind, "what": what, "references": 1,
                "places": [{"file": "vms.yaml", "line": line, "column": 11, "document": 0,
                            "owner": {"kind": "VirtualMachine", "name": "web", "namespace": "vms"}}]}

    cit, cpref = "VirtualMachineClusterInstancetype", "VirtualMachineClusterPreference"
    assert record(every_section()) == {
        "from": "bundle old.yaml", "to": "bundle new.yaml",
        "breaks": [named("instancetype", "a", cit, "bundle new.yaml does not have it", 8),
                   named("preference", "secex", cpref, "bundle new.yaml leaves it out: its spec.x is in no KubeVirt "
                                                       "release citgen knows", 13)],
        "deprecates": [named("preference", "p", cpref, "deprecated in v2; use 'q'", 10),
                       named("preference", "r", cpref, "deprecated", 11),
                       named("preference", "s", cpref, "deprecated; its replacements end at 't', which bundle new.yaml "
                                                       "does not hold", 12)],
        "changes": [named("instancetype", "b", cit, "vCPUs 1 -> 2", 9)],
    }


def test_the_text_report_ends_with_what_was_unchecked_and_skipped():
    assert render_text(every_section()).endswith("every VirtualMachine that has none yet.\n\n" + SUMMARY + "\n")


def test_the_markdown_report_has_a_table_per_section():
    head = "| object | references | what | named in |\n| --- | ---: | --- | --- |\n"
    assert render_markdown(every_section()) == (
        "### citgen refs: references this upgrade breaks or changes\n\nFrom bundle old.yaml to bundle new.yaml.\n\n"
        "#### Names that no longer resolve\n\n" + head +
        "| `a` instancetype | 1 | bundle new.yaml does not have it | `vms.yaml:8:11` (VirtualMachine vms/web) |\n"
        "| `secex` preference | 1 | bundle new.yaml leaves it out: its spec.x is in no KubeVirt release citgen knows "
        "| `vms.yaml:13:11` (VirtualMachine vms/web) |\n\n"
        "#### Names the new catalog deprecates\n\n" + head +
        "| `p` preference | 1 | deprecated in v2; use 'q' | `vms.yaml:10:11` (VirtualMachine vms/web) |\n"
        "| `r` preference | 1 | deprecated | `vms.yaml:11:11` (VirtualMachine vms/web) |\n"
        "| `s` preference | 1 | deprecated; its replacements end at 't', which bundle new.yaml does not hold "
        "| `vms.yaml:12:11` (VirtualMachine vms/web) |\n\n"
        "#### Names that now mean something else\n\n" + head +
        "| `b` instancetype | 1 | vCPUs 1 -&gt; 2 | `vms.yaml:9:11` (VirtualMachine vms/web) |\n\n"
        "A VirtualMachine already running keeps the copy of its instancetype and preference it stored (its "
        "ControllerRevision) and runs on; what breaks is creating it again from its manifest (a GitOps re-sync, a "
        "new cluster, a restore), and every VirtualMachine that has none yet.\n\n" + SUMMARY + "\n")


def test_a_name_retired_step_by_step_says_each_step_and_where_its_replacements_end():
    retired = {("preference", "a"): Retirement("preference", "a", "v2", Location("catalog.yaml"), "b", renamed=True),
               ("preference", "b"): Retirement("preference", "b", "v3", Location("catalog.yaml"), "c")}
    gone = upgrade(scanned(ref("preference", "a")), side("bundle old.yaml", pref("a")),
                   side("catalog new", pref("other"), retirements=retired))
    assert [n.what for n in gone.breaks] == [
        "catalog new does not have it: a was renamed b in v2, then b was removed in v3; its replacements end at 'c', "
        "which catalog new does not hold"]


def test_a_markdown_report_without_the_first_sections_has_the_last():
    shown = render_markdown(upgrade(scanned(ref("instancetype", "b")), OLD, NEW))
    assert "#### Names that now mean something else\n" in shown and "#### Names that no longer" not in shown


@pytest.mark.parametrize("count, places", [
    (5, "`vms.yaml:1:11` (VirtualMachine vms/web), `vms.yaml:2:11` (VirtualMachine vms/web), `vms.yaml:3:11` "
        "(VirtualMachine vms/web), `vms.yaml:4:11` (VirtualMachine vms/web), `vms.yaml:5:11` (VirtualMachine vms/web)"),
    (6, "`vms.yaml:1:11` (VirtualMachine vms/web), `vms.yaml:2:11` (VirtualMachine vms/web), `vms.yaml:3:11` "
        "(VirtualMachine vms/web), `vms.yaml:4:11` (VirtualMachine vms/web), `vms.yaml:5:11` (VirtualMachine vms/web), "
        "and 1 more"),
])
def test_a_markdown_row_names_five_places_and_counts_the_rest(count, places):
    result = upgrade(scanned(*(ref("instancetype", "a", line=line) for line in range(1, count + 1))), OLD, NEW)
    assert f"| `a` instancetype | {count} | bundle new.yaml does not have it | {places} |\n" in render_markdown(result)


def test_objects_are_listed_by_name_and_one_name_by_family_then_kind():
    old = side("bundle old.yaml", it("x", 1, "1Gi"), it("z", 1, "1Gi"), pref("x"), pref("y"),
               {"kind": "VirtualMachinePreference", "metadata": {"name": "x", "namespace": "vms"}})
    gone = upgrade(scanned(ref("preference", "y"), ref("preference", "x"), ref("instancetype", "z"),
                           ref("preference", "x", kind="VirtualMachinePreference"), ref("instancetype", "x")),
                   old, side("bundle new.yaml"))
    assert [(n.family, n.name, n.kind) for n in gone.breaks] == [
        ("instancetype", "x", "VirtualMachineClusterInstancetype"),
        ("preference", "x", "VirtualMachineClusterPreference"),
        ("preference", "x", "VirtualMachinePreference"), ("preference", "y", "VirtualMachineClusterPreference"),
        ("instancetype", "z", "VirtualMachineClusterInstancetype")]


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
    def broken(line: int, owner: str, name: str, use: str) -> str:
        return (f"vms.yaml:{line}:11: error: VirtualMachine {owner} $.spec.preference.name: "
                f"names preference '{name}', which no longer resolves after the upgrade to the built-in catalog: the "
                f"built-in catalog does not have it: {name} was removed in v1.2.1; use '{use}' [upgrade-breaks]\n")

    # a finding for each place, then the report of each object
    assert run.stdout == (
        broken(10, "shop/build-8", "centos.stream8", "centos.stream9")
        + broken(25, "shop/build-7", "centos.7", "rhel.7")
        + broken(70, "shop/legacy", "centos.stream8", "centos.stream9") +
        "Names that no longer resolve:\n"
        "  preference centos.7 (VirtualMachineClusterPreference), 1 reference: the built-in catalog does not have "
        "it: centos.7 was removed in v1.2.1; use 'rhel.7'\n"
        "  preference centos.stream8 (VirtualMachineClusterPreference), 2 references: the built-in catalog does not "
        "have it: centos.stream8 was removed in v1.2.1; use 'centos.stream9'\n"
        "\n"
        "A VirtualMachine already running keeps the copy of its instancetype and preference it stored (its "
        "ControllerRevision) and runs on; what breaks is creating it again from its manifest (a GitOps re-sync, a "
        "new cluster, a restore), and every VirtualMachine that has none yet.\n"
        "\n"
        f"from bundle {old} to the built-in catalog v1.8.0-dev: 3 references to 2 objects broken, 0 to 0 objects newly "
        "deprecated, 0 to 0 objects changed in meaning; 10 references checked, 1 file read\n")
    assert run.stderr == ""


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
    assert run.stdout.endswith(f"from build {previous_output} to catalog {tmp_path / 'catalog'} v1.8.0-dev: "
                               "0 references to 0 "
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
    # a folder that is neither is a folder of objects, read as every command reads one
    assert run.stderr == (f"{tmp_path / 'empty'}: error: no catalog objects (given as --from): the folder holds no "
                          "*.yaml, *.yml or *.json file [input]\n")
