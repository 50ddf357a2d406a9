"""generator/tools/osinfo/osmap.py: a guest-OS table as a ConfigMap, and two tables compared."""

from __future__ import annotations

import yaml

from generator.source.yamlsrc import load_text
from generator.tools.osinfo.osmap import CONFIGMAP_NAMES, Difference, compare, configmap


def test_a_table_is_a_configmap_of_forklift_s_name_its_keys_sorted_and_what_made_it_said_first():
    text = configmap("vsphere", {"rhel9_64Guest": "rhel.9", "fedoraGuest": "fedora"}, None, "made by\ncitgen")
    assert text == ("---\n# made by\n# citgen\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
                    "forklift-vsphere-osmap\ndata:\n  fedoraGuest: fedora\n  rhel9_64Guest: rhel.9\n")


def test_a_namespace_is_written_only_when_given():
    assert yaml.safe_load(configmap("ovirt", {}, "openshift-mtv", ""))["metadata"] == {
        "name": "forklift-ovirt-osmap", "namespace": "openshift-mtv"}


def test_values_that_yaml_would_read_otherwise_are_quoted_and_read_back_as_written():
    data = {"yes": "no", "1.10": "on", "a: b": "#c"}
    text = configmap("osinfo", data, None, "x")
    assert load_text(text, "osmap.yaml").data["data"] == data  # citgen's own strict reader: no YAML 1.1 surprises


def test_each_table_has_forklift_s_configmap_name_but_the_one_keyed_by_libosinfo():
    assert CONFIGMAP_NAMES == {"vsphere": "forklift-vsphere-osmap", "ovirt": "forklift-ovirt-osmap",
                               "osinfo": "osinfo-osmap"}


def test_two_tables_compared_say_where_they_agree_and_each_difference():
    same, differ = compare({"a": "x", "b": "y", "c": "z"}, {"a": "x", "b": "w", "d": "v"})
    assert same == ("a",)
    assert differ == (Difference("b", "y", "w"), Difference("c", "z", None), Difference("d", None, "v"))
