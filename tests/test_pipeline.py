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
from generator.paths import builtin_catalog
from generator.pipeline import (BuildOptions, catalog_objects, check_catalog, generate, load_all, release_files,
                                rule_context)
from tests.helpers import default_build

STAMPED = "it is stamped as the label instancetype.kubevirt.io/common-instancetypes-version"
LABEL_VALUE = ("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and "
               "must start and end with an alphanumeric character")


def refused(**options: object) -> list[str]:
    with pytest.raises(InputError) as raised:
        load_all(BuildOptions(**options))  # type: ignore[arg-type]
    return [str(p) for p in raised.value.problems]


def test_the_catalog_is_the_built_in_one_unless_named(tmp_path: Path):
    assert BuildOptions().catalog_dir == builtin_catalog()
    assert BuildOptions(catalog=tmp_path).catalog_dir == tmp_path


def test_a_version_is_stamped_as_a_label_value():
    assert refused(version="not a version") == [f"--version: 'not a version' is not a valid label value: "
                                                 f"{LABEL_VALUE}; {STAMPED}"]


def test_a_release_is_v_and_three_numbers_and_without_version_a_label_value():
    assert refused(release="1.2") == ["--release: expected a release such as v1.2.3, got '1.2'"]
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


def test_generate_hands_over_the_files_of_the_build_it_returns():
    handed: list[dict[str, bytes]] = []
    build = generate(BuildOptions(release="v2.0.0"), files_ready=lambda files: handed.append(dict(files)))
    assert handed == [dict(build.files)]
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
    assert check_catalog(rules=["vendor-label"])[1] == []
