"""What the build accepts, its consumers read: text a catalog holds reaches kubectl kustomize and Helm intact.

A catalog's free text (display names, descriptions, the provider's names and
addresses, an overlay's annotations) becomes annotations of the objects, which
citgen writes through PyYAML's emitter: a character YAML has in text only as an
escape is written as one. What the readers of the outputs then do with it was
tried, and is pinned here with the real tools: kubectl kustomize refuses DEL, the
C1 controls, U+FFFE and U+FFFF ("control characters are not allowed"), Helm leaves
the object holding one out of a release without a word, and both take NEL (U+0085)
for a line break and write a space. The YAML reader (source/yamlsrc.py, UNCARRIED)
refuses those characters in every file citgen reads, at the line of the text that
holds one, before anything is written. Everything else reaches both tools as
written: letters of any script, emoji, tab, carriage return, the other control
characters, line and paragraph separators, bidirectional marks, a byte-order mark,
private-use characters and other noncharacters.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from generator.cli import main
from generator.source.yamlsrc import UNCARRIED
from tests.helpers import copy_catalog, kubectl, parse_stream

pytestmark = pytest.mark.heavy(6)  # seconds of a worker's time: kubectl and Helm on a build of the catalog

try:
    import helm_python
except ImportError:  # pragma: no cover - depends on the test environment
    helm_python = None

#: Each character the reader refuses, by name: the C1 controls are refused alike, these are their ends.
REFUSED = {"DEL": "\x7f", "the first C1 control": "\x80", "NEL": "\x85", "the last C1 control": "\x9f",
           "U+FFFE": "\ufffe", "U+FFFF": "\uffff"}
#: What the message says of each, after the character and its place.
WHY = ("which YAML has in text only as an escape, and which kubectl kustomize refuses and Helm leaves out of a "
       "release with its object; remove it")
WHY_NEL = ("a next line (NEL), which YAML 1.1 readers, kubectl kustomize's and Helm's among them, take for a line "
           "break and write as a space; write \\n for a line break, or remove it")
#: Text that reaches kubectl kustomize and Helm as written, in each field below.
CARRIED = ("Größe 日本語 ελληνικά עברית 😀👩‍💻 e\u0301\ttab\rCR\r\nCRLF \x01\x1b[31m\x07 \u2028\u2029 \ufeff "
           "\u202eRTL\u200f \u00a0 \ufdd0 \U0001fffe \ue000 \U0010ffff")
ANNOTATION = "instancetype.kubevirt.io/displayName"
DESCRIPTION = "instancetype.kubevirt.io/description"


def escaped(text: str) -> str:
    """``text`` as a double-quoted YAML scalar, as a person writes an escape for a character they cannot type."""
    out = []
    for char in text:
        code = ord(char)
        if char in "\\\"":
            out.append("\\" + char)
        elif 0x20 <= code < 0x7f:
            out.append(char)
        elif code <= 0xff:
            out.append(f"\\x{code:02X}")
        elif code <= 0xffff:
            out.append(f"\\u{code:04X}")
        else:
            out.append(f"\\U{code:08X}")
    return '"' + "".join(out) + '"'


def edit(path: Path, key: str, value: str) -> tuple[int, int]:
    """Write ``value`` as the value of the first line of ``path`` that starts with ``key`` (after its indentation),
    in place of its value and the lines more indented under it; the line and column where ``value`` starts."""
    lines = path.read_text(encoding="utf-8").split("\n")
    number = next(i for i, line in enumerate(lines) if line.lstrip().startswith(key))
    indent = len(lines[number]) - len(lines[number].lstrip())
    end = number + 1
    while end < len(lines) and lines[end].strip() and len(lines[end]) - len(lines[end].lstrip()) > indent:
        end += 1
    lines[number:end] = [lines[number][:indent] + key + " " + value]
    path.write_text("\n".join(lines), encoding="utf-8")
    return number + 1, indent + len(key) + 2


def build(*args: str):
    return CliRunner().invoke(main, ["build", *args])


# --------------------------------------------------------------------------- refused at the line that holds it


#: Every free-text field of a catalog's files: the file, and the key whose value is replaced.
FIELDS = {
    "catalog.yaml provider.displayName": ("catalog.yaml", "displayName:"),
    "catalog.yaml provider.documentationURL": ("catalog.yaml", "documentationURL:"),
    "catalog.yaml provider.supportURL": ("catalog.yaml", "supportURL:"),
    "series displayName": ("series/u.yaml", "displayName:"),
    "series description": ("series/u.yaml", "description:"),
    "preference displayName": ("preferences/alpine.yaml", "displayName:"),
    "preference description": ("preferences/alpine.yaml", "description:"),
    "preference iconClass": ("preferences/alpine.yaml", "iconClass:"),
    "trait description": ("preferences/traits/rng.yaml", "description:"),
}


@pytest.mark.parametrize("field", FIELDS)
def test_a_character_the_readers_do_not_carry_is_refused_in_every_free_text_field(tmp_path, field):
    file, key = FIELDS[field]
    root = copy_catalog(tmp_path / "catalog")
    line, column = edit(root / file, key, escaped("ok\x7fno"))
    result = build("--catalog", str(root), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert result.stderr == (f"{file}:{line}:{column}: error: 'ok\\x7fno' holds the control character U+007F at "
                             f"character 3, {WHY} [input]\ncitgen: 1 problem, nothing written\n")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name", REFUSED)
def test_each_character_the_readers_do_not_carry_is_refused_with_what_they_do_with_it(tmp_path, name):
    char = REFUSED[name]
    root = copy_catalog(tmp_path / "catalog")
    line, column = edit(root / "series/u.yaml", "displayName:", escaped(f"General{char}Purpose"))
    result = build("--catalog", str(root), "--out", str(tmp_path / "out"))
    control = "the control character " if char <= "\x9f" else ""
    why = WHY_NEL if char == "\x85" else WHY
    assert result.exit_code == 2
    assert result.stderr == (f"series/u.yaml:{line}:{column}: error: {f'General{char}Purpose'!r} holds "
                             f"{control}U+{ord(char):04X} at character 8, {why} [input]\ncitgen: 1 problem, nothing "
                             "written\n")
    assert not (tmp_path / "out").exists()


OVERLAY_FIELDS = {
    "annotations": "annotations:\n  example.com/team: {}\n",
    "series.change displayName": "series:\n  change:\n    u:\n      displayName: {}\n",
    "series.add description": ("series:\n  add:\n    zz:\n      version: 1\n      class: general.purpose\n"
                               "      displayName: Z\n      icon: icon-z\n      ratio: '1:2'\n      description: {}\n"),
    "preferences.change description": "preferences:\n  change:\n    alpine:\n      description: {}\n",
    "traits.add description": ("traits:\n  add:\n    extra:\n      spec: {{devices: {{preferredRng: {{}}}}}}\n"
                               "      description: {}\n"),
    "provider displayName": "provider:\n  displayName: {}\n",
}


@pytest.mark.parametrize("field", OVERLAY_FIELDS)
def test_an_overlay_s_text_is_refused_at_its_line(tmp_path, field):
    overlay = tmp_path / "overlay.yaml"
    text = OVERLAY_FIELDS[field].format(escaped("a\ufffeb"))
    overlay.write_text(text, encoding="utf-8")
    last = text.rstrip("\n").rsplit("\n", 1)[-1]
    line, column = text.rstrip("\n").count("\n") + 1, last.index('"') + 1
    result = build("--overlay", str(overlay), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert result.stderr == (f"{overlay}:{line}:{column}: error: 'a\\ufffeb' holds U+FFFE at character 2, {WHY} "
                             "[input]\ncitgen: 1 problem, nothing written\n")
    assert not (tmp_path / "out").exists()


def test_a_character_written_as_it_is_is_refused_where_it_is(tmp_path):
    root = copy_catalog(tmp_path / "catalog")
    line, column = edit(root / "series/u.yaml", "displayName:", "Général\x7f")
    result = build("--catalog", str(root), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert result.stderr == (f"series/u.yaml:{line}:{column + 7}: error: malformed YAML: unacceptable character "
                             "U+007F: control characters are not allowed [input]\ncitgen: 1 problem, nothing written\n")


def test_every_character_the_reader_refuses_is_one_the_pattern_names():
    assert all(UNCARRIED.fullmatch(char) for char in REFUSED.values())
    assert not UNCARRIED.search(CARRIED)


# --------------------------------------------------------------------------- carried intact


@pytest.fixture(scope="module")
def carried_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A build whose series u, preference alpine, provider and an overlay's annotation hold CARRIED."""
    root = copy_catalog(tmp_path_factory.mktemp("carried") / "catalog")
    edit(root / "series/u.yaml", "displayName:", escaped(CARRIED))
    edit(root / "series/u.yaml", "description:", escaped("u: " + CARRIED))
    edit(root / "preferences/alpine.yaml", "displayName:", escaped("alpine " + CARRIED))
    edit(root / "catalog.yaml", "displayName:", escaped("provider " + CARRIED))
    overlay = root / "overlay.yaml"
    overlay.write_text("annotations:\n  example.com/note: " + escaped("note " + CARRIED) + "\n", encoding="utf-8")
    out = root.parent / "out"
    result = build("--catalog", str(root), "--overlay", str(overlay), "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


def expected(doc: dict[str, Any]) -> dict[str, str]:
    """The annotations holding CARRIED that ``doc`` must have, by its kind and name."""
    annotations = {"example.com/note": "note " + CARRIED}
    if doc["kind"].endswith("Instancetype") and doc["metadata"]["name"].startswith("u1."):
        annotations.update({ANNOTATION: CARRIED, DESCRIPTION: "u: " + CARRIED})
    if doc["kind"].endswith("Preference"):
        annotations["openshift.io/provider-display-name"] = "provider " + CARRIED
        if doc["metadata"]["name"] == "alpine":
            annotations["openshift.io/display-name"] = "alpine " + CARRIED
    return annotations


def assert_carried(docs: list[dict[str, Any]], bundle: list[dict[str, Any]]) -> None:
    assert len(docs) == len(bundle) > 200
    assert {(d["kind"], d["metadata"]["name"]) for d in docs} == {(d["kind"], d["metadata"]["name"]) for d in bundle}
    for doc in docs:
        written = doc["metadata"]["annotations"]
        assert {key: written.get(key) for key in expected(doc)} == expected(doc), doc["metadata"]["name"]


def all_bundle(out: Path) -> list[dict[str, Any]]:
    return parse_stream((out / "common-instancetypes-all-bundle.yaml").read_text(encoding="utf-8"))


def test_the_bundles_hold_the_text_as_written(carried_build):
    assert_carried(all_bundle(carried_build), all_bundle(carried_build))


def test_kubectl_kustomize_reads_the_text_as_written(carried_build):
    run = subprocess.run([kubectl(), "kustomize", str(carried_build / "kustomize")], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert_carried(parse_stream(run.stdout), all_bundle(carried_build))


def test_kubectl_kustomize_with_an_older_release_s_component_reads_the_text_as_written(carried_build, tmp_path):
    (tmp_path / "kustomization.yaml").write_text(yaml.safe_dump({
        "apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization", "sortOptions": {"order": "fifo"},
        "resources": [os.path.relpath(carried_build / "kustomize", tmp_path)],
        "components": [os.path.relpath(carried_build / "kustomize" / "components" / "kubevirt-v1.0", tmp_path)]},
        sort_keys=False), encoding="utf-8")
    run = subprocess.run([kubectl(), "kustomize", str(tmp_path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    docs = parse_stream(run.stdout)
    assert len(docs) > 200
    for doc in docs:
        written = doc["metadata"]["annotations"]
        assert {key: written.get(key) for key in expected(doc)} == expected(doc), doc["metadata"]["name"]


@pytest.fixture(scope="module")
def helm() -> Any:
    if helm_python is None:  # pragma: no cover - depends on the test environment
        pytest.skip("helm-python-sdk is not installed")
    return helm_python


def rendered(helm: Any, chart: Path, values: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    with helm.Chart.load(str(chart)) as loaded:
        out = loaded.render(values or {}, name="catalog", namespace="vms")
    return [doc for name, text in out.items() if not name.endswith("NOTES.txt") for doc in parse_stream(text)]


def test_helm_renders_the_text_as_written(carried_build, helm):
    assert_carried(rendered(helm, carried_build / "helm" / "common-instancetypes"), all_bundle(carried_build))


# --------------------------------------------------------------------------- why: what the tools do with the others


def configmap(tmp_path: Path, char: str) -> Path:
    (tmp_path / "kustomization.yaml").write_text("resources:\n- cm.yaml\n", encoding="utf-8")
    (tmp_path / "cm.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations:\n"
                                      f"    note: {escaped('a' + char + 'b')}\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("name", REFUSED)
def test_kubectl_kustomize_refuses_or_changes_what_the_reader_refuses(tmp_path, name):
    char = REFUSED[name]
    run = subprocess.run([kubectl(), "kustomize", str(configmap(tmp_path, char))], capture_output=True, text=True)
    if char == "\x85":
        assert run.returncode == 0 and parse_stream(run.stdout)[0]["metadata"]["annotations"]["note"] == "a b"
    else:
        assert run.returncode != 0 and "yaml: control characters are not allowed" in run.stderr


@pytest.mark.parametrize("name", REFUSED)
def test_helm_leaves_out_or_changes_what_the_reader_refuses(previous_output, tmp_path, helm, name):
    char = REFUSED[name]
    chart = tmp_path / "chart"
    shutil.copytree(previous_output / "helm" / "common-instancetypes", chart)
    objects = json.loads((chart / "catalog" / "objects.json").read_text(encoding="utf-8"))
    first = objects["instancetypes"][0]
    before = rendered(helm, chart)
    holding = [d for d in before if d["metadata"]["name"] == first["name"]]
    assert holding

    def add(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key == ANNOTATION and isinstance(item, str):
                    value[key] = item + char
                else:
                    add(item)
        elif isinstance(value, list):
            for item in value:
                add(item)

    add(first)
    (chart / "catalog" / "objects.json").write_text(json.dumps(objects), encoding="utf-8")
    after = rendered(helm, chart)
    names = [d["metadata"]["name"] for d in after]
    if char == "\x85":
        assert len(after) == len(before)
        assert {d["metadata"]["annotations"][ANNOTATION] for d in after if d["metadata"]["name"] == first["name"]} \
            == {holding[0]["metadata"]["annotations"][ANNOTATION] + " "}
    else:
        assert first["name"] not in names and len(after) == len(before) - len(holding)
