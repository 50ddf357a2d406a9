"""Templates that run away (issue 14, class 3): each way out of the bounds stops the build.

A vendor catalog's template can build a string, loop or recurse without end;
each test below does it one way through a real ``citgen build`` in a process of
its own (forked from one that imported citgen, tests.helpers.ForkedCitgen), and
checks the exact message (the template's file and line, the limit and how to
raise it), exit code 2, that the earlier outputs are byte-for-byte as they were,
and the process's peak memory, its rendering child's included.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path
from typing import Callable

import pytest

from generator.tools.vendor_init import init_catalog
from tests.helpers import ForkedCitgen, snapshot

pytestmark = pytest.mark.heavy(6)  # seconds of a worker's time: run early (conftest.py)

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
MiB = 1024 * 1024
#: Far below 1 GiB: citgen itself takes about 35 MiB.
PEAK_BOUND = 128 * MiB

@pytest.fixture
def run_citgen(forked_citgen: ForkedCitgen, tmp_path: Path) -> Callable[..., dict]:
    """``citgen ARGS`` as a process of its own, in tmp_path with ``env`` added: its exit code, output and peak
    resident memory in bytes (its rendering child's included). The process is forked from one that imported
    citgen once (tests.helpers.ForkedCitgen), not a new interpreter: the limits are the process's, not its start."""
    def run(*args: str, env: dict[str, str] | None = None) -> dict:
        result = forked_citgen.run(*args, cwd=tmp_path, env=env)
        assert result["traceback"] == "", result["traceback"]
        return result
    return run


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


#: The first object the hostile template renders: its name, as the messages show it.
FIRST = "rendering 'cx1.2xlarge' as VirtualMachineClusterInstancetype"
TIME = "(set CITGEN_TEMPLATE_SECONDS to raise the limit)"
MEMORY = "took more than 256 MiB of memory (set CITGEN_TEMPLATE_MAX_MEMORY to raise the limit)"
NESTED = ("nested too deeply (a template or macro that includes, extends or calls itself without end, "
          "or a value nested thousands of levels deep)")

#: Templates that go past a bound at a line the rendering reaches: (line, where, message).
AT_A_LINE = {
    "a 10 GB string in one C call": ("# {{ name.ljust(10 ** 10) }}", WHERE, f"{FIRST} {MEMORY}"),
    "'~' in a loop": (
        "{% set ns = namespace(text='x') %}{% for i in range(64) %}{% set ns.text = ns.text ~ ns.text %}"
        "{% endfor %}", WHERE, f"{FIRST} {MEMORY}"),
    "format filter": ("# {{ '%0999999999d' | format(1) }}", WHERE, f"{FIRST} {MEMORY}"),
    "str.format": ("# {{ '{:>999999999}'.format(name) }}", WHERE, f"{FIRST} {MEMORY}"),
    "indent": ("# {{ name | indent(999999999) }}", WHERE, f"{FIRST} {MEMORY}"),
    "a recursive macro": ("{% macro down(n) %}{{ down(n + 1) }}{% endmacro %}# {{ down(0) }}", WHERE,
                          f"{FIRST} {NESTED}"),
    "a template that includes itself": ("{% include 'instancetype.yaml.j2' %}", WHERE, f"{FIRST} {NESTED}"),
    "rendered text": (
        "{% for i in range(2000) %}# {{ name * 100 }}\n{% endfor %}", WHERE.split(":")[0],
        f"{FIRST} gave a text longer than 1000000 characters (set CITGEN_TEMPLATE_MAX_SIZE to raise the limit)"),
}

#: Templates that never finish, each stopped by the parent at the time limit.
ENDLESS = {
    "a loop for ever": "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
    "a power that takes minutes": "# {{ (7 ** 99999999) % 10 }}",
    "a lazy sequence without end": "# {{ 0 in ([1] | slice(10 ** 9)) }}",
    # 20,000 different characters: punycode spends minutes on them in one C-level call
    "punycode of a long text": "# {{ '%s'.encode('punycode') }}" % "".join(chr(0x4E00 + i) for i in range(20000)),
}


@pytest.mark.parametrize("line, where, message", AT_A_LINE.values(), ids=AT_A_LINE.keys())
def test_a_template_that_runs_away_stops_the_build_where_it_does(run_citgen, tmp_path, outputs, line, where, message):
    out, before = outputs
    catalog = hostile_catalog(tmp_path / "vendor", line)
    # the clock is not what these cases test: a slow machine (or a run under mutmut) must still meet
    # the limit each one is about, not the time limit first
    result = run_citgen("build", "--catalog", str(catalog), "--out", str(out), env={"CITGEN_TEMPLATE_SECONDS": "600"})
    assert result["stderr"] == (f"{where}: error: template exceeded a limit: {message} [input]\n"
                                "citgen: 1 problem, nothing written\n")
    assert result["code"] == 2
    assert snapshot(out) == before
    assert result["peak"] < PEAK_BOUND + 256 * MiB  # citgen, and its rendering child at most at its limit


def test_values_kept_alive_at_once_stop_at_the_memory_limit(run_citgen, tmp_path, outputs):
    """Each value is small; a hundred of them alive at once are not. Memory runs out inside the
    interpreter, which cannot always tell the template's line then: the template and the bound it says."""
    out, before = outputs
    line = ("{% macro keep(n, held) %}{% if n %}{{ keep(n - 1, range(100000) | list) }}{% endif %}{% endmacro %}"
            "# {{ keep(99, []) }}")
    catalog = hostile_catalog(tmp_path / "vendor", line)
    result = run_citgen("build", "--catalog", str(catalog), "--out", str(out), env={"CITGEN_TEMPLATE_SECONDS": "600"})
    assert re.fullmatch(rf"templates/instancetype\.yaml\.j2(:8)?: error: template exceeded a limit: "
                        rf"{re.escape(FIRST + ' ' + MEMORY)} \[input\]\ncitgen: 1 problem, nothing written\n",
                        result["stderr"]), result["stderr"]
    assert result["code"] == 2
    assert snapshot(out) == before
    assert result["peak"] < PEAK_BOUND + 256 * MiB


#: The time limit of the endless templates: the rendering that meets it is the build's first, so no rendering before
#: it can run out of time on a busy machine, and the child spins for no longer than this.
ENDLESS_SECONDS = 0.2


@pytest.mark.parametrize("line", ENDLESS.values(), ids=ENDLESS.keys())
def test_a_template_that_never_finishes_stops_within_a_second_of_the_time_limit(run_citgen, tmp_path, outputs, line):
    out, before = outputs
    catalog = hostile_catalog(tmp_path / "vendor", line)
    started = time.monotonic()
    result = run_citgen("build", "--catalog", str(catalog), "--out", str(out),
                        env={"CITGEN_TEMPLATE_SECONDS": str(ENDLESS_SECONDS)})
    took = time.monotonic() - started
    assert result["stderr"] == (f"templates/instancetype.yaml.j2: error: template exceeded a limit: {FIRST} took "
                                f"longer than {ENDLESS_SECONDS} seconds {TIME} [input]\n"
                                "citgen: 1 problem, nothing written\n")
    assert result["code"] == 2
    assert snapshot(out) == before
    assert took < ENDLESS_SECONDS + 1 + 2  # the limit, a second, and citgen's own start and load of the catalog


def test_many_slow_renderings_stop_at_the_limit_for_all_of_them(run_citgen, tmp_path, outputs):
    out, before = outputs
    line = "{% for i in range(100000) %}{% endfor %}" * 4  # a fraction of a second, for each of the objects
    catalog = hostile_catalog(tmp_path / "vendor", line)
    result = run_citgen("build", "--catalog", str(catalog), "--out", str(out),
                        env={"CITGEN_TEMPLATE_TOTAL_SECONDS": "0.2"})
    assert re.fullmatch(
        r"templates/instancetype\.yaml\.j2: error: template exceeded a limit: rendering '[^']+' as "
        r"VirtualMachine\w+ went past 0\.2 seconds, the time all of a build's renderings may take "
        r"\(set CITGEN_TEMPLATE_TOTAL_SECONDS to raise the limit\) \[input\]\ncitgen: 1 problem, nothing written\n",
        result["stderr"]), result["stderr"]
    assert result["code"] == 2
    assert snapshot(out) == before


def test_a_raised_limit_lets_a_large_template_through(run_citgen, tmp_path):
    """One rendering of 1.2 MB, past the default 1 MB a rendering, is written once the limit is raised."""
    catalog = hostile_catalog(tmp_path / "vendor", "{% if name == 'cx1.2xlarge' %}# {{ 'ab' * 600000 }}{% endif %}")
    result = run_citgen("build", "--catalog", str(catalog), "--out", str(tmp_path / "out"),
                        env={"CITGEN_TEMPLATE_MAX_SIZE": "2000000"})
    assert result["code"] == 0, result["stderr"]
    bundle = (tmp_path / "out" / "common-clusterinstancetypes-bundle.yaml").read_text()
    assert bundle.count("# " + "ab" * 600000 + "\n") == 1


def test_a_limit_that_is_not_a_number_is_refused(run_citgen, tmp_path):
    result = run_citgen("build", "--out", str(tmp_path / "out"),
                        env={"CITGEN_TEMPLATE_SECONDS": "soon", "CITGEN_TEMPLATE_MAX_SIZE": "0"})
    assert result["stderr"] == (
        "CITGEN_TEMPLATE_MAX_SIZE: error: expected a whole number at least 1, got '0' [input]\n"
        "CITGEN_TEMPLATE_SECONDS: error: expected a number of seconds greater than 0, got 'soon' [input]\n"
        "citgen: 2 problems, nothing written\n")
    assert result["code"] == 2
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("template, line, message", [
    ("kustomize/kustomization.yaml.j2", "# {{ name | default('x') | indent(999999999) }}",
     "one rendering took more than 256 MiB of memory (set CITGEN_TEMPLATE_MAX_MEMORY to raise the limit)"),
    ("helm/values.yaml.j2", "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
     f"one rendering took longer than 0.5 seconds {TIME}"),
], ids=["kustomization", "helm values"])
def test_the_kustomize_and_helm_templates_have_the_same_bounds(run_citgen, tmp_path, outputs, template, line, message):
    out, before = outputs
    catalog = tmp_path / "vendor"
    init_catalog(catalog)
    (catalog / "templates" / template).parent.mkdir(parents=True)
    (catalog / "templates" / template).write_text(f"# first line\n{line}\n")
    result = run_citgen("build", "--catalog", str(catalog), "--out", str(out),
                        env={"CITGEN_TEMPLATE_SECONDS": "0.5"})
    where = f"templates/{template}" + (":2" if "MEMORY" in message else "")
    assert result["stderr"] == (f"{where}: error: template exceeded a limit: {message} [input]\n"
                                "citgen: 1 problem, nothing written\n")
    assert result["code"] == 2
    assert snapshot(out) == before
    assert result["peak"] < PEAK_BOUND + 256 * MiB
