"""The checks of the ``osinfo`` rule by name: what catalog data may accept a difference under.

A module of its own, and nothing else in it: the catalog's format (source/formats/preferences.py)
names them, and loading a catalog need not import the database's model to know them.
"""

from __future__ import annotations

from typing import Mapping

#: The checks of the ``osinfo`` rule, by the name catalog data accepts a difference under
#: (``osinfo: {accept: {rec-memory: REASON}}``), each with what it finds.
CHECKS: Mapping[str, str] = {
    "min-cpu": "fewer vCPUs required than the OS's minimum",
    "min-memory": "less memory required than the OS's minimum",
    "rec-cpu": "fewer vCPUs required than the OS recommends",
    "rec-memory": "less memory required than the OS recommends",
    "efi": "UEFI preferred for an OS that does not boot with it",
    "secure-boot": "Secure Boot preferred for an OS that does not boot with it",
    "bios": "BIOS preferred for an OS that boots only with UEFI",
    "virtio-disk": "virtio disks preferred for an OS without their driver",
    "virtio-net": "virtio network preferred for an OS without its driver",
    "virtio-rng": "a virtio RNG preferred for an OS without its driver",
    "virtio-input": "virtio input preferred for an OS without its driver",
    "virtio-gpu": "virtio video preferred for an OS without its driver",
    "virtio-scsi": "SCSI disks (virtio-scsi) preferred for an OS without its driver",
}
