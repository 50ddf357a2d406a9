"""Vendor overlays: each operation on the catalog, their errors, sequences, and catalog.yaml's list."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.model import CatalogObject, label
from generator.pipeline import BuildOptions, catalog_objects, generate
from tests.helpers import default_build


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Overlays are written to and named relative to a scratch directory, as a vendor would."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(name: str, text: str) -> Path:
    path = Path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def objects(*overlays: Path) -> dict[str, CatalogObject]:
    _, _, found = catalog_objects(BuildOptions(overlays=tuple(overlays)))
    return {o.name: o for o in found}


def errors(*overlays: Path, catalog: Path | None = None) -> list[str]:
    with pytest.raises(InputError) as caught:
        catalog_objects(BuildOptions(catalog=catalog, overlays=tuple(overlays)))
    return [str(p) for p in caught.value.problems]


def refused(*overlays: Path) -> list[str]:
    """What the build's validation finds in the catalog the overlays make (a build then writes nothing)."""
    return [str(p) for p in generate(BuildOptions(overlays=tuple(overlays))).problems]


def names(found: dict[str, CatalogObject], prefix: str) -> list[str]:
    return sorted(n for n in found if n.startswith(prefix))


BUILTIN = {o.name: o for o in default_build().objects}


# --------------------------------------------------------------------------- settings


def test_vendor_version_labels_and_annotations_reach_every_object():
    found = objects(write("o.yaml", """\
        vendor: acme.example.com
        version: v3.1.0
        labels:
          acme.example.com/catalog: edge
        annotations:
          acme.example.com/support: https://acme.example.com/help
        """))
    assert found.keys() == BUILTIN.keys()
    for obj in found.values():
        assert obj.labels[label("vendor")] == "acme.example.com"
        assert obj.labels[label("common-instancetypes-version")] == "v3.1.0"
        assert obj.labels["acme.example.com/catalog"] == "edge"
        assert obj.annotations["acme.example.com/support"] == "https://acme.example.com/help"
        assert obj.spec == BUILTIN[obj.name].spec


def test_gpu_parameters_change_every_gn_size():
    found = objects(write("o.yaml", """\
        parameters:
          gpu: {deviceName: nvidia.com/L40S, count: 2}
        """))
    for name in names(found, "gn1."):
        assert found[name].spec["gpus"] == [{"name": "gpu1", "deviceName": "nvidia.com/L40S"},
                                            {"name": "gpu2", "deviceName": "nvidia.com/L40S"}]
    assert names(found, "gn1.") == ["gn1.2xlarge", "gn1.4xlarge", "gn1.8xlarge", "gn1.xlarge"]


def test_a_device_alone_gives_one_gpu_and_a_later_count_keeps_the_device():
    first = write("first.yaml", "parameters:\n  gpu: {deviceName: nvidia.com/L4}\n")
    assert objects(first)["gn1.xlarge"].spec["gpus"] == [{"name": "gpu1", "deviceName": "nvidia.com/L4"}]
    found = objects(first, write("second.yaml", "parameters:\n  gpu: {count: 3}\n"))
    assert [g["deviceName"] for g in found["gn1.xlarge"].spec["gpus"]] == ["nvidia.com/L4"] * 3


def test_without_a_gpu_device_gn_is_not_built():
    assert names(objects(write("o.yaml", "labels: {example.com/team: vm}\n")), "gn1.") == []


def test_provider_changes_the_preference_annotations():
    found = objects(write("o.yaml", """\
        provider:
          displayName: Acme Cloud
          supportURL: https://acme.example.com/support
        """))
    fedora = found["fedora"].annotations
    assert fedora["openshift.io/provider-display-name"] == "Acme Cloud"
    assert fedora["openshift.io/support-url"] == "https://acme.example.com/support"
    assert fedora["openshift.io/documentation-url"] == "https://github.com/kubevirt/common-instancetypes"


# --------------------------------------------------------------------------- series and sizes


HIGH_MEMORY = """\
    series:
      add:
        hm:
          version: 1
          class: memory.high
          displayName: High Memory
          description: Sixteen GiB for every vCPU.
          icon: fa-memory
          ratio: "1:16"
          sizes: {from: large, to: 2xlarge}
          features: {hugepages: 1Gi}
          spec:
            ioThreadsPolicy: auto
    """


def test_a_new_series_has_its_own_ratio_sizes_and_spec_fragment():
    found = objects(write("o.yaml", HIGH_MEMORY))
    assert names(found, "hm1.") == ["hm1.2xlarge", "hm1.large", "hm1.xlarge"]
    large = found["hm1.large"]
    assert large.spec == {"cpu": {"guest": 2}, "memory": {"guest": "32Gi", "hugepages": {"pageSize": "1Gi"}},
                          "ioThreadsPolicy": "auto"}
    assert large.labels[label("class")] == "memory.high"
    assert large.labels[label("hugepages")] == "1Gi"
    assert large.annotations[label("displayName")] == "High Memory"


def test_a_new_series_is_validated_like_the_builtin_ones():
    build = generate(BuildOptions(overlays=(write("o.yaml", HIGH_MEMORY),)))
    assert build.problems == ()
    assert "hm1.2xlarge" in {o.name for o in build.objects}


def test_a_new_size_matrix_serves_a_new_series():
    found = objects(write("o.yaml", """\
        matrices:
          add:
            tiny:
              pico: {cpu: 1, memory: 256Mi}
              nano: {cpu: 1, memory: 512Mi}
              mini: 2
        series:
          add:
            t:
              version: 1
              class: tiny
              displayName: Tiny
              description: Small sizes for sidecar VMs.
              icon: pficon-server-group
              ratio: "1:1"
              matrix: tiny
        """))
    assert names(found, "t1.") == ["t1.mini", "t1.nano", "t1.pico"]
    assert found["t1.pico"].spec["memory"]["guest"] == "256Mi"
    assert found["t1.mini"].spec["memory"]["guest"] == "2Gi"


def test_series_are_dropped_by_prefix_or_name():
    found = objects(write("o.yaml", "series:\n  drop: [rt, n1]\n"))
    assert names(found, "rt") == [] and names(found, "n1.") == []
    assert names(found, "u1.") == names(BUILTIN, "u1.")


def test_keep_leaves_only_the_listed_series():
    found = objects(write("o.yaml", "series:\n  keep: [u, o1]\n"))
    instancetypes = {o.facts["series"] for o in found.values() if o.family == "instancetype"}
    assert instancetypes == {"u1", "o1"}


def test_sizes_are_dropped_from_every_series():
    found = objects(write("o.yaml", "sizes:\n  drop: [8xlarge, 4xlarge]\n"))
    gone = [n for n in found if n.endswith((".8xlarge", ".4xlarge", ".8xlarge1gi", ".4xlarge1gi"))]
    assert gone == []
    assert "cx1.2xlarge1gi" in found


def test_keep_leaves_only_the_listed_sizes():
    found = objects(write("o.yaml", """\
        series:
          keep: [u, o]
        sizes:
          keep: [nano, micro, small]
        preferences:
          keep: [alpine, cirros]
        """))
    assert sorted(n for n, o in found.items() if o.family == "instancetype") == [
        "o1.micro", "o1.nano", "o1.small", "u1.micro", "u1.nano", "u1.small"]


def test_sizes_too_small_for_a_kept_preference_are_blamed_on_the_removal():
    found = refused(write("o.yaml", "series:\n  keep: [u, o]\nsizes:\n  keep: [nano, micro, small, medium]\n"))
    assert found == [
        "o.yaml:3:1: sizes: makes preference 'centos.stream9.dpdk' invalid (and 6 more: oraclelinux, "
        "rhel.8.dpdk, rhel.9.dpdk, rhel.9.realtime, windows.11, ...): $.spec.requirements: no instancetype "
        "meets these requirements (8 vCPUs, 1.5Gi of memory): at most 1 vCPU is offered [requirements-met]"]


def test_a_series_sizes_and_ratio_change():
    found = objects(write("o.yaml", """\
        series:
          change:
            m:
              ratio: "1:16"
              sizes: [xlarge, 2xlarge]
        """))
    assert names(found, "m1.") == ["m1.2xlarge", "m1.2xlarge1gi", "m1.xlarge", "m1.xlarge1gi"]
    assert found["m1.xlarge"].spec["memory"]["guest"] == "64Gi"


def test_compute_exclusive_on_1gi_hugepages_only():
    found = objects(write("o.yaml", """\
        series:
          change:
            cx:
              features: {hugepages: 1Gi}
              variants: {}
        """))
    assert names(found, "cx1.") == ["cx1.2xlarge", "cx1.4xlarge", "cx1.8xlarge", "cx1.large", "cx1.medium",
                                    "cx1.xlarge"]
    assert found["cx1.large"].spec["memory"]["hugepages"] == {"pageSize": "1Gi"}
    assert found["cx1.large"].labels[label("hugepages")] == "1Gi"


def test_a_different_overcommit_and_a_feature_removed():
    found = objects(write("o.yaml", """\
        series:
          change:
            o:
              features: {overcommitPercent: 25}
            m:
              features: {hugepages: null}
              variants: {}
        """))
    assert found["o1.large"].spec["memory"] == {"guest": "8Gi", "overcommitPercent": 25}
    assert found["m1.large"].spec["memory"] == {"guest": "16Gi"}
    assert label("hugepages") not in found["m1.large"].labels


def test_a_spec_fragment_is_merged_and_null_removes_a_key():
    found = objects(write("o.yaml", """\
        series:
          change:
            cx:
              spec:
                ioThreadsPolicy: null
                launchSecurity: {sev: {}}
            n:
              spec:
                annotations:
                  cpu-quota.crio.io: null
        """))
    assert "ioThreadsPolicy" not in found["cx1.large"].spec
    assert found["cx1.large"].spec["launchSecurity"] == {"sev": {}}
    assert found["n1.large"].spec["annotations"] == {"cpu-load-balancing.crio.io": "disable",
                                                     "irq-load-balancing.crio.io": "disable"}


def test_a_series_moves_to_another_matrix_with_all_its_sizes():
    found = objects(write("o.yaml", "series:\n  change:\n    d: {matrix: network}\n"))
    assert names(found, "d1.") == ["d1.2xlarge", "d1.4xlarge", "d1.8xlarge", "d1.large", "d1.medium",
                                   "d1.xlarge"]
    assert found["d1.large"].spec["cpu"]["guest"] == 4


# --------------------------------------------------------------------------- traits and preferences


def test_new_preferences_from_existing_and_new_traits():
    found = objects(write("o.yaml", """\
        traits:
          add:
            vnc-display:
              description: Attach a graphics device for a VNC console.
              spec:
                devices: {preferredAutoattachGraphicsDevice: true}
              tags: [desktop]
        preferences:
          add:
            fedora.desktop:
              basedOn: fedora
              displayName: Fedora Desktop
              description: Fedora with a VNC console.
              traits: [vnc-display]
            acme-linux:
              displayName: Acme Linux
              description: The Acme company's own Linux.
              osType: linux
              iconClass: icon-linux
              traits: [virtio-disk, virtio-interface, efi]
              requirements: {cpu: 2, memory: 1Gi}
        """))
    desktop = found["fedora.desktop"]
    assert desktop.group == "fedora"
    assert desktop.spec["devices"] == {**BUILTIN["fedora"].spec["devices"], "preferredAutoattachGraphicsDevice": True}
    assert desktop.annotations["tags"].split(",")[-1] == "desktop"
    acme = found["acme-linux"]
    assert acme.group == "acme-linux"
    assert acme.spec == {
        "annotations": {"vm.kubevirt.io/os": "linux"},
        "devices": {"preferredDiskBus": "virtio", "preferredInterfaceModel": "virtio"},
        "firmware": {"preferredEfi": {"secureBoot": False}},
        "requirements": {"cpu": {"guest": 2}, "memory": {"guest": "1Gi"}},
    }
    assert acme.labels[label("required-cpu")] == "2"


def test_one_preference_is_patched():
    found = objects(write("o.yaml", """\
        preferences:
          change:
            ubuntu:
              displayName: Ubuntu (supported)
              requirements: {memory: 4Gi}
              addTraits: [tpm-persistent]
        """))
    ubuntu = found["ubuntu"]
    assert ubuntu.annotations["openshift.io/display-name"] == "Ubuntu (supported)"
    assert ubuntu.spec["requirements"] == {"cpu": {"guest": 1}, "memory": {"guest": "4Gi"}}
    assert ubuntu.spec["devices"]["preferredTPM"] == {"persistent": True}
    assert found["debian"].spec == BUILTIN["debian"].spec


def test_preferences_are_dropped_and_kept_by_name_or_pattern():
    dropped = objects(write("drop.yaml", 'preferences:\n  drop: ["windows.*", legacy]\n'))
    assert not [n for n in dropped if n.startswith("windows.") or n == "legacy"]
    assert "fedora" in dropped
    kept = objects(write("keep.yaml", 'preferences:\n  keep: ["fedora*", alpine]\n'))
    assert sorted(n for n, o in kept.items() if o.family == "preference") == [
        "alpine", "fedora", "fedora.arm64", "fedora.s390x", "fedora.s390x.secex"]


# --------------------------------------------------------------------------- sequences and catalog.yaml


def test_overlays_apply_in_order_each_to_the_result_of_the_last():
    first = write("first.yaml", HIGH_MEMORY + "vendor: first.example.com\n")
    second = write("second.yaml", """\
        vendor: second.example.com
        series:
          change:
            hm:
              sizes: [large]
        """)
    found = objects(first, second)
    assert names(found, "hm1.") == ["hm1.large"]
    assert {o.labels[label("vendor")] for o in found.values()} == {"second.example.com"}
    assert errors(second, first) == [
        "second.yaml:4:5: series.change.hm: unknown series 'hm'; did you mean 'm'? "
        "(series: cx1, d1, gn1, m1, n1, o1, rt1, u1)"]


def extending_catalog(overlays: list[str]) -> Path:
    listed = "".join(f"\n  - {name}" for name in overlays) or " []"
    write("vendor/catalog.yaml", f"extends: builtin\nvendor: acme.example.com\noverlays:{listed}\n")
    return Path("vendor")


def test_an_extending_catalog_applies_its_listed_overlays_then_the_command_lines():
    catalog = extending_catalog(["one.yaml", "two.yaml"])
    write("vendor/one.yaml", "series:\n  drop: [rt]\n")
    write("vendor/two.yaml", "series:\n  drop: [n]\n")
    extra = write("extra.yaml", "series:\n  keep: [u]\n")
    _, _, found = catalog_objects(BuildOptions(catalog=catalog, overlays=(extra,)))
    assert {o.facts["series"] for o in found if o.family == "instancetype"} == {"u1"}
    assert {o.labels[label("vendor")] for o in found} == {"acme.example.com"}
    assert errors(write("rt-again.yaml", "series:\n  change:\n    rt: {ratio: '1:8'}\n"), catalog=catalog) == [
        "rt-again.yaml:3:5: series.change.rt: unknown series 'rt' (series: cx1, d1, gn1, m1, o1, u1)"]


def test_a_full_catalog_may_list_overlays_too(tmp_path: Path):
    import shutil

    from generator.paths import builtin_catalog

    root = tmp_path / "full"
    root.mkdir()
    for folder in ("series", "preferences", "templates"):
        shutil.copytree(builtin_catalog() / folder, root / folder)
    text = (builtin_catalog() / "catalog.yaml").read_text() + "overlays: [local.yaml]\n"
    (root / "catalog.yaml").write_text(text)
    (root / "local.yaml").write_text("series:\n  drop: [gn]\n")
    _, _, found = catalog_objects(BuildOptions(catalog=root))
    assert not [o for o in found if o.name.startswith("gn1.")]


def test_a_vendor_template_is_used_before_the_builtin_one():
    from generator.paths import builtin_catalog

    catalog = extending_catalog([])
    template = (builtin_catalog() / "templates" / "instancetype.yaml.j2").read_text()
    write("vendor/templates/instancetype.yaml.j2", template.replace("---\n", "---\n# acme\n", 1))
    build = generate(BuildOptions(catalog=catalog))
    assert build.problems == ()
    text = build.bundles["common-clusterinstancetypes-bundle.yaml"]
    assert text.count("# acme\n") == len([o for o in build.objects if o.family == "instancetype"])
    assert "# acme" not in build.bundles["common-clusterpreferences-bundle.yaml"]


# --------------------------------------------------------------------------- errors


def test_an_unknown_key_names_the_overlay_line_and_the_closest_key():
    assert errors(write("o.yaml", "series:\n  change:\n    cx:\n      feature: {hugepages: 1Gi}\n")) == [
        "o.yaml:4:7: series.change.cx.feature: unknown key 'feature' (did you mean 'features'?); expected one "
        "of: class, deprecated, deprecatedSizes, description, displayName, features, icon, matrix, ratio, sizes, "
        "spec, variants, version"]
    assert errors(write("p.yaml", "vendr: acme\n")) == [
        "p.yaml:1:1: vendr: unknown key 'vendr' (did you mean 'vendor'?); expected one of: annotations, labels, "
        "matrices, parameters, preferences, provider, retired, series, sizes, spellings, traits, vendor, version"]


def test_a_wrong_value_says_what_was_expected():
    assert errors(write("o.yaml", "series:\n  change:\n    cx:\n      features: {hugepages: 3Mi}\n")) == [
        "o.yaml:4:29: series.change.cx.features.hugepages: expected 2Mi, 1Gi, or null to remove hugepages, "
        "got '3Mi'"]


def test_unknown_series_sizes_preferences_and_patterns():
    assert errors(write("o.yaml", """\
        series:
          drop: [ux]
        sizes:
          keep: [huge]
        preferences:
          drop: [fedra, "zz*"]
        """)) == [
        "o.yaml:2:10: series.drop[0]: unknown series 'ux'; did you mean 'u'? "
        "(series: cx1, d1, gn1, m1, n1, o1, rt1, u1)",
        "o.yaml:4:10: sizes.keep[0]: unknown size 'huge' (sizes: 2xlarge, 2xmedium, 4xlarge, 8xlarge, large, "
        "medium, micro, nano, small, xlarge)",
        "o.yaml:6:10: preferences.drop[0]: unknown preference 'fedra'; did you mean 'fedora'?",
        "o.yaml:6:17: preferences.drop[1]: pattern 'zz*' matches no preference",
    ]


def test_unknown_traits_families_and_bases():
    assert errors(write("o.yaml", """\
        preferences:
          add:
            fedora.extra:
              family: fedoar
              description: Fedora with extras.
            rhel.extra:
              basedOn: rhel.99
              description: RHEL with extras.
          change:
            ubuntu:
              addTraits: [efi-secure]
        """)) == [
        "o.yaml:4:15: preferences.add.fedora.extra.family: unknown family 'fedoar'; did you mean 'fedora'? "
        "(families: alpine, centos-stream, cirros, debian, fedora, legacy, linux, opensuse, oraclelinux, rhel, "
        "sles, ubuntu, windows); leave family out to start a new one",
        "o.yaml:7:16: preferences.add.rhel.extra.basedOn: unknown preference 'rhel.99'; did you mean 'rhel.9'?",
        "o.yaml:11:19: preferences.change.ubuntu.addTraits[0]: unknown trait 'efi-secure'; did you mean "
        "'efi-secureboot'? (traits: the files of preferences/traits/ and those added under traits.add)",
    ]


def test_adding_what_exists_is_refused():
    assert errors(write("o.yaml", """\
        matrices:
          add:
            standard: {big: 64}
        series:
          add:
            u:
              version: 1
              class: general.purpose
              displayName: U again
              description: A second u1.
              icon: pficon-server-group
              ratio: "1:4"
        traits:
          add:
            efi: {description: Again., spec: {firmware: {preferredEfi: {}}}}
        preferences:
          add:
            fedora: {description: Again.}
        """)) == [
        "o.yaml:3:5: matrices.add.standard: size matrix 'standard' already exists; a new matrix needs a name "
        "of its own (defined: network, standard)",
        "o.yaml:6:5: series.add.u: series 'u1' is already in the catalog; change it under series.change, or "
        "give the new series another prefix or version",
        "o.yaml:15:5: traits.add.efi: trait 'efi' already exists; a new trait needs a name of its own",
        "o.yaml:18:5: preferences.add.fedora: preference 'fedora' already exists; change it under "
        "preferences.change",
    ]


def test_removing_what_others_are_based_on_is_refused():
    assert errors(write("o.yaml", 'preferences:\n  drop: ["windows.7"]\n  keep: ["windows.*", "rhel.9.*"]\n')) == [
        "o.yaml:2:10: preferences.drop[0]: removes 'windows.7', which 'windows.7.virtio' is based on; remove "
        "'windows.7.virtio' too, or keep both",
        "o.yaml:3:3: preferences.keep: removes 'rhel.9', which 'rhel.9.desktop' is based on; remove "
        "'rhel.9.desktop' too, or keep both",
        "o.yaml:3:3: preferences.keep: removes 'rhel.9', which 'rhel.9.dpdk' is based on; remove "
        "'rhel.9.dpdk' too, or keep both",
        "o.yaml:3:3: preferences.keep: removes 'rhel.9', which 'rhel.9.realtime' is based on; remove "
        "'rhel.9.realtime' too, or keep both",
    ]


def test_a_series_left_without_sizes_is_an_error():
    assert errors(write("o.yaml", "series:\n  keep: [u, gn]\nsizes:\n  keep: [nano, small]\n")) == [
        "o.yaml:4:3: sizes.keep: leaves series 'gn1' without sizes (it has: xlarge, 2xlarge, 4xlarge, 8xlarge); "
        "drop the series with series.drop, or keep one of its sizes"]


def test_the_catalogs_own_labels_and_annotations_are_refused():
    assert errors(write("o.yaml", """\
        labels:
          instancetype.kubevirt.io/cpu: "2"
        annotations:
          tags: mine
          example.com/fine: "yes"
          "bad key!": x
        """)) == [
        "o.yaml:2:3: labels.instancetype.kubevirt.io/cpu: labels under instancetype.kubevirt.io/ are the "
        "catalog's own; set the vendor label with `vendor:` and leave the others to the catalog",
        "o.yaml:4:3: annotations.tags: the catalog sets annotation 'tags' itself; change it through "
        "preferences.change (tags)",
        "o.yaml:6:3: annotations.bad key!: 'bad key!' is not a valid annotation key: name part must consist of "
        "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character; a key "
        "looks like example.com/team",
    ]


def test_an_overlay_that_makes_objects_invalid_is_blamed_at_its_line():
    assert refused(write("o.yaml", """\
        series:
          change:
            u:
              spec:
                cpu: {dedicatedCpuPlacement: true}
        """)) == [
        "o.yaml:5:15: series.change.u.spec.cpu.dedicatedCpuPlacement: makes instancetype 'u1.2xlarge' invalid "
        "(and 9 more: u1.2xmedium, "
        "u1.4xlarge, u1.8xlarge, u1.large, u1.medium, ...): $.spec.cpu.dedicatedCpuPlacement: unknown field "
        "'dedicatedCpuPlacement'; did you mean 'dedicatedCPUPlacement'? [schema]"]


def test_a_preference_made_unsatisfiable_is_blamed_at_its_line():
    found = refused(write("o.yaml", """\
        preferences:
          change:
            fedora:
              requirements: {cpu: 128}
        """))
    assert len(found) == 1
    assert found[0].startswith("o.yaml:4:22: preferences.change.fedora.requirements.cpu: makes preference "
                               "'fedora' invalid: "
                               "$.spec.requirements")
    assert found[0].endswith("[requirements-met]")


def test_a_conflicting_spec_patch_is_reported_at_the_overlay():
    found = errors(write("o.yaml", """\
        preferences:
          change:
            fedora:
              spec:
                devices: {preferredDiskBus: sata}
        """))
    assert found == [
        "o.yaml:5:9: preferences.change.fedora.spec: the spec of 'fedora' sets devices.preferredDiskBus to "
        "'sata', but trait 'virtio-disk' (listed at preferences/fedora.yaml:5) already set "
        "devices.preferredDiskBus to 'virtio'; move it under overrideSpec if it is meant to replace that value"]


def test_the_problem_of_a_second_overlay_names_the_second_file():
    first = write("first.yaml", "series:\n  drop: [rt]\n")
    second = write("second.yaml", "series:\n  drop: [rt]\n")
    assert errors(first, second) == [
        "second.yaml:2:10: series.drop[0]: unknown series 'rt' (series: cx1, d1, gn1, m1, n1, o1, u1)"]


def test_missing_overlay_files_are_named():
    assert errors(Path("nowhere.yaml")) == ["nowhere.yaml: no such file or folder"]
    catalog = extending_catalog(["one.yaml"])
    assert errors(catalog=catalog) == ["catalog.yaml:4:5: overlays[0]: overlay file 'one.yaml' not found in vendor"]


def test_an_extending_catalog_refuses_folders_it_would_not_read():
    catalog = extending_catalog([])
    write("vendor/series/x.yaml", "prefix: x\n")
    assert errors(catalog=catalog) == [
        "catalog.yaml:1:10: extends: series/ is not read in a catalog that extends another; add series, size "
        "matrices, traits and preferences through an overlay instead"]
