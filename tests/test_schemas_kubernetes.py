"""generator/schemas/kubernetes.py: the Kubernetes each KubeVirt release supports, as its tag says."""

from __future__ import annotations

from generator.schemas.kubernetes import KUBERNETES, Supported, supported
from generator.schemas.releases import Release, known


def test_every_kubevirt_release_citgen_knows_has_the_kubernetes_it_supports():
    assert set(known()) <= set(KUBERNETES)
    assert all(supported(release) is KUBERNETES[release] for release in known())
    assert supported(Release(0, 59)) is None


def test_each_release_moves_on_and_names_the_tag_it_was_read_at():
    ranges = [KUBERNETES[release] for release in sorted(KUBERNETES)]
    assert all(r.oldest <= r.newest for r in ranges)
    assert [r.oldest for r in ranges] == sorted(r.oldest for r in ranges)
    assert all(r.tag == f"{release}.0" for release, r in KUBERNETES.items())


def test_the_releases_that_support_a_kubernetes_older_than_1_30():
    assert [str(release) for release in sorted(KUBERNETES) if KUBERNETES[release].oldest < (1, 30)] == [
        "v1.0", "v1.1", "v1.2", "v1.3", "v1.4"]
    assert KUBERNETES[Release(1, 0)] == Supported((1, 25), (1, 27), "v1.0.0")


def test_a_range_reads_as_its_minor_releases():
    assert str(Supported((1, 25), (1, 27), "v1.0.0")) == "1.25 to 1.27"
