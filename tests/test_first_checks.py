"""What a user checks first: the license, the version, `python -m generator`, `make`, shell completion.

Completion is click's own mechanism (`_CITGEN_COMPLETE=<shell>_source citgen`), so the
tests run the installed `citgen` script the way a shell does, and load the scripts in
the real bash, zsh and fish where they are installed.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

import generator
from generator.cli import main
from generator.cli.build import build
from tests.helpers import REPO

pytestmark = pytest.mark.heavy(6)  # seconds of a worker's time: run early (conftest.py)

DISTRIBUTION = "kubevirt-citgen"
CATALOG_VERSION = yaml.safe_load((REPO / "catalog.yaml").read_text(encoding="utf-8"))["version"]
#: Every command of the group; lazily loaded ones included, since completion must offer them too.
COMMANDS = ["build", "diff", "expand", "init", "list", "osinfo", "readme", "refs", "schema", "site", "validate"]


def required(tool: str, why: str) -> str:
    """The real tool; skipped when absent, except under CI where it must be there."""
    found = shutil.which(tool)
    if found:
        return found
    if os.environ.get("CI") == "true":
        pytest.fail(f"{tool} is required under CI: {why}")
    pytest.skip(f"{tool} is not installed")


def optional(tool: str) -> str:
    """A shell few machines have (zsh, fish): its test runs where it is installed, CI or not."""
    found = shutil.which(tool)
    if found is None:
        pytest.skip(f"{tool} is not installed")
    return found


@pytest.fixture(scope="module")
def citgen() -> Path:
    """The `citgen` script installed beside this interpreter, as a shell would find it on PATH."""
    script = Path(sys.executable).parent / "citgen"
    if not script.is_file():
        if os.environ.get("CI") == "true":
            pytest.fail("citgen is not installed beside the test interpreter")
        pytest.skip("citgen is not installed beside the test interpreter")
    return script


def shell_env(citgen: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "PATH": f"{citgen.parent}{os.pathsep}{os.environ.get('PATH', '')}", **extra}


# --- license and metadata ---------------------------------------------------------------


def test_the_license_file_is_the_apache_license_2_0():
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.split()[:5] == ["Apache", "License", "Version", "2.0,", "January"]
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text
    assert "END OF TERMS AND CONDITIONS" in text
    assert "http://www.apache.org/licenses/LICENSE-2.0" in text


def test_the_installed_metadata_names_the_license_and_the_version():
    metadata = importlib.metadata.metadata(DISTRIBUTION)
    assert metadata["License-Expression"] == "Apache-2.0"
    assert metadata.get_all("License-File") == ["LICENSE"]
    assert metadata["Version"] == generator.__version__


# --- the version and python -m generator ------------------------------------------------


def test_version_names_the_package_and_the_built_in_catalog():
    result = CliRunner().invoke(main, ["--version"])
    assert (result.exit_code, result.output) == (
        0, f"citgen {generator.__version__} (built-in catalog {CATALOG_VERSION})\n")


def test_version_with_an_unreadable_built_in_catalog_says_so(tmp_path, monkeypatch):
    (tmp_path / "catalog.yaml").write_text("vendor: kubevirt.io\nversion: [1]\n")
    monkeypatch.setattr("generator.cli.version.builtin_catalog", lambda: tmp_path)
    result = CliRunner().invoke(main, ["--version"])
    assert (result.exit_code, result.output.splitlines()) == (2, [
        "catalog.yaml:2:10: error: version: expected a string, got a list [input]",
        "series/sizes.yaml: error: no such file or folder [input]",
        f"citgen {generator.__version__}: the built-in catalog cannot be read; reinstall citgen",
    ])


def test_python_dash_m_generator_is_the_citgen_command(tmp_path):
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "generator", *args], cwd=tmp_path, capture_output=True,
                              text=True)

    assert run("--version").stdout == f"citgen {generator.__version__} (built-in catalog {CATALOG_VERSION})\n"
    shown = run("--help")
    assert shown.returncode == 0 and shown.stdout.startswith("Usage: citgen [OPTIONS] COMMAND [ARGS]...")
    usage = run("build", "--no-such-option")  # click's usage error names the program as citgen
    assert usage.returncode == 2
    assert "Usage: citgen build [OPTIONS]" in usage.stderr and "Traceback" not in usage.stderr
    refused = run("build", "--gpu-count", "two")
    assert (refused.returncode, refused.stderr) == (
        2, "--gpu-count: error: expected a whole number of GPUs, got 'two' [input]\n"
           "citgen: 1 problem, nothing written\n")


def test_the_readme_shows_what_version_prints():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"`citgen {generator.__version__} (built-in catalog {CATALOG_VERSION})`" in readme


def test_no_install_instruction_names_a_release_on_a_package_index():
    """citgen is installed from its repository; `pip install kubevirt-citgen==...` would fetch nothing."""
    for path in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        assert re.findall(r"pip install[^\n]*kubevirt-citgen", text) == [], path.name


# --- make -------------------------------------------------------------------------------


def test_make_without_a_target_lists_every_target_and_creates_nothing():
    make = required("make", "the Makefile is the documented entry point")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}
    # --dry-run shows what make would run: for the default goal, only the echo lines.
    planned = subprocess.run([make, "--dry-run"], cwd=REPO, env=env, capture_output=True, text=True, check=True)
    assert all(line.startswith("echo ") for line in planned.stdout.splitlines())
    shown = subprocess.run([make], cwd=REPO, env=env, capture_output=True, text=True, check=True).stdout
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    phony = {name for line in re.findall(r"^\.PHONY:(.*)$", makefile, re.M) for name in line.split()}
    described = dict(re.findall(r"^  (\S+) +(\S.*)$", shown, re.M))
    assert phony == set(described) and "help" in phony
    assert all(len(text.split()) >= 3 for text in described.values()), described


# --- shell completion -------------------------------------------------------------------


def complete(citgen: Path, words: str, shell: str = "bash") -> list[str]:
    """What click answers a shell's completion request for ``words`` (the last one being typed)."""
    parts = words.split(" ")
    answer = subprocess.run([str(citgen)], env=shell_env(citgen, _CITGEN_COMPLETE=f"{shell}_complete",
                                                         COMP_WORDS=words, COMP_CWORD=str(len(parts) - 1)),
                            capture_output=True, text=True, check=True)
    return answer.stdout.splitlines()


SOURCE_SCRIPTS = {
    "bash": "complete -o nosort -F _citgen_completion citgen",
    "zsh": "compdef _citgen_completion citgen",
    "fish": "complete --no-files --command citgen",
}


@pytest.mark.parametrize("shell", SOURCE_SCRIPTS)
def test_each_shell_gets_its_completion_script(citgen: Path, shell: str):
    script = subprocess.run([str(citgen)], env=shell_env(citgen, _CITGEN_COMPLETE=f"{shell}_source"),
                            capture_output=True, text=True, check=True).stdout
    assert SOURCE_SCRIPTS[shell] in script


def test_completion_offers_commands_lazy_ones_included(citgen: Path):
    assert complete(citgen, "citgen ") == [f"plain,{name}" for name in COMMANDS]
    assert complete(citgen, "citgen bu") == ["plain,build"]
    assert complete(citgen, "citgen va") == ["plain,validate"]


def test_completion_offers_a_commands_options(citgen: Path):
    offered = complete(citgen, "citgen build --")
    for option in ("--catalog", "--out", "--release", "--gpu-device", "--overlay", "--helm-package", "--help"):
        assert f"plain,{option}" in offered
    assert complete(citgen, "citgen build --rel") == ["plain,--release"]
    assert "plain,--matrix" in complete(citgen, "citgen validate --")


def test_completion_of_a_path_option_leaves_it_to_the_shell(citgen: Path):
    assert complete(citgen, "citgen build --out ") == ["dir,"]
    assert complete(citgen, "citgen build --catalog ") == ["dir,"]


def test_zsh_completion_carries_descriptions(citgen: Path):
    answer = complete(citgen, "citgen bu", shell="zsh")
    assert answer == ["plain", "build", build.get_short_help_str()]


def test_bash_loads_the_script_and_completes(citgen: Path):
    bash = required("bash", "completion is documented for bash")
    script = ('eval "$(_CITGEN_COMPLETE=bash_source citgen)"; complete -p citgen; '
              'COMP_WORDS=(citgen bu); COMP_CWORD=1; _citgen_completion citgen; echo "${COMPREPLY[@]}"; '
              'COMPREPLY=(); COMP_WORDS=(citgen build --rel); COMP_CWORD=2; _citgen_completion citgen; '
              'echo "${COMPREPLY[@]}"')
    shown = subprocess.run([bash, "--norc", "--noprofile", "-c", script], env=shell_env(citgen),
                           capture_output=True, text=True, check=True).stdout
    assert shown.splitlines() == ["complete -o nosort -F _citgen_completion citgen", "build", "--release"]


def test_zsh_loads_the_script_and_registers_it(citgen: Path, tmp_path: Path):
    zsh = optional("zsh")
    script = ('autoload -Uz compinit && compinit -u -d "$ZDOTDIR/.zcompdump" && '
              'eval "$(_CITGEN_COMPLETE=zsh_source citgen)" && print -r -- $_comps[citgen]')
    shown = subprocess.run([zsh, "-f", "-c", script], env=shell_env(citgen, ZDOTDIR=str(tmp_path)),
                           capture_output=True, text=True, check=True)
    assert shown.stdout == "_citgen_completion\n"


def test_fish_loads_the_script_and_completes(citgen: Path, tmp_path: Path):
    fish = optional("fish")
    script = '_CITGEN_COMPLETE=fish_source citgen | source; complete -C "citgen bu"; complete -C "citgen build --rel"'
    shown = subprocess.run([fish, "--no-config", "-c", script],
                           env=shell_env(citgen, XDG_CONFIG_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path)),
                           capture_output=True, text=True, check=True).stdout
    lines = [line.split("\t") for line in shown.splitlines()]
    assert [line[0] for line in lines] == ["build", "--release"]
    # fish shows the description up to its first comma
    assert lines[0][1] and build.get_short_help_str().startswith(lines[0][1])
