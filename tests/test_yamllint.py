"""Every YAML file citgen writes, and the built-in catalog's own files, pass upstream's lint.

Upstream's release lints its generated bundles and its sources with yamllint and
the Kubernetes-style configuration kept in ``.yamllint``; ours is written in this
repository and run here through yamllint's Python API. Upstream's own bundles pass
it with no finding, which shows the configuration is the one they meet.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Mapping

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from yamllint import linter
from yamllint.config import YamlLintConfig

from generator.cli import main
from generator.pipeline import BuildOptions, generate
from tests.conftest import UPSTREAM, shared_file
from tests.helpers import REPO, default_build
from tests.test_render_yamltext import KEY, PROSE, in_template, prose_data

pytestmark = pytest.mark.heavy(11)  # seconds of a worker's time: run early (conftest.py)

CONFIG_FILE = REPO / ".yamllint"
CONFIG = YamlLintConfig(file=str(CONFIG_FILE))
EXAMPLES = REPO / "examples"
#: Helm's Go templates are text with YAML in it, not YAML: neither Helm nor upstream lints them.
GO_TEMPLATES = "helm/common-instancetypes/templates/"


#: What the lint found in each document text, so each is linted once per session: the kind
#: bundles, the all-bundle and the kustomize tree's resource files hold the very same documents.
_LINTED: dict[str, tuple[tuple[int, int, str, str], ...]] = {}


def findings(text: str, name: str) -> list[str]:
    """yamllint's findings in ``text``, document by document, as ``name:line:column: message (rule)``."""
    out = []
    offset = 0
    for document in re.split(r"(?m)^(?=---$)", text):
        if not document:
            continue
        found = _LINTED.get(document)
        if found is None:
            found = _LINTED[document] = tuple((p.line, p.column, p.desc, p.rule)
                                              for p in linter.run(document, CONFIG))
        out += [f"{name}:{line + offset}:{column}: {desc} ({rule})" for line, column, desc, rule in found]
        offset += document.count("\n")
    return out


def yaml_files(files: Mapping[str, bytes]) -> dict[str, str]:
    return {name: data.decode() for name, data in sorted(files.items())
            if name.endswith((".yaml", ".yml")) and GO_TEMPLATES not in name}


def test_the_configuration_is_upstreams():
    configured = yaml.safe_load(CONFIG_FILE.read_text())
    configured.pop("ignore")  # which files `yamllint .` skips here: test_the_whole_repository_passes
    assert configured == {
        "extends": "default",
        "rules": {
            "line-length": {"max": 120, "allow-non-breakable-words": True},
            "indentation": {"spaces": 2, "indent-sequences": "whatever"},
            "truthy": {"check-keys": False},
            "empty-lines": {"max-end": 1},
            "document-start": "disable",
            "document-end": "disable",
        },
    }


def test_the_whole_repository_passes(monkeypatch: pytest.MonkeyPatch):
    """`yamllint .` at the top of a checkout, as a contributor or a pre-commit hook runs it: on every file it finds
    but the committed outputs that are, byte for byte, the default build's (most of the time it took), which
    test_every_yaml_file_of_the_default_build_passes lints a document at a time."""
    from yamllint.cli import find_files_recursively, run as yamllint

    monkeypatch.chdir(REPO)  # the configuration's ignore patterns are relative to it
    built = default_build().files
    found = [name for name in find_files_recursively(["."], CONFIG)]
    assert any(name.startswith("./bundles/") for name in found)
    files = [name for name in found if not _as_built(name, built)]
    assert "./catalog.yaml" in files and len(files) > 30
    with pytest.raises(SystemExit) as ended:
        yamllint(["--strict", *files])
    assert ended.value.code == 0


def _as_built(name: str, built: Mapping[str, bytes]) -> bool:
    """Whether ``name`` (``./bundles/...``) is a committed output with the bytes the default build gives it."""
    inside = name.removeprefix("./bundles/")
    return inside != name and built.get(inside) == (REPO / name).read_bytes()


def test_it_finds_what_upstream_refuses():
    text = "metadata:\n  annotations:\n    note: " + "a long line of words " * 6 + "\n"
    assert findings(text, "x.yaml") == ["x.yaml:3:121: line too long (136 > 120 characters) (line-length)",
                                        "x.yaml:3:136: trailing spaces (trailing-spaces)"]
    one_word = "url:\n  " + "x" * 130 + "\n"
    assert findings(one_word, "x.yaml") == []  # allow-non-breakable-words
    blank = "a: |\n  one\n\n\n\n  two\n"
    assert findings(blank, "x.yaml") == ["x.yaml:5:1: too many blank lines (3 > 2) (empty-lines)"]


def test_upstreams_own_bundles_pass_it():
    upstream = shared_file(UPSTREAM)
    bundles = sorted(upstream.glob("*.yaml"))
    assert len(bundles) == 6
    for path in bundles:
        assert findings(path.read_text(encoding="utf-8"), path.name) == []


def test_every_yaml_file_of_the_default_build_passes():
    files = yaml_files(default_build().files)
    assert {"common-instancetypes-all-bundle.yaml", "kustomize/kustomization.yaml",
            "kustomize/instancetypes/cluster/u/u.yaml", "helm/common-instancetypes/values.yaml",
            "helm/common-instancetypes/Chart.yaml"} <= set(files)
    assert [f for name, text in files.items() for f in findings(text, name)] == []


@pytest.mark.parametrize("options", [
    BuildOptions(gpu_device="nvidia.com/GH100", gpu_count=2),
    BuildOptions(catalog=EXAMPLES / "edge"),
    BuildOptions(catalog=EXAMPLES / "gpu-cloud"),
    BuildOptions(policy=True),  # the policy file, its component and the chart's values with it
], ids=["gpu", "example-edge", "example-gpu-cloud", "policy"])
def test_other_builds_pass(options: BuildOptions):
    files = yaml_files(generate(options).files)
    assert [f for name, text in files.items() for f in findings(text, name)] == []


def test_the_built_in_catalogs_own_files_pass():
    sources = [REPO / "catalog.yaml", CONFIG_FILE, *sorted((REPO / "series").glob("*.yaml")),
               *sorted((REPO / "preferences").rglob("*.yaml")), *sorted(EXAMPLES.rglob("*.yaml"))]
    assert len(sources) > 30
    problems = [f for path in sources for f in findings(path.read_text(encoding="utf-8"),
                                                        path.relative_to(REPO).as_posix())]
    assert problems == []


def test_what_citgen_init_writes_passes(tmp_path: Path):
    result = CliRunner().invoke(main, ["init", str(tmp_path / "mine")])
    assert result.exit_code == 0, result.output
    written = sorted((tmp_path / "mine").rglob("*.yaml"))
    assert written
    for path in written:
        assert findings(path.read_text(encoding="utf-8"), path.name) == []


@given(st.dictionaries(KEY, prose_data(PROSE), min_size=1, max_size=3), st.sampled_from([2, 4, 6, 8, 12]))
def test_prose_at_any_depth_passes(value, indent: int):
    """Descriptions of any script and punctuation, with line breaks, blank lines, indented lines
    and words too long for a line, are written within the lint's limits at any depth."""
    assert findings(in_template(value, indent), "x.yaml") == []


def test_sentences_two_spaces_apart_and_emoji_pass():
    description = ("Dedicated vCPUs for latency-sensitive work.  Each vCPU is pinned to a host core of its own.  "
                   "Memory is backed by hugepages 🚀 and the emulator thread is kept off the guest's cores.  "
                   "Use it for network functions and databases.")
    text = in_template({"instancetype.kubevirt.io/description": description, "other": "x"}, 4)
    assert yaml.safe_load(text) == {"k0": {"k1": {"instancetype.kubevirt.io/description": description,
                                                   "other": "x"}}}
    assert findings(text, "x.yaml") == []


def test_quoted_text_with_long_runs_between_line_breaks_passes():
    """Text no block style can carry (an indented line, two spaces in a row) goes in double
    quotes, where every line break is an escape: lines are broken after those escapes too,
    not only at spaces, so short lines joined by escapes do not make one word too long."""
    description = ("A line of words that runs on well past what one line of the bundle can hold, "
                   "with a short one after: x 0000000000000000000000000000000000000000\n0\n00000000000000\n\n"
                   + "0" * 50 + "\n  " + "0" * 50)
    text = in_template({"a": description, "b": "0"}, 2)
    assert yaml.safe_load(text) == {"k0": {"a": description, "b": "0"}}
    assert findings(text, "x.yaml") == []
