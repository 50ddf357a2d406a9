"""generator/pipeline.py: what a build is told, what it makes, and what it refuses before building.

The options' mistakes are reported together, before the catalog is read further;
the version stamped is --version's, else --release's, else the catalog's; a GPU count
needs a device; a release adds the bundles under their versioned names, and the
checksums cover every file; ``generate`` hands its files over as soon as they are made,
the very files of the Build it returns; ``check_catalog`` judges the catalog's
all-bundle as a build does, with the rules and vendor asked for.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import InputError
from generator.outputs.policy import POLICY_FILE, build_policy, policy_text
from generator.paths import builtin_catalog
from generator.pipeline import (BuildOptions, catalog_objects, check_catalog, generate, judge, load_all,
                                release_files, rule_context)
from generator.render.bundles import BUNDLES
from generator.schemas.releases import Release, newest
from tests.conftest import SHARED, shared_file
from tests.helpers import default_build

STAMPED = "it is stamped as the label instancetype.kubevirt.io/common-instancetypes-version"
LABEL_VALUE = ("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and "
               "must start and end with an alphanumeric character")


def refused(**options: object) -> list[str]:
    with pytest.raises(InputError) as raised:
        load_all(BuildOptions(**options))  # type: ignore[arg-type]
    return [str(p) for p in raised.value.problems]


def test_the_catalog_is_the_one_the_working_directory_is_in_else_the_built_in_one_unless_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    assert BuildOptions().catalog_dir == builtin_catalog()
    assert BuildOptions(catalog=tmp_path).catalog_dir == tmp_path
    (tmp_path / "catalog.yaml").write_text("extends: builtin\n")
    assert BuildOptions().catalog_dir == Path(".")
    assert BuildOptions(catalog=builtin_catalog()).catalog_dir == builtin_catalog()


def test_a_version_is_stamped_as_a_label_value():
    assert refused(version="not a version") == [f"--version: 'not a version' is not a valid label value: "
                                                 f"{LABEL_VALUE}; {STAMPED}"]


def test_a_release_is_v_and_three_numbers_and_without_version_a_label_value():
    assert refused(release="1.2") == ["--release: expected a release such as v1.2.3, got '1.2'"]
    assert refused(release="v1.2.3\n") == ["--release: expected a release such as v1.2.3, got 'v1.2.3\\n'"]
    long = "v1.2.3-" + "a" * 70
    assert refused(release=long) == [f"--release: {long!r} is not a valid label value: must be no more than 63 "
                                     f"characters; without --version {STAMPED}"]
    assert load_all(BuildOptions(release=long, version="v1"))[0].settings.vendor == "kubevirt.io"


def test_every_option_s_mistake_is_reported_at_once():
    assert refused(version="bad value!", release="x", gpu_device="nope") == [
        "--gpu-device: expected an extended resource name: a domain such as nvidia.com, '/', and at most 63 letters, "
        "digits, '-', '_' or '.' starting and ending with a letter or digit (such as nvidia.com/A400), got 'nope'",
        "--release: expected a release such as v1.2.3, got 'x'",
        f"--version: 'bad value!' is not a valid label value: {LABEL_VALUE}; {STAMPED}",
    ]


def test_the_version_is_version_s_then_release_s_then_the_catalog_s():
    assert catalog_objects(BuildOptions())[1] == "v1.8.0-dev"
    assert catalog_objects(BuildOptions(release="v2.0.0"))[1] == "v2.0.0"
    assert catalog_objects(BuildOptions(release="v2.0.0", version="v3"))[1] == "v3"


def test_a_gpu_count_needs_a_device_and_with_one_builds_gn_with_that_many():
    with pytest.raises(InputError) as raised:
        catalog_objects(BuildOptions(gpu_count=2))
    assert [str(p) for p in raised.value.problems] == [
        "--gpu-count: sets how many GPUs each GN instancetype gets, but no GPU device is configured, so GN is not "
        "built; pass --gpu-device nvidia.com/<model> or set parameters.gpu.deviceName too"]
    _, _, objects = catalog_objects(BuildOptions(gpu_device="nvidia.com/A400", gpu_count=2))
    assert len(objects) == 126 and {o.name: o for o in objects}["gn1.xlarge"].spec["gpus"] == [
        {"name": "gpu1", "deviceName": "nvidia.com/A400"}, {"name": "gpu2", "deviceName": "nvidia.com/A400"}]


def test_a_release_adds_each_bundle_under_its_versioned_name_and_the_checksums_cover_all():
    files = release_files({"a.yaml": "x\n", "b.yaml": "y\n"}, "v1.0.0")
    assert list(files) == ["a.yaml", "b.yaml", "a-v1.0.0.yaml", "b-v1.0.0.yaml", "CHECKSUMS.sha256"]
    assert files["a-v1.0.0.yaml"] == files["a.yaml"] == b"x\n"
    x, y = ("73cb3858a687a8494ca3323053016282f3dad39d42cf62ca4e79dda2aac7d9ac",
            "3bb2abb69ebb27fbfe63c7639624c6ec5e331b841a5bc8c3ebc10b9285e90877")
    assert files["CHECKSUMS.sha256"] == (f"{x}  a-v1.0.0.yaml\n{x}  a.yaml\n{y}  b-v1.0.0.yaml\n{y}  b.yaml\n").encode()
    assert release_files({"a.yaml": "x\n"}, None) == {"a.yaml": b"x\n", "CHECKSUMS.sha256": f"{x}  a.yaml\n".encode()}


def test_the_default_build_is_upstream_s_object_set_without_gn():
    build = default_build()
    assert (len(build.objects), len(build.documents), build.problems, build.version) == (122, 244, (), "v1.8.0-dev")
    assert [s.name for s in build.left_out] == ["gn1"]
    assert "common-instancetypes-all-bundle.yaml" in build.files and "CHECKSUMS.sha256" in build.files


def test_generate_hands_over_the_files_of_the_build_it_returns_a_batch_at_a_time():
    """The bundles and their checksums first, then each other output as it is made: each is written meanwhile."""
    handed: list[dict[str, bytes]] = []
    build = generate(BuildOptions(release="v2.0.0"), files_ready=lambda files: handed.append(dict(files)))
    assert {name: data for batch in handed for name, data in batch.items()} == dict(build.files)
    assert sum(len(batch) for batch in handed) == len(build.files)  # each file handed once
    assert sorted(handed[0]) == sorted(name for name in build.files if "/" not in name)
    assert [sorted({name.split("/")[0] for name in batch}) for batch in handed[1:]] == [["kustomize"]] * 3 + [["helm"]]
    assert all(name.endswith(".yaml") and name.count("/") == 4 for name in handed[1])  # the groups' documents
    assert all(name.endswith("/kustomization.yaml") for name in handed[2])  # the kustomizations
    assert "kustomize/README.md" in handed[3] and all("/components/" in name for name in handed[3]
                                                      if name != "kustomize/README.md")  # the components
    assert "common-instancetypes-all-bundle-v2.0.0.yaml" in build.files


def test_the_rule_context_is_the_built_in_catalog_s():
    context = rule_context()
    assert context.vendor == "kubevirt.io" and sorted(context.series) == [
        "cx1", "d1", "gn1", "m1", "n1", "o1", "rt1", "u1"]


def test_check_catalog_runs_the_rules_asked_for_against_the_vendor_given():
    documents, problems = check_catalog(rules=["vendor-label"], vendor="other.io")
    assert (len(documents), len(problems)) == (244, 244)
    assert str(problems[0]) == (
        "common-instancetypes-all-bundle.yaml#0 (cx1.2xlarge) $.metadata.labels['instancetype.kubevirt.io/vendor']: "
        "label instancetype.kubevirt.io/vendor is 'kubevirt.io', expected 'other.io' (defined in series/cx.yaml:1) "
        "[vendor-label]")
    assert check_catalog(rules=["vendor-label"], kubevirt=Release(1, 8))[1] == []  # the schema's refusals not asked for


def test_the_default_build_holds_its_catalog_bundles_and_release_and_nothing_to_report():
    build = default_build()
    assert (build.catalog.settings.vendor, sorted(build.bundles)) == (
        "kubevirt.io", sorted(["common-instancetypes-all-bundle.yaml", *(f"{b}.yaml" for b in BUNDLES.values())]))
    assert (build.kubevirt, build.adjustments, build.warnings, build.newer_rule_findings) == (newest(), (), (), ())


# --- mistakes in the catalog's files, and in what its overlays make of it ---


def vendor_catalog(root: Path, catalog: str = "", overlay: str | None = None, **files: str) -> Path:
    """A vendor catalog at ``root``: the built-in one, vendor other.example, ``catalog`` more lines of
    catalog.yaml, ``overlay`` as its overlay, and ``files`` (a ``__`` is a ``/``)."""
    root.mkdir()
    lines = "extends: builtin\nvendor: other.example\nversion: v0.1.0\n" + catalog
    if overlay is not None:
        lines += "overlays: [overlay.yaml]\n"
        (root / "overlay.yaml").write_text(overlay)
    (root / "catalog.yaml").write_text(lines)
    for name, text in files.items():
        (root / name.replace("__", "/")).parent.mkdir(parents=True, exist_ok=True)
        (root / name.replace("__", "/")).write_text(text)
    return root


def test_the_mistakes_of_catalog_yaml_and_of_the_preferences_are_reported_together(tmp_path: Path):
    broken = vendor_catalog(tmp_path / "broken", **{"catalog.yaml": "vendor: [\n", "preferences__x.yaml": "name: [\n"})
    malformed = "malformed YAML: did not find expected node content (while parsing a flow node)"
    # whether the catalog extends the built-in one is not known: no series/sizes.yaml is looked for
    assert refused(catalog=broken) == [f"catalog.yaml:2:1: {malformed}", f"preferences/x.yaml:2:1: {malformed}"]
    not_a_folder = vendor_catalog(tmp_path / "file", **{"catalog.yaml": "vendor: [\n", "preferences": "x"})
    assert refused(catalog=not_a_folder)[1] == "preferences: is a regular file, not a directory"


RETIRED_NOWHERE = """\
retired:
  instancetypes:
    foo.small: {since: v1.0.0, replacement: nope.small}
"""
NOWHERE = ("retired.instancetypes.foo.small.replacement: replacement 'nope.small' of 'foo.small' is no instancetype "
           "the catalog defines or retires; did you mean 'o1.small'?")


def test_a_retired_name_that_leads_nowhere_is_refused_in_catalog_yaml_and_in_an_overlay(tmp_path: Path):
    assert refused(catalog=vendor_catalog(tmp_path / "a", RETIRED_NOWHERE)) == [f"catalog.yaml:6:45: {NOWHERE}"]
    overlaid = vendor_catalog(tmp_path / "b", overlay=RETIRED_NOWHERE)
    assert refused(catalog=overlaid) == [f"{overlaid / 'overlay.yaml'}:3:45: {NOWHERE}"]
    overlay = tmp_path / "option.yaml"
    overlay.write_text(RETIRED_NOWHERE)
    assert refused(overlays=(overlay,)) == [f"{overlay}:3:45: {NOWHERE}"]


def test_an_overlay_that_drops_the_replacement_of_a_retired_name_keeps_the_catalog_s_history(tmp_path: Path):
    catalog, _ = load_all(BuildOptions(catalog=vendor_catalog(tmp_path / "v", overlay="series:\n  drop: [d]\n")))
    assert "d1" not in [s.name for s in catalog.series]
    assert catalog.retirements[("instancetype", "highperformance.small")].replacement == "d1.small"


# --- one build of a vendor catalog with every option that reaches the outputs ---

VENDOR_OVERLAY = """\
labels: {other.example/catalog: vendor}
annotations: {other.example/support: "https://other.example/support"}
parameters: {gpu: {deviceName: nvidia.com/L40S}}
"""
V1_0_0 = SHARED / "reference" / "releases" / "v1.0.0-common-instancetypes-all-bundle.yaml"
#: What the catalog dropped since v1.0.0 but for gn1, which the vendor builds with its GPU device.
DROPPED = ["centos.7", "centos.7.desktop", "centos.stream8", "centos.stream8.desktop", "centos.stream8.dpdk"]


def test_a_vendor_build_with_every_option_that_reaches_its_outputs(tmp_path: Path):
    """A vendor catalog (its own vendor, labels, annotations and GPU device) built for KubeVirt v1.8 with two GPUs
    each, the policy and the packaged chart, retaining what upstream's v1.0.0 had. One test, one build: what it
    checks is what a build of generate does with each of these at once."""
    root = vendor_catalog(tmp_path / "catalog", overlay=VENDOR_OVERLAY)
    build = generate(BuildOptions(catalog=root, gpu_count=2, policy=True, helm_package=True, kubevirt=Release(1, 8),
                                  retain_from=(shared_file(V1_0_0),)))

    # the vendor's labels, annotations and GPU device; the retained objects with the catalog's replacements
    objects = {o.name: o for o in build.objects}
    assert (objects["u1.small"].labels["other.example/catalog"], objects["u1.small"].labels[
        "instancetype.kubevirt.io/vendor"]) == ("vendor", "other.example")
    assert objects["fedora"].annotations["other.example/support"] == "https://other.example/support"
    assert objects["gn1.xlarge"].spec["gpus"] == [{"name": "gpu1", "deviceName": "nvidia.com/L40S"},
                                                  {"name": "gpu2", "deviceName": "nvidia.com/L40S"}]
    assert [o.name for o in build.objects if o.facts.get("retained")] == DROPPED
    assert objects["centos.7"].annotations["instancetype.kubevirt.io/deprecated-replacement"] == "rhel.7"

    # problems block, warnings are apart, and the retained objects' findings of rules newer than v1.0.0 never count;
    # upstream's objects carry upstream's vendor: a problem under the vendor's own rules
    assert sorted((p.rule, p.location.name, p.is_warning) for p in build.problems) == sorted(
        ("vendor-label", name, False) for name in DROPPED for _kind in ("cluster", "namespaced"))
    assert [str(p) for p in build.warnings] == [
        f"common-instancetypes-all-bundle.yaml#{doc} (centos.stream8.dpdk) $.spec.cpu.preferredCPUTopology: "
        "KubeVirt v1.8 warns: PreferredCPUTopology preferSpread is deprecated for removal in a future release, "
        f"please use spread instead (defined in {V1_0_0}:1546) [webhook-cpu-topology]" for doc in (76, 204)]
    assert len(build.newer_rule_findings) == 20
    assert {p.older_release for p in build.newer_rule_findings} == {"v1.0.0"}
    # the build's one judgement, as pipeline.judge makes it
    found = judge(build.catalog, build.documents, build.objects, Release(1, 8))
    assert ([p for p in found if p.older_release is None and not p.is_warning],
            [p for p in found if p.older_release is None and p.is_warning],
            [p for p in found if p.older_release is not None]) == (
        list(build.problems), list(build.warnings), list(build.newer_rule_findings))

    # the policy, the packaged chart and the outputs of KubeVirt v1.8 (not of the newest)
    files = build.files
    policy = build_policy(build.catalog, build.objects, True)
    assert policy is not None and files[POLICY_FILE] == policy_text(policy).encode()
    assert {"kustomize/components/policy/policy.yaml", "helm/common-instancetypes/templates/policy.yaml",
            "helm/common-instancetypes-0.1.0.tgz", "kustomize/components/kubevirt-v1.8/kustomization.yaml"
            } <= set(files)
    assert build.kubevirt == Release(1, 8)
    assert not any(name.startswith("kustomize/components/kubevirt-v1.9") for name in files)
    # and what was made for v1.8: its objects without what v1.9 brought
    assert len(build.adjustments) == 12 and [str(a) for a in build.adjustments[2:4]] == [
        "preference rhel.9.s390x.secex: spec.preferredLaunchSecurity (KubeVirt v1.9) object left out",
        "preference windows.10.virtio: spec.devices.preferredVideoType (KubeVirt v1.9) left out"]


def test_check_catalog_judges_a_vendor_catalog_by_its_vendor_and_the_kubevirt_release_asked_for(tmp_path: Path):
    """The catalog as written, not made for the release (``build --kubevirt`` does that): v1.8 lacks fields it uses."""
    documents, problems = check_catalog(vendor_catalog(tmp_path / "v"), kubevirt=Release(1, 8))
    assert documents[0].data["metadata"]["labels"]["instancetype.kubevirt.io/vendor"] == "other.example"
    assert (len(problems), {p.rule for p in problems}) == (24, {"schema"})
    assert str(problems[0]) == (
        "common-instancetypes-all-bundle.yaml#76 (fedora.s390x.secex) $.spec.preferredLaunchSecurity: unknown field "
        "'preferredLaunchSecurity': KubeVirt v1.8 does not have it (it came in v1.9) (defined in "
        "preferences/fedora.yaml:21) [schema]")


def test_check_catalog_tells_an_instancetype_from_a_preference_of_the_same_name(tmp_path: Path):
    """Each problem is pointed at what made its own object: the preference u1.small at the overlay line adding it,
    the instancetype u1.small with the other objects the overlay's preferences section came before."""
    overlay = ("preferences:\n  add:\n    u1.small:\n      basedOn: fedora\n      displayName: U1 Small\n"
               "      description: A preference named as an instancetype.\n")
    root = vendor_catalog(tmp_path / "v", overlay=overlay)
    _documents, problems = check_catalog(root, rules=["vendor-label"], vendor="x.io")
    wrong = ("$.metadata.labels['instancetype.kubevirt.io/vendor']: label instancetype.kubevirt.io/vendor is "
             "'other.example', expected 'x.io' [vendor-label]")
    assert [str(p) for p in problems] == [
        f"{root / 'overlay.yaml'}:1:1: preferences: makes instancetype 'cx1.2xlarge' invalid (and 121 more: alpine, "
        f"centos.stream10, centos.stream10.desktop, centos.stream9, centos.stream9.desktop, ...): {wrong}",
        f"{root / 'overlay.yaml'}:3:5: preferences.add.u1.small: makes preference 'u1.small' invalid: {wrong}"]
