"""generator/tools/refs/scan.py and stream.py: manifests read from files, folders, dumps and standard input.

``scan(paths)`` reads what ``citgen refs PATH... | -`` is given: files, folders
(recursively, their ``*.yaml``, ``*.yml`` and ``*.json``, by name), standard input,
multi-document files and ``kind: List`` dumps as ``kubectl get -A -o yaml`` writes
them, read item by item. A path named that cannot be used refuses the scan; below
that, what cannot be read is a located problem and the scan reads on; a file that
holds no Kubernetes object and no reference is skipped and counted.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.source.inputfiles import Limits, limited
from generator.source import stream
from generator.tools.refs.model import Scan
from generator.tools.refs.places import parse_place
from generator.tools.refs.scan import scan
from tests.helpers import bits_apply, child_env

VM = """\
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: {name}
spec:
  instancetype:
    name: u1.medium
  preference:
    name: fedora
"""


def write(folder: Path, files: dict[str, str]) -> Path:
    """Files under ``folder`` by relative name, their text dedented."""
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return folder


def names(found: Scan) -> list[tuple]:
    """The references of a scan as (family, name, file, line, column)."""
    return [(r.family, r.name, r.location.file, r.location.line, r.location.column) for r in found.references]


def problems(found: Scan) -> list[str]:
    return [str(p) for p in found.problems]


# --------------------------------------------------------------------------- files and folders


def test_a_folder_is_read_recursively_by_name_and_only_its_manifests(tmp_path, monkeypatch):
    write(tmp_path / "repo", {
        "b.yaml": VM.format(name="b"),
        "a/z.yml": VM.format(name="z"),
        "a/vm.json": json.dumps({"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "j"},
                                 "spec": {"preference": {"name": "rhel.9"}}}),
        "README.md": "instancetype: {name: not-read}\n",
        "original/vm.yml.j2": "{{ not read }}\n",
    })
    monkeypatch.chdir(tmp_path)
    found = scan(["repo"])
    assert names(found) == [
        ("preference", "rhel.9", "repo/a/vm.json", 1, 119),
        ("instancetype", "u1.medium", "repo/a/z.yml", 7, 11), ("preference", "fedora", "repo/a/z.yml", 9, 11),
        ("instancetype", "u1.medium", "repo/b.yaml", 7, 11), ("preference", "fedora", "repo/b.yaml", 9, 11)]
    assert (found.files, found.skipped, found.problems) == (3, (), ())


@pytest.mark.parametrize("current", [".", "./"])
def test_the_current_folder_names_its_files_without_a_leading_dot(tmp_path, monkeypatch, current):
    write(tmp_path, {"vm.yaml": VM.format(name="vm")})
    monkeypatch.chdir(tmp_path)
    assert {r.location.file for r in scan([current]).references} == {"vm.yaml"}


def test_files_are_read_in_the_order_they_are_named_and_a_file_named_twice_once(tmp_path, monkeypatch):
    write(tmp_path, {"d/one.yaml": VM.format(name="one"), "two.yaml": VM.format(name="two")})
    monkeypatch.chdir(tmp_path)
    found = scan(["two.yaml", "d", "d/one.yaml", "two.yaml"])
    assert [r.owner.name for r in found.references] == ["two", "two", "one", "one"]
    assert found.files == 2


def test_files_that_hold_no_object_and_no_reference_are_skipped_and_counted(tmp_path, monkeypatch):
    write(tmp_path, {
        "testparams.yaml": "NAME: test-vm\nINSTANCETYPE: u1.medium\n",
        "workflow.yml": "on: push\njobs: {test: {runs-on: ubuntu-latest}}\n",
        "empty.yaml": "",
        "comments.yaml": "# nothing\n---\n",
        "hco.yaml": "- metadata:\n    labels: {instancetype.kubevirt.io/default-preference: fedora}\n",
        "hco-now.yaml": "- metadata: {name: fedora-image-cron}\n  spec: {managedDataSource: fedora}\n",
        "configmap.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n",
        "configmaps.yaml": "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n",
    })
    monkeypatch.chdir(tmp_path)
    found = scan(["."])
    assert found.skipped == ("comments.yaml", "empty.yaml", "hco-now.yaml", "testparams.yaml", "workflow.yml")
    assert names(found) == [("preference", "fedora", "hco.yaml", 2, 59)]
    assert found.files == 8


def test_a_file_is_skipped_by_what_it_holds_whatever_the_files_before_it_held(tmp_path, monkeypatch):
    """Definitions and problems of earlier files do not make a later file count as holding something."""
    write(tmp_path, {
        "a-defines.yaml": "apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachinePreference\n"
                          "metadata: {name: mine, namespace: shop}\nspec: {}\n",
        "b-broken.yaml": "kind: [unclosed\n",
        "c-hco.yaml": "- metadata:\n    labels: {instancetype.kubevirt.io/default-preference: fedora}\n",
        "d-params.yaml": "NAME: test-vm\n",
    })
    monkeypatch.chdir(tmp_path)
    found = scan(["."])
    assert (len(found.definitions), len(found.problems), names(found)) == (
        1, 1, [("preference", "fedora", "c-hco.yaml", 2, 59)])
    assert (found.files, found.skipped) == (4, ("d-params.yaml",))


def test_definitions_beside_the_virtual_machines_that_name_them_are_found(tmp_path, monkeypatch):
    write(tmp_path, {
        "clarge.yaml": """\
            apiVersion: instancetype.kubevirt.io/v1beta1
            kind: VirtualMachineInstancetype
            metadata: {name: clarge, namespace: team}
        """,
        "vm.yaml": """\
            apiVersion: kubevirt.io/v1
            kind: VirtualMachine
            metadata: {name: vm, namespace: team}
            spec: {instancetype: {kind: VirtualMachineInstancetype, name: clarge}}
        """,
    })
    monkeypatch.chdir(tmp_path)
    found = scan(["."])
    assert [(d.kind, d.name, d.namespace, d.location.file, d.location.line) for d in found.definitions] == [
        ("VirtualMachineInstancetype", "clarge", "team", "clarge.yaml", 3)]
    assert [(r.name, r.kind, r.owner.namespace) for r in found.references] == [
        ("clarge", "VirtualMachineInstancetype", "team")]


def test_places_are_read_in_every_file(tmp_path, monkeypatch):
    write(tmp_path, {"osmap.yaml": """\
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: forklift-vsphere-osmap}
        data: {windows12_64Guest: "windows.12"}
    """})
    monkeypatch.chdir(tmp_path)
    found = scan(["."], [parse_place("preference=ConfigMap/forklift-*-osmap:data.*")])
    assert names(found) == [("preference", "windows.12", "osmap.yaml", 4, 27)]


# --------------------------------------------------------------------------- what cannot be read


def test_a_file_that_is_not_yaml_is_a_located_problem_and_the_scan_reads_on(tmp_path, monkeypatch):
    write(tmp_path, {"a.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [x\n", "b.yaml": VM.format(name="b")})
    monkeypatch.chdir(tmp_path)
    found = scan(["."])
    assert problems(found) == [
        "a.yaml:4:1: malformed YAML: did not find expected ',' or ']' (while parsing a flow sequence)"]
    assert [r.location.file for r in found.references] == ["b.yaml", "b.yaml"]
    assert (found.files, found.skipped) == (2, ())


def test_the_documents_before_a_malformed_one_are_read(tmp_path):
    path = write(tmp_path, {"m.yaml": VM.format(name="first") + "---\nkind: [\n"}) / "m.yaml"
    found = scan([path])
    assert [(r.owner.name, r.location.line) for r in found.references] == [("first", 7), ("first", 9)]
    assert [(p.location.line, p.message.split(":")[0]) for p in found.problems] == [(12, "malformed YAML")]


def test_a_duplicate_key_is_a_problem_and_the_rest_of_its_document_is_read(tmp_path):
    path = write(tmp_path, {"osmap.yaml": """\
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: osmap}
        data:
          windows8_64Guest: "windows.8"
          windows8_64Guest: "windows.8"
          windows9_64Guest: "windows.10"
    """}) / "osmap.yaml"
    found = scan([path], [parse_place("preference=ConfigMap:data.*")])
    assert problems(found) == [
        f"{path}:6:3: data.windows8_64Guest: duplicate key 'windows8_64Guest' (first at line 5)"]
    assert [(r.name, r.location.line) for r in found.references] == [("windows.8", 5), ("windows.10", 7)]


def test_too_many_documents_are_refused_at_the_first_past_the_limit(tmp_path):
    path = write(tmp_path, {"m.yaml": "---\n".join(VM.format(name=n) for n in "abc")}) / "m.yaml"
    with limited(Limits(max_documents=2)):
        found = scan([path])
    assert [r.owner.name for r in found.references] == ["a", "a", "b", "b"]
    assert problems(found) == [f"{path}:20:1: holds more than 2 YAML documents; raise the limit with "
                               "`citgen --max-documents N` or CITGEN_MAX_DOCUMENTS if the file is right"]


def test_paths_named_that_cannot_be_used_refuse_the_scan_all_at_once(tmp_path, monkeypatch):
    write(tmp_path, {"vm.yaml": VM.format(name="vm")})
    os.symlink("gone.yaml", tmp_path / "dangling.yaml")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError) as caught:
        scan(["vm.yaml", "absent.yaml", "/dev/null", "dangling.yaml"])
    assert [str(p) for p in caught.value.problems] == [
        "/dev/null: is a character device, not a regular file, a pipe or a folder",
        "absent.yaml: no such file or folder",
        "dangling.yaml: is a symbolic link that points nowhere: 'gone.yaml' does not exist",
    ]


def test_a_fifo_found_in_a_folder_is_a_problem_and_not_waited_on(tmp_path, monkeypatch):
    write(tmp_path, {"repo/vm.yaml": VM.format(name="vm")})
    os.mkfifo(tmp_path / "repo" / "pipe.yaml")
    monkeypatch.chdir(tmp_path)
    found = scan(["repo"])
    assert problems(found) == ["repo/pipe.yaml: is a FIFO (named pipe), not a regular file; citgen reads only "
                               "regular files"]
    assert found.files == 1


def test_a_file_named_that_cannot_be_read_refuses_the_scan(tmp_path, monkeypatch):
    write(tmp_path, {"vm.yaml": VM.format(name="vm")})
    monkeypatch.chdir(tmp_path)
    refuse_opening(monkeypatch, "vm.yaml")
    with pytest.raises(InputError) as caught:
        scan(["vm.yaml"])
    assert [str(p) for p in caught.value.problems] == ["vm.yaml: cannot read: Permission denied"]


def test_a_file_found_in_a_folder_that_cannot_be_read_is_a_problem_and_the_scan_reads_on(tmp_path, monkeypatch):
    write(tmp_path, {"a.yaml": VM.format(name="a"), "b.yaml": VM.format(name="b")})
    monkeypatch.chdir(tmp_path)
    refuse_opening(monkeypatch, "a.yaml")
    found = scan(["."])
    assert problems(found) == ["a.yaml: cannot read: Permission denied"]
    assert {r.owner.name for r in found.references} == {"b"}
    assert found.files == 1


def refuse_opening(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Opening a file called ``name`` fails as a file without read permission does (the suite may run as root)."""
    opening = os.open

    def refusing(path, flags, *args, **kwargs):
        if os.path.basename(path) == name:
            raise PermissionError(13, "Permission denied")
        return opening(path, flags, *args, **kwargs)

    monkeypatch.setattr("generator.source.inputfiles.os.open", refusing)


#: What a link out of a folder walked is.
OUT = "is a symbolic link leading out of the folder named; citgen reads only what is inside it (name the target itself to read it)"


def test_links_out_of_the_folder_a_loop_or_a_link_to_nothing_found_in_a_folder_are_problems(tmp_path, monkeypatch):
    write(tmp_path, {"shared/vm.yaml": VM.format(name="shared"), "repo/own.yaml": VM.format(name="own"),
                     "repo/sub/vm.yaml": VM.format(name="sub")})
    os.symlink("../shared", tmp_path / "repo" / "linked")
    os.symlink("..", tmp_path / "repo" / "up")
    os.symlink("..", tmp_path / "repo" / "sub" / "loop")
    os.symlink("sub", tmp_path / "repo" / "again")
    os.symlink("missing.yaml", tmp_path / "repo" / "gone.yaml")
    monkeypatch.chdir(tmp_path)
    found = scan(["repo"])
    assert problems(found) == [
        "repo/again/loop: is a symbolic link loop: it leads back to a folder it is in",
        "repo/gone.yaml: is a symbolic link that points nowhere: 'missing.yaml' does not exist",
        f"repo/linked: {OUT}",
        f"repo/up: {OUT}",
    ]
    # repo/sub is repo/again: read once, where it was reached first
    assert sorted({(r.owner.name, r.location.file) for r in found.references}) == [
        ("own", "repo/own.yaml"), ("sub", "repo/again/vm.yaml")]


def refuse_listing(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """A folder called ``name`` cannot be listed, as one without read or search permission (the suite may run as
    root, whom permission bits do not bind)."""
    access = os.access
    monkeypatch.setattr("generator.source.inputfiles.os.access",
                        lambda path, mode: os.path.basename(os.path.normpath(path)) != name and access(path, mode))


def test_what_a_folder_holds_is_named_from_the_folder_as_given(tmp_path, monkeypatch):
    """``./repo/``: every file, problem and folder below is named from it as written, one slash between."""
    write(tmp_path, {"repo/ok.yaml": VM.format(name="ok"), "repo/secret.yaml": VM.format(name="s"),
                     "repo/locked/vm.yaml": VM.format(name="locked"), "vm.yaml": VM.format(name="above")})
    os.symlink("missing.yaml", tmp_path / "repo" / "gone.yaml")
    os.symlink("..", tmp_path / "repo" / "loop")
    monkeypatch.chdir(tmp_path)
    refuse_opening(monkeypatch, "secret.yaml")
    refuse_listing(monkeypatch, "locked")
    found = scan(["./repo/"])
    assert problems(found) == [
        "./repo/gone.yaml: is a symbolic link that points nowhere: 'missing.yaml' does not exist",
        "./repo/locked: cannot read the folder: permission denied",
        f"./repo/loop: {OUT}",
        "./repo/secret.yaml: cannot read: Permission denied"]
    # the link out of repo is not followed: vm.yaml beside repo is not read
    assert {r.location.file for r in found.references} == {"./repo/ok.yaml"}
    assert found.files == 1


def test_a_folder_given_with_a_trailing_slash_keeps_every_letter_of_its_name(tmp_path, monkeypatch):
    """Only the slashes end a folder given as ``repoX/``: the name before them is kept whole."""
    write(tmp_path, {"repoX/vm.yaml": VM.format(name="vm")})
    monkeypatch.chdir(tmp_path)
    found = scan(["repoX/"])
    assert {r.location.file for r in found.references} == {"repoX/vm.yaml"}


def test_a_file_gone_since_its_folder_was_listed_is_passed_over_and_the_rest_read(tmp_path, monkeypatch):
    write(tmp_path, {"repo/vm.yaml": VM.format(name="vm")})
    listdir = os.listdir
    monkeypatch.setattr("generator.source.inputfiles.os.listdir", lambda path: [*listdir(path), "a-gone.yaml"])
    monkeypatch.chdir(tmp_path)
    found = scan(["repo"])
    assert (problems(found), found.files, {r.location.file for r in found.references}) == ([], 1, {"repo/vm.yaml"})


def test_a_name_that_is_no_text_is_a_problem_and_the_other_references_are_read():
    text = ("apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: n}\nspec:\n  instancetype: {name: 5}\n"
            "  preference: {name: fedora}\n")
    found = scan(["-"], stdin=io.BytesIO(text.encode()))
    assert problems(found) == ["<stdin>#0 (n) $.spec.instancetype.name: spec.instancetype: expected the name of an "
                               "instancetype as text, got 5"]
    assert ([(r.family, r.name) for r in found.references], found.skipped) == ([("preference", "fedora")], ())


def test_a_folder_named_that_cannot_be_listed_refuses_the_scan(tmp_path, monkeypatch):
    write(tmp_path, {"locked/vm.yaml": VM.format(name="locked")})
    monkeypatch.chdir(tmp_path)
    refuse_listing(monkeypatch, "locked")
    with pytest.raises(InputError) as caught:
        scan(["locked"])
    assert [str(p) for p in caught.value.problems] == ["locked: cannot read the folder: permission denied"]


def test_folders_and_files_the_permission_bits_keep_from_citgen_are_problems_and_the_rest_is_read(tmp_path):
    write(tmp_path, {"repo/ok.yaml": VM.format(name="ok"), "repo/secret.yaml": VM.format(name="s"),
                     "repo/locked/vm.yaml": VM.format(name="locked")})
    (tmp_path / "repo" / "secret.yaml").chmod(0)
    (tmp_path / "repo" / "locked").chmod(0)
    script = ("import json, sys; from generator.tools.refs.scan import scan; found = scan(['repo']); "
              "print(json.dumps([[str(p) for p in found.problems], [r.owner.name for r in found.references]]))")
    try:
        done = subprocess.run(bits_apply([sys.executable, "-c", script]), cwd=tmp_path, capture_output=True,
                              text=True, env=child_env(), timeout=120)
    finally:
        (tmp_path / "repo" / "locked").chmod(0o755)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        ["repo/locked: cannot read the folder: permission denied", "repo/secret.yaml: cannot read: Permission denied"],
        ["ok", "ok"]]


# --------------------------------------------------------------------------- standard input and dumps


def test_standard_input_is_read_as_a_file_named_stdin():
    found = scan(["-"], stdin=io.BytesIO(VM.format(name="piped").encode()))
    assert names(found) == [("instancetype", "u1.medium", "<stdin>", 7, 11), ("preference", "fedora", "<stdin>", 9, 11)]
    assert found.files == 1


def test_standard_input_and_a_file_are_both_read(tmp_path, monkeypatch):
    write(tmp_path, {"vm.yaml": VM.format(name="file")})
    monkeypatch.chdir(tmp_path)
    found = scan(["-", "vm.yaml"], stdin=io.BytesIO(VM.format(name="piped").encode()))
    assert [(r.owner.name, r.location.file) for r in found.references] == [
        ("piped", "<stdin>"), ("piped", "<stdin>"), ("file", "vm.yaml"), ("file", "vm.yaml")]
    assert found.files == 2


STDIN_TOO_BIG = ("<stdin>: is larger than the 8 bytes limit on input files; raise it with `citgen --max-file-size "
                 "SIZE` or CITGEN_MAX_FILE_SIZE if the file is right")


def test_standard_input_that_cannot_be_read_refuses_the_scan_naming_it():
    with limited(Limits(max_file_size=8, max_documents=10)), pytest.raises(InputError) as caught:
        scan(["-"], stdin=io.BytesIO(VM.format(name="piped").encode()))
    assert [str(p) for p in caught.value.problems] == [STDIN_TOO_BIG]


DUMP = """\
apiVersion: v1
items:
- apiVersion: kubevirt.io/v1
  kind: VirtualMachine
  metadata:
    name: vm-1
    namespace: team-a
  spec:
    instancetype:
      kind: virtualmachineclusterinstancetype
      name: u1.medium
      revisionName: vm-1-u1.medium-v1beta1-abc-1
    runStrategy: Always
- apiVersion: cdi.kubevirt.io/v1beta1
  kind: DataSource
  metadata:
    labels:
      instancetype.kubevirt.io/default-preference: centos.stream8
    name: centos-stream8
    namespace: os-images
  spec:
    source:
      pvc: {name: centos-stream8-abc, namespace: os-images}
kind: List
metadata:
  resourceVersion: ""
"""


def test_a_kubectl_dump_is_read_item_by_item_each_item_an_owner_of_its_own():
    found = scan(["-"], stdin=io.BytesIO(DUMP.encode()))
    assert [(r.family, r.name, r.kind, r.location.line, r.location.column, r.location.doc, r.location.path)
            for r in found.references] == [
        ("instancetype", "u1.medium", "virtualmachineclusterinstancetype", 11, 13, 0,
         ("items", 0, "spec", "instancetype", "name")),
        ("preference", "centos.stream8", None, 18, 52, 0,
         ("items", 1, "metadata", "labels", "instancetype.kubevirt.io/default-preference"))]
    assert [(r.owner.key, r.owner.kind, r.owner.name, r.owner.namespace) for r in found.references] == [
        ("<stdin>#0 $.items[0]", "VirtualMachine", "vm-1", "team-a"),
        ("<stdin>#0 $.items[1]", "DataSource", "centos-stream8", "os-images")]


def test_a_dump_in_json_is_read_item_by_item_alike(tmp_path):
    path = tmp_path / "dump.json"
    path.write_text(json.dumps(stream_data(DUMP), indent=4))
    found = scan([path])
    assert [(r.name, r.location.line, r.location.column, r.location.path[:2]) for r in found.references] == [
        ("u1.medium", 14, 29, ("items", 0)), ("centos.stream8", 25, 68, ("items", 1))]


def test_a_dump_of_characters_of_every_width_is_cut_into_items_at_their_characters():
    """libyaml reads the text a piece at a time, its marks in characters: a piece may end inside a character."""
    notes = ["é" * 7, "€" * 5000, "😀" * 3, "ж" * 9999, ""]  # 2, 3, 4 and 2 bytes a character in UTF-8
    items = "".join(f"- apiVersion: kubevirt.io/v1\n  kind: VirtualMachine\n  metadata:\n    name: vm-{i}\n"
                    f"    annotations: {{note: \"{note}\"}}\n  spec:\n    preference: {{name: fédora-{note[:1]}}}\n"
                    for i, note in enumerate(notes))
    found = scan(["-"], stdin=io.BytesIO(f"apiVersion: v1\nitems:\n{items}kind: List\n".encode()))
    assert found.problems == ()
    assert [(r.name, r.owner.name, r.location.line, r.location.column) for r in found.references] == [
        (f"fédora-{note[:1]}", f"vm-{i}", 9 + 7 * i, 24) for i, note in enumerate(notes)]


def stream_data(text: str) -> object:
    from tests.helpers import parse_stream

    [data] = parse_stream(text)
    return data


def test_a_list_is_handed_to_the_reader_one_item_at_a_time(monkeypatch):
    read = []
    reader = stream.iter_documents

    def recording(text, file, **kwargs):
        read.append(text.strip().splitlines()[0])
        return reader(text, file, **kwargs)

    monkeypatch.setattr(stream, "iter_documents", recording)
    typed = DUMP.replace("kind: List", "kind: VirtualMachineList")
    assert len(scan(["-"], stdin=io.BytesIO(typed.encode())).references) == 2
    assert read == ["apiVersion: kubevirt.io/v1", "apiVersion: cdi.kubevirt.io/v1beta1"]


def test_a_list_holding_anchors_is_read_whole_so_that_its_aliases_find_them(monkeypatch):
    read = []
    reader = stream.iter_documents
    monkeypatch.setattr(stream, "iter_documents",
                        lambda text, file, **kwargs: read.append(text) or reader(text, file, **kwargs))
    anchored = DUMP.replace("    instancetype:\n", "    instancetype: &matcher\n").replace(
        "  spec:\n    source:", "  spec:\n    template: *matcher\n    source:")
    found = scan(["-"], stdin=io.BytesIO(anchored.encode()))
    assert [r.name for r in found.references] == ["u1.medium", "centos.stream8"]
    assert len(read) == 1


def test_a_problem_in_one_item_of_a_dump_is_located_there_and_the_other_items_are_read():
    broken = DUMP.replace("    runStrategy: Always\n", "    runStrategy: Always\n    runStrategy: Halted\n")
    found = scan(["-"], stdin=io.BytesIO(broken.encode()))
    assert problems(found) == [
        "<stdin>:14:5: items[0].spec.runStrategy: duplicate key 'runStrategy' (first at line 13)"]
    assert [r.name for r in found.references] == ["u1.medium", "centos.stream8"]


def test_an_item_nested_too_deep_is_refused_and_the_other_items_are_read():
    deep = "[" * 120 + "]" * 120
    broken = DUMP.replace("    runStrategy: Always\n", f"    runStrategy: Always\n    deep: {deep}\n")
    found = scan(["-"], stdin=io.BytesIO(broken.encode()))
    assert [(p.location.line, p.message.split(";")[0]) for p in found.problems] == [
        (14, "lists and mappings are nested more than 100 levels deep")]
    assert [r.name for r in found.references] == ["centos.stream8"]


def test_a_multi_document_stream_from_a_chart_is_read_document_by_document():
    rendered = "---\n# Source: chart/templates/vm.yaml\n" + VM.format(name="a") + "---\n# Source: chart/b.yaml\n" + \
        VM.format(name="b")
    found = scan(["-"], stdin=io.BytesIO(rendered.encode()))
    assert [(r.owner.name, r.location.doc, r.location.line) for r in found.references] == [
        ("a", 0, 9), ("a", 0, 11), ("b", 1, 20), ("b", 1, 22)]


def test_the_lines_a_reader_s_message_names_are_the_file_s_in_any_document():
    text = VM.format(name="a") + "---\nlist: &loop [*loop]\n---\napiVersion: v1\nkind: X\nkind: Y\n"
    found = scan(["-"], stdin=io.BytesIO(text.encode()))
    assert problems(found) == [
        "<stdin>:11:14: alias '*loop' refers to the list or mapping that contains it (anchored at line 11); YAML "
        "that refers to itself cannot be read",
        "<stdin>:15:1: kind: duplicate key 'kind' (first at line 14)"]


def test_what_a_scan_kept_apart_from_the_collector_is_handed_back(tmp_path, monkeypatch):
    """The scan freezes what it keeps every FREEZE_EVERY units (a dump's references); it unfreezes it at its end."""
    import gc

    from generator.tools.refs import scan as scanning

    monkeypatch.setattr(scanning, "FREEZE_EVERY", 2)
    items = [{"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": f"vm{i}"},
              "spec": {"preference": {"name": "fedora"}}} for i in range(5)]
    dump = tmp_path / "dump.json"
    dump.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}, indent=4), encoding="utf-8")
    frozen = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(len(frozen)))
    found = scan((str(dump),), ())
    assert [r.name for r in found.references] == ["fedora"] * 5
    assert len(frozen) == 2  # after the second and the fourth of five units
    assert gc.get_freeze_count() == 0
    written = [n for n, line in enumerate(dump.read_text(encoding="utf-8").splitlines(), 1) if '"fedora"' in line]
    assert [r.location.line for r in found.references] == written  # each found when asked, after the scan
