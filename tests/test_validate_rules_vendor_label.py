"""The vendor-label rule on its own: every object carries one vendor, the given one or the set's."""

from __future__ import annotations

from generator.source.documents import BundleDoc
from generator.validate.rules import vendor_label
from generator.validate.rules.base import RuleContext

from tests.ruledocs import CIT, CPREF, findings, obj

KEY = "instancetype.kubevirt.io/vendor"
ACME = RuleContext(vendor="acme.com")


def by(vendor: str | None, name: str = "u1.large", kind: str = CIT) -> dict:
    return obj(kind, name, {} if vendor is None else {"vendor": vendor})


def test_the_given_vendor_on_every_object_passes() -> None:
    assert findings(vendor_label, by("acme.com"), by("acme.com", "fedora", CPREF), ctx=ACME) == []


def test_against_a_given_vendor() -> None:
    assert findings(vendor_label, by("kubevirt.io"), by(None, "u1.small"), ctx=ACME) == [
        f"b.yaml#0 (u1.large) $.metadata.labels['{KEY}']: label {KEY} is 'kubevirt.io', expected 'acme.com' "
        "[vendor-label]",
        f"b.yaml#1 (u1.small) $.metadata.labels: label {KEY} is missing (expected 'acme.com') [vendor-label]"]


def test_without_a_given_vendor_the_most_common_one_is_expected() -> None:
    assert findings(vendor_label, by("one.io", "a.x"), by("two.io", "b.x"), by("two.io", "c.x"), by(None, "d.x")) == [
        f"b.yaml#0 (a.x) $.metadata.labels['{KEY}']: label {KEY} is 'one.io', but 2 of 4 objects have "
        "'two.io': one bundle, one vendor (name the right one with --vendor or --catalog) [vendor-label]",
        f"b.yaml#3 (d.x) $.metadata.labels: label {KEY} is missing, but 2 of 4 objects have 'two.io' "
        "[vendor-label]"]


def test_a_tie_goes_to_the_vendor_met_first() -> None:
    objects = [by("two.io", "a.x"), by("one.io", "b.x"), by("one.io", "c.x"), by("two.io", "d.x")]
    agreement = vendor_label.agreed_vendor([BundleDoc("b.yaml", i, data) for i, data in enumerate(objects)])
    assert agreement == vendor_label.Agreement("two.io", 2, 4)


def test_when_no_object_carries_one() -> None:
    assert findings(vendor_label, by(None), by(None, "u1.small", CPREF)) == [
        f"b.yaml#0 (u1.large) $.metadata.labels: label {KEY} is missing [vendor-label]",
        f"b.yaml#1 (u1.small) $.metadata.labels: label {KEY} is missing [vendor-label]"]
    assert vendor_label.agreed_vendor([]) is None


def test_other_kinds_are_neither_checked_nor_counted() -> None:
    config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "labels": {KEY: "other.io"}}}
    assert findings(vendor_label, config, by("one.io"), config) == []


def test_documents_of_another_kind_do_not_stop_the_check_of_the_ones_after_them() -> None:
    config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}
    assert findings(vendor_label, config, by("kubevirt.io"), ctx=ACME) == [
        f"b.yaml#1 (u1.large) $.metadata.labels['{KEY}']: label {KEY} is 'kubevirt.io', expected 'acme.com' "
        "[vendor-label]"]
