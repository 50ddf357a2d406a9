"""Text from the data reaches the bundles through the yaml filters, unchanged.

A description is free text written by a person: it may hold ``: ``, ``#``,
quotes, a leading ``*`` or ``&``, newlines or any language. Each must come out
of a real build as YAML that parses back to exactly the string that went in,
and must never change the shape of the document around it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import example, given, strategies as st

from generator.cli import main
from generator.render.yamltext import yaml_block, yaml_scalar

TRICKY = [
    "key: value",
    "a # not a comment",
    "#starts like a comment",
    "'single' and \"double\" quotes",
    "it's",
    '"',
    "*looks like an alias",
    "&looks like an anchor",
    "!looks like a tag",
    "- looks like a list item",
    "? looks like a complex key",
    "{not: a mapping}",
    "[not, a, list]",
    "| looks like a block",
    "> looks like a folded block",
    "%looks like a directive",
    "@reserved",
    "`reserved",
    "---",
    "...",
    "line one\nline two\n\nline four",
    "trailing newline inside\nsecond line",
    "tab\tinside",
    "yes",
    "no",
    "null",
    "~",
    "true",
    "0x1F",
    "1e3",
    "012",
    "1:4",
    "Ünïcödé, 日本語 and ελληνικά",
    "emoji 🚀 and a zero-width\u200bspace",
    "bell\x07, escape\x1b[0m and nul\x00",  # next line (U+0085) is refused instead: test_text_carried.py
    "line\u2028and paragraph\u2029separators",
    "back\\slash",
    "{{ not a template }}",
]


def write_yaml(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # escaped, not raw: YAML has control characters in text only as escapes
    path.write_text(yaml.safe_dump(data, allow_unicode=False, sort_keys=False), encoding="utf-8")


def small_catalog(root: Path) -> None:
    """One series and one family with a preference per tricky string; templates are the built-in ones."""
    write_yaml(root / "catalog.yaml", {
        "vendor": "example.com",
        "version": "v1.0.0",
        "provider": {
            "displayName": "  Example: \"the\" #1 provider & co  ",
            "documentationURL": "https://example.com/docs?a=1&b=2#part",
            "supportURL": "mailto:support@example.com",
        },
    })
    write_yaml(root / "series" / "sizes.yaml", {"matrices": {"standard": {"small": {"cpu": 1, "memory": "2Gi"},
                                                                           "large": 2}}})
    for i, text in enumerate(TRICKY):
        write_yaml(root / "series" / f"t{chr(ord('a') + i // 26)}{chr(ord('a') + i % 26)}.yaml", {
            "prefix": f"t{chr(ord('a') + i // 26)}{chr(ord('a') + i % 26)}",
            "version": 1,
            "class": "test",
            "displayName": text,
            "description": text,
            "icon": "pficon-server",
            "ratio": "1:4",
        })
    write_yaml(root / "preferences" / "traits" / "virtio-disk.yaml",
               {"description": "Virtio disks.", "spec": {"devices": {"preferredDiskBus": "virtio"}}})
    write_yaml(root / "preferences" / "quirky.yaml", {
        "osType": "linux",
        "iconClass": "icon-linux",
        "tags": ["kubevirt", "a: b", "#hash", "*star", "ünï"],
        "traits": ["virtio-disk"],
        "preferences": {f"quirky-{i}": {"displayName": text, "description": text}
                        for i, text in enumerate(TRICKY)},
    })


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], dict]:
    """The all-bundle of a real build of the small catalog, parsed by PyYAML, by (kind, name)."""
    root = tmp_path_factory.mktemp("escaping")
    small_catalog(root / "catalog")
    result = CliRunner().invoke(main, ["build", "--catalog", str(root / "catalog"), "--out", str(root / "out")])
    assert result.exit_code == 0, result.output
    text = (root / "out" / "common-instancetypes-all-bundle.yaml").read_text(encoding="utf-8")
    docs = [d for d in yaml.safe_load_all(text) if d is not None]
    return {(d["kind"], d["metadata"]["name"]): d for d in docs}


def series_name(i: int) -> str:
    return f"t{chr(ord('a') + i // 26)}{chr(ord('a') + i % 26)}1"


@pytest.mark.parametrize("i", range(len(TRICKY)), ids=[repr(t)[:30] for t in TRICKY])
def test_a_preference_display_name_and_description_come_back_exactly(documents, i):
    for kind in ("VirtualMachineClusterPreference", "VirtualMachinePreference"):
        annotations = documents[(kind, f"quirky-{i}")]["metadata"]["annotations"]
        assert annotations["openshift.io/display-name"] == TRICKY[i].strip()
        assert annotations["instancetype.kubevirt.io/description"] == TRICKY[i]  # as written, not stripped


@pytest.mark.parametrize("i", range(len(TRICKY)), ids=[repr(t)[:30] for t in TRICKY])
def test_a_series_display_name_comes_back_exactly(documents, i):
    for kind in ("VirtualMachineClusterInstancetype", "VirtualMachineInstancetype"):
        for size in ("small", "large"):
            annotations = documents[(kind, f"{series_name(i)}.{size}")]["metadata"]["annotations"]
            assert annotations["instancetype.kubevirt.io/displayName"] == TRICKY[i]
            # a description is kept as its YAML scalar says: no folding of our own
            assert annotations["instancetype.kubevirt.io/description"] == TRICKY[i]


def test_provider_and_tags_come_back_exactly(documents):
    annotations = documents[("VirtualMachineClusterPreference", "quirky-0")]["metadata"]["annotations"]
    assert annotations["openshift.io/provider-display-name"] == "  Example: \"the\" #1 provider & co  "
    assert annotations["openshift.io/documentation-url"] == "https://example.com/docs?a=1&b=2#part"
    assert annotations["tags"].split(",")[:5] == ["kubevirt", "a: b", "#hash", "*star", "ünï"]


def test_no_text_changes_the_shape_of_a_document(documents):
    """Every document is still one object with exactly the keys the template writes."""
    expected_instancetypes = 2 * 2 * len(TRICKY)
    expected_preferences = 2 * len(TRICKY)
    kinds = [kind for kind, _ in documents]
    assert kinds.count("VirtualMachineClusterInstancetype") + kinds.count("VirtualMachineInstancetype") \
        == expected_instancetypes
    assert kinds.count("VirtualMachineClusterPreference") + kinds.count("VirtualMachinePreference") \
        == expected_preferences
    for doc in documents.values():
        assert sorted(doc) == ["apiVersion", "kind", "metadata", "spec"]
        assert sorted(doc["metadata"]) == ["annotations", "labels", "name"]


@given(st.text())
@example("line\u2028separator")
@example("next\x85line")
def test_yaml_scalar_round_trips_any_text(text):
    assert yaml.safe_load(f"key: {yaml_scalar(text)}\n") == {"key": text}


@given(st.dictionaries(st.text(min_size=1), st.text() | st.integers() | st.booleans(), min_size=1))
@example({"a": "line\u2028separator", "b": "next\x85line", "c": "paragraph\u2029separator"})
@example({"multi": "line one\n\nline three\n"})
@example({"0": "\n"})  # a literal block would keep the break and end the document with "..."
@example({"0": " \u2028\n"})  # double-quoted: a reader drops a space before a raw U+2028
@example({"0": " " + "word " * 24 + "end"})  # a reader keeps the line breaks of a folded line starting with a space
def test_yaml_block_round_trips_any_mapping_of_text(mapping):
    assert yaml.safe_load(f"outer:\n  inner:{yaml_block(mapping, 4)}\n  after: 1\n") == {
        "outer": {"inner": mapping, "after": 1}}
