"""generator/cli/validate.py: ``citgen validate`` on small bundles written by each test.

The rules have files of their own (tests/test_validate_rules_*.py); these pin what the
command decides: a file named twice is one set of objects, two files are one set unless
--each-file, --vendor overrides the vendor the objects agree on, the built-in catalog's
series ratios apply only to a bundle of the built-in vendor, a warning counts only under
--warnings-as-errors, --matrix refuses the options it would ignore and files without both
kinds, and --list-rules describes each rule in the order they run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner, Result

from tests.helpers import builtin_name
from generator.cli import main
from generator.cli.validate import bundle_context, default_context, list_rules, validate
from generator.source.documents import BundleDoc
from generator.validate.rules import CHECKS, RuleContext
from tests.ruledocs import CIT, CPREF, instancetype, preference

MISSING_LABELS = [
    "$.metadata.labels: spec.cpu.guest is 2 but label instancetype.kubevirt.io/cpu is missing [labels-match-spec]",
    "$.metadata.labels: spec.memory.guest is '8Gi' but label instancetype.kubevirt.io/memory is missing "
    "[labels-match-spec]",
    "$.metadata.labels: the size in the name u1.large is 'large' but label instancetype.kubevirt.io/size is missing "
    "[labels-match-spec]",
]


def bundle(path: Path, *objects: dict[str, Any]) -> Path:
    path.write_text(yaml.safe_dump_all(objects))
    return path


def acme(path: Path) -> Path:
    """A bundle of one acme.io instancetype, u1.large, lacking the labels of its size."""
    return bundle(path, instancetype("u1.large", labels={"vendor": "acme.io"}))


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(validate, [str(a) for a in args])


def lines(path: Path, severity: str = "error") -> list[str]:
    return [f"{path}:5:5: {severity}: {CIT} u1.large {line}" for line in MISSING_LABELS]


def test_a_file_named_twice_is_one_set_of_objects(tmp_path: Path):
    a = acme(tmp_path / "a.yaml")
    result = run(a, a)
    assert (result.exit_code, result.output) == (1, "\n".join(lines(a) + ["3 problems in 1 of 1 document", ""]))


def test_two_files_are_one_set_whose_names_must_be_unique(tmp_path: Path):
    a, b = acme(tmp_path / "a.yaml"), acme(tmp_path / "b.yaml")
    result = run(a, b)
    assert result.exit_code == 1
    assert result.output.splitlines() == lines(a) + lines(b) + [
        f"{b}:6:9: error: {CIT} u1.large $.metadata.name: duplicate {CIT} name 'u1.large' (first defined at {a}#0) "
        "[unique-names]",
        "7 problems in 2 of 2 documents"]


def test_each_file_checks_each_file_on_its_own(tmp_path: Path):
    a, b = acme(tmp_path / "a.yaml"), acme(tmp_path / "b.yaml")
    result = run(a, b, "--each-file")
    assert result.output.splitlines() == lines(a) + lines(b) + ["6 problems in 2 of 2 documents"]


def test_a_vendor_given_overrides_the_one_the_objects_agree_on(tmp_path: Path):
    a = acme(tmp_path / "a.yaml")
    assert run(a, "--rule", "vendor-label").exit_code == 0
    result = run(a, "--rule", "vendor-label", "--vendor", "other.io")
    assert (result.exit_code, result.output.splitlines()) == (1, [
        f"{a}:5:38: error: {CIT} u1.large $.metadata.labels['instancetype.kubevirt.io/vendor']: label "
        "instancetype.kubevirt.io/vendor is 'acme.io', expected 'other.io' [vendor-label]",
        "1 problem in 1 of 1 document"])


def test_of_two_rules_named_only_those_run(tmp_path: Path):
    a = acme(tmp_path / "a.yaml")
    records = json.loads(run(a, "--rule", "vendor-label", "--rule", "labels-match-spec", "--vendor", "other.io",
                             "--format", "json").output)
    assert [r["rule"] for r in records] == ["labels-match-spec"] * 3 + ["vendor-label"]
    assert json.loads(run(a, "--rule", "vendor-label", "--format", "json").output) == []


def test_the_built_in_series_ratios_apply_only_to_a_bundle_of_the_built_in_vendor():
    builtin = default_context()
    assert builtin.vendor == "kubevirt.io" and sorted(builtin.series) == [
        "cx1", "d1", "gn1", "m1", "n1", "o1", "rt1", "u1"]
    ours = [BundleDoc("b.yaml", 0, instancetype(labels={"vendor": "kubevirt.io"}))]
    theirs = [BundleDoc("b.yaml", 0, instancetype(labels={"vendor": "acme.io"}))]
    assert bundle_context(ours, None) == RuleContext(vendor=None, series=builtin.series)
    assert bundle_context(theirs, None) == RuleContext(vendor=None, series={})
    assert bundle_context(theirs, "kubevirt.io") == RuleContext(vendor="kubevirt.io", series=builtin.series)
    assert bundle_context(ours, "acme.io") == RuleContext(vendor="acme.io", series={})


def test_of_objects_that_disagree_on_their_vendor_the_most_common_decides_and_the_first_on_a_tie():
    def of(*vendors: str) -> list[BundleDoc]:
        return [BundleDoc("b.yaml", i, instancetype(f"u1.s{i}", labels={"vendor": v})) for i, v in enumerate(vendors)]

    ratios = default_context().series
    assert bundle_context(of("kubevirt.io", "acme.io"), None).series == ratios
    assert bundle_context(of("acme.io", "kubevirt.io"), None).series == {}
    assert bundle_context(of("acme.io", "kubevirt.io", "kubevirt.io"), None).series == ratios


def test_a_warning_is_shown_and_counts_only_under_warnings_as_errors(tmp_path: Path):
    older = bundle(tmp_path / "p.yaml", preference("fedora", cpu={"preferredCPUTopology": "preferCores"}))
    def warned(severity: str) -> str:
        return (f"{older}:7:27: {severity}: {CPREF} fedora $.spec.cpu.preferredCPUTopology: KubeVirt v1.9 warns: "
                "PreferredCPUTopology preferCores is deprecated for removal in a future release, please use cores "
                "instead [webhook-cpu-topology]")

    quiet = run(older, "--rule", "webhook-cpu-topology")
    assert (quiet.exit_code, quiet.output.splitlines()) == (0, [
        warned("warning"), "no problems in 1 document; 1 warning in 1 of them, not counted"])
    record = json.loads(run(older, "--rule", "webhook-cpu-topology", "--format", "json").output)
    assert [(r["severity"], r["path"]) for r in record] == [("warning", "$.spec.cpu.preferredCPUTopology")]
    strict = run(older, "--rule", "webhook-cpu-topology", "--warnings-as-errors")
    assert (strict.exit_code, strict.output.splitlines()) == (1, [warned("error"), "1 problem in 1 of 1 document"])


def test_matrix_refuses_the_options_it_would_ignore_naming_each_at_the_first(tmp_path: Path):
    a = acme(tmp_path / "a.yaml")
    result = run(a, "--matrix", "--vendor", "x", "--rule", "schema")
    assert (result.exit_code, result.output) == (2, (
        "--rule: error: --rule, --vendor cannot be used with --matrix, which expands instancetype and preference "
        "pairs rather than checking objects [input]\n"))
    assert run(a, "--matrix", "--warnings-as-errors").output.startswith(
        "--warnings-as-errors: error: --warnings-as-errors cannot be used with --matrix")


def test_matrix_refuses_files_without_both_kinds(tmp_path: Path):
    a = acme(tmp_path / "a.yaml")
    assert run(a, "--matrix").output == (
        f"{a}: error: holds no {CPREF}; --matrix pairs each {CIT} with each {CPREF} of the files named, so they must "
        "hold both (a build's all-bundle does) [input]\n")
    empty, other = bundle(tmp_path / "e.yaml", {"kind": "ConfigMap"}), bundle(tmp_path / "o.yaml", {"kind": "Pod"})
    # the one reader refuses each file that holds no catalog object, as a whole, naming what it holds; the FILEs
    # are validate's own arguments, not given as an option
    assert run(empty, other, "--matrix").output == "".join(
        f"{path}: error: no catalog objects: the file holds 1 object ({kind}) but no instancetype or preference; "
        f"expected {CIT}, VirtualMachineInstancetype, {CPREF} or VirtualMachinePreference objects, as documents or "
        "in a kind: List [input]\n" for path, kind in ((empty, "ConfigMap"), (other, "Pod")))


def test_list_rules_describes_every_rule_in_the_order_they_run():
    text = list_rules()
    heads = [line for line in text.splitlines() if line and not line.startswith(" ")]
    assert heads == [f"{rule.id}: {rule.summary}" for rule in CHECKS.values()]
    assert heads[0] == "schema: Every object matches the CRD schema of its kind in the KubeVirt release judged by."
    assert text.endswith("\n") and not text.endswith("\n\n")
    result = run("--list-rules", "--format", "json")
    assert [r["id"] for r in json.loads(result.output)["rules"]] == list(CHECKS)
    assert run("--list-rules").output == text


def test_findings_of_rules_newer_than_the_objects_release_are_listed_apart_and_not_counted(tmp_path: Path):
    old = bundle(tmp_path / "old.yaml", instancetype(labels={"vendor": "kubevirt.io",
                                                             "common-instancetypes-version": "v1.0.0"}))
    result = run(old, "--rule", "labels-match-spec")
    assert (result.exit_code, result.output.splitlines()) == (1, [
        *lines(old)[:2],
        f"{old}:5:5: note: {CIT} u1.large $.metadata.labels: the size in the name u1.large is 'large' but label "
        "instancetype.kubevirt.io/size is missing (rule since v1.1.0, newer than the object's release v1.0.0) "
        "[labels-match-spec]",
        "2 problems in 1 of 1 document; 1 finding from rules newer than release v1.0.0 in 1 of them, not counted"])


def test_a_warning_under_warnings_as_errors_is_an_error_in_every_record(tmp_path: Path):
    older = bundle(tmp_path / "p.yaml", preference("fedora", cpu={"preferredCPUTopology": "preferCores"}))
    records = json.loads(run(older, "--rule", "webhook-cpu-topology", "--warnings-as-errors", "--format",
                             "json").output)
    assert [(r["severity"], r["rule"]) for r in records] == [("error", "webhook-cpu-topology")]


# --------------------------------------------------------------------------- without FILEs: the catalog's own output


def last_line(*args: str | Path) -> tuple[int, str]:
    result = run(*args)
    return result.exit_code, result.output.splitlines()[-1]


def test_without_files_the_catalogs_output_is_judged_by_the_rules_named_and_the_vendor_given():
    built_in = builtin_name()  # the summary names the catalog it judged
    assert last_line("--rule", "vendor-label") == (0, f"{built_in}: no problems in 244 documents")
    assert last_line("--rule", "vendor-label", "--vendor", "other.io") == (
        1, f"{built_in}: 244 problems in 244 of 244 documents")
    assert last_line("--rule", "schema", "--vendor", "other.io") == (0, f"{built_in}: no problems in 244 documents")
    assert last_line("--rule", "schema", "--kubevirt", "v1.0") == (
        1, f"{built_in}: 300 problems in 166 of 244 documents")


def test_without_files_a_catalog_named_is_the_one_built_and_judged(tmp_path: Path):
    assert CliRunner().invoke(main, ["init", str(tmp_path / "vendor")]).exit_code == 0
    vendor = f"catalog {tmp_path / 'vendor'}/ v0.1.0-dev"
    assert last_line("--catalog", tmp_path / "vendor", "--rule", "vendor-label") == (
        0, f"{vendor}: no problems in 244 documents")
    assert last_line("--catalog", tmp_path / "vendor", "--rule", "vendor-label", "--vendor", "kubevirt.io") == (
        1, f"{vendor}: 244 problems in 244 of 244 documents")


def test_files_are_judged_against_a_catalog_named_its_vendor_unless_one_is_given(tmp_path: Path):
    assert CliRunner().invoke(main, ["init", str(tmp_path / "vendor")]).exit_code == 0
    ours = bundle(tmp_path / "ours.yaml", instancetype(labels={"vendor": "kubevirt.io"}))
    result = run(ours, "--catalog", tmp_path / "vendor", "--rule", "vendor-label")
    assert (result.exit_code, result.output.splitlines()) == (1, [
        f"{ours}:5:38: error: {CIT} u1.large $.metadata.labels['instancetype.kubevirt.io/vendor']: label "
        "instancetype.kubevirt.io/vendor is 'kubevirt.io', expected 'example.com' [vendor-label]",
        "1 problem in 1 of 1 document"])
    assert last_line(ours, "--catalog", tmp_path / "vendor", "--rule", "vendor-label", "--vendor", "kubevirt.io") == (
        0, "no problems in 1 document")


def test_files_are_judged_as_the_kubevirt_release_named_judges_them(tmp_path: Path):
    efi = bundle(tmp_path / "p.yaml", preference("efi", firmware={"preferredEfi": {}}))
    assert last_line(efi, "--rule", "schema") == (0, "no problems in 1 document")
    result = run(efi, "--rule", "schema", "--kubevirt", "v1.0")
    assert (result.exit_code, result.output.splitlines()) == (1, [
        f"{efi}:7:19: error: {CPREF} efi $.spec.firmware.preferredEfi: unknown field 'preferredEfi': KubeVirt v1.0 does not have it "
        "(it came in v1.4) [schema]", "1 problem in 1 of 1 document"])


def test_a_vendor_given_decides_whether_the_built_in_series_ratios_apply_to_files(tmp_path: Path):
    small = bundle(tmp_path / "u1.yaml", instancetype("u1.large", memory="4Gi", labels={"vendor": "acme.io"}))
    assert last_line(small, "--rule", "series-ratio") == (0, "no problems in 1 document")
    result = run(small, "--rule", "series-ratio", "--vendor", "kubevirt.io")
    assert (result.exit_code, result.output.splitlines()) == (1, [
        f"{small}:11:12: error: {CIT} u1.large $.spec.memory.guest: 2 vCPUs with '4Gi' of memory break series u1's ratio of 4Gi per "
        "vCPU (expected 8Gi), and large is not a declared exception [series-ratio]", "1 problem in 1 of 1 document"])
