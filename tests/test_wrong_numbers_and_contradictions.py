"""Issue 14, classes 4, 5 and 8: numbers of the wrong kind, equal quantities, contradictions.

Class 4: wherever a catalog author writes a whole number, ``1.0``, ``1.5``,
``true`` and ``"4"`` are refused at their line ("expected a whole number, got
1.0"); a bundle handed to ``citgen validate`` is judged as the API server judges
it, which takes ``2.0`` for the integer 2.

Class 5: where KubeVirt's schema holds a quantity, ``4Gi`` and ``4096Mi`` are the
same value: in the composition of a preference, between twins, in the rules.

Class 8: an overlay that both keeps and drops a name, or removes every series, an
empty ``overrideSpec``, and a wrong type inside a trait are each refused once, at
the line that says it.

The catalog-file cases are golden folders under tests/cases/broken/ (whole-number-*,
trait-wrong-type, override-spec-empty, equal-quantities-conflict); the cases here
need an overlay, a bundle or a look inside.
"""

from __future__ import annotations

import copy
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.expand.traits import Layer, compose
from generator.model import INSTANCETYPE_KINDS, PREFERENCE_KINDS
from generator.problems import Location
from generator.schemas import check_object, quantity_at
from generator.source.documents import BundleDoc
from generator.source.inputcheck import schema_problems
from generator.source.yamlsrc import load_text
from generator.validate.rules import RULES, RuleContext
from tests.helpers import REPO, default_build, finding, read_yaml_stream, snapshot

CLUSTER_PREFERENCE, CLUSTER_INSTANCETYPE = PREFERENCE_KINDS[0], INSTANCETYPE_KINDS[0]


def refused_overlay(workdir: Path, text: str) -> list[str]:
    """Build the built-in catalog with ``text`` as an overlay; it must be refused with exit 2, writing nothing."""
    (workdir / "overlay.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    before = snapshot(workdir / "out")
    result = CliRunner().invoke(main, ["build", "--overlay", "overlay.yaml", "--out", "out"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert snapshot(workdir / "out") == before
    assert sorted(p.name for p in workdir.iterdir()) == ["out", "overlay.yaml"]
    return result.stderr.splitlines()


def built_with_overlay(workdir: Path, text: str) -> dict[str, dict]:
    """Build with ``text`` as an overlay; the documents of the all-bundle by kind and name."""
    (workdir / "overlay.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    result = CliRunner().invoke(main, ["build", "--overlay", "overlay.yaml", "--out", "out"])
    assert result.exit_code == 0, result.output
    docs = read_yaml_stream(workdir / "out" / "common-instancetypes-all-bundle.yaml")
    return {f"{d['kind']}/{d['metadata']['name']}": d for d in docs if d}


# =========================================================================== class 4: whole numbers


@pytest.mark.parametrize("written, shown", [
    ("1.0", "1.0"), ("1.5", "1.5"), ("true", "the boolean true"), ('"4"', "'4'"),
])
def test_an_overlays_gpu_count_must_be_a_whole_number(workdir: Path, written: str, shown: str):
    assert refused_overlay(workdir, f"""\
        parameters:
          gpu: {{count: {written}}}
        """) == [
        finding(f"overlay.yaml:2:16: parameters.gpu.count: expected a whole number, got {shown}"),
        "citgen: 1 problem, nothing written",
    ]


def test_an_overlays_series_version_and_preference_requirements_must_be_whole_numbers(workdir: Path):
    assert refused_overlay(workdir, """\
        series:
          change:
            u: {version: 2.0}
        preferences:
          change:
            fedora:
              requirements: {cpu: true}
        """) == [
        finding("overlay.yaml:3:18: series.change.u.version: expected a whole number, got 2.0"),
        finding("overlay.yaml:7:27: preferences.change.fedora.requirements.cpu: expected a whole number, "
                "got the boolean true"),
        "citgen: 2 problems, nothing written",
    ]


def test_a_whole_number_in_an_overlays_size_matrix(workdir: Path):
    assert refused_overlay(workdir, """\
        matrices:
          add:
            tiny: {one: 1.0, two: {cpu: 2.0, memory: 4Gi}}
        """) == [
        finding("overlay.yaml:3:17: matrices.add.tiny.one: expected a whole number, got 1.0"),
        finding("overlay.yaml:3:33: matrices.add.tiny.two.cpu: expected a whole number, got 2.0"),
        "citgen: 2 problems, nothing written",
    ]


def _probe(kind: str, spec: dict) -> dict:
    return {"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": kind, "metadata": {"name": "probe"},
            "spec": spec}


def test_a_spec_fragment_written_by_hand_takes_only_whole_numbers():
    probe = _probe(CLUSTER_INSTANCETYPE, {"cpu": {"guest": 2.0}, "memory": {"guest": "4Gi"}})
    assert check_object(probe, whole_numbers=True) == [(("spec", "cpu", "guest"), "expected a whole number, got 2.0")]
    assert check_object(probe) == []  # as the API server takes it


def test_a_bundle_with_an_integral_float_is_valid_as_the_api_server_takes_it(tmp_path: Path):
    """kube-openapi's type check takes 2.0 where the schema says integer, and stores 2; so does validate."""
    bundle = (REPO / "bundles" / "common-clusterinstancetypes-bundle.yaml").read_text(encoding="utf-8")
    assert "    guest: 4\n" in bundle
    (tmp_path / "floats.yaml").write_text(bundle.replace("    guest: 4\n", "    guest: 4.0\n"), encoding="utf-8")
    documents = bundle.count("\n---\n") + bundle.startswith("---\n")
    result = CliRunner().invoke(main, ["validate", str(tmp_path / "floats.yaml")])
    assert (result.exit_code, result.output) == (0, f"no problems in {documents} documents\n")


def test_a_bundle_with_a_fraction_of_a_vcpu_is_refused(tmp_path: Path):
    bundle = (REPO / "bundles" / "common-clusterinstancetypes-bundle.yaml").read_text(encoding="utf-8")
    (tmp_path / "half.yaml").write_text(bundle.replace("    guest: 4\n", "    guest: 4.5\n", 1),
                                        encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", "--rule", "schema", str(tmp_path / "half.yaml")])
    assert result.exit_code == 1
    assert result.output.splitlines()[0].endswith(
        ": error: VirtualMachineClusterInstancetype cx1.xlarge $.spec.cpu.guest: "
        "expected a whole number, got 4.5 [schema]")


def test_rules_read_an_integral_float_as_its_whole_number():
    """A label saying 4 and a spec of 5.0 disagree; of 4.0 they agree (labels-match-spec)."""
    def problems(cpu: object) -> list[str]:
        labels = {"instancetype.kubevirt.io/cpu": "4", "instancetype.kubevirt.io/memory": "16Gi",
                  "instancetype.kubevirt.io/size": "xlarge"}
        doc = {**_probe(CLUSTER_INSTANCETYPE, {"cpu": {"guest": cpu}, "memory": {"guest": "16Gi"}})}
        doc["metadata"] = {"name": "u1.xlarge", "labels": labels}
        return [p.message for p in RULES["labels-match-spec"].check([BundleDoc("b.yaml", 0, doc)], RuleContext())]

    assert problems(4.0) == []
    assert problems(5.0) == ["label instancetype.kubevirt.io/cpu is '4' but spec.cpu.guest is 5.0"]
    assert problems(True) == []  # not a count at all: the schema reports it, the rule leaves it


def test_every_whole_number_of_the_input_formats_refuses_floats_booleans_and_text():
    """The formats' jsonschema explanation and their compiled check agree on 1.0, true and "1"."""
    from generator.source import formats

    text = "prefix: u\nversion: 1\nclass: general.purpose\ndisplayName: U\ndescription: d\nicon: i\nratio: '1:4'\n"
    for written, shown in (("1.0", "1.0"), ("true", "the boolean true"), ("'1'", "'1'")):
        document = load_text(text.replace("version: 1", f"version: {written}"), "series/u.yaml")
        assert [str(p) for p in schema_problems(document, formats.SERIES)] == [
            f"series/u.yaml:2:10: version: expected a whole number, got {shown}"]


# =========================================================================== class 5: equal quantities


def test_the_schema_says_where_a_quantity_is():
    assert quantity_at(CLUSTER_PREFERENCE, ("spec", "requirements", "memory", "guest"))
    assert quantity_at(CLUSTER_INSTANCETYPE, ("spec", "memory", "guest"))
    assert not quantity_at(CLUSTER_PREFERENCE, ("spec", "requirements", "cpu", "guest"))
    assert not quantity_at(CLUSTER_PREFERENCE, ("spec", "annotations", "size"))
    # a string in KubeVirt's API, pasted into the pod's resource name (hugepages-2Mi)
    assert not quantity_at(CLUSTER_INSTANCETYPE, ("spec", "memory", "hugepages", "pageSize"))
    assert not quantity_at(CLUSTER_INSTANCETYPE, ("spec", "nosuchfield"))


def _layer(name: str, spec: dict, line: int, *, override: bool = False) -> Layer:
    return Layer(f"trait {name!r}", spec, Location("preferences/os.yaml", line, 1), override)


def _memory(amount: object) -> dict:
    return {"requirements": {"memory": {"guest": amount}}}


def test_equal_memory_in_other_units_is_no_conflict_and_the_first_spelling_stays():
    composed = compose([_layer("a", _memory("4Gi"), 1), _layer("b", _memory("4096Mi"), 2),
                        _layer("c", _memory(4 * 1024**3), 3)])
    assert composed.problems == ()
    assert composed.spec == _memory("4Gi")


def test_a_conflict_names_only_the_layer_that_set_the_value():
    composed = compose([_layer("a", _memory("4Gi"), 1), _layer("b", _memory("4096Mi"), 2),
                        _layer("c", _memory("8Gi"), 3)])
    assert [str(p) for p in composed.problems] == [
        "preferences/os.yaml:3:1: trait 'c' sets requirements.memory.guest to '8Gi', but trait 'a' (listed at "
        "preferences/os.yaml:1) already set requirements.memory.guest to '4Gi'; mark it as an override if it is "
        "meant to replace that value"]


def test_an_override_with_an_equal_quantity_replaces_nothing():
    composed = compose([_layer("a", _memory("4Gi"), 1), _layer("b", _memory("4096Mi"), 2, override=True)])
    assert [str(p) for p in composed.problems] == [
        "preferences/os.yaml:2:1: trait 'b' is marked as an override but changes no value an earlier layer set; "
        "drop the override mark"]


def test_text_that_reads_like_a_quantity_is_only_text_outside_quantity_fields():
    composed = compose([_layer("a", {"annotations": {"size": "1k"}}, 1),
                        _layer("b", {"annotations": {"size": "1000"}}, 2)])
    assert [p.message for p in composed.problems] == [
        "trait 'b' sets annotations.size to '1000', but trait 'a' (listed at preferences/os.yaml:1) already set "
        "annotations.size to '1k'; mark it as an override if it is meant to replace that value"]


def test_requirements_and_spec_agreeing_in_other_units_build(workdir: Path):
    found = built_with_overlay(workdir, """\
        preferences:
          change:
            fedora:
              requirements: {memory: 2048Mi}
              spec:
                requirements: {memory: {guest: 2Gi}}
        """)
    fedora = found[f"{CLUSTER_PREFERENCE}/fedora"]
    assert fedora["spec"]["requirements"]["memory"] == {"guest": "2048Mi"}
    assert fedora["metadata"]["labels"]["instancetype.kubevirt.io/required-memory"] == "2048Mi"


def test_twins_with_equal_memory_in_other_units_are_identical():
    cluster = copy.deepcopy(next(d.data for d in default_build().documents
                                 if d.data["kind"] == CLUSTER_INSTANCETYPE and d.data["metadata"]["name"] == "u1.large"))
    namespaced = copy.deepcopy(cluster)
    namespaced["kind"] = INSTANCETYPE_KINDS[1]

    def problems() -> list[str]:
        docs = [BundleDoc("b.yaml", 0, cluster), BundleDoc("b.yaml", 1, namespaced)]
        return [p.message for p in RULES["twins-identical"].check(docs, RuleContext())]

    assert cluster["spec"]["memory"]["guest"] == "8Gi"
    namespaced["spec"]["memory"]["guest"] = "8192Mi"
    assert problems() == []
    namespaced["spec"]["memory"]["guest"] = "8Gi"
    namespaced["metadata"]["annotations"]["instancetype.kubevirt.io/displayName"] = "8192Mi"
    cluster["metadata"]["annotations"]["instancetype.kubevirt.io/displayName"] = "8Gi"
    assert problems() == [f"differs from its {CLUSTER_INSTANCETYPE} twin at b.yaml#0: '8192Mi' here, '8Gi' there"]


# =========================================================================== class 8: contradictions


def test_a_series_both_kept_and_dropped_is_refused(workdir: Path):
    assert refused_overlay(workdir, """\
        series:
          keep: [u, o]
          drop: [o1]
        """) == [
        finding("overlay.yaml:3:10: series.drop[0]: series 'o1' is both kept (series.keep[1]) and dropped; "
                "name it in one of the two lists"),
        "citgen: 1 problem, nothing written",
    ]


def test_a_size_both_kept_and_dropped_is_refused(workdir: Path):
    assert refused_overlay(workdir, """\
        sizes:
          keep: [large, xlarge, 2xlarge]
          drop: [2xlarge]
        """) == [
        finding("overlay.yaml:3:10: sizes.drop[0]: size '2xlarge' is both kept (sizes.keep[2]) and dropped; "
                "name it in one of the two lists"),
        "citgen: 1 problem, nothing written",
    ]


def test_a_preference_kept_by_name_and_dropped_is_refused(workdir: Path):
    assert refused_overlay(workdir, """\
        preferences:
          keep: ["windows.*", fedora]
          drop: ["fedora*", windows.xp]
        """) == [
        finding("overlay.yaml:3:10: preferences.drop[0]: preference 'fedora' is both kept (preferences.keep[1]) "
                "and dropped; name it in one of the two lists"),
        "citgen: 1 problem, nothing written",
    ]


def test_a_preference_kept_by_a_pattern_may_be_dropped_by_name(workdir: Path):
    found = built_with_overlay(workdir, """\
        preferences:
          keep: ["windows.*"]
          drop: [windows.xp]
        """)
    kept = sorted(key.partition("/")[2] for key in found if key.startswith(CLUSTER_PREFERENCE + "/"))
    assert "windows.xp" not in kept
    assert kept == sorted(n for n in (o.name for o in default_build().objects if o.family == "preference")
                          if n.startswith("windows.") and n != "windows.xp")


def test_an_overlay_that_removes_every_series_is_refused(workdir: Path):
    assert refused_overlay(workdir, """\
        series:
          drop: [cx, d, gn, m, n, o, rt, u]
        """) == [
        finding("overlay.yaml:2:3: series.drop: leaves the catalog without instancetypes (it removes every series: "
                "cx1, d1, gn1, m1, n1, o1, rt1, u1); keep at least one, or add one under series.add"),
        "citgen: 1 problem, nothing written",
    ]


def test_an_overlay_that_replaces_every_series_with_its_own_builds(workdir: Path):
    found = built_with_overlay(workdir, """\
        series:
          drop: [cx, d, gn, m, n, o, rt, u]
          add:
            acme:
              version: 1
              class: general.purpose
              displayName: Acme
              description: Acme's own general purpose series.
              icon: pficon-server
              ratio: "1:4"
        """)
    series = {key.partition("/")[2].partition(".")[0] for key in found if key.startswith(CLUSTER_INSTANCETYPE + "/")}
    assert series == {"acme1"}


@pytest.mark.parametrize("operation", ["add", "change"])
def test_an_empty_override_spec_in_an_overlay_is_refused(workdir: Path, operation: str):
    body = "{basedOn: fedora, description: Fedora again., overrideSpec: {}}" if operation == "add" \
        else "{overrideSpec: {}}"
    name = "fedora.again" if operation == "add" else "fedora"
    stderr = refused_overlay(workdir, f"""\
        preferences:
          {operation}:
            {name}: {body}
        """)
    assert stderr[0].startswith("overlay.yaml:3:")
    assert stderr[0].endswith(f": error: preferences.{operation}.{name}.overrideSpec: expected at least one entry, "
                              "got an empty mapping [input]")
    assert stderr[1:] == ["citgen: 1 problem, nothing written"]


def test_a_wrong_type_in_an_overlays_trait_is_reported_at_the_trait_once(workdir: Path):
    assert refused_overlay(workdir, """\
        traits:
          add:
            ide-disk:
              description: Disks on an IDE bus.
              spec: {devices: {preferredDiskBus: 3}}
        preferences:
          change:
            fedora: {addTraits: [ide-disk]}
            ubuntu: {addTraits: [ide-disk]}
        """) == [
        finding("overlay.yaml:5:42: traits.add.ide-disk.spec.devices.preferredDiskBus: expected string, got integer 3"),
        "citgen: 1 problem, nothing written",
    ]
