"""What a pull request may contain must not make citgen clobber a file, leak one, or run commands in CI.

citgen runs on pull requests (pre-commit hooks, `build --check`, `diff --format
github`, release notes). Each test plants what a hostile pull request could
commit (a link where a lock or a README goes, an overlay path out of the catalog,
an object name with a line break) and checks, through the command line, that the
file the plant aims at is intact, that no secret reaches any output format, and
that the refusal is exit 2 with its message.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from generator.cli import main
from generator.report import inert
from tests.helpers import child_env, citgen_bound, copy_catalog, finding, read_yaml_stream, snapshot

pytestmark = pytest.mark.heavy(17)  # seconds of a worker's time: builds, other users' processes, large VMs

REPO = Path(__file__).resolve().parent.parent
SECRET = "GITHUB_TOKEN=ghp_do-not-print-me-anywhere"
FORMATS = ("text", "json", "github")


def citgen(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file outside every catalog and output, as a CI runner's environment or credentials are."""
    path = tmp_path / "elsewhere" / ".env"
    path.parent.mkdir()
    path.write_text(SECRET + "\n", encoding="utf-8")
    return path


# --------------------------------------------------------------------------- 1. locks followed through links


@pytest.mark.parametrize("command", ["build", "site"])
def test_a_lock_committed_as_a_link_is_refused_and_its_target_untouched(tmp_path, secret, command):
    out = tmp_path / "out"
    (tmp_path / ".out.lock").symlink_to(secret)
    result = citgen(command, "--out", str(out))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"{tmp_path / '.out.lock'}: error: the lock file of {out} is a symbolic link; "
                                    "citgen never writes its lock through a link")
    assert secret.read_text(encoding="utf-8") == SECRET + "\n"
    assert not out.exists()


def test_an_output_directory_that_is_a_link_is_refused(tmp_path):
    real = tmp_path / "real"
    assert citgen("build", "--out", str(real)).exit_code == 0
    before = snapshot(real)
    (tmp_path / "bundles").symlink_to(real)
    result = citgen("build", "--out", str(tmp_path / "bundles"))
    assert result.exit_code == 2
    assert "the output path is a symbolic link" in result.stderr
    assert snapshot(real) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bundles", "real"]  # nothing left beside it


# --------------------------------------------------------------------------- 2. catalog.yaml's overlays out of the catalog


@pytest.mark.parametrize("where", ["absolute", "parent", "through", "proc"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_an_overlay_path_out_of_the_catalog_is_refused_unread(tmp_path, secret, where, fmt):
    catalog = copy_catalog(tmp_path / "catalog")
    name = {"absolute": str(secret), "parent": "../elsewhere/.env", "through": "preferences/../../elsewhere/.env",
            "proc": "/proc/self/environ"}[where]
    text = (catalog / "catalog.yaml").read_text(encoding="utf-8")
    (catalog / "catalog.yaml").write_text(text + f"overlays: [{json.dumps(name)}]\n", encoding="utf-8")
    result = citgen("--format", fmt, "build", "--catalog", str(catalog), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    said = result.stdout + result.stderr
    assert SECRET not in said and "ghp_" not in said
    assert "is not inside the catalog directory; catalog.yaml names its overlays by a path inside the catalog, " \
           "without '..' (an overlay elsewhere: --overlay)" in said
    assert not (tmp_path / "out").exists()


def test_a_file_read_by_mistake_is_quoted_no_further_than_a_short_excerpt(tmp_path):
    """An overlay named on the command line is read; if it is not one, at most 60 characters of it are shown."""
    leak = tmp_path / "not-an-overlay.yaml"
    leak.write_text("x" * 70 + SECRET + "\n", encoding="utf-8")
    result = citgen("build", "--overlay", str(leak), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert f"expected a mapping, got '{'x' * 60}... ({len(SECRET) + 10} more characters)'" in result.stderr
    assert "ghp_" not in result.stderr


# --------------------------------------------------------------------------- 3. names reach reports raw


HOSTILE = "cx1.renamed\n::add-mask::secret\n::error title=pwned::pwned"


@pytest.fixture(scope="module")
def compared(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The committed all-bundle, and a copy whose first object is named ``HOSTILE``. Read only."""
    folder = tmp_path_factory.mktemp("compared")
    old, new = folder / "old.yaml", folder / "new.yaml"
    old.write_bytes((REPO / "bundles" / "common-instancetypes-all-bundle.yaml").read_bytes())
    docs = read_yaml_stream(old)
    docs[0]["metadata"]["name"] = HOSTILE
    new.write_text(yaml.dump_all(docs, Dumper=yaml.CSafeDumper), encoding="utf-8")
    return old, new


@pytest.mark.parametrize("fmt", ["text", "github", "markdown"])
def test_a_name_with_line_breaks_never_starts_a_line_of_a_report(compared, fmt):
    old, new = compared
    result = citgen("diff", str(old), str(new), "--format", fmt)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert not any(line.lstrip().startswith("::") and ("add-mask" in line or "pwned" in line) for line in lines)
    assert "cx1.renamed\\n::add-mask::secret\\n::error title=pwned::pwned" in result.stdout


def test_markdown_code_spans_keep_a_name_with_line_breaks_on_its_line(compared):
    old, new = compared
    result = citgen("diff", str(old), str(new), "--format", "markdown")
    assert "`cx1.renamed\\n::add-mask::secret\\n::error title=pwned::pwned`" in result.stdout


def test_validate_annotations_escape_a_name_with_line_breaks(compared):
    _, new = compared
    result = citgen("--format", "github", "validate", str(new))
    for line in result.stdout.splitlines():
        assert line.startswith(("::error ", "::warning ", "::notice ")), line


def test_a_product_that_would_run_a_workflow_command_is_printed_between_stop_commands():
    product = "added:\n::add-mask::x\n"
    shown = inert(product)
    first, *body, last = shown.splitlines()
    token = first.removeprefix("::stop-commands::")
    assert len(token) == 64 and last == f"::{token}::" and "\n".join(body) + "\n" == product
    assert inert(product) == shown  # the same output for the same input
    assert inert("added:\n  + u1.large\n") == "added:\n  + u1.large\n"  # nothing to stop: as it was


# --------------------------------------------------------------------------- 4./5. the README citgen writes


def readme_catalog(tmp_path: Path) -> Path:
    catalog = copy_catalog(tmp_path / "catalog")
    (catalog / "README.md").write_text(Path("README.md").read_text(encoding="utf-8").replace(
        "| `u1.large` |", "| `u1.stale` |"), encoding="utf-8")
    return catalog


def test_a_readme_that_is_a_link_out_of_the_catalog_is_refused_and_not_written(tmp_path, secret, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    catalog = readme_catalog(tmp_path)
    (catalog / "README.md").unlink()
    (catalog / "README.md").symlink_to(secret)
    result = citgen("readme", "--catalog", str(catalog))
    assert result.exit_code == 2
    assert result.stderr == (f"{catalog / 'README.md'}: error: is a symbolic link; citgen replaces the README it "
                             "writes the tables into and never writes through a link: name the file itself with "
                             "--file [input]\ncitgen: 1 problem\n")
    assert secret.read_text(encoding="utf-8") == SECRET + "\n"


def test_a_read_only_readme_is_refused_with_exit_2_not_a_traceback(tmp_path, monkeypatch):
    if os.geteuid() == 0:
        pytest.skip("root may write a read-only file; os.access says so")
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    catalog = readme_catalog(tmp_path)
    (catalog / "README.md").chmod(0o444)
    result = citgen("readme", "--catalog", str(catalog))
    assert result.exit_code == 2 and "cannot write it: permission denied" in result.stderr


def test_the_readme_is_replaced_at_once_and_keeps_its_mode(tmp_path, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    catalog = readme_catalog(tmp_path)
    (catalog / "README.md").chmod(0o640)
    result = citgen("readme", "--catalog", str(catalog))
    assert result.exit_code == 0, result.output
    assert "`u1.large`" in (catalog / "README.md").read_text(encoding="utf-8")
    assert oct((catalog / "README.md").stat().st_mode & 0o777) == "0o640"
    assert [p.name for p in catalog.iterdir() if p.name.startswith(".README")] == []


def test_a_readme_that_cannot_be_written_is_left_whole(tmp_path, monkeypatch):
    """A full disk, as the replacement's write sees it: the README as it was, no temporary file left."""
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    catalog = readme_catalog(tmp_path)
    before = (catalog / "README.md").read_bytes()
    real_fdopen = os.fdopen

    class Full:
        def __init__(self, handle):
            self.handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def write(self, text):
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fdopen", lambda fd, *a, **k: Full(real_fdopen(fd, *a, **k)))
    result = citgen("readme", "--catalog", str(catalog))
    assert result.exit_code == 2
    assert "cannot write it: No space left on device" in result.stderr and "it is unchanged" in result.stderr
    assert (catalog / "README.md").read_bytes() == before
    assert [p.name for p in catalog.iterdir() if p.name.startswith(".README")] == []


# --------------------------------------------------------------------------- 8. folders that cannot be read


@pytest.mark.parametrize("folder, mode", [("series", 0o000), ("preferences", 0o311),
                                          ("preferences/traits", 0o000), ("templates", 0o000)])
def test_a_folder_that_cannot_be_read_is_refused_and_the_outputs_stay(tmp_path, folder, mode):
    catalog = copy_catalog(tmp_path / "catalog")
    out = tmp_path / "out"
    assert citgen("build", "--catalog", str(catalog), "--out", str(out)).exit_code == 0
    before = snapshot(out)
    (catalog / folder).chmod(mode)
    try:
        done = citgen_bound("build", "--catalog", str(catalog), "--out", str(out), cwd=tmp_path)
    finally:
        (catalog / folder).chmod(0o755)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"{folder}: error: cannot read the folder: permission denied; citgen reads all of a "
                           "catalog folder or refuses it, so that no file of it is left out unnoticed [input]\n"
                           "citgen: 1 problem, nothing written\n")
    assert snapshot(out) == before


# --------------------------------------------------------------------------- 11. waiting for ever


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "86401", "1e400", "soon"])
@pytest.mark.parametrize("command", ["build", "site"])
def test_a_lock_timeout_that_would_wait_for_ever_is_refused(tmp_path, command, value):
    result = citgen(command, "--lock-timeout", value, "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert f"--lock-timeout: error: expected a number of seconds from 0 to 86400, got {value!r}" in result.stderr
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------------------- 13. tracebacks


def test_an_unknown_architecture_for_the_matrix_is_a_usage_error_not_a_traceback():
    result = citgen("validate", "--matrix", "--arch", "riscv64")
    assert result.exit_code == 2
    assert "Invalid value for '--arch': 'riscv64' is not one of 'amd64', 'arm64', 's390x'." in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# --------------------------------------------------------------------------- 20. the same file twice


def test_a_file_named_twice_is_validated_once(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("b.yaml").write_bytes((REPO / "bundles" / "common-instancetypes-all-bundle.yaml").read_bytes())
    for args in (["b.yaml", "./b.yaml"], ["--each-file", "b.yaml", "b.yaml"]):
        result = citgen("validate", *args)
        assert (result.exit_code, result.output) == (0, "no problems in 244 documents\n"), args


def run_citgen(*args: str, **kwargs) -> subprocess.CompletedProcess:
    env = child_env(**kwargs.pop("env", {}))
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True, env=env, timeout=120,
                          **kwargs)


def test_a_full_standard_output_ends_the_run_with_one_line_and_status_2(forked_citgen, tmp_path):
    done = forked_citgen.run("list", cwd=tmp_path, stdout="full")  # a process of its own, standard output /dev/full
    assert (done["code"], done["stderr"], done["traceback"]) == (
        2, "citgen: cannot write the report to standard output: No space left on device\n", "")


def test_a_standard_output_that_lacks_a_character_gets_its_escape(tmp_path):
    bundle = tmp_path / "u.yaml"
    bundle.write_text('apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterPreference\n'
                      'metadata:\n  name: "snow\\u2603"\nspec: {}\n', encoding="utf-8")
    done = run_citgen("validate", str(bundle), env={"PYTHONIOENCODING": "latin-1"})
    assert done.returncode == 1 and done.stderr == b""
    assert b"VirtualMachineClusterPreference snow\\u2603 $.metadata.name: 'snow\\u2603' is not a valid object name" \
        in done.stdout


def test_ctrl_c_while_the_command_line_is_imported_is_one_line_and_status_130():
    interrupt = ("import sys\n"
                 "class Interrupted:\n"
                 "    def find_spec(self, name, path=None, target=None):\n"
                 "        if name == 'generator.cli':\n"
                 "            raise KeyboardInterrupt\n"
                 "sys.meta_path.insert(0, Interrupted())\n"
                 "from generator.entry import main\n"
                 "main(args=['list'], prog_name='citgen')\n")
    done = subprocess.run([sys.executable, "-c", interrupt], capture_output=True, timeout=120,
                          env=child_env())
    assert (done.returncode, done.stdout, done.stderr) == (130, b"", b"citgen: interrupted\n")


def in_a_deleted_directory(forked_citgen, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """``citgen ARGS`` run, as the console script runs it, in a process of its own whose working directory was
    deleted before it started (forked from one that imported citgen: tests/faultrun.py, ``deleted_cwd``)."""
    done = forked_citgen.run(*args, cwd=tmp_path, deleted_cwd=True)
    assert done["traceback"] == "", done["traceback"]
    return subprocess.CompletedProcess(args, done["code"], done["stdout"], done["stderr"])


def test_a_deleted_working_directory_leaves_a_command_with_no_relative_path_running(forked_citgen, tmp_path):
    done = in_a_deleted_directory(forked_citgen, tmp_path, "list", "-o", "name")
    assert done.returncode == 0 and done.stderr == ""
    assert "u1.large\n" in done.stdout


@pytest.mark.parametrize("args, option, value", [
    (["build"], "--out", "bundles"),
    (["site"], "--out", "site"),
    (["--format", "json", "build"], "--out", "bundles"),
    (["validate", "b.yaml"], "files", "b.yaml"),
])
def test_a_deleted_working_directory_refuses_the_relative_paths_it_cannot_resolve(forked_citgen, tmp_path, args, option,
                                                                                   value):
    done = in_a_deleted_directory(forked_citgen, tmp_path, *args)
    message = (f"{option}: {value!r} is a relative path, but the working directory cannot be used (it was "
               "deleted); give an absolute path or change to a directory that exists")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    if "json" in args:
        assert json.loads(done.stdout)["problems"][0]["message"] == message.split(": ", 1)[1]
    else:
        assert f"{finding(message)}\n" in done.stderr


# --------------------------------------------------------------------------- 14./15. numbers YAML 1.1 reads otherwise


NUMBERS = [
    ("010", "'010' is not a decimal number: YAML 1.1 would read it as 8; write the number in decimal digits (10, "
            "not 010, 0x0a or 1_0), or quote it if it is text"),
    ("1_0", "'1_0' is not a decimal number: YAML 1.1 would read it as 10; write the number in decimal digits (10, "
            "not 010, 0x0a or 1_0), or quote it if it is text"),
    ("1:30", "'1:30' is not a decimal number: YAML 1.1 would read it as 90; write the number in decimal digits (10, "
             "not 010, 0x0a or 1_0), or quote it if it is text"),
    ("0x10", "'0x10' is not a decimal number: YAML 1.1 would read it as 16; write the number in decimal digits (10, "
             "not 010, 0x0a or 1_0), or quote it if it is text"),
    (".inf", "'.inf' is no number JSON can hold, so no Kubernetes object can carry it; write a finite number, or "
             "quote it if it is text"),
]


@pytest.mark.parametrize("written, message", NUMBERS, ids=[n for n, _ in NUMBERS])
def test_a_number_yaml_1_1_reads_otherwise_is_refused_in_a_catalog_file(tmp_path, written, message):
    catalog = copy_catalog(tmp_path / "catalog")
    sizes = catalog / "series" / "sizes.yaml"
    text = sizes.read_text(encoding="utf-8")
    first = next(line for line in text.splitlines() if line.strip().endswith(": 1") and not line.startswith("#"))
    sizes.write_text(text.replace(first, first[:-1] + written, 1), encoding="utf-8")
    line = text.splitlines().index(first) + 1
    result = citgen("build", "--catalog", str(catalog), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert f"series/sizes.yaml:{line}:{len(first)}: error: {message}" in result.stderr


@pytest.mark.parametrize("written, message", NUMBERS, ids=[n for n, _ in NUMBERS])
def test_a_number_yaml_1_1_reads_otherwise_is_refused_in_a_vm_for_expand(tmp_path, written, message):
    vm = tmp_path / "vm.yaml"
    vm.write_text("apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: vm\nspec:\n"
                  "  instancetype:\n    name: u1.large\n  template:\n    spec:\n      domain:\n        cpu:\n"
                  f"          sockets: {written}\n        devices: {{}}\n", encoding="utf-8")
    result = citgen("expand", str(vm))
    assert result.exit_code == 2
    assert f"{vm}:12:20: error: {message}" in result.stderr
    assert "Infinity" not in result.stdout


@pytest.mark.parametrize("args, message", [
    (["list", "--cpu", "٤"], "--cpu: expected a whole number of vCPUs, 1 or more, got '٤'"),
    (["list", "--cpu", "1_0"], "--cpu: expected a whole number of vCPUs, 1 or more, got '1_0'"),
    (["list", "--cpu", "-4"], "--cpu: expected a whole number of vCPUs, 1 or more, got '-4'"),
    (["list", "--memory", "-8Gi"], "--memory: expected an amount of memory greater than 0, got '-8Gi'"),
    (["build", "--check", "--gpu-device", "nvidia.com/X", "--gpu-count", "４"],
     "--gpu-count: expected a whole number of GPUs, got '４'"),
])
def test_an_option_takes_numbers_in_ascii_digits_only(args, message):
    result = citgen(*args)
    assert result.exit_code == 2
    assert finding(message) in result.stderr


@pytest.mark.parametrize("args, message", [
    (["--max-documents", "١", "list"], "expected a whole number of documents, 1 or more, got '١'"),
    (["--max-file-size", "64MB", "list"], "expected a size such as 64MiB, 200Mi or 1G, got '64MB'"),
])
def test_a_group_option_takes_unambiguous_numbers_only(args, message):
    result = citgen(*args)
    assert result.exit_code == 2 and message in result.output


# --------------------------------------------------------------------------- 6./7./18. outputs: only citgen's own, each its own


def test_a_site_is_not_written_over_bundles_nor_bundles_over_a_site(tmp_path):
    bundles, site = tmp_path / "bundles", tmp_path / "site"
    assert citgen("build", "--out", str(bundles)).exit_code == 0
    assert citgen("site", "--out", str(site)).exit_code == 0
    before = snapshot(bundles), snapshot(site)
    over_bundles = citgen("site", "--out", str(bundles))
    assert over_bundles.exit_code == 2
    assert f"{bundles}: error: holds the output of `citgen build`, not of `citgen site`; choose an empty or new " \
           "--out" in over_bundles.stderr
    over_site = citgen("build", "--out", str(site))
    assert over_site.exit_code == 2
    assert f"{site}: error: holds the output of `citgen site`, not of `citgen build`" in over_site.stderr
    assert (snapshot(bundles), snapshot(site)) == before


def test_a_build_over_a_folder_with_a_file_of_the_users_keeps_it(tmp_path):
    out = tmp_path / "out"
    assert citgen("build", "--out", str(out)).exit_code == 0
    (out / "kustomize" / "my-patch.yaml").write_text("mine\n", encoding="utf-8")
    result = citgen("build", "--out", str(out))
    assert result.exit_code == 2
    assert "holds 1 file citgen did not write (kustomize/my-patch.yaml), which replacing it would delete" in \
        result.stderr
    assert (out / "kustomize" / "my-patch.yaml").read_text(encoding="utf-8") == "mine\n"


def test_build_check_reports_an_extra_link_as_it_reports_an_extra_file(tmp_path):
    out = tmp_path / "out"
    assert citgen("build", "--out", str(out)).exit_code == 0
    (out / "kustomize" / "elsewhere").symlink_to(tmp_path)
    (out / "stray.yaml").symlink_to(out / "CHECKSUMS.sha256")
    result = citgen("build", "--check", "--out", str(out))
    assert result.exit_code == 1
    assert "bundles is out of date" not in result.output
    assert "  extra:   kustomize/elsewhere\n" in result.output and "  extra:   stray.yaml\n" in result.output


def test_a_read_only_earlier_output_is_replaced_and_leaves_nothing_behind(tmp_path):
    out = tmp_path / "out"
    first = citgen_bound("build", "--out", str(out), cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    for path in (out, *out.rglob("*")):  # its owner made it read-only: folders 0555, files 0444
        path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        done = citgen_bound("build", "--out", str(out), "--version", "v9.9.9", cwd=tmp_path)
    finally:
        for path in (out, *out.rglob("*")):
            path.chmod(0o755 if path.is_dir() else 0o644)  # so that pytest can remove it
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no .out.citgen-old-* for ever
    assert "v9.9.9" in (out / "common-instancetypes-all-bundle.yaml").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- 12./14. expand: what no API server would take


VM_HEAD = ("apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: vm\nspec:\n{running}"
           "  instancetype:\n    name: u1.large\n  template:\n    spec:\n      domain:\n        devices:\n"
           "          disks:{disks}")
#: A disk name of 63 characters, the most a disk (a DNS label) may have: about 80 bytes a disk as JSON.
LONG = "x" * 52


def vm_file(tmp_path: Path, disks: int = 0, running: str = "") -> Path:
    path = tmp_path / "vm.yaml"
    listed = "".join(f"\n          - name: d{i:06d}-{LONG}" for i in range(disks)) or " []"
    path.write_text(VM_HEAD.format(running=running, disks=listed) + "\n", encoding="utf-8")
    return path


def test_a_virtual_machine_the_api_server_refuses_is_not_expanded(tmp_path):
    result = citgen("expand", str(vm_file(tmp_path, running="  running: 'yes'\n")))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (f"{tmp_path / 'vm.yaml'}:6:12: error: VirtualMachine vm $.spec.running: expected boolean, "
                             "got string 'yes' (the API server refuses this VirtualMachine) [schema]\n")


def json_size(path: Path) -> int:
    [vm] = read_yaml_stream(path)
    return len(json.dumps(vm, separators=(",", ":")).encode())


def test_a_virtual_machine_larger_than_etcd_stores_is_refused_before_it_is_expanded(tmp_path):
    # 22,000 disks of the longest names: about 1.6 MB as JSON, past the 1,572,864 bytes etcd takes
    path = vm_file(tmp_path, disks=22_000)
    size = json_size(path)
    assert size > 1_572_864
    result = citgen("expand", str(path))
    assert result.exit_code == 2
    assert result.stderr == (f"{path}:1:1: error: VirtualMachine vm: the VirtualMachine is {size} bytes as JSON; no API "
                             "server stores an object over 1572864 bytes (1.5 MiB, etcd's limit on a request), so there "
                             "is nothing to expand [object-metadata]\n")


def test_a_virtual_machine_just_under_the_limit_is_expanded(tmp_path):
    path = vm_file(tmp_path, disks=21_500)
    assert json_size(path) < 1_572_864
    result = citgen("expand", str(path), "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert len(json.loads(result.stdout)["spec"]["template"]["spec"]["domain"]["devices"]["disks"]) == 21_500


# --------------------------------------------------------------------------- 23. limits from the environment


@pytest.mark.parametrize("variable, value, message", [
    ("CITGEN_MAX_FILE_SIZE", "abc",
     "Invalid value for CITGEN_MAX_FILE_SIZE: expected a size such as 64MiB, 200Mi or 1G, got 'abc'"),
    ("CITGEN_MAX_FILE_SIZE", "9" * 5000,
     f"Invalid value for CITGEN_MAX_FILE_SIZE: expected a size such as 64MiB, 200Mi or 1G, got '{'9' * 60}... "
     "(4940 more characters)'"),
    ("CITGEN_MAX_FILE_SIZE", "", "CITGEN_MAX_FILE_SIZE is set but empty; unset it, or give it a value (a size such "
                                 "as 64MiB)"),
    ("CITGEN_MAX_DOCUMENTS", "", "CITGEN_MAX_DOCUMENTS is set but empty; unset it, or give it a value (a count)"),
    ("CITGEN_MAX_DOCUMENTS", "١", "Invalid value for CITGEN_MAX_DOCUMENTS: expected a whole number of documents, "
                                  "1 or more, got '١'"),
])
def test_a_limit_from_the_environment_is_refused_under_the_variables_name(monkeypatch, variable, value, message):
    monkeypatch.setenv(variable, value)
    result = citgen("list", "-o", "name")
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output and "4300 digits" not in result.output


def test_a_template_limit_of_thousands_of_digits_is_quoted_as_an_excerpt(monkeypatch, tmp_path):
    monkeypatch.setenv("CITGEN_TEMPLATE_MAX_SIZE", "9" * 5000)
    result = citgen("build", "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"CITGEN_TEMPLATE_MAX_SIZE: error: expected a whole number at least 1 of at most "
                                    f"40 digits, got "
                                    f"'{'9' * 60}... (4940 more characters)' [input]\n")


# --------------------------------------------------------------------------- 19. README markers


def readme_with(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "README.md"
    path.write_bytes(text.encode("utf-8"))
    return path


BEGIN, END = "<!-- BEGIN citgen readme: {} -->", "<!-- END citgen readme: {} -->"
PAIRS = "".join(f"{BEGIN.format(t)}\nold\n{END.format(t)}\n" for t in ("series", "instancetypes", "preferences"))


@pytest.mark.parametrize("extra, message", [
    (f"{BEGIN.format('series')}\nx\n{END.format('series')}\n",
     "README.md:10: the markers of the series table appear twice (first at line 1); keep one pair"),
    (f"{BEGIN.format('gpus')}\n{END.format('gpus')}\n",
     "README.md:10: unknown table 'gpus' in a citgen readme marker; the tables are series, instancetypes, "
     "preferences"),
    (f"{END.format('series')}\n", "README.md:10: the series table ends here but does not begin before it"),
])
def test_markers_that_do_not_pair_up_are_refused_at_their_line(tmp_path, extra, message):
    path = readme_with(tmp_path, PAIRS + extra)
    result = citgen("readme", "--file", str(path))
    assert result.exit_code == 2
    assert result.stderr == f"{finding(str(tmp_path / message))}\ncitgen: 1 problem\n"
    assert path.read_text(encoding="utf-8") == PAIRS + extra


def test_a_table_begun_inside_another_is_refused(tmp_path):
    path = readme_with(tmp_path, f"{BEGIN.format('series')}\n{BEGIN.format('preferences')}\n")
    result = citgen("readme", "--file", str(path))
    assert result.exit_code == 2
    assert "README.md:2: error: the preferences table begins inside the series table (begun at line 1)" in \
        result.stderr


def test_markers_shown_in_a_code_fence_are_an_example_and_left_alone(tmp_path):
    example = f"```markdown\n{BEGIN.format('series')}\nan example\n{END.format('series')}\n```\n"
    path = readme_with(tmp_path, example + PAIRS)
    assert citgen("readme", "--file", str(path)).exit_code == 0
    text = path.read_text(encoding="utf-8")
    assert text.startswith(example) and "| U1" not in text[:len(example)] and "\nold\n" not in text


def test_a_crlf_readme_keeps_its_line_ends(tmp_path):
    path = readme_with(tmp_path, ("# Catalog\n" + PAIRS).replace("\n", "\r\n"))
    assert citgen("readme", "--file", str(path)).exit_code == 0
    raw = path.read_bytes()
    assert b"\r\n" in raw and raw.count(b"\n") == raw.count(b"\r\n")
    assert citgen("readme", "--file", str(path), "--check").exit_code == 0  # and it is fresh so


def test_a_display_name_with_a_line_break_stays_on_its_row(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    catalog = copy_catalog(tmp_path / "catalog")
    family = catalog / "preferences" / "alpine.yaml"
    text = family.read_text(encoding="utf-8")
    family.write_text(text.replace("displayName: Alpine", 'displayName: "Alpine\\n| injected | row |"', 1),
                      encoding="utf-8")
    path = readme_with(tmp_path, PAIRS)
    result = citgen("readme", "--catalog", str(catalog), "--file", str(path))
    assert result.exit_code == 0, result.output
    rows = [line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("| `alpine`")]
    # escape.markdown writes the line break and each | escaped, and the table escapes each | once more: GitHub
    # drops one backslash before a | when it splits the row, then reads Alpine\n| injected | row | in one cell
    assert rows == ["| `alpine` | Alpine\\\\n\\\\| injected \\\\| row \\\\| | 1 | 512Mi | - |"]


# --------------------------------------------------------------------------- 21. messages that mislead


def test_a_huge_description_is_refused_at_its_line_not_blamed_on_a_template(tmp_path):
    catalog = copy_catalog(tmp_path / "catalog")
    series = catalog / "series" / "u.yaml"
    lines = series.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("description:"))
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith("  "))
    lines[start:end] = ['description: "' + "x" * 2_000_000 + '"']
    series.write_text("\n".join(lines), encoding="utf-8")
    result = citgen("build", "--catalog", str(catalog), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert result.stderr.startswith(
        f"series/u.yaml:{start + 1}:14: error: description: expected text that is not blank, at most 65536 "
        "characters (it becomes an annotation of each object, and an object's annotations hold 256 KiB at most), "
        f"got '{'x' * 60}... (1999940 more characters)' [input]\n")
    assert "template" not in result.stderr


def test_a_retained_object_named_like_a_preference_is_not_said_to_be_defined_in_its_file(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    docs = read_yaml_stream(Path("bundles/common-instancetypes-all-bundle.yaml"))
    kept = next(d for d in docs if d["kind"] == "VirtualMachineClusterInstancetype" and
                d["metadata"]["name"] == "u1.large")
    kept["metadata"]["name"] = "fedora"  # an instancetype of an old release, named as a preference is now
    kept["metadata"]["labels"]["instancetype.kubevirt.io/cpu"] = "3"  # and broken
    old = tmp_path / "old.yaml"
    old.write_text(yaml.safe_dump(kept), encoding="utf-8")
    result = citgen("build", "--retain-from", str(old), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert re.search(re.escape("error: VirtualMachineClusterInstancetype fedora (document ") + r"\d+" + re.escape(
        ") $.metadata.labels['instancetype.kubevirt.io/cpu']: label instancetype.kubevirt.io/cpu is '3' but "
        "spec.cpu.guest is 2"), result.stderr)
    assert "defined in preferences/" not in result.stderr


@pytest.mark.parametrize("args, named", [(["--rule", "schema"], "--rule"), (["--each-file"], "--each-file"),
                                         (["--vendor", "x", "--kubevirt", "v1.8"], "--vendor, --kubevirt")])
def test_options_the_matrix_would_ignore_are_refused(args, named):
    result = citgen("validate", "--matrix", *args)
    assert result.exit_code == 2
    assert f"{named.split(',')[0]}: error: {named} cannot be used with --matrix, which expands instancetype and " \
           "preference pairs rather than checking objects" in result.stderr
