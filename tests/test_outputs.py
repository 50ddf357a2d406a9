"""generator/outputs/__init__.py: every producer's files, batch by batch, gathered in the order they are laid out."""

from __future__ import annotations

from generator import outputs
from generator.outputs import OUTPUTS, each_output, output_files
from generator.outputs.helm import helm_batches
from generator.outputs.kustomize import kustomize_batches


def test_the_kustomize_tree_then_the_helm_chart_are_the_outputs_besides_the_bundles():
    assert OUTPUTS == [kustomize_batches, helm_batches]


def test_every_producer_is_given_the_same_context_and_its_files_are_gathered(monkeypatch):
    seen = []

    def first(ctx):
        seen.append(("first", ctx))
        yield {"a/one.yaml": b"1"}
        yield {"shared.txt": b"first"}

    def second(ctx):
        seen.append(("second", ctx))
        yield {"b/two.yaml": b"2", "shared.txt": b"second"}

    monkeypatch.setattr(outputs, "OUTPUTS", [first, second])
    context = object()
    files = output_files(context)  # type: ignore[arg-type]
    assert seen == [("first", context), ("second", context)]
    assert files == {"a/one.yaml": b"1", "shared.txt": b"second", "b/two.yaml": b"2"}  # a later producer wins
    assert list(files) == ["a/one.yaml", "shared.txt", "b/two.yaml"]


def test_no_producer_no_files(monkeypatch):
    monkeypatch.setattr(outputs, "OUTPUTS", [])
    assert output_files(object()) == {}  # type: ignore[arg-type]


def test_each_batch_is_given_as_soon_as_it_is_made(monkeypatch):
    made = []

    def producer(ctx):
        made.append("first")
        yield {"a": b"1"}
        made.append("second")
        yield {"b": b"2"}

    monkeypatch.setattr(outputs, "OUTPUTS", [producer])
    batches = each_output(object())  # type: ignore[arg-type]
    assert (next(batches), made) == ({"a": b"1"}, ["first"])  # the second is not made yet
    assert (next(batches), made) == ({"b": b"2"}, ["first", "second"])
