"""generator/source/yamlsrc.py: iter_documents(..., kept=[]), reading on past a document's own problems.

citgen's catalog files are refused for a duplicate key; ``citgen refs`` reads other
people's manifests, where a duplicate key (a migration tool's guest-OS map ships one)
must not hide the rest of the file. With ``kept``, the problems of a document's own
values go to that list and the document is handed on without the values they
refused; what stops the reading itself is raised all the same.
"""

from __future__ import annotations

import pytest

from generator.errors import InputError
from generator.problems import Problem
from generator.source.yamlsrc import iter_documents

DUPLICATE = "data:\n  a: first\n  a: second\n  b: kept\n---\nnext: 1\n"


def test_without_kept_a_duplicate_key_refuses_the_stream():
    with pytest.raises(InputError) as caught:
        list(iter_documents(DUPLICATE, "m.yaml"))
    assert [str(p) for p in caught.value.problems] == ["m.yaml:3:3: data.a: duplicate key 'a' (first at line 2)"]


def test_with_kept_the_document_is_handed_on_with_its_first_value_and_the_next_is_read():
    kept: list[Problem] = []
    documents = [(d.index, d.data) for d in iter_documents(DUPLICATE, "m.yaml", kept=kept)]
    assert documents == [(0, {"data": {"a": "first", "b": "kept"}}), (1, {"next": 1})]
    assert [str(p) for p in kept] == ["m.yaml:3:3: data.a: duplicate key 'a' (first at line 2)"]


def test_the_problems_are_kept_by_the_time_their_document_is_handed_on():
    kept: list[Problem] = []
    documents = iter_documents("a: !!python/name:os.system x\nb: 1\n", "m.yaml", kept=kept)
    first = next(documents)
    assert first.data == {"a": "x", "b": 1}
    assert [p.message for p in kept] == [
        "unknown tag '!!python/name:os.system'; citgen reads only plain YAML values (tags !!str, !!int, !!float, "
        "!!bool, !!null, !!map, !!seq)"]


def test_with_kept_what_stops_the_reading_is_still_raised():
    kept: list[Problem] = []
    with pytest.raises(InputError) as caught:
        list(iter_documents("a: [1, 2\n", "m.yaml", kept=kept))
    assert caught.value.problems[0].message.startswith("malformed YAML: ")
    assert kept == []
