"""The scsi-disk trait: upstream keeps SCSI disks as a component; vendors compose it into preferences."""

from __future__ import annotations

import copy
import textwrap
from pathlib import Path

from generator.load.traits import load_traits
from generator.paths import builtin_catalog
from generator.pipeline import BuildOptions, generate
from tests.helpers import default_build, documented_yaml


def test_the_trait_sets_the_scsi_disk_bus_and_nothing_else():
    traits, problems = load_traits(builtin_catalog() / "preferences" / "traits")
    assert problems == []
    assert traits["scsi-disk"].spec == {"devices": {"preferredDiskBus": "scsi"}}
    assert traits["scsi-disk"].tags == ()


def test_no_builtin_preference_uses_it():
    assert not [o.name for o in default_build().objects
                if o.family == "preference" and o.spec.get("devices", {}).get("preferredDiskBus") == "scsi"]


def test_the_vendor_guides_scsi_variant_of_rhel_9_builds_and_validates(tmp_path: Path):
    overlay = tmp_path / "scsi.yaml"
    overlay.write_text(documented_yaml("vendor-guide.md", "### Traits and preferences", index=1))
    build = generate(BuildOptions(overlays=(overlay,)))
    assert build.problems == ()
    found = {(d.data["kind"], d.data["metadata"]["name"]): d.data for d in build.documents}
    base = found[("VirtualMachineClusterPreference", "rhel.9")]
    scsi = found[("VirtualMachineClusterPreference", "rhel.9.scsi")]
    assert base["spec"]["devices"]["preferredDiskBus"] == "virtio"
    wanted = copy.deepcopy(base["spec"])
    wanted["devices"]["preferredDiskBus"] = "scsi"
    assert scsi["spec"] == wanted
    assert scsi["metadata"]["annotations"]["openshift.io/display-name"] == "Red Hat Enterprise Linux 9 (SCSI disks)"
    assert found[("VirtualMachinePreference", "rhel.9.scsi")]["spec"] == wanted


def test_a_preference_of_its_own_composes_it_without_an_override(tmp_path: Path):
    overlay = tmp_path / "own.yaml"
    overlay.write_text(textwrap.dedent("""\
        preferences:
          add:
            acme-linux:
              displayName: Acme Linux
              description: Acme's own Linux, with its disks on SCSI.
              osType: linux
              iconClass: icon-linux
              traits: [scsi-disk, virtio-interface, efi]
              requirements: {cpu: 1, memory: 1Gi}
        """))
    build = generate(BuildOptions(overlays=(overlay,)))
    assert build.problems == ()
    spec = {o.name: o for o in build.objects}["acme-linux"].spec
    assert spec["devices"] == {"preferredDiskBus": "scsi", "preferredInterfaceModel": "virtio"}
