"""generator/cli/schema.py: ``citgen schema import``, which importer a PATH goes to and what it reports.

A folder, or a file named after a release tag (v1.8.4.json), is read as KubeVirt's
release files (tools/crd_import.py); swagger.json or any other file as an OpenAPI
document (tools/schema_import.py). The importers' own tests pin what they write; here
the messages of each importer show where a PATH was sent, and a small release file
shows what the command says it wrote. The default --out is the package's schemas,
which no test writes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from generator.cli.schema import PACKAGE_SCHEMAS, schema
from generator.tools.crd_import import KINDS

REPO = Path(__file__).resolve().parent.parent
RELEASE_ERROR = "'kubevirt': expected a release tag such as v1.8.4, got nothing"
SWAGGER_ERROR = "not an OpenAPI (swagger 2.0) document: it has no 'definitions' object"


def release(tag: str) -> dict[str, Any]:
    """A release file whose four CRDs each have a spec with one string field."""
    spec = {"type": "object", "properties": {"spec": {"type": "object", "properties": {"a": {"type": "string"}}}}}
    return {"apiVersion": "instancetype.kubevirt.io/v1beta1", "commit": "dfaa398f086692d19e01be21d83a01036e07815f",
            "kubevirt": tag, "schemas": {kind: spec for kind in KINDS}, "source": "validations_generated.go"}


def run(*args: str | Path) -> Result:
    return CliRunner().invoke(schema, [str(a) for a in args])


def test_the_default_out_is_the_package_s_schemas():
    assert PACKAGE_SCHEMAS == REPO / "generator" / "schemas"


@pytest.mark.parametrize("name, message", [
    ("v1.8.4.json", RELEASE_ERROR),
    ("swagger.json", SWAGGER_ERROR),
    ("openapi.json", SWAGGER_ERROR),
    ("v1.8.4.yaml", SWAGGER_ERROR),
    ("1.8.4.json", SWAGGER_ERROR),
    ("vendor.json", SWAGGER_ERROR),
    ("v.json", SWAGGER_ERROR),
])
def test_a_file_named_after_a_release_tag_is_a_release_file_and_any_other_an_openapi_document(
        tmp_path: Path, name: str, message: str):
    (tmp_path / name).write_text("{}")
    result = run("import", tmp_path / name, "--out", tmp_path / "out")
    assert (result.exit_code, result.output) == (2, f"{tmp_path / name}: error: {message} [input]\n")
    assert not (tmp_path / "out").exists()


def test_a_folder_is_read_as_release_files(tmp_path: Path):
    (tmp_path / "releases").mkdir()
    result = run("import", tmp_path / "releases", "--out", tmp_path / "out")
    assert (result.exit_code, result.output) == (
        2, f"{tmp_path / 'releases'}: error: holds no release file (v1.8.4.json and the like) [input]\n")


def test_a_missing_path_and_a_link_to_nothing_are_refused(tmp_path: Path):
    assert run("import", tmp_path / "missing").output == (
        f"{tmp_path / 'missing'}: error: no such file or folder [input]\n")
    (tmp_path / "link").symlink_to(tmp_path / "nothing")
    result = run("import", tmp_path / "link", "--out", tmp_path / "out")
    assert (result.exit_code, result.output) == (2, (
        f"{tmp_path / 'link'}: error: is a symbolic link that points nowhere: '{tmp_path / 'nothing'}' does not "
        "exist [input]\n"))


def test_a_folder_of_two_patches_writes_one_schema_per_minor_and_the_index(tmp_path: Path):
    (tmp_path / "releases").mkdir()
    for tag in ("v1.8.4", "v1.8.5"):
        (tmp_path / "releases" / f"{tag}.json").write_text(json.dumps(release(tag)))
    out = tmp_path / "out"
    result = run("import", tmp_path / "releases", "--out", out)
    assert (result.exit_code, result.output) == (
        0, f"wrote {out / 'kubevirt' / 'v1.8.json'}\nwrote {out / 'release-fields.json'}\n")
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*.json")) == [
        "kubevirt/v1.8.json", "release-fields.json"]


def test_json_lists_the_files_written(tmp_path: Path):
    (tmp_path / "v1.9.0.json").write_text(json.dumps(release("v1.9.0")))
    out = tmp_path / "out"
    report = json.loads(run("import", tmp_path / "v1.9.0.json", "--out", out, "--format", "json").output)
    files = [str(out / "kubevirt" / "v1.9.json"), str(out / "release-fields.json")]
    assert (report["command"], report["exitCode"], report["files"]) == ("schema import", 0, files)
    assert report["outputs"] == [f"wrote {f}" for f in files]
