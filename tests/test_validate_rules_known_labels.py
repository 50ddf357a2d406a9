"""The known-labels rule on its own: labels under instancetype.kubevirt.io/ are the catalog's own."""

from __future__ import annotations

from generator.validate.rules import known_labels

from tests.ruledocs import CIT, CPREF, findings, obj


def test_known_labels_and_labels_of_other_prefixes_pass() -> None:
    labelled = obj(CIT, "u1.large", {"cpu": "2", "memory": "8Gi", "size": "large", "vendor": "kubevirt.io",
                                     "common-instancetypes-version": "v1.0.0", "example.com/cpu": "x",
                                     "example.org/team": "a", "app.kubernetes.io/name": "x"})
    labelled["metadata"]["labels"]["instancetypes"] = "no prefix at all"
    assert findings(known_labels, labelled) == []


def test_an_unknown_label_with_the_nearest_known_one() -> None:
    assert findings(known_labels, obj(CPREF, "fedora", {"os_type": "linux"})) == [
        "b.yaml#0 (fedora) $.metadata.labels['instancetype.kubevirt.io/os_type']: unknown label "
        "'instancetype.kubevirt.io/os_type' (did you mean 'instancetype.kubevirt.io/os-type'?) [known-labels]"]


def test_an_unknown_label_like_no_known_one() -> None:
    assert findings(known_labels, obj(CIT, "u1.large", {"colour": "blue"})) == [
        "b.yaml#0 (u1.large) $.metadata.labels['instancetype.kubevirt.io/colour']: unknown label "
        "'instancetype.kubevirt.io/colour' [known-labels]"]


def test_the_prefix_alone_is_an_empty_name() -> None:
    """``instancetype.kubevirt.io/`` names no label at all, and is unknown."""
    found = findings(known_labels, obj(CIT, "u1.large", {"instancetype.kubevirt.io/": "x"}))
    assert found == ["b.yaml#0 (u1.large) $.metadata.labels['instancetype.kubevirt.io/']: unknown label "
                     "'instancetype.kubevirt.io/' [known-labels]"]


def test_every_label_the_catalog_writes_is_known() -> None:
    assert {"cpu", "memory", "size", "hugepages", "gpus", "numa", "realtime", "dedicatedCPUPlacement",
            "isolateEmulatorThread", "deprecated", "os-type", "required-cpu", "required-memory",
            "preferred-architecture", "required-architecture", "arch", "class", "icon-pf", "version",
            "vendor", "common-instancetypes-version"} == set(known_labels.KNOWN)


def test_labels_that_are_not_a_mapping_or_keys_that_are_not_text_are_left_to_other_rules() -> None:
    odd = obj(CIT, "u1.large")
    odd["metadata"]["labels"] = {1: "x", None: "y"}
    listed = obj(CIT, "u1.small")
    listed["metadata"]["labels"] = ["instancetype.kubevirt.io/colour"]
    assert findings(known_labels, odd, listed) == []


def test_every_label_of_an_object_is_looked_at_whatever_comes_before_it() -> None:
    """A known label, another prefix's label or a key that is no text before an unknown one hides nothing."""
    for before in ({"instancetype.kubevirt.io/cpu": "2"}, {"example.com/team": "a"}, {7: "x"}):
        labelled = obj(CIT, "u1.large")
        labelled["metadata"]["labels"] = {**before, "instancetype.kubevirt.io/colour": "blue"}
        assert findings(known_labels, labelled) == [
            "b.yaml#0 (u1.large) $.metadata.labels['instancetype.kubevirt.io/colour']: unknown label "
            "'instancetype.kubevirt.io/colour' [known-labels]"], before


def test_the_deprecation_annotations_beside_the_deprecated_label_pass() -> None:
    deprecated = obj(CIT, "o1.medium", {"deprecated": "true"})
    deprecated["metadata"]["annotations"] = {"instancetype.kubevirt.io/deprecated-since": "v1.9.0",
                                             "instancetype.kubevirt.io/deprecated-replacement": "u1.medium"}
    assert findings(known_labels, deprecated) == []
