"""`citgen expand`: print VirtualMachines as KubeVirt would run them.

Like ``virtctl expand`` but offline: each VM's instancetype and preference are
looked up in bundles (the built-in catalog's build by default) instead of a
cluster. VMs are read by the one reader of objects (source/objects.py): a file, a
folder, ``-`` or a pipe, every VirtualMachine of every document or List. Exit 0
with the expanded VMs on stdout; 1 when KubeVirt would refuse one (its findings,
each located in its file, with the rule ids ``refs`` gives the same checks:
``unknown-name``, ``requirements``); 2 when the input is unusable: a VM the API
server would not store (its metadata, schema or size), or that cannot be expanded
at all, and then nothing is printed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

import click
import yaml

from .. import escape
from ..errors import InputError
from ..frozen import frozen
from ..problems import Location, Problem, excerpt
from ..result import Result
from ..schemas import check_object
from ..source.documents import BundleDoc
from ..source.objects import objects_of, sources
from ..source.stream import Unit
from ..source.yamlclasses import Dumper
from ..tools.refs.target import Target, target_objects
from ..tools.vmexpand import ExpandError, ExpandResult, MatcherError, UnusableInput, expand, resolve
from ..tools.vmexpand.mutate import MACHINE_TYPES
from .options import PathParam, command, gpu_options

#: The largest object etcd stores by default (its --max-request-bytes): 1.5 MiB.
MAX_OBJECT_BYTES = 1_572_864
#: The rule each of KubeVirt's refusal reasons is reported under: a preference's unmet requirements are the
#: ``requirements`` check ``citgen refs`` makes too.
RULES = {"cpu": "requirements", "memory": "requirements", "architecture": "requirements"}


@frozen
class Expanded:
    """One VirtualMachine of the input: where it is, and its expansion or why KubeVirt refuses it.

    ``unusable``: the API server would not even store the VM (its metadata, its
    schema, its size) or it cannot be expanded at all: the run's input is unusable
    (exit 2), where a VM KubeVirt refuses to run is a finding (exit 1).
    """

    unit: Unit
    vm: Mapping[str, Any] | None = None
    problems: tuple[Problem, ...] = ()
    unusable: bool = False


def is_vm(data: Any) -> bool:
    return (isinstance(data, dict) and data.get("kind") == "VirtualMachine"
            and str(data.get("apiVersion")).startswith("kubevirt.io/"))


def read_vms(paths: Sequence[str | Path]) -> list[Unit]:
    """Every kubevirt.io VirtualMachine ``paths`` hold, read whole; InputError for what cannot be read, or none."""
    found = sources(paths)
    problems: list[Problem] = list(found.problems)
    vms: list[Unit] = []
    others: set[str] = set()
    for source in found.sources:
        try:
            text = source.text()
        except InputError as exc:
            problems.extend(exc.problems)
            continue
        for unit in objects_of(text, source.shown):
            if isinstance(unit, Problem):
                problems.append(unit)
                continue
            problems.extend(unit.problems)  # what the reader refused of any object: a tag, a duplicate key
            if is_vm(unit.data):
                vms.append(unit)
            elif isinstance(unit.data, dict):
                version = unit.data.get("apiVersion")
                written = excerpt(str(version)) if version else "no apiVersion"
                others.add(f"{excerpt(str(unit.data.get('kind')))} ({written})")
    if not vms and not problems:
        held = f"holds {', '.join(sorted(others)[:5])} objects" if others else "holds no objects"
        problems.append(Problem(Location(", ".join(s.shown for s in found.sources) or "citgen"),
                                f"no VirtualMachine: the input {held}; expected kubevirt.io/v1 VirtualMachines"))
    if problems:
        raise InputError(problems)
    return vms


def _metadata(unit: Unit) -> list[Problem]:
    """What the API server refuses of the VM's own metadata (the object-metadata rule every object gets), and
    its size: no API server stores an object over etcd's limit."""
    from ..validate.rules import object_metadata

    doc = BundleDoc(unit.file, unit.doc, unit.data, unit.source, unit.path, unit.lines_before, unit.within)
    problems = list(object_metadata.check([doc], None))  # type: ignore[arg-type]  # the rule reads no context
    size = len(json.dumps(unit.data, separators=(",", ":"), ensure_ascii=False).encode())
    if size > MAX_OBJECT_BYTES:
        problems.append(Problem(unit.locate((), _name(unit)), (
            f"the VirtualMachine is {size} bytes as JSON; no API server stores an object over {MAX_OBJECT_BYTES} "
            "bytes (1.5 MiB, etcd's limit on a request), so there is nothing to expand"), "object-metadata"))
    return problems


def _keys(field: str) -> tuple[str, ...]:
    """The VM-file key path behind a KubeVirt field path, for a line number."""
    first = field.split(", ")[0]
    if first.startswith("annotations."):
        return ("spec", "template", "metadata", "annotations", first[len("annotations."):])
    if first.startswith("instancetype."):
        return ("spec", "instancetype")  # the instancetype's own field: point at the matcher
    # KubeVirt names this one by its Go field; the YAML key is spelled differently.
    return tuple("dedicatedCpuPlacement" if k == "dedicatedCPUPlacement" else k for k in first.split("."))


def _name(unit: Unit) -> str | None:
    meta = unit.data.get("metadata")
    name = meta.get("name") if isinstance(meta, dict) else None
    return name if isinstance(name, str) else None


def refusal(unit: Unit, errors: Sequence[ExpandError]) -> tuple[Problem, ...]:
    """KubeVirt's refusal as located findings, in the order KubeVirt reports them."""
    return tuple(Problem(unit.locate(_keys(e.field), _name(unit)), e.message, RULES.get(e.reason, f"expand-{e.reason}"))
                 for e in errors)


def schema_refusal(unit: Unit, vm: Mapping[str, Any]) -> tuple[Problem, ...]:
    """The VirtualMachine, as expanded, against its schema: what the API server refuses of it.

    Checked after expansion, since a preference fills in what the VM may leave
    out (an input's type); each problem points at the line of the VM file it is
    about, or the nearest one written.
    """
    return tuple(Problem(unit.locate(path, _name(unit), key=message.startswith("unknown field")),
                         f"{message} (the API server refuses this VirtualMachine)", "schema")
                 for path, message in check_object(dict(vm)))


def _unknown(unit: Unit, target: Target) -> tuple[Problem, ...]:
    """The findings ``citgen refs`` makes of the names a VM gives that the target does not have: the one check,
    with its rule id and did-you-mean."""
    from ..tools.refs.forms import read_unit
    from ..tools.refs.judge import judge
    from ..tools.refs.model import Definition, Reference, Scan

    found = list(read_unit(unit))
    scan = Scan(tuple(f for f in found if isinstance(f, Reference)),
                tuple(f for f in found if isinstance(f, Definition)), 1, (), ())
    return judge(scan, target).findings


def expand_one(unit: Unit, target: Target, arch: str) -> Expanded:
    """One VM expanded against ``target``'s objects, or the findings that refuse it."""
    problems = _metadata(unit)
    if problems:
        return Expanded(unit, problems=tuple(problems), unusable=True)
    try:
        instancetype, preference = resolve(unit.data, target.objects)
        result: ExpandResult = expand(unit.data, instancetype, preference, arch=arch)
    except MatcherError as exc:
        unknown = _unknown(unit, target)
        if unknown:
            return Expanded(unit, problems=unknown)
        return Expanded(unit, problems=(Problem(unit.locate(("spec", exc.which), _name(unit)), str(exc),
                                                "unknown-name"),))
    except UnusableInput as exc:
        return Expanded(unit, problems=(Problem(unit.locate((), _name(unit)), str(exc)),), unusable=True)
    if not result.ok:
        return Expanded(unit, problems=refusal(unit, result.errors))
    refused = schema_refusal(unit, result.vm)
    return Expanded(unit, result.vm, refused, unusable=True) if refused else Expanded(unit, result.vm)


def _shown(vms: Sequence[Mapping[str, Any]], output: str) -> str:
    """The expanded VMs as kubectl prints objects: one YAML document each, or one JSON object (a List for many)."""
    if output == "json":
        value: Any = vms[0] if len(vms) == 1 else {"apiVersion": "v1", "kind": "List", "items": list(vms)}
        return escape.json_text(value, indent=2, sort_keys=True) + "\n"
    return "---\n".join(yaml.dump(vm, Dumper=Dumper, sort_keys=True, default_flow_style=False) for vm in vms)


def expanded(results: Sequence[Expanded]) -> Iterator[Mapping[str, Any]]:
    for one in results:
        if one.vm is not None and not one.problems:
            yield one.vm


@command("expand")
@click.argument("vms", nargs=-1, required=True, type=PathParam(path_type=str), metavar="VM...")
@click.option("--bundle", "bundles", multiple=True, type=PathParam(path_type=Path),
              help="Bundle holding the instancetypes and preferences: a file, a folder, - or a pipe (repeatable; "
                   "default: the built-in catalog's build).")
@click.option("--arch", default="amd64", show_default=True, type=click.Choice(sorted(MACHINE_TYPES)),
              help="The cluster's default architecture, used when neither the VM nor its preference names one.")
@click.option("--output", "-o", "output", default="yaml", show_default=True, type=click.Choice(["yaml", "json"]),
              help="Format of the expanded VirtualMachines (--format json reports them as 'vms' whatever this says).")
@gpu_options
def expand_command(vms: Sequence[str], bundles: Sequence[Path], arch: str, output: str, gpu_device: str | None,
                   gpu_count: int | None) -> Result:
    """Print VirtualMachines expanded with their instancetype and preference.

    Reads every VirtualMachine of VM... (files, folders, or - for standard
    input; documents, kind: List dumps, JSON).

    Follows KubeVirt: creation defaults (architecture, machine type, a disk per
    volume, the pod network), the spread-topology check, the instancetype (a VM
    field it also sets is a conflict), the preference (filling only what the VM
    leaves unset), then the preference's requirements. A refused VM is reported
    with KubeVirt's messages, and the run exits 1; the others are printed.
    """
    units = read_vms(vms)
    target = target_objects(bundles=bundles, gpu_device=gpu_device, gpu_count=gpu_count)  # GN only with a device
    results = [expand_one(unit, target, arch) for unit in units]
    done = list(expanded(results))
    problems = tuple(p for one in results for p in one.problems)
    data: dict[str, Any] = {"vms": done, **({"vm": done[0]} if len(results) == 1 and done else {})}
    unusable = any(one.unusable for one in results)
    return Result("expand", problems=problems, product="" if unusable or not done else _shown(done, output),
                  data=data, counts={"expanded": len(done), "refused": len(results) - len(done)}, pipeable=True,
                  unusable=unusable)
