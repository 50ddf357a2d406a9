"""Release notes: a diff as the Markdown section of a GitHub release, grouped by kind and series."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.tools.diff import diff_paths
from generator.tools.release_notes import render_markdown, series_of

from helpers import NEXT_RELEASE, build_into

ALL = "common-instancetypes-all-bundle.yaml"
BOTH_IT = "#### VirtualMachineClusterInstancetype and VirtualMachineInstancetype"
BOTH_PREF = "#### VirtualMachineClusterPreference and VirtualMachinePreference"
CX1_1GI = ("`cx1.2xlarge1gi`, `cx1.4xlarge1gi`, `cx1.8xlarge1gi`, `cx1.large1gi`, `cx1.medium1gi`, "
           "`cx1.xlarge1gi`")
RT1 = "`rt1.2xlarge`, `rt1.4xlarge`, `rt1.8xlarge`, `rt1.large`, `rt1.medium`, `rt1.micro`, `rt1.small`, `rt1.xlarge`"


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("release-notes")
    old = build_into(root / "old", version="v1.0.0")
    return {
        "old": old,
        "next": build_into(root / "next", NEXT_RELEASE, version="v1.1.0"),
        "retained": build_into(root / "retained", NEXT_RELEASE, version="v1.1.0", retain_from=(old / ALL,)),
    }


def section(page: str, title: str) -> str:
    """The text of one ``###`` section, without its heading."""
    start = page.index(f"### {title}\n") + len(f"### {title}\n")
    end = page.find("\n### ", start)
    return page[start:] if end < 0 else page[start:end + 1]


def test_equal_builds_say_nothing_changed(builds):
    page = render_markdown(diff_paths(builds["old"], builds["old"]))
    assert page == "### Catalog changes\n\nNo objects were added, removed or changed.\n"


def test_the_summary_counts_twins_once(builds):
    page = render_markdown(diff_paths(builds["old"], builds["next"]))
    assert page.splitlines()[:3] == ["### Catalog changes", "", "1 added, 14 removed, 6 changed, 0 newly deprecated."]


def test_added_objects_are_listed_by_kind_and_series(builds):
    page = render_markdown(diff_paths(builds["old"], builds["next"]))
    assert section(page, "Added") == f"\n{BOTH_PREF}\n\n- **alpine**: `alpine.edge`\n\n"


def test_removed_objects_come_with_the_retain_warning(builds):
    removed = section(render_markdown(diff_paths(builds["old"], builds["next"])), "Removed")
    assert removed.startswith(f"\n{BOTH_IT}\n\n- **cx1**: {CX1_1GI}\n- **rt1**: {RT1}\n\n> [!WARNING]\n")
    assert "`citgen build --retain-from`" in removed


def test_changed_fields_show_old_and_new_values(builds):
    changed = section(render_markdown(diff_paths(builds["old"], builds["next"])), "Changed")
    assert changed.startswith(f"\n{BOTH_IT}\n\n**cx1**\n\n- `cx1.2xlarge`\n")
    assert ("- `cx1.large`\n"
            "  - `$.metadata.labels['instancetype.kubevirt.io/hugepages']`: `\"2Mi\"` → `\"1Gi\"`\n"
            "  - `$.spec.memory.hugepages.pageSize`: `\"2Mi\"` → `\"1Gi\"`\n") in changed


def test_an_object_that_only_became_deprecated_is_not_listed_as_changed(builds):
    page = render_markdown(diff_paths(builds["old"], builds["retained"]))
    assert "rt1" not in section(page, "Changed") and "large1gi" not in section(page, "Changed")
    assert section(page, "Newly deprecated") == (
        f"\n{BOTH_IT}\n\n"
        f"- **cx1**: {CX1_1GI}\n"
        f"- **rt1**: {RT1}\n\n"
        "Labels not compared: `instancetype.kubevirt.io/common-instancetypes-version`.\n")
    assert "### Removed" not in page


def test_twins_that_changed_differently_get_a_heading_each(tmp_path: Path):
    def bundle(path: Path, cluster_cpu: int, namespaced_cpu: int) -> Path:
        path.write_text("".join(
            f"---\napiVersion: instancetype.kubevirt.io/v1beta1\nkind: {kind}\nmetadata:\n  name: u1.small\n"
            f"spec:\n  cpu:\n    guest: {cpu}\n  memory:\n    guest: 2Gi\n"
            for kind, cpu in (("VirtualMachineClusterInstancetype", cluster_cpu),
                              ("VirtualMachineInstancetype", namespaced_cpu))))
        return path

    page = render_markdown(diff_paths(bundle(tmp_path / "old.yaml", 1, 1), bundle(tmp_path / "new.yaml", 2, 4)))
    assert section(page, "Changed") == (
        "\n#### VirtualMachineClusterInstancetype\n\n**u1**\n\n- `u1.small`\n  - `$.spec.cpu.guest`: `1` → `2`\n"
        "\n#### VirtualMachineInstancetype\n\n**u1**\n\n- `u1.small`\n  - `$.spec.cpu.guest`: `1` → `4`\n\n"
        "Labels not compared: `instancetype.kubevirt.io/common-instancetypes-version`.\n")


def test_a_series_is_the_name_up_to_its_first_dot():
    assert [series_of(n) for n in ("u1.large", "rhel.9.dpdk", "alpine")] == ["u1", "rhel", "alpine"]
