"""``citgen osinfo SHORT-ID... | --all``: which preference the catalog offers for a guest's OS, and why.

A guest is named by its libosinfo short-id (what virt-v2v reports: ``rhel9.2``,
``win2k19``). The answer comes from the catalog's osinfo claims and libosinfo's
database (tools/osinfo/offer.py); ``--all`` answers for every OS of the database the
catalog covers, and ``--table`` writes that map as a migration tool's guest-OS table
(tools/osinfo/osmap.py) instead of keeping one by hand.

Exit status: 0 every short-id is covered (or the map was made); 1 a short-id the
catalog does not cover (a finding, rule ``uncovered-os``); 2 no database found, an
option or catalog that cannot be used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator
import click

from ..errors import InputError
from ..objectmeta import namespace_problem
from ..problems import Location, Problem
from ..result import Result
from .options import PathParam, catalog_option, command

#: The architectures a guest may be of, as KubeVirt names them.
ARCHES = ("amd64", "arm64", "s390x")


def _usage(short_ids: tuple[str, ...], every: bool, table: str | None, namespace: str | None) -> Iterator[Problem]:
    """What the options say that cannot be done together, each at its option."""
    if every and short_ids:
        yield Problem(Location("--all"), "answers for every OS of the database; give short-ids or --all, not both")
    if not every and not short_ids:
        yield Problem(Location("citgen"), "name the short-ids to look up (such as rhel9.2 or win2k19), or give --all")
    for option, given in (("--table", table), ("--namespace", namespace)):
        if given is not None and not every:
            yield Problem(Location(option), "writes the map of every OS; give --all too")
    if namespace is not None and table is None and every:
        yield Problem(Location("--namespace"), "is the namespace of the table's ConfigMap; give --table too")
    if namespace is not None and (wrong := namespace_problem(namespace)) is not None:
        yield Problem(Location("--namespace"), f"{wrong}: the API server refuses the ConfigMap in it")


@command("osinfo", closing="citgen: {problems}")
@click.argument("short_ids", nargs=-1, metavar="[SHORT-ID]...")
@catalog_option
@click.option("--osinfo-db", "osinfo_db", type=PathParam(file_okay=False, path_type=Path), default=None,
              metavar="DIR", help="libosinfo's database folder (default: as libosinfo finds it: OSINFO_SYSTEM_DIR, "
                                  "/usr/share/osinfo, /etc/osinfo, ~/.config/osinfo).")
@click.option("--all", "every", is_flag=True,
              help="Answer for every OS of the database the catalog covers, instead of the short-ids given.")
@click.option("--table", type=click.Choice(["osinfo", "vsphere", "ovirt"]), default=None,
              help="With --all: write the map as a migration tool's guest-OS table, a ConfigMap whose data maps "
                   "OS ids to preference names: Forklift's forklift-vsphere-osmap (vSphere guest ids) or "
                   "forklift-ovirt-osmap (oVirt OS types), or osinfo-osmap keyed by libosinfo short-ids.")
@click.option("--namespace", default=None, help="With --table: the ConfigMap's namespace (default: none written).")
@click.option("--arch", type=click.Choice(ARCHES), default="amd64", show_default=True,
              help="The guest's architecture: a preference for another one is not offered.")
@click.option("--virtio/--no-virtio", "virtio", default=None,
              help="Offer the preference with virtio devices where the OS has one with and one without (default: "
                   "with, as virt-v2v installs the drivers; without for --table vsphere, as Forklift's vSphere table "
                   "has it).")
def osinfo(short_ids: tuple[str, ...], catalog: Path | None, osinfo_db: Path | None, every: bool, table: str | None,
           namespace: str | None, arch: str, virtio: bool | None) -> Result:
    """Say which preference the catalog offers for each libosinfo SHORT-ID, and why.

    The reason is the surest that holds: the preference names the release itself
    (release), the release belongs to the line of releases a preference stands for
    (line: its claim lists it, or the database relates it, or its short-id does),
    the preference stands for the whole distribution (distro), or it claims
    libosinfo's generic OS of the release's family (family). Other preferences
    making the same claim (desktop, DPDK, virtio variants) are listed beside it.

    With --all the answer is given for every OS of the database the catalog covers;
    --table writes it as a guest-OS table (docs/osinfo.md), which `citgen refs
    --names 'preference=ConfigMap/forklift-*-osmap:data.*'` checks.

    The database is needed: --osinfo-db DIR, else where libosinfo looks. Exit
    status: 0 all covered, 1 a short-id the catalog does not cover, 2 no database,
    or an unusable option or catalog.
    """
    from ..osinfo.database import read_database
    from ..osinfo.discovery import find_database
    from ..pipeline import BuildOptions
    from ..tools.osinfo import candidates, catalog_preferences, where_looked

    problems = list(_usage(short_ids, every, table, namespace))
    options = BuildOptions(catalog=catalog)
    try:  # every unusable input named at once: the usage, the catalog, the database's folder
        version, objects = catalog_preferences(options)
    except InputError as exc:
        problems += exc.problems
    try:
        folder = find_database(osinfo_db)
    except InputError as exc:
        problems += exc.problems
    if problems:
        raise InputError(problems)
    if folder is None:
        raise InputError.at(Location("--osinfo-db"), "no libosinfo database found, and this command cannot answer "
                            f"without one; looked in {where_looked()}; install osinfo-db (Debian, Fedora: the "
                            "package osinfo-db) or name its folder with --osinfo-db")
    db, problems = read_database(folder)
    if problems:
        raise InputError(problems)
    offered = candidates(objects, db)
    from ..tools.osinfo.show import all_result, lookup_result, table_result

    named = f"{options.named(version)} with osinfo-db {db.version} ({db.path})"
    record = {"catalog": options.record(version), "osinfo": {"path": str(db.path), "version": db.version}}
    if table is not None:
        return table_result(table, db, offered, arch=arch, virtio=virtio, namespace=namespace, named=named,
                            record=record)
    if every:
        return all_result(db, offered, arch=arch, virtio=True if virtio is None else virtio, named=named,
                          record=record)
    return lookup_result(short_ids, db, offered, arch=arch, virtio=True if virtio is None else virtio,
                         named=named, record=record)

