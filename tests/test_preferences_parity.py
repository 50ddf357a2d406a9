"""The built-in preference catalog against the upstream bundles, preference by preference.

Upstream's bundles are read at run time from the shared reference data. Three
differences are on purpose: the vendor label is stamped later by the pipeline,
the description annotation is our own text, and the documentation and support
URLs are bare rather than upstream's quoted values with a trailing newline.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from generator.expand.preferences import DESCRIPTION, build_preferences
from generator.model import label
from generator.source.yamlsrc import load_file
from tests.helpers import read_yaml_stream

REPO = Path(__file__).resolve().parent.parent

URL_KEYS = ("openshift.io/documentation-url", "openshift.io/support-url")


@lru_cache(maxsize=None)
def ours() -> dict:
    provider = load_file(REPO / "catalog.yaml").data["provider"]
    return {obj.name: obj for obj in build_preferences(REPO, provider=provider)}


def upstream(upstream_dir: Path, bundle: str = "common-clusterpreferences-bundle.yaml") -> dict:
    return {doc["metadata"]["name"]: doc for doc in read_yaml_stream(upstream_dir / bundle) if doc}


def test_the_same_57_preferences_and_nothing_extra(upstream_dir):
    theirs = upstream(upstream_dir)
    assert len(theirs) == 57
    assert sorted(ours()) == sorted(theirs)
    assert {doc["kind"] for doc in theirs.values()} == {"VirtualMachineClusterPreference"}


def test_every_spec_is_upstreams(upstream_dir):
    theirs = upstream(upstream_dir)
    assert {name: obj.spec for name, obj in ours().items()} == {name: doc["spec"] for name, doc in theirs.items()}


def test_every_label_is_upstreams_but_the_vendor(upstream_dir):
    vendor = label("vendor")
    expected = {name: {k: v for k, v in doc["metadata"]["labels"].items() if k != vendor}
                for name, doc in upstream(upstream_dir).items()}
    assert {name: dict(obj.labels) for name, obj in ours().items()} == expected
    assert all(vendor not in obj.labels for obj in ours().values())


def test_annotations_are_upstreams_but_description_and_bare_urls(upstream_dir):
    expected, urls = {}, set()
    for name, doc in upstream(upstream_dir).items():
        annotations = dict(doc["metadata"]["annotations"])
        for key in URL_KEYS:
            quoted = annotations[key]
            assert quoted.startswith('"') and quoted.endswith('"\n')  # upstream's known defect
            annotations[key] = quoted[1:-2]
            urls.add(annotations[key])
        expected[name] = annotations
    got = {name: {k: v for k, v in obj.annotations.items() if k != DESCRIPTION} for name, obj in ours().items()}
    assert got == expected
    assert urls == {"https://github.com/kubevirt/common-instancetypes",
                    "https://github.com/kubevirt/common-instancetypes/issues"}


def test_every_preference_has_its_own_description():
    descriptions = [obj.annotations[DESCRIPTION] for obj in ours().values()]
    assert all(text.strip() and "\n" not in text for text in descriptions)
    assert len(set(descriptions)) == len(descriptions)


def test_the_namespaced_bundle_holds_the_same_content(upstream_dir):
    """One CatalogObject serves both kinds: upstream's two bundles differ only in kind."""
    cluster = upstream(upstream_dir)
    namespaced = upstream(upstream_dir, "common-preferences-bundle.yaml")
    assert sorted(namespaced) == sorted(cluster)
    assert {doc["kind"] for doc in namespaced.values()} == {"VirtualMachinePreference"}
    assert all(namespaced[name]["spec"] == cluster[name]["spec"]
               and namespaced[name]["metadata"] == cluster[name]["metadata"] for name in cluster)


def test_facts_follow_the_labels():
    for obj in ours().values():
        cpu = obj.labels.get(label("required-cpu"))
        assert obj.facts["cpu"] == (int(cpu) if cpu else None)
        assert obj.facts["osType"] == obj.labels[label("os-type")]
        assert obj.facts["architecture"] == obj.labels.get(label("arch"))
        assert obj.facts["displayName"] == obj.annotations["openshift.io/display-name"]
        assert (obj.facts["memory"] is None) == (label("required-memory") not in obj.labels)
    assert ours()["windows.11"].facts["memory"] == 4 * 1024**3
    assert ours()["rhel.9"].facts["memory"] == 1536 * 1024**2


def test_each_object_points_at_its_definition_and_family():
    for obj in ours().values():
        assert obj.family == "preference"
        assert obj.location.file == f"preferences/{obj.group}.yaml"
        lines = (REPO / obj.location.file).read_text(encoding="utf-8").splitlines()
        assert lines[obj.location.line - 1].strip() == f"{obj.name}:"
