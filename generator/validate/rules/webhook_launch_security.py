"""An instancetype leaves launch security to the preference (KubeVirt v1.9 on).

From v1.9 on, virt-api's admission webhook admits an instancetype that sets
`spec.launchSecurity` (an empty `{}` too) with a deprecation warning: the setting
moved to the preference's `spec.preferredLaunchSecurity`, and the instancetype's
will be removed with the next API version.

Example::

    bundle.yaml#9 (cx1.large) $.spec.launchSecurity: KubeVirt v1.9 warns: launchSecurity is deprecated and will be removed in a future release. Use preference instead. [webhook-launch-security]
"""

from __future__ import annotations

from typing import Iterator, Sequence

from ...problems import Problem
from ...schemas.releases import Release
from ...source.documents import BundleDoc
from ._objects import dig, family
from ._webhook import warning
from .base import RuleContext

#: A rule of virt-api's admission webhook: what it says is KubeVirt's, dated by release (_webhook.py).
ADMISSION = True
ID = "webhook-launch-security"
LAUNCH_SECURITY = ("spec", "launchSecurity")
WARNED_SINCE = Release(1, 9)
MESSAGE = "launchSecurity is deprecated and will be removed in a future release. Use preference instead."


def check(docs: Sequence[BundleDoc], ctx: RuleContext) -> Iterator[Problem]:
    if ctx.kubevirt < WARNED_SINCE:
        return
    for doc in docs:
        spec = dig(doc.data, "spec")
        if family(doc) == "instancetype" and isinstance(spec, dict) and spec.get("launchSecurity") is not None:
            yield warning(doc, LAUNCH_SECURITY, ctx.kubevirt, MESSAGE, ID)
