"""`citgen validate` on folders of bundles: broken ones with the exact report, clean ones.

Each folder under tests/cases/invalid/ holds a bundle.yaml with one kind of
mistake and expected.txt, the text report a user sees for it; an optional
args.txt adds command-line options. Folders under tests/cases/valid/ must
validate clean. The command runs inside the case folder so reports name the
file as a user would type it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli.validate import validate
from tests.helpers import builtin_name

CASES = Path(__file__).parent / "cases"


def _cases(kind: str) -> list[Path]:
    return sorted(p for p in (CASES / kind).iterdir() if (p / "bundle.yaml").is_file())


def _run(folder: Path, monkeypatch: pytest.MonkeyPatch, *extra: str):
    monkeypatch.chdir(folder)
    args_file = folder / "args.txt"
    args = args_file.read_text().split() if args_file.is_file() else []
    return CliRunner().invoke(validate, ["bundle.yaml", *args, *extra])


@pytest.mark.parametrize("folder", _cases("invalid"), ids=lambda p: p.name)
def test_invalid_case_reports_exactly_the_expected_problems(folder, monkeypatch):
    result = _run(folder, monkeypatch)
    assert result.output == (folder / "expected.txt").read_text()
    assert result.exit_code == 1


@pytest.mark.parametrize("folder", _cases("invalid"), ids=lambda p: p.name)
def test_invalid_case_json_report_holds_the_same_problems(folder, monkeypatch):
    result = _run(folder, monkeypatch, "--format", "json")
    records = json.loads(result.output)
    expected = (folder / "expected.txt").read_text().splitlines()[:-1]  # without the summary
    assert [f"{r['file']}:{r['line']}:{r['column']}: {r['severity']}: {r['kind']} "
            f"{r['namespace'] + '/' if r['namespace'] else ''}{r['name']} {r['path']}: {r['message']} [{r['rule']}]"
            for r in records] == expected
    assert all(r["line"] is not None for r in records)
    assert result.exit_code == 1


@pytest.mark.parametrize("folder", _cases("valid"), ids=lambda p: p.name)
def test_valid_case_is_clean(folder, monkeypatch):
    result = _run(folder, monkeypatch)
    documents = (folder / "bundle.yaml").read_text().count("\nkind: ")
    assert result.output == f"no problems in {documents} document{'s' if documents > 1 else ''}\n"
    assert result.exit_code == 0


#: Rules that judge a catalog's data beside its objects, which a bundle does not carry: each has a module of
#: tests that breaks a catalog for it instead (osinfo: tests/test_validate_rules_osinfo.py).
CATALOG_ONLY = ("osinfo",)


def test_every_rule_has_a_broken_bundle_among_the_cases():
    from generator.validate.rules import RULES

    reported = "".join((p / "expected.txt").read_text() for p in _cases("invalid"))
    assert [rule for rule in [*RULES, "schema"] if f"[{rule}]" not in reported and rule not in CATALOG_ONLY] == []


def test_upstream_bundles_validate_clean(upstream_dir):
    files = [str(upstream_dir / "common-instancetypes-all-bundle.yaml"), str(upstream_dir / "gn-series.yaml")]
    result = CliRunner().invoke(validate, files)
    assert result.output == "no problems in 248 documents\n"
    assert result.exit_code == 0


def test_unusable_input_exits_2_without_a_traceback(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("broken.yaml").write_text("kind: [unclosed\n")
    result = CliRunner().invoke(validate, ["broken.yaml", "missing.yaml"])
    assert result.exit_code == 2
    assert result.output.splitlines()[0].startswith("broken.yaml:2:1: error: malformed YAML")
    assert result.output.splitlines()[1] == "missing.yaml: error: no such file or folder [input]"
    assert "Traceback" not in result.output


def test_missing_file_exits_2(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(validate, ["missing.yaml"])
    assert (result.exit_code, result.output) == (2, "missing.yaml: error: no such file or folder [input]\n")


def test_unknown_rule_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("object.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
    result = CliRunner().invoke(validate, ["object.yaml", "--rule", "no-such-rule"])
    assert result.exit_code == 2
    assert result.output.startswith("--rule: error: unknown rule 'no-such-rule'; known rules: schema, api-version,")


def test_selected_rules_only_run(monkeypatch):
    folder = CASES / "invalid" / "label-numa"
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(validate, ["bundle.yaml", "--rule", "known-labels", "--rule", "vendor-label"])
    assert (result.exit_code, result.output) == (0, "no problems in 2 documents\n")


def test_list_rules_shows_every_rule_with_summary_and_documentation():
    from generator.validate.rules import RULES

    result = CliRunner().invoke(validate, ["--list-rules"])
    assert result.exit_code == 0
    headings = [line for line in result.output.splitlines() if line and not line.startswith(" ")]
    assert headings == ["schema: Every object matches the CRD schema of its kind in the KubeVirt release judged by."] + [
        f"{rule.id}: {rule.summary}" for rule in RULES.values()
    ]
    assert "    Example::" in result.output


def test_the_validation_guide_describes_every_check_list_rules_shows_in_its_order():
    from generator.validate.rules import CHECKS

    result = CliRunner().invoke(validate, ["--list-rules"])
    shown = [line.split(": ", 1) for line in result.output.splitlines() if line and not line.startswith(" ")]
    guide = (Path(__file__).parent.parent / "docs" / "validation.md").read_text(encoding="utf-8")
    rules_section = guide.split("\n## Rules\n", 1)[1].split("\n## ", 1)[0]
    sections = re.split(r"^### (\S+)\n", rules_section, flags=re.M)[1:]
    documented = dict(zip(sections[::2], sections[1::2]))
    assert list(documented) == [rule_id for rule_id, _ in shown] == list(CHECKS)
    for rule_id, summary in shown:  # each section shows a message of its rule, as the docstring does
        assert f"[{rule_id}]" in CHECKS[rule_id].doc and f"[{rule_id}]" in documented[rule_id], rule_id


def test_validating_the_catalog_output_without_files():
    result = CliRunner().invoke(validate, [])
    assert result.output.startswith(f"{builtin_name()}: no problems in "), result.output
    assert result.exit_code == 0


def test_github_format_points_at_the_line_of_the_label(monkeypatch):
    result = _run(CASES / "invalid" / "label-cpu", monkeypatch, "--format", "github")
    assert result.output.splitlines() == [
        "::error file=bundle.yaml,line=7,col=35,title=labels-match-spec::VirtualMachineClusterInstancetype u1.large "
        "$.metadata.labels['instancetype.kubevirt.io/cpu']: label instancetype.kubevirt.io/cpu is '4' "
        "but spec.cpu.guest is 2",
        "::notice title=citgen validate::1 problem in 1 of 1 document",
    ]
    assert result.exit_code == 1
