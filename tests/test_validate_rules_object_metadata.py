"""The object-metadata rule on its own: names, labels and annotations as the API server demands them."""

from __future__ import annotations

from generator.validate.rules import object_metadata

from tests.ruledocs import CIT, CPREF, findings, obj

SUBDOMAIN = ("a DNS-1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
             "and must start and end with an alphanumeric character")


def with_meta(**metadata) -> dict:
    found = obj(CPREF, "fedora")
    found["metadata"] = metadata
    return found


def test_metadata_the_api_server_accepts() -> None:
    fine = obj(CIT, "u1.large", {"cpu": "2", "example.com/empty": ""},
               annotations={"Example.com/Note": "any text at all: even this"})
    assert findings(object_metadata, fine) == []


def test_a_missing_empty_or_non_text_name() -> None:
    assert findings(object_metadata, with_meta(), with_meta(name=""), with_meta(name=7)) == [
        "b.yaml#0 $.metadata: metadata.name is required [object-metadata]",
        "b.yaml#1 $.metadata: metadata.name is required [object-metadata]",
        "b.yaml#2 $.metadata.name: metadata.name must be a string, got the integer 7 [object-metadata]"]


def test_a_name_that_is_no_subdomain() -> None:
    assert findings(object_metadata, obj(CIT, "U1.large")) == [
        f"b.yaml#0 (U1.large) $.metadata.name: 'U1.large' is not a valid object name: {SUBDOMAIN} "
        "[object-metadata]"]


def test_metadata_that_is_no_mapping() -> None:
    config = obj(CIT, "x")
    config["metadata"] = "x"
    assert findings(object_metadata, config, "not an object") == [
        "b.yaml#0 $.metadata: metadata must be a mapping holding at least the name [object-metadata]"]


def test_label_keys_and_values() -> None:
    bad = obj(CIT, "u1.large", {"example.com/a b": "ok", "example.com/good": "-x", "example.com/num": 4,
                                "example.com/flag": True})
    assert findings(object_metadata, bad) == [
        "b.yaml#0 (u1.large) $.metadata.labels['example.com/a b']: 'example.com/a b' is not a valid label key: "
        "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
        "alphanumeric character [object-metadata]",
        "b.yaml#0 (u1.large) $.metadata.labels['example.com/flag']: label 'example.com/flag' must have a string "
        "value, got the boolean true (quote it in YAML) [object-metadata]",
        "b.yaml#0 (u1.large) $.metadata.labels['example.com/good']: '-x' is not a valid label value: a valid "
        "label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
        "and end with an alphanumeric character [object-metadata]",
        "b.yaml#0 (u1.large) $.metadata.labels['example.com/num']: label 'example.com/num' must have a string "
        "value, got the integer 4 (quote it in YAML) [object-metadata]"]


def test_a_key_that_is_not_text() -> None:
    bad = obj(CIT, "u1.large", annotations={5: "x"})
    assert findings(object_metadata, bad) == [
        "b.yaml#0 (u1.large) $.metadata.annotations: annotation keys must be strings, got the integer 5 "
        "[object-metadata]"]


def test_annotation_values_are_any_text_and_keys_ignore_case() -> None:
    """An annotation value is free text; its key is a qualified name in any case."""
    fine = obj(CIT, "u1.large", annotations={"Example.COM/Display-Name": "-- not a label value --"})
    assert findings(object_metadata, fine) == []
    bad = obj(CIT, "u1.large", annotations={"a/b/c": "x", "ok/fine": 1})
    assert findings(object_metadata, bad) == [
        "b.yaml#0 (u1.large) $.metadata.annotations['a/b/c']: 'a/b/c' is not a valid annotation key: a qualified "
        "name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
        "alphanumeric character, with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName') "
        "[object-metadata]",
        "b.yaml#0 (u1.large) $.metadata.annotations['ok/fine']: annotation 'ok/fine' must have a string value, "
        "got the integer 1 (quote it in YAML) [object-metadata]"]


def test_labels_or_annotations_that_are_no_mapping() -> None:
    bad = obj(CIT, "u1.large", annotations=["a"])
    bad["metadata"]["labels"] = "cpu=2"
    assert findings(object_metadata, bad) == [
        "b.yaml#0 (u1.large) $.metadata.annotations: metadata.annotations must be a mapping of strings to "
        "strings, got a list [object-metadata]",
        "b.yaml#0 (u1.large) $.metadata.labels: metadata.labels must be a mapping of strings to strings, "
        "got 'cpu=2' [object-metadata]"]


def test_annotations_may_take_256_kib_together_and_no_more() -> None:
    key = "example.com/a"
    fits = obj(CIT, "u1.large", annotations={key: "x" * (256 * 1024 - len(key))})
    assert findings(object_metadata, fits) == []
    over = obj(CIT, "u1.large", annotations={key: "x" * (256 * 1024 - len(key) + 1)})
    assert findings(object_metadata, over) == [
        "b.yaml#0 (u1.large) $.metadata.annotations: annotations take 262145 bytes (keys and values together), "
        "more than the 262144 bytes (256 KiB) the API server allows on one object [object-metadata]"]


def test_every_key_of_a_mapping_is_checked_after_one_that_is_not_text() -> None:
    bad = obj(CIT, "u1.large", annotations={5: "x", "example.com/a b": "y"})
    assert findings(object_metadata, bad) == [
        "b.yaml#0 (u1.large) $.metadata.annotations: annotation keys must be strings, got the integer 5 "
        "[object-metadata]",
        "b.yaml#0 (u1.large) $.metadata.annotations['example.com/a b']: 'example.com/a b' is not a valid "
        "annotation key: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and "
        "end with an alphanumeric character [object-metadata]"]


def test_documents_after_one_that_is_no_object_or_has_no_metadata_are_checked() -> None:
    config = obj(CIT, "x")
    config["metadata"] = "x"
    assert findings(object_metadata, "not an object", config, obj(CIT, "U1.large")) == [
        "b.yaml#1 $.metadata: metadata must be a mapping holding at least the name [object-metadata]",
        f"b.yaml#2 (U1.large) $.metadata.name: 'U1.large' is not a valid object name: {SUBDOMAIN} "
        "[object-metadata]"]
