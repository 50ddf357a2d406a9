"""The mutation round's list stays true to the code: each entry applies, names its test file and is documented.

The round itself (tests/mutation_round.py) takes minutes and is run by hand;
this keeps its list from rotting as the code changes.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.mutation_round import MUTATIONS, REPO, Mutation, apply, table

#: The modules issue 15 asks a mutation round of, each with at least three mutations
#: (a rule added later joins this list with its mutations and its test file).
COVERED = ["expand/instancetypes.py", "expand/preferences.py", "expand/traits.py", "quantity.py", "objectmeta.py",
           "write.py", "render/sandbox.py", "tools/diff.py", "query/selector.py", "parse.py", "load/gpu.py",
           *(f"validate/rules/{rule}.py" for rule in (
               "api_version", "known_labels", "labels_match_spec", "name_grammar", "object_metadata",
               "requirements_met", "series_ratio", "twins_identical", "unique_names", "vendor_label"))]


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: f"{m.module}: {m.what}")
def test_each_mutation_applies_once_and_changes_one_place(mutation: Mutation) -> None:
    source = (REPO / mutation.module).read_text(encoding="utf-8")
    mutated = apply(source, mutation)
    assert mutated != source
    assert len(mutated.splitlines()) == len(source.splitlines())  # a changed line, not a deleted one
    assert (REPO / mutation.tests).is_file()
    assert Path(mutation.tests).name.startswith("test_")


def test_a_mutation_that_no_longer_applies_is_refused_by_name() -> None:
    stale = Mutation("generator/quantity.py", "no such line", "x", "tests/test_quantity.py", "stale")
    with pytest.raises(ValueError) as raised:
        apply("source", stale)
    assert str(raised.value) == "generator/quantity.py: 'no such line' occurs 0 times, expected once"


@pytest.mark.parametrize("module", COVERED)
def test_every_module_of_the_round_has_three_mutations_or_more(module: str) -> None:
    assert Counter(m.module for m in MUTATIONS)[f"generator/{module}"] >= 3


def test_the_documented_table_lists_every_mutation() -> None:
    documented = (REPO / "docs" / "testing.md").read_text(encoding="utf-8")
    assert table([(m, True) for m in MUTATIONS]) in documented
