"""Templates that run away (issue 14, class 3): each way out of the bounds stops the build.

A vendor catalog's template can build a string, loop or recurse without end;
each test below does it one way through a real ``citgen build`` in a child
process, and checks the exact message (the template's file and line, the limit
and how to raise it), exit code 2, that the earlier outputs are byte-for-byte
as they were, and the child's peak memory, measured from a process of its own.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.tools.vendor_init import init_catalog
from tests.helpers import snapshot

pytestmark = pytest.mark.heavy(17)  # seconds of a worker's time: run early (conftest.py)

#: The built-in instancetype template with a line of the test's at line 8.
TEMPLATE = """\
---
apiVersion: {{ api_version }}
kind: {{ kind }}
metadata:
  annotations:{{ annotations | yaml_block(4) }}
  labels:{{ labels | yaml_block(4) }}
  name: {{ name | yaml_scalar }}
%s
spec:{{ spec | yaml_block(2) }}
"""
WHERE = "templates/instancetype.yaml.j2:8"
SIZE = "characters or items (set CITGEN_TEMPLATE_MAX_SIZE to raise the limit)"
MiB = 1024 * 1024
#: Far below 1 GiB: citgen itself takes about 30 MiB, and no refused value is made.
PEAK_BOUND = 128 * MiB

#: Runs citgen as its only child, so RUSAGE_CHILDREN is citgen's own peak and nobody else's.
MEASURE = """\
import json, resource, subprocess, sys
done = subprocess.run(sys.argv[2:], capture_output=True, text=True, timeout=float(sys.argv[1]))
print(json.dumps({"code": done.returncode, "stdout": done.stdout, "stderr": done.stderr,
                  "peak": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024}))
"""


def run_citgen(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> dict:
    """``citgen ARGS`` in a child process: its exit code, output and peak resident memory in bytes."""
    command = [sys.executable, "-c", MEASURE, str(timeout), sys.executable, "-m", "generator.cli", *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout + 30,
                          env={**os.environ, **(env or {})})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def outputs(tmp_path: Path, previous_output: Path) -> tuple[Path, dict[str, bytes]]:
    """(an output directory holding an earlier build, its files) for one test to try to replace."""
    out = tmp_path / "out"
    shutil.copytree(previous_output, out)
    return out, snapshot(out)


def hostile_catalog(root: Path, line: str) -> Path:
    """A vendor catalog extending the built-in one, whose instancetype template has ``line`` at line 8."""
    init_catalog(root)
    (root / "templates").mkdir()
    (root / "templates" / "instancetype.yaml.j2").write_text(TEMPLATE % line)
    return root


ESCAPES = {
    "'~' in a loop": (
        "{% set ns = namespace(text='x') %}{% for i in range(64) %}{% set ns.text = ns.text ~ ns.text %}"
        "{% endfor %}",
        f"the text built with '~' would be longer than 1000000 {SIZE}"),
    "join": (
        "# {{ range(100000) | join('x' * 100) }}",
        f"the result of the join filter would be longer than 1000000 {SIZE}"),
    "format filter": (
        "# {{ '%0999999999d' | format(1) }}",
        f"the result of the format filter would be longer than 1000000 {SIZE}"),
    "str.format": (
        "# {{ '{:>999999999}'.format(name) }}",
        f"the result of str.format() would be longer than 1000000 {SIZE}"),
    "% formatting": (
        "# {{ '%(n)s' * 200 % {'n': 'x' * 10000} }}",
        f"the result of '%' would be longer than 1000000 {SIZE}"),
    "indent": (
        "# {{ name | indent(999999999) }}",
        f"the result of the indent filter would be longer than 1000000 {SIZE}"),
    "center": (
        "# {{ name | center(10 ** 9) }}",
        f"the result of the center filter would be longer than 1000000 {SIZE}"),
    "replace": (
        "# {{ ('x' * 1000) | replace('', 'y' * 1000) }}",
        f"the result of the replace filter would be longer than 1000000 {SIZE}"),
    "a str method with a width": (
        "# {{ name.ljust(10 ** 12) }}",
        f"the result of str.ljust() would be longer than 1000000 {SIZE}"),
    "string '*'": (
        "# {{ 'ab' * 600000 }}",
        f"the result of '*' would be longer than 1000000 {SIZE}"),
    "namespace accumulation": (
        "{% set ns = namespace(text='') %}{% for i in range(1000) %}{% set ns.text = ns.text ~ name * 1000 %}"
        "{% endfor %}",
        f"the text built with '~' would be longer than 1000000 {SIZE}"),
    "a list doubled in a namespace": (
        "{% set ns = namespace(items=[name]) %}{% for i in range(100) %}{% set ns.items = [ns.items, ns.items] %}"
        "{% endfor %}",
        f"a list the template builds would be longer than 1000000 {SIZE}"),
    "a lazy sequence without end": (
        "# {{ 0 in ([1] | slice(10 ** 9)) }}",
        f"the result of the slice filter would be longer than 1000000 {SIZE}"),
    "rendered text": (
        "{% for i in range(2000) %}# {{ name * 100 }}\n{% endfor %}",
        f"the rendered text would be longer than 1000000 {SIZE}"),
    "nested loops": (
        "{% for i in range(1000) %}{% for j in range(1000) %}{% for k in range(10) %}{% endfor %}{% endfor %}"
        "{% endfor %}",
        "template exceeded a limit: more than 1000000 loop iterations in one rendering "
        "(set CITGEN_TEMPLATE_MAX_ITERATIONS to raise the limit)"),
    "a recursive macro": (
        "{% macro down(n) %}{{ down(n + 1) }}{% endmacro %}# {{ down(0) }}",
        "template exceeded a limit: calls (macros, caller(), recursive loops) nested more than 100 deep"),
    "a template that includes itself": (
        "{% include 'instancetype.yaml.j2' %}",
        "template exceeded a limit: nested too deeply (a template or macro that includes, extends or calls "
        "itself without end, or a value nested thousands of levels deep)"),
    "a huge number": (
        "# {{ 7 ** 99999 }}",
        "template exceeded a limit: the result of '**' would be a number of more than 4096 bits"),
}


@pytest.mark.parametrize("line, message", ESCAPES.values(), ids=ESCAPES.keys())
def test_a_template_that_runs_away_stops_the_build_where_it_does(tmp_path, outputs, line, message):
    out, before = outputs
    catalog = hostile_catalog(tmp_path / "vendor", line)
    # the clock is not what these cases test: a slow machine (or a run under mutmut) must still meet
    # the limit each one is about, not the time limit first
    result = run_citgen("build", "--catalog", str(catalog), "--out", str(out), env={"CITGEN_TEMPLATE_SECONDS": "600"})
    if not message.startswith("template exceeded"):
        message = "template exceeded a limit: " + message
    assert result["stderr"] == f"error: {WHERE}: {message}\ncitgen: 1 problem, nothing written\n"
    assert result["code"] == 2
    assert snapshot(out) == before
    assert result["peak"] < PEAK_BOUND


def test_a_slow_template_stops_at_the_time_limit(tmp_path, outputs):
    out, before = outputs
    line = ("{% set items = range(100000) | list %}{% for i in range(100000) %}{% set ordered = items | sort %}"
            "{% endfor %}")
    catalog = hostile_catalog(tmp_path / "vendor", line)
    result = run_citgen("build", "--catalog", str(catalog), "--out", str(out),
                        env={"CITGEN_TEMPLATE_SECONDS": "0.5"})
    assert result["stderr"] == (f"error: {WHERE}: template exceeded a limit: one rendering took longer than "
                                "0.5 seconds (set CITGEN_TEMPLATE_SECONDS to raise the limit)\n"
                                "citgen: 1 problem, nothing written\n")
    assert result["code"] == 2
    assert snapshot(out) == before


def test_many_slow_renderings_stop_at_the_limit_for_all_of_them(tmp_path, outputs):
    out, before = outputs
    line = "{% for i in range(100000) %}{% endfor %}"  # a fraction of a second, for each of the objects
    catalog = hostile_catalog(tmp_path / "vendor", line)
    result = run_citgen("build", "--catalog", str(catalog), "--out", str(out),
                        env={"CITGEN_TEMPLATE_TOTAL_SECONDS": "1"})
    assert result["stderr"] == (f"error: {WHERE}: template exceeded a limit: rendering through this template "
                                "took longer than 1 seconds in all (set CITGEN_TEMPLATE_TOTAL_SECONDS to raise "
                                "the limit)\ncitgen: 1 problem, nothing written\n")
    assert result["code"] == 2
    assert snapshot(out) == before


def test_values_kept_alive_at_once_stop_at_the_memory_limit(tmp_path, outputs):
    """Each value is within the size limit; a hundred of them alive at once are not within memory."""
    out, before = outputs
    line = ("{% macro keep(n, held) %}{% if n %}{{ keep(n - 1, range(100000) | list) }}{% endif %}{% endmacro %}"
            "# {{ keep(99, []) }}")
    catalog = hostile_catalog(tmp_path / "vendor", line)
    result = run_citgen("build", "--catalog", str(catalog), "--out", str(out),
                        env={"CITGEN_TEMPLATE_MAX_MEMORY": "64"})
    assert result["stderr"] == (f"error: {WHERE}: template exceeded a limit: one rendering took more than 64 MiB "
                                "of memory (set CITGEN_TEMPLATE_MAX_MEMORY to raise the limit)\n"
                                "citgen: 1 problem, nothing written\n")
    assert result["code"] == 2
    assert snapshot(out) == before
    assert result["peak"] < 64 * MiB + 150 * MiB  # citgen itself, plus at most the limit


def test_a_raised_limit_lets_a_large_template_through(tmp_path):
    catalog = hostile_catalog(tmp_path / "vendor", "# {{ 'ab' * 600000 }}")
    result = run_citgen("build", "--catalog", str(catalog), "--out", str(tmp_path / "out"),
                        env={"CITGEN_TEMPLATE_MAX_SIZE": "2000000", "CITGEN_TEMPLATE_TOTAL_SECONDS": "600"})
    assert result["code"] == 0, result["stderr"]
    bundle = (tmp_path / "out" / "common-clusterinstancetypes-bundle.yaml").read_text()
    assert "# " + "ab" * 600000 + "\n" in bundle


def test_a_limit_that_is_not_a_number_is_refused(tmp_path):
    result = run_citgen("build", "--out", str(tmp_path / "out"),
                        env={"CITGEN_TEMPLATE_SECONDS": "soon", "CITGEN_TEMPLATE_MAX_SIZE": "0"})
    assert result["stderr"] == (
        "error: CITGEN_TEMPLATE_MAX_SIZE: expected a whole number at least 1, got '0'\n"
        "error: CITGEN_TEMPLATE_SECONDS: expected a number of seconds greater than 0, got 'soon'\n"
        "citgen: 2 problems, nothing written\n")
    assert result["code"] == 2
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("template, line", [
    ("kustomize/kustomization.yaml.j2", "# {{ range(100000) | join('x' * 100) }}"),
    ("helm/values.yaml.j2", "{% for i in range(10000) %}{% for j in range(1000) %}{% endfor %}{% endfor %}"),
], ids=["kustomization", "helm values"])
def test_the_kustomize_and_helm_templates_have_the_same_bounds(tmp_path, outputs, template, line):
    out, before = outputs
    catalog = tmp_path / "vendor"
    init_catalog(catalog)
    (catalog / "templates" / template).parent.mkdir(parents=True)
    (catalog / "templates" / template).write_text(f"# first line\n{line}\n")
    # the clock set aside: on a busy machine ten seconds pass before a million iterations do
    result = run_citgen("build", "--catalog", str(catalog), "--out", str(out),
                        env={"CITGEN_TEMPLATE_SECONDS": "600", "CITGEN_TEMPLATE_TOTAL_SECONDS": "600"})
    limit = (f"the result of the join filter would be longer than 1000000 {SIZE}" if "join" in line else
             "more than 1000000 loop iterations in one rendering (set CITGEN_TEMPLATE_MAX_ITERATIONS to raise "
             "the limit)")
    assert result["stderr"] == (f"error: templates/{template}:2: template exceeded a limit: {limit}\n"
                                "citgen: 1 problem, nothing written\n")
    assert result["code"] == 2
    assert snapshot(out) == before
    assert result["peak"] < PEAK_BOUND
