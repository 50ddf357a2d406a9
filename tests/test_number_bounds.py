"""Numbers are bounded where they are read: every place, through the command line, with its message.

Python reads any number of digits, but not for free: ``10 ** 999999999`` does not
finish, ``int()`` of 4,300 digits or more refuses in words of its own ("use
sys.set_int_max_str_digits()"), and ``float()`` turns ``1.0e+400`` into infinity. So
each place that reads a number from text bounds its digits (at most 40) and its
exponent (-99 to 99) before anything converts it (generator/quantity.py holds the
bounds): the YAML reader for every file's integers and floats, the quantity parser
for memory wherever it is written, a series' ratio and a KubeVirt release in the
catalog's formats, the schema check for a bundle's quantities, and the option types
and environment variables for what a command line gives.

Each case is a catalog file, a bundle, a VirtualMachine, an option or a variable
holding such a number, refused with the exit status 2 of unusable input (a bundle's
quantity: 1, a problem of the bundle) and the message that says what is allowed.
The cases run again with a million digits: nothing is timed, the test finishing is
the proof that no number is read before it is judged.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from tests.helpers import copy_catalog, finding

WHOLE = "expected a whole number of at most 40 digits, got {}; quote it if it is text"
NUMBER = "expected a number of at most 40 digits and an exponent from -99 to 99, got {}; quote it if it is text"
QUANTITY = "expected a quantity of at most 40 digits and an exponent from -99 to 99 (such as 2Gi or 1.5e9), got {}"
#: How long each case's number is: past the bounds by a little, past Python's 4,300, and a million.
LENGTHS = [41, 5000, 1_000_000]


def citgen(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, list(args), env=env)


def shown(text: str) -> str:
    """``text`` as a message quotes it: its first 60 characters, then how many more."""
    return repr(text if len(text) <= 60 else f"{text[:60]}... ({len(text) - 60} more characters)")


def catalog_with(tmp_path: Path, file: str, old: str, new: str) -> Path:
    """A copy of the built-in catalog with ``old`` replaced by ``new`` once in ``file``."""
    root = copy_catalog(tmp_path / "catalog")
    path = root / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


def refused(result, *lines: str, closing: str | None = "citgen: 1 problem") -> None:
    """Exit status 2, nothing on standard output, and on standard error ``lines`` and the ``closing`` count."""
    assert (result.exit_code, result.stdout) == (2, ""), result.output[:2000]
    said = "".join(f"{finding(line)}\n" for line in lines) + ("" if closing is None else f"{closing}\n")
    assert result.stderr == said


# --------------------------------------------------------------------------- catalog files


@pytest.mark.parametrize("length", LENGTHS)
def test_a_memory_of_too_many_digits_in_a_size_matrix(tmp_path, length):
    memory = "9" * length + "Mi"
    root = catalog_with(tmp_path, "series/sizes.yaml", "512Mi", memory)
    refused(citgen("list", "--catalog", str(root)),
            f"series/sizes.yaml:10:28: matrices.standard.nano.memory: {QUANTITY.format(shown(memory))}")


@pytest.mark.parametrize("memory", ["1e999999999", "1e-100", "1e" + "9" * 1_000_000],
                         ids=["1e999999999", "1e-100", "a million digits"])
def test_a_memory_of_too_large_an_exponent_in_a_size_matrix(tmp_path, memory):
    root = catalog_with(tmp_path, "series/sizes.yaml", "512Mi", memory)
    refused(citgen("list", "--catalog", str(root)),
            f"series/sizes.yaml:10:28: matrices.standard.nano.memory: {QUANTITY.format(shown(memory))}")


@pytest.mark.parametrize("length", LENGTHS)
def test_a_vcpu_count_of_too_many_digits_in_a_size_matrix(tmp_path, length):
    cpu = "9" * length
    root = catalog_with(tmp_path, "series/sizes.yaml", "nano: {cpu: 1,", f"nano: {{cpu: {cpu},")
    refused(citgen("list", "--catalog", str(root)), f"series/sizes.yaml:10:17: {WHOLE.format(shown(cpu))}")


@pytest.mark.parametrize("length", LENGTHS)
def test_a_series_version_of_too_many_digits(tmp_path, length):
    version = "1" * length
    root = catalog_with(tmp_path, "series/u.yaml", "version: 1", f"version: {version}")
    refused(citgen("list", "--catalog", str(root)), f"series/u.yaml:2:10: {WHOLE.format(shown(version))}")


@pytest.mark.parametrize("length", LENGTHS)
def test_a_series_ratio_of_too_many_digits(tmp_path, length):
    ratio = "1:" + "4" * length
    root = catalog_with(tmp_path, "series/u.yaml", '"1:4"', f'"{ratio}"')
    refused(citgen("list", "--catalog", str(root)),
            f"series/u.yaml:9:8: ratio: expected a vCPU:memory ratio of at most 40 digits, got {shown(ratio)}")


@pytest.mark.parametrize("length", LENGTHS)
def test_a_preference_s_required_memory_of_too_many_digits(tmp_path, length):
    memory = "0." + "0" * length + "1Gi"
    root = catalog_with(tmp_path, "preferences/alpine.yaml", "memory: 512Mi", f"memory: {memory}")
    refused(citgen("list", "--catalog", str(root)),
            f"preferences/alpine.yaml:6:32: requirements.memory: memory: {QUANTITY.format(shown(memory))}")


@pytest.mark.parametrize("length", LENGTHS)
def test_a_float_of_too_many_digits_in_a_preference(tmp_path, length):
    number = "0." + "0" * length + "1"
    root = catalog_with(tmp_path, "preferences/alpine.yaml", "memory: 512Mi", f"memory: {number}")
    refused(citgen("list", "--catalog", str(root)), f"preferences/alpine.yaml:6:32: {NUMBER.format(shown(number))}")


@pytest.mark.parametrize("length", LENGTHS)
def test_a_kubevirt_release_of_too_many_digits_in_catalog_yaml(tmp_path, length):
    since = "v1." + "4" * length
    root = catalog_with(tmp_path, "catalog.yaml", "since: v1.4, was: preferSockets",
                        f"since: {since}, was: preferSockets")
    refused(citgen("list", "--catalog", str(root)),
            f"catalog.yaml:50:24: spellings[2].values.sockets.since: expected a KubeVirt release such as v1.4, got "
            f"{shown(since)}")


@pytest.mark.parametrize("length", LENGTHS)
def test_an_overlay_s_number_of_too_many_digits(tmp_path, length):
    percent = "1" * length
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text(f"series:\n  change:\n    o:\n      features: {{overcommitPercent: {percent}}}\n",
                       encoding="utf-8")
    result = citgen("build", "--overlay", str(overlay), "--out", str(tmp_path / "out"))
    refused(result, f"{overlay}:4:37: {WHOLE.format(shown(percent))}", closing="citgen: 1 problem, nothing written")
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------------------- bundles


def bundle(tmp_path: Path, guest: str, name: str = "bundle.yaml") -> Path:
    path = tmp_path / name
    path.write_text("apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterInstancetype\n"
                    f"metadata:\n  name: u1.large\nspec:\n  cpu:\n    guest: 2\n  memory:\n    guest: {guest}\n",
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("length", LENGTHS)
def test_a_bundle_s_number_of_too_many_digits_is_unusable_input(tmp_path, length):
    guest = "9" * length
    path = bundle(tmp_path, guest)
    refused(citgen("validate", str(path)), f"{path}:9:12: {WHOLE.format(shown(guest))}", closing=None)


@pytest.mark.parametrize("guest", ["1e999999999", "9" * 41 + "Gi", "'" + "9" * 1_000_000 + "'"],
                         ids=["1e999999999", "41 digits", "a million digits"])
def test_a_bundle_s_quantity_past_the_bounds_is_a_schema_problem_at_its_field(tmp_path, guest):
    path = bundle(tmp_path, guest)
    result = citgen("validate", str(path))
    assert result.exit_code == 1
    assert finding(f"{path}:9:12: VirtualMachineClusterInstancetype u1.large $.spec.memory.guest: "
                   f"{QUANTITY.format(shown(guest.strip(chr(39))))}", rule="schema") in result.stdout.splitlines()


@pytest.mark.parametrize("length", LENGTHS)
def test_a_number_of_too_many_digits_in_a_bundle_to_diff_or_retain(tmp_path, length):
    guest = "9" * length
    old, new = bundle(tmp_path, guest, "old.yaml"), bundle(tmp_path, "8Gi", "new.yaml")
    refused(citgen("diff", str(old), str(new)), f"{old}:9:12: {WHOLE.format(shown(guest))}", closing=None)
    built = citgen("build", "--retain-from", str(old), "--out", str(tmp_path / "out"))
    refused(built, f"{old}:9:12: {WHOLE.format(shown(guest))}", closing="citgen: 1 problem, nothing written")


@pytest.mark.parametrize("number", ["9" * 41, "1e400", "9" * 1_000_000], ids=["41 digits", "1e400", "a million digits"])
def test_a_number_past_the_bounds_in_an_openapi_document_to_import(tmp_path, number):
    swagger = tmp_path / "swagger.json"
    swagger.write_text(f'{{"definitions": {{"v1.A": {{"maximum": {number}}}}}}}', encoding="utf-8")
    message = WHOLE if "e" not in number else NUMBER
    refused(citgen("schema", "import", str(swagger), "--out", str(tmp_path / "out")),
            f"{swagger}:1:38: {message.format(shown(number)).rpartition(';')[0]}", closing=None)
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------------------- VirtualMachines


def vm(tmp_path: Path, memory: str) -> Path:
    path = tmp_path / "vm.yaml"
    path.write_text("apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: vm\nspec:\n"
                    "  preference:\n    name: fedora\n  template:\n    spec:\n      domain:\n        devices: {}\n"
                    f"        cpu: {{sockets: 2}}\n        memory:\n          guest: {memory}\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("length", LENGTHS)
def test_a_virtual_machine_s_number_of_too_many_digits(tmp_path, length):
    memory = "9" * length
    path = vm(tmp_path, memory)
    refused(citgen("expand", str(path)), f"{path}:14:18: {WHOLE.format(shown(memory))}", closing=None)


@pytest.mark.parametrize("memory", ["1e999999999", "1e100", "1e" + "9" * 1_000_000],
                         ids=["1e999999999", "1e100", "a million digits"])
def test_a_virtual_machine_s_quantity_past_the_bounds(tmp_path, memory):
    path = vm(tmp_path, memory)
    refused(citgen("expand", str(path)), f"{path}: {QUANTITY.format(shown(memory))}", closing=None)


# --------------------------------------------------------------------------- options and environment variables


@pytest.mark.parametrize("args", [["list", "--cpu", "9" * 18], ["--max-documents", "9" * 18, "list", "--cpu", "1"]],
                         ids=["--cpu", "--max-documents"])
def test_a_count_of_18_digits_is_read(args):
    result = citgen(*args, "-o", "name")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("args, message", [
    (["list", "--cpu", "1" + "0" * 18], "--cpu: expected a whole number of vCPUs, 1 or more, of at most 18 digits, "
                                        "got '1000000000000000000'"),
    (["list", "--cpu", "٤"], "--cpu: expected a whole number of vCPUs, 1 or more, got '٤'"),
])
def test_a_count_of_19_digits_is_refused_saying_how_many_it_may_have(args, message):
    refused(citgen(*args), message)


@pytest.mark.parametrize("length", LENGTHS)
def test_a_memory_option_of_too_many_digits(length):
    memory = "9" * length + "Gi"
    refused(citgen("list", "--memory", memory), f"--memory: {QUANTITY.format(shown(memory))}")


@pytest.mark.parametrize("memory", ["1e999999999", "1e-999999999", "1e" + "9" * 1_000_000],
                         ids=["1e999999999", "1e-999999999", "a million digits"])
def test_a_memory_option_of_too_large_an_exponent(memory):
    refused(citgen("list", "--memory", memory), f"--memory: {QUANTITY.format(shown(memory))}")


@pytest.mark.parametrize("length", LENGTHS)
@pytest.mark.parametrize("args, message", [
    (["list", "--cpu"], "--cpu: expected a whole number of vCPUs, 1 or more, of at most 18 digits, got {}"),
    (["list", "--kubevirt"], "--kubevirt: {} is not a KubeVirt release; expected one of v1.0, v1.1, v1.2, v1.3, "
                             "v1.4, v1.5, v1.6, v1.7, v1.8, v1.9 (v1.8, 1.8 and v1.8.4 all mean v1.8)"),
    (["build", "--gpu-device", "nvidia.com/A400", "--gpu-count"], "--gpu-count: expected 1 to 16 GPUs, got {}"),
    (["build", "--lock-timeout"], "--lock-timeout: expected a number of seconds from 0 to 86400, got {}"),
], ids=["cpu", "kubevirt", "gpu-count", "lock-timeout"])
def test_a_numeric_option_of_too_many_digits(tmp_path, args, message, length):
    digits = "9" * length
    value = "v1." + digits if args[-1] == "--kubevirt" else digits
    quoted = repr(value[:40]) if args[-1] in ("--kubevirt", "--lock-timeout") else shown(value)
    closing = "citgen: 1 problem, nothing written" if args[0] == "build" else "citgen: 1 problem"
    refused(citgen(*args, value, *(["--out", str(tmp_path / "out")] if args[0] == "build" else [])),
            message.format(quoted), closing=closing)


@pytest.mark.parametrize("value", ["1_0", "١٠", " 10", "1e100", "1e" + "9" * 1_000_000],
                         ids=["underscore", "arabic-indic", "space", "1e100", "a million digits"])
def test_a_time_to_wait_is_written_in_ascii_digits_within_the_bounds(tmp_path, value):
    refused(citgen("build", "--lock-timeout", value, "--out", str(tmp_path / "out")),
            f"--lock-timeout: expected a number of seconds from 0 to 86400, got {value[:40]!r}",
            closing="citgen: 1 problem, nothing written")


@pytest.mark.parametrize("length", LENGTHS)
@pytest.mark.parametrize("option, variable, expected", [
    ("--max-file-size", "CITGEN_MAX_FILE_SIZE", "expected a size such as 64MiB, 200Mi or 1G"),
    ("--max-documents", "CITGEN_MAX_DOCUMENTS",
     "expected a whole number of documents, 1 or more, of at most 18 digits"),
])
def test_a_limit_of_too_many_digits_as_an_option_or_a_variable(option, variable, expected, length):
    digits = "9" * length
    for result, named in ((citgen(option, digits, "list"), f"'{option}'"), (citgen("list", env={variable: digits}),
                                                                             variable)):
        assert result.exit_code == 2
        assert f"Invalid value for {named}: {expected}, got {shown(digits)}" in result.output
        assert "Traceback" not in result.output and "4300" not in result.output


@pytest.mark.parametrize("size", ["1e100", "1e999999999", "1e" + "9" * 1_000_000],
                         ids=["1e100", "1e999999999", "a million digits"])
def test_a_size_of_too_large_an_exponent(size):
    result = citgen("--max-file-size", size, "list")
    assert result.exit_code == 2
    assert f"Invalid value for '--max-file-size': expected a size such as 64MiB, 200Mi or 1G, got {shown(size)}" in \
        result.output


@pytest.mark.parametrize("length", LENGTHS)
@pytest.mark.parametrize("variable, expected", [
    ("CITGEN_TEMPLATE_MAX_SIZE", "a whole number at least 1 of at most 40 digits"),
    ("CITGEN_TEMPLATE_MAX_MEMORY", "a whole number at least 1 of at most 40 digits"),
    ("CITGEN_TEMPLATE_SECONDS",
     "a number of seconds greater than 0 of at most 40 digits and an exponent from -99 to 99"),
    ("CITGEN_TEMPLATE_TOTAL_SECONDS",
     "a number of seconds greater than 0 of at most 40 digits and an exponent from -99 to 99"),
])
def test_a_template_limit_of_too_many_digits(tmp_path, variable, expected, length):
    digits = "9" * length
    refused(citgen("build", "--out", str(tmp_path / "out"), env={variable: digits}),
            f"{variable}: expected {expected}, got {shown(digits)}", closing="citgen: 1 problem, nothing written")
