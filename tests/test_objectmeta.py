"""objectmeta.py on its own: names, label keys and values and annotations, as apimachinery checks them."""

from __future__ import annotations

import pytest

from generator.objectmeta import (ANNOTATIONS_SIZE_MAX, annotation_key_problem, annotations_size,
                                  annotations_size_problem, dns_label_errors, label_key_problem, label_value_problem,
                                  name_problem, namespace_problem, qualified_name_errors, subdomain_errors, type_name)

SUBDOMAIN = ("a DNS-1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
             "and end with an alphanumeric character")
QUALIFIED = ("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
             "character")
VALUE = ("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
         "start and end with an alphanumeric character")


@pytest.mark.parametrize("name", ["a", "u1.large", "cx1.2xlarge1gi", "windows.11.virtio", "a-b", "0", "a" * 253,
                                  ".".join(["a" * 63] * 4)[:253]])
def test_names_that_are_subdomains(name) -> None:
    assert name_problem(name) is None


@pytest.mark.parametrize("name, errors", [
    ("U1.large", [SUBDOMAIN]), ("-a", [SUBDOMAIN]), ("a-", [SUBDOMAIN]), ("a..b", [SUBDOMAIN]), ("a_b", [SUBDOMAIN]),
    ("", [SUBDOMAIN]), (".a", [SUBDOMAIN]), ("a" * 254, ["must be no more than 253 characters"]),
    ("A" * 254, ["must be no more than 253 characters", SUBDOMAIN]),
])
def test_names_that_are_not(name, errors) -> None:
    assert subdomain_errors(name) == errors
    assert name_problem(name) == f"{name!r} is not a valid object name: {'; '.join(errors)}"


LABEL = ("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "
         "end with an alphanumeric character")


@pytest.mark.parametrize("name, errors", [
    ("openshift-mtv", []), ("a", []), ("0", []), ("a" * 63, []),
    ("a.b", [LABEL]), ("A", [LABEL]), ("-a", [LABEL]), ("a-", [LABEL]), ("", [LABEL]), ("a_b", [LABEL]),
    ("a" * 64, ["must be no more than 63 characters"]), ("a\n", [LABEL]),
])
def test_namespace_names_are_dns_labels(name, errors) -> None:
    assert dns_label_errors(name) == errors
    assert namespace_problem(name) == (f"{name!r} is not a valid namespace name: {'; '.join(errors)}" if errors else None)


@pytest.mark.parametrize("key", ["cpu", "instancetype.kubevirt.io/cpu", "A_b.C-9", "a" * 63, "example.com/" + "a" * 63,
                                 "x/y"])
def test_label_keys_that_are_qualified_names(key) -> None:
    assert qualified_name_errors(key) == []
    assert label_key_problem(key) is None


@pytest.mark.parametrize("key, errors", [
    ("a b", [f"name part {QUALIFIED}"]),
    ("-a", [f"name part {QUALIFIED}"]),
    ("a" * 64, ["name part must be no more than 63 characters"]),
    ("/a", ["prefix part must be non-empty"]),
    ("a/", ["name part must be non-empty"]),
    ("/", ["prefix part must be non-empty", "name part must be non-empty"]),
    ("Example.com/a", [f"prefix part {SUBDOMAIN}"]),
    ("a" * 254 + "/a", ["prefix part must be no more than 253 characters"]),
    ("a/b/c", [f"a qualified name {QUALIFIED}, with an optional DNS subdomain prefix and '/' "
               "(e.g. 'example.com/MyName')"]),
    ("é", [f"name part {QUALIFIED}"]),
])
def test_label_keys_that_are_not(key, errors) -> None:
    assert qualified_name_errors(key) == errors
    assert label_key_problem(key) == f"{key!r} is not a valid label key: {'; '.join(errors)}"


@pytest.mark.parametrize("value", ["", "a", "true", "4Gi", "a.b_c-d", "A" * 63])
def test_label_values_the_api_server_takes(value) -> None:
    assert label_value_problem(value) is None


@pytest.mark.parametrize("value, errors", [
    ("a b", [VALUE]), ("-a", [VALUE]), ("a-", [VALUE]), ("a/b", [VALUE]),
    ("a" * 64, ["must be no more than 63 characters"]),
    ("é" * 32, ["must be no more than 63 characters", VALUE]),  # 64 bytes of UTF-8
])
def test_label_values_it_refuses(value, errors) -> None:
    assert label_value_problem(value) == f"{value!r} is not a valid label value: {'; '.join(errors)}"


def test_annotation_keys_ignore_case() -> None:
    assert annotation_key_problem("Example.COM/Display-Name") is None
    assert annotation_key_problem("a b") == f"'a b' is not a valid annotation key: name part {QUALIFIED}"


def test_annotations_size_counts_bytes_of_keys_and_values() -> None:
    assert annotations_size({"ab": "cd", "é": "€"}) == 2 + 2 + 2 + 3
    assert annotations_size({1: "ab", "cd": None}) == 4


def test_annotations_may_take_256_kib() -> None:
    assert annotations_size_problem({"k": "v" * (ANNOTATIONS_SIZE_MAX - 1)}) is None
    assert annotations_size_problem({"k": "v" * ANNOTATIONS_SIZE_MAX}) == (
        "annotations take 262145 bytes (keys and values together), more than the 262144 bytes (256 KiB) the API "
        "server allows on one object")
    # a quarter of the limit in characters, each of four bytes: exactly the limit, allowed
    assert annotations_size_problem({"k": "\U0001F600" * (ANNOTATIONS_SIZE_MAX // 4 - 1) + "abc"}) is None
    assert annotations_size_problem({"k": "\U0001F600" * (ANNOTATIONS_SIZE_MAX // 4)}) is not None
    assert annotations_size_problem({5: "v" * ANNOTATIONS_SIZE_MAX}) is None  # a non-text key counts nothing


@pytest.mark.parametrize("value, name", [(True, "the boolean true"), (False, "the boolean false"),
                                         (5, "the integer 5"), (1.5, "the number 1.5"), (None, "nothing (null)"),
                                         ({}, "a mapping"), ([], "a list"), ("x", "'x'")])
def test_type_names_in_messages(value, name) -> None:
    assert type_name(value) == name
