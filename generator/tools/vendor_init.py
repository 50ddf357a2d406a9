"""`citgen init`: start a vendor catalog that holds only what differs from the built-in one.

The directory it writes extends the built-in catalog, so every upstream change
reaches the vendor with the next citgen release instead of as a merge conflict
in a fork. The overlay starts empty: every key it may hold is there, commented
out, with a line on what it does. Lines starting with ``# `` are YAML a vendor
can uncomment; lines starting with ``##`` are the explanations.

It writes a catalog whole or not at all: the files are written into a
temporary directory first and moved into place together, so a full disk, a
read-only or unwritable location or an interrupted run leaves nothing a later
``citgen build`` would take for a catalog.
"""

from __future__ import annotations

import fnmatch
import os
import shutil
import stat
import tempfile
from pathlib import Path

from ..errors import InputError
from ..objectmeta import label_value_problem
from ..problems import Location
from ..source.inputfiles import file_kind, lookup
from ..write import record, umasked

OVERLAY_FILE = "overlay.yaml"

CATALOG_TEMPLATE = """\
# A vendor catalog: KubeVirt's built-in catalog plus the changes in {overlay}.
# Build it with `citgen build` run in this directory (citgen finds the catalog from the
# working directory up), or `citgen build --catalog <this directory>`; see docs/vendor-guide.md.
extends: builtin

# The vendor label stamped on every object (instancetype.kubevirt.io/vendor).
vendor: {vendor}

# The version stamped on every object; `citgen build --release vX.Y.Z` overrides it.
version: v0.1.0-dev

# Overlay files, applied in order to the built-in catalog (paths relative to here).
overlays:
  - {overlay}

# A templates/ directory here, if you add one, is searched before the built-in
# templates: copy a template there to change how objects are rendered.
"""

OVERLAY_TEMPLATE = """\
## An overlay changes the catalog without copying it. Uncomment what you need
## (lines starting with a single '#'); everything left commented out stays as
## the built-in catalog has it. Within one overlay, removals apply first, then
## additions, then changes. `citgen build` reports any mistake with its line.

## --- Settings -----------------------------------------------------------
## The vendor label and version (catalog.yaml can set these too).
# vendor: example.com
# version: v0.1.0-dev
## Labels and annotations stamped on every object. Keys under
## instancetype.kubevirt.io/ belong to the catalog and are refused.
# labels:
#   example.com/catalog: vendor
# annotations:
#   example.com/support: https://example.com/support
## The GPU device and count of the GN series, which is built only when a
## device is set: an NVIDIA extended resource, nvidia.com/<model>.
# parameters:
#   gpu:
#     deviceName: nvidia.com/L40S
#     count: 2
## Who provides the preferences (their openshift.io/ annotations).
# provider:
#   displayName: Example Cloud
#   documentationURL: https://example.com/docs
#   supportURL: https://example.com/support
## How older KubeVirt releases spelt a setting, for `citgen build --kubevirt`
## (docs/catalog-format.md): one for a field replaces the built-in catalog's.
# spellings:
#   - field: spec.firmware.preferredEfi
#     as:
#       spec.firmware.preferredUseEfi: {value: true}
#       spec.firmware.preferredUseSecureBoot: {from: secureBoot}

## --- Size matrices ------------------------------------------------------
## A new size matrix: size name -> vCPUs, or {cpu, memory} for a fixed memory.
# matrices:
#   add:
#     large-only:
#       large: 8
#       xlarge: 16
#       2xlarge: 32

## --- Series -------------------------------------------------------------
# series:
##  Drop series (by name, cx1, or prefix, cx), or keep only a listed set.
#   drop: [rt]
##  keep: [u, o, cx]
##  A series of your own, keyed by its prefix, written like series/*.yaml.
#   add:
#     hm:
#       version: 1
#       class: memory.high
#       displayName: High Memory
#       description: Sixteen GiB of memory for every vCPU, for large in-memory data sets.
#       icon: fa-memory
#       ratio: "1:16"
#       matrix: large-only
##  Change a series: sizes, ratio, matrix, variants (replaced as a whole),
##  features (merged; null removes one), spec (merged; null removes a key),
##  class, displayName, description, icon, version, deprecated (true, or the
##  release and the series replacing it), deprecatedSizes (size by size).
#   change:
#     cx:
#       features: {hugepages: 1Gi}
#       variants: {}
#     o:
#       features: {overcommitPercent: 25}
#       sizes: {from: small, to: 4xlarge}
#       deprecated: {since: v1.1.0, replacement: u1}

## --- Sizes across every series ------------------------------------------
# sizes:
#   drop: [8xlarge]
##  keep: [nano, micro, small, medium]

## --- Traits and preferences ---------------------------------------------
## New traits: reusable preference spec fragments, as preferences/traits/*.yaml.
# traits:
#   add:
#     vnc-display:
#       description: Attach a graphics device for a VNC console.
#       spec:
#         devices:
#           preferredAutoattachGraphicsDevice: true
##      essential: true  # its fields are what its users are for: no build without them
# preferences:
##  Drop preferences, or keep only a listed set; names may be glob patterns.
#   drop: ["windows.xp", "windows.2k3"]
##  keep: [fedora, "rhel.*", "ubuntu*"]
##  New preferences composed from traits. family: defaults to the family of
##  basedOn, then to the first part of the name (a new family if unknown).
#   add:
#     fedora.desktop:
#       basedOn: fedora
#       displayName: Fedora Desktop
#       description: Fedora on amd64 with a VNC console.
#       traits: [vnc-display]
##  Patch one preference: any key of a preference; spec and overrideSpec are
##  merged, traits replaced, addTraits appended.
#   change:
#     ubuntu:
#       displayName: Ubuntu (supported by Example Cloud)
#       requirements: {memory: 2Gi}

## --- Retired names ------------------------------------------------------
## Names your earlier releases shipped that this one no longer defines: the
## release that retired each, and what to use instead (citgen refs says so).
# retired:
#   instancetypes:
#     hm1.small: {since: v1.1.0, replacement: m1.large}
"""


def init_catalog(target: Path, vendor: str = "example.com") -> list[Path]:
    """Write a new vendor catalog into ``target``; the files written, or InputError.

    A directory that already holds anything but what a new repository starts with
    (``.git``, a README, a licence, .gitignore) is refused: init never overwrites.
    The parent directory must exist: a mistyped path is reported, not created.
    """
    target = Path(target)
    problem = label_value_problem(vendor)
    if problem or not vendor:
        raise InputError.at(Location("--vendor"), f"expected a vendor such as example.com: "
                            f"{problem or 'got an empty string'}")
    found = lookup(target)  # a link to nothing or in a loop, a folder that cannot be entered: refused
    if found is not None and not stat.S_ISDIR(found.st_mode):
        raise InputError.at(Location(str(target)), f"exists and is {file_kind(found.st_mode)}, not a directory")
    files = {
        OVERLAY_FILE: OVERLAY_TEMPLATE,
        "catalog.yaml": CATALOG_TEMPLATE.format(vendor=vendor, overlay=OVERLAY_FILE),  # last: it makes a catalog
    }
    try:
        if _check_target(target, found is not None):
            return _write_into(target, files)
        return _write_new(target, files)
    except OSError as exc:
        raise InputError.at(Location(str(target)), f"cannot create the catalog: {exc.strerror or exc}; "
                            "nothing was written") from None


#: What a new repository starts with (``git init``, a hosting service's first commit): a directory
#: holding nothing else counts as empty, so `citgen init .` works in a repository just made.
NEW_REPOSITORY = (".git", ".gitignore", ".gitattributes", "README", "README.*", "LICENSE", "LICENSE.*",
                  "COPYING", "COPYING.*")


def _started(name: str) -> bool:
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in NEW_REPOSITORY)


def _check_target(target: Path, there: bool) -> bool:
    """Whether ``target``, a directory if ``there``, is an empty one to write into (False: one to create).

    A directory holding only what a new repository starts with (NEW_REPOSITORY) is empty
    for this purpose: none of it is a name init writes.
    """
    if there:
        if any(not _started(entry.name) for entry in target.iterdir()):
            raise InputError.at(Location(str(target)), "refusing to initialise a directory that is not empty; "
                                "choose a new or empty directory")
        return True
    # nothing at target: its parent is a folder or absent (lookup refused a file or a broken link on the way)
    if lookup(target.parent) is None:
        raise InputError.at(Location(str(target)), f"cannot create the catalog: {target.parent} does not exist; "
                            "create it first")
    return False


def _write_staged(staging: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (staging / name).write_bytes(text.encode())


def _write_new(target: Path, files: dict[str, str]) -> list[Path]:
    """Write the files into a directory beside ``target`` and rename it to ``target`` at once."""
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.citgen-init-", dir=target.parent))
    try:
        _write_staged(staging, files)
        os.chmod(staging, umasked())  # mkdtemp made it 0o700: the mode a new folder gets under the umask
        os.rename(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    record(target)
    return [target / name for name in sorted(files)]


def _write_into(target: Path, files: dict[str, str]) -> list[Path]:
    """Fill the empty directory ``target``: write into a hidden directory in it, then move each file
    out, catalog.yaml last; anything moved is taken back if a later step fails."""
    staging = Path(tempfile.mkdtemp(prefix=".citgen-init-", dir=target))
    moved: list[Path] = []
    try:
        _write_staged(staging, files)
        for name in files:
            os.rename(staging / name, target / name)
            moved.append(target / name)
        staging.rmdir()
    except BaseException:
        for path in moved:
            path.unlink(missing_ok=True)
        shutil.rmtree(staging, ignore_errors=True)
        raise
    for path in moved:  # all of them in place: the catalog is complete
        record(path)
    return sorted(moved)
