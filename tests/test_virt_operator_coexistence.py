"""What docs/gitops.md and the chart's NOTES.txt say about virt-operator, checked against KubeVirt's API.

Both name the KubeVirt CR field that switches virt-operator's own deployment of
the common instancetypes off. The field's path is read out of the documents and
walked through KubeVirt's OpenAPI document (../shared/kubevirt/swagger.json), so
a renamed field or a changed default fails here rather than on a user's cluster.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.helpers import REPO

FIELD = re.compile(r"spec\.configuration\.[A-Za-z.]+[A-Za-z]")
GITOPS = REPO / "docs" / "gitops.md"
NOTES = REPO / "templates" / "helm" / "chart" / "templates" / "NOTES.txt"


def field_schema(swagger: dict[str, Any], path: str) -> dict[str, Any]:
    """The schema of ``path`` (``spec.configuration...``) inside the KubeVirt CR, following $refs."""
    definitions = swagger["definitions"]
    schema = definitions["v1.KubeVirt"]
    for part in path.split("."):
        if "$ref" in schema:
            schema = definitions[schema["$ref"].rsplit("/", 1)[-1]]
        assert part in schema.get("properties", {}), f"{path}: no field {part!r} in KubeVirt's API"
        schema = schema["properties"][part]
    return schema


def named_fields(path: Path) -> set[str]:
    return set(FIELD.findall(path.read_text(encoding="utf-8")))


def test_the_documented_field_exists_and_switches_the_deployment_defaulting_to_true(swagger_path: Path):
    swagger = json.loads(swagger_path.read_text(encoding="utf-8"))
    assert named_fields(GITOPS) == named_fields(NOTES) == {"spec.configuration.commonInstancetypesDeployment.enabled"}
    schema = field_schema(swagger, "spec.configuration.commonInstancetypesDeployment.enabled")
    assert schema["type"] == "boolean"
    assert schema["description"] == ("Enabled controls the deployment of common-instancetypes resources, "
                                     "defaults to True.")


def test_the_docs_state_the_default_and_both_ways_out():
    text = " ".join(GITOPS.read_text(encoding="utf-8").split())
    assert ("`spec.configuration.commonInstancetypesDeployment.enabled`, a boolean that defaults to `true`"
            in text)
    assert "invalid ownership metadata" in text
    assert "**Turn virt-operator's deployment off**" in text
    assert "**Deploy only the namespaced kinds**" in text
    assert "`--set kinds.cluster=false`" in text
    assert "`instancetypes/namespaced` and `preferences/namespaced`" in text


def test_the_documented_patch_sets_the_field_to_false():
    for path in (GITOPS, NOTES):
        patch = re.search(r"-p '(\{.*?\})'", path.read_text(encoding="utf-8"))
        assert patch, path
        assert json.loads(patch.group(1)) == {"spec": {"configuration": {
            "commonInstancetypesDeployment": {"enabled": False}}}}
