"""One way in, one way out: every command against the conventions, enumerated from click's command tree.

- **In**: every command that reads Kubernetes objects is given the same objects in
  each path form (a file, a folder, ``-``, a pipe as process substitution makes one)
  and each document form (documents, a ``kind: List``, a bare list, JSON as kubectl
  writes it, minified JSON), through each of its options and arguments that read
  objects, and must see the same objects: the same report, whatever the form.
- **Out**: every command's refusal, and every checking command's findings, are
  lines of ``FILE:LINE:COL: SEVERITY: MESSAGE [RULE]`` (findings on standard output,
  what stops a run on standard error), and every format parses: JSON, GitHub
  workflow commands, Markdown, SARIF against OASIS's schema.

A command added later without its rows in READS fails
``test_every_command_says_how_it_reads_objects``.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import click
import pytest
import yaml
from click.testing import CliRunner
from jsonschema import Draft4Validator

from generator.cli import main
from tests.conftest import SHARED, shared_file
from tests.helpers import REPO, leaf_commands

BUNDLE = REPO / "bundles" / "common-instancetypes-all-bundle.yaml"
EDGE = REPO / "examples" / "edge"
#: A finding line, as compilers and linters write them.
LINE = re.compile(r"(?P<place>[^ ].*?)(:(?P<line>[0-9]+)(:(?P<column>[0-9]+))?)?: (?P<severity>error|warning|note): "
                  r"(?P<message>.+) \[(?P<rule>[a-z0-9-]+)\]")


COMMANDS = leaf_commands()


# --------------------------------------------------------------------------- the objects, in every form


def bundle_objects() -> list[dict[str, Any]]:
    """A few catalog objects of the built-in bundle, and one it no longer defines (for --retain-from)."""
    return json.loads(_BUNDLE_OBJECTS)


@functools.lru_cache(maxsize=None)
def _bundle_objects() -> str:
    docs = [d for d in yaml.load_all(BUNDLE.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader) if d]
    wanted = {"u1.medium", "u1.large", "fedora", "windows.11"}
    picked = [d for d in docs if d["metadata"]["name"] in wanted and d["kind"].startswith("VirtualMachineCluster")]
    retired = json.loads(json.dumps(picked[-1]))
    retired["metadata"]["name"] = "u1.retired" if retired["kind"].endswith("Instancetype") else "retired.os"
    return json.dumps([*picked, retired])


_BUNDLE_OBJECTS = _bundle_objects()


def edge_objects() -> list[dict[str, Any]]:
    """The same objects as the edge example's vendor labels them, for its build to retain."""
    objects = bundle_objects()
    for one in objects:
        one["metadata"]["labels"]["instancetype.kubevirt.io/vendor"] = "edge.example.net"
    return objects


def vms() -> list[dict[str, Any]]:
    """Two VirtualMachines: one the built-in catalog runs, one naming an instancetype it does not have."""
    def vm(name: str, instancetype: str) -> dict[str, Any]:
        return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": name},
                "spec": {"instancetype": {"name": instancetype}, "preference": {"name": "fedora"},
                         "runStrategy": "Always", "template": {"spec": {"domain": {"devices": {}}}}}}
    return [vm("runs", "u1.medium"), vm("typo", "u1.mediun")]


def documents(objects: list[dict[str, Any]]) -> str:
    return "".join("---\n" + yaml.safe_dump(o, sort_keys=False) for o in objects)


def as_list(objects: list[dict[str, Any]]) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "List", "items": objects, "metadata": {"resourceVersion": ""}}


DOCUMENT_FORMS: dict[str, Callable[[list[dict[str, Any]]], str]] = {
    "documents": documents,
    "a kind: List": lambda o: yaml.safe_dump(as_list(o), sort_keys=False),
    "a bare list": lambda o: yaml.safe_dump(o, sort_keys=False),
    "JSON as kubectl writes it": lambda o: json.dumps(as_list(o), indent=4),
    "minified JSON": lambda o: json.dumps(as_list(o), separators=(",", ":")),
}
PATH_FORMS = ("a file", "a folder", "-", "a pipe")


@dataclass
class Given:
    """How one run is given its objects: the argument to pass, and what standard input or a pipe carries."""

    path: str
    stdin: bytes | None = None
    pipe: tuple[int, int] | None = None  # its reading and writing ends
    text: str = ""


def given(root: Path, label: str, text: str, path_form: str) -> Given:
    """``text`` placed as ``path_form`` says under ``root``: the path to name, and what to feed."""
    if path_form == "a file":
        (root / f"{label}.yaml").write_text(text, encoding="utf-8")
        return Given(str(root / f"{label}.yaml"))
    if path_form == "a folder":
        folder = root / label
        folder.mkdir()
        (folder / "objects.yaml").write_text(text, encoding="utf-8")
        return Given(str(folder))
    if path_form == "-":
        return Given("-", stdin=text.encode())
    reading, writing = os.pipe()  # as bash's <(...) makes one: /dev/fd/N, its writer there before citgen reads
    return Given(f"/dev/fd/{reading}", pipe=(reading, writing), text=text)


def invoke(args: list[str], feed: Given | None = None) -> Any:
    """Run citgen in this process; a pipe is written by a thread as a shell's process substitution writes it."""
    writer = None
    if feed is not None and feed.pipe is not None:
        reading, writing = feed.pipe

        def write() -> None:
            with os.fdopen(writing, "wb") as pipe:
                pipe.write(feed.text.encode())  # type: ignore[union-attr]

        writer = threading.Thread(target=write)
        writer.start()
    try:
        return CliRunner().invoke(main, args, input=feed.stdin if feed is not None else None)
    finally:
        if writer is not None:
            writer.join(timeout=10)
            os.close(feed.pipe[0])  # type: ignore[index]


# --------------------------------------------------------------------------- how each command reads objects


@dataclass(frozen=True)
class Reads:
    """One way a command reads objects: which objects, and the command line around them (``{}`` is the path)."""

    objects: Callable[[], list[dict[str, Any]]]
    args: tuple[str, ...]
    fixed: Callable[[Path], dict[str, str]] = lambda root: {}


def _fixed_bundle(root: Path) -> dict[str, str]:
    (root / "fixed.yaml").write_text(documents(bundle_objects()), encoding="utf-8")
    (root / "vms.yaml").write_text(documents(vms()), encoding="utf-8")
    return {"bundle": str(root / "fixed.yaml"), "vms": str(root / "vms.yaml")}


#: Every command, and each option or argument through which it reads objects (empty: it reads none).
READS: dict[str, dict[str, Reads]] = {
    "validate": {"FILE": Reads(bundle_objects, ("validate", "--format", "json", "{}"))},
    "diff": {"OLD": Reads(bundle_objects, ("diff", "{}", "{bundle}")),
             "NEW": Reads(bundle_objects, ("diff", "{bundle}", "{}"))},
    "expand": {"VM": Reads(vms, ("expand", "--bundle", "{bundle}", "{}")),
               "--bundle": Reads(bundle_objects, ("expand", "--bundle", "{}", "{vms}"))},
    "refs": {"PATH": Reads(vms, ("refs", "--bundle", "{bundle}", "{}")),
             "--bundle": Reads(bundle_objects, ("refs", "--bundle", "{}", "{vms}")),
             "--from": Reads(bundle_objects, ("refs", "--from", "{}", "--to", "{bundle}", "{vms}")),
             "--to": Reads(bundle_objects, ("refs", "--from", "{bundle}", "--to", "{}", "{vms}"))},
    # a small catalog's build (the edge example's 38 objects): what is tested is the reading of the old bundle
    "build": {"--retain-from": Reads(edge_objects, ("build", "--check", "--catalog", str(EDGE), "--retain-from",
                                                      "{}"))},
    "site": {},  # --retain-from reads as build's does (the same option, catalog_build_options), and a page is slow
    "list": {}, "readme": {}, "init": {}, "schema import": {}, "osinfo": {},
}


def test_every_command_says_how_it_reads_objects():
    assert sorted(READS) == sorted(COMMANDS)


def test_every_option_that_reads_objects_has_its_rows():
    """An option whose help speaks of bundles or manifests, or an argument that takes many paths, has its row."""
    for name, command in COMMANDS.items():
        reading = {max(p.opts, key=len) for p in command.params if isinstance(p, click.Option)
                   and p.help and re.search(r"\b(bundles?|manifests)\b", p.help, re.I)
                   and isinstance(p.type, click.Path) and p.name not in ("out", "out_dir")}  # outputs read nothing
        rows = {row for row in READS[name] if row.startswith("--")}
        assert reading - rows <= ({"--retain-from"} if name == "site" else set()), name


def _cells() -> list[tuple[str, str, str, str]]:
    cells = []
    for command, rows in READS.items():
        for row in rows:
            cells += [(command, row, "documents", path_form) for path_form in PATH_FORMS[1:]]  # a file: the baseline
            cells += [(command, row, form, "a file") for form in DOCUMENT_FORMS if form != "documents"]
    return cells


def _normal(text: str, feed: Given, root: Path) -> str:
    """A report with the places of its objects taken out: the same objects in any form give the same text.

    What names the source (its path, a file in its folder, ``<stdin>``) becomes SOURCE; lines, columns and
    document numbers, and the index of an item in a List, are where the form put the object, not what it is.
    """
    named = {"<stdin>": "SOURCE", "bundle -": "bundle SOURCE", "between - ": "between SOURCE ", " and -\n": " and SOURCE\n"} \
        if feed.path == "-" else {f"{feed.path}/objects.yaml": "SOURCE", feed.path: "SOURCE"}
    for shown, source in named.items():
        text = text.replace(shown, source)
    text = text.replace(str(root), "ROOT")
    text = re.sub(r"SOURCE:[0-9]+(:[0-9]+)?", "SOURCE", text)
    text = re.sub(r'"(line|column|document)": [0-9]+', r'"\1": N', text)
    return re.sub(r"\$(\.items)?\[[0-9]+\]", "$", text)


@pytest.fixture(scope="module")
def baselines(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], tuple[int, str]]:
    """Each row's run with its objects as a multi-document file: what every other form must give."""
    found = {}
    for command, rows in READS.items():
        for row, reads in rows.items():
            root = tmp_path_factory.mktemp(f"{command}-{row}".replace(" ", "-"))
            found[(command, row)] = run_cell(root, reads, "documents", "a file")
    return found


def run_cell(root: Path, reads: Reads, document_form: str, path_form: str) -> tuple[int, str]:
    feed = given(root, "objects", DOCUMENT_FORMS[document_form](reads.objects()), path_form)
    fixed = _fixed_bundle(root)
    args = [arg.format(feed.path, **fixed) if "{" in arg else arg for arg in reads.args]
    result = invoke(args, feed)
    return result.exit_code, _normal(result.stdout + result.stderr, feed, root)


@pytest.mark.parametrize(("command", "row", "document_form", "path_form"), _cells(),
                         ids=lambda value: str(value).replace(" ", "_"))
def test_every_form_of_the_same_objects_gives_the_same_report(tmp_path, baselines, command, row, document_form,
                                                              path_form):
    assert run_cell(tmp_path, READS[command][row], document_form, path_form) == baselines[(command, row)]


def test_the_baselines_read_something(baselines):
    """No row passes by refusing every form alike: each baseline is a run that read its objects."""
    assert {key: code for key, (code, _) in baselines.items() if code == 2} == {}


# --------------------------------------------------------------------------- one way out


#: A run of each command that ends in a refusal naming a path (every command has one).
REFUSALS: dict[str, tuple[str, ...]] = {
    "validate": ("validate", "{missing}"),
    "diff": ("diff", "{missing}", "{missing}"),
    "expand": ("expand", "{missing}"),
    "refs": ("refs", "{missing}"),
    "build": ("build", "--retain-from", "{missing}", "--check"),
    "site": ("site", "--retain-from", "{missing}", "--out", "{out}"),
    "list": ("list", "--catalog", "{missing}"),
    "readme": ("readme", "--catalog", "{missing}", "--check"),
    "init": ("init", "{file}"),
    "schema import": ("schema", "import", "{missing}", "--out", "{out}"),
    "osinfo": ("osinfo", "--catalog", "{missing}", "rhel9.1"),
}
#: A run of each checking command that finds something (standard output, exit 1).
FINDINGS: dict[str, tuple[str, ...]] = {
    "validate": ("validate", "{broken}"),
    "refs": ("refs", "{vms}"),
    "osinfo": ("osinfo", "--osinfo-db", "{osinfo}", "freebsd13.0", "rhel9.1"),
}
FORMATS = ("text", "json", "github", "markdown", "sarif")


def test_every_command_has_a_refusal_row():
    assert sorted(REFUSALS) == sorted(COMMANDS)


def _args(template: tuple[str, ...], root: Path) -> list[str]:
    (root / "a-file").write_text("x", encoding="utf-8")
    broken = [*bundle_objects()[:1]]
    broken[0]["metadata"]["labels"]["instancetype.kubevirt.io/cpu"] = "99"
    (root / "broken.yaml").write_text(documents(broken), encoding="utf-8")
    (root / "vms.yaml").write_text(documents(vms()), encoding="utf-8")
    values = {"missing": str(root / "missing.yaml"), "out": str(root / "out"), "file": str(root / "a-file"),
              "broken": str(root / "broken.yaml"), "vms": str(root / "vms.yaml")}
    if "{osinfo}" in template:  # the files of libosinfo's database (as Debian installs it) that the run reads
        debian = shared_file(SHARED / "reference" / "osinfo-db")
        for name in OSINFO_FILES:
            (root / "osinfo-db" / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(debian / name, root / "osinfo-db" / name)
        values["osinfo"] = str(root / "osinfo-db")
    return [arg.format(**values) for arg in template]


#: What ``citgen osinfo rhel9.1 freebsd13.0`` needs of the database: a copy of three OS files, not all 790.
OSINFO_FILES = ("VERSION", "os/redhat.com/rhel-9.0.xml", "os/redhat.com/rhel-9.1.xml",
                "os/freebsd.org/freebsd-13.0.xml")


@pytest.fixture(scope="module")
def sarif() -> Draft4Validator:
    return Draft4Validator(json.loads(shared_file(SHARED / "reference" / "sarif" / "sarif-schema-2.1.0.json")
                                      .read_text(encoding="utf-8")))


def _judge_format(fmt: str, stdout: str, sarif: Draft4Validator) -> None:
    if fmt == "json":
        json.loads(stdout)
    elif fmt == "sarif":
        assert list(sarif.iter_errors(json.loads(stdout))) == []
    elif fmt == "github":
        assert stdout and all(line.startswith("::") for line in stdout.splitlines()), stdout
    elif fmt == "markdown":
        assert stdout.startswith("### citgen "), stdout


@pytest.mark.parametrize("command", sorted(REFUSALS))
def test_a_refusal_is_finding_lines_on_standard_error_and_every_format_parses(tmp_path, sarif, command):
    args = _args(REFUSALS[command], tmp_path)
    text = invoke(args)
    assert text.exit_code == 2, text.output
    lines = [line for line in text.stderr.splitlines() if not line.startswith("citgen: ")]
    assert lines and all(LINE.fullmatch(line) for line in lines), text.stderr
    assert str(tmp_path) in text.stderr
    for fmt in FORMATS[1:]:
        shown = invoke(["--format", fmt, *args])
        assert shown.exit_code == 2
        _judge_format(fmt, shown.stdout, sarif)


@pytest.mark.parametrize("command", sorted(FINDINGS))
def test_findings_are_lines_on_standard_output_once_each_and_every_format_parses(tmp_path, sarif, command):
    args = _args(FINDINGS[command], tmp_path)
    text = invoke(args)
    assert text.exit_code == 1, text.output
    found = [line for line in text.stdout.splitlines() if LINE.fullmatch(line)]
    assert found and len(found) == len(set(found))
    assert not any(LINE.fullmatch(line) for line in text.stderr.splitlines())
    for fmt in FORMATS[1:]:
        shown = invoke([*args, "--format", fmt])
        assert shown.exit_code == 1
        _judge_format(fmt, shown.stdout, sarif)
        assert not any(LINE.fullmatch(line) for line in shown.stderr.splitlines())
    records = json.loads(invoke([*args, "--format", "json"]).stdout)
    problems = records if isinstance(records, list) else records["problems"]
    assert len(problems) == len(found)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_click_s_own_usage_errors_are_refusals_in_the_format_asked_for(sarif, command):
    """An unknown option, a bad choice: click's own refusals, before or after the command, in every format."""
    words = command.split()
    for fmt in FORMATS[1:]:
        for args in (["--format", fmt, *words, "--no-such-option"], [*words, "--no-such-option", f"--format={fmt}"]):
            shown = invoke(args)
            assert shown.exit_code == 2, args
            _judge_format(fmt, shown.stdout, sarif)
            assert "--no-such-option" in shown.stdout and shown.stderr == "", args
    text = invoke([*words, "--no-such-option"])
    assert text.exit_code == 2 and "No such option" in text.stderr and text.stdout == ""  # click's own words
