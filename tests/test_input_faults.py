"""What every command reads, under the faults a user's machine and editor make (issue 32).

Every command reads through one reader (generator/source/inputfiles.py), so each class
below is handled there once and shown here through the command line:

1. a folder or file citgen may not read, at every level of a catalog (every folder of
   the copied catalog's tree, so a folder added later is covered) and of an overlay's
   path: exit 2, the folder named, nothing written;
2. every kind of input saved with a UTF-8 byte-order mark and CRLF line ends, as
   editors save them: read as the same file without them, and the README written back
   as it was saved;
3. a FIFO, a character device, a link to nothing and a link loop as each file or folder
   argument: exit 2, the path and what it is named, no hang;
4. what was accepted without a word: ``validate --matrix`` of files with nothing to
   pair, and a swagger or release file holding NaN.

Permission bits do not bind root, so the runs of class 1 are real processes without
root's overrides (tests.helpers.citgen_forked); everything else runs in this process.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
from pathlib import Path
from typing import Iterator

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.pipeline import BuildOptions, catalog_objects
from tests.conftest import SWAGGER, shared_file
from tests.helpers import REPO, citgen_forked, copy_catalog, default_build, snapshot

pytestmark = pytest.mark.heavy(8)  # seconds of a worker's time: a citgen process per folder and file of a catalog

ALL = "common-instancetypes-all-bundle.yaml"
WHOLE = "citgen reads all of a catalog folder or refuses it, so that no file of it is left out unnoticed"
ONLY_REGULAR = "not a regular file; citgen reads only regular files"
NOWHERE = "is a symbolic link that points nowhere: 'nowhere.yaml' does not exist"
LOOP = "is a symbolic link loop: following its links never reaches a file"
VM = REPO / "tests" / "cases" / "expand" / "windows-11-u1-large" / "vm.yaml"
EDGE = REPO / "examples" / "edge" / "overlay.yaml"


def citgen(*args: str | Path):
    """citgen in this process; anything escaping but an exit fails the test with its traceback."""
    result = CliRunner().invoke(main, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"unhandled {type(result.exception).__name__}: {result.exception}") \
            from result.exception
    return result


@pytest.fixture(autouse=True)
def deadline() -> Iterator[None]:
    """A run that hangs (a FIFO opened for reading waits for a writer) fails instead of hanging the suite."""
    def expire(signum, frame):
        raise TimeoutError("citgen did not finish within 60 seconds")

    before = signal.signal(signal.SIGALRM, expire)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, before)


def as_an_editor_saves(path: Path) -> Path:
    """``path`` rewritten with a UTF-8 byte-order mark first and CRLF line ends."""
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n"))
    return path


def saved_by_an_editor(source: Path, target: Path) -> Path:
    shutil.copy(source, target)
    return as_an_editor_saves(target)


# --------------------------------------------------------------------------- 1. what may not be read


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the built-in catalog, with an overlay of its own in a folder, built into ``out`` beside it."""
    root = tmp_path_factory.mktemp("unreadable")
    catalog = copy_catalog(root / "catalog")
    (catalog / "overlays").mkdir()
    shutil.copy(EDGE, catalog / "overlays" / "edge.yaml")
    with (catalog / "catalog.yaml").open("a", encoding="utf-8") as handle:
        handle.write("overlays: [overlays/edge.yaml]\n")
    assert citgen("build", "--catalog", catalog, "--out", root / "out").exit_code == 0
    return root


def folders(catalog: Path) -> list[str]:
    """Every folder of a catalog but the catalog itself, as the catalog names them."""
    return sorted(Path(top, name).relative_to(catalog).as_posix() for top, names, _ in os.walk(catalog)
                  for name in names)


def first_files(catalog: Path) -> list[str]:
    """The first file of every folder of a catalog, itself included."""
    found = []
    for top, _, names in sorted(os.walk(catalog)):
        if names:
            found.append((Path(top) / sorted(names)[0]).relative_to(catalog).as_posix())
    return found


#: The modes a folder citgen may not read is given: no permission at all, and listed but not entered.
FOLDER_MODES = {"no permissions": 0o000, "no search permission": 0o644}


def build_of(root: Path, **run: object) -> dict[str, object]:
    """A run of ``citgen build`` of ``root``'s catalog into ``root/out`` (tests/faultrun.py's form)."""
    return {"args": ["build", "--catalog", str(root / "catalog"), "--out", str(root / "out")], "cwd": str(root),
            **run}


@pytest.fixture(scope="module")
def unread(built: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """Every run of this section, each with a folder or file made unreadable for it, by name.

    Permission bits do not bind root, so they run in a process that gives up root's
    overrides, which forks a child a run (tests.helpers.citgen_forked). No run of
    ``built``'s catalog may write anything: its earlier outputs are compared after all of them.
    """
    catalog, before = built / "catalog", snapshot(built / "out")
    runs = {f"{folder} {how}": build_of(built, modes={str(catalog / folder): mode})
            for folder in folders(catalog) for how, mode in FOLDER_MODES.items()}
    runs.update({f"{name} unreadable": build_of(built, unreadable=[str(catalog / name)])
                 for name in first_files(catalog)})
    runs["out/kustomize unreadable, --check"] = {
        "args": ["build", "--catalog", "catalog", "--out", "out", "--check"], "cwd": str(built),
        "modes": {str(built / "out" / "kustomize"): 0o000}}
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    overlay = elsewhere / "overlays" / "vendor" / "edge" / "overlay.yaml"
    overlay.parent.mkdir(parents=True)
    shutil.copy(EDGE, overlay)
    for level in ("overlays", "overlays/vendor", "overlays/vendor/edge"):
        runs[f"overlay under {level}"] = {"args": ["build", "--overlay", "overlays/vendor/edge/overlay.yaml", "--out",
                                                   "out"], "cwd": str(elsewhere), "unreadable": [str(elsewhere / level)]}
    for name in ("v1.2.2.json", "swagger.json"):
        source = SWAGGER if name == "swagger.json" else SWAGGER.parent / "crds" / name
        folder = tmp_path_factory.mktemp("import") / "kubevirt"
        folder.mkdir()
        shutil.copy(shared_file(source), folder / name)
        runs[f"import {name}"] = {"args": ["schema", "import", f"kubevirt/{name}", "--out", "out"],
                                  "cwd": str(folder.parent), "unreadable": [str(folder)]}
    results = citgen_forked(runs, tmp_path_factory.mktemp("runs"))
    assert [name for name, result in results.items() if result["traceback"]] == []
    assert snapshot(built / "out") == before
    assert sorted(p.name for p in built.iterdir()) == ["catalog", "out"]  # no staging left beside the output
    assert not (elsewhere / "out").exists()
    return results


def test_the_walks_see_every_folder_a_catalog_has(built: Path):
    assert folders(built / "catalog") == [
        "overlays", "preferences", "preferences/traits", "series", "templates", "templates/helm",
        "templates/helm/chart", "templates/helm/chart/templates", "templates/kustomize"]


@pytest.mark.parametrize("how", FOLDER_MODES)
def test_a_folder_that_cannot_be_read_is_refused_at_every_level_of_a_catalog(built: Path, unread, how: str):
    said = {folder: (unread[f"{folder} {how}"]["code"], unread[f"{folder} {how}"]["stderr"])
            for folder in folders(built / "catalog")}
    assert said == {folder: (2, f"{folder}: error: cannot read the folder: permission denied; {WHOLE} [input]\n"
                                "citgen: 1 problem, nothing written\n") for folder in said}


def test_a_file_that_cannot_be_read_is_refused_in_every_folder_of_a_catalog(built: Path, unread):
    said = {name: (unread[f"{name} unreadable"]["code"], unread[f"{name} unreadable"]["stderr"])
            for name in first_files(built / "catalog")}
    shown = {name: built / "catalog" / name if name.startswith("overlays/") else name  # overlays: named as listed
             for name in said}
    assert said == {name: (2, f"{shown[name]}: error: cannot read: Permission denied [input]\n"
                              "citgen: 1 problem, nothing written\n") for name in said}


def test_an_overlay_in_a_folder_that_cannot_be_entered_is_refused_at_every_level_of_its_path(unread):
    for level in ("overlays", "overlays/vendor", "overlays/vendor/edge"):
        done = unread[f"overlay under {level}"]
        assert (done["code"], done["stderr"]) == (2, f"{level}: error: cannot read the folder: permission denied "
                                                     "[input]\ncitgen: 1 problem, nothing written\n"), level


@pytest.mark.parametrize("folder", ["templates/kustomize", "templates/helm/chart"])
def test_an_unreadable_template_folder_is_refused_not_replaced_by_the_built_in_one(unread, folder: str):
    """The examples of the issue: an unreadable templates/kustomize was built with the built-in templates, exit 0,
    and an unreadable chart folder was a traceback."""
    assert unread[f"{folder} no permissions"]["stderr"].startswith(
        f"{folder}: error: cannot read the folder: permission denied; {WHOLE} [input]\n")


def test_an_output_folder_build_check_cannot_read_is_refused_not_reported_missing(unread):
    done = unread["out/kustomize unreadable, --check"]
    assert (done["code"], done["stdout"], done["stderr"]) == (
        2, "", "out/kustomize: error: cannot read the folder: permission denied [input]\n"
               "citgen: 1 problem, nothing written\n")


@pytest.mark.parametrize("name", ["v1.2.2.json", "swagger.json"])
def test_a_file_to_import_in_a_folder_that_cannot_be_entered_is_refused_and_nothing_is_written(unread, name: str):
    done = unread[f"import {name}"]
    assert (done["code"], done["stderr"]) == (
        2, "kubevirt: error: cannot read the folder: permission denied [input]\n")


# --------------------------------------------------------------------------- 2. what editors save


@pytest.fixture
def editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``tmp_path``, the working directory, holding a plain and an editor-saved copy of each input."""
    monkeypatch.chdir(tmp_path)
    bundle = REPO / "bundles" / ALL
    shutil.copy(bundle, tmp_path / "plain.yaml")
    saved_by_an_editor(bundle, tmp_path / "saved.yaml")
    shutil.copy(VM, tmp_path / "vm.yaml")
    saved_by_an_editor(VM, tmp_path / "vm-saved.yaml")
    shutil.copy(EDGE, tmp_path / "overlay.yaml")
    saved_by_an_editor(EDGE, tmp_path / "overlay-saved.yaml")
    return tmp_path


def test_a_catalog_whose_every_file_an_editor_saved_builds_byte_for_byte_the_same(tmp_path: Path,
                                                                                  previous_output: Path):
    catalog = copy_catalog(tmp_path / "catalog")
    saved = [p for p in sorted(catalog.rglob("*")) if p.is_file()]  # the Helm chart's own files too
    for path in saved:
        as_an_editor_saves(path)
    kinds = {p.relative_to(catalog).parts[0] if p.parent != catalog / "templates" else "templates/*.j2"
             for p in saved}
    assert kinds >= {"catalog.yaml", "series", "preferences", "templates"}
    assert (catalog / "series" / "sizes.yaml").read_bytes().startswith(b"\xef\xbb\xbf")
    assert (catalog / "preferences" / "traits" / "rng.yaml").read_bytes().count(b"\r\n") > 0
    result = citgen("build", "--catalog", catalog, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert snapshot(tmp_path / "out") == snapshot(previous_output)


def test_a_problem_in_a_file_an_editor_saved_is_located_as_in_the_file_without_its_mark(tmp_path: Path):
    catalog = copy_catalog(tmp_path / "catalog")
    path = catalog / "series" / "u.yaml"
    path.write_text("colour: blue\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    plain = citgen("list", "--catalog", catalog)
    as_an_editor_saves(path)
    saved = citgen("list", "--catalog", catalog)
    assert plain.exit_code == saved.exit_code == 2
    assert saved.stderr == plain.stderr
    assert saved.stderr.startswith("series/u.yaml:1:1: error: colour: unknown key 'colour'")


def test_an_overlay_an_editor_saved_changes_the_catalog_as_the_plain_one(editor: Path):
    _, _, plain = catalog_objects(BuildOptions(overlays=(editor / "overlay.yaml",)))
    _, _, saved = catalog_objects(BuildOptions(overlays=(editor / "overlay-saved.yaml",)))
    assert len(saved) < 100  # the edge overlay keeps a few series and preferences
    assert [(o.name, o.spec, o.labels) for o in saved] == [(o.name, o.spec, o.labels) for o in plain]


def test_a_bundle_an_editor_saved_is_validated_and_compared_as_the_plain_one(editor: Path):
    validated = citgen("validate", "saved.yaml")
    assert (validated.exit_code, validated.stdout) == (0, "no problems in 244 documents\n")
    assert citgen("diff", "saved.yaml", "plain.yaml").stdout == "no differences between saved.yaml and plain.yaml\n"


def test_a_bundle_to_retain_from_an_editor_saved_keeps_the_same_objects(editor: Path):
    old = (REPO / "bundles" / ALL).read_text(encoding="utf-8").replace("name: u1.nano\n", "name: u0.nano\n")
    (editor / "old.yaml").write_text(old, encoding="utf-8")
    saved_by_an_editor(editor / "old.yaml", editor / "old-saved.yaml")
    _, _, plain = catalog_objects(BuildOptions(retain_from=(editor / "old.yaml",)))
    _, _, saved = catalog_objects(BuildOptions(retain_from=(editor / "old-saved.yaml",)))
    assert [o.name for o in saved if o.facts.get("retained")] == ["u0.nano"]
    assert [(o.name, o.spec, o.labels) for o in saved] == [(o.name, o.spec, o.labels) for o in plain]


def test_a_virtual_machine_an_editor_saved_expands_as_the_plain_one(editor: Path):
    plain = citgen("expand", "vm.yaml")
    saved = citgen("expand", "vm-saved.yaml")
    assert plain.exit_code == saved.exit_code == 0
    assert saved.stdout == plain.stdout


BEGIN, END = "<!-- BEGIN citgen readme: {} -->", "<!-- END citgen readme: {} -->"
PAIRS = "".join(f"{BEGIN.format(t)}\nold\n{END.format(t)}\n" for t in ("series", "instancetypes", "preferences"))


@pytest.mark.parametrize("mark, ends", [(b"\xef\xbb\xbf", b"\n"), (b"\xef\xbb\xbf", b"\r\n"), (b"", b"\r\n")],
                         ids=["byte-order mark", "byte-order mark and CRLF", "CRLF"])
def test_a_readme_an_editor_saved_is_updated_and_written_back_as_it_was_saved(tmp_path: Path, mark: bytes,
                                                                              ends: bytes):
    """The example of the issue: a README starting with a byte-order mark and a marker was refused."""
    path = tmp_path / "README.md"
    path.write_bytes(mark + (PAIRS + "Text after the tables.\n").encode().replace(b"\n", ends))
    updated = citgen("readme", "--file", path)
    assert (updated.exit_code, updated.stdout) == (0, f"{BuildOptions().named(default_build().version)}: "
                                                      f"updated the tables in {path}\n")
    raw = path.read_bytes()
    assert raw.startswith(mark + BEGIN.format("series").encode() + ends)
    assert raw[len(mark):].count(b"\xef\xbb\xbf") == 0
    assert raw.count(b"\n") == raw.count(ends)
    assert raw.endswith(b"Text after the tables." + ends)
    assert b"| `u1.nano` |" in raw
    fresh = citgen("readme", "--file", path, "--check")
    named = BuildOptions().named(default_build().version)  # the catalog readme tabulated, as its summary names it
    assert (fresh.exit_code, fresh.stdout) == (0, f"{named}: {path} is up to date\n")


def test_a_readme_with_mixed_line_ends_is_written_back_with_lf(tmp_path: Path):
    path = tmp_path / "README.md"
    path.write_bytes(b"# Catalog\r\n" + PAIRS.encode())
    assert citgen("readme", "--file", path).exit_code == 0
    assert b"\r" not in path.read_bytes()


def test_an_openapi_document_an_editor_saved_imports_the_same_schemas(tmp_path: Path):
    swagger = shared_file(SWAGGER)
    saved = saved_by_an_editor(swagger, tmp_path / "swagger.json")
    assert citgen("schema", "import", swagger, "--out", tmp_path / "plain").exit_code == 0
    assert citgen("schema", "import", saved, "--out", tmp_path / "saved").exit_code == 0
    plain, again = snapshot(tmp_path / "plain"), snapshot(tmp_path / "saved")
    assert {k: v for k, v in again.items() if k != "metadata.json"} == \
        {k: v for k, v in plain.items() if k != "metadata.json"}  # the metadata records the file's own hash


def test_a_release_file_an_editor_saved_imports_the_same_schemas(tmp_path: Path):
    release = shared_file(SWAGGER.parent / "crds" / "v1.2.2.json")
    (tmp_path / "saved").mkdir()
    saved = saved_by_an_editor(release, tmp_path / "saved" / "v1.2.2.json")
    assert citgen("schema", "import", release, "--out", tmp_path / "plain").exit_code == 0
    assert citgen("schema", "import", saved, "--out", tmp_path / "saved-out").exit_code == 0
    assert snapshot(tmp_path / "saved-out") == snapshot(tmp_path / "plain")


# --------------------------------------------------------------------------- 3. special files as each argument


#: Each file or folder a command line names, with F for the special file: and what it must be.
ARGUMENTS = [
    (["validate", "F"], "objects"),
    (["validate", "--matrix", "F"], "objects"),
    (["validate", "--catalog", "F"], "folder"),
    (["diff", "F", "plain.yaml"], "objects"),
    (["diff", "plain.yaml", "F"], "objects"),
    (["expand", "F"], "objects"),
    (["expand", "--bundle", "F", "vm.yaml"], "objects"),
    (["build", "--retain-from", "F", "--out", "out"], "objects"),
    (["build", "--overlay", "F", "--out", "out"], "file"),
    (["build", "--catalog", "F", "--out", "out"], "folder"),
    (["site", "--overlay", "F", "--out", "site"], "file"),
    (["site", "--catalog", "F", "--out", "site"], "folder"),
    (["list", "--catalog", "F"], "folder"),
    (["readme", "--catalog", "F", "--check"], "folder"),
    (["readme", "--file", "F", "--check"], "file"),
    (["schema", "import", "F", "--out", "schemas"], "file"),
    (["init", "F"], "init"),
]

#: What each special file is, said of a file argument, a folder argument, init's folder and a source of
#: objects (which may be a pipe: a FIFO nothing writes to reads as empty, never waited on).
NO_PIPE = "not a regular file, a pipe or a folder"
EMPTY = "the file is empty, or holds only comments and document separators"
SPECIAL = {
    "fifo": {"file": f"is a FIFO (named pipe), {ONLY_REGULAR}", "folder": "is a FIFO (named pipe), not a directory",
             "init": "exists and is a FIFO (named pipe), not a directory", "objects": "no catalog objects"},
    "/dev/null": {"file": f"is a character device, {ONLY_REGULAR}", "folder": "is a character device, not a directory",
                  "init": "exists and is a character device, not a directory",
                  "objects": f"is a character device, {NO_PIPE}"},
    "/dev/zero": {"file": f"is a character device, {ONLY_REGULAR}", "folder": "is a character device, not a directory",
                  "init": "exists and is a character device, not a directory",
                  "objects": f"is a character device, {NO_PIPE}"},
    "dangling link": {"file": NOWHERE, "folder": NOWHERE, "init": NOWHERE, "objects": NOWHERE},
    "link loop": {"file": LOOP, "folder": LOOP, "init": LOOP, "objects": LOOP},
}


def make_special(folder: Path, kind: str) -> str:
    """A special file of ``kind`` in ``folder`` (the working directory), as a command line names it."""
    if kind.startswith("/dev/"):
        return kind
    path = folder / "special.yaml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dangling link":
        path.symlink_to("nowhere.yaml")
    else:
        path.symlink_to("loop.yaml")
        (folder / "loop.yaml").symlink_to("special.yaml")
    return "special.yaml"


@pytest.mark.parametrize("kind", SPECIAL)
def test_a_special_file_as_each_argument_is_refused_by_its_name_and_what_it_is(editor: Path, kind: str):
    name = make_special(editor, kind)
    for words, what in ARGUMENTS:
        args = [name if word == "F" else word for word in words]
        result = citgen(*args)
        first = result.stderr.splitlines()[0] if result.stderr else ""
        said = SPECIAL[kind][what]
        if kind == "fifo" and what == "objects":  # read as a pipe no one writes to: empty, refused as holding nothing
            assert result.exit_code == 2 and first.startswith(f"{name}: error: no "), args
            assert EMPTY in first or "the input holds no objects" in first, args
            continue
        assert (result.exit_code, first) == (2, f"{name}: error: {said} [input]"), args
        assert not any((editor / made).exists() for made in ("out", "site", "schemas")), args


def test_a_fifo_named_like_the_all_bundle_of_a_build_is_refused_not_missing(editor: Path):
    """The example of the issue: diff said such a build directory had no all-bundle."""
    (editor / "build").mkdir()
    os.mkfifo(editor / "build" / ALL)
    result = citgen("diff", "build", "plain.yaml")
    assert (result.exit_code, result.stderr) == (
        2, f"build/{ALL}: error: is a FIFO (named pipe), {ONLY_REGULAR} [input]\n")


def test_a_folder_without_an_all_bundle_is_read_as_a_folder_of_objects_and_said_to_hold_none(editor: Path):
    (editor / "build").mkdir()
    result = citgen("diff", "build", "plain.yaml")
    assert (result.exit_code, result.stderr) == (
        2, "build: error: no catalog objects: the folder holds no *.yaml, *.yml or *.json file [input]\n")


# --------------------------------------------------------------------------- 4. what was accepted without a word


@pytest.mark.parametrize("bundle, lacking", [
    ("common-instancetypes-bundle.yaml", "VirtualMachineClusterInstancetype and no VirtualMachineClusterPreference"),
    ("common-clusterinstancetypes-bundle.yaml", "VirtualMachineClusterPreference"),
    ("common-clusterpreferences-bundle.yaml", "VirtualMachineClusterInstancetype"),
])
def test_validate_matrix_of_a_file_with_nothing_to_pair_is_refused(editor: Path, bundle: str, lacking: str):
    shutil.copy(REPO / "bundles" / bundle, editor / bundle)
    result = citgen("validate", "--matrix", bundle)
    assert (result.exit_code, result.stderr) == (2, (
        f"{bundle}: error: holds no {lacking}; --matrix pairs each VirtualMachineClusterInstancetype with each "
        "VirtualMachineClusterPreference of the files named, so they must hold both (a build's all-bundle does) "
        "[input]\n"))


def test_validate_matrix_pairs_the_files_named(editor: Path):
    for bundle in ("common-clusterinstancetypes-bundle.yaml", "common-clusterpreferences-bundle.yaml"):
        shutil.copy(REPO / "bundles" / bundle, editor / bundle)
    together = citgen("validate", "--matrix", "common-clusterinstancetypes-bundle.yaml",
                      "common-clusterpreferences-bundle.yaml")
    assert together.exit_code == 0
    assert together.stdout == citgen("validate", "--matrix", "plain.yaml").stdout


def test_validate_matrix_of_files_that_together_lack_a_kind_names_them_all(editor: Path):
    shutil.copy(REPO / "bundles" / "common-instancetypes-bundle.yaml", editor / "a.yaml")
    shutil.copy(REPO / "bundles" / "common-clusterinstancetypes-bundle.yaml", editor / "b.yaml")
    result = citgen("validate", "--matrix", "a.yaml", "b.yaml")
    assert result.exit_code == 2
    assert result.stderr.startswith("a.yaml, b.yaml: error: hold no VirtualMachineClusterPreference; ")


NAN = "is not a JSON number (JSON has no NaN or Infinity, though Python's reader takes them); no schema can be built " \
      "from it"


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_an_openapi_document_holding_nan_is_refused_where_it_is_and_nothing_is_written(tmp_path: Path, token: str):
    text = shared_file(SWAGGER).read_text(encoding="utf-8")
    document = json.loads(text)
    document["definitions"]["v1.CPU"]["properties"]["cores"]["maximum"] = "PLACEHOLDER"
    written = json.dumps(document, indent=2).replace('"PLACEHOLDER"', token)
    (tmp_path / "swagger.json").write_text(written, encoding="utf-8")
    line = written[:written.index(f": {token}")].count("\n") + 1
    column = written.splitlines()[line - 1].index(token) + 1
    result = citgen("schema", "import", tmp_path / "swagger.json", "--out", tmp_path / "out")
    where = f"{tmp_path / 'swagger.json'}:{line}:{column}"
    assert (result.exit_code, result.stderr) == (2, f"{where}: error: {token} {NAN} [input]\n")
    assert not (tmp_path / "out").exists()


def test_a_release_file_holding_nan_is_refused_and_nothing_is_written(tmp_path: Path):
    release = shared_file(SWAGGER.parent / "crds" / "v1.2.2.json")
    text = release.read_text(encoding="utf-8").replace('"kubevirt":', '"x": NaN, "kubevirt":', 1)
    (tmp_path / "v1.2.2.json").write_text(text, encoding="utf-8")
    result = citgen("schema", "import", tmp_path / "v1.2.2.json", "--out", tmp_path / "out")
    assert (result.exit_code, result.stderr) == (2, f"{tmp_path / 'v1.2.2.json'}:4:7: error: NaN {NAN} [input]\n")
    assert not (tmp_path / "out").exists()
