"""Deprecations and retirements: read where they are written, judged once the whole model is known.

A series, a size of one, a family or a preference may be deprecated
(``deprecated: true`` as ever, or ``{since, replacement}``), and catalog.yaml's
``retired`` names what the catalog no longer defines and what replaces it
(docs/catalog-format.md, "Deprecation and retired names"). The readers here turn
what the formats allow into model values (model.Deprecation, model.Retirement),
located where they are written, for series and family files, catalog.yaml and
overlays alike.

Whether a replacement names something is only known once every file is read and
every overlay applied: ``lifecycle_problems`` judges the finished model. A
replacement must name an object of its own family (an instancetype's an
instancetype, a preference's a preference) that the catalog defines, or, for a
retired name, another retired name; never itself; and following replacements
from object to object must end at one that is neither deprecated nor retired, so
that ``citgen refs`` can always say what to use instead.
"""

from __future__ import annotations

from itertools import islice
from typing import Any, Iterable, Iterator, Mapping, Sequence

from ..frozen import frozen
from ..model import (FAMILIES, Catalog, Deprecation, PreferenceCatalog, Retirement, Series,
                     preference_deprecation)
from ..problems import Location, Path as KeyPath, Problem
from ..source.yamlsrc import SourceMap
from ..suggest import Index
from .traits import suggest

#: catalog.yaml's sections of ``retired``, by the family of the names they hold.
RETIRED_SECTIONS: Mapping[str, str] = {"instancetypes": "instancetype", "preferences": "preference"}

#: How following replacements ends: at a current object, at one that names no replacement, or in a circle.
CURRENT, DEAD_END, CIRCLE = "current", "dead end", "circle"


# --------------------------------------------------------------------------- reading


def deprecation_of(value: Any, source: SourceMap, path: KeyPath) -> tuple[bool, Deprecation | None]:
    """``deprecated`` as written (true, false or ``{since, replacement}``): whether, and what more it says."""
    if value is False:
        return False, None
    location = source.locate(path, key=True)
    if value is True:
        return True, Deprecation(location)
    replacement = source.locate(path + ("replacement",)) if "replacement" in value else None
    return True, Deprecation(location, value.get("since"), value.get("replacement"), replacement)


def offered_sizes(series: Series) -> tuple[str, ...]:
    """The part after the dot of every instancetype name the series makes: each size, then with each variant."""
    return tuple(size + suffix for size in series.sizes for suffix in ("", *(v.suffix for v in series.variants)))


def sizes_deprecated(written: Mapping[str, Any], source: SourceMap, path: KeyPath, series: Series,
                     problems: list[Problem]) -> dict[str, Deprecation | None]:
    """A series' ``deprecatedSizes`` over what it had: each size's deprecation, None for one ``false`` keeps current.

    A size the series does not make is a problem at its key; an overlay's null
    takes a size's entry away. ``series`` is the series as it is with everything
    else the file (or overlay) says.
    """
    offered = offered_sizes(series)
    found = dict(series.deprecated_sizes)
    for size, value in written.items():
        if size not in offered:
            problems.append(source.problem(path + (size,), f"series {series.name!r} has no size {size!r}"
                                           f"{suggest(size, offered)} (its sizes: {', '.join(offered)})", key=True))
        elif value is None:
            found.pop(size, None)
        else:
            found[size] = deprecation_of(value, source, path + (size,))[1]  # None for false
    return found


def retirements_of(written: Mapping[str, Any], source: SourceMap, path: KeyPath,
                   problems: list[Problem]) -> dict[tuple[str, str], Retirement | None]:
    """``retired`` of catalog.yaml or an overlay, by (family, name); None where an overlay takes an entry away."""
    found: dict[tuple[str, str], Retirement | None] = {}
    for section, family in RETIRED_SECTIONS.items():
        for name, entry in written.get(section, {}).items():
            where = path + (section, name)
            if entry is None:
                found[(family, name)] = None
                continue
            if entry.get("renamed") and "replacement" not in entry:
                problems.append(source.problem(where + ("renamed",), "renamed: true needs the new name as "
                                               "replacement"))
                continue
            replacement = source.locate(where + ("replacement",)) if "replacement" in entry else None
            found[(family, name)] = Retirement(family, name, entry["since"], source.locate(where, key=True),
                                               entry.get("replacement"), replacement, bool(entry.get("renamed")))
    return found


# --------------------------------------------------------------------------- the whole model


def instancetype_names(catalog: Catalog) -> dict[str, Series]:
    """Every instancetype name the catalog defines (a GPU series too, built or not), with its series."""
    return {f"{series.name}.{size}": series for series in catalog.series for size in offered_sizes(series)}


def deprecations(catalog: Catalog, preferences: PreferenceCatalog) -> dict[tuple[str, str], Deprecation]:
    """Every deprecated object the model defines, by (family, name), with what its data says."""
    found: dict[tuple[str, str], Deprecation] = {}
    for series in catalog.series:
        for size in offered_sizes(series):
            deprecation = series.size_deprecation(size)
            if deprecation is not None:
                found[("instancetype", f"{series.name}.{size}")] = deprecation
    for name, pref in preferences.preferences.items():
        family = preferences.families.get(pref.family)
        deprecation = preference_deprecation(pref, family) if family is not None else None
        if deprecation is not None:
            found[("preference", name)] = deprecation
    return found


def follow(name: str, replacement_of: Mapping[str, str | None]) -> tuple[tuple[str, ...], str]:
    """``name`` and the names met following replacements from it, and how that ends (CURRENT, DEAD_END, CIRCLE).

    ``replacement_of`` holds the names that are deprecated or retired, each with
    its replacement (None: it names none); any other name is current, and ends
    the chain. A circle ends at the first name met again, written once more.
    """
    chain = [name]
    while chain[-1] in replacement_of:
        following = replacement_of[chain[-1]]
        if following is None:
            return tuple(chain), DEAD_END
        if following in chain:
            return (*chain, following), CIRCLE
        chain.append(following)
    return tuple(chain), CURRENT


@frozen
class End:
    """Where following replacements from a name ends: how many names it meets after the name (``steps``), the
    last of them (``last``: the current one, the one naming none, or the first met again) and how (``how``)."""

    steps: int
    last: str
    how: str


def ends(replacement_of: Mapping[str, str | None]) -> dict[str, End]:
    """``follow`` for every name of ``replacement_of`` at once, each name walked once: linear in the names.

    A name whose end is known gives it to every name leading to it, one step
    further; the names of a circle each end at themselves, met again, and a name
    leading into a circle at the name it enters the circle by.
    """
    found: dict[str, End] = {}
    for start in replacement_of:
        path: list[str] = []
        on_path: dict[str, int] = {}
        name: str | None = start
        while name is not None and name in replacement_of and name not in found and name not in on_path:
            on_path[name] = len(path)
            path.append(name)
            name = replacement_of[name]
        if name is None:  # the last one names no replacement
            after = End(-1, path[-1], DEAD_END)
        elif name in found:
            after = found[name]
        elif name in on_path:  # a circle from path[entry] on: each of it ends at itself
            entry = on_path[name]
            size = len(path) - entry
            for member in path[entry:]:
                found[member] = End(size, member, CIRCLE)
            path = path[:entry]
            after = found[name]
        else:  # a current name
            after = End(0, name, CURRENT)
        for member in reversed(path):
            after = End(after.steps + 1, after.last, after.how)
            found[member] = after
    return found


#: How many names of a chain of replacements a message shows at most, the last one besides.
SHOWN = 8


def shown_chain(name: str, replacement_of: Mapping[str, str | None], end: End) -> str:
    """``a -> b -> a``: the names met following replacements from ``name``, as ``follow`` gives them; a chain
    longer than SHOWN names is cut short (``a -> b -> ... (1990 more) -> z``)."""
    total = end.steps + 1
    names = [name, *islice(Chain(replacement_of[name] or "", replacement_of, end), min(end.steps, SHOWN))]
    if total <= SHOWN + 1:
        return " -> ".join(names)
    return f"{' -> '.join(names[:SHOWN])} -> ... ({total - SHOWN - 1} more) -> {end.last}"


class Chain(Sequence[str]):
    """The names met following replacements from a name, its replacement first (``follow``'s, less the name).

    Read from the map of replacements it was found in, only when used: a record
    holds its chain in constant room, so that every name of a long chain of
    replacements costs no more than the others (a tuple each would grow with the
    square of the chain). The map must not change afterwards. It compares equal to
    any sequence of the same names.
    """

    __slots__ = ("_first", "_replacement_of", "_length", "_last")

    def __init__(self, first: str, replacement_of: Mapping[str, str | None], end: End):
        self._first, self._replacement_of, self._length, self._last = first, replacement_of, end.steps, end.last

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[str]:
        name: str | None = self._first
        for _ in range(self._length):
            assert name is not None  # the end said how many names there are
            yield name
            name = self._replacement_of.get(name)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return tuple(self)[index]
        position = index + self._length if index < 0 else index
        if not 0 <= position < self._length:
            raise IndexError("chain index out of range")
        if position == self._length - 1:
            return self._last
        return next(islice(iter(self), position, None))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Chain, tuple, list)):
            return len(self) == len(other) and tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))


#: Each family with its article, for messages.
_A = {"instancetype": "an instancetype", "preference": "a preference"}


class _Judge:
    """The replacements of one model, judged against the names it defines and retires."""

    def __init__(self, catalog: Catalog, preferences: PreferenceCatalog,
                 inherited: Mapping[tuple[str, str], Retirement]):
        self.catalog = catalog
        self.inherited = inherited
        self.instancetypes = instancetype_names(catalog)
        self.defined = {"instancetype": set(self.instancetypes), "preference": set(preferences.preferences)}
        self.series = {s.name: s for s in catalog.series}
        self.deprecated = deprecations(catalog, preferences)
        self.retired = catalog.retirements
        self.replacement_of: dict[str, dict[str, str | None]] = {family: {} for family in FAMILIES}
        for (family, name), item in [*self.deprecated.items(), *self.retired.items()]:
            self.replacement_of[family][name] = item.replacement
        self.problems: list[Problem] = []
        self._indexes: dict[tuple[str, bool], Index] = {}
        self._ends: dict[str, dict[str, End]] = {}

    def end(self, family: str, name: str) -> End:
        """Where following replacements from ``name`` ends, every name of the family followed once (``ends``)."""
        if family not in self._ends:
            self._ends[family] = ends(self.replacement_of[family])
        return self._ends[family][name]

    def index(self, family: str, retired: bool) -> Index:
        """The names a replacement in ``family`` may name (defined, and retired too for a retired name), indexed
        once for suggestions (suggest.py), however many replacements name nothing."""
        key = (family, retired)
        if key not in self._indexes:
            self._indexes[key] = Index(self.defined[family] | (set(self.replacement_of[family]) if retired else set()))
        return self._indexes[key]

    def problem(self, location: Location | None, message: str) -> None:
        self.problems.append(Problem(location or Location("catalog.yaml"), message))

    def unknown(self, family: str, name: str, replacement: str, retired: bool, by_series: bool) -> str:
        """Why ``replacement`` names nothing ``name`` may be replaced by."""
        other = FAMILIES[1 - FAMILIES.index(family)]
        said = f"replacement {replacement!r} of {name!r}"
        if replacement in self.defined[other]:
            return f"{said} is {_A[other]}; the replacement of {_A[family]} is {_A[family]}"
        if replacement in self.replacement_of[family]:  # retired: a deprecated object's replacement is built
            since = self.retired[(family, replacement)].since
            return f"{said} was retired in {since}; a deprecated object is replaced by one the catalog defines"
        close = [c for c in self.index(family, retired).structured(replacement, 2).names if c != name][:1]
        message = (f"{said} is no {family} the catalog defines{' or retires' if retired else ''}"
                   + (f"; did you mean {close[0]!r}?" if close else ""))
        series, _, size = replacement.partition(".")
        if by_series:
            message += (f" (series {series!r} has no size {size!r}; give {name!r} a replacement of its own under "
                        "deprecatedSizes)")
        return message

    def judge(self, family: str, name: str, replacement: str | None, location: Location | None, *,
              retired: bool = False, by_series: bool = False) -> None:
        if replacement is None:
            return
        if replacement == name:
            self.problem(location, f"{family} {name!r} names itself as its replacement")
            return
        allowed = replacement in self.defined[family] or (retired and replacement in self.replacement_of[family])
        if not allowed:
            self.problem(location, self.unknown(family, name, replacement, retired, by_series))
            return
        found = self.end(family, name)
        if found.how == CURRENT:
            return
        shown = shown_chain(name, self.replacement_of[family], found)
        if found.how == CIRCLE:
            self.problem(location, f"the replacements of {name!r} go round in a circle ({shown}); they must lead "
                         f"to {_A[family]} that is neither deprecated nor retired")
        else:
            state = "deprecated" if (family, found.last) in self.deprecated else "retired"
            self.problem(location, f"the replacements of {name!r} end at {found.last!r} ({shown}), which is {state} "
                         f"and names no replacement; they must lead to {_A[family]} that is neither deprecated "
                         "nor retired")

    def series_replacement(self, series: Series) -> bool:
        """Whether a deprecated series' replacement names another series of the catalog (said where not)."""
        deprecation = series.deprecation
        if deprecation is None or deprecation.replacement is None:  # current, or deprecated: true
            return False
        if deprecation.replacement == series.name:
            self.problem(deprecation.replacement_location, f"series {series.name!r} names itself as its replacement")
            return False
        if deprecation.replacement not in self.series:
            self.problem(deprecation.replacement_location, (
                f"replacement {deprecation.replacement!r} of series {series.name!r} is no series of the catalog"
                f"{suggest(deprecation.replacement, self.series)} (series: {', '.join(sorted(self.series))})"))
            return False
        return True

    def run(self) -> list[Problem]:
        replaced = {s.name for s in self.catalog.series if self.series_replacement(s)}
        for (family, name), deprecation in sorted(self.deprecated.items()):
            series = self.instancetypes.get(name) if family == "instancetype" else None
            by_series = series is not None and series.deprecation is not None and \
                deprecation.replacement_location == series.deprecation.replacement_location
            if by_series and series.name not in replaced:
                continue  # the series' own replacement is wrong, and said so once
            self.judge(family, name, deprecation.replacement, deprecation.replacement_location, by_series=by_series)
        for (family, name), retirement in sorted(self.retired.items()):
            if name in self.defined[family]:
                self.problem(retirement.location, f"{name!r} is retired here, but the catalog defines {family} "
                             f"{name!r}; a name is retired once the catalog no longer defines it (until then, mark it "
                             f"deprecated; an overlay that brings it back takes the entry away with null)")
            elif self.inherited.get((family, name)) is not retirement:
                self.judge(family, name, retirement.replacement, retirement.replacement_location, retired=True)
        return list(dict.fromkeys(self.problems))


def lifecycle_problems(catalog: Catalog, preferences: PreferenceCatalog,
                       inherited: Mapping[tuple[str, str], Retirement] | None = None) -> list[Problem]:
    """What is wrong with the model's replacements and retired names, each at the line that says it.

    Judged on the catalog as its files say it, and again once overlays changed
    it, as the build will have it: a deprecated object's replacement must be an
    object of the build. A retirement of ``inherited`` (the catalog's own, judged
    before the overlays) is history that stays true when an overlay narrows the
    catalog: its replacement is not judged again, and where the build lacks it
    the objects (``expand.lifecycle``) say the replacement leads nowhere held. A
    retired name the catalog defines is judged every time.
    """
    return _Judge(catalog, preferences, inherited or {}).run()


def merged(base: Mapping[tuple[str, str], Retirement],
           changes: Iterable[tuple[tuple[str, str], Retirement | None]]) -> dict[tuple[str, str], Retirement]:
    """``base`` with each change applied in order: an entry replacing the one of its name, None removing it."""
    found = dict(base)
    for key, retirement in changes:
        if retirement is None:
            found.pop(key, None)
        else:
            found[key] = retirement
    return dict(sorted(found.items()))
