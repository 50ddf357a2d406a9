"""The trait mechanism on its own: small catalogs written into tmp_path.

Each test writes the few trait and family files its case needs, builds the
preferences and looks at the result or at the exact problems reported.
"""

from __future__ import annotations

import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.expand.preferences import build_preferences, expand_preferences
from generator.expand.traits import Layer, compose
from generator.load.preferences import load_preference_catalog
from generator.model import label
from generator.problems import Location

PROVIDER = {
    "displayName": "Example",
    "documentationURL": "https://example.org/docs",
    "supportURL": "https://example.org/support",
}

TRAITS = {
    "virtio-disk": """
        description: Disks on virtio.
        spec:
          devices:
            preferredDiskBus: virtio
        """,
    "sata-disk": """
        description: Disks on SATA.
        spec:
          devices:
            preferredDiskBus: sata
        """,
    "rng": """
        description: A random number generator.
        spec:
          devices:
            preferredRng: {}
        """,
    "many-cpus": """
        description: At least 8 vCPUs, spread.
        tags: [busy]
        spec:
          cpu:
            preferredCPUTopology: spread
          requirements:
            cpu:
              guest: 8
        """,
    "arch-arm64": """
        description: arm64 only.
        spec:
          preferredArchitecture: arm64
          requirements:
            architecture: arm64
        """,
}


def catalog(tmp_path: Path, families: dict[str, str], traits: dict[str, str] | None = None) -> Path:
    """Write a catalog with the given family files (and TRAITS unless others are given)."""
    folder = tmp_path / "preferences" / "traits"
    folder.mkdir(parents=True)
    for name, text in (TRAITS if traits is None else traits).items():
        (folder / f"{name}.yaml").write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    for name, text in families.items():
        (tmp_path / "preferences" / f"{name}.yaml").write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return tmp_path


def build(root: Path) -> dict:
    return {obj.name: obj for obj in build_preferences(root, provider=PROVIDER)}


def messages(root: Path) -> list[str]:
    with pytest.raises(InputError) as caught:
        build_preferences(root, provider=PROVIDER)
    return [str(p) for p in caught.value.problems]


def test_traits_compose_in_order_and_family_requirements_fill_the_rest(tmp_path):
    root = catalog(tmp_path, {"os": """
        osType: linux
        iconClass: icon-os
        tags: [os]
        traits: [virtio-disk, rng]
        requirements: {cpu: 1, memory: 1Gi}
        preferences:
          os.busy:
            displayName: Busy OS
            traits: [many-cpus]
            description: A busy guest.
        """})
    busy = build(root)["os.busy"]
    assert busy.spec == {
        "annotations": {"vm.kubevirt.io/os": "linux"},
        "cpu": {"preferredCPUTopology": "spread"},
        "devices": {"preferredDiskBus": "virtio", "preferredRng": {}},
        "requirements": {"cpu": {"guest": 8}, "memory": {"guest": "1Gi"}},
    }
    assert busy.labels == {label("os-type"): "linux", label("required-cpu"): "8", label("required-memory"): "1Gi"}
    assert busy.annotations["tags"] == "os,busy"
    assert busy.facts == {"displayName": "Busy OS", "cpu": 8, "memory": 1024**3, "architecture": None,
                          "osType": "linux", "essential": ()}
    assert busy.group == "os"
    assert (busy.location.file, busy.location.line) == ("preferences/os.yaml", 7)


def test_a_later_trait_contradicting_an_earlier_one_names_both(tmp_path):
    root = catalog(tmp_path, {"os": """
        osType: linux
        iconClass: icon-os
        traits: [virtio-disk, rng, sata-disk]
        preferences:
          os:
            displayName: OS
            description: A guest.
        """})
    assert messages(root) == [
        "preferences/os.yaml:3:28: traits[2]: trait 'sata-disk' sets devices.preferredDiskBus to 'sata', "
        "but trait 'virtio-disk' (listed at preferences/os.yaml:3) already set devices.preferredDiskBus to "
        "'virtio'; write it as {trait: sata-disk, override: true} if it is meant to replace that value"
    ]


def test_an_override_replaces_the_earlier_value(tmp_path):
    root = catalog(tmp_path, {"os": """
        osType: linux
        iconClass: icon-os
        traits: [virtio-disk, rng]
        preferences:
          os:
            displayName: OS
            description: A guest.
          os.sata:
            basedOn: os
            traits: [{trait: sata-disk, override: true}]
            description: The same guest on SATA.
        """})
    objects = build(root)
    assert objects["os"].spec["devices"] == {"preferredDiskBus": "virtio", "preferredRng": {}}
    assert objects["os.sata"].spec["devices"] == {"preferredDiskBus": "sata", "preferredRng": {}}
    assert objects["os.sata"].annotations["openshift.io/display-name"] == "OS"


def test_an_override_that_replaces_nothing_is_reported(tmp_path):
    root = catalog(tmp_path, {"os": """
        osType: linux
        iconClass: icon-os
        traits: [rng, {trait: sata-disk, override: true}]
        preferences:
          os:
            displayName: OS
            description: A guest.
        """})
    assert messages(root) == [
        "preferences/os.yaml:3:15: traits[1]: trait 'sata-disk' is marked as an override but changes no value "
        "an earlier layer set; drop the override mark"
    ]


def test_setting_the_same_value_twice_or_refining_an_empty_mapping_is_no_conflict():
    where = Location("x.yaml", 1)
    result = compose([
        Layer("trait 'a'", {"devices": {"preferredDiskBus": "virtio", "preferredTPM": {}}}, where),
        Layer("trait 'b'", {"devices": {"preferredDiskBus": "virtio", "preferredTPM": {"persistent": True}}}, where),
    ])
    assert result.problems == ()
    assert result.spec == {"devices": {"preferredDiskBus": "virtio", "preferredTPM": {"persistent": True}}}


def test_true_does_not_pass_for_one():
    where = Location("x.yaml", 1)
    result = compose([Layer("trait 'a'", {"n": 1}, where), Layer("trait 'b'", {"n": True}, where)])
    assert [p.message.split(";")[0] for p in result.problems] == [
        "trait 'b' sets n to True, but trait 'a' (listed at x.yaml:1) already set n to 1"
    ]


def test_a_plain_value_over_a_subtree_is_a_conflict():
    where = Location("x.yaml", 1)
    result = compose([Layer("trait 'a'", {"cpu": {"guest": 2}}, where), Layer("trait 'b'", {"cpu": 4}, where)])
    assert len(result.problems) == 1
    assert "sets cpu to 4, but trait 'a' (listed at x.yaml:1) already set cpu.guest to 2" in result.problems[0].message


def test_own_requirements_contradicting_a_trait_are_a_conflict_but_override_spec_wins(tmp_path):
    root = catalog(tmp_path, {"os": """
        osType: linux
        iconClass: icon-os
        preferences:
          os.a:
            displayName: A
            traits: [many-cpus]
            requirements: {cpu: 2}
            description: Contradicts its trait.
          os.b:
            displayName: B
            traits: [many-cpus]
            overrideSpec:
              requirements: {cpu: {guest: 2}}
            description: Overrides its trait.
        """})
    assert messages(root) == [
        "preferences/os.yaml:7:19: preferences.os.a.requirements: the requirements of 'os.a' sets "
        "requirements.cpu.guest to 2, but trait 'many-cpus' (listed at preferences/os.yaml:6) already set "
        "requirements.cpu.guest to 8; set the value under overrideSpec instead if it is meant to replace that value"
    ]
    (root / "preferences" / "os.yaml").write_text(
        (root / "preferences" / "os.yaml").read_text().replace("    requirements: {cpu: 2}\n", ""))
    objects = build(root)
    assert objects["os.b"].spec["requirements"] == {"cpu": {"guest": 2}}
    assert objects["os.b"].labels[label("required-cpu")] == "2"


def test_an_unknown_trait_name_is_reported_with_file_line_and_a_suggestion(tmp_path):
    root = catalog(tmp_path, {"os": """
        osType: linux
        iconClass: icon-os
        preferences:
          os:
            displayName: OS
            traits: [rng, virtio-dsk]
            description: A guest.
        """})
    assert messages(root) == [
        "preferences/os.yaml:6:19: preferences.os.traits[1]: unknown trait 'virtio-dsk'; did you mean "
        "'virtio-disk'? (traits are the files of preferences/traits/)"
    ]


def test_unknown_keys_are_reported_with_the_closest_known_key(tmp_path):
    traits = dict(TRAITS, typo="""
        descripton: Misspelt.
        spec:
          devices:
            preferredDiskBus: virtio
        """)
    root = catalog(tmp_path, {"os": """
        osType: linux
        iconclass: icon-os
        preferences:
          os:
            displayName: OS
            description: A guest.
            traits: [{trait: rng, overide: true}]
        """}, traits)
    assert messages(root) == [
        "preferences/os.yaml:2:1: iconclass: unknown key 'iconclass' in a family file; did you mean 'iconClass'?",
        "preferences/os.yaml:4:3: preferences.os: preference 'os' has no iconClass; set it on the preference, "
        "a preference it is based on, or the family",
        "preferences/os.yaml:7:27: preferences.os.traits[0].overide: unknown key 'overide' in a trait entry; "
        "did you mean 'override'?",
        "preferences/traits/typo.yaml:1:1: a trait needs a one-line description (a non-empty string)",
        "preferences/traits/typo.yaml:1:1: descripton: unknown key 'descripton' in a trait; did you mean "
        "'description'?",
    ]


def test_wrong_types_are_reported_where_they_are_written(tmp_path):
    root = catalog(tmp_path, {"os": """
        osType: linux
        iconClass: icon-os
        tags: hidden
        requirements: {cpu: two, memory: lots}
        preferences:
          os:
            displayName: [OS]
            deprecated: "yes"
            description: A guest.
        """})
    assert messages(root) == [
        "preferences/os.yaml:3:7: tags: expected a list of strings, got a string",
        "preferences/os.yaml:4:21: requirements.cpu: expected a whole number of vCPUs (1 or more), got 'two'",
        "preferences/os.yaml:4:34: requirements.memory: memory: 'lots' is not a Kubernetes quantity (expected a "
        "number with an optional suffix Ki, Mi, Gi, Ti, Pi, Ei, m, k, M, G, T, P, E, e.g. 2Gi or 512Mi)",
        "preferences/os.yaml:6:3: preferences.os: preference 'os' has no displayName; set it on the preference "
        "or a preference it is based on",
        "preferences/os.yaml:7:18: preferences.os.displayName: displayName must be a non-empty string, got a list",
        "preferences/os.yaml:8:17: preferences.os.deprecated: deprecated must be true, false or a mapping with "
        "since and replacement, got a string",
    ]


def test_several_problems_in_several_files_come_in_one_error(tmp_path):
    traits = dict(TRAITS, broken="description: [unclosed\n")
    root = catalog(tmp_path, {
        "one": """
            osType: linux
            iconClass: icon-one
            traits: [virtio-disk, sata-disk]
            preferences:
              one:
                displayName: One
                description: First.
            """,
        "two": """
            osType: linux
            iconClass: icon-two
            preferences:
              two:
                displayName: Two
                traits: [nope]
                description: Second.
                basedOn: tow
            """,
    }, traits)
    found = messages(root)
    assert [m.split(": ")[0] for m in found] == [
        "preferences/one.yaml:3:23",
        "preferences/traits/broken.yaml:2:1",
        "preferences/two.yaml:6:14",
        "preferences/two.yaml:8:14",
    ]
    assert "trait 'sata-disk' sets devices.preferredDiskBus to 'sata'" in found[0]
    assert "malformed YAML" in found[1]
    assert found[2].endswith("unknown trait 'nope' (traits are the files of preferences/traits/)")
    assert found[3].endswith("basedOn names 'tow', which is not a preference of this file; did you mean 'two'?")


def test_based_on_inherits_and_a_cycle_is_reported(tmp_path):
    root = catalog(tmp_path, {"os": """
        osType: linux
        iconClass: icon-os
        preferences:
          os.a:
            basedOn: os.b
            description: A.
          os.b:
            basedOn: os.a
            displayName: B
            description: B.
        """})
    assert messages(root) == [
        "preferences/os.yaml:5:14: preferences.os.a.basedOn: basedOn goes round in a circle: os.a -> os.b -> os.a",
        "preferences/os.yaml:8:14: preferences.os.b.basedOn: basedOn goes round in a circle: os.b -> os.a -> os.b",
    ]


def test_labels_are_derived_from_the_spec_and_deprecation(tmp_path):
    root = catalog(tmp_path, {"os": """
        osType: linux
        iconClass: icon-os
        deprecated: true
        preferences:
          os.arm64:
            displayName: OS (arm64)
            traits: [arch-arm64]
            description: On Arm.
          os.kept:
            displayName: OS
            deprecated: false
            description: Not deprecated.
        """})
    objects = build(root)
    assert objects["os.arm64"].labels == {
        label("os-type"): "linux",
        label("arch"): "arm64",
        label("preferred-architecture"): "arm64",
        label("required-architecture"): "arm64",
        label("deprecated"): "true",
    }
    assert objects["os.arm64"].facts["architecture"] == "arm64"
    assert objects["os.kept"].labels == {label("os-type"): "linux"}


def test_an_os_type_that_is_no_label_value_is_reported(tmp_path):
    root = catalog(tmp_path, {"os": """
        osType: Linux guest
        iconClass: icon-os
        preferences:
          os:
            displayName: OS
            description: A guest.
        """})
    assert messages(root) == [
        "preferences/os.yaml:4:3: preferences.os: label instancetype.kubevirt.io/os-type: 'Linux guest' is not a "
        "valid label value: a valid label must be an empty string or consist of alphanumeric characters, '-', "
        "'_' or '.', and must start and end with an alphanumeric character"
    ]


def test_a_preference_name_defined_twice_is_reported(tmp_path):
    family = """
        osType: linux
        iconClass: icon-os
        preferences:
          same:
            displayName: Same
            description: Twice.
        """
    root = catalog(tmp_path, {"a": family, "b": family})
    assert messages(root) == [
        "preferences/b.yaml:4:3: preferences.same: preference 'same' is already defined at preferences/a.yaml:4"
    ]


def test_load_and_expand_are_separate_steps(tmp_path):
    root = catalog(tmp_path, {"os": """
        osType: linux
        iconClass: icon-os
        traits: [virtio-disk]
        preferences:
          os:
            displayName: OS
            description: A guest.
        """})
    model = load_preference_catalog(root)
    assert sorted(model.traits) == sorted(TRAITS)
    assert [p.name for p in model.preferences.values()] == ["os"]
    renamed = replace(model.preferences["os"], display_name="Renamed")
    objects = expand_preferences(replace(model, preferences={"os": renamed}), provider=PROVIDER)
    assert objects[0].annotations["openshift.io/display-name"] == "Renamed"
    assert objects[0].annotations["openshift.io/documentation-url"] == "https://example.org/docs"


def test_a_preferences_own_spec_adds_keys_but_may_not_contradict_a_trait(tmp_path):
    root = catalog(tmp_path, {"os": """
        osType: linux
        iconClass: icon-os
        traits: [virtio-disk]
        preferences:
          os.extra:
            displayName: Extra
            spec:
              devices: {preferredBlockMultiQueue: true}
            description: Adds a key no trait has.
          os.wrong:
            displayName: Wrong
            spec:
              devices: {preferredDiskBus: scsi}
            description: Contradicts the family's trait.
        """})
    assert messages(root) == [
        "preferences/os.yaml:13:7: preferences.os.wrong.spec: the spec of 'os.wrong' sets devices.preferredDiskBus "
        "to 'scsi', but trait 'virtio-disk' (listed at preferences/os.yaml:3) already set devices.preferredDiskBus "
        "to 'virtio'; move it under overrideSpec if it is meant to replace that value"
    ]
    (root / "preferences" / "os.yaml").write_text(
        (root / "preferences" / "os.yaml").read_text().replace("    spec:\n      devices: {preferredDiskBus: scsi}",
                                                               "    overrideSpec:\n      devices: {preferredDiskBus: scsi}"))
    objects = build(root)
    assert objects["os.extra"].spec["devices"] == {"preferredBlockMultiQueue": True, "preferredDiskBus": "virtio"}
    assert objects["os.wrong"].spec["devices"] == {"preferredDiskBus": "scsi"}
