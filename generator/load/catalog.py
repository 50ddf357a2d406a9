"""Load a catalog directory into the typed model.

Each file is first checked against its format (source/formats/) by the one explainer
(source/inputcheck.py), then converted; what is left here is what needs more than
one file: a series naming a size matrix or sizes, ratios against the sizes they make.
Problems from every file are collected, so one run reports them all.
"""

from __future__ import annotations

import stat
from dataclasses import replace
from fractions import Fraction
from pathlib import Path, PurePosixPath
from typing import Any, Iterable, Mapping

from ..errors import InputError
from ..merge import deep_merge
from ..model import Catalog, OlderField, OlderValue, Series, Settings, Size, SizeMatrix, Spelling, Variant
from ..problems import Location, Problem, excerpt
from ..quantity import parse as parse_quantity
from ..source import formats
from ..source.inputcheck import read_checked, read_checked_as_written
from ..source.inputfiles import leads_outside, lookup, usable_folder, yaml_files
from ..source.schema_fast import whole_number
from ..source.yamlsrc import Document
from .lifecycle import deprecation_of, merged, retirements_of, sizes_deprecated

CATALOG_FILE = "catalog.yaml"
SIZES_FILE = "series/sizes.yaml"


#: No GPU device by default: the GN series is built only when one is configured (see gpu.py).
DEFAULT_PARAMETERS: Mapping[str, Any] = {}
DEFAULT_PROVIDER = {
    "displayName": "KubeVirt",
    "documentationURL": "https://github.com/kubevirt/common-instancetypes",
    "supportURL": "https://github.com/kubevirt/common-instancetypes/issues",
}


class _Collector:
    """Loads files and gathers their problems instead of stopping at the first."""

    def __init__(self, root: Path):
        self.root = root
        self.problems: list[Problem] = []

    def read(self, relative: str, schema: Mapping[str, Any]) -> Document | None:
        """The file checked against its format; None (and its problems kept) when it breaks it."""
        document, found = read_checked(self.root / relative, relative, schema, within=self.root)
        self.problems.extend(found)
        return None if found else document


def _settings(doc: Document, root: Path | None = None, inherited: Settings | None = None) -> Settings:
    """catalog.yaml's settings; an extending catalog takes what it leaves out from ``inherited``."""
    data = doc.data
    parameters = {**(inherited.parameters if inherited else DEFAULT_PARAMETERS), **data.get("parameters", {})}
    provider = {**(inherited.provider if inherited else DEFAULT_PROVIDER), **data.get("provider", {})}
    return Settings(
        vendor=data["vendor"] if "vendor" in data or inherited is None else inherited.vendor,
        version=data["version"] if "version" in data or inherited is None else inherited.version,
        parameters=parameters,
        provider=provider,
        location=doc.source.locate(()),
        overlays=tuple(Path(root or ".") / name for name in data.get("overlays", [])),
        spellings=spellings_of(doc) if "spellings" in data else (inherited.spellings if inherited else ()),
        policy=(data["policy"].get("retired") or "warn") if "policy" in data else (
            inherited.policy if inherited else None),
        os_labels=data["osLabels"] if "osLabels" in data else (inherited.os_labels if inherited else False),
    )


def spellings_of(doc: Document) -> tuple[Spelling, ...]:
    """The spellings of catalog.yaml or an overlay (checked against their format already), each located at its entry."""
    found = []
    for i, entry in enumerate(doc.data["spellings"]):
        writes = tuple(OlderField(tuple(path.split(".")), how.get("value"), how.get("from"))
                       for path, how in entry.get("as", {}).items())
        when = {key: tuple(allowed) for key, allowed in entry.get("when", {}).items()}
        values = {value: OlderValue(older["since"], older.get("was")) for value, older in entry.get("values", {}).items()}
        found.append(Spelling(tuple(entry["field"].split(".")), doc.source.locate(("spellings", i)), writes, when,
                              values))
    return tuple(found)


def _parameter_problems(doc: Document) -> list[Problem]:
    """A GPU device in catalog.yaml that GN cannot ask for, reported at its line."""
    from .gpu import COUNT_WITHOUT_DEVICE, device_problem

    gpu = (doc.data.get("parameters") or {}).get("gpu")
    if gpu is None:
        return []
    if "deviceName" not in gpu:
        return [doc.source.problem(("parameters", "gpu"), COUNT_WITHOUT_DEVICE, key=True)]
    found = device_problem(gpu["deviceName"])
    return [doc.source.problem(("parameters", "gpu", "deviceName"), found)] if found else []


def _overlay_problems(root: Path, doc: Document) -> list[Problem]:
    """Overlays listed in catalog.yaml that are not there, or not inside the catalog, at their line.

    A path that leaves the catalog (absolute, or through ``..``) is refused before
    anything is read: a pull request's catalog.yaml must not make citgen read, and
    quote, a file elsewhere on the machine. ``--overlay`` names files anywhere.
    """
    problems = []
    for i, name in enumerate(doc.data.get("overlays", [])):
        parts = PurePosixPath(name).parts
        if PurePosixPath(name).is_absolute() or ".." in parts or "\\" in name:
            problems.append(doc.source.problem(("overlays", i), (
                f"overlay file {excerpt(name)!r} is not inside the catalog directory; catalog.yaml names its "
                "overlays by a path inside the catalog, without '..' (an overlay elsewhere: --overlay)")))
        elif leads_outside(root / name, root):
            problems.append(doc.source.problem(("overlays", i), f"overlay file {excerpt(name)!r} is a symbolic link to a "
                                               "file outside the catalog directory; citgen reads only files "
                                               "inside the catalog"))
        elif not _there(root / name, name, root, problems):
            problems.append(doc.source.problem(("overlays", i), f"overlay file {excerpt(name)!r} not found in "
                                               f"{root}"))
    return problems


def _there(path: Path, name: str, root: Path, problems: list[Problem]) -> bool:
    """Whether something is at ``path``; True, with the reason kept, when that cannot be told (a folder
    on the way unread, a link to nothing): the problem is the path's, not a missing file's."""
    try:
        return lookup(path, name, within=root) is not None
    except InputError as exc:
        problems.extend(exc.problems)
        return True


def _extending(root: Path, doc: Document, problems: list[Problem]) -> Catalog:
    """A vendor catalog: the built-in catalog's series and matrices under the vendor's settings.

    Series and preferences of a vendor catalog come from its overlays; folders
    that look like a full catalog are refused rather than silently ignored.
    """
    from ..paths import builtin_catalog

    problems = problems + _overlay_problems(root, doc) + _parameter_problems(doc)
    for folder in ("series", "preferences"):
        try:
            found = lookup(root / folder, folder, within=root)
        except InputError:  # a link to nothing: no folder, and nothing of it would be read anyway
            found = None
        if found is not None and stat.S_ISDIR(found.st_mode):  # a file so named is not taken for a catalog's folder
            problems.append(doc.source.problem(("extends",), (
                f"{folder}/ is not read in a catalog that extends another; add series, size matrices, "
                "traits and preferences through an overlay instead")))
    if problems:
        raise InputError(problems)
    retired = retirements_of(doc.data.get("retired", {}), doc.source, ("retired",), problems)
    if problems:
        raise InputError(problems)
    base_root = builtin_catalog()
    base = load_catalog(base_root)
    return Catalog(root, _settings(doc, root, base.settings), base.matrices, base.series, base=base_root,
                   retirements=merged(base.retirements, retired.items()))


def _matrices(doc: Document) -> dict[str, SizeMatrix]:
    matrices = {}
    for name, rows in doc.data["matrices"].items():
        sizes = []
        for size, row in rows.items():
            where = doc.source.locate(("matrices", name, size))
            if whole_number(row):  # the format allows a vCPU count or {cpu, memory}
                sizes.append(Size(size, row, None, where))
            else:
                sizes.append(Size(size, row["cpu"], int(parse_quantity(row["memory"])), where))
        matrices[name] = SizeMatrix(name, tuple(sizes), doc.source.locate(("matrices", name)))
    return matrices


def parse_ratio(text: str) -> Fraction:
    """``"1:4"`` -> 4 GiB per vCPU."""
    cpu, memory = text.split(":")
    return Fraction(memory) / int(cpu)


def select_sizes(
    selection: Any, matrix: SizeMatrix, doc: Document, problems: list[Problem]
) -> tuple[str, ...]:
    """Resolve a series' ``sizes:`` against its matrix, reporting unknown names."""
    names = [s.name for s in matrix.sizes]

    def known(name: str, path: tuple) -> bool:
        if name in names:
            return True
        problems.append(doc.source.problem(
            path, f"size '{name}' is not in size matrix '{matrix.name}' (it has: {', '.join(names)})"))
        return False

    if selection in (None, "all"):
        return tuple(names)
    if isinstance(selection, list):
        ok = [known(n, ("sizes", i)) for i, n in enumerate(selection)]
        return tuple(n for n in names if n in selection) if all(ok) else ()
    start, end = selection.get("from", names[0]), selection.get("to", names[-1])
    exclude = selection.get("exclude", [])
    ok = [known(start, ("sizes", "from")), known(end, ("sizes", "to"))]
    ok += [known(n, ("sizes", "exclude", i)) for i, n in enumerate(exclude)]
    if not all(ok):
        return ()
    chosen = names[names.index(start): names.index(end) + 1]
    if not chosen:
        problems.append(doc.source.problem(("sizes",), f"'{start}' comes after '{end}' in size matrix '{matrix.name}'"))
    return tuple(n for n in chosen if n not in exclude)


def _ratio_problems(doc: Document, matrix: SizeMatrix, sizes: tuple[str, ...]) -> list[Problem]:
    """Sizes whose ratio-derived memory would not be a whole number of bytes (``1:0.3``)."""
    per_cpu = parse_ratio(doc.data["ratio"]) * 1024**3
    uneven = [s.name for s in matrix.sizes if s.name in sizes and s.memory is None
              and (per_cpu * s.cpu).denominator != 1]
    if not uneven:
        return []
    sizes_named = f"size{'s' if len(uneven) > 1 else ''} {', '.join(uneven)}"
    return [doc.source.problem(("ratio",), f"ratio {doc.data['ratio']!r} does not give a whole number of bytes "
                               f"of memory for {sizes_named}; use a ratio in whole MiB per vCPU "
                               "such as \"1:0.5\", or give those sizes a fixed memory in " + SIZES_FILE)]


def _spec_problems(doc: Document) -> list[Problem]:
    """The series' spec fragment checked against KubeVirt's schema, located in the series file.

    Checked here rather than only in the rendered bundles so that the message
    points at the line the author wrote, and so that a fragment of the wrong
    shape (``cpu: 3``) never reaches expansion, which relies on the shape.
    """
    if "spec" not in doc.data:
        return []
    from ..model import API_VERSION, INSTANCETYPE_KINDS
    from ..schemas import check_object

    spec = deep_merge({"cpu": {"guest": 1}, "memory": {"guest": "1Gi"}}, doc.data["spec"])
    probe = {"apiVersion": API_VERSION, "kind": INSTANCETYPE_KINDS[0], "metadata": {"name": "probe"}, "spec": spec}
    return [doc.source.problem(("spec",) + tuple(path[1:]), message, key=message.startswith("unknown field"))
            for path, message in check_object(probe, whole_numbers=True) if tuple(path[:1]) == ("spec",)]


def _series(doc: Document, matrices: Mapping[str, SizeMatrix], problems: list[Problem]) -> Series | None:
    data = doc.data
    matrix_name = data.get("matrix", "standard")
    matrix = matrices.get(matrix_name)
    if matrix is None:
        problems.append(doc.source.problem(
            ("matrix",), f"size matrix '{matrix_name}' is not defined in {SIZES_FILE} "
            f"(defined: {', '.join(sorted(matrices))})"))
        return None
    before = len(problems)
    sizes = select_sizes(data.get("sizes"), matrix, doc, problems)
    if len(problems) > before:
        return None
    found = _ratio_problems(doc, matrix, sizes) + _spec_problems(doc)
    if found:
        problems.extend(found)
        return None
    variants = tuple(
        Variant(suffix, flags, doc.source.locate(("variants", suffix)))
        for suffix, flags in sorted(data.get("variants", {}).items())
    )
    deprecated, deprecation = deprecation_of(data.get("deprecated", False), doc.source, ("deprecated",))
    series = Series(
        prefix=data["prefix"],
        version=data["version"],
        cls=data["class"],
        display_name=data["displayName"],
        description=data["description"],  # exactly as the YAML scalar says: its style decides the line breaks
        icon=data["icon"],
        ratio=parse_ratio(data["ratio"]),
        matrix=matrix_name,
        sizes=sizes,
        features=data.get("features", {}),
        spec=data.get("spec", {}),
        variants=variants,
        deprecated=deprecated,
        location=doc.source.locate(()),
        deprecation=deprecation,
    )
    if "deprecatedSizes" not in data:
        return series
    before = len(problems)
    sizes_of = sizes_deprecated(data["deprecatedSizes"], doc.source, ("deprecatedSizes",), series, problems)
    return replace(series, deprecated_sizes=sizes_of) if len(problems) == before else None


def _catalog_file(root: Path, problems: list[Problem]) -> tuple[Document | None, bool | None]:
    """What of catalog.yaml fits its format (its problems kept in ``problems``), and whether it says ``extends``.

    Whether a catalog extends another decides which files it has: it is read from the
    file as written, so that a mistake in catalog.yaml (the ``extends`` line's own
    among them) is not followed by a false ``series/sizes.yaml: file not found``. None
    for whether, when catalog.yaml cannot be read at all (not YAML, a duplicate key):
    then its problems are the only ones said.
    """
    document, fitting, found = read_checked_as_written(root / CATALOG_FILE, CATALOG_FILE, formats.CATALOG, within=root)
    problems.extend(found)
    if document is None:
        return None, None
    return fitting, isinstance(document.data, Mapping) and "extends" in document.data


def series_files(root: Path) -> list[str]:
    """Series files in a stable order: every series/*.yaml but the size matrices."""
    return [f"series/{p.name}" for p in yaml_files(root / "series", "series") if p.name != "sizes.yaml"]


def load_catalog(root: Path, *, extra_problems: Iterable[Problem] = ()) -> Catalog:
    """Read catalog.yaml, the size matrices and every series; raise InputError listing all problems."""
    root = Path(root)
    usable_folder(root, str(root))  # one that cannot be entered, or is below one, is no catalog to read
    if lookup(root / CATALOG_FILE, CATALOG_FILE, within=root) is None:  # anything else there is refused when read
        raise InputError.at(Location(str(root)), f"not a catalog directory: {CATALOG_FILE} is missing")
    files = _Collector(root)
    fitting, extends = _catalog_file(root, files.problems)
    if extends is None or extends and fitting is None:  # which files the catalog has is not known
        raise InputError(files.problems + list(extra_problems))
    if extends:  # said, even where catalog.yaml has mistakes: then no series/ or sizes.yaml is looked for
        return _extending(root, fitting, files.problems + list(extra_problems))
    settings_doc = None if files.problems else fitting
    sizes_doc = files.read(SIZES_FILE, formats.SIZES)
    series_docs = [files.read(name, formats.SERIES) for name in series_files(root)]
    problems = files.problems + list(extra_problems)
    matrices = _matrices(sizes_doc) if sizes_doc else {}
    series = []
    if sizes_doc:
        for doc in series_docs:
            if doc is not None:
                loaded = _series(doc, matrices, problems)
                if loaded is not None:
                    series.append(loaded)
    retired: dict = {}
    if settings_doc is not None:
        problems += _overlay_problems(root, settings_doc) + _parameter_problems(settings_doc)
        retired = retirements_of(settings_doc.data.get("retired", {}), settings_doc.source, ("retired",), problems)
    if problems or settings_doc is None:
        raise InputError(problems)
    return Catalog(root, _settings(settings_doc, root), matrices, tuple(series),
                   retirements=merged({}, retired.items()))
