"""The twins-identical rule on its own: an object's namespaced kind says what its cluster kind says."""

from __future__ import annotations

import copy

from generator.validate.rules import twins_identical

from tests.ruledocs import CIT, NIT, NPREF, findings, instancetype, preference


def twins(cluster: dict) -> tuple[dict, dict]:
    namespaced = copy.deepcopy(cluster)
    namespaced["kind"] = NIT if cluster["kind"] == CIT else NPREF
    return cluster, namespaced


def test_twins_may_differ_in_kind_and_namespace_only() -> None:
    cluster, namespaced = twins(instancetype("u1.large", labels={"cpu": "2"}))
    namespaced["metadata"]["namespace"] = "default"
    assert findings(twins_identical, cluster, namespaced) == []


def test_a_difference_is_reported_on_the_namespaced_twin_with_both_values() -> None:
    cluster, namespaced = twins(instancetype("u1.large", labels={"cpu": "2"}))
    namespaced["metadata"]["labels"]["instancetype.kubevirt.io/cpu"] = "4"
    assert findings(twins_identical, cluster, namespaced) == [
        "b.yaml#1 (u1.large) $.metadata.labels['instancetype.kubevirt.io/cpu']: differs from its "
        "VirtualMachineClusterInstancetype twin at b.yaml#0: '4' here, '2' there [twins-identical]"]


def test_a_key_only_one_twin_has() -> None:
    cluster, namespaced = twins(preference("fedora", preferredArchitecture="amd64"))
    del namespaced["spec"]["preferredArchitecture"]
    namespaced["spec"]["extra"] = 1
    assert findings(twins_identical, namespaced, cluster) == [
        "b.yaml#0 (fedora) $.spec.extra: differs from its VirtualMachineClusterPreference twin at b.yaml#1: "
        "1 here, absent there [twins-identical]",
        "b.yaml#0 (fedora) $.spec.preferredArchitecture: differs from its VirtualMachineClusterPreference twin "
        "at b.yaml#1: absent here, 'amd64' there [twins-identical]"]


def test_lists_are_compared_item_by_item() -> None:
    cluster, namespaced = twins(instancetype("gn1.xlarge", gpus=[{"name": "a"}, {"name": "b"}]))
    namespaced["spec"]["gpus"] = [{"name": "a"}]
    assert findings(twins_identical, cluster, namespaced) == [
        "b.yaml#1 (gn1.xlarge) $.spec.gpus[1]: differs from its VirtualMachineClusterInstancetype twin at "
        "b.yaml#0: absent here, {'name': 'b'} there [twins-identical]"]


def test_values_equal_in_python_but_of_another_type_differ() -> None:
    """1 and True, 2 and 2.0 are equal to Python and different in YAML and to the API server."""
    cluster, namespaced = twins(instancetype("u1.large", cpu=2, ioThreadsPolicy=True))
    namespaced["spec"]["cpu"]["guest"] = 2.0
    namespaced["spec"]["ioThreadsPolicy"] = 1
    assert findings(twins_identical, cluster, namespaced) == [
        "b.yaml#1 (u1.large) $.spec.cpu.guest: differs from its VirtualMachineClusterInstancetype twin at "
        "b.yaml#0: 2.0 here, 2 there [twins-identical]",
        "b.yaml#1 (u1.large) $.spec.ioThreadsPolicy: differs from its VirtualMachineClusterInstancetype twin at "
        "b.yaml#0: 1 here, True there [twins-identical]"]


def test_quantities_are_compared_as_amounts_where_the_schema_has_one() -> None:
    """memory.guest is a quantity: 1Gi is 1024Mi. A label is text: '1Gi' and '1024Mi' differ."""
    cluster, namespaced = twins(instancetype("u1.large", memory="1Gi", labels={"memory": "1Gi"}))
    namespaced["spec"]["memory"]["guest"] = "1024Mi"
    assert findings(twins_identical, cluster, namespaced) == []
    namespaced["metadata"]["labels"]["instancetype.kubevirt.io/memory"] = "1024Mi"
    assert findings(twins_identical, cluster, namespaced) == [
        "b.yaml#1 (u1.large) $.metadata.labels['instancetype.kubevirt.io/memory']: differs from its "
        "VirtualMachineClusterInstancetype twin at b.yaml#0: '1024Mi' here, '1Gi' there [twins-identical]"]


def test_an_object_without_a_twin_and_same_names_across_families() -> None:
    """u1.large as an instancetype and as a preference are no twins of each other."""
    assert findings(twins_identical, instancetype("u1.large"), preference("u1.large", kind=NPREF),
                    instancetype("u1.small", kind=NIT)) == []


def test_the_first_object_of_a_kind_and_name_is_the_one_compared() -> None:
    cluster, namespaced = twins(instancetype("u1.large"))
    later = copy.deepcopy(namespaced)
    later["spec"]["cpu"]["guest"] = 8
    assert findings(twins_identical, cluster, namespaced, later) == []


def test_a_namespaced_list_longer_than_its_cluster_twins() -> None:
    cluster, namespaced = twins(instancetype("gn1.xlarge", gpus=[{"name": "a"}]))
    namespaced["spec"]["gpus"].append({"name": "b"})
    assert findings(twins_identical, cluster, namespaced) == [
        "b.yaml#1 (gn1.xlarge) $.spec.gpus[1]: differs from its VirtualMachineClusterInstancetype twin at "
        "b.yaml#0: {'name': 'b'} here, absent there [twins-identical]"]


def test_a_list_against_a_value_of_another_type_is_one_difference() -> None:
    """A list is compared item by item only with another list; against text it differs as a whole."""
    cluster, namespaced = twins(instancetype("gn1.xlarge", gpus="ab"))
    namespaced["spec"]["gpus"] = ["a", "b"]
    assert findings(twins_identical, cluster, namespaced) == [
        "b.yaml#1 (gn1.xlarge) $.spec.gpus: differs from its VirtualMachineClusterInstancetype twin at "
        "b.yaml#0: ['a', 'b'] here, 'ab' there [twins-identical]"]


def test_keys_of_other_types_than_text_are_compared_too() -> None:
    """YAML reads ``1: x`` with an integer key; keys of mixed types are walked without a TypeError."""
    cluster, namespaced = twins(preference("fedora", annotations={1: "one", "a": "x", None: "nothing"}))
    namespaced["spec"]["annotations"][1] = "two"
    assert findings(twins_identical, cluster, namespaced) == [
        "b.yaml#1 (fedora) $.spec.annotations[1]: differs from its VirtualMachineClusterPreference twin at "
        "b.yaml#0: 'two' here, 'one' there [twins-identical]"]


def test_equal_values_that_are_not_the_same_object_do_not_differ() -> None:
    """Twins parsed from two documents hold equal values, never the same Python objects."""
    cluster = instancetype("u1.large", memory="8Gi", ioThreadsPolicy="".join(["au", "to"]),
                           annotations={"x": float("2.5")})
    namespaced = instancetype("u1.large", memory="8Gi", ioThreadsPolicy="".join(["a", "uto"]),
                              annotations={"x": float("2.5")}, kind=NIT)
    assert cluster["spec"]["ioThreadsPolicy"] is not namespaced["spec"]["ioThreadsPolicy"]
    assert findings(twins_identical, cluster, namespaced) == []


def test_an_object_without_a_twin_does_not_stop_the_check_of_later_twins() -> None:
    cluster, namespaced = twins(instancetype("u1.large"))
    namespaced["spec"]["cpu"]["guest"] = 4
    assert findings(twins_identical, instancetype("u1.small", kind=NIT), cluster, namespaced) == [
        "b.yaml#2 (u1.large) $.spec.cpu.guest: differs from its VirtualMachineClusterInstancetype twin at "
        "b.yaml#1: 4 here, 2 there [twins-identical]"]


def test_objects_without_a_name_or_of_another_kind_are_no_twins_and_do_not_stop_the_check() -> None:
    """A nameless object is the object-metadata rule's to report: two of them are not compared."""
    nameless, nameless_twin = twins(instancetype(None))
    nameless_twin["spec"]["cpu"]["guest"] = 4
    cluster, namespaced = twins(instancetype("u1.large"))
    namespaced["spec"]["cpu"]["guest"] = 8
    other = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "u1.large"}}
    assert findings(twins_identical, other, nameless, nameless_twin, cluster, namespaced) == [
        "b.yaml#4 (u1.large) $.spec.cpu.guest: differs from its VirtualMachineClusterInstancetype twin at "
        "b.yaml#3: 8 here, 2 there [twins-identical]"]
