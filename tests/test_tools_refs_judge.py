"""The judge of ``citgen refs``: each rule's findings, word for word and where they point, and the clean cases.

References are written by hand here, as the scan hands them over (tools/refs/model.py),
and judged against the built-in catalog's build, the build for an older KubeVirt
release, or a few objects made for the case.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import pytest

from generator.model import Retirement, label
from generator.problems import Location
from generator.schemas.releases import Release
from generator.source.documents import BundleDoc
from generator.tools.refs.judge import judge
from generator.tools.refs.model import Definition, Owner, Reference, Scan
from generator.tools.refs.rules import RULES
from generator.tools.refs.target import Target, matcher_kind, target_objects

WEB = Owner("vm.yaml#0", "VirtualMachine", "web", "vms")
CENTOS = Owner("crons.yaml#[0]", "DataImportCronTemplate", "centos-stream8", None)


@lru_cache(maxsize=None)
def builtin() -> Target:
    return target_objects()


@lru_cache(maxsize=None)
def for_v1_8() -> Target:
    return target_objects(kubevirt=Release(1, 8))


def ref(family: str, name: str | None, kind: str | None = None, owner: Owner = WEB, line: int = 8,
        unchecked: str | None = None) -> Reference:
    """A matcher's name, at ``vm.yaml:<line>:11`` (``spec.<family>.name``)."""
    return Reference(family, name, kind, owner, Location("vm.yaml", line, 11, ("spec", family, "name")),
                     f"spec.{family}", unchecked=unchecked)


def findings(*references: Reference, target: Target | None = None,
             definitions: tuple[Definition, ...] = ()) -> list[str]:
    verdict = judge(Scan(references, definitions, 1, (), ()), target or builtin())
    return [str(p) for p in verdict.findings]


def obj(kind: str, name: str, labels: dict[str, str] | None = None, spec: dict[str, Any] | None = None) -> dict:
    return {"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": kind,
            "metadata": {"name": name, "labels": labels or {}}, "spec": spec or {}}


def made(*objects: dict) -> Target:
    """A target of the objects given, as a bundle file holding them would be."""
    return Target(tuple(BundleDoc("shipped.yaml", i, o) for i, o in enumerate(objects)), "bundle shipped.yaml")


# --------------------------------------------------------------------------- clean


def test_a_vm_naming_catalog_objects_that_fit_is_clean():
    verdict = judge(Scan((ref("instancetype", "u1.medium"), ref("preference", "fedora", line=10)), (), 1, (), ()),
                    builtin())
    assert verdict.findings == ()
    assert verdict.counts == {"references": 2, "checked": 2, "unchecked": 0, "files": 1, "skipped": 0,
                              "findings": 0}


@pytest.mark.parametrize("kind", ["VirtualMachineClusterPreference", "virtualmachineclusterpreferences",
                                  "VIRTUALMACHINECLUSTERPREFERENCE", "", None])
def test_kubevirt_reads_a_cluster_kind_in_any_case_singular_or_plural_or_none(kind):
    assert findings(ref("preference", "fedora", kind)) == []


@pytest.mark.parametrize("kind", ["VirtualMachinePreference", "virtualMachinePreference", "virtualmachinepreferences"])
def test_a_namespaced_kind_resolves_where_the_target_ships_the_namespaced_kind(kind):
    assert findings(ref("preference", "fedora", kind)) == []


def test_a_parameter_without_a_default_is_counted_and_never_reported():
    unknown = ref("instancetype", None, unchecked="parameter INSTANCETYPE has no default")
    verdict = judge(Scan((unknown, ref("preference", "fedora")), (), 2, ("params.yaml",), ()), builtin())
    assert verdict.findings == ()
    assert verdict.counts == {"references": 2, "checked": 1, "unchecked": 1, "files": 2, "skipped": 1,
                              "findings": 0}


def test_the_rules_asked_for_are_the_only_ones_run():
    references = (ref("preference", "fedora", "vmcp"), ref("preference", "fedoar", line=9))
    verdict = judge(Scan(references, (), 1, (), ()), builtin(), rules=("unknown-name",))
    assert [(p.location.line, p.rule) for p in verdict.findings] == [(9, "unknown-name")]


def test_every_reference_is_resolved_once_in_the_order_the_scan_found_them():
    references = (ref("preference", "fedora", "vmcp"), ref("preference", "fedora", line=9),
                  ref("instancetype", None, unchecked="parameter P has no default"))
    verdict = judge(Scan(references, (), 1, (), ()), builtin())
    assert [(one.reference, one.kind, one.resolved) for one in verdict.resolutions] == [
        (references[0], None, False), (references[1], "VirtualMachineClusterPreference", True),
        (references[2], "VirtualMachineClusterInstancetype", False)]


def test_the_rules_are_registered_in_the_order_they_run():
    assert list(RULES) == ["kind", "invalid-name", "unknown-name", "release", "deprecated", "requirements"]
    assert all(rule.summary and "Example" in rule.doc for rule in RULES.values())


# --------------------------------------------------------------------------- unknown-name


def test_an_unknown_name_suggests_the_nearest_names_of_its_family():
    assert findings(ref("preference", "centos.10.stream", owner=CENTOS, line=6)) == [
        "vm.yaml:6:11: spec.preference.name: names preference "
        "'centos.10.stream', which the built-in catalog does not have; did you mean 'centos.stream9', "
        "'centos.stream10' or 'centos.stream9.dpdk'? [unknown-name]"]


def test_a_name_the_catalog_renamed_and_then_removed_is_told_step_by_step_with_what_to_use_today():
    assert findings(ref("preference", "centos.8.stream", owner=CENTOS, line=6)) == [
        "vm.yaml:6:11: spec.preference.name: names preference "
        "'centos.8.stream', which the built-in catalog does not have: centos.8.stream was renamed centos.stream8 "
        "in v0.4.0, then centos.stream8 was removed in v1.2.1; use 'centos.stream9' [unknown-name]"]


@pytest.mark.parametrize(("family", "name", "said"), [
    ("instancetype", "server.medium", "server.medium was removed in v0.4.0; use 'u1.medium'"),
    ("preference", "centos.7", "centos.7 was removed in v1.2.1; use 'rhel.7'"),
    ("preference", "centos.9.stream", "centos.9.stream was renamed centos.stream9 in v0.4.0; use 'centos.stream9'"),
])
def test_a_retired_name_says_what_became_of_it_instead_of_a_guess(family, name, said):
    assert findings(ref(family, name)) == [
        f"vm.yaml:8:11: spec.{family}.name: names {family} '{name}', which the built-in "
        f"catalog does not have: {said} [unknown-name]"]


def test_an_instancetype_is_suggested_among_instancetypes_only():
    assert findings(ref("instancetype", "n.medium")) == [
        "vm.yaml:8:11: spec.instancetype.name: names instancetype 'n.medium', which the "
        "built-in catalog does not have; did you mean 'n1.medium', 'd1.medium' or 'o1.medium'? [unknown-name]"]


def test_a_name_like_none_of_the_catalog_is_reported_without_a_guess():
    assert findings(ref("preference", "plan9")) == [
        "vm.yaml:8:11: spec.preference.name: names preference 'plan9', which the built-in "
        "catalog does not have [unknown-name]"]


def test_a_name_is_quoted_on_one_line_and_cut_short():
    hostile = "bad\n::error::x" + "y" * 100
    [finding] = findings(ref("preference", hostile))
    assert "\n" not in finding
    assert f"'bad\\n::error::x{'y' * 46}... (54 more characters)'" in finding


# --------------------------------------------------------------------------- the manifests' own objects


def defined(kind: str, name: str, namespace: str | None, line: int = 5) -> Definition:
    family = "instancetype" if "Instancetype" in kind else "preference"
    return Definition(family, kind, name, namespace, Location("defs.yaml", line, 9, ("metadata", "name")))


def test_an_object_defined_beside_the_vm_in_its_namespace_resolves():
    assert findings(ref("instancetype", "clarge", "VirtualMachineInstancetype"),
                    ref("preference", "virtio", "VirtualMachinePreference"),
                    definitions=(defined("VirtualMachineInstancetype", "clarge", "vms"),
                                 defined("VirtualMachinePreference", "virtio", "vms"))) == []


def test_objects_without_a_namespace_resolve_for_a_vm_without_one():
    bare = Owner("vm.yaml#1", "VirtualMachine", "cirros", None)
    assert findings(ref("instancetype", "csmall", "VirtualMachineInstancetype", owner=bare),
                    ref("instancetype", "cluster-csmall", "VirtualMachineClusterInstancetype", owner=bare),
                    definitions=(defined("VirtualMachineInstancetype", "csmall", None),
                                 defined("VirtualMachineClusterInstancetype", "cluster-csmall", None))) == []


def test_a_cluster_object_defined_in_the_manifests_resolves_from_any_namespace():
    assert findings(ref("instancetype", "mine", "VirtualMachineClusterInstancetype"),
                    definitions=(defined("VirtualMachineClusterInstancetype", "mine", None),)) == []


def test_an_object_defined_in_another_namespace_does_not_resolve_and_the_finding_says_where_it_is():
    assert findings(ref("instancetype", "clarge", "VirtualMachineInstancetype"),
                    definitions=(defined("VirtualMachineInstancetype", "clarge", "other"),)) == [
        "vm.yaml:8:11: spec.instancetype.name: names instancetype 'clarge', which the "
        "built-in catalog does not have and the manifests read define as a VirtualMachineInstancetype only in "
        "namespace 'other', not in namespace 'vms'; KubeVirt looks a namespaced kind up in the namespace of the "
        "object naming it [unknown-name]"]


def test_a_local_definition_is_among_the_suggestions():
    assert findings(ref("instancetype", "clarg", "VirtualMachineInstancetype"),
                    definitions=(defined("VirtualMachineInstancetype", "clarge", "vms"),))[0].endswith(
        "did you mean 'clarge', 'cx1.large' or 'cx1.xlarge'? [unknown-name]")


# --------------------------------------------------------------------------- kind


def test_kubectls_short_name_is_not_a_kind_kubevirt_reads():
    assert findings(ref("preference", "fedora", "vmcp", line=11)) == [
        "vm.yaml:11:11: spec.preference.name: names preference 'fedora' by kind 'vmcp', "
        "which KubeVirt does not accept: 'vmcp' is kubectl's short name for VirtualMachineClusterPreference; "
        "write VirtualMachineClusterPreference [kind]"]


def test_a_group_qualified_kind_is_not_read():
    assert findings(ref("instancetype", "u1.medium", "virtualmachineclusterinstancetype.instancetype.kubevirt.io")) == [
        "vm.yaml:8:11: spec.instancetype.name: names instancetype 'u1.medium' by kind "
        "'virtualmachineclusterinstancetype.instancetype.kubevirt.io', which KubeVirt does not accept: "
        "'virtualmachineclusterinstancetype.instancetype.kubevirt.io' is qualified by its API group, which "
        "KubeVirt does not read; write VirtualMachineClusterInstancetype [kind]"]


def test_an_instancetype_kind_in_a_preference_matcher_is_refused():
    assert findings(ref("preference", "fedora", "VirtualMachineClusterInstancetype")) == [
        "vm.yaml:8:11: spec.preference.name: names preference 'fedora' by kind "
        "'VirtualMachineClusterInstancetype', which KubeVirt does not accept: VirtualMachineClusterInstancetype "
        "is a kind of the other family; a preference is a VirtualMachineClusterPreference or a "
        "VirtualMachinePreference [kind]"]


def test_a_short_name_of_the_other_family_says_so():
    [finding] = findings(ref("instancetype", "u1.medium", "vmp"))
    assert "'vmp' is kubectl's short name for VirtualMachinePreference, a kind of the other family [kind]" in finding


def test_any_other_kind_is_refused_in_kubevirts_words():
    assert findings(ref("instancetype", "u1.medium", "Instancetype")) == [
        "vm.yaml:8:11: spec.instancetype.name: names instancetype 'u1.medium' by kind "
        "'Instancetype', which KubeVirt does not accept: KubeVirt reads VirtualMachineClusterInstancetype or "
        "VirtualMachineInstancetype (either in any case, singular or plural), or no kind for the cluster kind; it "
        "fails the VirtualMachine with 'got unexpected kind in InstancetypeMatcher: Instancetype' [kind]"]


@pytest.mark.parametrize(("family", "written", "found"), [
    ("instancetype", None, "VirtualMachineClusterInstancetype"),
    ("instancetype", "virtualmachineinstancetypes", "VirtualMachineInstancetype"),
    ("preference", "VirtualMachinePreferences", "VirtualMachinePreference"),
    ("preference", "vmp", None),
    ("preference", "VirtualMachineInstancetype", None),
    ("preference", "VirtualMachineClusterPreferencess", None),
])
def test_the_kind_kubevirt_looks_for(family, written, found):
    assert matcher_kind(family, written) == found


def test_a_namespaced_kind_the_target_ships_only_cluster_wide_is_a_kind_finding():
    shipped = made(obj("VirtualMachineClusterInstancetype", "u1.medium"))
    assert findings(ref("instancetype", "u1.medium", "VirtualMachineInstancetype"), target=shipped) == [
        "vm.yaml:8:11: spec.instancetype.name: names instancetype 'u1.medium' as a "
        "VirtualMachineInstancetype, which bundle shipped.yaml ships only as a VirtualMachineClusterInstancetype "
        "and no manifest read defines in its namespace; name the kind VirtualMachineClusterInstancetype (or leave "
        "the kind out) [kind]"]


def test_a_cluster_kind_the_target_ships_only_namespaced_is_a_kind_finding():
    shipped = made(obj("VirtualMachinePreference", "fedora"))
    assert findings(ref("preference", "fedora"), target=shipped) == [
        "vm.yaml:8:11: spec.preference.name: names preference 'fedora' as a "
        "VirtualMachineClusterPreference, which bundle shipped.yaml ships only as a VirtualMachinePreference and "
        "no manifest read defines; name the kind VirtualMachinePreference [kind]"]


# --------------------------------------------------------------------------- deprecated


def deprecated(name: str, since: str | None = None, replacement: str | None = None) -> dict:
    """A preference labelled deprecated, with the annotations a build writes for what its data says."""
    made_one = obj("VirtualMachineClusterPreference", name, {label("deprecated"): "true"})
    notes = {label("deprecated-since"): since, label("deprecated-replacement"): replacement}
    made_one["metadata"]["annotations"] = {key: value for key, value in notes.items() if value is not None}
    return made_one


def test_a_deprecated_object_names_the_release_that_deprecated_it_and_its_replacement():
    shipped = made(deprecated("centos.stream8", "v1.1.0", "centos.stream9"),
                   obj("VirtualMachineClusterPreference", "centos.stream9"))
    assert findings(ref("preference", "centos.stream8", line=10), target=shipped) == [
        "vm.yaml:10:11: spec.preference.name: names preference 'centos.stream8', which "
        "bundle shipped.yaml deprecated in v1.1.0; use 'centos.stream9' [deprecated]"]


def test_a_replacement_deprecated_in_turn_is_followed_to_the_current_object():
    shipped = made(deprecated("a", "v1.0.0", "b"), deprecated("b", "v1.1.0", "c"),
                   obj("VirtualMachineClusterPreference", "c"))
    assert findings(ref("preference", "a"), target=shipped)[0].endswith(
        "which bundle shipped.yaml deprecated in v1.0.0; use 'c' (its replacement 'b' is not current either) "
        "[deprecated]")


def test_a_replacement_the_target_does_not_hold_is_said_to_be_missing():
    shipped = made(deprecated("a", "v1.0.0", "gone"))
    assert findings(ref("preference", "a"), target=shipped)[0].endswith(
        "which bundle shipped.yaml deprecated in v1.0.0; its replacements end at 'gone', which bundle "
        "shipped.yaml does not hold [deprecated]")


def test_an_object_kept_after_its_catalog_retired_it_says_so():
    kept = made(deprecated("centos.stream8", "v1.1.0"), obj("VirtualMachineClusterPreference", "centos.stream9"))
    retired = Retirement("preference", "centos.stream8", "v1.2.1", Location("catalog.yaml", 96, 5), "centos.stream9")
    target = Target(kept.documents, "the built-in catalog", retirements={("preference", "centos.stream8"): retired})
    assert findings(ref("preference", "centos.stream8"), target=target) == [
        "vm.yaml:8:11: spec.preference.name: names preference 'centos.stream8', which the "
        "built-in catalog deprecated in v1.1.0 and its catalog retired in v1.2.1 (kept as released); use "
        "'centos.stream9' [deprecated]"]


def test_the_deprecated_label_alone_is_a_finding_too():
    shipped = made(deprecated("centos.stream8"))
    assert findings(ref("preference", "centos.stream8", line=10), target=shipped) == [
        "vm.yaml:10:11: spec.preference.name: names preference 'centos.stream8', which "
        "bundle shipped.yaml deprecated (labelled instancetype.kubevirt.io/deprecated, no replacement named); it "
        "leaves the catalog in a later release [deprecated]"]


def test_an_object_not_labelled_deprecated_is_no_finding():
    shipped = made(obj("VirtualMachineClusterPreference", "centos.stream8", {label("deprecated"): "false"}))
    assert findings(ref("preference", "centos.stream8"), target=shipped) == []


# --------------------------------------------------------------------------- requirements


def test_an_instancetype_too_small_for_its_preference_is_refused_in_kubevirts_words():
    assert findings(ref("instancetype", "u1.small"), ref("preference", "windows.11", line=10)) == [
        "vm.yaml:8:11: spec.instancetype.name: names instancetype 'u1.small' and preference "
        "'windows.11', which KubeVirt refuses together: insufficient CPU resources of 1 vCPU provided by instance "
        "type, preference requires 2 vCPU [requirements]"]


def test_memory_too_small_is_refused_too():
    assert findings(ref("instancetype", "u1.nano"), ref("preference", "rhel.9", line=10)) == [
        "vm.yaml:8:11: spec.instancetype.name: names instancetype 'u1.nano' and preference "
        "'rhel.9', which KubeVirt refuses together: insufficient Memory resources of 512Mi provided by instance "
        "type, preference requires 1536Mi [requirements]"]


def test_references_of_different_objects_are_not_paired():
    other = Owner("vm.yaml#1", "VirtualMachine", "other", "vms")
    assert findings(ref("instancetype", "u1.small"), ref("preference", "windows.11", owner=other, line=30)) == []


def test_inference_labels_of_one_object_are_paired_as_a_vm_inferring_both_would_be():
    source = Owner("ds.yaml#0", "DataSource", "win11", "images")
    labels = [Reference(family, name, None, source, Location("ds.yaml", line, 45, ("metadata", "labels", key)),
                        f"label {key}") for family, name, line, key in
              (("instancetype", "u1.small", 6, label("default-instancetype")),
               ("preference", "windows.11", 7, label("default-preference")))]
    verdict = judge(Scan(tuple(labels), (), 1, (), ()), builtin())
    assert [p.rule for p in verdict.findings] == ["requirements"]
    assert verdict.findings[0].location == labels[0].location


def test_the_architecture_a_preference_requires_is_the_vms_to_meet_not_the_instancetypes():
    shipped = made(obj("VirtualMachineClusterInstancetype", "small", spec={"cpu": {"guest": 1}, "memory": {"guest": "1Gi"}}),
                   obj("VirtualMachineClusterPreference", "arm", spec={"requirements": {"architecture": "arm64"}}))
    assert findings(ref("instancetype", "small"), ref("preference", "arm"), target=shipped) == []


def test_a_malformed_object_of_a_bundle_is_left_to_validate():
    shipped = made(obj("VirtualMachineClusterInstancetype", "odd", spec={"cpu": {"guest": 1}, "memory": {"guest": "lots"}}),
                   obj("VirtualMachineClusterPreference", "big", spec={"requirements": {"memory": {"guest": "2Gi"}}}))
    assert findings(ref("instancetype", "odd"), ref("preference", "big"), target=shipped) == []


# --------------------------------------------------------------------------- release


def test_an_object_the_build_for_a_release_leaves_out_names_the_field_and_the_release_that_brought_it():
    assert findings(ref("instancetype", "u1.medium"), ref("preference", "fedora.s390x.secex", line=9),
                    target=for_v1_8()) == [
        "vm.yaml:9:11: spec.preference.name: names preference 'fedora.s390x.secex', which the "
        "build for KubeVirt v1.8 of the built-in catalog leaves out: its spec.preferredLaunchSecurity came in "
        "KubeVirt v1.9 [release]"]


def test_the_same_object_is_no_finding_for_the_release_that_has_its_field():
    assert findings(ref("instancetype", "u1.medium"), ref("preference", "fedora.s390x.secex")) == []


def test_a_name_no_build_has_is_unknown_for_a_release_too():
    [finding] = findings(ref("preference", "fedora.s390x.secx"), target=for_v1_8())
    assert finding.endswith("which the build for KubeVirt v1.8 of the built-in catalog does not have; did you mean "
                            "'fedora.s390x'? [unknown-name]")
