"""What the rules of KubeVirt's admission webhooks share: how a refusal and a warning read.

virt-api runs a validating webhook on every instancetype and preference an API
server is asked to store. Its rules live in kubevirt/kubevirt (up to v1.5 in
pkg/virt-api/webhooks/validating-webhook/admitters/, from v1.6 in
pkg/instancetype/webhooks/ and pkg/instancetype/preference/webhooks/), and they
change from release to release; each rule module here says in which release each
of its checks begins. A finding quotes the webhook's own words, as kubectl prints
them, after the release that speaks them:

    KubeVirt v1.8 refuses it: unknown preferredCPUTopology sideways
    KubeVirt v1.8 warns: PreferredCPUTopology preferSockets is deprecated for removal in a future release, please use sockets instead

A warning does not stop kubectl from applying the object; citgen reports it and
exits 0 unless asked to count warnings (``--warnings-as-errors``).
"""

from __future__ import annotations

from ...problems import WARNING, Path, Problem
from ...schemas.releases import Release
from ...source.documents import BundleDoc


def refusal(doc: BundleDoc, path: Path, release: Release, message: str, rule: str) -> Problem:
    """The webhook of ``release`` denies the object, in its own ``message``."""
    return Problem(doc.locate(path), f"KubeVirt {release} refuses it: {message}", rule)


def warning(doc: BundleDoc, path: Path, release: Release, message: str, rule: str) -> Problem:
    """The webhook of ``release`` admits the object with a warning, in its own ``message``."""
    return Problem(doc.locate(path), f"KubeVirt {release} warns: {message}", rule, severity=WARNING)
