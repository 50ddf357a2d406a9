"""The scan over ../shared/reference/consumers/: real manifests that name catalog objects, read as they are.

Each folder holds what an operator, a migration tool, a documentation page or an
example shipped (its SOURCE says where from). For each, the scan must find exactly the
references its notes list: (family, file) -> name -> the lines it is written on, a name
of None being a template parameter without a default (unchecked). Two folders need the
places a user names: the Forklift guest-OS maps (ConfigMap ``data`` values are
preference names) and Cozystack's VMInstance. The data is read through
tests.conftest.shared_file, so these tests are skipped where it is absent (not under CI).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.tools.refs.model import Scan
from generator.tools.refs.places import parse_place
from generator.tools.refs.scan import scan
from tests.conftest import SHARED, shared_file

CONSUMERS = SHARED / "reference" / "consumers"
OSMAP = "preference=ConfigMap/forklift-*-osmap:data.*"
#: The places a user of each folder names.
PLACES = {
    "cozystack-vminstance": ("instancetype=VMInstance.apps.cozystack.io:spec.instanceType",
                             "preference=VMInstance.apps.cozystack.io:spec.instanceProfile"),
    "forklift-osmap-ovirt": (OSMAP,),
    "forklift-osmap-vsphere": (OSMAP,),
    "forklift-osmap-win2k": (OSMAP,),
}
HCO = "dataImportCronTemplates.yaml"

EXPECTED: dict[str, dict[tuple[str, str], dict[str | None, list[int]]]] = {
    "acend-training-labs": {
        ("instancetype", "vm_lab03-o1-cirros.yaml"): {"o1.nano": [9]},
        ("preference", "vm_lab03-o1-cirros.yaml"): {"cirros": [12]},
        ("instancetype", "vm_lab03-u1-cirros.yaml"): {"u1.nano": [9]},
        ("preference", "vm_lab03-u1-cirros.yaml"): {"cirros": [12]},
    },
    "cozystack-vminstance": {
        ("instancetype", "vminstance.yaml"): {"u1.medium": [11]},
        ("preference", "vminstance.yaml"): {"ubuntu": [12]},
    },
    "forklift-osmap-ovirt": {
        ("preference", "configmap-osmap-ovirt.yaml"): {
            "rhel.7": [11], "rhel.8": [12], "rhel.9": [13], "ubuntu": [14, 15, 16, 17, 18],
            "windows.10.virtio": [19, 20], "windows.2k12.virtio": [21, 22], "windows.2k16.virtio": [23],
            "windows.2k19.virtio": [24], "windows.2k22.virtio": [25], "windows.11.virtio": [26]},
    },
    "forklift-osmap-vsphere": {  # windows.8 at 48 only: the duplicate key at 49 is a problem, its value left out
        ("preference", "configmap-osmap-vsphere.yaml"): {
            "linux": [11], "ubuntu": [13, 14], "fedora": [16, 17], "centos.7": [19], "centos.stream8": [20],
            "centos.stream9": [21], "rhel.7": [23, 24], "rhel.8": [25], "rhel.9": [26], "rhel.10": [27],
            "sles": [29, 30, 31, 32, 33], "opensuse.leap": [34], "debian": list(range(36, 46)), "windows.7": [47],
            "windows.8": [48], "windows.10": [51], "windows.11": [52], "windows.12": [53], "windows.2k8": [55],
            "windows.2k12": [56], "windows.2k16": [57], "windows.2k19": [58], "windows.2k22": [60],
            "windows.2k25": [61]},
    },
    "forklift-osmap-win2k": {
        ("preference", "configmap-osmap-ovirt.yaml"): {
            "rhel.7": [11], "rhel.8": [12], "rhel.9": [13], "ubuntu": [14, 15, 16, 17, 18],
            "windows.10.virtio": [19, 20], "win2k12.virtio": [21, 22], "win2k16.virtio": [23],
            "win2k19.virtio": [24], "win2k22.virtio": [25], "windows.11.virtio": [26]},
        ("preference", "configmap-osmap-vsphere.yaml"): {
            "centos.7": [11, 12], "centos.stream8": [13, 14], "fedora": [15, 16], "rhel.7": [17, 18], "rhel.8": [19],
            "rhel.9": [20], "ubuntu": [21, 22], "windows.10": [23, 24, 25], "windows.11": [26], "win2k19": [27, 28],
            "win2k22": [29]},
    },
    "hco-centos-stream": {
        ("instancetype", HCO): {"u1.medium": [7, 27, 47, 67]},
        ("preference", HCO): {"centos.8.stream": [6], "centos.9.stream": [26], "fedora": [46], "centos.7": [66]},
    },
    "hco-fixed": {
        ("instancetype", HCO): {"u1.medium": [7, 27, 47, 67]},
        ("preference", HCO): {"centos.stream8": [6], "centos.stream9": [26], "fedora": [46], "centos.7": [66]},
    },
    "hco-n-medium": {
        ("instancetype", HCO): {"n.medium": [7, 27, 47, 67]},
        ("preference", HCO): {"centos.8.stream": [6], "centos.9.stream": [26], "fedora": [46], "centos.7": [66]},
    },
    "hco-release-1.10-tip": {
        ("instancetype", HCO): {"u1.medium": [7, 27]},
        ("preference", HCO): {"centos.9.stream": [6], "fedora": [26]},
    },
    "hco-release-1.12-clean": {
        ("instancetype", HCO): {"u1.medium": [7, 27]},
        ("preference", HCO): {"centos.stream9": [6], "fedora": [26]},
    },
    "hco-server-medium": {
        ("instancetype", HCO): {"server.medium": [7, 27, 47, 67]},
        ("preference", HCO): {"centos.8.stream": [6], "centos.9.stream": [26], "fedora": [46], "centos.7": [66]},
    },
    "kubevirt-examples-local": {
        ("instancetype", "vm-cirros-clarge-virtio.yaml"): {"clarge": [11]},
        ("preference", "vm-cirros-clarge-virtio.yaml"): {"virtio": [14]},
        ("instancetype", "vm-cirros-clarge-windows.yaml"): {"clarge": [11]},
        ("preference", "vm-cirros-clarge-windows.yaml"): {"windows": [14]},
        ("instancetype", "vm-cirros-clarge.yaml"): {"clarge": [11]},
        ("instancetype", "vm-cirros-cluster-csmall.yaml"): {"cluster-csmall": [11]},
        ("instancetype", "vm-cirros-csmall.yaml"): {"csmall": [11]},
        ("instancetype", "vm-windows-clarge-windows.yaml"): {"clarge": [11]},
        ("preference", "vm-windows-clarge-windows.yaml"): {"windows": [14]},
    },
    "tekton-windows-efi-installer": {},  # its VM and labels are block strings, not YAML
    "user-guide-examples": {
        ("instancetype", "boot_from_external_source-vm.yaml"): {"u1.medium": [8]},
        ("preference", "boot_from_external_source-vm.yaml"): {"fedora": [10]},
        ("instancetype", "vm_templates-fedora-template.yaml"): {"u1.medium": [12]},  # the default, used at 23
        ("preference", "vm_templates-fedora-template.yaml"): {"fedora": [26]},
    },
    "user-guide-local-defs": {
        ("instancetype", "instancetypes-example.yaml"): {"cmedium": [35]},
        ("preference", "instancetypes-example.yaml"): {"fedora": [38]},
    },
    "virt-template-samples": {
        ("instancetype", "README-quick-example.yaml"): {"u1.medium": [10]},  # defaults, used at 19 and 21
        ("preference", "README-quick-example.yaml"): {"fedora": [12]},
        ("instancetype", "template_v1alpha1_virtualmachinetemplate.yaml"): {None: [25]},
        ("preference", "template_v1alpha1_virtualmachinetemplate.yaml"): {None: [27]},
        ("instancetype", "template_v1beta1_virtualmachinetemplate.yaml"): {None: [25]},
        ("preference", "template_v1beta1_virtualmachinetemplate.yaml"): {None: [27]},
    },
}


def scanned(folder: str, *places: str) -> Scan:
    path = shared_file(CONSUMERS / folder)
    return scan([path], [parse_place(place) for place in places or PLACES.get(folder, ())])


def table(found: Scan, folder: str) -> dict[tuple[str, str], dict[str | None, list[int]]]:
    """The references of a scan as the notes list them: (family, file) -> name -> lines."""
    out: dict[tuple[str, str], dict[str | None, list[int]]] = {}
    for reference in found.references:
        file = str(Path(reference.location.file).relative_to(CONSUMERS / folder))
        out.setdefault((reference.family, file), {}).setdefault(reference.name, []).append(reference.location.line)
    return out


@pytest.mark.parametrize("folder", list(EXPECTED))
def test_each_folder_names_exactly_what_its_notes_list(folder: str):
    assert table(scanned(folder), folder) == EXPECTED[folder]


def test_the_corpus_has_no_folder_the_table_leaves_out():
    assert sorted(path.name for path in shared_file(CONSUMERS).iterdir() if path.is_dir()) == sorted(EXPECTED)


def test_the_names_that_shipped_wrong_are_all_found():
    found: set[str | None] = set()
    for folder in EXPECTED:
        found |= {reference.name for reference in scanned(folder).references}
    assert {"server.medium", "n.medium", "centos.7", "centos.stream8", "centos.8.stream", "centos.9.stream",
            "windows.8", "windows.12", "win2k12.virtio", "win2k16.virtio", "win2k19.virtio", "win2k22.virtio",
            "win2k19", "win2k22"} <= found


def test_the_examples_define_the_objects_their_virtual_machines_name():
    assert [(d.family, d.kind, d.name, d.namespace, Path(d.location.file).name, d.location.line)
            for d in scanned("kubevirt-examples-local").definitions] == [
        ("instancetype", "VirtualMachineInstancetype", "clarge", None, "clarge.yaml", 5),
        ("instancetype", "VirtualMachineClusterInstancetype", "cluster-csmall", None, "cluster-csmall.yaml", 5),
        ("instancetype", "VirtualMachineInstancetype", "csmall", None, "csmall.yaml", 5),
        ("preference", "VirtualMachinePreference", "virtio", None, "virtio.yaml", 5),
        ("preference", "VirtualMachinePreference", "windows", None, "windows.yaml", 5),
    ]


def test_the_user_guide_defines_cmedium_and_its_own_fedora_in_the_stream_of_its_virtual_machine():
    found = scanned("user-guide-local-defs")
    assert [(d.kind, d.name, d.location.line, d.location.doc) for d in found.definitions] == [
        ("VirtualMachineInstancetype", "cmedium", 5, 0), ("VirtualMachinePreference", "fedora", 15, 1)]
    assert [(r.name, r.kind, r.location.doc) for r in found.references] == [
        ("cmedium", "virtualMachineInstancetype", 2), ("fedora", "virtualMachinePreference", 2)]


def test_the_virt_template_samples_parameters_are_unchecked_and_their_values_file_skipped():
    found = scanned("virt-template-samples")
    unchecked = [(r.parameter, r.unchecked) for r in found.references if r.name is None]
    assert unchecked == [(name, f"parameter {name} is required and has no default: it is given when the template "
                                "is processed") for name in ("INSTANCETYPE", "PREFERENCE") * 2]
    assert [Path(file).name for file in found.skipped] == ["testparams.yaml"]
    assert (found.files, found.problems) == (4, ())


def test_the_duplicate_key_of_the_vsphere_map_is_a_problem_and_the_rest_of_the_map_is_read():
    found = scanned("forklift-osmap-vsphere")
    assert [(Path(p.location.file).name, p.location.line, p.location.column, p.message) for p in found.problems] == [
        ("configmap-osmap-vsphere.yaml", 49, 3, "duplicate key 'windows8_64Guest' (first at line 48)")]
    assert len(found.references) == 40  # every key of the map once


def test_the_forklift_maps_name_nothing_until_the_user_names_their_place():
    for folder in ("forklift-osmap-ovirt", "forklift-osmap-win2k"):
        found = scan([shared_file(CONSUMERS / folder)])
        assert (found.references, found.skipped) == ((), ())  # ConfigMaps: objects, not skipped


def test_the_jinja_originals_of_the_forklift_maps_are_not_read_from_the_folder():
    found = scanned("forklift-osmap-ovirt")
    assert (found.files, [Path(r.location.file).name for r in found.references][:1]) == (
        1, ["configmap-osmap-ovirt.yaml"])


def test_the_tekton_pipeline_s_strings_are_not_read_and_its_parameters_are_found_once_named():
    assert scanned("tekton-windows-efi-installer").references == ()
    found = scanned("tekton-windows-efi-installer",
                    "instancetype=Pipeline:spec.params[name=instanceTypeName].default",
                    "preference=Pipeline:spec.params[name=preferenceName].default",
                    "preference=PipelineRun:spec.params[name=preferenceName].value")
    assert table(found, "tekton-windows-efi-installer") == {
        ("preference", "pipelineruns.yaml"): {"windows.10.virtio": [43], "windows.2k22.virtio": [82],
                                              "windows.2k25.virtio": [121]},
        ("instancetype", "windows-efi-installer.yaml"): {"u1.large": [41]},
        ("preference", "windows-efi-installer.yaml"): {"windows.11.virtio": [49]},
    }
