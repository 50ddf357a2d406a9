"""The admission policy within what the API server accepts and shows, judged by a CEL engine.

Text from a catalog or a retained bundle goes into CEL string literals
(escape.cel_string) and into messages; names go into map literals spread over
expressions of at most CEL's 100,000 code points; an object over etcd's 1.5 MiB
is refused with a located message; a kind is judged as KubeVirt lowers it
(Go's strings.ToLower, generator/golower.py). Each is checked with the engine of
tests/policy_cel.py, Google's C++ CEL, which refuses what cel-go refuses: a
surrogate escape, an expression over 100,000 code points.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.golower import go_lower
from generator.model import Lifecycle
from generator.outputs.policy import (MATCHER_KINDS, MAX_EXPRESSION, MAX_MESSAGE_BYTES, MAX_OBJECT_BYTES, Policy,
                                      _literal, limit_problems, message, policy_objects)
from tests.helpers import copy_catalog

from tests.policy_cel import Admission, environment  # noqa: I100  (skips without the engine)

pytestmark = pytest.mark.heavy(4)  # seconds of a worker's time: run early (conftest.py)


def vm(instancetype: dict[str, str]) -> dict:
    return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "vm"},
            "spec": {"instancetype": instancetype, "template": {"spec": {}}}}


def admissions(policy: Policy) -> dict[str, Admission]:
    return {o["metadata"]["name"].rsplit("-", 1)[1]: Admission(o) for o in policy_objects(policy)
            if o["kind"] == "ValidatingAdmissionPolicy"}


def retired(family: str, count: int, width: int = 0) -> dict[tuple[str, str], Lifecycle]:
    """``count`` retired names of ``family``, ``zz0.old`` on (their number ``width`` digits wide)."""
    replacement = "u1.small" if family == "instancetype" else "fedora"
    names = [f"zz{n:0{width}d}.old" for n in range(count)]
    return {(family, name): Lifecycle(family, name, "retired", "v0.4.0", replacement, chain=(replacement,),
                                      current=replacement, retired="v0.4.0") for name in names}


# --------------------------------------------------------------------------- messages


def test_a_message_of_hostile_text_is_shown_on_one_line_within_the_api_server_s_limit():
    name = "zz\U0001F600.old"
    since = "v1 {{ .Values.x }}\nsecond line" + "x" * 100_000
    records = {("instancetype", name): Lifecycle("instancetype", name, "deprecated", since, "u1.new" * 1000)}
    said = message(records[("instancetype", name)])
    assert "\n" not in said and len(said.encode()) <= MAX_MESSAGE_BYTES
    assert said.startswith("instancetype zz\U0001F600.old is deprecated since v1 {{ .Values.x }}\\nsecond line")
    shown = admissions(Policy(records))["deprecated"].messages(vm({"name": name}))
    assert shown == [said]  # not "failed expression: ...", which a line break or 5 KiB would give


def test_a_message_quotes_long_names_as_excerpts():
    said = message(Lifecycle("preference", "p" * 300, "retired", replacement="q" * 300))
    assert "p" * 253 + "... (47 more characters)" in said and "q" * 253 + "..." in said


# --------------------------------------------------------------------------- kinds, as KubeVirt lowers them


RECORDS = {**retired("instancetype", 1), ("preference", "zz0.old"): Lifecycle("preference", "zz0.old", "retired")}


@pytest.mark.parametrize("kind", [
    "VirtualMachineClusterİnstancetype", "VİRTUALMACHİNEİNSTANCETYPES", "virtualmachineclusterinstancetype",
    "virtualmachineclusterınstancetype", "VirtualMachineClusterInstancetypeİ", "VirtualMachineİnstancetypeς",
    "VirtualMachineClusterPreference", "\u212a", "", "virtualmachineclusterinstancetypes",
    pytest.param("x" * 1_000_000, id="a-million-characters")])
def test_a_kind_is_judged_exactly_when_kubevirt_reads_it_as_one_of_the_family_s(kind):
    judged = go_lower(kind) in MATCHER_KINDS["instancetype"]
    said = admissions(Policy(RECORDS))["retired"].messages(vm({"name": "zz0.old", "kind": kind}))
    assert said == ([message(RECORDS[("instancetype", "zz0.old")])] if judged else [])


# --------------------------------------------------------------------------- sizes


def test_the_engine_refuses_an_expression_over_cel_s_100_000_code_points_as_cel_go_does():
    environment().compile('"' + "a" * (MAX_EXPRESSION - 2) + '"')
    with pytest.raises(RuntimeError, match="codepoint limit"):
        environment().compile('"' + "a" * (MAX_EXPRESSION - 1) + '"')


def test_1200_retired_names_of_a_family_are_spread_over_expressions_the_api_server_compiles():
    records = retired("instancetype", 1200, width=4)  # zz0000.old: as long as u1.2xmedium
    policy = Policy(records)
    messages = {name: message(record) for (_, name), record in records.items()}
    assert len(_literal(messages)) > MAX_EXPRESSION  # in one map literal, as before: refused
    objects = policy_objects(policy)
    for obj in objects:
        for expression in [v["expression"] for v in obj.get("spec", {}).get("variables", [])]:
            assert len(expression) <= MAX_EXPRESSION
    maps = [v["name"] for v in objects[2]["spec"]["variables"] if v["name"].startswith("retiredInstancetypes")]
    assert maps == ["retiredInstancetypes", "retiredInstancetypes2"]
    checks = admissions(policy)  # compiles every expression as the API server would
    for name in ("zz0000.old", "zz0599.old", "zz1199.old"):
        assert checks["retired"].messages(vm({"name": name})) == [messages[name]]
    assert checks["retired"].messages(vm({"name": "u1.small"})) == []
    label = {"apiVersion": "cdi.kubevirt.io/v1beta1", "kind": "DataSource",
             "metadata": {"name": "d", "labels": {"instancetype.kubevirt.io/default-instancetype": "zz1199.old"}}}
    assert checks["deprecated"].messages(label) == [
        f"label instancetype.kubevirt.io/default-instancetype: {messages['zz1199.old']}"]
    assert limit_problems(policy) == []


def test_10000_names_of_each_family_make_an_object_over_etcd_s_limit_which_is_refused():
    records = {**retired("instancetype", 10_000), **retired("preference", 10_000)}
    found = limit_problems(Policy(records))
    assert [said.split(" would be ")[0] for said in found] == [
        f"cannot write the admission policy: ValidatingAdmissionPolicy common-instancetypes-{name}"
        for name in ("deprecated", "retired")]  # each holds 20,000 names: the deprecated one for the labels
    for said in found:
        assert f"over the {MAX_OBJECT_BYTES:,} (1.5 MiB) etcd stores as one object" in said
        assert "10,000 retired instancetypes, 0 deprecated and 10,000 retired preferences" in said


def test_a_name_no_expression_can_hold_is_refused():
    found = limit_problems(Policy(retired("instancetype", 1, width=MAX_EXPRESSION)))
    assert len(found) == 1 and "alone makes a CEL expression of" in found[0] and "over the API server's 100,000" \
        in found[0]


def test_build_refuses_a_policy_over_etcd_s_limit_where_it_is_asked_for_and_writes_nothing(tmp_path: Path):
    """4,500 retired names of each family, 60 characters long: the deprecated policy is over 1.5 MiB."""
    root = copy_catalog(tmp_path / "catalog")
    text = (root / "catalog.yaml").read_text()
    for family, replacement, after in (("instancetypes", "u1.small", "retired:\n  instancetypes:\n"),
                                       ("preferences", "fedora", "\n  preferences:\n")):
        names = "".join(f"    zz{n:055d}.old: {{since: v0.4.0, replacement: {replacement}}}\n" for n in range(4500))
        assert text.count(after) == 1, family
        text = text.replace(after, after + names)
    (root / "catalog.yaml").write_text(text)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", "--catalog", str(root), "--policy", "--out", str(out)])
    assert result.exit_code == 2, result.output
    line = result.stderr.splitlines()[0]
    assert line.replace("error: ", "", 1).startswith("--policy: ")  # at the option that asked for the policy
    assert "cannot write the admission policy: ValidatingAdmissionPolicy common-instancetypes-deprecated" in line
    assert "etcd stores as one object" in line and "Traceback" not in result.stderr
    assert not out.exists()


# --------------------------------------------------------------------------- the Kubernetes each release supports


def test_a_build_for_kubevirt_v1_0_says_which_kubernetes_the_policy_needs(tmp_path: Path):
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", "--policy", "--kubevirt", "v1.0", "--out", str(out)])
    assert result.exit_code == 0, result.output + result.stderr
    head = (out / "common-instancetypes-policy.yaml").read_text().split("---")[0]
    assert head == ("# The admission policy of the catalog (citgen build --policy).\n"
                    "# Needs Kubernetes 1.30 or later, which serves admissionregistration.k8s.io/v1.\n"
                    "# KubeVirt v1.0 supports Kubernetes 1.25 to 1.27 (at its tag v1.0.0):\n"
                    "# on Kubernetes 1.25 to 1.27 the policy cannot be installed (the chart leaves it out).\n")
    component = (out / "kustomize" / "components" / "policy" / "kustomization.yaml").read_text()
    assert "# KubeVirt v1.0 supports Kubernetes 1.25 to 1.27" in component
