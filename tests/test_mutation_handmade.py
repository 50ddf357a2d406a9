"""mutation/handmade.py: the sample of hand-made bugs stays a sample of this package's code.

Each bug's text must be found exactly once in its module, so that a change to the code
makes the sample fail here rather than quietly test nothing; the run itself (a copy of
the package, the module's own tests) is what `python mutation/handmade.py` does.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "mutation"))

from handmade import BUGS, main  # noqa: E402
from run import test_files as own_test_files  # noqa: E402


@pytest.mark.parametrize("bug", BUGS, ids=[f"{b.module}: {b.kind}" for b in BUGS])
def test_each_bug_is_made_in_one_place_of_a_module_that_has_tests(bug):
    assert (REPO / bug.module).read_text().count(bug.old) == 1
    assert bug.new != bug.old
    assert own_test_files(bug.module)


def test_the_sample_has_each_kind_of_slip_more_than_once():
    kinds = [b.kind.split(" (")[0] for b in BUGS]
    assert kinds.count("a lookup key that lost a part") >= 2
    assert len(set(b.module for b in BUGS)) >= 8


def test_list_prints_each_bug_with_its_two_texts(capsys):
    assert main(["--list"]) == 0
    printed = capsys.readouterr().out
    assert printed.count("\n    - ") == printed.count("\n    + ") == len(BUGS)
