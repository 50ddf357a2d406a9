"""generator/validate/rules/base.py: an object's release, the context rules get and a rule module's entry.

``release_of`` and ``predates`` date an object against a check's ``since``;
``RuleContext.from_catalog`` derives each series' ratio and exempt sizes from a
catalog written out here; ``Rule.from_module`` reads a rule module's constants.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from types import ModuleType

import pytest

from generator.model import Catalog, Series, Settings, Size, SizeMatrix, Variant
from generator.problems import Location
from generator.schemas.releases import newest
from generator.source.documents import BundleDoc
from generator.validate.rules.base import UPSTREAM_VENDOR, Rule, RuleContext, SeriesRatio, predates, release_of

from tests.ruledocs import instancetype, preference

HERE = Location("catalog.yaml")
GI = 1024**3


def labelled(**labels) -> BundleDoc:
    """A preference with these labels (short keys get the instancetype.kubevirt.io/ prefix)."""
    return BundleDoc("b.yaml", 0, preference(labels=labels))


# --------------------------------------------------------------------------- release_of


@pytest.mark.parametrize("version", ["v1.0.0", "v1.1.0-rc.1", "1.2.0", "v1"])
def test_an_upstream_object_was_shipped_in_the_release_its_version_label_names(version: str) -> None:
    assert release_of(labelled(vendor="kubevirt.io", **{"common-instancetypes-version": version})) == version


def test_the_upstream_vendor_is_kubevirts_own() -> None:
    assert UPSTREAM_VENDOR == "kubevirt.io"


@pytest.mark.parametrize("vendor", ["example.com", "KubeVirt.io", "", None])
def test_a_vendors_version_label_dates_nothing(vendor) -> None:
    assert release_of(labelled(vendor=vendor, **{"common-instancetypes-version": "v1.0.0"})) is None


def test_an_object_without_a_vendor_label_has_no_release() -> None:
    assert release_of(labelled(**{"common-instancetypes-version": "v1.0.0"})) is None


@pytest.mark.parametrize("version", ["not-a-version", "", "v1.0.0.x", "latest"])
def test_a_version_label_that_reads_as_no_version_gives_no_release(version: str) -> None:
    assert release_of(labelled(vendor="kubevirt.io", **{"common-instancetypes-version": version})) is None


@pytest.mark.parametrize("version", [1, 1.0, None, ["v1.0.0"], {"v": "1.0.0"}])
def test_a_version_label_that_is_no_text_gives_no_release(version) -> None:
    assert release_of(labelled(vendor="kubevirt.io", **{"common-instancetypes-version": version})) is None


def test_an_object_without_a_version_label_has_no_release() -> None:
    assert release_of(labelled(vendor="kubevirt.io")) is None


@pytest.mark.parametrize("data", [
    {"metadata": {"labels": ["instancetype.kubevirt.io/vendor"]}},
    {"metadata": None},
    None,
])
def test_a_malformed_object_has_no_release(data) -> None:
    assert release_of(BundleDoc("b.yaml", 0, data)) is None


def test_labels_of_other_prefixes_do_not_count() -> None:
    doc = BundleDoc("b.yaml", 0, instancetype(labels={"example.com/vendor": "kubevirt.io",
                                                      "example.com/common-instancetypes-version": "v1.0.0"}))
    assert release_of(doc) is None


# --------------------------------------------------------------------------- predates


@pytest.mark.parametrize("release, since", [
    ("v1.0.0", "v1.1.0"),
    ("v1.1.0-rc.1", "v1.1.0"),
    ("v0.9.9", "v1.0.0"),
    ("v1.9.0", "v1.10.0"),  # as versions, not as text
])
def test_a_release_before_the_check_predates_it(release: str, since: str) -> None:
    assert predates(release, since) is True


@pytest.mark.parametrize("release, since", [
    ("v1.1.0", "v1.1.0"),  # the release that introduced the check is held to it
    ("v1.1.0", "1.1.0"),
    ("v1.2.0", "v1.1.0"),
    ("v1.1.0", "v1.1.0-rc.1"),
    ("v1.10.0", "v1.9.0"),
])
def test_a_release_at_or_after_the_check_does_not_predate_it(release: str, since: str) -> None:
    assert predates(release, since) is False


@pytest.mark.parametrize("release, since", [("junk", "v1.1.0"), ("v1.0.0", "junk"), ("junk", "junk")])
def test_what_is_no_version_predates_nothing(release: str, since: str) -> None:
    assert predates(release, since) is False


# --------------------------------------------------------------------------- RuleContext


def test_the_default_context_knows_no_vendor_nor_series_and_judges_by_the_newest_release() -> None:
    ctx = RuleContext()
    assert ctx.vendor is None
    assert ctx.series == {}
    assert ctx.kubevirt == newest()


def settings(vendor: str = "example.com") -> Settings:
    return Settings(vendor=vendor, version="v1.0.0", parameters={}, provider={}, location=HERE)


def series(prefix: str, ratio: Fraction, matrix: str = "standard", suffixes: tuple[str, ...] = ()) -> Series:
    return Series(prefix=prefix, version=1, cls="general.purpose", display_name=prefix, description="",
                  icon="", ratio=ratio, matrix=matrix, sizes=(), features={}, spec={},
                  variants=tuple(Variant(s, {}, HERE) for s in suffixes), deprecated=False, location=HERE)


STANDARD = SizeMatrix("standard", (
    Size("nano", 1, GI // 2, HERE),
    Size("small", 1, 2 * GI, HERE),
    Size("medium", 1, None, HERE),
    Size("2xmedium", 2, 4 * GI, HERE),
    Size("large", 2, None, HERE),
), HERE)
PLAIN = SizeMatrix("plain", (Size("large", 2, None, HERE), Size("xlarge", 4, None, HERE)), HERE)


def catalog(*all_series: Series, vendor: str = "example.com") -> Catalog:
    return Catalog(root=Path("catalog"), settings=settings(vendor),
                   matrices={"standard": STANDARD, "plain": PLAIN}, series=all_series)


def test_a_catalogs_context_holds_its_vendor() -> None:
    assert RuleContext.from_catalog(catalog(vendor="example.com")).vendor == "example.com"
    assert RuleContext.from_catalog(catalog(vendor="kubevirt.io")).vendor == "kubevirt.io"


def test_a_catalogs_context_judges_by_the_newest_release() -> None:
    assert RuleContext.from_catalog(catalog()).kubevirt == newest()


def test_the_sizes_whose_matrix_fixes_their_memory_are_the_exceptions_of_a_series() -> None:
    ctx = RuleContext.from_catalog(catalog(series("u", Fraction(4))))
    assert ctx.series == {"u1": SeriesRatio(Fraction(4), frozenset({"nano", "small", "2xmedium"}))}


def test_each_variant_adds_the_fixed_sizes_with_its_suffix() -> None:
    ctx = RuleContext.from_catalog(catalog(series("cx", Fraction(2), suffixes=("1gi", "np"))))
    assert ctx.series == {"cx1": SeriesRatio(Fraction(2), frozenset({
        "nano", "small", "2xmedium", "nano1gi", "small1gi", "2xmedium1gi", "nanonp", "smallnp", "2xmediumnp"}))}


def test_a_matrix_without_fixed_sizes_exempts_nothing() -> None:
    ctx = RuleContext.from_catalog(catalog(series("o", Fraction(1, 2), matrix="plain", suffixes=("x",))))
    assert ctx.series == {"o1": SeriesRatio(Fraction(1, 2), frozenset())}


def test_a_series_of_a_matrix_the_catalog_lacks_exempts_nothing() -> None:
    ctx = RuleContext.from_catalog(catalog(series("m", Fraction(8), matrix="missing")))
    assert ctx.series == {"m1": SeriesRatio(Fraction(8), frozenset())}


def test_every_series_of_the_catalog_gets_its_own_ratio() -> None:
    ctx = RuleContext.from_catalog(catalog(series("u", Fraction(4)), series("o", Fraction(1, 2), matrix="plain")))
    assert ctx.series == {"u1": SeriesRatio(Fraction(4), frozenset({"nano", "small", "2xmedium"})),
                          "o1": SeriesRatio(Fraction(1, 2), frozenset())}


def test_a_catalog_without_series_gives_a_context_without_series() -> None:
    assert RuleContext.from_catalog(catalog()).series == {}


# --------------------------------------------------------------------------- Rule.from_module


def rule_module(doc: str | None, **constants) -> ModuleType:
    module = ModuleType("rules.example", doc)
    module.ID = "example"
    module.check = lambda docs, ctx: iter(())
    for name, value in constants.items():
        setattr(module, name, value)
    return module


def test_a_rules_summary_is_the_first_line_of_its_docstring_and_its_doc_the_rest() -> None:
    module = rule_module("""  Every object has a name.

        A longer explanation,
          indented as written.

        """)
    rule = Rule.from_module(module)
    assert rule.id == "example"
    assert rule.summary == "Every object has a name."
    assert rule.doc == "A longer explanation,\n  indented as written."
    assert rule.check is module.check


def test_a_one_line_docstring_is_the_summary_and_no_doc() -> None:
    rule = Rule.from_module(rule_module("Every object has a name.  "))
    assert (rule.summary, rule.doc) == ("Every object has a name.", "")


def test_a_rule_module_without_a_docstring_has_an_empty_summary_and_doc() -> None:
    rule = Rule.from_module(rule_module(None))
    assert (rule.summary, rule.doc) == ("", "")


def test_a_rule_is_no_admission_rule_unless_its_module_says_so() -> None:
    assert Rule.from_module(rule_module("A rule.")).admission is False
    assert Rule.from_module(rule_module("A rule.", ADMISSION=True)).admission is True