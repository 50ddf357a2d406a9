"""Did you mean: the known names nearest an unknown one, through an index, so that the work stays linear.

Every "did you mean" of citgen comes from here: ``citgen refs``' unknown names, the
replacements catalog.yaml names, the keys and names the loaders do not know. Two
rankings share one index (``Index``):

- by spelling (``nearest``), for keys and other words: difflib's likeness (its ratio,
  at least 0.6), nearest first;
- by structure (``Index.structured``), for the names of catalog objects. A name is
  parts separated by dots, the OS or the series first, then version, variant,
  architecture or size (``rhel.9.desktop``, ``windows.2k19.virtio``, ``u1.medium``).
  The candidates come in tiers, and the first tiers are what a user most often
  meant: a name one letter away, or one whose last part is spelt like the unknown
  one's (``fedora.arm`` -> ``fedora.arm64``); the name with an unknown part taken
  away (``rhel.9.virtio`` -> ``rhel.9``); the other names of the same OS and
  version, the names that go on from a bare OS (``windows`` -> ``windows.2k19``),
  the names holding a bare part (``medium`` -> ``u1.medium``), ordered by how alike
  they are to the name of the object that holds the reference (a DataVolume
  ``windows-2019``); last, names alike by spelling. It also says when an unknown
  part is one only other OSes' names have (``.virtio`` names exist only for windows).

The index makes each lookup cost what the unknown name's length and a bounded number
of candidates cost, never the number of names known: a set of at most ``SCAN_ALL``
names is compared whole; a larger one is reached through the names one deletion
away, the names sharing a part or a prefix of parts, and the names sharing rare runs
of three characters, each bucket read at most ``BUCKET`` names deep. Build one index
per set of names and ask it for every unknown name (``Index``); ``nearest`` and
``did_you_mean`` on a bare collection keep the index of the last sets they were given.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Sequence

from .frozen import frozen

#: A set of names this small is compared whole, as difflib would.
SCAN_ALL = 64
#: How many names of one bucket of the index a lookup reads at most (in name order).
BUCKET = 64
#: The longest name reached through its deletions (longer ones only through their runs of three characters).
DELETE_MAX = 64
#: How alike (difflib's ratio) a name found by spelling alone must be.
LIKENESS = 0.6
#: How alike two parts must be for one to be a spelling of the other (``arm`` and ``arm64``).
PART_LIKENESS = 0.75
#: The tiers of the structural ranking, best first.
LOWER_CASE, NEAR, WITHOUT_PART, RELATED, SPELLING = range(5)


@frozen
class Suggestions:
    """The names to suggest, nearest first, and what more is worth saying (``note``), or None."""

    names: tuple[str, ...]
    note: str | None = None


def _deletions(word: str) -> set[str]:
    """``word`` with one character taken away, each way; none for a word longer than ``DELETE_MAX``."""
    return {word[:i] + word[i + 1:] for i in range(len(word))} if len(word) <= DELETE_MAX else set()


def _trigrams(word: str) -> set[str]:
    padded = f" {word} "
    return {padded[i:i + 3] for i in range(len(padded) - 2)}


def _ratio(a: str, b: str) -> float:
    import difflib  # only where a name is unknown: a run with none does not pay for the import

    return difflib.SequenceMatcher(None, a, b).ratio()


class Index:
    """A set of known names, indexed for the nearest of any unknown one."""

    def __init__(self, names: Iterable[str]):
        self.names: tuple[str, ...] = tuple(sorted(set(names)))
        self.known = frozenset(self.names)
        self.small = len(self.names) <= SCAN_ALL
        self._deleted: dict[str, list[str]] = {}
        self._trigram: dict[str, list[str]] = {}
        self._prefix: dict[tuple[str, ...], list[str]] = {}
        self._part: dict[tuple[int, str], list[str]] = {}
        self._heads_with: dict[str, set[str]] = {}
        for name in self.names:
            parts = tuple(name.split("."))
            for key in (name, *_deletions(name)):
                self._deleted.setdefault(key, []).append(name)
            if not self.small:
                for gram in _trigrams(name):
                    self._trigram.setdefault(gram, []).append(name)
            for end in range(1, len(parts)):
                self._prefix.setdefault(parts[:end], []).append(name)
            for position, part in enumerate(parts):
                self._part.setdefault((position, part), []).append(name)
                if position:
                    self._heads_with.setdefault(part, set()).add(parts[0])

    # ----------------------------------------------------------------- by spelling

    def _spelt_alike(self, word: str) -> set[str]:
        """The names worth comparing ``word`` with by spelling: all of a small set; else the names one deletion
        away either way, and those sharing at least a third of its rarer runs of three characters."""
        if self.small:
            return set(self.names)
        found: set[str] = set()
        for key in (word, *_deletions(word)):
            found.update(self._deleted.get(key, ())[:BUCKET])
        grams = _trigrams(word)
        shared: dict[str, int] = {}
        for gram in grams:
            posting = self._trigram.get(gram, ())
            if len(posting) <= BUCKET:
                for name in posting:
                    shared[name] = shared.get(name, 0) + 1
        found.update(name for name, count in shared.items() if 3 * count >= len(grams))
        return found

    def spelling(self, word: str, limit: int = 1, likeness: float = LIKENESS) -> list[str]:
        """The names at least ``likeness`` alike to ``word`` by spelling, the nearest first (then by name)."""
        scored = [(_ratio(word, name), name) for name in self._spelt_alike(word) if name != word]
        return [name for score, name in sorted(scored, key=lambda item: (-item[0], item[1]))
                if score >= likeness][:limit]

    # ----------------------------------------------------------------- by structure

    def structured(self, name: str, limit: int = 3, context: str | None = None) -> Suggestions:
        """The catalog names ``name`` most likely meant, ranked by the structure of names (see the module's doc)."""
        parts = tuple(name.split("."))
        tiers: dict[str, int] = {}

        def offer(candidate: str, tier: int) -> None:
            if candidate != name and candidate in self.known and tier < tiers.get(candidate, SPELLING + 1):
                tiers[candidate] = tier

        offer(name.lower(), LOWER_CASE)  # upper case, which no Kubernetes name holds
        for candidate in self._deleted.get(name, ()):  # one letter more
            offer(candidate, NEAR)
        for key in _deletions(name):  # one letter less, or one other
            for candidate in (*([key] if key in self.known else ()), *self._deleted.get(key, ())[:BUCKET]):
                offer(candidate, NEAR)
        if len(parts) > 1:
            for sibling in self._prefix.get(parts[:-1], ())[:BUCKET]:
                tail = sibling.split(".")[len(parts) - 1:]
                if len(tail) == 1 and _part_alike(parts[-1], tail[0]):
                    offer(sibling, NEAR)
                elif len(parts) > 2:  # the same OS and version; a head alone is too little in common
                    offer(sibling, RELATED)
            for dropped in range(1, len(parts)):
                offer(".".join(parts[:dropped] + parts[dropped + 1:]), WITHOUT_PART)
        for extension in self._prefix.get(parts, ())[:BUCKET]:  # a bare OS: its versions
            offer(extension, RELATED)
        if len(parts) == 1:  # a bare size or variant: the names that have it
            for position in (1, 2):
                for holder in self._part.get((position, name), ())[:BUCKET]:
                    offer(holder, RELATED)
        for alike in self.spelling(name, limit=BUCKET):
            offer(alike, SPELLING)
        hint = context or ""
        ranked = sorted(tiers, key=lambda c: (tiers[c], -_ratio(hint, c) if tiers[c] == RELATED and hint else 0,
                                              -_ratio(name, c), c))
        return Suggestions(tuple(ranked[:limit]), self._only_elsewhere(parts))

    def _only_elsewhere(self, parts: Sequence[str]) -> str | None:
        """``'.virtio' names exist only for windows``: for an unknown part that only names of other heads have."""
        if len(parts) < 2 or (parts[0],) not in self._prefix and parts[0] not in self.known:
            return None
        for position, part in enumerate(parts[1:], 1):
            if position == 1 and any(char.isdigit() for char in part):
                continue  # a version: other OSes' versions are no variant of this one
            heads = self._heads_with.get(part)
            if heads and parts[0] not in heads:
                shown = sorted(heads)
                listed = ", ".join(shown[:3]) + (f" and {len(shown) - 3} more" if len(shown) > 3 else "")
                return f"'.{part}' names exist only for {listed}"
        return None


def _part_alike(written: str, known: str) -> bool:
    """Whether a part looks like a spelling of another: one begins the other, or they are much alike."""
    shorter, longer = sorted((written, known), key=len)
    return len(shorter) >= 3 and longer.startswith(shorter) or _ratio(written, known) >= PART_LIKENESS


@lru_cache(maxsize=16)
def _indexed(names: frozenset[str]) -> Index:
    return Index(names)


def index_of(known: Iterable[str] | Index) -> Index:
    """``known`` indexed: an Index as it is; a collection indexed once for as long as the same names are asked
    about again (a loader suggesting for each of many unknown keys against one set)."""
    return known if isinstance(known, Index) else _indexed(frozenset(known))


def nearest(word: str, known: Iterable[str] | Index, limit: int = 1, likeness: float = LIKENESS) -> list[str]:
    """The names of ``known`` nearest ``word`` by spelling (``Index.spelling``)."""
    return index_of(known).spelling(word, limit, likeness)


def did_you_mean(word: str, known: Iterable[str] | Index) -> str:
    """``; did you mean 'x'?`` when ``word`` looks like a typo of a known name, else nothing."""
    close = index_of(known).spelling(word)
    return f"; did you mean {close[0]!r}?" if close else ""
