"""generator/tools/refs/rules/base.py: what every rule of the judge shares.

A rule module becomes a registry entry (its ID, the first line of its docstring as its
summary, the rest as its documentation); references are worded the same way in every
finding (the object, the family, the name quoted as an excerpt); a list of names reads
``'a', 'b' or 'c'``; and a retired name's history is told step by step along its
replacements, ending with what to use, where the replacements stop, or that nothing
replaces it.
"""

from __future__ import annotations

from types import ModuleType
from typing import Iterator

from generator.model import Lifecycle
from generator.tools.refs.model import Owner
from generator.tools.refs.rules.base import RefRule, history, names, one_of, owner_text, quoted
from tests.refrules import ref


def test_a_module_becomes_its_id_summary_documentation_and_check():
    def check(resolutions: object, ctx: object) -> Iterator[object]:
        yield from ()

    module = ModuleType("toy", """One line of summary.

        The documentation, dedented,
        over two lines.
        """)
    module.ID, module.check = "toy-rule", check
    assert RefRule.from_module(module) == RefRule("toy-rule", "One line of summary.",
                                                  "The documentation, dedented,\nover two lines.", check)


def test_a_module_without_a_docstring_has_an_empty_summary_and_documentation():
    module = ModuleType("bare")
    module.ID, module.check = "bare", print
    assert RefRule.from_module(module) == RefRule("bare", "", "", print)


def test_a_name_is_quoted_on_one_line_as_an_excerpt():
    assert quoted("fedora") == "'fedora'"
    assert quoted("a\nb") == "'a\\nb'"
    assert quoted("a" * 61) == "'" + "a" * 60 + "... (1 more character)'"


def test_the_owner_reads_as_its_kind_and_namespaced_name():
    assert owner_text(Owner("k", "VirtualMachine", "web", "vms")) == "VirtualMachine vms/web"
    assert owner_text(Owner("k", "VirtualMachine", "web", None)) == "VirtualMachine web"
    assert owner_text(Owner("k", "", "centos", None)) == "object centos"
    assert owner_text(Owner("k", "ConfigMap", None, "x")) == "ConfigMap"
    assert owner_text(Owner("k", "", None, None)) == "an object"
    assert owner_text(Owner("k", "VM", "n" * 61, None)) == "VM " + "n" * 60 + "... (1 more character)"


def test_a_reference_reads_as_its_owner_naming_its_family_and_name():
    assert names(ref("preference", "fedora")) == "names preference 'fedora'"
    assert names(ref("instancetype", None)) == "names an instancetype known only when applied"
    assert names(ref("preference", None)) == "names a preference known only when applied"


def test_one_two_and_three_names_read_as_a_sentence():
    assert one_of(["a"]) == "'a'"
    assert one_of(["a", "b"]) == "'a' or 'b'"
    assert one_of(["a", "b", "c"]) == "'a', 'b' or 'c'"


#: b was retired in v2 for c, which is current; x was deprecated, with no release said.
STEPS = {("preference", "b"): Lifecycle("preference", "b", "retired", since="v2", replacement="c", chain=("c",),
                                        current="c"),
         ("preference", "x"): Lifecycle("preference", "x", "deprecated")}


def test_a_history_follows_the_replacements_to_what_to_use():
    renamed = Lifecycle("preference", "a", "retired", since="v1", replacement="b", chain=("b", "c"), current="c",
                        renamed=True)
    assert history(renamed, STEPS, "T") == "a was renamed b in v1, then b was removed in v2; use 'c'"
    succeeded = Lifecycle("preference", "a", "retired", since="v1", replacement="b", chain=("b", "c"), current="c")
    assert history(succeeded, STEPS, "T") == "a was removed in v1, then b was removed in v2; use 'c'"


def test_a_history_that_stops_short_of_a_current_object_says_where():
    stopped = Lifecycle("preference", "a", "retired", since="v1", replacement="b", chain=("b",))
    assert history(stopped, STEPS, "T") == (
        "a was removed in v1, then b was removed in v2; its replacements end at 'b', which T does not hold")
    deprecated = Lifecycle("preference", "a", "deprecated", since="v3", replacement="x", chain=("x", "z"))
    assert history(deprecated, STEPS, "T") == (  # z has no record: the steps stop at x
        "a was deprecated in v3, then x was deprecated; its replacements end at 'z', which T does not hold")


def test_a_history_that_goes_round_in_a_circle_says_so():
    circle = Lifecycle("preference", "a", "retired", since="v1", replacement="b", chain=("b", "a"))
    steps = {**STEPS, ("preference", "b"): Lifecycle("preference", "b", "retired", since="v2", replacement="a"),
             ("preference", "a"): circle}
    assert history(circle, steps, "T") == (  # each step told once
        "a was removed in v1, then b was removed in v2; its replacements go round in a "
        "circle (a -> b -> a), which reaches no current object")


def test_a_history_without_a_replacement_says_nothing_replaces_it():
    assert history(Lifecycle("preference", "a", "retired"), STEPS, "T") == "a was removed; nothing replaces it"
