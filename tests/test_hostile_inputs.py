"""Hostile input (issue 14): every file citgen reads goes through one bounded reader.

Each class of the issue is checked in every reader it concerns: catalog files,
overlays, bundles for ``validate``, ``diff`` and ``--retain-from``, VirtualMachine
files for ``expand``, templates and the text they render. A refusal has an exact
message and exit status 2; a build leaves the earlier output byte-for-byte as it
was. Where the class is about resources (files that never end or are huge), the
command runs as a process of its own under a deadline, so that a hang fails the
test instead of hanging the run, and the process's peak memory is measured.
"""

from __future__ import annotations

import os
import shutil
import socket
from pathlib import Path
from typing import Callable

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import InputError
from generator.source.yamlsrc import NESTING_LIMIT, iter_documents, load_stream_fast
from tests.helpers import ForkedCitgen, copy_catalog, default_build, finding, snapshot

pytestmark = pytest.mark.heavy(6)  # seconds of a worker's time: run early (conftest.py)

ALL = "common-instancetypes-all-bundle.yaml"
SELF_ALIAS = "alias '*a' refers to the list or mapping that contains it (anchored at line 1); " \
             "YAML that refers to itself cannot be read"
ONLY_REGULAR = "not a regular file; citgen reads only regular files"
TAGS = "citgen reads only plain YAML values (tags !!str, !!int, !!float, !!bool, !!null, !!map, !!seq)"
VM = """apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: vm
spec:
  instancetype:
    name: u1.medium
  template:
    spec:
      domain:
        devices: {}
"""

# --------------------------------------------------------------------------- running citgen


def cli(*args: str | Path) -> tuple[int, list[str]]:
    """citgen in this process: exit status and stderr lines; any exception but an exit fails the test."""
    result = CliRunner().invoke(main, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"unhandled {type(result.exception).__name__}: {result.exception}\n{result.output}")
    return result.exit_code, result.stderr.splitlines()


#: citgen run as a process of its own (``child`` below): its exit status, stderr lines and peak RSS in MiB.
Child = Callable[..., tuple[int, list[str], int]]


@pytest.fixture
def child(forked_citgen: ForkedCitgen) -> Child:
    """citgen as a process of its own: exit status, stderr lines and peak RSS in MiB (its rendering child's included).

    Forked from a process that imported citgen once (tests.helpers.ForkedCitgen); one still
    running after a minute is killed, so that a hang fails the test instead of hanging the run.
    """
    def run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> tuple[int, list[str], int]:
        found = forked_citgen.run(*args, cwd=cwd, env=env)
        assert found["traceback"] == "", found["traceback"]
        return found["code"], found["stderr"].splitlines(), found["peak"] // (1 << 20)
    return run


@pytest.fixture
def work(tmp_path: Path, previous_output: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp_path as the current directory: a copy of the built-in catalog and an earlier build in out/."""
    copy_catalog(tmp_path / "catalog")
    shutil.copytree(previous_output, tmp_path / "out")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def refused_build(work: Path, *extra: str) -> list[str]:
    """``citgen build`` of catalog/ into out/: refused with 2, out/ untouched; its stderr lines."""
    before = snapshot(work / "out")
    code, stderr = cli("build", "--catalog", "catalog", "--out", "out", *extra)
    assert code == 2, stderr
    assert snapshot(work / "out") == before
    assert sorted(p.name for p in work.iterdir() if p.name.startswith(".")) == []
    return stderr


# --------------------------------------------------------------------------- class 1: YAML that refers to itself

SELF_REFERENCING = {
    "a list holding itself": ("a: &a [*a]\n", 8),
    "a mapping holding itself": ("spec: &a {x: *a}\n", 14),
    "deeper inside itself": ("spec: &a\n  x:\n    y: [1, *a]\n", 12),
}


@pytest.mark.parametrize("text, column", SELF_REFERENCING.values(), ids=SELF_REFERENCING)
def test_class_1_every_reader_refuses_an_alias_inside_its_own_anchor(text: str, column: int):
    line = text.count("\n", 0, text.index("*a")) + 1
    for read in (lambda t: list(iter_documents(t, "f.yaml")), lambda t: load_stream_fast(t, "f.yaml")):
        with pytest.raises(InputError) as caught:
            read(text)
        assert [str(p) for p in caught.value.problems] == [f"f.yaml:{line}:{column}: {SELF_ALIAS}"]


def test_class_1_an_alias_of_a_finished_anchor_is_still_fine():
    [doc] = iter_documents("a: &a [1, 2]\nb: [*a, *a]\n", "f.yaml")
    assert doc.data == {"a": [1, 2], "b": [[1, 2], [1, 2]]}
    assert doc.data["b"][0] is not doc.data["b"][1]  # each use is its own value, as if written out


def test_class_1_in_a_catalog_file(work: Path):
    (work / "catalog" / "series" / "u.yaml").write_text("prefix: u\nfeatures: &a {numa: *a}\n")
    assert refused_build(work) == [
        finding("series/u.yaml:2:21: alias '*a' refers to the list or mapping that contains it (anchored at "
                "line 2); YAML that refers to itself cannot be read"),
        "citgen: 1 problem, nothing written",
    ]


def test_class_1_in_an_overlay(work: Path):
    (work / "overlay.yaml").write_text("a: &a [*a]\n")
    assert refused_build(work, "--overlay", "overlay.yaml") == [
        finding(f"overlay.yaml:1:8: {SELF_ALIAS}"), "citgen: 1 problem, nothing written"]


def test_class_1_in_a_bundle_for_retain_from(work: Path):
    (work / "old.yaml").write_text("a: &a [*a]\n")
    assert refused_build(work, "--retain-from", "old.yaml") == [
        finding(f"old.yaml:1:8: {SELF_ALIAS}"), "citgen: 1 problem, nothing written"]


def test_class_1_in_bundles_for_validate_and_diff_and_a_vm_for_expand(work: Path):
    (work / "self.yaml").write_text("a: &a [*a]\n")
    assert cli("validate", "self.yaml") == (2, [finding(f"self.yaml:1:8: {SELF_ALIAS}")])
    assert cli("diff", "self.yaml", f"out/{ALL}") == (2, [finding(f"self.yaml:1:8: {SELF_ALIAS}")])
    (work / "vm.yaml").write_text(VM + "  running: &a [*a]\n")
    assert cli("expand", "vm.yaml") == (2, [
        finding("vm.yaml:12:16: alias '*a' refers to the list or mapping that contains it (anchored at line 12); "
                "YAML that refers to itself cannot be read")])


def test_class_1_in_the_text_a_template_renders(work: Path):
    template = work / "catalog" / "templates" / "instancetype.yaml.j2"
    written = template.read_text()
    template.write_text(written + "status: &a {x: *a}\n")
    first = next(o for o in default_build().objects if o.family == "instancetype")  # rendered first, checked
    line = default_build().bundles["common-clusterinstancetypes-bundle.yaml"].split("\n---\n")[0].count("\n") + 2
    assert refused_build(work) == [
        finding(f"templates/instancetype.yaml.j2: rendering {first.name!r} as VirtualMachineClusterInstancetype "
                f"gave text that is not valid YAML (the text:{line}:16: alias '*a' refers to the list or mapping that "
                f"contains it (anchored at line {line}); YAML that refers to itself cannot be read); pass values "
                "through the yaml_scalar or yaml_block filters"),
        "citgen: 1 problem, nothing written",
    ]
    # only for a later object: not the first of its kind, so found when the bundle is parsed back
    template.write_text(written + "{% if name == 'u1.large' %}status: &a {x: *a}{% endif %}\n")
    [message, count] = refused_build(work)
    assert message.startswith(f"rendered {ALL}:")
    assert message.endswith(": error: alias '*a' refers to the list or mapping that contains it (anchored at line "
                            f"{message.split(':')[1]}); YAML that refers to itself cannot be read [input]")
    assert count == "citgen: 1 problem, nothing written"


def test_class_1_deep_nesting_in_rendered_text_is_refused_not_a_crash():
    """libyaml's own composer crashes the interpreter near 50,000 levels; the reader never recurses."""
    deep = "[" * 200_000 + "]" * 200_000
    with pytest.raises(InputError) as caught:
        load_stream_fast(deep, "f.yaml")
    assert [str(p) for p in caught.value.problems] == [
        f"f.yaml:1:{NESTING_LIMIT + 1}: lists and mappings are nested more than {NESTING_LIMIT} levels deep; "
        "refusing a document this deep"]


# --------------------------------------------------------------------------- class 2: inputs that never end or are huge


def special_file(path: Path, kind: str) -> socket.socket | None:
    """Make ``path`` a FIFO, a link to /dev/zero or a listening socket (returned, to close)."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(path))
        server.listen()
        return server
    return None


KINDS = {"fifo": "a FIFO (named pipe)", "device": "a character device", "socket": "a socket"}


@pytest.mark.parametrize("kind", KINDS)
def test_class_2_a_special_file_named_on_the_command_line_is_refused_unread(child: Child, work: Path, kind: str):
    server = special_file(work / "special.yaml", kind)
    try:
        refusal = finding(f"special.yaml: is {KINDS[kind]}, {ONLY_REGULAR}")
        # a source of objects may be a pipe: a FIFO nothing writes to reads as empty, never waited on
        as_objects = finding(f"special.yaml: is {KINDS[kind]}, not a regular file, a pipe or a folder") \
            if kind != "fifo" else None
        readers = [["validate", "special.yaml"],
                   ["build", "--catalog", "catalog", "--out", "out", "--overlay", "special.yaml"]]
        if kind == "fifo":  # the one that would hang: every reader
            readers += [["expand", "special.yaml"], ["diff", "special.yaml", "out"],
                        ["build", "--catalog", "catalog", "--out", "out", "--retain-from", "special.yaml"]]
        for args in readers:
            before = snapshot(work / "out")
            code, stderr, peak = child(*args, cwd=work)
            if "--overlay" in args:
                assert (code, stderr[0]) == (2, refusal), args
            elif as_objects is not None:
                assert (code, stderr[0]) == (2, as_objects), args
            else:
                assert code == 2 and stderr[0].startswith("special.yaml: error: no ") and (
                    "is empty" in stderr[0] or "holds no objects" in stderr[0]), args
            assert peak < 200, f"{args}: peak RSS {peak} MiB"
            assert snapshot(work / "out") == before
    finally:
        if server is not None:
            server.close()


@pytest.mark.parametrize("kind", KINDS)
def test_class_2_a_special_file_in_a_catalog_directory_is_refused_unread(child: Child, work: Path, kind: str):
    server = special_file(work / "catalog" / "series" / "x.yaml", kind)
    # /dev/zero comes in through a link (making a device needs privileges), refused as one
    refusal = f"is {KINDS[kind]}, {ONLY_REGULAR}" if kind != "device" else \
        "is a symbolic link to a file outside the catalog directory; citgen reads only files inside the catalog"
    try:
        before = snapshot(work / "out")
        code, stderr, peak = child("build", "--catalog", "catalog", "--out", "out", cwd=work)
        assert (code, stderr) == (2, [finding(f"series/x.yaml: {refusal}"), "citgen: 1 problem, nothing written"])
        assert peak < 200
        assert snapshot(work / "out") == before
    finally:
        if server is not None:
            server.close()


def test_class_2_a_huge_file_is_refused_from_its_size_in_bounded_memory(child: Child, work: Path):
    huge = work / "huge.yaml"
    with huge.open("wb") as handle:  # 4 GiB that take no disk: a sparse file
        handle.truncate(4 << 30)
    message = (finding("huge.yaml: is larger than the 256 MiB limit on input files; raise it with "
                       "`citgen --max-file-size SIZE` or CITGEN_MAX_FILE_SIZE if the file is right"))
    for args in (["validate", "huge.yaml"], ["build", "--catalog", "catalog", "--out", "out", "--overlay", "huge.yaml"]):
        code, stderr, peak = child(*args, cwd=work)
        assert (code, stderr[0]) == (2, message)
        assert peak < 200, f"peak RSS {peak} MiB"
    # Raised, the limit lets a file past the default one be read. One byte past it shows that as
    # well as 4 GiB would, without holding gigabytes of memory (and a minute) for the reading.
    os.truncate(huge, (64 << 20) + 1)
    code, stderr, _ = child("--max-file-size", "8GiB", "validate", "huge.yaml", cwd=work)
    assert stderr[0] != message  # raised: read, and refused for what it holds instead


def test_class_2_the_size_limit_is_raised_by_option_or_environment(child: Child, work: Path):
    bundle = work / "out" / ALL
    message = (finding(f"out/{ALL}: is larger than the 1 KiB limit on input files; raise it with "
                       "`citgen --max-file-size SIZE` or CITGEN_MAX_FILE_SIZE if the file is right"))
    assert cli("--max-file-size", "1KiB", "validate", f"out/{ALL}") == (2, [message])
    assert bundle.stat().st_size < 1 << 20
    assert cli("--max-file-size", "1Mi", "validate", f"out/{ALL}")[0] == 0
    code, stderr, _ = child("validate", f"out/{ALL}", cwd=work, env={"CITGEN_MAX_FILE_SIZE": "1KiB"})
    assert (code, stderr) == (2, [message])
    assert cli("--max-file-size", "lots", "list")[0] == 2


def test_class_2_a_catalog_file_over_the_limit_is_refused_and_the_build_writes_nothing(work: Path):
    before = snapshot(work / "out")
    code, stderr = cli("--max-file-size", "100", "build", "--catalog", "catalog", "--out", "out")
    assert code == 2
    assert snapshot(work / "out") == before
    assert stderr[0] == (
        finding("catalog.yaml: is larger than the 100 bytes limit on input files; raise it with "
                "`citgen --max-file-size SIZE` or CITGEN_MAX_FILE_SIZE if the file is right"))


def test_class_2_the_document_count_is_limited(child: Child, work: Path):
    (work / "many.yaml").write_text("---\nkind: A\n" * 5)
    message = (finding("many.yaml:9:1: holds more than 4 YAML documents; raise the limit with "
                       "`citgen --max-documents N` or CITGEN_MAX_DOCUMENTS if the file is right"))
    assert cli("--max-documents", "4", "validate", "many.yaml") == (2, [message])
    code, stderr, peak = child("validate", "many.yaml", cwd=work, env={"CITGEN_MAX_DOCUMENTS": "4"})
    assert (code, stderr) == (2, [message])
    assert cli("--max-documents", "5", "validate", "many.yaml") == (2, [finding(  # read whole: holds no catalog object
        "many.yaml: no catalog objects: the file holds 5 objects (A) but no instancetype or preference; expected "
        "VirtualMachineClusterInstancetype, VirtualMachineInstancetype, VirtualMachineClusterPreference or "
        "VirtualMachinePreference objects, as documents or in a kind: List")])


def test_class_2_a_million_empty_documents_are_refused_in_bounded_memory(child: Child, work: Path):
    (work / "empty-docs.yaml").write_text("---\n" * 1_000_000)
    code, stderr, peak = child("validate", "empty-docs.yaml", cwd=work)
    assert (code, stderr) == (2, [
        finding("empty-docs.yaml:100001:1: holds more than 100000 YAML documents; raise the limit with "
                "`citgen --max-documents N` or CITGEN_MAX_DOCUMENTS if the file is right")])
    assert peak < 200


def test_class_2_a_symlink_leading_out_of_the_catalog_is_refused(work: Path):
    secret = work / "secret.yaml"
    secret.write_text("prefix: s\n")
    (work / "catalog" / "series" / "s.yaml").symlink_to(secret)
    (work / "catalog" / "preferences" / "traits" / "t.yaml").symlink_to(secret)
    assert refused_build(work) == [
        finding("preferences/traits/t.yaml: is a symbolic link to a file outside the catalog directory; "
                "citgen reads only files inside the catalog"),
        finding("series/s.yaml: is a symbolic link to a file outside the catalog directory; "
                "citgen reads only files inside the catalog"),
        "citgen: 2 problems, nothing written",
    ]


def test_class_2_a_template_linked_out_of_the_catalog_is_refused(work: Path):
    outside = work / "outside.j2"
    outside.write_text((work / "catalog" / "templates" / "instancetype.yaml.j2").read_text())
    (work / "catalog" / "templates" / "instancetype.yaml.j2").unlink()
    (work / "catalog" / "templates" / "instancetype.yaml.j2").symlink_to(outside)
    assert refused_build(work) == [
        finding("templates/instancetype.yaml.j2: is a symbolic link to a file outside the catalog directory; "
                "citgen reads only files inside the catalog"),
        "citgen: 1 problem, nothing written",
    ]


def test_class_2_a_link_inside_the_catalog_is_fine(work: Path):
    (work / "catalog" / "series" / "u-again.yaml").symlink_to(work / "catalog" / "series" / "u.yaml")
    stderr = refused_build(work)  # read, and refused for what it says: the same names twice
    assert "symbolic link" not in "\n".join(stderr)
    assert "defined twice" in stderr[0]


LONG = 10_000_000


@pytest.mark.parametrize("text", [
    "x" * LONG + ": 1\n",                       # an unknown key ten million characters long
    "prefix: [" + "x" * LONG + "\n",            # a syntax error at the end of a ten million character line
    "prefix: !" + "x" * LONG + " u\n",          # a tag ten million characters long
    "prefix: *" + "x" * LONG + "\n",            # an alias of nothing, as long
    "'" + "k" * LONG + "': 1\n'" + "k" * LONG + "': 2\n",  # a duplicate key, as long
], ids=["key", "syntax", "tag", "alias", "duplicate"])
def test_class_2_no_message_quotes_more_than_an_excerpt(work: Path, text: str):
    (work / "catalog" / "series" / "u.yaml").write_text(text)
    stderr = refused_build(work)
    assert stderr[0].startswith("series/u.yaml:") and stderr[0].split(": ")[1] == "error"
    assert max(len(line) for line in stderr) < 1000, [line[:200] for line in stderr]


# --------------------------------------------------------------------------- class 8: tags and silence

HOSTILE_TAGS = {
    "!!python/object/apply:os.system": ("prefix: !!python/object/apply:os.system [touch pwned]\n",
                                        "unknown tag '!!python/object/apply:os.system'"),
    "!!python/name": ("prefix: !!python/name:os.system u\n", "unknown tag '!!python/name:os.system'"),
    "!custom": ("prefix: !custom u\n", "unknown tag '!custom'"),
    "!!set on a mapping": ("prefix: !!set {u: null}\n", "unknown tag '!!set'"),
    "!!map on a scalar": ("prefix: !!map u\n", "tag '!!map' cannot be used on a scalar"),
}


@pytest.mark.parametrize("text, refusal", HOSTILE_TAGS.values(), ids=HOSTILE_TAGS)
def test_class_8_tags_beyond_plain_values_are_refused_in_every_reader(work: Path, text: str, refusal: str):
    message = f"1:9: {refusal}; {TAGS}"
    series = work / "catalog" / "series" / "u.yaml"
    written = series.read_text()
    series.write_text(text)
    assert refused_build(work) == [finding(f"series/u.yaml:{message}"), "citgen: 1 problem, nothing written"]
    series.write_text(written)
    (work / "hostile.yaml").write_text(text)
    assert refused_build(work, "--overlay", "hostile.yaml")[0] == finding(f"hostile.yaml:{message}")
    assert cli("validate", "hostile.yaml") == (2, [finding(f"hostile.yaml:{message}")])
    (work / "vm.yaml").write_text(text + VM.replace("apiVersion", "other"))
    assert cli("expand", "vm.yaml")[1][0] == finding(f"vm.yaml:{message}")
    assert not (work / "pwned").exists()


def test_class_8_plain_tags_still_read_as_their_types():
    [doc] = iter_documents("a: !!str 1\nb: !!int '2'\nc: !!float 3\nd: !!bool true\ne: !!null ''\n"
                           "f: !!map {x: 1}\ng: !!seq [1]\n", "f.yaml")
    assert doc.data == {"a": "1", "b": 2, "c": 3.0, "d": True, "e": None, "f": {"x": 1}, "g": [1]}


NOTHING = ("expected VirtualMachineClusterInstancetype, VirtualMachineInstancetype, VirtualMachineClusterPreference or "
           "VirtualMachinePreference objects, as documents or in a kind: List")
EMPTY = "is empty, or holds only comments and document separators"


@pytest.mark.parametrize("text, what", [
    ("", EMPTY),
    ("# only a comment\n", EMPTY),
    ("---\n---\n# and a comment\n", EMPTY),
    ("just text\n", "holds scalars"),
    ("- a\n- b\n", "holds scalars"),  # a bare list's items are read as objects: these are none
    ("--- 1\n--- [2]\n", "holds scalars"),
], ids=["empty", "comment", "separators", "scalar", "list", "both"])
def test_class_8_validate_of_a_file_without_kubernetes_objects_says_so(work: Path, text: str, what: str):
    (work / "nothing.yaml").write_text(text)
    assert cli("validate", "nothing.yaml") == (2, [finding(f"nothing.yaml: no catalog objects: the file {what}; "
                                                           f"{NOTHING}")])
