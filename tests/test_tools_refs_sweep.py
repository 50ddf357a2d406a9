"""citgen refs on the sweep of real files (../shared/reference/consumers-sweep) and the consumer folders.

The five ways the sweep found refs misleading a user (issue 44), each on a file of the
sweep or of a consumer folder, or on one made like it where the real one is not YAML a
reader takes whole: a name defined only in the other scope, suggestions by spelling only,
placeholders judged as names, a kind dropped beside a placeholder, definitions of a kind
the API server does not serve. The real files are read from ../shared, and these tests
skip where it is absent (not under CI).
"""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest

from generator.tools.refs.judge import Verdict, judge
from generator.tools.refs.places import parse_place
from generator.tools.refs.scan import scan
from generator.tools.refs.target import Target, target_objects
from tests.conftest import SHARED, shared_file

REFERENCE = SHARED / "reference"
SWEEP = REFERENCE / "consumers-sweep" / "files"


@pytest.fixture(scope="module")
def builtin() -> Target:
    return target_objects()


def judged(builtin: Target, *paths: Path) -> tuple[Verdict, list[str]]:
    """The verdict on ``paths`` and every line it says: findings and the scan's problems, file names cut short."""
    found = scan([str(path) for path in paths])
    verdict = judge(found, builtin)
    lines = [str(p) for p in (*found.problems, *verdict.findings)]
    return verdict, [line.replace(str(path.parent) + "/", "") for line in lines for path in paths[:1]]


def made(tmp_path: Path, name: str, text: str) -> Path:
    (tmp_path / name).write_text(dedent(text))
    return tmp_path / name


def test_a_name_defined_only_in_the_other_scope_is_a_kind_finding(builtin, tmp_path):
    # made like ava-orange-education's Chapter 04 4-3-vm-cpu-topology-partial.yaml, whose "..." lines no reader takes
    path = made(tmp_path, "4-3-vm-cpu-topology.yaml", """\
        apiVersion: instancetype.kubevirt.io/v1beta1
        kind: VirtualMachinePreference
        metadata:
          name: example-preference-cpu-topology
        spec:
          cpu:
            preferredCPUTopology: cores
        ---
        apiVersion: kubevirt.io/v1
        kind: VirtualMachine
        metadata:
          name: example
        spec:
          preference:
            name: example-preference-cpu-topology
        """)
    verdict, said = judged(builtin, path)
    assert said == [
        "4-3-vm-cpu-topology.yaml#1 (example) $.spec.preference.name: names preference "
        "'example-preference-cpu-topology' without a kind (KubeVirt then looks for a VirtualMachineClusterPreference), "
        "which the manifests read define only as a VirtualMachinePreference (4-3-vm-cpu-topology.yaml:4:9); name the "
        "kind VirtualMachinePreference [kind]"]


def test_an_unknown_variant_is_dropped_first_and_said_to_exist_only_for_windows(builtin):
    path = shared_file(SWEEP / "unidentified__vm-tuning-guide.md__block-linux-perf-vm.yaml")
    verdict, said = judged(builtin, path)
    assert said == [
        "unidentified__vm-tuning-guide.md__block-linux-perf-vm.yaml#0 (linux-perf-vm) $.spec.preference.name: "
        "names preference 'rhel.9.virtio', which the built-in catalog does not have "
        "('.virtio' names exist only for windows); did you mean 'rhel.9', 'rhel.9.arm64' or 'rhel.9.realtime'? "
        "[unknown-name]"]


def test_a_bare_os_is_offered_the_version_the_object_naming_it_is_named_for(builtin):
    path = shared_file(REFERENCE / "consumers-r2" / "purefield-windows-dv" / "windows2019.yaml")
    verdict, said = judged(builtin, path)
    assert [line.split("; did you mean ")[1] for line in said] == [
        "'windows.2k19', 'windows.2k12' or 'windows.2k16'? [unknown-name]"]


def test_a_documentation_scaffold_s_placeholders_are_unchecked_not_unknown(builtin):
    path = shared_file(SWEEP / "unidentified__claude-skill-scaffold-vm__SKILL.md__block-pod-network.yaml")
    verdict, said = judged(builtin, path)
    assert (said, verdict.checked, verdict.unchecked) == ([], 0, 2)


def test_a_kind_beside_a_placeholder_is_judged(builtin, tmp_path):
    path = made(tmp_path, "vm.yaml", """\
        apiVersion: kubevirt.io/v1
        kind: VirtualMachine
        metadata:
          name: vm
        spec:
          preference:
            kind: vmcp
            name: "${INSTANCE_TYPE}"
        """)
    verdict, said = judged(builtin, path)
    assert (verdict.checked, verdict.unchecked) == (0, 1)
    assert said == [
        "vm.yaml#0 (vm) $.spec.preference.name: names a preference known only when applied by kind "
        "'vmcp', which KubeVirt does not accept: 'vmcp' is kubectl's short name for VirtualMachineClusterPreference; "
        "write VirtualMachineClusterPreference [kind]"]


def test_a_definition_of_a_kind_the_api_server_does_not_serve_is_the_cause_named(builtin):
    folder = shared_file(REFERENCE / "consumers-r2" / "ssvirt-admin-guide")
    verdict, said = judged(builtin, folder / "it-medium.yaml", folder / "pvc-rhel9-bootsource.yaml")
    assert said == [
        "it-medium.yaml#0 (medium) $.kind: kind 'VirtualMachineClusterInstanceType' is not served by "
        "instancetype.kubevirt.io: kubectl answers 'no matches for kind' and nothing is created; the kind is "
        "VirtualMachineClusterInstancetype (a kind is matched with its case)",
        "pvc-rhel9-bootsource.yaml#0 (rhel9-bootsource) $.metadata.labels['instancetype.kubevirt.io/default-"
        "instancetype']: names instancetype "
        "'medium', which the built-in catalog does not have; the manifests read write a "
        "VirtualMachineClusterInstanceType of that name (it-medium.yaml:2:7), a kind the API server does not serve: "
        "that object is never created [unknown-name]"]


#: docs/refs.md's table: a real mistake, where it is, the first suggestion, and what its fix (or object) names.
MISTAKES = [
    ("rhel.9.virtio", "consumers-sweep/files/unidentified__vm-tuning-guide.md__block-linux-perf-vm.yaml", "rhel.9",
     "rhel.9"),
    ("windows", "consumers-r2/purefield-windows-dv/windows2019.yaml", "windows.2k19", "windows.2k19"),
    *((f"win2k{v}.virtio", "consumers/forklift-osmap-win2k/configmap-osmap-ovirt.yaml", f"windows.2k{v}.virtio",
       f"windows.2k{v}.virtio") for v in ("12", "16", "19", "22")),
    *((f"win2k{v}", "consumers/forklift-osmap-win2k/configmap-osmap-vsphere.yaml", f"windows.2k{v}",
       f"windows.2k{v}") for v in ("19", "22")),
    # HCO meant u1.medium (n1 was renamed u1; n1 is today the network class): nothing in the catalog's data says so
    ("n.medium", "consumers/hco-n-medium/dataImportCronTemplates.yaml", "n1.medium", "u1.medium"),
]
OSMAP = "preference=ConfigMap/forklift-*-osmap:data.*"


@pytest.mark.parametrize("written, where, first, meant", MISTAKES)
def test_the_first_suggestion_for_each_real_mistake(builtin, written, where, first, meant):
    path = shared_file(REFERENCE / where)
    found = scan([str(path)], [parse_place(OSMAP)] if "forklift" in where else [])
    offered = {p.message.split(f"'{written}'", 1)[1].split("did you mean '", 1)[1].split("'", 1)[0]
               for p in judge(found, builtin).findings if f"'{written}'" in p.message}
    assert offered == {first}
