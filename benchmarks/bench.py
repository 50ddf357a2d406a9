"""citgen's benchmark: how fast and how lean a build and a validation are, against their floor.

Run it with ``make bench`` (or ``python benchmarks/bench.py``). It prints, for each case,
the median wall time, CPU time and peak memory of several runs after a warm-up, and
the objects (Kubernetes documents) handled per second:

1. ``citgen build`` on the built-in catalog, as a separate process, so interpreter
   start and imports count, with every output and the full validation;
2. ``citgen validate`` of the all-bundle, as a process;
3. ``citgen build`` of other catalogs: a vendor catalog that extends the built-in one
   through two overlays, and synthetic catalogs 10x and 100x the built-in number of
   instancetypes, the 100x one kept to show that time and memory grow linearly;
4. ``citgen refs`` of a cluster dump (``kubectl get vm,datasource -A -o yaml``: 10,000
   VirtualMachines and as many DataSources in one List), in each report format, beside
   its floor: the same dump read by PyYAML's C loader alone, in a process of its own;
5. growth (issue 41): work that must stay linear, each input at 1x and 10x: ``citgen
   refs`` of 1,500 cluster instancetypes and 1,500 VMs each naming one with a letter
   more (every VM an unknown name, every definition a candidate for its did-you-mean),
   and ``citgen list`` of a catalog retiring 2,000 names each replaced by the next (a
   chain followed from each of its names). ``--growth`` runs only these; ``--quick``
   leaves them out.

Every build is shown beside its floor (benchmarks/floor.py): a plain script, with no
citgen code, that starts Python, imports yaml, jinja2 and click, and writes the same
output tree, byte for byte, from memory into a staging folder and swaps it in place of
the old one. A build cannot cost less than that; the ratio citgen/floor says how much
of a build is citgen's own work. The two are run by turns, so that a change in the
machine's load falls on both.

Then it shows where the time of case 1 goes, step by step, measured in-process, and
the same for the 100x catalog, where per-object costs dominate start-up costs.

The process running this script stays small on purpose and never imports citgen:
Linux counts the memory a child inherited at fork time into the child's peak RSS,
so a parent that had loaded the catalog would inflate every figure it measures.
Everything that needs citgen (writing the synthetic catalogs, the step breakdown)
runs in a worker process of this same script (``--worker``), and the trees the floor
writes are read and loaded by floor.py's own processes.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import yaml

REPO = Path(__file__).resolve().parent.parent
ALL_BUNDLE = "common-instancetypes-all-bundle.yaml"
FACTORS = (10, 100)
FLOOR_SCRIPT = Path(__file__).resolve().with_name("floor.py")
MIB = 1024 * 1024

# Targets of issue 7, printed next to the figures so a regression is plain to see.
TARGET_WALL_S = 0.5
TARGET_PEAK_MIB = 100
TARGET_RATE_100X = 5000


# --------------------------------------------------------------------------- measuring processes


@dataclass(frozen=True)
class Sample:
    """One finished child process: its wall time, CPU time (user + system) and peak RSS."""

    wall: float
    cpu: float
    peak: int  # bytes


@dataclass(frozen=True)
class Figures:
    """The medians of several samples of one case, and what they mean per object."""

    case: str
    objects: int
    runs: int
    wall: float
    cpu: float
    peak: int

    @property
    def rate(self) -> float:
        return self.objects / self.wall if self.wall else 0.0

    @property
    def us_per_object(self) -> float:
        return self.wall / self.objects * 1e6 if self.objects else 0.0

    def as_json(self) -> dict[str, Any]:
        return {**asdict(self), "peak_mib": self.peak / MIB, "objects_per_s": self.rate,
                "us_per_object": self.us_per_object}


@dataclass(frozen=True)
class Build:
    """A build case: citgen's figures beside its floor's, which wrote the same tree (``files`` and ``folders``)."""

    figures: Figures
    floor: Figures
    files: int
    folders: int

    @property
    def ratio(self) -> float:
        """Wall time as many times the floor's: 1.0 would be a build that costs nothing of its own."""
        return self.figures.wall / self.floor.wall if self.floor.wall else 0.0

    @property
    def cpu_ratio(self) -> float:
        return self.figures.cpu / self.floor.cpu if self.floor.cpu else 0.0

    def as_json(self) -> dict[str, Any]:
        return {**self.figures.as_json(), "files": self.files, "folders": self.folders,
                "floor": self.floor.as_json(), "floor_ratio": self.ratio, "floor_ratio_cpu": self.cpu_ratio}


def child_env() -> dict[str, str]:
    """The environment of measured children: this checkout's code comes first on the path."""
    env = dict(os.environ)
    # The warm-up run is there to write bytecode, as an installed citgen has it; an
    # environment that forbids writing it would make every run compile from source.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    return env


def citgen_command() -> list[str]:
    """How a user runs citgen: the console script beside this interpreter, else the module."""
    script = Path(sys.executable).with_name("citgen")
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-m", "generator"]


def run(argv: Sequence[str], cwd: Path, allowed: tuple[int, ...] = (0,)) -> Sample:
    """Run one child to completion and read its own resource usage from the kernel.

    os.wait4 gives the rusage of exactly this child (not of every child so far, as
    RUSAGE_CHILDREN would), so CPU time and peak RSS belong to the measured run.
    An exit status not ``allowed`` stops the benchmark (``citgen refs`` exits 1 with findings).
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(list(argv), cwd=cwd, stdout=out, stderr=err, env=child_env())
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode not in allowed:
            err.seek(0)
            out.seek(0)
            raise SystemExit(f"bench: {' '.join(argv)} exited with {proc.returncode}:\n"
                             f"{out.read().decode(errors='replace')}{err.read().decode(errors='replace')}")
    return Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024)


def measure(case: str, argv: Sequence[str], cwd: Path, runs: int, objects: Callable[[], int],
            warmup: bool = True, allowed: tuple[int, ...] = (0,)) -> Figures:
    """Median figures of ``runs`` runs, after one unmeasured warm-up run (disk cache, bytecode)."""
    if warmup:
        run(argv, cwd, allowed)
    return medians(case, [run(argv, cwd, allowed) for _ in range(runs)], objects())


def medians(case: str, samples: Sequence[Sample], objects: int) -> Figures:
    """The median wall time, CPU time and peak of ``samples``, each taken on its own."""
    return Figures(case, objects, len(samples),
                   statistics.median(s.wall for s in samples),
                   statistics.median(s.cpu for s in samples),
                   int(statistics.median(s.peak for s in samples)))


def count_documents(path: Path) -> int:
    """Documents in a bundle citgen wrote: each starts with its own ``---`` line."""
    with open(path, encoding="utf-8") as f:
        return sum(1 for line in f if line.rstrip("\n") == "---")


def worker(args: Sequence[str]) -> Any:
    """Run this script as a worker process and return the JSON it prints."""
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", *args],
                          capture_output=True, text=True, env=child_env(), cwd=REPO)
    if done.returncode != 0:
        raise SystemExit(f"bench: worker {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return json.loads(done.stdout)


# --------------------------------------------------------------------------- a cluster dump (citgen refs)


#: Targets of issue 33 for ``citgen refs`` of the cluster dump, in every format.
TARGET_REFS_FLOOR_RATIO = 3.0
TARGET_REFS_PEAK_MIB = 200
#: VirtualMachines in the dump of the full run (and as many DataSources), and of --quick.
DUMP_VMS = 10_000
DUMP_VMS_QUICK = 100
#: The formats citgen refs reports the dump in.
REFS_FORMATS = ("text", "json", "github")
#: The floor: the dump read by PyYAML's C loader alone. The cyclic collector takes most of
#: that time (a List's objects are all alive until the end); the second floor pauses it,
#: as a reader that builds nothing it keeps could, and is the one the target is judged by.
FLOOR = "import sys, yaml; yaml.load(open(sys.argv[1], encoding='utf-8').read(), Loader=yaml.CSafeLoader)"
FLOOR_PAUSED = "import gc; gc.disable(); " + FLOOR

#: The instancetype and preference each VirtualMachine names, and its DataSource's labels, by turns:
#: names of the built-in catalog whose pairs KubeVirt accepts, so the report finds nothing.
DUMP_PAIRS = (("u1.medium", "fedora"), ("u1.large", "centos.stream9"), ("o1.xlarge", "rhel.9"),
              ("u1.2xlarge", "windows.2k22.virtio"), ("cx1.xlarge", "rhel.9.realtime"), ("m1.large", "ubuntu"),
              ("u1.small", "debian"), ("n1.xlarge", "rhel.9.dpdk"))

#: One VirtualMachine as ``kubectl get -o yaml`` writes it (keys sorted, lists at their key's
#: indent), with the status KubeVirt keeps; no managedFields.
DUMP_VM = """\
- apiVersion: kubevirt.io/v1
  kind: VirtualMachine
  metadata:
    annotations:
      kubemacpool.io/transaction-timestamp: "2026-11-20T08:{m:02}:{s:02}.123456789Z"
      kubevirt.io/latest-observed-api-version: v1
      kubevirt.io/storage-observed-api-version: v1
    creationTimestamp: "2026-11-20T08:{m:02}:{s:02}Z"
    finalizers:
    - kubevirt.io/virtualMachineControllerFinalize
    generation: 2
    labels:
      app: web-{i}
      app.kubernetes.io/part-of: shop-{ns}
      vm.kubevirt.io/template-os: {preference}
    name: web-{i}
    namespace: team-{ns}
    resourceVersion: "{rv}"
    uid: {uid}
  spec:
    dataVolumeTemplates:
    - metadata:
        creationTimestamp: null
        name: web-{i}-rootdisk
      spec:
        sourceRef:
          kind: DataSource
          name: {preference}
          namespace: os-images
        storage:
          resources:
            requests:
              storage: 30Gi
    instancetype:
      kind: virtualmachineclusterinstancetype
      name: {instancetype}
      revisionName: web-{i}-{instancetype}-{uid}-1
    preference:
      kind: virtualmachineclusterpreference
      name: {preference}
      revisionName: web-{i}-{preference}-{uid}-1
    runStrategy: Always
    template:
      metadata:
        creationTimestamp: null
        labels:
          kubevirt.io/domain: web-{i}
          network.kubevirt.io/headlessService: headless
      spec:
        architecture: amd64
        domain:
          devices:
            disks:
            - disk:
                bus: virtio
              name: rootdisk
            - disk:
                bus: virtio
              name: cloudinitdisk
            interfaces:
            - macAddress: 02:5e:{mac}
              masquerade: {{}}
              model: virtio
              name: default
          firmware:
            serial: {uid}
            uuid: {uid}
          machine:
            type: pc-q35-rhel9.6.0
          resources: {{}}
        networks:
        - name: default
          pod: {{}}
        subdomain: headless
        volumes:
        - dataVolume:
            name: web-{i}-rootdisk
          name: rootdisk
        - cloudInitNoCloud:
            userData: |-
              #cloud-config
              user: cloud-user
              ssh_authorized_keys:
              - ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHb6ZfTBv0x4Q0W5k2mYJ9m5n0bq1C3bYcR2t8e4Y3aD ops@example.com
          name: cloudinitdisk
  status:
    conditions:
    - lastProbeTime: null
      lastTransitionTime: "2026-11-20T08:{m:02}:{s:02}Z"
      status: "True"
      type: Ready
    - lastProbeTime: null
      lastTransitionTime: null
      status: "True"
      type: LiveMigratable
    - lastProbeTime: null
      lastTransitionTime: null
      status: "True"
      type: StorageLiveMigratable
    created: true
    desiredGeneration: 2
    instancetypeRef:
      controllerRevisionRef:
        name: web-{i}-{instancetype}-{uid}-1
      kind: virtualmachineclusterinstancetype
      name: {instancetype}
    observedGeneration: 2
    preferenceRef:
      controllerRevisionRef:
        name: web-{i}-{preference}-{uid}-1
      kind: virtualmachineclusterpreference
      name: {preference}
    printableStatus: Running
    ready: true
    runStrategy: Always
    volumeSnapshotStatuses:
    - enabled: true
      name: rootdisk
    - enabled: false
      name: cloudinitdisk
      reason: Snapshot is not supported for this volumeSource type [cloudinitdisk]
"""
#: One DataSource as kubectl writes it: an image a DataImportCron keeps, with the inference labels.
DUMP_DATA_SOURCE = """\
- apiVersion: cdi.kubevirt.io/v1beta1
  kind: DataSource
  metadata:
    annotations:
      operator-sdk/primary-resource: kubevirt/ssp-kubevirt-hyperconverged
      operator-sdk/primary-resource-type: SSP.ssp.kubevirt.io
    creationTimestamp: "2026-11-20T08:{m:02}:{s:02}Z"
    generation: 3
    labels:
      app.kubernetes.io/component: storage
      app.kubernetes.io/managed-by: cdi-controller
      app.kubernetes.io/part-of: hyperconverged-cluster
      app.kubernetes.io/version: 1.16.0
      cdi.kubevirt.io/dataImportCron: image-{i}-cron
      instancetype.kubevirt.io/default-instancetype: {instancetype}
      instancetype.kubevirt.io/default-preference: {preference}
    name: image-{i}
    namespace: images-{ns}
    resourceVersion: "{rv}"
    uid: {uid}
  spec:
    source:
      snapshot:
        name: image-{i}-{rv}
        namespace: images-{ns}
  status:
    conditions:
    - lastHeartbeatTime: "2026-11-20T08:{m:02}:{s:02}Z"
      lastTransitionTime: "2026-11-20T08:{m:02}:{s:02}Z"
      message: DataSource is ready to be consumed
      reason: Ready
      status: "True"
      type: Ready
    source:
      snapshot:
        name: image-{i}-{rv}
        namespace: images-{ns}
"""


def _dump_fields(i: int) -> dict[str, Any]:
    instancetype, preference = DUMP_PAIRS[i % len(DUMP_PAIRS)]
    return {"i": i, "ns": i % 40, "m": i // 60 % 60, "s": i % 60, "rv": 1_000_000 + i * 7,
            "uid": f"{i:08x}-6d1c-4c5e-9f0a-{i * 2654435761 % 2**48:012x}",
            "mac": ":".join(f"{(i >> shift) & 0xff:02x}" for shift in (24, 16, 8, 0)),
            "instancetype": instancetype, "preference": preference}


def write_cluster_dump(path: Path, vms: int) -> int:
    """``kubectl get vm,datasource -A -o yaml`` of a cluster of ``vms`` VirtualMachines and as many DataSources.

    One List document, its items written as kubectl writes them (the VMs, then the
    DataSources); returns the number of objects. Written piece by piece, so this
    process stays small.
    """
    with path.open("w", encoding="utf-8") as out:
        out.write("apiVersion: v1\nitems:\n")
        out.writelines(DUMP_VM.format(**_dump_fields(i)) for i in range(vms))
        out.writelines(DUMP_DATA_SOURCE.format(**_dump_fields(i)) for i in range(vms))
        out.write('kind: List\nmetadata:\n  resourceVersion: ""\n')
    return 2 * vms


# --------------------------------------------------------------------------- growth: inputs grown 10x

#: The growth checks of issue 41, each an input of ``n`` things at 1x and 10x: the time of work that stays
#: linear grows about 10x; work comparing every thing with every other grows 100x.
GROWTH = (
    ("did-you-mean", "refs: {n} definitions, {n} VMs naming a near miss", 1500),
    ("chains", "list: a catalog retiring {n} names, each replaced by the next", 2000),
    ("places", "refs: one JSON object naming a removed preference {n} times", 2000),
)
GROWTH_FACTOR = 10
#: What --quick takes of each 1x input.
GROWTH_QUICK = 10

NEAR_MISS = """\
---
apiVersion: instancetype.kubevirt.io/v1beta1
kind: VirtualMachineClusterInstancetype
metadata:
  name: it-{i:06d}
spec:
  cpu:
    guest: 1
  memory:
    guest: 1Gi
---
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: vm-{i:06d}
  namespace: ns-{ns}
spec:
  instancetype:
    name: it-{i:06d}x
  preference:
    name: fedora
"""


def write_near_misses(path: Path, n: int) -> None:
    """``n`` cluster instancetypes and ``n`` VirtualMachines each naming one with a letter more: every VM is an
    unknown name, and every definition a candidate for its did-you-mean."""
    with path.open("w", encoding="utf-8") as out:
        out.writelines(NEAR_MISS.format(i=i, ns=i % 40) for i in range(n))


def write_chained_catalog(folder: Path, n: int) -> None:
    """A catalog extending the built-in one whose catalog.yaml retires ``n`` preference names, each replaced by
    the next, the last by fedora: a chain of ``n`` replacements, followed from each of its names."""
    folder.mkdir()
    lines = ["extends: builtin", "retired:", "  preferences:"]
    lines += [f"    old-{i:06d}: {{since: v1.0.0, replacement: {f'old-{i + 1:06d}' if i + 1 < n else 'fedora'}}}"
              for i in range(n)]
    (folder / "catalog.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_many_places(path: Path, n: int) -> None:
    """A HyperConverged whose ``n`` data import crons all name a preference the catalog removed, as kubectl writes
    JSON: ``n`` findings in one object, each found at its line (each place once looked up from the one before)."""
    crons = [{"metadata": {"name": f"cron-{i}", "labels": {"instancetype.kubevirt.io/default-preference": "centos.7"}},
              "spec": {"managedDataSource": f"source-{i}", "schedule": "0 */12 * * *"}} for i in range(n)]
    hco = {"apiVersion": "hco.kubevirt.io/v1beta1", "kind": "HyperConverged",
           "metadata": {"name": "kubevirt-hyperconverged", "namespace": "kubevirt-hyperconverged"},
           "spec": {"dataImportCronTemplates": crons}}
    path.write_text(json.dumps(hco, indent=4), encoding="utf-8")


def measure_growth(tmp: Path, runs: int, warmup: bool, quick: bool) -> list[tuple[str, Figures, Figures]]:
    """Each growth check at 1x and 10x, as a user runs it (a process each)."""
    rows = []
    for check, what, base in GROWTH:
        base = base // GROWTH_QUICK if quick else base
        figures = []
        for n in (base, base * GROWTH_FACTOR):
            if check == "did-you-mean":
                path = tmp / f"near-misses-{n}.yaml"
                write_near_misses(path, n)
                argv = [*citgen_command(), "refs", str(path)]
            elif check == "chains":
                path = tmp / f"chained-{n}"
                write_chained_catalog(path, n)
                argv = [*citgen_command(), "list", "--preferences", "--catalog", str(path)]
            else:
                path = tmp / f"places-{n}.json"
                write_many_places(path, n)
                argv = [*citgen_command(), "refs", str(path)]
            figures.append(measure(f"{check}, {what.format(n=n)}", argv, tmp, min(runs, 3), lambda: n, warmup,
                                   allowed=(0, 1)))
        rows.append((check, figures[0], figures[1]))
    return rows


def print_growth(rows: Sequence[tuple[str, Figures, Figures]]) -> None:
    print(f"growth (issue 41): each input at 1x and {GROWTH_FACTOR}x, as a process (interpreter start included); "
          f"linear work grows about {GROWTH_FACTOR}x, work comparing all with all {GROWTH_FACTOR ** 2}x:")
    for check, one, ten in rows:
        ratio = ten.wall / one.wall if one.wall else 0.0
        cpu = ten.cpu / one.cpu if one.cpu else 0.0
        print(f"  {one.case:<78} {one.wall:>8.3f} s  {one.cpu:>8.3f} s cpu  {mib(one.peak):>10}")
        print(f"  {ten.case:<78} {ten.wall:>8.3f} s  {ten.cpu:>8.3f} s cpu  {mib(ten.peak):>10}   "
              f"x{ratio:.1f} wall, x{cpu:.1f} cpu, "
              f"{verdict(cpu <= GROWTH_FACTOR * 1.5)} (at most about {GROWTH_FACTOR}x)")
    print()


# --------------------------------------------------------------------------- a vendor catalog with overlays


#: The vendor catalog's own overlay (listed in its catalog.yaml) and the one its release
#: build adds with ``--overlay``, as a vendor's pipeline would.
VENDOR_CATALOG_OVERLAY = "overlay.yaml"
VENDOR_RELEASE_OVERLAY = "release.yaml"
VENDOR_OVERLAYS = 2
VENDOR_FILES = {
    "catalog.yaml": f"""\
extends: builtin
vendor: acme.example.com
version: v2.3.0-dev
overlays:
  - {VENDOR_CATALOG_OVERLAY}
""",
    # What docs/vendor-guide.md walks through: the vendor's label, GPUs, provider, a series and a
    # trait and preference of its own, and the parts of the built-in catalog it does not offer.
    VENDOR_CATALOG_OVERLAY: """\
labels:
  acme.example.com/catalog: acme-cloud
annotations:
  acme.example.com/support: https://acme.example.com/support
parameters:
  gpu:
    deviceName: nvidia.com/L40S
    count: 2
provider:
  displayName: Acme Cloud
  documentationURL: https://acme.example.com/docs/instancetypes
  supportURL: https://acme.example.com/support
series:
  drop: [rt]
  add:
    hm:
      version: 1
      class: memory.high
      displayName: High Memory
      description: Sixteen GiB of hugepage-backed memory for every vCPU.
      icon: fa-memory
      ratio: "1:16"
      sizes: {from: large, to: 4xlarge}
      features: {hugepages: 1Gi}
  change:
    o:
      features: {overcommitPercent: 25}
    gn:
      ratio: "1:8"
      sizes: {from: 2xlarge}
traits:
  add:
    vnc-display:
      description: Attach a graphics device for a VNC console.
      spec:
        devices:
          preferredAutoattachGraphicsDevice: true
      tags: [desktop]
preferences:
  drop: ["windows.xp", "windows.2k3"]
  add:
    fedora.desktop:
      basedOn: fedora
      displayName: Fedora Desktop
      description: Fedora on amd64 with a VNC console.
      traits: [vnc-display]
  change:
    ubuntu:
      displayName: Ubuntu (supported by Acme)
      requirements: {memory: 2Gi}
""",
    # The release build's overlay: the version, a size no longer sold, deprecations.
    VENDOR_RELEASE_OVERLAY: """\
version: v2.3.0
sizes:
  drop: [8xlarge]
series:
  change:
    u:
      deprecatedSizes:
        2xmedium: {since: v2.3.0, replacement: u1.large}
preferences:
  change:
    opensuse.leap: {deprecated: {since: v2.3.0, replacement: opensuse.tumbleweed}}
""",
}


def write_vendor_catalog(dest: Path) -> Path:
    """A vendor catalog that extends the built-in one, with its release overlay beside it; returns its folder.

    Plain files, as ``citgen init`` starts them and a vendor fills them in, so this
    process writes them without importing citgen.
    """
    dest.mkdir(parents=True)
    for name, text in VENDOR_FILES.items():
        (dest / name).write_text(text, encoding="utf-8")
    return dest


# --------------------------------------------------------------------------- workers (import citgen)


#: The synthetic size matrix: three fixed-memory sizes, as the standard matrix has,
#: then one size per vCPU count. Wider than any built-in matrix, so every series
#: file yields many objects, as a vendor catalog with many sizes would.
SYNTHETIC_SIZES = 48
FIXED_SIZES = {"nano": {"cpu": 1, "memory": "1Gi"}, "micro": {"cpu": 1, "memory": "2Gi"},
               "small": {"cpu": 2, "memory": "4Gi"}}


def _letters(number: int, width: int = 3) -> str:
    """A series name suffix of lowercase letters (series names may not hold digits)."""
    out = ""
    for _ in range(width):
        number, digit = divmod(number, 26)
        out = chr(ord("a") + digit) + out
    return out


def write_synthetic_catalog(dest: Path, factor: int) -> dict[str, int]:
    """A catalog with ``factor`` times the built-in number of instancetypes, written to ``dest``.

    Series are copies of the built-in ones (so every feature flag and variant is
    exercised) under new prefixes, all over one wide size matrix; the catalog
    settings, preferences and templates are the built-in ones. Everything is written
    as JSON, which YAML reads as it is.
    """
    from generator.expand.instancetypes import instancetype_objects
    from generator.load.catalog import load_catalog, series_files
    from generator.paths import builtin_catalog
    from generator.source.yamlsrc import load_file

    source = builtin_catalog()
    base = len(instancetype_objects(load_catalog(source)))
    target = base * factor
    dest.mkdir(parents=True)
    # With a GPU device, so that the copies of the GN series are built like the others; without the
    # retired instancetypes, whose replacements are the built-in series' sizes, renamed here.
    settings = load_file(source / "catalog.yaml", "catalog.yaml").data
    settings["parameters"] = {"gpu": {"deviceName": "nvidia.com/A400"}}
    settings.get("retired", {}).pop("instancetypes", None)
    (dest / "catalog.yaml").write_text(json.dumps(settings, indent=1), encoding="utf-8")
    for folder in ("preferences", "templates"):
        shutil.copytree(source / folder, dest / folder)
    (dest / "series").mkdir()
    sizes: dict[str, Any] = dict(FIXED_SIZES)
    sizes.update((f"c{cpu}", cpu) for cpu in range(1, SYNTHETIC_SIZES - len(FIXED_SIZES) + 1))
    (dest / "series" / "sizes.yaml").write_text(json.dumps({"matrices": {"wide": sizes}}, indent=1))
    names = list(sizes)
    templates = [load_file(source / name, name).data for name in series_files(source)]
    made = count = 0
    while made < target:
        data = dict(templates[count % len(templates)])
        flavours = 1 + len(data.get("variants", {}))
        wanted = min(len(names), -(-(target - made) // flavours))
        data.update(prefix=data["prefix"] + _letters(count), matrix="wide",
                    sizes={"to": names[wanted - 1]})
        (dest / "series" / f"{data['prefix']}.yaml").write_text(json.dumps(data, indent=1))
        made += wanted * flavours
        count += 1
    return {"base_instancetypes": base, "instancetypes": made, "series": count, "sizes": len(names)}


def breakdown(runs: int, helm_package: bool, catalog: str | None = None) -> dict[str, Any]:
    """Seconds per build step of a catalog (the built-in one by default), median of ``runs`` after a warm-up.

    Each step is one of the pipeline's own functions called on the previous one's
    result, in the order generate() calls them, so the figures add up to a build.
    Expansion is catalog_objects() minus the load it starts with, timed in the same run.
    """
    start = time.perf_counter()
    from generator import pipeline
    from generator.outputs import output_files
    from generator.outputs.context import OutputContext
    from generator.parse import parse_rendered
    from generator.render.bundles import render_bundles
    from generator.schemas import schema_problems
    from generator.validate.rules import RULES
    from generator.write import write_outputs
    imports = time.perf_counter() - start

    options = pipeline.BuildOptions(catalog=Path(catalog) if catalog else None, helm_package=helm_package)
    timings: dict[str, list[float]] = {}

    def timed(step: str, call: Callable[[], Any]) -> Any:
        begin = time.perf_counter()
        result = call()
        timings.setdefault(step, []).append(time.perf_counter() - begin)
        return result

    with tempfile.TemporaryDirectory() as tmp:
        for i in range(runs + 1):
            if i == 1:
                timings.clear()  # the first pass was the warm-up
            catalog, _preferences = timed("load", lambda: pipeline.load_all(options))
            catalog, version, objects = timed("expand", lambda: pipeline.catalog_objects(options))
            timings["expand"][-1] -= timings["load"][-1]
            rendered = timed("render", lambda: render_bundles(catalog, objects))
            bundles = rendered.bundles
            parsed = timed("parse", lambda: parse_rendered(rendered))
            documents = parsed.documents
            timed("schema", lambda: [p for doc in documents for p in schema_problems(doc)])
            ctx = pipeline.rule_context(catalog)
            for rule_id, rule in RULES.items():
                timed(f"rule {rule_id}", lambda: list(rule.check(documents, ctx)))
            files = timed("outputs", lambda: {
                **pipeline.release_files(bundles, options.release),
                **output_files(OutputContext(catalog=catalog, version=version, objects=objects,
                                             bundles=bundles, helm_package=options.helm_package,
                                             documents=documents,
                                             texts=parsed.texts))})
            timed("write", lambda: write_outputs(Path(tmp) / "out", files))
            timed("generate() whole", lambda: pipeline.generate(options))
    medians = {step: statistics.median(values) for step, values in timings.items()}
    return {"imports": imports, "steps": medians, "documents": len(documents), "runs": runs}


def worker_main(args: Sequence[str]) -> None:
    kind, *rest = args
    if kind == "synth":
        result: Any = write_synthetic_catalog(Path(rest[0]), int(rest[1]))
    elif kind == "json-dumps":
        result = {name: str(path) for name, path in write_json_dumps(Path(rest[0]), Path(rest[1])).items()}
    elif kind == "breakdown":
        result = breakdown(int(rest[0]), rest[1] == "helm", rest[2] if len(rest) > 2 else None)
    else:
        raise SystemExit(f"bench: unknown worker {kind!r}")
    print(json.dumps(result))


# --------------------------------------------------------------------------- the report


def mib(size: int) -> str:
    return f"{size / MIB:.1f} MiB"


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def table(rows: Sequence[Figures | Build]) -> str:
    """One line per case; a build also shows its floor's wall time and how many times that it takes."""
    head = (f"{'case':<48} {'objects':>8} {'wall s':>8} {'cpu s':>8} {'peak MiB':>9} {'objects/s':>10} "
            f"{'us/object':>10} {'floor s':>8} {'x floor':>8}")
    lines = [head, "-" * len(head)]
    for row in rows:
        f = row.figures if isinstance(row, Build) else row
        floor = f"{row.floor.wall:>8.3f} {row.ratio:>8.2f}" if isinstance(row, Build) else ""
        lines.append(f"{f.case:<48} {f.objects:>8} {f.wall:>8.3f} {f.cpu:>8.3f} {f.peak / MIB:>9.1f} "
                     f"{f.rate:>10.0f} {f.us_per_object:>10.1f} {floor}".rstrip())
    return "\n".join(lines)


def print_breakdown(title: str, steps: dict[str, Any], startup: Figures) -> None:
    """One line per step: milliseconds, microseconds per document, share of the build, a bar."""
    total = sum(v for k, v in steps["steps"].items() if k != "generate() whole")
    count = steps["documents"]
    print(title)
    print(f"  {'interpreter start + imports (process)':<38} {startup.wall * 1000:9.1f} ms")
    print(f"  {'  of which importing the pipeline':<38} {steps['imports'] * 1000:9.1f} ms  (first import, in the worker)")
    for step, seconds in steps["steps"].items():
        if step == "generate() whole":
            continue
        share = seconds / total * 100 if total else 0.0
        print(f"  {step:<38} {seconds * 1000:9.1f} ms {seconds / count * 1e6:7.1f} us/doc "
              f"{share:5.1f}%  {'#' * round(share / 2)}")
    print(f"  {'sum of the steps above':<38} {total * 1000:9.1f} ms {total / count * 1e6:7.1f} us/doc")
    print(f"  {'generate() in one call, for comparison':<38} {steps['steps']['generate() whole'] * 1000:9.1f} ms")
    print()


def measure_refs(tmp: Path, runs: int, warmup: bool, vms: int, json_runs: int) -> dict[str, Any]:
    """Case 4: ``citgen refs`` of a cluster dump in each format, and the dump's floor, each in a child process.

    The floors are run at most three times and without a warm-up (the refs runs have
    read the dump into the disk cache already): they take longer than citgen does. The
    dump as JSON takes a few seconds a run: ``json_runs`` of it (at most three).
    """
    dump = tmp / "cluster-dump.yaml"
    objects = write_cluster_dump(dump, vms)
    size = dump.stat().st_size
    case = "4. refs of a cluster dump"
    formats = {fmt: measure(f"{case}, {fmt}", [*citgen_command(), "refs", "--format", fmt, str(dump)],
                            tmp, min(runs, 3), lambda: objects, warmup) for fmt in REFS_FORMATS}
    floors = {name: measure(f"   floor: {label}", [sys.executable, "-c", code, str(dump)], tmp, min(runs, 3),
                            lambda: objects, warmup=False)
              for name, label, code in (("floor", "yaml.load, CSafeLoader", FLOOR),
                                        ("paused", "the same, collector paused", FLOOR_PAUSED))}
    # made by a worker: this process reading the dump would grow to 1.6 GiB, and a child forked from it
    # reports that as its own peak, exec or not (the kernel keeps the high-water mark of the mm it replaced)
    json_dumps = {name: Path(path) for name, path in worker(["json-dumps", str(dump), str(tmp)]).items()}
    as_json = {name: measure(f"{case}, as {name}", [*citgen_command(), "refs", str(path)], tmp, min(json_runs, 3),
                             lambda: objects, warmup)
               for name, path in json_dumps.items()}
    json_floor = measure("   floor: json.loads", [sys.executable, "-c", JSON_FLOOR, str(json_dumps["JSON"])], tmp,
                         min(json_runs, 3), lambda: objects, warmup=False)
    return {"vms": vms, "objects": objects, "bytes": size, "runs": min(runs, 3), "json_runs": min(json_runs, 3),
            "formats": formats, **floors,
            "json": as_json, "json_floor": json_floor,
            "json_bytes": {name: path.stat().st_size for name, path in json_dumps.items()}}


#: The floor of a JSON dump: the JSON decoder alone (its parser is C), in a process of its own.
JSON_FLOOR = "import json, sys; json.loads(open(sys.argv[1], encoding='utf-8').read())"
#: Targets of issue 40 for the dump as kubectl writes JSON (4-space indent) and minified (one line).
TARGET_JSON_FLOOR_RATIO = 3.0
TARGET_MINIFIED_RATIO = 1.5


def write_json_dumps(dump: Path, tmp: Path) -> dict[str, Path]:
    """The YAML dump as ``kubectl get -o json`` writes it (indented by 4) and minified, one line."""
    data = yaml.load(dump.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    written = {"JSON": tmp / "cluster-dump.json", "minified JSON": tmp / "cluster-dump.min.json"}
    written["JSON"].write_text(json.dumps(data, indent=4), encoding="utf-8")
    written["minified JSON"].write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
    return written


def print_refs(refs: dict[str, Any]) -> None:
    """The refs cases beside their floors: how many times the floor's time each takes, and its peak."""
    floor, paused = refs["floor"], refs["paused"]
    print(f"citgen refs of the cluster dump ({refs['vms']} VirtualMachines and as many DataSources, "
          f"{refs['bytes'] / MIB:.1f} MiB of YAML, median of {refs['runs']}) against its floor, the dump read by "
          "PyYAML's C loader alone:")
    print(f"  {'':<24} {'wall s':>8} {'cpu s':>8} {'peak MiB':>9}   {'x floor (wall, cpu)':>20}   "
          f"{'x paused floor (wall, cpu)':>27}")
    rows = [(f"refs --format {fmt}", f) for fmt, f in refs["formats"].items()]
    rows += [("floor", floor), ("floor, collector paused", paused)]
    for label, f in rows:
        print(f"  {label:<24} {f.wall:>8.3f} {f.cpu:>8.3f} {f.peak / MIB:>9.1f}   "
              f"{f.wall / floor.wall:>9.2f} {f.cpu / floor.cpu:>10.2f}   "
              f"{f.wall / paused.wall:>15.2f} {f.cpu / paused.cpu:>11.2f}")
    print()


def print_json_refs(refs: dict[str, Any]) -> None:
    """The dump as JSON, indented and minified, against the JSON decoder alone."""
    floor = refs["json_floor"]
    print(f"citgen refs of the same dump as JSON (median of {refs['json_runs']}) against json.loads of the indented "
          "one:")
    print(f"  {'':<24} {'MiB':>8} {'wall s':>8} {'cpu s':>8} {'peak MiB':>9}   {'x floor (wall, cpu)':>20}")
    for label, f in [*refs["json"].items(), ("floor: json.loads", floor)]:
        size = refs["json_bytes"].get(label, refs["json_bytes"]["JSON"]) / MIB
        print(f"  {label:<24} {size:>8.1f} {f.wall:>8.3f} {f.cpu:>8.3f} {f.peak / MIB:>9.1f}   "
              f"{f.wall / floor.wall:>9.2f} {f.cpu / floor.cpu:>10.2f}")
    indented, minified = refs["json"]["JSON"], refs["json"]["minified JSON"]
    ratio, flat = indented.wall / floor.wall, minified.wall / indented.wall
    print(f"targets (issue 40): JSON <= {TARGET_JSON_FLOOR_RATIO:g}x json.loads: x{ratio:.2f}, "
          f"{verdict(ratio <= TARGET_JSON_FLOOR_RATIO)}; peak < {TARGET_REFS_PEAK_MIB} MiB: {mib(indented.peak)}, "
          f"{verdict(indented.peak < TARGET_REFS_PEAK_MIB * MIB)}; minified <= {TARGET_MINIFIED_RATIO:g}x the "
          f"indented: x{flat:.2f}, {verdict(flat <= TARGET_MINIFIED_RATIO)}")
    print()


def print_refs_targets(refs: dict[str, Any]) -> None:
    paused = refs["paused"]
    print(f"targets (issue 33), against the faster floor (collector paused), {refs['vms']} VMs and as many "
          "DataSources:")
    for fmt, f in refs["formats"].items():
        ratio = f.wall / paused.wall
        print(f"  refs --format {fmt} <= {TARGET_REFS_FLOOR_RATIO:g}x the floor's wall time: x{ratio:.2f}, "
              f"{verdict(ratio <= TARGET_REFS_FLOOR_RATIO)}; peak < {TARGET_REFS_PEAK_MIB} MiB: {mib(f.peak)}, "
              f"{verdict(f.peak < TARGET_REFS_PEAK_MIB * MIB)}")
    if refs["vms"] != DUMP_VMS:
        print(f"  (--quick: the targets are for a dump of {DUMP_VMS} VirtualMachines, the full run's)")


def supports(option: str, cwd: Path) -> bool:
    done = subprocess.run([*citgen_command(), "build", "--help"], capture_output=True, text=True,
                          cwd=cwd, env=child_env())
    return option in done.stdout


def tree_shape(root: Path) -> tuple[int, int]:
    """Files and folders under ``root`` (hidden ones too, ``root`` itself not counted)."""
    files = folders = 0
    for _, dirs, names in os.walk(root):
        files += len(names)
        folders += len(dirs)
    return files, folders


def read_tree(out: Path, tree: Path) -> None:
    """floor.py reads the tree a build wrote into a pickle, in its own process: this one stays small."""
    done = subprocess.run([sys.executable, str(FLOOR_SCRIPT), "--read", str(out), str(tree)],
                          capture_output=True, text=True, env=child_env())
    if done.returncode != 0:
        raise SystemExit(f"bench: reading {out} for the floor failed:\n{done.stdout}{done.stderr}")


def measure_build(case: str, argv: Sequence[str], out: Path, tmp: Path, runs: int, warmup: bool) -> Build:
    """One build case as a user runs it, and its floor writing the tree that build wrote, by turns.

    The build runs first (its warm-up, or its first measured run) so that there is a
    tree to give the floor; from then on each measured build is followed by one run of
    the floor, a fresh interpreter that swaps the tree in place of its previous run's,
    as the build does in place of its own. Taken by turns, a change in the machine's
    load falls on both and leaves the ratio alone.
    """
    floor_argv = [sys.executable, str(FLOOR_SCRIPT), str(tmp / f"{out.name}.tree.pickle"),
                  str(tmp / f"{out.name}-floor")]
    builds: list[Sample] = []
    floors: list[Sample] = []
    try:
        first = run(argv, tmp)
        if not warmup:
            builds.append(first)
        read_tree(out, Path(floor_argv[2]))
        if warmup:
            run(floor_argv, tmp)
        for _ in range(runs):
            if len(builds) < runs:
                builds.append(run(argv, tmp))
            floors.append(run(floor_argv, tmp))
        files, folders = tree_shape(out)
        objects = count_documents(out / ALL_BUNDLE)
    finally:
        Path(floor_argv[2]).unlink(missing_ok=True)
        shutil.rmtree(floor_argv[3], ignore_errors=True)
    return Build(medians(case, builds, objects), medians(f"   floor of {case}", floors, objects), files, folders)


def measure_builds(tmp: Path, runs: int, warmup: bool, factors: Sequence[int], extra: list[str]) -> dict[str, Any]:
    """Cases 1 to 3 with their floors, the step breakdowns and the interpreter's start."""
    citgen = citgen_command()
    out = tmp / "out"
    build = measure_build("1. build, built-in catalog", [*citgen, "build", "--out", str(out), *extra],
                          out, tmp, runs, warmup)
    bundle = REPO / "bundles" / ALL_BUNDLE
    if not bundle.is_file():
        bundle = out / ALL_BUNDLE
    validate = measure("2. validate all-bundle", [*citgen, "validate", str(bundle)],
                       tmp, runs, lambda: count_documents(bundle), warmup)

    vendor_catalog = write_vendor_catalog(tmp / "vendor")
    vendor_out = tmp / "out-vendor"
    vendor = measure_build(f"3. build, vendor catalog, {VENDOR_OVERLAYS} overlays",
                           [*citgen, "build", "--catalog", str(vendor_catalog), "--overlay",
                            str(vendor_catalog / VENDOR_RELEASE_OVERLAY), "--out", str(vendor_out), *extra],
                           vendor_out, tmp, runs, warmup)
    shutil.rmtree(vendor_out, ignore_errors=True)

    helm = "helm" if extra else "no-helm"
    scaled: list[tuple[int, dict[str, int], Build]] = []
    scaled_steps: dict[str, Any] | None = None
    for factor in factors:
        catalog = tmp / f"catalog-{factor}x"
        shape = worker(["synth", str(catalog), str(factor)])
        scaled_out = tmp / f"out-{factor}x"
        scaled.append((factor, shape, measure_build(
            f"3. build, {factor}x catalog ({shape['instancetypes']} instancetypes)",
            [*citgen, "build", "--catalog", str(catalog), "--out", str(scaled_out), *extra],
            scaled_out, tmp, runs, warmup)))
        if factor == 100:  # where the time goes once a catalog is large
            scaled_steps = worker(["breakdown", str(min(runs, 3)), helm, str(catalog)])
        shutil.rmtree(scaled_out, ignore_errors=True)
        shutil.rmtree(catalog, ignore_errors=True)
    steps = worker(["breakdown", str(runs), helm])
    startup = measure("interpreter start + imports", [sys.executable, "-c", "import generator.cli"],
                      tmp, runs, lambda: 0, warmup)
    return {"build": build, "validate": validate, "vendor": vendor, "scaled": scaled,
            "scaled_steps": scaled_steps, "steps": steps, "startup": startup}


def build_cases(builds: dict[str, Any]) -> list[Build]:
    """Every build case in the order they are printed: the real catalogs, then the synthetic ones."""
    return [builds["build"], builds["vendor"], *(b for _, _, b in builds["scaled"])]


def print_floors(builds: dict[str, Any]) -> None:
    """Each build beside its floor: wall and CPU time as many times the floor's, and the tree written."""
    print("each build against its floor (benchmarks/floor.py, no citgen code: Python started, yaml, jinja2 and "
          "click imported,\nthe same files with the same bytes written from memory beside the output and "
          "swapped in place of the old tree):")
    print(f"  {'case':<48} {'files':>6} {'folders':>7} {'citgen s':>9} {'floor s':>8} {'x floor':>8}   "
          f"{'cpu s':>6} {'floor cpu':>9} {'x floor':>8}   {'floor MiB':>9}")
    for b in build_cases(builds):
        f, floor = b.figures, b.floor
        print(f"  {f.case:<48} {b.files:>6} {b.folders:>7} {f.wall:>9.3f} {floor.wall:>8.3f} {b.ratio:>8.2f}   "
              f"{f.cpu:>6.3f} {floor.cpu:>9.3f} {b.cpu_ratio:>8.2f}   {floor.peak / MIB:>9.1f}")
    print()


def summary(builds: dict[str, Any]) -> str:
    """One line of every build's wall time, its floor's and their ratios: the figures to compare across commits.

    The CPU ratio is given too: on a shared machine wall time grows with the load and CPU time does not.
    """
    def name(b: Build) -> str:
        return b.figures.case.split(", ", 1)[1].split(" (")[0].replace(" catalog", "")

    parts = [f"{name(b)} {b.figures.wall:.3f} s / {b.floor.wall:.3f} s = x{b.ratio:.2f} (cpu x{b.cpu_ratio:.2f})"
             for b in build_cases(builds)]
    return "summary, citgen build / floor (wall, and cpu in brackets): " + "; ".join(parts)


def print_builds(builds: dict[str, Any], refs: dict[str, Any] | None, quick: bool) -> None:
    """The table of every case, each build against its floor, growth, the breakdowns and issue 7's targets."""
    build, validate, scaled = builds["build"], builds["validate"], builds["scaled"]
    steps, scaled_steps, startup = builds["steps"], builds["scaled_steps"], builds["startup"]
    refs_rows = list(refs["formats"].values()) if refs else []
    print(table([build, validate, builds["vendor"], *(b for _, _, b in scaled), *refs_rows]))
    print()
    print_floors(builds)
    print(f"vendor catalog: extends the built-in one through its {VENDOR_CATALOG_OVERLAY} (vendor label, GPUs, "
          f"a series and a preference of its own, series, preferences and sizes dropped) and "
          f"`--overlay {VENDOR_RELEASE_OVERLAY}` (release version, deprecations)")
    print(f"synthetic catalogs: copies of the built-in series over one {scaled[0][1]['sizes']}-size matrix, "
          f"with the built-in preferences ({scaled[0][1]['base_instancetypes']} instancetypes = 1x)")
    print()
    print("growth with catalog size (per object: wall time, CPU time, peak memory, and the floor's wall time):")
    previous: Figures | None = None
    for factor, shape, b in scaled:
        f = b.figures
        line = (f"  {factor:>5}x {f.objects:>7} objects  {f.us_per_object:8.1f} us  "
                f"{f.cpu / f.objects * 1e6:8.1f} us cpu  {f.peak / f.objects / 1024:7.2f} KiB  "
                f"floor {b.floor.us_per_object:6.1f} us")
        if previous is not None:
            cost = f.us_per_object / previous.us_per_object
            marginal = (f.wall - previous.wall) / (f.objects - previous.objects) * 1e6
            line += f"   x{cost:.2f} the per-object cost of the step before; marginal {marginal:.1f} us/object"
        print(line)
        previous = f
    print()

    print_breakdown(f"where the time of case 1 goes (in-process, {steps['documents']} documents, "
                    f"median of {steps['runs']}):", steps, startup)
    if scaled_steps is not None:
        print_breakdown(f"where the time of the 100x build goes ({scaled_steps['documents']} documents, "
                        f"median of {scaled_steps['runs']}):", scaled_steps, startup)

    print("targets (issue 7):")
    f = build.figures
    print(f"  case 1 wall < {TARGET_WALL_S} s: {f.wall:.3f} s, {verdict(f.wall < TARGET_WALL_S)}")
    print(f"  case 1 peak < {TARGET_PEAK_MIB} MiB: {mib(f.peak)}, {verdict(f.peak < TARGET_PEAK_MIB * MIB)}")
    by_factor = {factor: b.figures for factor, _, b in scaled}
    if 100 in by_factor:
        rate = by_factor[100].rate
        print(f"  100x >= {TARGET_RATE_100X} objects/s: {rate:.0f}/s, {verdict(rate >= TARGET_RATE_100X)}")
    if quick:
        print("  (--quick: the 100x target needs the full run)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="one run per case, no warm-up, the 10x synthetic catalog but not the 100x one, and a dump of "
                             f"{DUMP_VMS_QUICK} VMs (a smoke test)")
    parser.add_argument("--refs", action="store_true", help="only case 4, citgen refs of a cluster dump")
    parser.add_argument("--growth", action="store_true",
                        help="only the growth checks: did-you-mean and chains of replacements at 1x and 10x")
    parser.add_argument("--runs", type=int, default=None,
                        help="measured runs per case (default 5, --quick 1; case 4: at most 3, and in a full "
                             "run without --runs 1 of the YAML dump and 3 of the JSON ones)")
    parser.add_argument("--json", type=Path, default=None, metavar="FILE", help="also save the figures as JSON")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker_main(args.worker)
        return 0
    runs = args.runs or (1 if args.quick else 5)
    if runs < 1:
        parser.error("--runs must be at least 1")
    factors = FACTORS[:1] if args.quick else FACTORS
    warmup = not args.quick  # a smoke test checks that every case runs, not how steady its figures are

    if args.growth:
        with tempfile.TemporaryDirectory(prefix="citgen-bench-") as tmp_name:
            print(f"citgen benchmark: Python {sys.version.split()[0]} on {os.cpu_count()} cores, growth checks only")
            print()
            print_growth(measure_growth(Path(tmp_name), runs, warmup, args.quick))
        return 0

    with tempfile.TemporaryDirectory(prefix="citgen-bench-") as tmp_name:
        tmp = Path(tmp_name)
        extra = ["--helm-package"] if supports("--helm-package", tmp) else []
        before = "after a warm-up" if warmup else "with no warm-up"
        print(f"citgen benchmark: Python {sys.version.split()[0]} on {os.cpu_count()} cores, "
              f"{runs} run{'s' if runs != 1 else ''} per case {before} (medians)")
        if not args.refs:
            print(f"build options: --out DIR {' '.join(extra)}".rstrip())
        print()
        builds = None if args.refs else measure_builds(tmp, runs, warmup, factors, extra)
        # The full dump takes about ten seconds a run and its unpaused floor thirty: `make bench` reads it
        # once after the warm-up, to stay within a few minutes; --refs or --runs asks for more. As JSON it
        # takes three seconds, and one run of it read 2.4x to 3.0x its floor as the machine went: three.
        refs_runs = runs if args.refs or args.runs else 1
        refs = measure_refs(tmp, refs_runs, warmup, DUMP_VMS_QUICK if args.quick else DUMP_VMS,
                            runs if args.refs or args.runs or args.quick else 3)
        # the growth checks take a minute on their own: --growth runs them, and so does a full run
        growth = None if args.refs or args.quick else measure_growth(tmp, refs_runs, warmup, args.quick)

    if builds is not None:
        print_builds(builds, refs, args.quick)
    else:
        print(table(list(refs["formats"].values())))
    print()
    print_refs(refs)
    print_refs_targets(refs)
    print()
    print_json_refs(refs)
    if growth is not None:
        print()
        print_growth(growth)
    if builds is not None:
        print()
        print(summary(builds))

    if args.json:
        report: dict[str, Any] = {
            "python": sys.version.split()[0], "cores": os.cpu_count(), "runs": runs, "quick": args.quick,
            "growth": [{"check": check, "1x": one.as_json(), f"{GROWTH_FACTOR}x": ten.as_json()}
                       for check, one, ten in growth or ()],
            "refs": {**{key: refs[key] for key in ("vms", "objects", "bytes", "runs", "json_runs")},
                     "formats": {fmt: f.as_json() for fmt, f in refs["formats"].items()},
                     "floor": refs["floor"].as_json(), "floor_paused": refs["paused"].as_json(),
                     "json": {name: f.as_json() for name, f in refs["json"].items()},
                     "json_floor": refs["json_floor"].as_json()},
        }
        if builds is not None:
            build, validate, scaled = builds["build"], builds["validate"], builds["scaled"]
            report.update({
                "build_options": extra,
                "cases": {"build": build.as_json(), "validate": validate.as_json(),
                          "vendor": {"overlays": VENDOR_OVERLAYS, **builds["vendor"].as_json()},
                          "scaled": [{"factor": factor, **shape, **b.as_json()} for factor, shape, b in scaled]},
                "startup": builds["startup"].as_json(),
                "breakdown": builds["steps"],
                "breakdown_100x": builds["scaled_steps"],
            })
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
