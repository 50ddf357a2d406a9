"""generator/tools/refs/stream.py: a cluster dump is read one object at a time, in little memory.

``kubectl get vm,datasource -A -o yaml`` writes one List document holding every
object. Read whole by the located reader, every key path of every object is held at
once; the scan reads the List item by item and keeps only the references. Each run is
a process of its own, so that its peak memory is its own: the scan of a dump of 2,000
VirtualMachines and 2,000 DataSources (4.6 MB) must grow the process by less than 40
MiB, and by less than a quarter of what reading the same dump whole takes.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import REPO

pytestmark = pytest.mark.heavy(5)  # seconds of a worker's time: run early (conftest.py)

VM = """\
- apiVersion: kubevirt.io/v1
  kind: VirtualMachine
  metadata:
    annotations: {{kubevirt.io/latest-observed-api-version: v1}}
    name: vm-{i}
    namespace: ns-{ns}
    uid: 0000-{i}
  spec:
    dataVolumeTemplates:
    - metadata: {{name: vm-{i}-root}}
      spec:
        sourceRef: {{kind: DataSource, name: fedora, namespace: os-images}}
        storage: {{resources: {{requests: {{storage: 30Gi}}}}}}
    instancetype: {{kind: virtualmachineclusterinstancetype, name: u1.medium, revisionName: vm-{i}-u1-1}}
    preference: {{kind: virtualmachineclusterpreference, name: fedora, revisionName: vm-{i}-fedora-1}}
    runStrategy: Always
    template:
      metadata:
        labels: {{kubevirt.io/domain: vm-{i}}}
      spec:
        domain:
          devices:
            disks:
            - disk: {{bus: virtio}}
              name: rootdisk
            interfaces:
            - masquerade: {{}}
              name: default
          machine: {{type: pc-q35-rhel9.4.0}}
        networks:
        - name: default
          pod: {{}}
        volumes:
        - dataVolume: {{name: vm-{i}-root}}
          name: rootdisk
  status:
    conditions:
    - {{lastProbeTime: null, lastTransitionTime: "2026-01-01T00:00:00Z", status: "True", type: Ready}}
    printableStatus: Running
    ready: true
"""
DATA_SOURCE = """\
- apiVersion: cdi.kubevirt.io/v1beta1
  kind: DataSource
  metadata:
    labels:
      instancetype.kubevirt.io/default-instancetype: u1.medium
      instancetype.kubevirt.io/default-preference: fedora
    name: ds-{i}
    namespace: ns-{ns}
  spec:
    source:
      pvc: {{name: fedora-{i}, namespace: ns-{ns}}}
"""

PEAK = """
import resource, sys
from generator.source.inputfiles import read_text
from generator.source.yamlsrc import iter_documents
from generator.tools.refs.scan import scan
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
if sys.argv[2] == "scan":
    found = len(scan([sys.argv[1]]).references)
else:
    found = sum(1 for document in iter_documents(read_text(sys.argv[1]), sys.argv[1]))
print(found, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
"""


def dump(path: Path, count: int) -> Path:
    """A List as kubectl writes it: ``count`` VirtualMachines and as many DataSources."""
    with path.open("w") as out:
        out.write("apiVersion: v1\nitems:\n")
        out.writelines(VM.format(i=i, ns=i % 50) for i in range(count))
        out.writelines(DATA_SOURCE.format(i=i, ns=i % 50) for i in range(count))
        out.write('kind: List\nmetadata:\n  resourceVersion: ""\n')
    return path


def grown(path: Path, how: str) -> tuple[int, int]:
    """What a process found in ``path`` read ``how``, and how many KiB its peak memory grew meanwhile."""
    done = subprocess.run([sys.executable, "-c", PEAK, str(path), how], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    found, kib = done.stdout.split()
    return int(found), int(kib)


def test_a_cluster_dump_is_scanned_in_a_fraction_of_the_memory_reading_it_whole_takes(tmp_path):
    path = dump(tmp_path / "dump.yaml", 2000)
    references, scanning = grown(path, "scan")
    documents, whole = grown(path, "whole")
    assert (references, documents) == (8000, 1)
    assert scanning < 40 * 1024, f"the scan grew the process by {scanning} KiB"
    assert scanning * 4 < whole, f"the scan grew the process by {scanning} KiB, reading it whole by {whole} KiB"
