"""`citgen expand`: print a VirtualMachine as KubeVirt would run it.

Like ``virtctl expand`` but offline: the VM's instancetype and preference are
looked up in bundle files (the catalog's own all-bundle by default) instead of a
cluster. Exit 0 with the expanded VM on stdout; 1 when KubeVirt would refuse the
VM (its messages, located in the VM file); 2 when the input is unusable.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping, Sequence

import click
import yaml

from .. import escape
from ..errors import InputError, ValidationFailed
from ..load.gpu import opt_in_note
from ..problems import Location, Problem
from ..result import Result
from ..schemas import check_object
from ..source.yamlclasses import Dumper
from ..source.yamlsrc import Document, load_file
from ..tools.refs.target import target_objects
from ..tools.vmexpand import ExpandError, ExpandResult, MatcherError, UnusableInput, expand, resolve
from ..tools.vmexpand.mutate import MACHINE_TYPES
from .options import command, gpu_options

#: The largest object etcd stores by default (its --max-request-bytes): 1.5 MiB.
MAX_OBJECT_BYTES = 1_572_864


def load_vm(path: Path) -> Document:
    """Read ``path`` as one kubevirt.io VirtualMachine, or say why it is not one."""
    document = load_file(path)
    data = document.data
    name = str(path)
    if not isinstance(data, dict):
        raise InputError.at(Location(name), "expected a VirtualMachine mapping")
    if data.get("kind") != "VirtualMachine" or not str(data.get("apiVersion")).startswith("kubevirt.io/"):
        where = document.source.locate(("kind",))
        found = f"{data.get('apiVersion')} {data.get('kind')}"
        raise InputError.at(where, f"expected a kubevirt.io/v1 VirtualMachine, found {found}")
    size = len(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode())
    if size > MAX_OBJECT_BYTES:
        raise InputError.at(document.source.locate(()), (
            f"the VirtualMachine is {size} bytes as JSON; no API server stores an object over "
            f"{MAX_OBJECT_BYTES} bytes (1.5 MiB, etcd's limit on a request), so there is nothing to expand"))
    return document


def schema_refusal(document: Document, vm: Mapping[str, Any]) -> InputError | None:
    """The VirtualMachine, as expanded, against its schema: what the API server refuses of it.

    Checked after expansion, since a preference fills in what the VM may leave
    out (an input's type); each problem points at the line of the VM file it is
    about, or the nearest one written.
    """
    problems = check_object(dict(vm))
    if not problems:
        return None
    return InputError([document.source.problem(path, f"{message} (the API server refuses this VirtualMachine)",
                                               key=message.startswith("unknown field"))
                       for path, message in problems])


def _keys(field: str) -> tuple[str, ...]:
    """The VM-file key path behind a KubeVirt field path, for a line number."""
    first = field.split(", ")[0]
    if first.startswith("annotations."):
        return ("spec", "template", "metadata", "annotations", first[len("annotations."):])
    if first.startswith("instancetype."):
        return ("spec", "instancetype")  # the instancetype's own field: point at the matcher
    # KubeVirt names this one by its Go field; the YAML key is spelled differently.
    return tuple("dedicatedCpuPlacement" if k == "dedicatedCPUPlacement" else k for k in first.split("."))


def _locate(document: Document, field: str) -> Location:
    """Where KubeVirt's field path points in the VM file, printed as KubeVirt prints it."""
    found = document.source.locate(_keys(field))
    return Location(found.file, found.line, found.column, (field,))


def refusal(document: Document, errors: Sequence[ExpandError]) -> ValidationFailed:
    """KubeVirt's refusal as located problems, in the order KubeVirt reports them."""
    problems = [Problem(_locate(document, e.field), e.message, f"expand-{e.reason}") for e in errors]
    failed = ValidationFailed(problems)
    failed.problems = problems  # keep KubeVirt's order rather than sorting by path
    return failed


def run(vm_path: Path, bundles: Sequence[Path], arch: str, gpu_device: str | None = None,
        gpu_count: int | None = None) -> tuple[Document, ExpandResult]:
    """Load, resolve and expand; input mistakes raise InputError naming the file."""
    document = load_vm(vm_path)
    target = target_objects(bundles=bundles, gpu_device=gpu_device, gpu_count=gpu_count)  # the catalog's by default
    objects: list[Mapping[str, Any]] = target.objects
    try:
        instancetype, preference = resolve(document.data, objects)
    except MatcherError as exc:
        where = document.source.locate(("spec", exc.which, "name"))
        searched = ", ".join(str(b) for b in bundles) if bundles else f"the all-bundle of {target.described}"
        named = ((document.data.get("spec") or {}).get(exc.which) or {}).get("name")
        note = opt_in_note(named, target.opt_in) if exc.which == "instancetype" and isinstance(named, str) else None
        raise InputError.at(where, f"{exc} (searched {searched})" + (f": {note}" if note else "")) from None
    except UnusableInput as exc:
        raise InputError.at(Location(str(vm_path)), str(exc)) from None
    try:
        result = expand(document.data, instancetype, preference, arch=arch)
    except UnusableInput as exc:
        raise InputError.at(Location(str(vm_path)), str(exc)) from None
    return document, result


@command("expand")
@click.argument("vm", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--bundle", "bundles", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Bundle file holding the instancetypes and preferences (repeatable; "
                   "default: the catalog's all-bundle).")
@click.option("--arch", default="amd64", show_default=True, type=click.Choice(sorted(MACHINE_TYPES)),
              help="The cluster's default architecture, used when neither the VM nor its preference names one.")
@click.option("--output", "-o", "output", default="yaml", show_default=True, type=click.Choice(["yaml", "json"]),
              help="Format of the expanded VirtualMachine (--format json reports it as 'vm' whatever this says).")
@gpu_options
def expand_command(vm: Path, bundles: Sequence[Path], arch: str, output: str, gpu_device: str | None,
                   gpu_count: int | None) -> Result:
    """Print VM (a VirtualMachine file) expanded with its instancetype and preference.

    Follows KubeVirt: creation defaults (architecture, machine type, a disk per
    volume, the pod network), the spread-topology check, the instancetype (a VM
    field it also sets is a conflict), the preference (filling only what the VM
    leaves unset), then the preference's requirements. A refused VM prints
    KubeVirt's messages and exits 1.
    """
    document, result = run(vm, bundles, arch, gpu_device, gpu_count)
    if not result.ok:
        raise refusal(document, result.errors)
    refused = schema_refusal(document, result.vm)
    if refused is not None:
        raise refused
    if output == "json":
        shown = escape.json_text(result.vm, indent=2, sort_keys=True) + "\n"
    else:
        shown = yaml.dump(result.vm, Dumper=Dumper, sort_keys=True, default_flow_style=False)
    return Result("expand", product=shown, data={"vm": result.vm})
