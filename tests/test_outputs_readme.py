"""The README's generated tables stay true to the data."""

from __future__ import annotations

from click.testing import CliRunner

from generator.cli import main
from generator.outputs.readme import series_matrix, tables, update
from generator.pipeline import BuildOptions, generate
from tests.helpers import REPO, default_build


def test_readme_tables_are_fresh():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert update(text, tables(default_build().objects)) == text, "run `citgen readme` and commit README.md"


def test_series_matrix_reads_capabilities_off_the_specs():
    matrix = series_matrix(generate(BuildOptions(gpu_device="nvidia.com/A400")).objects).splitlines()
    assert matrix[0] == "|  | CX1 | D1 | GN1 | M1 | N1 | O1 | RT1 | U1 |"
    assert "| Hugepages | 1Gi, 2Mi |  |  | 1Gi, 2Mi | 1Gi |  | 1Gi |  |" in matrix
    assert "| Overcommitted memory |  |  |  |  |  | ✓ |  |  |" in matrix
    assert "| GPUs |  |  | ✓ |  |  |  |  |  |" in matrix
    assert "| vCPU:memory ratio | 1:2 | 1:4 | 1:4 | 1:8 | 1:2 | 1:4 | 1:4 | 1:4 |" in matrix


def test_the_default_builds_matrix_has_no_gpu_row_without_gn():
    matrix = series_matrix(default_build().objects).splitlines()
    assert matrix[0] == "|  | CX1 | D1 | M1 | N1 | O1 | RT1 | U1 |"
    assert not [row for row in matrix if row.startswith("| GPUs |")]
    assert "| vCPU:memory ratio | 1:2 | 1:4 | 1:8 | 1:2 | 1:4 | 1:4 | 1:4 |" in matrix


def test_readme_command_rewrites_only_between_markers(tmp_path):
    readme = tmp_path / "README.md"
    sections = "".join(
        f"before {name}\n<!-- BEGIN citgen readme: {name} -->\nold\n<!-- END citgen readme: {name} -->\n"
        for name in ("series", "instancetypes", "preferences"))
    readme.write_text(sections + "after\n")
    runner = CliRunner()
    assert runner.invoke(main, ["readme", "--file", str(readme), "--check"]).exit_code == 1
    assert runner.invoke(main, ["readme", "--file", str(readme)]).exit_code == 0
    text = readme.read_text()
    assert "old" not in text and text.startswith("before series\n") and text.endswith("after\n")
    assert "| `u1.nano` | 1 | 512Mi |" in text
    assert "| `windows.11` | Microsoft Windows 11 | 2 | 4Gi | - |" in text
    assert runner.invoke(main, ["readme", "--file", str(readme), "--check"]).exit_code == 0


def test_a_readme_without_markers_is_an_input_error(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# nothing here\n")
    result = CliRunner().invoke(main, ["readme", "--file", str(readme)])
    assert result.exit_code == 2
    assert "missing the markers of the series table" in result.output
    assert readme.read_text() == "# nothing here\n"


def test_readme_kubevirt_tabulates_what_a_build_for_that_release_holds(tmp_path):
    target = tmp_path / "README.md"
    target.write_text((REPO / "README.md").read_text(encoding="utf-8"), encoding="utf-8")
    result = CliRunner().invoke(main, ["readme", "--file", str(target), "--kubevirt", "v1.8"])
    assert result.exit_code == 0, result.output
    before = set((REPO / "README.md").read_text(encoding="utf-8").splitlines())
    after = set(target.read_text(encoding="utf-8").splitlines())
    assert after <= before  # nothing but the Secure Execution rows, which v1.8 cannot build, goes
    assert sorted(line.split("`")[1] for line in before - after) == [
        "fedora.s390x.secex", "rhel.10.s390x.secex", "rhel.9.s390x.secex"]
    result = CliRunner().invoke(main, ["readme", "--file", str(target), "--kubevirt", "v1.9", "--check"])
    assert result.exit_code == 1  # the newest release's tables are the README's own
