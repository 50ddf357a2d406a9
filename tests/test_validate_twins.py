"""A build's twins are judged once: validate_documents skips a twin its first passed, and only then.

A build parses each cluster document once and makes its namespaced twin of the very
same metadata and spec (parse.py). A rule that judges each document by itself, and a
twin alike (``TWINS_ALIKE``, or ``twins_alike(ctx)``), runs on a twin only when it had
something to say of its first; its findings must be exactly those of judging every
document on its own. These tests hold the two ways to the same answer.
"""

from __future__ import annotations

import copy

import pytest

from generator.model import API_VERSION
from generator.schemas import twins_alike as schemas_alike
from generator.schemas.releases import known
from generator.source.documents import BundleDoc
from generator.problems import Problem
from generator.validate import _run, _twins, validate_documents
from generator.validate.rules import CHECKS, Rule, RuleContext

CLUSTER, NAMESPACED = "VirtualMachineClusterInstancetype", "VirtualMachineInstancetype"
LABELS = {"instancetype.kubevirt.io/vendor": "kubevirt.io", "instancetype.kubevirt.io/cpu": "2"}


def cluster(name: str = "u1.large", **spec: object) -> dict:
    return {"apiVersion": API_VERSION, "kind": CLUSTER, "metadata": {"name": name, "labels": dict(LABELS)},
            "spec": {"cpu": {"guest": 2}, "memory": {"guest": "8Gi"}, **spec}}


def as_built(*firsts: dict) -> list[BundleDoc]:
    """The documents as a build parses them: each namespaced twin shares its first's metadata and spec."""
    data = [*firsts, *({**first, "kind": NAMESPACED} for first in firsts)]
    return [BundleDoc("bundle.yaml", i, d) for i, d in enumerate(data)]


def as_read(docs: list[BundleDoc]) -> list[BundleDoc]:
    """The same documents as a reader of a file gives them: nothing shared."""
    return [BundleDoc(d.file, d.index, copy.deepcopy(d.data)) for d in docs]


def found(docs: list[BundleDoc]) -> list[tuple]:
    return [(p.location.doc, p.location.path, p.message, p.rule) for p in validate_documents(docs, RuleContext())]


def test_a_build_s_namespaced_documents_are_the_twins_of_its_cluster_ones():
    docs = as_built(cluster("u1.large"), cluster("u1.xlarge"))
    assert _twins(docs) == {2: 0, 3: 1}


def test_documents_equal_but_not_shared_are_no_twins_and_each_is_judged():
    assert _twins(as_read(as_built(cluster()))) == {}


def test_the_same_object_twice_in_one_kind_is_no_twin():
    one = cluster()
    docs = [BundleDoc("bundle.yaml", 0, one), BundleDoc("bundle.yaml", 1, one)]
    assert _twins(docs) == {}


def test_a_document_of_another_family_sharing_the_metadata_is_no_twin():
    one = cluster()
    other = {**one, "kind": "VirtualMachinePreference"}
    assert _twins([BundleDoc("b.yaml", 0, one), BundleDoc("b.yaml", 1, other)]) == {}


def test_a_twin_with_another_apiversion_is_no_twin():
    one = cluster()
    other = {**one, "kind": NAMESPACED, "apiVersion": "instancetype.kubevirt.io/v1alpha2"}
    assert _twins([BundleDoc("b.yaml", 0, one), BundleDoc("b.yaml", 1, other)]) == {}


@pytest.mark.parametrize("first", [
    cluster(),
    cluster(cpu={"guest": -1}),
    cluster(memory={"guest": "8Gi", "overcommitPercent": 150}),
    cluster(memory={"guest": "8Gi", "overcommitPercent": 10, "hugepages": {"pageSize": "2Mi"}}),
    cluster(launchSecurity={}),
    cluster(cpu={"guest": 2, "gueest": 1}),
    cluster("u1.Large"),
    cluster("not-a-series"),
], ids=["clean", "negative-cpu", "overcommit-150", "overcommit-hugepages", "launch-security", "unknown-field",
        "bad-name", "bad-grammar"])
def test_judging_twins_once_finds_exactly_what_judging_each_document_finds(first):
    docs = as_built(first, cluster("u1.small", cpu={"guest": 1}, memory={"guest": "2Gi"}))
    assert _twins(docs)
    assert found(docs) == found(as_read(docs))


def test_a_finding_on_a_first_is_made_on_its_twin_too_at_the_twin_s_place():
    docs = as_built(cluster(cpu={"guest": -1}))
    places = {(doc, path) for doc, path, _, rule in found(docs) if rule == "webhook-decode"}
    assert places == {(0, ("spec", "cpu", "guest")), (1, ("spec", "cpu", "guest"))}


def test_the_rules_that_judge_twins_alike_are_those_that_judge_each_document_by_itself():
    alike = {rule_id for rule_id, rule in CHECKS.items() if rule.twins_alike is not None}
    assert alike == {"schema", "api-version", "object-metadata", "name-grammar", "known-labels",
                     "labels-match-spec", "series-ratio", "webhook-decode", "webhook-overcommit",
                     "webhook-cpu-topology", "webhook-spread-options", "webhook-launch-security"}
    # relations between documents are judged on every one of them
    assert {"unique-names", "twins-identical", "vendor-label", "requirements-met"}.isdisjoint(alike)


@pytest.mark.parametrize("release", known(), ids=str)
def test_every_release_s_schemas_of_twin_kinds_differ_only_in_kind(release):
    assert schemas_alike(release)


def toy_rule(seen: list[int], alike) -> Rule:
    """A rule that notes each document it judges and finds something in u1.bad alone."""
    def check(docs, ctx):
        for doc in docs:
            seen.append(doc.index)
            if doc.name == "u1.bad":
                yield Problem(doc.locate(), "bad", "toy")

    return Rule("toy", "A toy.", "", check, twins_alike=alike)


def test_a_rule_judges_a_twin_only_where_its_first_had_a_finding():
    seen: list[int] = []
    docs = as_built(cluster("u1.good"), cluster("u1.bad"))
    problems = _run(toy_rule(seen, lambda ctx: True), docs, RuleContext(), _twins(docs))
    assert seen == [0, 1, 3]
    assert sorted(p.location.doc for p in problems) == [1, 3]


@pytest.mark.parametrize("alike", [None, lambda ctx: False], ids=["not-declared", "not-under-this-context"])
def test_a_rule_that_may_not_skip_twins_judges_every_document(alike):
    seen: list[int] = []
    docs = as_built(cluster("u1.good"), cluster("u1.bad"))
    problems = _run(toy_rule(seen, alike), docs, RuleContext(), _twins(docs))
    assert seen == [0, 1, 2, 3]
    assert sorted(p.location.doc for p in problems) == [1, 3]


def test_where_the_schemas_of_twin_kinds_differ_the_schema_check_judges_each_twin(monkeypatch):
    from generator.validate.rules import crd_schema

    assert crd_schema.twins_alike(RuleContext()) is True
    monkeypatch.setattr(crd_schema, "schemas_alike", lambda release: False)
    assert crd_schema.twins_alike(RuleContext()) is False
