"""Reading libosinfo's database as hostile input, once discovery.py has found it.

The database is a folder (osinfo-db: /usr/share/osinfo on most systems) of XML
files, one or more per OS release under ``os/<vendor>/``, with fragments of a
release in ``<name>.d/`` beside its file. citgen reads only ``os/`` and
``VERSION``, through the one reader of inputs (source/inputfiles.py: regular
files only, bounded in size, no link out of the folder, every folder listed
whole) and an XML parser that refuses what XML can do beyond data: defusedxml,
with entity declarations (a "billion laughs" file) and external references (a
file or URL the XML names) refused, never expanded or fetched. A file that
cannot be used is a located problem at its path and the rest is read.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from defusedxml import DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden
from defusedxml.ElementTree import XMLParser

from ..errors import InputError
from ..problems import Location, Problem, excerpt
from ..source import inputfiles
from .discovery import find_database
from .model import ALL_ARCHES, Firmware, OsinfoDatabase, OsRelease, Resources

#: The most digits a number of the database may have (a byte count of 2**64 has 20).
MAX_DIGITS = 40
_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


# --------------------------------------------------------------------------- one XML file


@dataclass
class _Node:
    tag: str
    attrib: dict[str, str]
    line: int
    column: int
    children: list["_Node"] = field(default_factory=list)
    text: str = ""

    def first(self, tag: str) -> "_Node | None":
        return next((c for c in self.children if c.tag == tag), None)

    def all(self, tag: str) -> list["_Node"]:
        return [c for c in self.children if c.tag == tag]

    def plain(self, tag: str) -> str | None:
        """The text of the first ``tag`` child not in another language (``<name>``, not ``<name xml:lang>``)."""
        found = next((c for c in self.children if c.tag == tag and _LANG not in c.attrib), None)
        return found.text.strip() if found is not None else None


class _Builder:
    """An ElementTree target that keeps each element's line and column, as the parser reports them."""

    def __init__(self) -> None:
        self.parser: XMLParser | None = None
        self.stack: list[_Node] = []
        self.root: _Node | None = None

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        expat = self.parser.parser  # type: ignore[union-attr]
        node = _Node(tag, dict(attrib), expat.CurrentLineNumber, expat.CurrentColumnNumber + 1)
        if self.stack:
            self.stack[-1].children.append(node)
        else:
            self.root = node
        self.stack.append(node)

    def end(self, tag: str) -> None:
        self.stack.pop()

    def data(self, text: str) -> None:
        if self.stack:
            self.stack[-1].text += text

    def close(self) -> _Node | None:
        return self.root


def parse_xml(data: bytes, name: str) -> _Node:
    """The elements of one XML file with their lines; InputError at the file's line for anything but data.

    No entity is declared or expanded, no document type or entity outside the
    file is read: defusedxml refuses each as the parser meets it.
    """
    builder = _Builder()
    parser = XMLParser(target=builder, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    builder.parser = parser

    def here() -> Location:
        return Location(name, parser.parser.CurrentLineNumber)  # expat is at the declaration's end: its line

    try:
        parser.feed(data)
        root = parser.close()
    except EntitiesForbidden as exc:
        if exc.sysid is not None or exc.pubid is not None:
            raise InputError.at(here(), f"declares the external entity {excerpt(str(exc.name))!r} "
                                f"(SYSTEM {excerpt(str(exc.sysid))!r}); citgen reads no file or URL an XML file "
                                "names, and osinfo's database declares no entity") from None
        raise InputError.at(here(), f"declares the entity {excerpt(str(exc.name))!r}; citgen expands no XML "
                            "entity (a 'billion laughs' file multiplies itself through them), and osinfo's database "
                            "declares none") from None
    except ExternalReferenceForbidden as exc:
        raise InputError.at(here(), f"refers to the external resource {excerpt(str(exc.sysid))!r}; citgen reads no "
                            "file or URL an XML file names") from None
    except DTDForbidden:  # not asked for; kept should defusedxml's defaults change
        raise InputError.at(here(), "holds a document type declaration, which osinfo's database has none of") \
            from None
    except ElementTree.ParseError as exc:
        line, column = exc.position
        reason = str(exc).split(": line")[0]
        raise InputError.at(Location(name, line, column + 1), f"malformed XML: {reason}") from None
    if root is None:
        raise InputError.at(Location(name), "malformed XML: no element")
    return root


# --------------------------------------------------------------------------- OS records


@dataclass
class _Record:
    """What the files of one OS id say, merged in file order, before inheritance."""

    id: str
    location: Location
    fields: dict[str, str] = field(default_factory=dict)
    short_ids: list[str] = field(default_factory=list)
    derives_from: list[str] = field(default_factory=list)
    upgrades: list[str] = field(default_factory=list)
    clones: list[str] = field(default_factory=list)
    resources: dict[str, Resources] = field(default_factory=dict)
    firmware: dict[tuple[str, str], Firmware] = field(default_factory=dict)
    devices: dict[str, bool] = field(default_factory=dict)
    installable: set[str] = field(default_factory=set)
    has_short_id_file: bool = False


_FIELDS = ("name", "vendor", "family", "distro", "version", "release-status")


def _number(node: _Node | None, name: str, problems: list[Problem]) -> int | None:
    if node is None:
        return None
    text = node.text.strip()
    if not text.isascii() or not text.isdigit() or len(text) > MAX_DIGITS:
        problems.append(Problem(Location(name, node.line, node.column),
                                f"<{node.tag}>: expected a whole number of at most {MAX_DIGITS} digits, "
                                f"got {excerpt(text)!r}"))
        return None
    return int(text)


def _resources(node: _Node, name: str, problems: list[Problem]) -> Resources:
    def value(part: str, tag: str) -> int | None:
        block = node.first(part)
        return _number(block.first(tag), name, problems) if block is not None else None

    return Resources(node.attrib.get("arch", ALL_ARCHES), value("minimum", "n-cpus"), value("minimum", "ram"),
                     value("recommended", "n-cpus"), value("recommended", "ram"))


def _supported(node: _Node) -> bool:
    return node.attrib.get("supported", "true").strip().lower() != "false"


def _firmware(node: _Node) -> Firmware:
    features = {f.attrib["name"]: _supported(f) for f in node.all("feature") if "name" in f.attrib}
    return Firmware(node.attrib.get("arch", ALL_ARCHES), node.attrib.get("type", ""), _supported(node), features)


def _merge(records: dict[str, _Record], os_node: _Node, name: str, problems: list[Problem]) -> None:
    """Add what one ``<os>`` element says to the record of its id."""
    os_id = os_node.attrib.get("id", "").strip()
    where = Location(name, os_node.line, os_node.column)
    if not os_id:
        problems.append(Problem(where, "<os> without an id: osinfo names every OS release with an id URI"))
        return
    record = records.setdefault(os_id, _Record(os_id, where))
    shorts = [c.text.strip() for c in os_node.all("short-id") if c.text.strip()]
    if shorts and not record.has_short_id_file:  # the release's own file, not a fragment in <name>.d/
        record.location, record.has_short_id_file = where, True
    record.short_ids += [s for s in shorts if s not in record.short_ids]
    for key in _FIELDS:
        text = os_node.plain(key)
        if text and key not in record.fields:
            record.fields[key] = text
    for tag, into in (("derives-from", record.derives_from), ("upgrades", record.upgrades),
                      ("clones", record.clones)):
        into += [c.attrib["id"] for c in os_node.all(tag) if c.attrib.get("id")]
    for block in os_node.all("resources"):
        found = _resources(block, name, problems)
        record.resources.setdefault(found.arch, found)
    for entry in os_node.all("firmware"):
        firmware = _firmware(entry)
        record.firmware[(firmware.arch, firmware.type)] = firmware
    for devices in os_node.all("devices"):
        for device in devices.all("device"):
            if device.attrib.get("id"):
                record.devices[device.attrib["id"]] = _supported(device)
    for driver in os_node.all("driver"):
        record.installable.update(d.attrib["id"] for d in driver.all("device") if d.attrib.get("id"))


def _read_file(path: Path, name: str, within: Path, records: dict[str, _Record], problems: list[Problem]) -> None:
    try:
        root = parse_xml(inputfiles.read_bytes(path, name, within=within), name)
    except InputError as exc:
        problems.extend(exc.problems)
        return
    if root.tag != "libosinfo":
        problems.append(Problem(Location(name, root.line, root.column),
                                f"expected a <libosinfo> document, got <{excerpt(root.tag)}>"))
        return
    for os_node in root.all("os"):
        _merge(records, os_node, name, problems)


# --------------------------------------------------------------------------- inheritance


@dataclass
class _Resolved:
    devices: dict[str, bool]
    firmware: dict[tuple[str, str], Firmware]
    resources: tuple[Resources, ...]


class _Inheritance:
    """libosinfo's inheritance: an OS takes the devices and firmware of what it derives from or clones,
    unless it says otherwise about one, and their resources when it names none."""

    def __init__(self, records: Mapping[str, _Record], problems: list[Problem]):
        self.records, self.problems = records, problems
        self.done: dict[str, _Resolved] = {}

    def resolve(self, os_id: str, path: tuple[str, ...] = ()) -> _Resolved:
        if os_id in self.done:
            return self.done[os_id]
        record = self.records[os_id]
        devices: dict[str, bool] = {}
        firmware: dict[tuple[str, str], Firmware] = {}
        resources: tuple[Resources, ...] = ()
        for parent in record.derives_from + record.clones:
            if parent in path + (os_id,):
                self.problems.append(Problem(record.location, f"derives from {excerpt(parent)!r}, which derives "
                                             "from it in turn; its inheritance is left out"))
                continue
            if parent not in self.records:
                continue  # an OS of another database folder; libosinfo leaves it out as well
            inherited = self.resolve(parent, path + (os_id,))
            devices.update(inherited.devices)
            firmware.update(inherited.firmware)
            resources = resources or inherited.resources
        devices.update(record.devices)
        firmware.update(record.firmware)
        own = tuple(record.resources[arch] for arch in record.resources)
        resolved = _Resolved(devices, firmware, own or resources)
        self.done[os_id] = resolved
        return resolved


def _release(record: _Record, resolved: _Resolved) -> OsRelease:
    fields = record.fields
    return OsRelease(
        id=record.id, short_ids=tuple(record.short_ids), name=fields.get("name", record.id),
        vendor=fields.get("vendor"), family=fields.get("family"), distro=fields.get("distro"),
        version=fields.get("version"), release_status=fields.get("release-status"),
        derives_from=tuple(record.derives_from), upgrades=tuple(record.upgrades),
        resources=resolved.resources, firmware=tuple(resolved.firmware.values()),
        devices=frozenset(d for d, supported in resolved.devices.items() if supported),
        location=record.location, installable_devices=frozenset(record.installable), clones=tuple(record.clones))


# --------------------------------------------------------------------------- the database


def read_version(path: Path, display: str) -> str:
    """The database's VERSION (``20221203``); "unknown" when it has none. InputError when it cannot be read."""
    version = path / "VERSION"
    if inputfiles.lookup(version, f"{display}/VERSION") is None:
        return "unknown"
    text = inputfiles.read_text(version, f"{display}/VERSION", within=path).strip()
    first = text.splitlines()[0].strip() if text else ""
    return excerpt(first) if first else "unknown"


def read_database(path: Path, display: str | None = None) -> tuple[OsinfoDatabase, list[Problem]]:
    """Every OS release of the database at ``path``, and a located problem for each file that could not be used.

    ``display``: how reports name the folder (``path`` as given by default). A file
    refused (too large, no regular file, a link out of the folder or in a loop,
    malformed XML, an entity) is left out and named; the rest is read.
    """
    shown = display or str(path)
    problems: list[Problem] = []
    try:
        version = read_version(path, shown)
    except InputError as exc:
        problems.extend(exc.problems)
        version = "unknown"
    records: dict[str, _Record] = {}
    os_folder = path / "os"
    try:
        names = inputfiles.folder_files(os_folder, f"{shown}/os", within=path, catalog=False, problems=problems)
    except InputError as exc:
        problems.extend(exc.problems)
        names = []
    for relative in names:
        if relative.endswith(".xml"):
            _read_file(os_folder / relative, f"{shown}/os/{relative}", path, records, problems)
    inheritance = _Inheritance(records, problems)
    oses = tuple(_release(records[os_id], inheritance.resolve(os_id)) for os_id in sorted(records))
    return OsinfoDatabase(path, version, oses), problems


def load_database(option: Path | None, environ: Mapping[str, str] | None = None) -> OsinfoDatabase | None:
    """The database libosinfo would use (``--osinfo-db`` first), read whole; None when there is none.

    A database with a file that cannot be used is refused with every such file at its
    path (InputError): a check against part of a database would pass what it did not read.
    """
    path = find_database(option, environ)
    if path is None:
        return None
    database, problems = read_database(path)
    if problems:
        raise InputError(problems)
    return database
