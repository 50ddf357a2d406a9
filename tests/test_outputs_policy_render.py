"""The admission policy as users install it: kustomize's component and the chart's value give the file's objects.

The build is the built-in catalog with ``--policy`` and v1.0.0 retained (deprecated
and retired names both in the policy); ``kubectl kustomize`` of the component and
Helm's engine (helm_python) rendering the chart with ``policy.enabled`` on a cluster
that serves the API must give the very objects of common-instancetypes-policy.yaml,
and a default chart, or a cluster without the API, none.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import textwrap
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml
from click.testing import CliRunner

from generator.cli import main
from generator.outputs.policy import POLICY_FILE
from tests.conftest import SHARED, shared_file
from tests.helpers import documented_section, documented_yaml, helm_engine, kubectl, parse_stream

pytestmark = pytest.mark.heavy(10)  # seconds of a worker's time: run early (conftest.py)


V1_0_0 = SHARED / "reference" / "releases" / "v1.0.0-common-instancetypes-all-bundle.yaml"
CHART = "helm/common-instancetypes"
NOTES = "common-instancetypes/templates/NOTES.txt"
KINDS = ["ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding"]


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``citgen build --policy --retain-from`` v1.0.0's bundle, as a user runs it."""
    where = tmp_path_factory.mktemp("policy") / "bundles"
    result = CliRunner().invoke(main, ["build", "--policy", "--out", str(where),
                                       "--retain-from", str(shared_file(V1_0_0))])
    assert result.exit_code == 0, result.output + result.stderr
    return where


@pytest.fixture(scope="module")
def policy(out: Path) -> list[dict]:
    return parse_stream((out / POLICY_FILE).read_bytes())


@pytest.fixture(scope="module")
def helm() -> Any:
    return helm_engine()


@pytest.fixture(scope="module")
def chart(helm: Any, out: Path) -> Iterator[Any]:
    with helm.Chart.load(str(out / CHART)) as loaded:
        yield loaded


#: What a cluster of Kubernetes 1.30 or later serves, as Helm's capabilities name it.
SERVED = ["admissionregistration.k8s.io/v1", "admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy",
          "admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding"]


def rendered(chart: Any, values: dict[str, Any], api_versions: list[str] | None = None) -> dict[str, str]:
    """The chart rendered by Helm's engine, as ``helm template --api-versions`` does with ``api_versions``.

    Chart.render takes no capabilities; helm_python's native render (what it
    calls) takes ``helm template``'s options, ``api_versions`` among them.
    """
    from helm_python import _native

    options = {"name": "catalog", "namespace": "vms", "api_versions": SERVED if api_versions is None else api_versions}
    return json.loads(_native.call_string("helm_render", chart._raw(), json.dumps(values), json.dumps(options)))


def render(chart: Any, values: dict[str, Any], api_versions: list[str] | None = None) -> list[dict]:
    return [d for name, text in rendered(chart, values, api_versions).items() if name != NOTES
            for d in parse_stream(text)]


def policy_objects(docs: list[dict]) -> list[dict]:
    return [d for d in docs if d["kind"] in KINDS]


def test_the_file_holds_both_policies_and_their_bindings(policy: list[dict]):
    assert [(d["kind"], d["metadata"]["name"]) for d in policy] == [
        ("ValidatingAdmissionPolicy", "common-instancetypes-deprecated"),
        ("ValidatingAdmissionPolicyBinding", "common-instancetypes-deprecated"),
        ("ValidatingAdmissionPolicy", "common-instancetypes-retired"),
        ("ValidatingAdmissionPolicyBinding", "common-instancetypes-retired")]


def test_kubectl_kustomize_of_the_component_gives_the_file_s_objects(out: Path, policy: list[dict]):
    run = subprocess.run([kubectl(), "kustomize", str(out / "kustomize" / "components" / "policy")],
                         capture_output=True, text=True, env={**os.environ, "GOGC": "400"})
    assert run.returncode == 0, run.stderr
    assert sorted(parse_stream(run.stdout), key=str) == sorted(policy, key=str)


def test_the_component_adds_the_policy_to_the_catalog_it_is_given(out: Path, policy: list[dict], tmp_path: Path):
    tree = Path(os.path.relpath(out / "kustomize", tmp_path))  # kustomize takes relative paths only
    (tmp_path / "kustomization.yaml").write_text("\n".join([
        "apiVersion: kustomize.config.k8s.io/v1beta1", "kind: Kustomization",
        f"resources:\n- {tree / 'preferences' / 'cluster' / 'centos'}",
        f"components:\n- {tree / 'components' / 'policy'}", ""]))
    run = subprocess.run([kubectl(), "kustomize", str(tmp_path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    docs = parse_stream(run.stdout)
    assert sorted(policy_objects(docs), key=str) == sorted(policy, key=str)
    assert any(d["kind"] == "VirtualMachineClusterPreference" for d in docs)


def test_the_chart_installs_no_policy_by_default(chart: Any):
    assert chart.values["policy"] == {"enabled": False, "retired": "Warn"}
    assert policy_objects(render(chart, {})) == []


def test_the_chart_with_the_value_gives_the_file_s_objects(chart: Any, policy: list[dict]):
    assert policy_objects(render(chart, {"policy": {"enabled": True}})) == policy


def test_a_cluster_that_does_not_serve_the_api_gets_no_policy_and_is_told(chart: Any):
    values = {"policy": {"enabled": True}}
    for api_versions in ([], ["admissionregistration.k8s.io/v1"]):  # Kubernetes 1.29 serves the group's webhooks
        files = rendered(chart, values, api_versions)
        assert policy_objects([d for name, text in files.items() if name != NOTES for d in parse_stream(text)]) == []
        assert "not serve admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy" in " ".join(files[NOTES].split())
    assert "ValidatingAdmissionPolicy" not in rendered(chart, values)[NOTES]  # served: nothing to say
    assert "ValidatingAdmissionPolicy" not in rendered(chart, {}, [])[NOTES]  # not asked for: nothing to say


def test_helm_template_without_api_versions_renders_no_policy(chart: Any):
    offline = chart.render({"policy": {"enabled": True}}, name="catalog", namespace="vms")
    assert policy_objects([d for name, text in offline.items() if name != NOTES for d in parse_stream(text)]) == []


def test_the_chart_s_value_turns_retired_names_to_deny(chart: Any, policy: list[dict]):
    rendered = policy_objects(render(chart, {"policy": {"enabled": True, "retired": "Deny"}}))
    assert rendered[:3] == policy[:3]
    assert rendered[3]["spec"]["validationActions"] == ["Deny"]


def test_the_chart_refuses_an_action_kubernetes_does_not_know(helm: Any, chart: Any):
    with pytest.raises(helm.HelmValuesError) as refused:
        render(chart, {"policy": {"enabled": True, "retired": "deny"}})
    assert "policy" in str(refused.value)


def test_the_chart_lints_with_the_policy_on(helm: Any, out: Path):
    for values in (None, {"policy": {"enabled": True, "retired": "Deny"}}):
        report = helm.lint(str(out / CHART), values, strict=True)
        assert report["errors"] == []
        assert [m for m in report["messages"] if m["severity"] >= 2] == []


GITOPS_SECTION = "### From warn to deny"


def test_the_documented_patch_turns_the_retired_binding_to_deny(out: Path, policy: list[dict], tmp_path: Path):
    component = os.path.relpath(out / "kustomize" / "components" / "policy", tmp_path)
    patch = textwrap.dedent(documented_yaml("gitops.md", GITOPS_SECTION))
    (tmp_path / "kustomization.yaml").write_text("\n".join([
        "apiVersion: kustomize.config.k8s.io/v1beta1", "kind: Kustomization",
        f"components:\n- {component}", patch]))
    run = subprocess.run([kubectl(), "kustomize", str(tmp_path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    docs = {(d["kind"], d["metadata"]["name"]): d for d in parse_stream(run.stdout)}
    assert docs[(KINDS[1], "common-instancetypes-retired")]["spec"]["validationActions"] == ["Deny"]
    assert docs[(KINDS[1], "common-instancetypes-deprecated")]["spec"]["validationActions"] == ["Warn"]


def test_the_messages_the_docs_show_are_the_policy_s(out: Path):
    text = " ".join((out / POLICY_FILE).read_text().split())
    section = " ".join(documented_section("gitops.md", "### What a user sees").split())
    found = re.findall(r"': (?:label [^:]+: )?((?:instancetype|preference) \S+ [^\n]*? instead)", section)
    assert len(found) == 2  # a VM's preference, and a DataSource's label
    for shown in found:
        assert f'"{shown.split()[1]}": "{shown}"' in text, shown
    denied = " ".join(documented_section("gitops.md", GITOPS_SECTION).split())
    shown = re.search(r"denied request: ((?:instancetype|preference) \S+ .*? instead)", denied).group(1)
    assert f'"{shown.split()[1]}": "{shown}"' in text


def test_a_retained_annotation_with_double_braces_and_line_breaks_builds_and_renders(helm: Any, tmp_path: Path):
    """v1.0.0's centos.stream8, retained with a release that is a Go template, a line break and an emoji."""
    docs = [d for d in parse_stream(shared_file(V1_0_0).read_bytes())
            if d["metadata"]["name"] == "centos.stream8" and d["kind"] == "VirtualMachineClusterPreference"]
    since = "v1 {{ .Values.x }} {{- fail \"no\" }}\nline two \U0001F600"
    docs[0]["metadata"].setdefault("annotations", {})["instancetype.kubevirt.io/deprecated-since"] = since
    bundle = tmp_path / "hostile.yaml"
    bundle.write_text(yaml.safe_dump_all(docs))
    out = tmp_path / "bundles"
    result = CliRunner().invoke(main, ["build", "--policy", "--out", str(out), "--retain-from", str(bundle)])
    assert result.exit_code == 0, result.output + result.stderr
    policy = parse_stream((out / POLICY_FILE).read_bytes())
    with helm.Chart.load(str(out / CHART)) as chart:
        assert policy_objects(render(chart, {"policy": {"enabled": True}})) == policy
    literal = next(v["expression"] for v in policy[0]["spec"]["variables"] if v["name"] == "deprecatedPreferences")
    assert '"centos.stream8": "preference centos.stream8 is deprecated since v1 {{ .Values.x }} {{- fail \\"no\\" ' \
           '}}\\\\nline two \\U0001F600; use centos.stream9 instead"' in literal
