"""What ``citgen refs`` finds in manifests and judges: references to catalog objects, and objects defined beside them.

The scan (scan.py, forms.py) turns manifests into these values; the judge (judge.py)
sets them against the objects a cluster will have. Neither knows the other's inside:
this module is the whole of what passes between them.
"""

from __future__ import annotations

from typing import Callable, Literal

from ...frozen import frozen
from ...problems import Location, Problem

#: The two families of catalog objects a manifest can name.
Family = Literal["instancetype", "preference"]


@frozen
class Owner:
    """The object a reference is written in: what a finding names beside the file and line.

    ``key`` tells apart the objects of one scan (file, document and, inside a
    wrapper, the path of the object within it), so that a VirtualMachine's
    instancetype and preference are judged together (the ``requirements`` rule).
    """

    key: str
    kind: str
    name: str | None
    namespace: str | None


@frozen
class Reference:
    """One place a manifest names a catalog object.

    ``name`` is the name as KubeVirt will read it (a template parameter already
    replaced by its default), or None when it cannot be known offline: then
    ``unchecked`` says why (``parameter INSTANCETYPE has no default``) and the
    reference is counted, never reported as unknown. ``kind`` is the kind as
    written, None where the manifest leaves it out (KubeVirt then takes the
    cluster kind). ``via`` names the form it was found in (``spec.instancetype``,
    ``label instancetype.kubevirt.io/default-preference``, ``place cozystack``).
    ``location`` points at the value itself: file, line, column, document, path.
    ``where`` is that place, or how to find it (source.stream's Unit.locator): a
    cluster dump names tens of thousands of objects, and only those a finding is
    about need their line and column.
    """

    family: Family
    name: str | None
    kind: str | None
    owner: Owner
    where: Location | Callable[[], Location]
    via: str
    unchecked: str | None = None
    parameter: str | None = None

    @property
    def location(self) -> Location:
        """Where the value is written, found the first time it is asked for."""
        where = self.where
        if isinstance(where, Location):
            return where
        located = where()
        object.__setattr__(self, "where", located)  # found once: the same place every later time
        return located


@frozen
class Definition:
    """A catalog object defined in the scanned manifests themselves (a VirtualMachineInstancetype beside its VM).

    ``namespace`` is None for the cluster kinds, and for a namespaced object that
    names none (it lands in whatever namespace it is applied to, as its VMs do).
    ``served`` is False for an object of the catalog's API group whose kind the API
    server does not serve (``VirtualMachineClusterInstanceType``, capital T): ``kind``
    is then as written, ``family`` the family of the kind it meant; it defines
    nothing, and a reference to its name says where it is.
    """

    family: Family
    kind: str
    name: str
    namespace: str | None
    location: Location
    served: bool = True


@frozen
class Scan:
    """Everything read from the manifests: references, definitions, and what was skipped or unusable."""

    references: tuple[Reference, ...]
    definitions: tuple[Definition, ...]
    files: int
    skipped: tuple[str, ...]
    problems: tuple[Problem, ...]
    #: What the reader says of what it read (a kustomization read as plain files).
    notes: tuple[str, ...] = ()
    #: The files read, as the command line and the folders walked name them.
    read: tuple[str, ...] = ()
