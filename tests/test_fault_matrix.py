"""Every command, every option, under every fault its process can meet: no traceback, the documented exit.

The matrix is made from click's own tree of citgen's commands, so a command or an
option added tomorrow is run under the faults of its kind without this file changing;
an option of a type the table below does not know fails ``test_every_option_has_its_faults``
until its faults are named. Each cell is one run of the real program, forked from a
process that imported citgen once (tests/faultrun.py), with the process arranged as
the fault says:

- standard input closed, and all three standard streams closed (a run that writes outputs
  must write them whole all the same);
- standard output and standard error each closed, full (``/dev/full``) and of an
  encoding (ASCII) that lacks characters citgen prints (a lost report of a command that
  wrote its outputs says where they are);
- a working directory deleted under the run;
- each file or folder option and argument given an empty text, a FIFO, a device, a dangling
  link, a link loop, a file it may not read and a file in a folder it may not read;
- each numeric option and environment variable given 5,000 digits, each text option
  control characters;
- a catalog with one folder or file it may not read, and a file in place of one folder,
  at every level of its tree (``templates/helm/chart/templates`` included);
- every input file with a UTF-8 byte-order mark and CRLF line ends, as editors write them;
- a full file system (no file may grow), which every command that writes refuses naming
  the reason, leaving no lock, staging folder or half-written file behind.

What every run must show (docs/errors.md): no traceback; exit status 0, 1 or 2 as
documented for what happened; a refusal that names the input; earlier outputs intact.
The runs are bound by permission bits even as root (tests.helpers.bits_apply).
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import click
import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.cli.options import (CpuCount, DocumentCount, GpuCount, KubevirtParam, PathParam, QuantityParam, Seconds,
                                   SelectorParam, SizeParam)
from generator.cli.refs import PlaceParam
from tests.conftest import SHARED, SWAGGER, shared_file
from tests.helpers import REPO, citgen_forked, copy_catalog, leaf_commands, parse_stream, snapshot

pytestmark = pytest.mark.heavy(18)  # seconds of a worker's time: some 500 runs of citgen, forked

#: libosinfo's database as Debian installs it, of which ``citgen osinfo`` reads, in each run, the releases of
#: RHEL 9 it needs (a copy in the matrix's folder: faults are made on the copy, and a run reads three files,
#: not 790).
OSINFO_DB = SHARED / "reference" / "osinfo-db"
OSINFO_FILES = ("VERSION", "os/redhat.com/rhel-9.0.xml", "os/redhat.com/rhel-9.1.xml")
DIGITS = "7" * 5000
CONTROL = "x\n::error::y\x1b[31m\x07\u202e"

#: The faults each kind of option meets. An option whose type is not here fails the test
#: below: name its faults (or an empty tuple, saying why it has none) when adding one.
FAULTS: dict[type, tuple[str, ...]] = {
    PathParam: ("empty", "fifo", "device", "dangling link", "link loop", "unreadable", "in an unreadable folder"),
    CpuCount: ("digits",),
    GpuCount: ("digits",),
    QuantityParam: ("digits",),
    Seconds: ("digits",),
    SizeParam: ("digits",),
    DocumentCount: ("digits",),
    KubevirtParam: ("digits", "control"),
    SelectorParam: ("digits", "control"),
    PlaceParam: ("digits", "control"),
    click.types.StringParamType: ("control",),
    click.Choice: (),  # click itself refuses anything but its choices, as a usage error
    click.types.BoolParamType: (),  # flags: nothing to give
}

STREAMS = ("closed", "full", "ascii")
#: The parameters that name what a command writes (a folder it replaces or makes).
OUTPUTS = ("out", "out_dir", "directory")

#: What ``citgen refs`` reads in its clean run: a VirtualMachine and a DataSource naming catalog objects that fit.
MANIFESTS = """\
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: web
  namespace: shop
spec:
  instancetype:
    name: u1.medium
  preference:
    kind: VirtualMachineClusterPreference
    name: fedora
  template:
    spec:
      domain:
        devices: {}
---
apiVersion: cdi.kubevirt.io/v1beta1
kind: DataSource
metadata:
  name: fedora
  namespace: shop
  labels:
    instancetype.kubevirt.io/default-instancetype: u1.small
    instancetype.kubevirt.io/default-preference: fedora
spec:
  source:
    pvc:
      name: fedora
      namespace: shop
"""

#: The objects of the bundle ``validate`` and ``diff`` read in their clean runs (by kind and name): one of each
#: kind a build makes, as written in the all-bundle. The faults are of the process, the paths and the streams, which
#: a bundle of four objects meets as the all-bundle's 244 do; reading those 244 took each of some eighty runs a
#: tenth of a second.
BUNDLE_OBJECTS = (("VirtualMachineClusterInstancetype", "u1.medium"), ("VirtualMachineInstancetype", "u1.medium"),
                  ("VirtualMachineClusterPreference", "fedora"), ("VirtualMachinePreference", "fedora"))


# --------------------------------------------------------------------------- the tree


COMMANDS = leaf_commands()


def faults_of(param: click.Parameter) -> tuple[str, ...]:
    for kind, faults in FAULTS.items():
        if type(param.type) is kind:
            return faults
    raise KeyError(type(param.type))


def flag(param: click.Parameter) -> str:
    return max(param.opts, key=len)


# --------------------------------------------------------------------------- what each command runs on


@dataclass
class Place:
    """The folder the matrix works in: inputs each command runs on cleanly, and outputs made before."""

    root: Path
    made: int = 0

    @property
    def bundle(self) -> Path:
        return self.root / "bundle.yaml"

    @property
    def catalog(self) -> Path:
        return self.root / "catalog"

    @property
    def outputs(self) -> tuple[Path, ...]:
        return (self.root / "build", self.root / "site", self.root / "schemas")

    def fresh(self, name: str) -> Path:
        """A path no run has used: for a command that makes what it is given (``init``)."""
        self.made += 1
        return self.root / "fresh" / f"{name}-{self.made}"


#: A clean run of each command: its parameters by name (arguments too). Every command in
#: the tree must have one; the faults are made by changing one parameter of it.
RUNS: dict[str, Callable[[Place], dict[str, Any]]] = {
    "build": lambda p: {"out": p.root / "build"},
    "diff": lambda p: {"old": p.bundle, "new": p.root / "bundle-2.yaml"},
    "expand": lambda p: {"vms": (p.root / "vm.yaml",)},
    "init": lambda p: {"directory": p.fresh("new-catalog")},
    "list": lambda p: {},
    "osinfo": lambda p: {"short_ids": ("rhel9.1",), "osinfo_db": p.root / "osinfo-db"},
    "readme": lambda p: {"catalog": p.catalog, "path": p.root / "README.md"},
    "refs": lambda p: {"paths": (p.root / "manifests.yaml",)},
    "schema import": lambda p: {"path": p.root / "swagger.json", "out_dir": p.root / "schemas"},
    "site": lambda p: {"out": p.root / "site"},
    "validate": lambda p: {"files": (p.bundle,)},
}

#: The parts of a catalog each command that takes --catalog reads (None: all of it), when
#: given nothing else to read (``validate`` with files reads only the catalog's settings).
CATALOG_READS: dict[str, tuple[str, ...] | None] = {
    "build": None,
    "site": None,
    "validate": None,
    "list": ("catalog.yaml", "series", "preferences"),
    "readme": ("catalog.yaml", "series", "preferences"),
    "osinfo": ("catalog.yaml", "series", "preferences"),
    "refs": None,
}
#: The parameters of a clean run that are inputs other than a catalog.
OTHER_INPUTS = ("files",)


def make_place(root: Path) -> Place:
    place = Place(root)
    root.mkdir()
    copy_catalog(place.catalog)
    bundle = small_bundle()
    place.bundle.write_bytes(bundle)
    (root / "bundle-2.yaml").write_bytes(bundle)
    shutil.copy(REPO / "tests" / "cases" / "expand" / "windows-11-u1-large" / "vm.yaml", root / "vm.yaml")
    shutil.copy(REPO / "README.md", root / "README.md")
    (root / "manifests.yaml").write_text(MANIFESTS, encoding="utf-8")
    shutil.copy(shared_file(SWAGGER), root / "swagger.json")
    for name in OSINFO_FILES:
        (root / "osinfo-db" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(shared_file(OSINFO_DB / name), root / "osinfo-db" / name)
    (root / "fresh").mkdir()
    for command in ("build", "site", "schema import"):  # the earlier outputs every fault must leave as they are
        made = CliRunner().invoke(main, arguments(command, RUNS[command](place)))
        assert made.exit_code == 0, made.output
    return place


def small_bundle() -> bytes:
    """The documents of the all-bundle that BUNDLE_OBJECTS names, each as written there, in its order."""
    text = (REPO / "bundles" / "common-instancetypes-all-bundle.yaml").read_text(encoding="utf-8")
    documents = [d for d in re.split(r"^---\n", text, flags=re.MULTILINE) if d.strip()]

    def named(document: str) -> tuple[str, str]:
        found = parse_stream(document)[0]
        return found["kind"], found["metadata"]["name"]

    kept = [d for d in documents if named(d) in BUNDLE_OBJECTS]
    assert len(kept) == len(BUNDLE_OBJECTS), "an object BUNDLE_OBJECTS names is not in the all-bundle"
    return "".join(f"---\n{d}" for d in kept).encode("utf-8")


def arguments(command: str, values: dict[str, Any]) -> list[str]:
    """The command line for ``values``: options as ``--name value``, arguments in their order."""
    words = command.split()
    for param in COMMANDS[command].params:
        if param.name not in values:
            continue
        given = values[param.name]
        many = given if isinstance(given, (tuple, list)) else (given,)
        if isinstance(param, click.Argument):
            words += [str(v) for v in many]
        elif getattr(param, "is_flag", False):
            words += [flag(param)] if given else []
        else:
            for value in many:
                words += [flag(param), str(value)]
    return words


# --------------------------------------------------------------------------- the cells


@dataclass(frozen=True)
class Cell:
    """One run of the matrix and what it must show.

    ``expect``: ``clean`` (the clean run's exit status and a report delivered),
    ``refused`` (status 2 and a message naming ``names``) or ``undelivered`` (status 2
    and, where standard error works, the line saying why).
    """

    command: str
    fault: str
    args: list[str]
    expect: str
    names: str = ""
    says: str = ""  # words the refusal must hold beside the name (where there are any to pin)
    stdout: str = "file"
    stderr: str = "file"
    stdin: str = "devnull"
    env: dict[str, str] = field(default_factory=dict)
    deleted_cwd: bool = False
    unreadable: tuple[str, ...] = ()
    loops: tuple[str, ...] = ()
    full_disk: bool = False
    as_files: tuple[str, ...] = ()
    #: (the folder this run writes its outputs to, the folder of the same outputs made before it): a run whose
    #: report is lost must still have written them whole
    wrote: tuple[str, str] | None = None

    def run(self, place: Place) -> dict[str, Any]:
        return {"args": self.args, "cwd": str(place.root), "env": self.env, "stdout": self.stdout,
                "stderr": self.stderr, "stdin": self.stdin, "deleted_cwd": self.deleted_cwd, "unreadable": list(self.unreadable),
                "loops": list(self.loops), "full_disk": self.full_disk, "as_files": list(self.as_files)}


def own_outputs(place: Place, command: str, name: str) -> tuple[dict[str, Any], tuple[str, str] | None]:
    """The clean run's parameters with its outputs, where it writes one of ``place.outputs``, in a folder of their
    own; and (that folder, the outputs made before it) for the run to be held to (``Cell.wrote``)."""
    values = RUNS[command](place)  # a fresh target for each run of init
    made = [key for key in OUTPUTS if isinstance(values.get(key), Path) and values[key] in place.outputs]
    if not made:
        return values, None
    own = place.root / "own-outputs" / f"{command.replace(' ', '-')}-{name}"
    return {**values, made[0]: own}, (str(own), str(values[made[0]]))


def special(place: Place, kind: str, name: str) -> tuple[Path, tuple[str, ...]]:
    """A path of ``kind`` (a FIFO, a link that points nowhere...) made for one cell, and what to make unreadable."""
    folder = place.root / "faults" / name
    folder.mkdir(parents=True)
    path = folder / "input.yaml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        return Path("/dev/zero"), ()
    elif kind == "dangling link":
        path.symlink_to(folder / "nowhere.yaml")
    elif kind == "link loop":
        path.symlink_to(folder / "other.yaml")
        (folder / "other.yaml").symlink_to(path)
    elif kind == "unreadable":
        shutil.copy(place.bundle, path)
        return path, (str(path),)
    elif kind == "in an unreadable folder":
        shutil.copy(place.bundle, path)
        return folder, (str(folder),)  # the path is the file in it; what a refusal names is the folder
    return path, ()


def command_cells(place: Place, command: str) -> Iterator[Cell]:
    """Every cell of one command: its streams, its working directory, each of its options."""
    cmd = COMMANDS[command]
    clean = RUNS[command](place)
    args = arguments(command, clean)
    yield Cell(command, "clean", args, "clean")
    for how in STREAMS:
        values, wrote = own_outputs(place, command, f"stdout-{how}") if how != "ascii" else (RUNS[command](place), None)
        yield Cell(command, f"standard output {how}", arguments(command, values),
                   "clean" if how == "ascii" else "undelivered", stdout=how, wrote=wrote)
        yield Cell(command, f"standard error {how}", arguments(command, RUNS[command](place)), "clean",
                   stderr=how)
    values, wrote = own_outputs(place, command, "stdin-closed")
    yield Cell(command, "standard input closed", arguments(command, values), "clean", stdin="closed", wrote=wrote)
    values, wrote = own_outputs(place, command, "all-closed")  # what a program started with `<&- >&- 2>&-` meets
    yield Cell(command, "every standard stream closed", arguments(command, values), "undelivered", stdin="closed",
               stdout="closed", stderr="closed", wrote=wrote)
    yield Cell(command, "a full file system", arguments(command, RUNS[command](place)),
               "refused" if writes(command) else "clean", names="File too large", full_disk=True)
    paths = [p for p in cmd.params if type(p.type) is PathParam]
    if paths:  # a refusal, printed on standard error, under each fault of that stream
        first = paths[0]
        missing = place.root / "vm.yaml" / "missing-\u2603"  # under a file: neither read nor made
        refused = arguments(command, {**clean, first.name: (missing,) if first.nargs == -1 else missing})
        for how in ("file", *STREAMS):
            yield Cell(command, f"a refusal with standard error {how}", refused,
                       "undelivered" if how in ("closed", "full") else "refused", names="vm.yaml", stderr=how)
    given = {name: value for name, value in clean.items()}
    needs = [p for p in paths if given.get(p.name, p.default) not in (None, (), click.core.UNSET)
             and not _absolute_default(p, given)]
    yield Cell(command, "a deleted working directory", arguments(command, relative(given, place)),
               "refused" if needs else "clean", names=flag(needs[0]) if needs and needs[0].opts[0].startswith("-")
               else "relative path", deleted_cwd=True)
    for param in cmd.params:
        for fault in faults_of(param):
            yield from option_cells(place, command, clean, param, fault)
    if command in CATALOG_READS:
        yield from catalog_cells(place, command)
    yield Cell(command, "inputs with a byte-order mark and CRLF", arguments(command, editor_inputs(place, command)),
               "clean")


def _absolute_default(param: click.Parameter, given: dict[str, Any]) -> bool:
    return param.name not in given and isinstance(param.default, Path) and param.default.is_absolute()


def relative(values: dict[str, Any], place: Place) -> dict[str, Any]:
    """``values`` with every path written relative to the working directory."""
    def rel(value: Any) -> Any:
        if isinstance(value, (tuple, list)):
            return tuple(rel(v) for v in value)
        return Path(os.path.relpath(value, place.root)) if isinstance(value, Path) else value
    return {name: rel(value) for name, value in values.items()}


def option_cells(place: Place, command: str, clean: dict[str, Any], param: click.Parameter,
                 fault: str) -> Iterator[Cell]:
    name = flag(param) if isinstance(param, click.Option) else param.human_readable_name
    if fault == "digits":
        yield Cell(command, f"{name} {len(DIGITS)} digits", arguments(command, {**clean, param.name: DIGITS}),
                   "refused", names=name)
        return
    if fault == "control":
        yield Cell(command, f"{name} control characters", arguments(command, {**clean, param.name: CONTROL}),
                   "refused", names=name)
        return
    if fault == "empty":  # an unset variable in a script: '' is no path, never the working directory
        value = ("",) if getattr(param, "multiple", False) or param.nargs == -1 else ""
        yield Cell(command, f"{name} empty", arguments(command, {**clean, param.name: value}), "refused",
                   names=f"{name}: ", says="expected a path, got an empty text")
        return
    named, unreadable = special(place, fault, f"{command}-{param.name}-{fault}".replace(" ", "-"))
    path = named / "input.yaml" if fault == "in an unreadable folder" else named
    value = (path,) if getattr(param, "multiple", False) or param.nargs == -1 else path
    yield Cell(command, f"{name} {fault}", arguments(command, {**clean, param.name: value}), "refused",
               names=str(named), unreadable=unreadable)


def catalog_cells(place: Place, command: str) -> Iterator[Cell]:
    """A folder, and a file, the run may not read, and a link loop, at every level of a catalog the command reads.

    Every level for ``build``, which reads all of a catalog; the top folders and files for the others.
    """
    reads = CATALOG_READS[command]
    values = {name: value for name, value in RUNS[command](place).items() if name not in OTHER_INPUTS}
    args = arguments(command, {**values, "catalog": place.catalog})
    for folder in sorted(p for p in place.catalog.rglob("*") if p.is_dir()):
        part = folder.relative_to(place.catalog).as_posix()
        if (reads is not None and part.split("/")[0] not in reads) or (command != "build" and "/" in part):
            continue
        yield Cell(command, f"catalog folder {part} unreadable", args, "refused", names=part,
                   unreadable=(str(folder),))
        yield Cell(command, f"catalog folder {part} is a file", args, "refused", names=f"{part}: ",
                   says="is a regular file, not a directory", as_files=(str(folder),))
        files = sorted(p for p in folder.iterdir() if p.is_file())
        loop = files[0] if files else folder / "loop.yaml"  # a file the command reads, where there is one
        yield Cell(command, f"a link loop in catalog folder {part}", args, "refused",
                   names=loop.relative_to(place.catalog).as_posix(), loops=(str(loop),))
        if files:
            name = files[0].relative_to(place.catalog).as_posix()
            yield Cell(command, f"catalog file {name} unreadable", args, "refused", names=name,
                       unreadable=(str(files[0]),))
    yield Cell(command, "catalog file catalog.yaml unreadable", args, "refused", names="catalog.yaml",
               unreadable=(str(place.catalog / "catalog.yaml"),))


def editor_inputs(place: Place, command: str) -> dict[str, Any]:
    """The clean run's parameters with each input file, and a catalog, saved with a byte-order mark and CRLF."""
    folder = place.root / "editor" / command.replace(" ", "-")
    folder.mkdir(parents=True)
    values = dict(RUNS[command](place))
    if command in CATALOG_READS:
        values["catalog"] = place.catalog
    outputs = {"out", "out_dir", "directory"}

    def saved(value: Any) -> Any:
        if isinstance(value, (tuple, list)):
            return tuple(saved(v) for v in value)
        if not isinstance(value, Path):
            return value
        copy = folder / value.name
        if value.is_dir():
            shutil.copytree(value, copy)
            for path in [p for p in copy.rglob("*") if p.is_file()]:
                _as_an_editor_saves(path)
        else:
            shutil.copy(value, copy)
            _as_an_editor_saves(copy)
        return copy

    saved_values = {name: value if name in outputs else saved(value) for name, value in values.items()}
    return {**saved_values, **{name: folder / "out" for name in outputs if name in values}}


def _as_an_editor_saves(path: Path) -> None:
    text = path.read_bytes()
    if path.suffix in (".json",):  # JSON has no byte-order mark (RFC 8259 8.1): line ends only
        path.write_bytes(text.replace(b"\n", b"\r\n"))
    elif path.suffix in (".yaml", ".yml", ".j2", ".md", ".tpl", ".txt") or path.name in (".helmignore",):
        path.write_bytes(b"\xef\xbb\xbf" + text.replace(b"\n", b"\r\n"))


# --------------------------------------------------------------------------- running them


@pytest.fixture(scope="module")
def matrix(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[Cell, dict[str, Any]]]]:
    """Every cell of every command, run once (tests/faultrun.py), by command; "outputs": before and after."""
    root = tmp_path_factory.mktemp("matrix")
    place = make_place(root / "place")
    before = [snapshot(out) for out in place.outputs]
    by_command = {command: list(command_cells(place, command)) for command in COMMANDS}
    by_command["citgen"] = list(group_cells())
    cases = {f"{c.command}: {c.fault}": c.run(place) for cells in by_command.values() for c in cells}
    results = citgen_forked(cases, root)
    ran = {command: [(c, results[f"{c.command}: {c.fault}"]) for c in cells] for command, cells in by_command.items()}
    return {**ran, "outputs": (before, [snapshot(out) for out in place.outputs]), "place": place}  # type: ignore


def group_cells() -> Iterator[Cell]:
    """The group's own options and their environment variables."""
    for param in main.params:
        if "digits" in faults_of(param):
            yield Cell("citgen", f"{flag(param)} {len(DIGITS)} digits", [flag(param), DIGITS, "list"], "refused",
                       names=flag(param))
            if isinstance(param.envvar, str):
                yield Cell("citgen", f"{param.envvar} {len(DIGITS)} digits", ["list"], "refused",
                           names=param.envvar, env={param.envvar: DIGITS})


def writes(command: str) -> bool:
    """Whether the command writes an output (a folder it replaces or makes, files in one)."""
    return command in COMMANDS and bool({p.name for p in COMMANDS[command].params} & set(OUTPUTS))


def judge(cell: Cell, result: dict[str, Any], clean: dict[str, Any]) -> str | None:
    """What is wrong with ``result`` for ``cell`` (None when it is as it must be)."""
    said = result["stdout"] + result["stderr"]
    if result["traceback"] or "Traceback (most recent call last)" in said:
        return f"a traceback:\n{result['traceback'] or said}"
    if result["code"] not in (0, 1, 2):
        return f"exit status {result['code']}"
    if cell.stdout == "ascii" and not result["stdout"].isascii():
        return "standard output holds what its encoding lacks"
    if cell.stderr == "ascii" and not result["stderr"].isascii():
        return "standard error holds what its encoding lacks"
    if cell.expect == "clean" and result["code"] != clean["code"]:
        return f"exit status {result['code']}, where the clean run's is {clean['code']}: {said[-600:]}"
    if cell.expect == "refused" and (result["code"] != 2 or cell.names not in said or cell.says not in said):
        return f"not refused naming {cell.names!r} ({cell.says!r}): status {result['code']}: {said[-600:]}"
    if cell.expect == "undelivered":
        if result["code"] != 2:
            return f"a report that was not delivered, but exit status {result['code']}"
        if cell.stdout != "file" and cell.stderr == "file" and "citgen: cannot write the report to standard output" \
                not in result["stderr"]:
            return f"no line saying the report was not delivered: {result['stderr'][-300:]}"
        if cell.stdout != "file" and cell.stderr == "file" and writes(cell.command) and \
                "; the outputs were written all the same, and are in place: " not in result["stderr"]:
            return f"a lost report of a run that wrote its outputs says nothing of them: {result['stderr'][-300:]}"
    if cell.wrote is not None and result["code"] in (0, 2):  # written whole, whatever became of the streams
        out, made = (snapshot(Path(folder)) for folder in cell.wrote)
        if out != made:
            return (f"wrote {len(out)} files where the same command wrote {len(made)} before "
                    f"({sorted(name for name in set(made) | set(out) if out.get(name) != made.get(name))[:5]} differ)")
    return None


@pytest.mark.parametrize("command", [*COMMANDS, "citgen"])
def test_a_command_under_every_fault(matrix, command):
    cells = matrix[command]
    clean = next((r for c, r in cells if c.fault == "clean"), {"code": 0})
    assert clean["code"] == 0 or command == "citgen", clean
    wrong = {f"{c.fault}": problem for c, r in cells if (problem := judge(c, r, clean)) is not None}
    assert not wrong, "\n\n".join(f"{fault}: {problem}" for fault, problem in wrong.items())


@pytest.mark.parametrize("command", ["build", "site"])
def test_inputs_saved_with_a_byte_order_mark_and_crlf_make_the_same_outputs(matrix, command):
    """A catalog checked out on Windows (or saved by its editors) builds byte for byte what it builds elsewhere."""
    place = matrix["place"]
    assert snapshot(place.root / "editor" / command / "out") == snapshot(place.root / command)


def test_earlier_outputs_are_intact_after_every_fault(matrix):
    before, after = matrix["outputs"]
    assert [sorted(a) for a in after] == [sorted(b) for b in before]
    assert after == before
    beside = sorted(name for name in os.listdir(matrix["place"].root) if name.startswith("."))
    assert beside == []  # no lock (a full file system left .build.lock), no staging, no backup


# --------------------------------------------------------------------------- the table's own checks


def test_every_option_has_its_faults():
    unknown = sorted({f"{command}: {p.name} ({type(p.type).__name__})" for command, cmd in
                      {**COMMANDS, "citgen": main}.items() for p in cmd.params
                      if not any(type(p.type) is kind for kind in FAULTS)})
    assert unknown == [], "name the faults of these options' types in FAULTS"


def test_every_command_has_a_clean_run_and_the_catalog_readers_are_known():
    assert sorted(RUNS) == sorted(COMMANDS)
    takes_catalog = sorted(c for c, cmd in COMMANDS.items() if any(p.name == "catalog" for p in cmd.params))
    assert sorted(CATALOG_READS) == takes_catalog


# --------------------------------------------------------------------------- outputs and the catalog they read



def writers_of_a_catalog() -> list[str]:
    """Every command that reads a catalog and writes an output folder, from click's tree."""
    return [name for name, cmd in COMMANDS.items()
            if "catalog" in (names := {p.name for p in cmd.params}) and names & set(OUTPUTS)]


def test_the_writers_of_a_catalog_are_found():
    assert writers_of_a_catalog() == ["build", "site"]


@pytest.fixture(scope="module")
def a_catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_catalog(tmp_path_factory.mktemp("inside") / "catalog")


#: Where an output may not go, relative to the catalog: itself, and inside each folder a build reads whole.
INSIDE = ("", "templates/helm/chart/gen", "templates/helm/chart/templates", "series/out", "preferences/traits/x")


@pytest.mark.parametrize("command", writers_of_a_catalog())
@pytest.mark.parametrize("where", INSIDE)
def test_no_output_goes_inside_the_catalog_it_reads(a_catalog: Path, command: str, where: str):
    """`build --catalog C --out C/templates/helm/chart/gen` copied each build's chart into the next (224 files, then
    more); under chart/templates Helm rendered every object twice."""
    before = snapshot(a_catalog)
    out = a_catalog / where if where else a_catalog
    done = CliRunner().invoke(main, [*command.split(), "--catalog", str(a_catalog), "--out", str(out)])
    lines = done.output.splitlines()
    assert (done.exit_code, len(lines), lines[1]) == (2, 2, "citgen: 1 problem, nothing written")
    assert "--out: " in lines[0] and f"{out} is " in lines[0]
    assert f"of the catalog this run reads ({a_catalog})" in lines[0] or \
        f"is the catalog this run reads ({a_catalog})" in lines[0]
    assert snapshot(a_catalog) == before and not (a_catalog / "templates/helm/chart/gen").exists()


@pytest.mark.parametrize("command", writers_of_a_catalog())
def test_no_output_goes_inside_the_built_in_catalog(command: str):
    """Run from a checkout, the built-in catalog is the checkout: its templates are read whole, as any catalog's."""
    from generator.paths import builtin_catalog

    out = builtin_catalog() / "templates" / "kustomize"
    done = CliRunner().invoke(main, [*command.split(), "--out", str(out)])
    assert done.exit_code == 2 and "--out: " in done.output
    assert (f"{out} is inside templates/ of the catalog this run reads ({builtin_catalog()}); the next build would "
            "read the outputs back as part of the catalog: write them outside its series/, preferences/, templates/"
            ) in done.output
