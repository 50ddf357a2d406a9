"""Every command in every --format, once succeeding and once failing, on the real catalog.

Each command returns a Result and the command line prints it as --format says
(docs/errors.md, "Reports for programs and for CI"): text for people, one JSON
object for programs, GitHub workflow commands for CI. The exit code is the same
in every format: 0 clean, 1 problems or differences found, 2 unusable input.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.pipeline import BuildOptions
from tests.helpers import builtin_name, default_build, osinfo_notes

REPO = Path(__file__).resolve().parent.parent
CASES = Path(__file__).parent / "cases"
QUANTITY = ("'4GB' is not a Kubernetes quantity (expected a number with an optional suffix Ki, Mi, Gi, Ti, Pi, "
            "Ei, m, k, M, G, T, P, E, e.g. 2Gi or 512Mi)")
COUNT_ALONE = ("sets how many GPUs each GN instancetype gets, but no GPU device is configured, so GN is not built; "
               "pass --gpu-device nvidia.com/<model> or set parameters.gpu.deviceName too")
MEMORY_REFUSAL = ("insufficient Memory resources of 128Mi provided by instance type, preference requires 512Mi")
COMMON_KEYS = {"command", "ok", "exitCode", "problems", "newerRuleFindings", "outputs", "notes", "counts"}


def citgen(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args])


def named() -> str:
    """How a summary names the catalog the working directory is in (``catalog ./ v1.8.0``), else the built-in one."""
    return BuildOptions().named(default_build().version)


def report(*args: object) -> tuple[int, dict]:
    """The exit code and the JSON object of ``citgen ARGS --format json``."""
    result = citgen(*args, "--format", "json")
    assert result.stderr == ""  # a JSON report is all on standard output
    return result.exit_code, json.loads(result.stdout)


def option_problem(option: str, message: str) -> dict:
    return {"file": option, "line": None, "column": None, "document": None, "kind": None, "namespace": None, "name": None, "path": None,
            "rule": "input", "severity": "error", "message": message, "since": None, "newerThanRelease": None}


# --- build ---------------------------------------------------------------------------------------

def test_build_in_text_json_and_github(tmp_path: Path):
    text = citgen("build", "--out", tmp_path / "one")
    assert text.exit_code == 0 and text.stdout.startswith(f"{named()}: wrote ")
    said, *osinfo = text.stdout.rstrip("\n").split("\n")  # the summary, then what it says of libosinfo's database
    assert osinfo == list(osinfo_notes())

    code, found = report("build", "--out", tmp_path / "two")
    assert code == 0 and COMMON_KEYS <= set(found)
    assert (found["command"], found["ok"], found["exitCode"], found["problems"]) == ("build", True, 0, [])
    assert found["outputs"] == [said.replace("/one ", "/two "), *osinfo]
    assert said.startswith(f"{named()}: wrote {len(found['files'])} files to {tmp_path / 'one'} (")
    kinds = said.split(" (", 1)[1].split(")")[0].split(", ")
    assert found["counts"] == {kind: int(n) for n, kind in (k.split(" ") for k in kinds)}
    assert sorted(path.name for path in (tmp_path / "two").iterdir()) == sorted(
        {f.split("/")[0] for f in found["files"]} | {".citgen-manifest"})
    assert found["leftOut"] == ["gn"]

    github = citgen("build", "--out", tmp_path / "three", "--format", "github")
    assert github.exit_code == 0
    assert github.stdout.splitlines() == [f"::notice title=citgen build::{said.replace('/one ', '/three ')}",
                                          *(f"::notice title=citgen build::{note}" for note in osinfo_notes())]


def test_a_refused_build_in_text_json_and_github(tmp_path: Path):
    args = ("build", "--out", tmp_path / "out", "--gpu-device", "nvidia.com/A400", "--gpu-count", "17")
    text = citgen(*args)
    assert (text.exit_code, text.stdout) == (2, "")
    assert text.stderr == "--gpu-count: error: expected 1 to 16 GPUs, got 17 [input]\ncitgen: 1 problem, nothing written\n"

    code, found = report(*args)
    assert (code, found["ok"], found["exitCode"]) == (2, False, 2)
    assert found["problems"] == [option_problem("--gpu-count", "expected 1 to 16 GPUs, got 17")]
    assert found["notes"] == ["citgen: 1 problem, nothing written"]

    github = citgen(*args, "--format", "github")
    assert github.exit_code == 2
    assert github.stdout.splitlines() == ["::error title=input::--gpu-count: expected 1 to 16 GPUs, got 17",
                                          "::notice title=citgen build::citgen: 1 problem, nothing written"]
    assert not (tmp_path / "out").exists()


def test_every_bad_option_value_is_reported_at_once_with_its_option(tmp_path: Path):
    result = citgen("build", "--out", tmp_path / "out", "--gpu-count", "many")
    assert result.exit_code == 2
    assert result.stderr == ("--gpu-count: error: expected a whole number of GPUs, got 'many' [input]\n"
                             "citgen: 1 problem, nothing written\n")
    result = citgen("list", "--memory", "4GB", "-l", "=4")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"--memory: error: {QUANTITY} [input]",
        "--selector: error: cannot read label selector '=4' at character 1; expected key=value, key!=value, key, "
        "!key, key in (a,b) or key notin (a,b), separated by commas [input]",
        "citgen: 2 problems",
    ]


def test_a_count_needing_a_device_is_still_the_pipelines_to_refuse(tmp_path: Path):
    code, found = report("build", "--out", tmp_path / "out", "--gpu-count", "2")
    assert code == 2 and found["problems"] == [option_problem("--gpu-count", COUNT_ALONE)]


# --- list ----------------------------------------------------------------------------------------

def test_list_in_text_json_and_github():
    args = ("list", "--series", "rt", "--cpu", "1", "-o", "name")
    text = citgen(*args)
    assert (text.exit_code, text.stdout, text.stderr) == (0, "rt1.medium\nrt1.micro\nrt1.small\n", "")
    code, found = report(*args)
    assert code == 0 and found["ok"] is True
    assert [o["name"] for o in found["objects"]] == ["rt1.medium", "rt1.micro", "rt1.small"]
    assert found["objects"][0]["spec"]["cpu"]["guest"] == 1
    assert found["counts"] == {"instancetypes": 3} and found["summary"] == f"{named()}: 3 instancetypes"
    github = citgen(*args, "--format", "github")
    assert (github.exit_code, github.stdout) == (0, text.stdout)  # the product as it is, nothing to annotate


def test_a_refused_list_in_text_json_and_github():
    text = citgen("list", "--memory", "4GB")
    assert (text.exit_code, text.stderr) == (2, f"--memory: error: {QUANTITY} [input]\ncitgen: 1 problem\n")
    code, found = report("list", "--memory", "4GB")
    assert (code, found["problems"]) == (2, [option_problem("--memory", QUANTITY)])
    github = citgen("list", "--memory", "4GB", "--format", "github")
    assert github.stdout.splitlines() == [f"::error title=input::--memory: {QUANTITY}",
                                          "::notice title=citgen list::citgen: 1 problem"]


def test_the_groups_format_applies_to_the_command_and_the_commands_own_wins():
    grouped = citgen("--format", "json", "list", "--series", "rt", "--cpu", "1")
    assert json.loads(grouped.stdout) == report("list", "--series", "rt", "--cpu", "1")[1]
    own = citgen("--format", "json", "list", "--series", "rt", "--cpu", "1", "-o", "name", "--format", "text")
    assert own.stdout == "rt1.medium\nrt1.micro\nrt1.small\n"


# --- readme --------------------------------------------------------------------------------------

@pytest.fixture
def readme(tmp_path: Path) -> Path:
    copy = tmp_path / "README.md"
    shutil.copy(REPO / "README.md", copy)
    return copy


def test_readme_in_text_json_and_github(readme: Path):
    text = citgen("readme", "--file", readme, "--check")
    assert (text.exit_code, text.stdout) == (0, f"{named()}: {readme} is up to date\n")
    code, found = report("readme", "--file", readme, "--check")
    assert (code, found["outputs"], found["upToDate"], found["updated"]) == (
        0, [f"{named()}: {readme} is up to date"], True, False)
    github = citgen("readme", "--file", readme, "--check", "--format", "github")
    assert github.stdout == f"::notice title=citgen readme::{named()}: {readme} is up to date\n"


def test_a_stale_readme_in_text_json_and_github(readme: Path):
    readme.write_text(readme.read_text().replace("| Dedicated CPU |", "| Dedicated |"))
    text = citgen("readme", "--file", readme, "--check")
    stale = f"{named()}: {readme} is out of date: run `citgen readme`"
    assert (text.exit_code, text.stdout, text.stderr) == (1, "", f"{stale}\n")
    code, found = report("readme", "--file", readme, "--check")
    assert (code, found["ok"], found["problems"], found["upToDate"]) == (1, False, [], False)
    assert found["notes"] == [stale]
    github = citgen("readme", "--file", readme, "--check", "--format", "github")
    assert github.exit_code == 1
    assert github.stdout == f"::notice title=citgen readme::{stale}\n"


# --- validate ------------------------------------------------------------------------------------

def test_validate_in_text_json_and_github(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(CASES / "valid" / "twins-and-requirements")
    documents = Path("bundle.yaml").read_text().count("\nkind: ")
    text = citgen("validate", "bundle.yaml")
    assert (text.exit_code, text.stdout) == (0, f"no problems in {documents} documents\n")
    assert citgen("validate", "bundle.yaml", "--format", "json").stdout == "[]\n"  # the records, as before
    github = citgen("validate", "bundle.yaml", "--format", "github")
    assert github.stdout == f"::notice title=citgen validate::no problems in {documents} documents\n"


def test_validate_of_the_catalog_says_in_github_every_line_the_text_says():
    """The summary, then the line naming libosinfo's database (or that none was found): a notice each."""
    text = citgen("validate")
    github = citgen("validate", "--format", "github")
    assert (text.exit_code, github.exit_code) == (0, 0)
    assert text.stdout.splitlines()[1:] == list(osinfo_notes())
    assert github.stdout.splitlines() == [f"::notice title=citgen validate::{line}" for line in text.stdout.splitlines()]


def test_validate_findings_in_text_json_and_github(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(CASES / "invalid" / "label-cpu")
    text = citgen("validate", "bundle.yaml")
    assert (text.exit_code, text.stdout) == (1, Path("expected.txt").read_text())
    result = citgen("validate", "bundle.yaml", "--format", "json")
    assert result.exit_code == 1
    assert [(r["line"], r["rule"]) for r in json.loads(result.stdout)] == [(7, "labels-match-spec")]
    github = citgen("validate", "bundle.yaml", "--format", "github")
    assert github.exit_code == 1 and github.stdout.startswith("::error file=bundle.yaml,line=7,col=35,")


def test_unusable_input_to_validate_is_the_common_object_in_json(tmp_path: Path):
    missing = tmp_path / "absent.yaml"
    text = citgen("validate", missing)
    assert (text.exit_code, text.stderr) == (2, f"{missing}: error: no such file or folder [input]\n")
    code, found = report("validate", missing)
    assert (code, found["command"], found["exitCode"]) == (2, "validate", 2)
    assert [(p["file"], p["message"]) for p in found["problems"]] == [(str(missing), "no such file or folder")]
    github = citgen("validate", missing, "--format", "github")
    assert github.stdout == f"::error file={missing},title=input::no such file or folder\n"


def test_validate_lists_the_rules_in_json_too():
    code, found = report("validate", "--list-rules")
    assert code == 0
    assert [r["id"] for r in found["rules"]][:3] == ["schema", "api-version", "object-metadata"]


# --- expand --------------------------------------------------------------------------------------

def test_expand_in_text_json_and_github(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(CASES / "expand" / "windows-11-u1-large")
    text = citgen("expand", "vm.yaml", "-o", "json")
    assert text.exit_code == 0
    code, found = report("expand", "vm.yaml")
    assert (code, found["vm"]) == (0, json.loads(text.stdout))
    github = citgen("expand", "vm.yaml", "--format", "github")
    assert (github.exit_code, github.stdout) == (0, citgen("expand", "vm.yaml").stdout)


def test_a_refused_vm_in_text_json_and_github(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(CASES / "expand" / "requirements-memory")
    args = ("expand", "vm.yaml", "--bundle", "bundle.yaml")
    text = citgen(*args)
    assert (text.exit_code, text.stdout, text.stderr) == (
        1, "", f"vm.yaml:8:5: error: VirtualMachine tiny $.spec.instancetype: {MEMORY_REFUSAL} [requirements]\n")
    code, found = report(*args)
    assert (code, found["ok"]) == (1, False)
    assert [(p["file"], p["line"], p["column"], p["path"], p["rule"], p["message"]) for p in found["problems"]] == [
        ("vm.yaml", 8, 5, "$.spec.instancetype", "requirements", MEMORY_REFUSAL)]
    github = citgen(*args, "--format", "github")
    assert github.stdout == (
        f"::error file=vm.yaml,line=8,col=5,title=requirements::VirtualMachine tiny $.spec.instancetype: "
        f"{MEMORY_REFUSAL}\n")


# --- init ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_init_in_each_format(tmp_path: Path, fmt: str):
    target = tmp_path / "vendor"
    result = citgen("init", target, "--vendor", "acme.example", "--format", fmt)
    assert result.exit_code == 0, result.output
    files = sorted(str(p) for p in target.rglob("*") if p.is_file())
    said = [f"wrote {f}" for f in files] + [f"build it with: citgen build --catalog {target}"]
    if fmt == "text":
        assert sorted(result.stdout.splitlines()) == sorted(said)
    elif fmt == "json":
        found = json.loads(result.stdout)
        assert (sorted(found["files"]), sorted(found["outputs"])) == (files, sorted(said))
    else:
        assert sorted(result.stdout.splitlines()) == sorted(f"::notice title=citgen init::{s}" for s in said)


def test_a_refused_init_in_text_json_and_github(tmp_path: Path):
    (tmp_path / "notes.txt").write_text("mine\n")
    refusal = "refusing to initialise a directory that is not empty"
    assert citgen("init", tmp_path).stderr.startswith(f"{tmp_path}: error: {refusal}")
    code, found = report("init", tmp_path)
    assert code == 2 and found["problems"][0]["message"].startswith(refusal)
    github = citgen("init", tmp_path, "--format", "github")
    assert github.exit_code == 2 and github.stdout.startswith(f"::error file={tmp_path},title=input::{refusal}")


# --- diff ----------------------------------------------------------------------------------------

def test_diff_in_text_json_and_github(previous_output: Path):
    text = citgen("diff", previous_output, previous_output)
    assert (text.exit_code, text.stdout) == (0, f"no differences between {previous_output} and {previous_output}\n")
    code, found = report("diff", previous_output, previous_output)
    assert (code, found["ok"], found["equal"], found["added"]) == (0, True, True, [])
    assert found["counts"] == found["summary"] == {"added": 0, "removed": 0, "changed": 0, "newlyDeprecated": 0}
    github = citgen("diff", previous_output, previous_output, "--format", "github")
    assert github.stdout == text.stdout


def test_differences_and_unusable_inputs_in_json_and_github(previous_output: Path, tmp_path: Path):
    bundle = previous_output / "common-clusterinstancetypes-bundle.yaml"
    fewer = tmp_path / "fewer.yaml"
    fewer.write_text(bundle.read_text().split("\n---\n", 1)[1])
    code, found = report("diff", bundle, fewer)
    assert (code, found["ok"], found["exitCode"], found["problems"]) == (1, False, 1, [])
    assert found["summary"]["removed"] == len(found["removed"]) == 1

    missing = tmp_path / "absent"
    code, found = report("diff", missing, fewer)
    assert (code, [p["message"] for p in found["problems"]]) == (2, ["no such file or folder"])
    github = citgen("diff", missing, fewer, "--format", "github")
    assert (github.exit_code, github.stdout) == (2, f"::error file={missing},title=input::no such file or folder\n")


# --- schema import -------------------------------------------------------------------------------

def test_schema_import_in_text_json_and_github(swagger_path: Path, tmp_path: Path):
    text = citgen("schema", "import", swagger_path, "--out", tmp_path / "text")
    assert text.exit_code == 0
    written = text.stdout.splitlines()
    assert written and all(line.startswith(f"wrote {tmp_path / 'text'}") for line in written)
    code, found = report("schema", "import", swagger_path, "--out", tmp_path / "json")
    assert (code, found["command"]) == (0, "schema import")
    assert found["outputs"] == [line.replace("/text/", "/json/") for line in written]
    github = citgen("schema", "import", swagger_path, "--out", tmp_path / "gh", "--format", "github")
    assert github.stdout.splitlines()[0] == f"::notice title=citgen schema import::{written[0]}".replace(
        "/text/", "/gh/")


def test_a_refused_schema_import_in_text_json_and_github(tmp_path: Path):
    missing = tmp_path / "swagger.json"
    args = ("schema", "import", missing, "--out", tmp_path / "out")
    assert citgen(*args).stderr == f"{missing}: error: no such file or folder [input]\n"
    code, found = report(*args)
    assert (code, found["command"], [p["message"] for p in found["problems"]]) == (
        2, "schema import", ["no such file or folder"])
    assert citgen(*args, "--format", "github").stdout == f"::error file={missing},title=input::no such file or folder\n"


# --- build --check and site -----------------------------------------------------------------------

def test_build_check_in_text_json_and_github(tmp_path: Path):
    out = tmp_path / "bundles"
    shutil.copytree(REPO / "bundles", out)
    text = citgen("build", "--check", "--out", out)
    assert (text.exit_code, text.stdout) == (0, f"{named()}: {out} is up to date (111 files)\n")

    (out / "CHECKSUMS.sha256").write_text("\n")
    code, found = report("build", "--check", "--out", out)
    assert (code, found["ok"], found["upToDate"], found["stale"]) == (1, False, False, ["CHECKSUMS.sha256"])

    github = citgen("build", "--check", "--out", out, "--format", "github")
    assert github.exit_code == 1
    assert github.stdout.splitlines()[:2] == [
        f"::notice title=citgen build::{named()}: {out} is out of date: 1 stale, 0 missing, 0 extra",
        "::notice title=citgen build::  stale:   CHECKSUMS.sha256"]


def test_site_in_text_json_and_github(tmp_path: Path, site_build):
    one, text = site_build  # the session's `citgen site --out ONE` (tests/conftest.py)
    assert text.exit_code == 0 and text.stdout.startswith(f"{builtin_name()}: wrote 3 files to {one} (index.html: ")
    code, found = report("site", "--out", tmp_path / "two")
    assert (code, found["command"], found["files"]) == (0, "site", ["CHECKSUMS.sha256", "catalog.json", "index.html"])
    assert found["counts"]["indexBytes"] == (tmp_path / "two" / "index.html").stat().st_size

    refused = citgen("site", "--out", tmp_path / "three", "--gpu-count", "0", "--format", "github")
    assert refused.exit_code == 2
    assert refused.stdout.splitlines() == ["::error title=input::--gpu-count: expected 1 to 16 GPUs, got 0",
                                           "::notice title=citgen site::citgen: 1 problem, nothing written"]
    assert not (tmp_path / "three").exists()
