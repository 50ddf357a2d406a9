"""generator/source/objects.py: the one reader of objects, its path forms, document forms and refusals."""

from __future__ import annotations

import io
import json
import os
import threading
from pathlib import Path

import pytest
import yaml

from generator.errors import InputError
from generator.problems import Location
from generator.source.objects import read_bundles, sources

KIND = "VirtualMachineClusterInstancetype"


def obj(name: str, kind: str = KIND) -> dict:
    return {"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": kind, "metadata": {"name": name},
            "spec": {"cpu": {"guest": 1}, "memory": {"guest": "1Gi"}}}


OBJECTS = [obj("u1.small"), obj("u1.large"), obj("fedora", "VirtualMachineClusterPreference")]


def multi_document(objects: list[dict]) -> str:
    return "".join("---\n" + yaml.safe_dump(o, sort_keys=False) for o in objects)


def as_list(objects: list[dict], kind: str = "List") -> str:
    return yaml.safe_dump({"apiVersion": "v1", "kind": kind, "items": objects, "metadata": {}}, sort_keys=False)


#: The same three objects in every document form the reader takes.
FORMS = {
    "documents": multi_document(OBJECTS),
    "documents with empty ones between": "---\n---\n" + multi_document(OBJECTS) + "---\n",
    "a kind: List": as_list(OBJECTS),
    "a typed List": as_list(OBJECTS, "VirtualMachineClusterInstancetypeList"),
    "a bare list": yaml.safe_dump(OBJECTS, sort_keys=False),
    "JSON as kubectl writes it": json.dumps({"apiVersion": "v1", "kind": "List", "items": OBJECTS}, indent=4),
    "minified JSON": json.dumps({"apiVersion": "v1", "kind": "List", "items": OBJECTS}, separators=(",", ":")),
}


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp_path as the current directory, so files are named relative to it, as a user names them."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(name: str, text: str) -> str:
    Path(name).parent.mkdir(parents=True, exist_ok=True)
    Path(name).write_text(text, encoding="utf-8")
    return name


def refusals(paths: list[str], **options: object) -> list[str]:
    with pytest.raises(InputError) as raised:
        read_bundles(paths, **options)  # type: ignore[arg-type]
    return [str(p) for p in raised.value.problems]


# --------------------------------------------------------------------------- document forms


@pytest.mark.parametrize("form", FORMS)
def test_every_document_form_gives_the_same_objects(here, form):
    docs = read_bundles([write("b.yaml", FORMS[form])])
    assert [d.data for d in docs] == OBJECTS


def test_a_list_item_is_located_at_its_own_line_and_path_in_the_file(here):
    path = write("live.yaml", as_list(OBJECTS))
    third = read_bundles([path])[2]
    where = third.locate(("spec", "cpu", "guest"))
    line = Path(path).read_text().splitlines()[where.line - 1]
    assert line.strip() == "guest: 1"
    assert where.path == ("items", 2, "spec", "cpu", "guest")
    assert (where.kind, where.name) == ("VirtualMachineClusterPreference", "fedora")


def test_an_item_of_a_bare_list_is_located_at_its_line(here):
    path = write("bare.yaml", yaml.safe_dump(OBJECTS, sort_keys=False))
    second = read_bundles([path])[1]
    where = second.locate(("metadata", "name"))
    assert Path(path).read_text().splitlines()[where.line - 1].strip() == "name: u1.large"
    assert where.path == (1, "metadata", "name")


def test_documents_keep_their_index_in_their_own_file(here):
    first = write("first.yaml", multi_document(OBJECTS[:2]))
    second = write("second.yaml", multi_document(OBJECTS[2:]))
    assert [(d.file, d.index, d.name) for d in read_bundles([first, second])] == [
        ("first.yaml", 0, "u1.small"), ("first.yaml", 1, "u1.large"), ("second.yaml", 0, "fedora")]


# --------------------------------------------------------------------------- path forms


def test_a_folder_is_read_as_its_manifests_by_name_and_nothing_else(here):
    write("dir/b.yaml", multi_document(OBJECTS[1:2]))
    write("dir/a.yml", multi_document(OBJECTS[:1]))
    write("dir/sub/c.json", json.dumps(OBJECTS[2]))
    write("dir/notes.txt", "not read")
    docs = read_bundles(["dir"])
    assert [(d.file, d.name) for d in docs] == [("dir/a.yml", "u1.small"), ("dir/b.yaml", "u1.large"),
                                                ("dir/sub/c.json", "fedora")]


def test_standard_input_is_read_as_a_file(here):
    docs = read_bundles(["-"], stdin=io.BytesIO(FORMS["a kind: List"].encode()))
    assert [d.data for d in docs] == OBJECTS and docs[0].file == "<stdin>"


def test_a_pipe_named_on_the_command_line_is_read_as_process_substitution_makes_it(here):
    reading, writing = os.pipe()  # bash's <(...): /dev/fd/N, its writer there before citgen reads
    writer = threading.Thread(target=lambda: os.fdopen(writing, "wb").write(FORMS["documents"].encode()))
    writer.start()
    try:
        docs = read_bundles([f"/dev/fd/{reading}"])
    finally:
        writer.join()
        os.close(reading)
    assert [d.data for d in docs] == OBJECTS


def test_a_fifo_nothing_writes_to_reads_as_empty_and_is_never_waited_on(here):
    os.mkfifo("pipe")
    assert "the file is empty" in refusals(["pipe"])[0]


def test_a_folder_reached_by_two_links_is_read_once(here):
    write("dir/real/a.yaml", multi_document(OBJECTS))
    os.symlink("real", "dir/again")
    assert [d.name for d in read_bundles(["dir"])] == ["u1.small", "u1.large", "fedora"]


def test_a_link_out_of_the_folder_is_a_problem_at_its_path_and_not_followed(here):
    write("outside/secret.yaml", multi_document(OBJECTS))
    write("dir/a.yaml", multi_document(OBJECTS))
    os.symlink("../outside", "dir/out")
    assert refusals(["dir"]) == ["dir/out: is a symbolic link leading out of the folder named; citgen reads only "
                                 "what is inside it (name the target itself to read it)"]


def test_a_folder_holding_a_kustomization_is_noted_with_the_command_that_renders_it(here):
    write("app/kustomization.yaml", "resources: [vm.yaml]\n")
    write("app/vm.yaml", multi_document(OBJECTS))
    found = sources(["app"])
    assert found.kustomizations == ("app",)
    assert "kubectl kustomize app | citgen refs -" in found.notes("refs")[0]


# --------------------------------------------------------------------------- never an empty all-clear


def test_an_empty_file_is_refused_naming_it(here):
    assert refusals([write("empty.yaml", "")]) == [
        "empty.yaml: no catalog objects: the file is empty, or holds only comments and document separators; "
        "expected VirtualMachineClusterInstancetype, VirtualMachineInstancetype, VirtualMachineClusterPreference or "
        "VirtualMachinePreference objects, as documents or in a kind: List"]


def test_an_empty_list_is_refused_as_holding_nothing(here):
    assert "the file is empty" in refusals([write("live.yaml", as_list([]))], option="--from")[0]


def test_a_file_of_other_objects_is_refused_naming_what_it_holds_and_the_option(here):
    vm = {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "vm"}}
    [message] = refusals([write("vms.yaml", multi_document([vm, vm]))], option="--bundle")
    assert message.startswith("vms.yaml: no catalog objects (given as --bundle): the file holds 2 objects "
                              "(VirtualMachine) but no instancetype or preference;")


def test_a_file_of_other_objects_is_read_where_any_object_will_do(here):
    vm = {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "vm"}}
    assert [d.kind for d in read_bundles([write("vms.yaml", multi_document([vm]))], catalog=False)] == \
        ["VirtualMachine"]


def test_scalars_are_no_objects(here):
    assert "the file holds scalars;" in refusals([write("s.yaml", "---\nhello\n---\n5\n")], catalog=False)[0]


def test_a_folder_without_manifests_names_no_file(here):
    Path("empty").mkdir()
    assert refusals(["empty"], option="--retain-from") == [
        "empty: no catalog objects (given as --retain-from): the folder holds no *.yaml, *.yml or *.json file"]


def test_every_unusable_path_is_named_at_once(here):
    assert sorted(refusals(["absent.yaml", "", write("good.yaml", multi_document(OBJECTS))])) == [
        "'': is an empty path, which names no file; give a file, a folder or -", "absent.yaml: no such file or folder"]


def test_malformed_yaml_is_refused_at_its_line(here):
    [message] = refusals([write("broken.yaml", multi_document(OBJECTS) + "---\na: [1\n")])
    assert message.startswith("broken.yaml:") and "malformed YAML" in message


def test_a_file_refused_after_good_ones_refuses_the_whole_read(here):
    good = write("good.yaml", multi_document(OBJECTS))
    with pytest.raises(InputError) as raised:
        read_bundles([good, write("empty.yaml", "")])
    assert [p.location for p in raised.value.problems] == [Location("empty.yaml")]


def test_a_list_s_own_fields_are_judged_like_any_object_s(here):
    text = as_list(OBJECTS).replace("kind: List\n", "kind: List\nkind: List\n")
    [message] = refusals([write("live.yaml", text)])
    assert message.startswith("live.yaml:") and "duplicate key 'kind'" in message


def test_a_json_list_with_a_key_written_twice_is_refused_as_the_yaml_one_is(here):
    listed = {"apiVersion": "v1", "kind": "List", "items": OBJECTS}
    text = json.dumps(listed, indent=2).replace('"kind": "List"', '"kind": "List", "kind": "List"')
    [message] = refusals([write("live.json", text)])
    assert "duplicate key 'kind'" in message
