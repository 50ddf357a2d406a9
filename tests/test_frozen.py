"""frozen.py: ``@frozen`` answers as ``@dataclass(frozen=True)`` does, without compiling its comparison, hash and repr.

Each case makes the same class twice, once with Python's own ``dataclass`` and once
with ``frozen``, under the same name, and asks both the same questions.
"""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any, Callable

import pytest

from generator.frozen import frozen


def twins(body: Callable[[Callable[[type], type]], type]) -> tuple[type, type]:
    """The class ``body`` makes with ``dataclass(frozen=True)``, and the one it makes with ``frozen``."""
    return body(dataclass(frozen=True)), body(frozen)


def point(decorate: Callable[[type], type]) -> type:
    @decorate
    class Point:
        """A point, with a note that takes no part in comparing."""

        x: int
        y: str = "a"
        note: list = field(default_factory=list, compare=False, repr=False)
        tags: tuple = field(default=(), hash=False)

    return Point


THEIRS, OURS = twins(point)


@pytest.mark.parametrize("a, b", [((1, "a"), (1, "a")), ((1, "a"), (2, "a")), ((1, "a"), (1, "b"))])
def test_equality_and_hash_are_the_dataclasses(a, b):
    assert (OURS(*a) == OURS(*b)) is (THEIRS(*a) == THEIRS(*b))
    assert (OURS(*a) != OURS(*b)) is (THEIRS(*a) != THEIRS(*b))
    assert hash(OURS(*a)) == hash(THEIRS(*a))


def test_fields_marked_out_of_comparing_or_hashing_stay_out():
    assert OURS(1, note=[1]) == OURS(1, note=[2])
    assert OURS(1, tags=(1,)) != OURS(1, tags=(2,))  # compared
    assert hash(OURS(1, tags=(1,))) == hash(OURS(1, tags=(2,)))  # but not hashed


def test_another_class_is_not_equal_even_with_the_same_fields():
    assert OURS(1) != THEIRS(1)
    assert OURS(1).__eq__(THEIRS(1)) is NotImplemented
    assert OURS(1) != (1, "a", ())


def test_the_repr_is_the_dataclasses_to_the_character():
    assert repr(OURS(1, "b", [3], (4,))) == repr(THEIRS(1, "b", [3], (4,)))
    assert repr(OURS(1, "b", [3], (4,))) == "point.<locals>.Point(x=1, y='b', tags=(4,))"  # its qualified name


def test_a_value_holding_itself_is_shown_as_the_dataclass_shows_it():
    ours, theirs = OURS(1, note=[]), THEIRS(1, note=[])
    loop_ours, loop_theirs = OURS([ours]), THEIRS([theirs])
    loop_ours.x.append(loop_ours)
    loop_theirs.x.append(loop_theirs)
    assert repr(loop_ours) == repr(loop_theirs)
    assert "..." in repr(loop_ours)


def test_an_instance_cannot_be_changed():
    value = OURS(1)
    with pytest.raises(FrozenInstanceError):
        value.x = 2  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del value.y


def test_it_is_a_dataclass_to_every_function_of_dataclasses():
    value = OURS(1, "b")
    assert dataclasses.is_dataclass(value)
    assert [f.name for f in dataclasses.fields(value)] == ["x", "y", "note", "tags"]
    assert dataclasses.replace(value, x=5) == OURS(5, "b")
    assert dataclasses.asdict(value) == {"x": 1, "y": "b", "note": [], "tags": ()}


@frozen
class Kept:
    """A class of a module's own, as every class of citgen's is: pickled to and from citgen's children."""

    name: str
    sizes: tuple[int, ...] = ()


def test_it_pickles_as_the_dataclass_does():
    value = Kept("a", (1, 2))
    assert pickle.loads(pickle.dumps(value)) == value


def test_the_methods_are_named_as_the_classs_own():
    assert OURS.__eq__.__qualname__ == "point.<locals>.Point.__eq__"
    assert OURS.__repr__.__name__ == "__repr__"


def ordered(decorate: Callable[..., Any]) -> type:
    make = decorate(order=True) if decorate is frozen else dataclass(frozen=True, order=True)

    @make
    class Version:
        """A version, ordered by its numbers."""

        major: int
        minor: int

    return Version


@pytest.mark.parametrize("a, b", [((1, 2), (1, 3)), ((1, 2), (1, 2)), ((2, 0), (1, 9))])
def test_an_ordered_class_orders_as_the_dataclass_does(a, b):
    ours, theirs = ordered(frozen), ordered(dataclass)
    for compare in ("__lt__", "__le__", "__gt__", "__ge__"):
        assert getattr(ours(*a), compare)(ours(*b)) is getattr(theirs(*a), compare)(theirs(*b))
    assert sorted([ours(*b), ours(*a)]) == sorted([ours(*a), ours(*b)])
    with pytest.raises(TypeError):
        ours(*a) < theirs(*b)  # noqa: B015 - another class does not compare


def test_methods_the_class_writes_itself_are_kept():
    @frozen
    class Named:
        """Equal by name, whatever its size; shown by name."""

        name: str
        size: int = 0

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Named) and other.name == self.name

        def __hash__(self) -> int:
            return hash(self.name)

        def __repr__(self) -> str:
            return f"<{self.name}>"

    assert Named("a", 1) == Named("a", 2)
    assert hash(Named("a", 1)) == hash("a")
    assert repr(Named("a")) == "<a>"


def test_a_class_writing_only_its_equality_still_gets_a_hash_as_the_dataclass_gives_it():
    def body(decorate):
        @decorate
        class Named:
            """Equal by name."""

            name: str

            def __eq__(self, other: object) -> bool:
                return isinstance(other, Named) and other.name == self.name

        return Named

    theirs, ours = twins(body)
    assert hash(ours("a")) == hash(theirs("a")) == hash(("a",))


@pytest.mark.skipif(not hasattr(dataclasses, "_create_fn"), reason="the dataclasses of Python 3.12 and before")
def test_only_init_and_the_two_that_keep_it_unchanged_are_compiled(monkeypatch):
    compiled = []
    create = dataclasses._create_fn

    def counted(name, *args, **kwargs):
        compiled.append(name)
        return create(name, *args, **kwargs)

    monkeypatch.setattr(dataclasses, "_create_fn", counted)
    ordered(frozen)
    assert sorted(compiled) == ["__delattr__", "__init__", "__setattr__"]
    compiled.clear()
    ordered(dataclass)
    assert len(compiled) == 10  # the same class made by dataclass: seven more
