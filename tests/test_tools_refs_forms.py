"""generator/tools/refs/forms.py: every form a reference to a catalog object takes, on manifests written here.

Each test reads one manifest (or a few) and lists what the forms find in it, a
reference as (family, name, kind, via, line, column): the name as KubeVirt will read
it, the kind as written (None where none is), the form it was found in, and where the
name is written. Where the owner, the parameter or the reason a reference is not
checked matters, the test says so.
"""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from generator.problems import Problem
from generator.tools.refs.forms import FORMS, read_unit
from generator.tools.refs.model import Definition, Reference
from generator.tools.refs.places import parse_place
from generator.source.stream import Unit, units

IT = "label instancetype.kubevirt.io/default-instancetype"
PREF = "label instancetype.kubevirt.io/default-preference"


def read(text: str, *places: str) -> list[Any]:
    """Everything the forms find in ``text`` (dedented), read as the file m.yaml."""
    found: list[Any] = []
    for unit in units(textwrap.dedent(text).lstrip("\n"), "m.yaml"):
        assert isinstance(unit, Unit), unit
        found.extend(read_unit(unit, [parse_place(place) for place in places]))
    return found


def refs(text: str, *places: str) -> list[tuple]:
    """The references in ``text`` as (family, name, kind, via, line, column)."""
    return [(r.family, r.name, r.kind, r.via, r.location.line, r.location.column)
            for r in read(text, *places) if isinstance(r, Reference)]


def only(text: str, *places: str) -> Reference:
    """The one reference in ``text``."""
    found = [r for r in read(text, *places) if isinstance(r, Reference)]
    assert len(found) == 1, found
    return found[0]


VM = """
    apiVersion: kubevirt.io/v1
    kind: VirtualMachine
    metadata:
      name: lab
      namespace: team-a
    spec:
      instancetype:
        kind: VirtualMachineClusterInstancetype
        name: u1.nano
      preference:
        kind: VirtualMachineClusterPreference
        name: cirros
      runStrategy: Halted
"""


# --------------------------------------------------------------------------- VirtualMachine


def test_a_virtual_machine_names_an_instancetype_and_a_preference_with_their_kinds():
    assert refs(VM) == [
        ("instancetype", "u1.nano", "VirtualMachineClusterInstancetype", "spec.instancetype", 9, 11),
        ("preference", "cirros", "VirtualMachineClusterPreference", "spec.preference", 12, 11),
    ]


def test_the_references_of_a_virtual_machine_share_its_owner_and_point_at_its_document():
    instancetype, preference = [r for r in read(VM) if isinstance(r, Reference)]
    assert instancetype.owner is preference.owner
    assert (instancetype.owner.key, instancetype.owner.kind, instancetype.owner.name,
            instancetype.owner.namespace) == ("m.yaml#0 $", "VirtualMachine", "lab", "team-a")
    assert (instancetype.location.doc, instancetype.location.path, instancetype.location.name) == (
        0, ("spec", "instancetype", "name"), "lab")
    assert (instancetype.unchecked, instancetype.parameter) == (None, None)


def test_a_matcher_without_a_kind_has_none_as_kubevirt_reads_the_cluster_kind():
    assert refs("""
        apiVersion: kubevirt.io/v1
        kind: VirtualMachine
        metadata: {name: vm}
        spec:
          instancetype: {name: u1.medium}
          preference:
            name: fedora
            kind: ""
    """) == [("instancetype", "u1.medium", None, "spec.instancetype", 5, 24),
             ("preference", "fedora", None, "spec.preference", 7, 11)]


def test_a_kind_is_handed_on_as_written_whatever_its_case():
    assert refs("""
        apiVersion: kubevirt.io/v1
        kind: VirtualMachine
        metadata: {name: vm}
        spec:
          instancetype: {name: cmedium, kind: virtualMachineInstancetype}
          preference: {name: fedora, kind: VIRTUALMACHINEPREFERENCES}
    """) == [("instancetype", "cmedium", "virtualMachineInstancetype", "spec.instancetype", 5, 24),
             ("preference", "fedora", "VIRTUALMACHINEPREFERENCES", "spec.preference", 6, 22)]


def test_a_revision_name_is_no_catalog_name_but_the_name_beside_it_is():
    assert refs("""
        apiVersion: kubevirt.io/v1
        kind: VirtualMachine
        metadata: {name: vm}
        spec:
          instancetype: {name: u1.medium, revisionName: vm-u1.medium-v1beta1-1}
          preference: {revisionName: vm-fedora-v1beta1-1}
    """) == [("instancetype", "u1.medium", None, "spec.instancetype", 5, 24)]


def test_a_matcher_inferred_from_a_volume_is_counted_unchecked_at_the_volume_it_names():
    found = only("""
        apiVersion: kubevirt.io/v1
        kind: VirtualMachine
        metadata: {name: vm}
        spec:
          preference:
            inferFromVolume: rootdisk
            inferFromVolumeFailurePolicy: Ignore
    """)
    assert (found.family, found.name, found.kind, found.location.line, found.location.column) == (
        "preference", None, None, 6, 22)
    assert found.unchecked == ("inferred from the labels of the source of volume 'rootdisk' when the "
                               "VirtualMachine is created (inferFromVolume)")


def test_a_virtual_machine_of_another_api_group_is_not_read_as_kubevirt_s():
    assert refs("""
        apiVersion: vmoperator.vmware.com/v1alpha1
        kind: VirtualMachine
        metadata: {name: vm}
        spec: {className: best-effort-small, imageName: ubuntu}
    """) == []


def test_a_name_that_is_no_text_is_a_problem_and_a_null_one_is_no_reference():
    found = read("""
        apiVersion: kubevirt.io/v1
        kind: VirtualMachine
        metadata: {name: vm}
        spec:
          instancetype: {name: 4}
          preference: {name: null}
    """)
    assert [str(p) for p in found] == [
        "m.yaml#0 (vm) $.spec.instancetype.name: spec.instancetype: expected the name of an instancetype as text, "
        "got 4"]
    assert (found[0].location.line, found[0].location.column) == (5, 24)


def test_a_kind_that_is_no_text_is_a_problem_and_the_name_beside_it_is_not_judged():
    found = read("""
        apiVersion: kubevirt.io/v1
        kind: VirtualMachine
        metadata: {name: vm}
        spec:
          preference: {name: fedora, kind: [VirtualMachinePreference]}
    """)
    assert [p.message for p in found] == [
        "spec.preference: expected the kind of a preference as text, got a list"]


# --------------------------------------------------------------------------- objects that hold a VirtualMachine


@pytest.mark.parametrize("version", ["v1alpha1", "v1beta1"])
def test_a_pool_names_what_its_virtual_machine_template_names(version: str):
    text = f"""
        apiVersion: pool.kubevirt.io/{version}
        kind: VirtualMachinePool
        metadata: {{name: pool, namespace: team-b}}
        spec:
          replicas: 3
          virtualMachineTemplate:
            metadata: {{labels: {{app: web}}}}
            spec:
              instancetype: {{name: u1.small}}
              preference: {{kind: VirtualMachineClusterPreference, name: fedora}}
    """
    assert refs(text) == [("instancetype", "u1.small", None, "spec.instancetype", 9, 28),
                          ("preference", "fedora", "VirtualMachineClusterPreference", "spec.preference", 10, 65)]
    owner = only(text.replace("preference: {kind: VirtualMachineClusterPreference, name: fedora}", "")).owner
    assert (owner.key, owner.kind, owner.name, owner.namespace) == (
        "m.yaml#0 $.spec.virtualMachineTemplate", "VirtualMachinePool", "pool", "team-b")


def test_a_snapshot_content_names_what_the_virtual_machine_it_restores_names():
    found = only("""
        apiVersion: snapshot.kubevirt.io/v1beta1
        kind: VirtualMachineSnapshotContent
        metadata: {name: snap-content}
        spec:
          source:
            virtualMachine:
              apiVersion: kubevirt.io/v1
              kind: VirtualMachine
              metadata: {name: vm}
              spec:
                instancetype: {name: cx1.large}
    """)
    assert (found.name, found.location.line, found.location.path) == (
        "cx1.large", 11, ("spec", "source", "virtualMachine", "spec", "instancetype", "name"))
    assert (found.owner.kind, found.owner.name) == ("VirtualMachineSnapshotContent", "snap-content")


def test_a_virtual_machine_shaped_spec_in_a_kind_no_form_reads_is_found_where_it_is():
    found = only("""
        apiVersion: infrastructure.cluster.x-k8s.io/v1alpha1
        kind: KubevirtMachineTemplate
        metadata: {name: workers, namespace: tenant}
        spec:
          template:
            spec:
              virtualMachineTemplate:
                metadata: {namespace: tenant}
                spec:
                  instancetype: {name: u1.medium, kind: VirtualMachineClusterInstancetype}
    """)
    assert (found.family, found.name, found.kind, found.via, found.location.line, found.location.column) == (
        "instancetype", "u1.medium", "VirtualMachineClusterInstancetype", "spec.instancetype", 10, 32)
    assert (found.owner.key, found.owner.kind, found.owner.name) == (
        "m.yaml#0 $.spec.template.spec.virtualMachineTemplate", "KubevirtMachineTemplate", "workers")


def test_a_preference_that_names_nothing_is_not_taken_for_a_matcher():
    assert refs("""
        apiVersion: example.com/v1
        kind: Scheduling
        metadata: {name: s}
        spec:
          preference: {matchExpressions: [{key: zone, operator: In, values: [a]}]}
    """) == []


# --------------------------------------------------------------------------- virt-template


TEMPLATE = """
    apiVersion: template.kubevirt.io/v1beta1
    kind: VirtualMachineTemplate
    metadata: {name: fedora-template, namespace: templates}
    spec:
      parameters:
        - name: NAME
          generate: expression
          from: "fedora-[a-z0-9]{16}"
        - name: INSTANCETYPE
          value: u1.medium
        - name: PREFERENCE
          required: true
        - name: SIZE
          value: large
        - name: EMPTY
      virtualMachine:
        metadata:
          name: ${NAME}
        spec:
          instancetype:
            name: ${INSTANCETYPE}
          preference:
            name: ${PREFERENCE}
"""


def test_a_virt_template_parameter_s_default_is_the_name_found_where_the_default_is_written():
    found = [r for r in read(TEMPLATE) if isinstance(r, Reference)][0]
    assert (found.family, found.name, found.kind, found.via, found.location.line, found.location.column) == (
        "instancetype", "u1.medium", None, "spec.instancetype", 10, 14)
    assert (found.parameter, found.unchecked, found.location.path) == (
        "INSTANCETYPE", None, ("spec", "parameters", 1, "value"))
    assert (found.owner.key, found.owner.kind, found.owner.name, found.owner.namespace) == (
        "m.yaml#0 $.spec.virtualMachine", "VirtualMachineTemplate", "fedora-template", "templates")


def test_a_required_parameter_without_a_default_is_unchecked_where_it_is_used():
    found = [r for r in read(TEMPLATE) if isinstance(r, Reference)][1]
    assert (found.family, found.name, found.location.line, found.location.column, found.parameter) == (
        "preference", None, 23, 15, "PREFERENCE")
    assert found.unchecked == ("parameter PREFERENCE is required and has no default: it is given when the "
                               "template is processed")


@pytest.mark.parametrize("used, unchecked", [
    ("${NAME}", "parameter NAME is generated (expression) when the template is processed"),
    ("${EMPTY}", "parameter EMPTY has no default value: it is empty unless given when the template is processed"),
    ("x-${PREFERENCE}", "parameter PREFERENCE is required and has no default: it is given when the template is "
                        "processed"),
])
def test_a_parameter_that_is_generated_empty_or_demanded_leaves_the_name_unknown(used: str, unchecked: str):
    found = [r for r in read(TEMPLATE.replace("${PREFERENCE}", used)) if isinstance(r, Reference)][1]
    assert (found.name, found.unchecked) == (None, unchecked)


def test_a_name_made_of_text_and_a_parameter_is_found_where_it_is_used():
    found = [r for r in read(TEMPLATE.replace("${INSTANCETYPE}", "u1.${SIZE}")) if isinstance(r, Reference)][0]
    assert (found.name, found.parameter, found.location.line, found.location.column) == ("u1.large", "SIZE", 21, 15)


def test_a_parameter_written_as_the_whole_value_in_double_braces_is_its_value():
    assert refs(TEMPLATE.replace("${INSTANCETYPE}", "${{INSTANCETYPE}}"))[0] == (
        "instancetype", "u1.medium", None, "spec.instancetype", 10, 14)


def test_a_parameter_a_virt_template_does_not_define_is_a_problem_and_the_name_is_unchecked():
    found = read(TEMPLATE.replace("${INSTANCETYPE}", "${INSTANCE_TYPE}"))
    problems = [p for p in found if isinstance(p, Problem)]
    assert [(p.location.line, p.location.column, p.message) for p in problems] == [
        (21, 15, "references undefined parameter INSTANCE_TYPE: virt-template's webhook refuses the template (its "
                 "parameters: NAME, INSTANCETYPE, PREFERENCE, SIZE, EMPTY)")]
    reference = next(r for r in found if isinstance(r, Reference))
    assert (reference.name, reference.unchecked, reference.parameter) == (
        None, "${INSTANCE_TYPE} names no parameter of the template", "INSTANCE_TYPE")


def test_a_v1alpha1_virt_template_is_read_alike():
    assert refs(TEMPLATE.replace("v1beta1", "v1alpha1"))[0] == (
        "instancetype", "u1.medium", None, "spec.instancetype", 10, 14)


# --------------------------------------------------------------------------- OpenShift Template


OPENSHIFT = """
    apiVersion: template.openshift.io/v1
    kind: Template
    metadata: {name: fedora-server, namespace: openshift}
    labels:
      instancetype.kubevirt.io/default-preference: ${PREFERENCE}
      template: fedora-server
    parameters:
      - name: PREFERENCE
        value: fedora
      - name: SIZE
        value: medium
      - name: NAME
        required: true
    objects:
      - apiVersion: kubevirt.io/v1
        kind: VirtualMachine
        metadata:
          name: ${NAME}
          namespace: hardcoded
        spec:
          instancetype:
            name: u1.${SIZE}
          preference:
            name: ${{PREFERENCE}}
      - apiVersion: cdi.kubevirt.io/v1beta1
        kind: DataSource
        metadata:
          name: fedora
          labels:
            instancetype.kubevirt.io/default-instancetype: ${UNKNOWN}
"""


def test_an_openshift_template_s_objects_labels_and_parameters_are_read():
    assert refs(OPENSHIFT) == [
        ("preference", "fedora", None, PREF, 9, 12),
        ("instancetype", "u1.medium", None, "spec.instancetype", 22, 15),
        ("preference", "fedora", None, "spec.preference", 9, 12),
        ("instancetype", None, None, IT, 30, 56),
    ]


def test_a_parameter_openshift_does_not_know_is_left_as_written_and_unchecked_without_a_problem():
    found = read(OPENSHIFT)
    assert not [p for p in found if isinstance(p, Problem)]
    assert found[-1].unchecked == "${UNKNOWN} names no parameter of the template; OpenShift leaves it as written"


def test_the_objects_of_an_openshift_template_land_in_the_namespace_it_is_processed_in():
    owners = {(r.owner.key, r.owner.kind, r.owner.name, r.owner.namespace) for r in read(OPENSHIFT)}
    assert owners == {("m.yaml#0 $.labels", "Template", "fedora-server", "openshift"),
                      ("m.yaml#0 $.objects[0]", "Template", "fedora-server", "openshift"),
                      ("m.yaml#0 $.objects[1]", "Template", "fedora-server", "openshift")}


def test_a_template_of_the_older_api_version_v1_is_read_alike():
    assert refs(OPENSHIFT.replace("template.openshift.io/v1", "v1"))[:2] == [
        ("preference", "fedora", None, PREF, 9, 12),
        ("instancetype", "u1.medium", None, "spec.instancetype", 22, 15)]


# --------------------------------------------------------------------------- inference labels


@pytest.mark.parametrize("api_version, kind", [
    ("cdi.kubevirt.io/v1beta1", "DataSource"),
    ("cdi.kubevirt.io/v1beta1", "DataVolume"),
    ("v1", "PersistentVolumeClaim"),
    ("snapshot.storage.k8s.io/v1", "VolumeSnapshot"),
])
def test_the_inference_labels_of_a_volume_s_source_are_references(api_version: str, kind: str):
    assert refs(f"""
        apiVersion: {api_version}
        kind: {kind}
        metadata:
          name: fedora
          labels:
            instancetype.kubevirt.io/default-instancetype: u1.medium
            instancetype.kubevirt.io/default-instancetype-kind: VirtualMachineClusterInstancetype
            instancetype.kubevirt.io/default-preference: fedora
    """) == [("instancetype", "u1.medium", "VirtualMachineClusterInstancetype", IT, 6, 52),
             ("preference", "fedora", None, PREF, 8, 50)]


def test_a_kind_label_without_its_name_label_names_nothing():
    assert refs("""
        apiVersion: cdi.kubevirt.io/v1beta1
        kind: DataSource
        metadata:
          name: fedora
          labels:
            instancetype.kubevirt.io/default-preference-kind: VirtualMachinePreference
            instancetype.kubevirt.io/default-instancetype: u1.small
    """) == [("instancetype", "u1.small", None, IT, 7, 52)]


def test_a_data_import_cron_names_in_its_labels_and_in_its_template_s():
    found = read("""
        apiVersion: cdi.kubevirt.io/v1beta1
        kind: DataImportCron
        metadata:
          name: fedora-cron
          labels:
            instancetype.kubevirt.io/default-preference: fedora
        spec:
          managedDataSource: fedora
          template:
            metadata:
              labels:
                instancetype.kubevirt.io/default-instancetype: u1.medium
            spec: {source: {registry: {url: "docker://quay.io/containerdisks/fedora"}}}
    """)
    assert [(r.family, r.name, r.via, r.location.line, r.owner.key) for r in found] == [
        ("preference", "fedora", PREF, 6, "m.yaml#0 $"),
        ("instancetype", "u1.medium", IT, 12, "m.yaml#0 $.spec.template")]


def test_the_labels_of_a_virtual_machine_s_data_volume_templates_are_references_of_their_own():
    found = read("""
        apiVersion: kubevirt.io/v1
        kind: VirtualMachine
        metadata: {name: vm}
        spec:
          instancetype: {name: u1.medium}
          dataVolumeTemplates:
            - metadata:
                name: vm-root
                labels: {instancetype.kubevirt.io/default-preference: rhel.9}
              spec: {sourceRef: {kind: DataSource, name: rhel9}}
    """)
    assert [(r.family, r.name, r.via, r.location.line, r.location.column, r.owner.key) for r in found] == [
        ("instancetype", "u1.medium", "spec.instancetype", 5, 24, "m.yaml#0 $"),
        ("preference", "rhel.9", PREF, 9, 63, "m.yaml#0 $.spec.dataVolumeTemplates[0]")]


HCO_ITEM = """
            - metadata:
                name: centos-stream9-image-cron
                labels:
                  instancetype.kubevirt.io/default-preference: centos.stream9
              spec: {managedDataSource: centos-stream9, schedule: "0 */12 * * *"}
"""


@pytest.mark.parametrize("api_version, path", [
    ("hco.kubevirt.io/v1beta1", ("spec", "dataImportCronTemplates")),
    ("hco.kubevirt.io/v1", ("spec", "workloadSources", "dataImportCronTemplates")),
    ("hco.kubevirt.io/v1beta1", ("status", "dataImportCronTemplates")),
])
def test_the_data_import_cron_templates_of_a_hyperconverged_resource_are_read(api_version: str, path: tuple):
    nested = "\n".join(f"{'  ' * depth}{key}:" for depth, key in enumerate(path))
    text = f"apiVersion: {api_version}\nkind: HyperConverged\nmetadata: {{name: kubevirt-hyperconverged}}\n" \
           f"{nested}\n{textwrap.indent(textwrap.dedent(HCO_ITEM).strip(), '  ' * len(path))}\n"
    found = only(text)
    line = 4 + len(path) + 3
    assert (found.family, found.name, found.via, found.location.line) == ("preference", "centos.stream9", PREF, line)
    assert found.location.path == path + (0, "metadata", "labels", "instancetype.kubevirt.io/default-preference")
    assert (found.owner.kind, found.owner.name) == ("HyperConverged", "kubevirt-hyperconverged")


def test_the_data_import_cron_templates_of_an_ssp_resource_are_read():
    found = only("""
        apiVersion: ssp.kubevirt.io/v1beta3
        kind: SSP
        metadata: {name: ssp}
        spec:
          commonTemplates:
            namespace: openshift
            dataImportCronTemplates:
              - metadata:
                  name: fedora-image-cron
                  labels: {instancetype.kubevirt.io/default-instancetype: u1.small}
    """)
    assert (found.name, found.location.line, found.owner.key) == (
        "u1.small", 10, "m.yaml#0 $.spec.commonTemplates.dataImportCronTemplates[0]")


def test_a_bare_list_of_data_import_cron_templates_is_read_item_by_item():
    found = read("""
        - metadata:
            name: centos-stream8-image-cron
            labels:
              instancetype.kubevirt.io/default-preference: centos.8.stream
              instancetype.kubevirt.io/default-instancetype: u1.medium
          spec: {managedDataSource: centos-stream8}
        - metadata:
            name: fedora-image-cron
            labels: {instancetype.kubevirt.io/default-preference: fedora}
          spec: {managedDataSource: fedora}
    """)
    assert [(r.family, r.name, r.location.line, r.owner.key, r.owner.kind, r.owner.name) for r in found] == [
        ("instancetype", "u1.medium", 5, "m.yaml#0 $[0]", "", "centos-stream8-image-cron"),
        ("preference", "centos.8.stream", 4, "m.yaml#0 $[0]", "", "centos-stream8-image-cron"),
        ("preference", "fedora", 9, "m.yaml#0 $[1]", "", "fedora-image-cron")]


def test_labels_of_a_mapping_that_is_no_object_are_read_too():
    assert refs("""
        image:
          metadata:
            labels: {instancetype.kubevirt.io/default-preference: ubuntu}
    """) == [("preference", "ubuntu", None, PREF, 3, 59)]


# --------------------------------------------------------------------------- definitions


def test_catalog_objects_defined_in_the_manifests_are_definitions_with_their_namespaces():
    found = read("""
        apiVersion: instancetype.kubevirt.io/v1beta1
        kind: VirtualMachineInstancetype
        metadata: {name: cmedium, namespace: team-a}
        ---
        apiVersion: instancetype.kubevirt.io/v1beta1
        kind: VirtualMachinePreference
        metadata: {name: fedora}
        ---
        apiVersion: instancetype.kubevirt.io/v1beta1
        kind: VirtualMachineClusterInstancetype
        metadata: {name: csmall, namespace: ignored}
        ---
        apiVersion: instancetype.kubevirt.io/v1
        kind: VirtualMachineClusterPreference
        metadata:
          name: windows
    """)
    assert [(d.family, d.kind, d.name, d.namespace, d.location.line, d.location.column, d.location.doc)
            for d in found if isinstance(d, Definition)] == [
        ("instancetype", "VirtualMachineInstancetype", "cmedium", "team-a", 3, 18, 0),
        ("preference", "VirtualMachinePreference", "fedora", None, 7, 18, 1),
        ("instancetype", "VirtualMachineClusterInstancetype", "csmall", None, 11, 18, 2),
        ("preference", "VirtualMachineClusterPreference", "windows", None, 16, 9, 3)]


@pytest.mark.parametrize("written, meant, defined", [
    ("VirtualMachineClusterInstanceType",
     "the kind is VirtualMachineClusterInstancetype (a kind is matched with its case)", ("instancetype", None)),
    ("VirtualMachinePreferences", "the kind is VirtualMachinePreference (a kind is singular)",
     ("preference", "team-a")),
    ("VirtualMachineClusterPreferenc", "the kind is VirtualMachineClusterPreference", ("preference", None)),
    ("Flavor", "its kinds are VirtualMachineClusterInstancetype, VirtualMachineClusterPreference, "
               "VirtualMachineInstancetype, VirtualMachinePreference", None),
])
def test_a_kind_of_the_catalog_s_group_the_api_server_does_not_serve_is_a_problem_at_its_kind(written, meant,
                                                                                               defined):
    found = read(f"""
        apiVersion: instancetype.kubevirt.io/v1beta1
        kind: {written}
        metadata: {{name: medium, namespace: team-a}}
    """)
    problem = next(f for f in found if isinstance(f, Problem))
    assert (problem.location.line, problem.location.path) == (2, ("kind",))
    assert problem.message == (f"kind {written!r} is not served by instancetype.kubevirt.io: kubectl answers 'no "
                               f"matches for kind' and nothing is created; {meant}")
    # a definition that defines nothing, for the references to its name to point at
    assert [(d.family, d.kind, d.name, d.namespace, d.served) for d in found if isinstance(d, Definition)] == (
        [] if defined is None else [(defined[0], written, "medium", defined[1], False)])


def test_a_list_kind_of_the_catalog_s_group_is_no_unserved_kind():
    assert read("""
        apiVersion: instancetype.kubevirt.io/v1beta1
        kind: VirtualMachineInstancetypeList
        metadata: {name: x}
    """) == []


def test_the_copy_a_controller_revision_holds_defines_nothing():
    assert read("""
        apiVersion: apps/v1
        kind: ControllerRevision
        metadata: {name: vm-u1.medium-v1beta1-1}
        data:
          apiVersion: instancetype.kubevirt.io/v1beta1
          kind: VirtualMachineClusterInstancetype
          metadata: {name: u1.medium}
          spec: {cpu: {guest: 1}, memory: {guest: 4Gi}}
        revision: 1
    """) == []


# --------------------------------------------------------------------------- strings and placeholders


def test_a_manifest_inside_a_block_string_is_text_and_not_read():
    assert read("""
        apiVersion: tekton.dev/v1
        kind: Pipeline
        metadata: {name: installer}
        spec:
          tasks:
            - name: create-vm
              params:
                - name: manifest
                  value: |-
                    apiVersion: kubevirt.io/v1
                    kind: VirtualMachine
                    spec:
                      instancetype:
                        name: $(params.instanceTypeName)
    """) == []


@pytest.mark.parametrize("written, shown", [
    ("$(params.instanceTypeName)", "$(params.instanceTypeName)"),
    ("'{{ .Values.instancetype }}'", "{{ .Values.instancetype }}"),
    ("${INSTANCETYPE:=u1.medium}", "${INSTANCETYPE:=u1.medium}"),
    ("u1.${SIZE}", "${SIZE}"),
    ("<instance-type>", "<instance-type>"),
    ("'u1.<size>'", "<size>"),
])
def test_a_placeholder_another_tool_fills_in_is_unchecked(written: str, shown: str):
    found = only(f"""
        apiVersion: kubevirt.io/v1
        kind: VirtualMachine
        metadata: {{name: vm}}
        spec:
          instancetype:
            name: {written}
    """)
    assert (found.name, found.location.line) == (None, 6)
    assert found.unchecked == f"holds {shown!r}, a placeholder another tool fills in before the manifest is applied"


# --------------------------------------------------------------------------- places and the registry


def test_a_place_the_user_names_makes_references_of_its_values():
    found = read("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: forklift-vsphere-osmap}
        data:
          centos7_64Guest: "centos.7"
          rhel9_64Guest: "rhel.9"
    """, "preference=ConfigMap/forklift-*-osmap:data.*")
    assert [(r.family, r.name, r.kind, r.via, r.location.line, r.location.column) for r in found] == [
        ("preference", "centos.7", None, "place preference=ConfigMap/forklift-*-osmap:data.*", 5, 20),
        ("preference", "rhel.9", None, "place preference=ConfigMap/forklift-*-osmap:data.*", 6, 18)]
    assert found[0].owner is found[1].owner


def test_a_place_s_value_that_is_no_text_is_a_problem():
    found = read("""
        apiVersion: apps.example.com/v1
        kind: VMInstance
        metadata: {name: test}
        spec: {instanceType: {name: u1.medium}}
    """, "instancetype=VMInstance:spec.instanceType")
    assert [(p.location.line, p.message) for p in found] == [
        (4, "place instancetype=VMInstance:spec.instanceType: expected an instancetype's name as text, got a "
            "mapping")]


#: An OpenShift Template whose ConfigMap names a preference through the parameter OS (default rhel.9).
OS_TEMPLATE = """
        apiVersion: template.openshift.io/v1
        kind: Template
        metadata: {name: t}
        parameters:
          - {name: OS, value: rhel.9}
        objects:
          - apiVersion: v1
            kind: ConfigMap
            metadata: {name: osmap}
            data: {rhel: "${OS}"}
"""


def test_a_place_applies_to_the_objects_inside_a_template_with_its_parameters():
    assert refs(OS_TEMPLATE, "preference=ConfigMap:data.*") == [
        ("preference", "rhel.9", None, "place preference=ConfigMap:data.*", 5, 23)]


def test_every_form_is_registered_by_the_kinds_it_reads_and_documented():
    ids = {(group, kind): registered.id for (group, kind), registered in FORMS.items()}
    assert ids == {
        ("kubevirt.io", "VirtualMachine"): "virtual-machine",
        ("pool.kubevirt.io", "VirtualMachinePool"): "virtual-machine-pool",
        ("snapshot.kubevirt.io", "VirtualMachineSnapshotContent"): "snapshot-content",
        ("template.kubevirt.io", "VirtualMachineTemplate"): "virt-template",
        ("template.openshift.io", "Template"): "openshift-template",
        ("", "Template"): "openshift-template",
        ("instancetype.kubevirt.io", "VirtualMachineInstancetype"): "definition",
        ("instancetype.kubevirt.io", "VirtualMachineClusterInstancetype"): "definition",
        ("instancetype.kubevirt.io", "VirtualMachinePreference"): "definition",
        ("instancetype.kubevirt.io", "VirtualMachineClusterPreference"): "definition",
    }
    assert all(registered.summary for registered in FORMS.values())


def test_a_form_is_registered_once_for_each_kind_it_reads_and_a_kind_only_once(monkeypatch: pytest.MonkeyPatch):
    """Registers into an empty FORMS of its own: the built-in forms register when the module is imported, which
    no test's call of ``form`` sees."""
    from generator.tools.refs import forms

    monkeypatch.setattr(forms, "FORMS", {})

    def find(obj: Any) -> list:
        """Reads a kind.

        Says more here."""
        return []

    assert forms.form("mine", ("g", "A"), ("g", "B"))(find) is find
    registered = forms.Form("mine", (("g", "A"), ("g", "B")), find)
    assert forms.FORMS == {("g", "A"): registered, ("g", "B"): registered}
    assert registered.summary == "Reads a kind."
    assert forms.Form("bare", (), lambda obj: []).summary == ""
    with pytest.raises(AssertionError) as twice:
        forms.form("again", ("g", "C"), ("g", "B"))(find)
    assert str(twice.value) == "two forms read ('g', 'B')"


# --------------------------------------------------------------------------- edges of the pieces every form uses


def test_an_object_is_a_mapping_with_an_api_version_and_a_kind_as_text():
    from generator.tools.refs.forms import is_object

    assert [is_object(data) for data in ({"apiVersion": "v1", "kind": "ConfigMap"}, {"apiVersion": "v1"},
                                         {"kind": "ConfigMap"}, {"apiVersion": 1, "kind": "ConfigMap"},
                                         {"apiVersion": "v1", "kind": 1}, ["apiVersion", "kind"])] == [
        True, False, False, False, False, False]


def test_an_object_a_wrapper_holds_is_read_as_the_kind_it_says_it_is():
    found = read("""
        apiVersion: template.kubevirt.io/v1beta1
        kind: VirtualMachineTemplate
        metadata: {name: t}
        spec:
          virtualMachine:
            apiVersion: instancetype.kubevirt.io/v1beta1
            kind: VirtualMachinePreference
            metadata: {name: mine}
    """)
    assert [(d.kind, d.name, d.location.line) for d in found] == [("VirtualMachinePreference", "mine", 8)]


@pytest.mark.parametrize("kind", ["", "kind: 3"])
def test_an_object_a_pool_holds_without_a_kind_of_its_own_is_the_virtual_machine_the_pool_makes(kind: str):
    assert refs(f"""
        apiVersion: pool.kubevirt.io/v1beta1
        kind: VirtualMachinePool
        metadata: {{name: pool}}
        spec:
          virtualMachineTemplate:
            {kind}
            metadata: {{labels: {{os: fedora}}}}
    """, "preference=VirtualMachine:metadata.labels.os") == [
        ("preference", "fedora", None, "place preference=VirtualMachine:metadata.labels.os", 7, 29)]


def test_an_object_a_pool_holds_with_a_kind_of_its_own_is_that_kind():
    assert refs("""
        apiVersion: pool.kubevirt.io/v1beta1
        kind: VirtualMachinePool
        metadata: {name: pool}
        spec:
          virtualMachineTemplate:
            kind: Custom
            metadata: {labels: {os: fedora}}
    """, "preference=Custom:metadata.labels.os", "preference=VirtualMachine:metadata.labels.os") == [
        ("preference", "fedora", None, "place preference=Custom:metadata.labels.os", 7, 29)]


def test_a_place_of_another_group_or_kind_is_passed_over_for_the_next_place():
    found = read("""
        apiVersion: apps.cozystack.io/v1alpha1
        kind: VMInstance
        metadata: {name: vm, namespace: tenant}
        spec: {instanceType: u1.medium}
    """, "instancetype=VMInstance.example.com:spec.instanceType", "instancetype=Other:spec.instanceType",
         "instancetype=VMInstance.apps.cozystack.io:spec.instanceType")
    assert [(r.name, r.via, r.location.line) for r in found] == [
        ("u1.medium", "place instancetype=VMInstance.apps.cozystack.io:spec.instanceType", 4)]
    assert (found[0].owner.key, found[0].owner.kind, found[0].owner.name, found[0].owner.namespace) == (
        "m.yaml#0 $", "VMInstance", "vm", "tenant")


def test_each_value_of_a_place_is_read_past_a_null_one_and_one_that_is_no_text():
    found = read("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: osmap}
        data: {a: null, b: [x], c: "{{ .os }}", d: rhel.9}
    """, "preference=ConfigMap:data.*")
    assert [(type(f).__name__, f.location.line, f.location.column) for f in found] == [
        ("Problem", 4, 20), ("Reference", 4, 28), ("Reference", 4, 44)]
    assert [(r.name, r.unchecked) for r in found[1:]] == [
        (None, "holds '{{ .os }}', a placeholder another tool fills in before the manifest is applied"),
        ("rhel.9", None)]


def test_a_place_in_an_object_whose_metadata_is_no_mapping_or_in_a_bare_list_is_read():
    assert refs("""
        apiVersion: v1
        kind: ConfigMap
        metadata: osmap
        data: {a: rhel.9}
    """, "preference=ConfigMap:data.*") == [("preference", "rhel.9", None, "place preference=ConfigMap:data.*", 4, 11)]
    assert refs("""
        - apiVersion: v1
          kind: ConfigMap
          data: {a: rhel.9}
    """, "preference=ConfigMap:data.*") == [("preference", "rhel.9", None, "place preference=ConfigMap:data.*", 3, 13)]


def test_a_place_s_value_from_a_template_parameter_names_it_and_is_found_at_its_default():
    found = only(OS_TEMPLATE, "preference=ConfigMap:data.*")
    assert (found.name, found.parameter, found.location.line, found.location.name) == ("rhel.9", "OS", 5, "t")


def test_an_owner_whose_kind_name_or_namespace_is_no_text_has_none():
    found = only("""
        apiVersion: example.com/v1
        kind: 3
        metadata:
          name: [x]
          namespace: 4
          labels: {instancetype.kubevirt.io/default-preference: fedora}
    """)
    assert (found.owner.kind, found.owner.name, found.owner.namespace) == ("", None, None)


def test_catalog_objects_whose_metadata_is_no_mapping_define_nothing():
    assert read("""
        apiVersion: instancetype.kubevirt.io/v1beta1
        kind: VirtualMachinePreference
        metadata: [mine]
        ---
        apiVersion: instancetype.kubevirt.io/v1beta1
        kind: VirtualMachineClusterPreference
        metadata: mine
    """) == []


def test_a_matcher_of_a_kind_no_form_reads_that_only_infers_is_found_and_a_spec_that_is_no_mapping_is_not():
    found = read("""
        apiVersion: example.com/v1
        kind: Machine
        metadata: {name: m}
        spec:
          template:
            spec:
              preference: {inferFromVolume: root}
          other: {spec: [1]}
          more: {spec: x}
    """)
    assert [(r.family, r.name, r.via, r.location.line, r.owner.key) for r in found] == [
        ("preference", None, "spec.preference", 7, "m.yaml#0 $.spec.template")]


def test_a_matcher_that_infers_or_is_no_mapping_leaves_the_other_family_read():
    found = read("""
        apiVersion: kubevirt.io/v1
        kind: VirtualMachine
        metadata: {name: vm}
        spec:
          instancetype: {inferFromVolume: root}
          preference: {name: fedora}
        ---
        apiVersion: kubevirt.io/v1
        kind: VirtualMachine
        metadata: {name: vm}
        spec:
          instancetype: u1.small
          preference: {name: fedora, inferFromVolume: 3}
        ---
        apiVersion: kubevirt.io/v1
        kind: VirtualMachine
        metadata: {name: vm}
        spec:
          preference: {inferFromVolume: 3}
    """)
    assert [(r.family, r.name, r.via, r.location.line, r.owner.key) for r in found] == [
        ("instancetype", None, "spec.instancetype", 5, "m.yaml#0 $"), ("preference", "fedora", "spec.preference", 6,
                                                                      "m.yaml#0 $"),
        ("preference", "fedora", "spec.preference", 13, "m.yaml#1 $")]


def test_the_labels_after_a_wrapped_object_are_read_too():
    assert refs("""
        apiVersion: pool.kubevirt.io/v1beta1
        kind: VirtualMachinePool
        metadata: {name: pool}
        spec:
          virtualMachineTemplate:
            spec: {preference: {name: fedora}}
          selector:
            metadata: {labels: {instancetype.kubevirt.io/default-preference: ubuntu}}
    """) == [("preference", "fedora", None, "spec.preference", 6, 31), ("preference", "ubuntu", None, PREF, 8, 70)]


@pytest.mark.parametrize("name, kind, found", [
    # a kind another tool fills in: the name beside it is unchecked too, at the name
    ("${INSTANCETYPE}", "$(params.kind)", (None, None, 21, "INSTANCETYPE")),
    # a name another tool fills in: the kind beside it is handed on as written, to be judged on its own
    ("$(params.name)", "VirtualMachineClusterInstancetype", (None, "VirtualMachineClusterInstancetype", 21, None)),
    ("$(params.name)", "vmcf", (None, "vmcf", 21, None)),
])
def test_a_placeholder_in_a_name_leaves_it_unchecked_and_one_in_its_kind_both(name: str, kind: str, found: tuple):
    text = TEMPLATE.replace("name: ${INSTANCETYPE}", f"name: \"{name}\"\n            kind: \"{kind}\"")
    first = [r for r in read(text) if isinstance(r, Reference)][0]
    assert (first.name, first.kind, first.location.line, first.parameter) == found
    assert first.unchecked is not None and "a placeholder another tool fills in" in first.unchecked


def test_a_parameter_whose_default_holds_a_placeholder_is_unchecked_and_named():
    long = "{{ " + "x" * 50 + " }}"
    first = [r for r in read(TEMPLATE.replace("value: u1.medium", f"value: \"{long}\"")) if isinstance(r, Reference)][0]
    assert (first.name, first.parameter) == (None, "INSTANCETYPE")
    assert first.unchecked == ("holds '{{ xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx... (16 more characters)', a "
                               "placeholder another tool fills in before the manifest is applied")


def test_a_parameter_default_is_located_with_the_name_of_the_template():
    first = [r for r in read(TEMPLATE) if isinstance(r, Reference)][0]
    assert (first.location.line, first.location.name) == (10, "fedora-template")


def test_an_undefined_parameter_of_a_template_without_parameters_or_with_many_says_so():
    bare = read("""
        apiVersion: template.kubevirt.io/v1beta1
        kind: VirtualMachineTemplate
        metadata: {name: t}
        spec:
          virtualMachine:
            spec: {instancetype: {name: "${IT}"}}
    """)
    assert [p.message for p in bare if isinstance(p, Problem)] == [
        "references undefined parameter IT: virt-template's webhook refuses the template (its parameters: none)"]
    many = "\n".join(f"        - {{name: PARAMETER_{n:02}, value: x}}" for n in range(20))
    text = TEMPLATE.replace("      parameters:\n", "      parameters:\n" + many + "\n").replace("${INSTANCETYPE}",
                                                                                                  "${ZZ}")
    said = [p.message for p in read(text) if isinstance(p, Problem)]
    defined = ", ".join([f"PARAMETER_{n:02}" for n in range(20)]
                        + ["NAME", "INSTANCETYPE", "PREFERENCE", "SIZE", "EMPTY"])
    assert said == ["references undefined parameter ZZ: virt-template's webhook refuses the template (its parameters: "
                    + defined[:200] + "... (123 more characters))"]
