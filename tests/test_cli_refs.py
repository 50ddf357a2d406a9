"""``citgen refs``: the command over manifests written for each case, in every format, with its exit status.

Each test writes the manifests it reads into its own folder and runs the command in
this process (CliRunner): a VirtualMachine, a ``kubectl get -o yaml`` List dump, an
OpenShift Template whose parameter default names an unknown preference, a chart
rendered by Helm's own engine and piped in on standard input, the targets
(``--bundle``, ``--catalog``, ``--kubevirt``) and the options that cannot go together.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result as Run

from generator.cli import main
from generator.cli.refs import PlaceParam
from generator.errors import InputError
from tests.conftest import SHARED, shared_file
from tests.helpers import copy_catalog, helm_engine
from tests.test_escape_writers import HOSTILE, assert_columns_kept, assert_json, assert_lines, assert_markdown

V1_0_0 = SHARED / "reference" / "releases" / "v1.0.0-common-instancetypes-all-bundle.yaml"



def vm(name: str, instancetype: str, preference: str, *, namespace: str = "shop",
       preference_kind: str | None = None) -> dict[str, Any]:
    """The plainest VirtualMachine naming an instancetype and a preference."""
    matcher: dict[str, Any] = {"name": preference}
    if preference_kind is not None:
        matcher = {"kind": preference_kind, "name": preference}
    return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine",
            "metadata": {"name": name, "namespace": namespace},
            "spec": {"instancetype": {"name": instancetype}, "preference": matcher, "runStrategy": "Halted",
                     "template": {"spec": {"domain": {"devices": {}}}}}}


def write(folder: Path, name: str, *documents: Any) -> Path:
    path = folder / name
    path.write_text(yaml.safe_dump_all(documents, sort_keys=False), encoding="utf-8")
    return path


def refs(*args: str | Path, stdin: str | None = None) -> Run:
    return CliRunner().invoke(main, ["refs", *map(str, args)], input=stdin)


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test's folder, as the working directory: the reports name its files as given."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --------------------------------------------------------------------------- clean, and the summary


def test_a_vm_naming_catalog_objects_that_fit_is_clean(here):
    write(here, "vm.yaml", vm("web", "u1.medium", "fedora"))
    run = refs("vm.yaml")
    assert (run.exit_code, run.stdout, run.stderr) == (
        0, "2 references checked against the built-in catalog v1.8.0-dev; 1 file read; nothing found\n", "")


def test_a_file_that_is_no_manifest_is_skipped_and_counted(here):
    write(here, "vm.yaml", vm("web", "u1.medium", "fedora"))
    (here / "params.yaml").write_text("instancetype: u1.medium\nreplicas: 3\n", encoding="utf-8")
    run = refs(here)
    assert run.exit_code == 0, run.output
    assert run.stdout == ("2 references checked against the built-in catalog v1.8.0-dev; 2 files read, 1 skipped (no "
                          "Kubernetes manifests and no references); nothing found\n")


# --------------------------------------------------------------------------- findings in every format


@pytest.fixture
def wrong(here: Path) -> Path:
    """A VM whose preference was renamed and removed long ago, and one whose preference kind is kubectl's."""
    return write(here, "vms.yaml", vm("web", "u1.medium", "centos.8.stream"),
                 vm("db", "u1.small", "windows.11", preference_kind="vmcp"))


def test_findings_are_located_problems_and_exit_1(wrong):
    run = refs("vms.yaml")
    assert run.exit_code == 1
    assert run.stdout == (
        "vms.yaml:10:11: error: VirtualMachine shop/web $.spec.preference.name: names preference 'centos.8.stream', "
        "which the built-in catalog does not have: centos.8.stream was renamed centos.stream8 in v0.4.0, then "
        "centos.stream8 was removed in v1.2.1; use 'centos.stream9' [unknown-name]\n"
        "vms.yaml:27:11: error: VirtualMachine shop/db $.spec.preference.name: names preference 'windows.11' by kind "
        "'vmcp', which KubeVirt does not accept: 'vmcp' is kubectl's short name for "
        "VirtualMachineClusterPreference; write VirtualMachineClusterPreference [kind]\n"
        "4 references checked against the built-in catalog v1.8.0-dev; 1 file read; 2 findings\n")
    assert run.stderr == ""


def test_json_reports_each_finding_with_its_line_and_every_reference(wrong):
    run = refs("vms.yaml", "--format", "json")
    report = json.loads(run.stdout)
    assert run.exit_code == 1 and run.stderr == ""
    assert report["counts"] == {"references": 4, "checked": 4, "unchecked": 0, "files": 1, "skipped": 0,
                                "findings": 2, "problems": 0}
    assert report["target"] == "the built-in catalog"
    assert [(p["file"], p["line"], p["column"], p["document"], p["name"], p["path"], p["rule"])
            for p in report["problems"]] == [
        ("vms.yaml", 10, 11, 0, "web", "$.spec.preference.name", "unknown-name"),
        ("vms.yaml", 27, 11, 1, "db", "$.spec.preference.name", "kind")]
    assert [(r["family"], r["name"], r["kind"], r["resolved"], r["owner"]["name"]) for r in report["references"]] == [
        ("instancetype", "u1.medium", None, True, "web"), ("preference", "centos.8.stream", None, False, "web"),
        ("instancetype", "u1.small", None, True, "db"), ("preference", "windows.11", "vmcp", False, "db")]


def test_json_gives_every_reference_whole_with_where_it_is_and_whose_it_is(here):
    write(here, "vm.yaml", vm("web", "u1.medium", "centos.stream8"))
    report = json.loads(refs("vm.yaml", "--format", "json").stdout)
    owner = {"kind": "VirtualMachine", "name": "web", "namespace": "shop"}
    assert report["references"] == [
        {"family": "instancetype", "name": "u1.medium", "kind": None, "via": "spec.instancetype", "unchecked": None,
         "parameter": None, "resolved": True, "file": "vm.yaml", "line": 8, "column": 11, "document": 0,
         "owner": owner},
        {"family": "preference", "name": "centos.stream8", "kind": None, "via": "spec.preference", "unchecked": None,
         "parameter": None, "resolved": False, "file": "vm.yaml", "line": 10, "column": 11, "document": 0,
         "owner": owner}]
    assert (report["target"], report["kubevirt"], report["skipped"]) == ("the built-in catalog", None, [])


def test_markdown_of_a_clean_run_says_nothing_found_and_the_summary(here):
    write(here, "vm.yaml", vm("web", "u1.medium", "fedora"))
    run = refs("vm.yaml", "--format", "markdown")
    assert (run.exit_code, run.stdout) == (0, "### citgen refs: nothing found\n\n2 references checked against the "
                                              "built-in catalog v1.8.0-dev; 1 file read; nothing found\n")


def test_github_annotates_each_finding_at_its_line(wrong):
    run = refs("vms.yaml", "--format", "github")
    assert run.exit_code == 1
    lines = run.stdout.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("::error file=vms.yaml,line=10,col=11,title=unknown-name::VirtualMachine shop/web "
                               "$.spec.preference.name: names preference 'centos.8.stream'")
    assert lines[1].startswith("::error file=vms.yaml,line=27,col=11,title=kind::VirtualMachine shop/db ")
    assert lines[2] == ("::notice title=citgen refs::4 references checked against the built-in catalog v1.8.0-dev; 1 file read; "
                        "2 findings")


def test_markdown_is_a_pull_request_comment_of_the_findings(wrong):
    run = refs("vms.yaml", "--format", "markdown")
    assert run.exit_code == 1
    assert run.stdout.startswith("### citgen refs: 2 findings\n\n| where | severity | finding | rule |\n"
                                 "| --- | --- | --- | --- |\n"
                                 "| `vms.yaml:10:11` | error | VirtualMachine shop/web \\$.spec.preference.name: names "
                                 "preference 'centos.8.stream', ")
    assert run.stdout.endswith("\n\n4 references checked against the built-in catalog v1.8.0-dev; 1 file read; 2 findings\n")


def test_names_from_manifests_are_escaped_in_every_format(here):
    hostile = "x\n::error::owned\x1b[31m<img src=y>|"
    write(here, "vm.yaml", vm("web", hostile, "fedora"))
    text = refs("vm.yaml")
    assert "names instancetype 'x\\n::error::owned\\x1b[31m<img src=y>|'" in text.stdout
    assert "\x1b" not in text.output and "\n::error" not in text.output
    github = refs("vm.yaml", "--format", "github").stdout
    commands = [line for line in github.splitlines() if line.lstrip().startswith("::")]
    assert len(commands) == 2 and commands[0].startswith("::error file=vm.yaml,line=8,col=11,title=invalid-name::")
    assert commands[1].startswith("::notice title=citgen refs::")
    assert "'x\\n::error::owned\\x1b[31m<img src=y>|'" in commands[0]
    report = json.loads(refs("vm.yaml", "--format", "json").stdout)
    assert report["references"][0]["name"] == hostile
    markdown = refs("vm.yaml", "--format", "markdown").stdout
    assert "<img" not in markdown and "&lt;img src=y&gt;" in markdown


# --------------------------------------------------------------------------- the forms the issue names


def test_a_kubectl_list_dump_is_read_item_by_item(here):
    dump = {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": [
        vm("web", "u1.medium", "fedora"),
        {"apiVersion": "cdi.kubevirt.io/v1beta1", "kind": "DataSource",
         "metadata": {"name": "centos", "namespace": "images",
                      "labels": {"instancetype.kubevirt.io/default-instancetype": "u1.small",
                                 "instancetype.kubevirt.io/default-preference": "centos.stream8"}},
         "spec": {"source": {"pvc": {"name": "centos", "namespace": "images"}}}}]}
    write(here, "cluster.yaml", dump)
    run = refs("cluster.yaml", "--format", "json")
    report = json.loads(run.stdout)
    assert run.exit_code == 1
    assert [(p["line"], p["path"], p["rule"], p["message"]) for p in report["problems"]] == [
        (28, "$.items[1].metadata.labels['instancetype.kubevirt.io/default-preference']", "unknown-name",
         "names preference 'centos.stream8', which the built-in catalog does not have: "
         "centos.stream8 was removed in v1.2.1; use 'centos.stream9'")]
    assert report["counts"]["checked"] == 4


def test_a_template_parameter_default_naming_an_unknown_preference_is_a_finding_at_the_default(here):
    template = {"apiVersion": "template.openshift.io/v1", "kind": "Template", "metadata": {"name": "fedora-vm"},
                "parameters": [{"name": "INSTANCETYPE", "value": "u1.medium"},
                               {"name": "PREFERENCE", "value": "fedora.cloud"},
                               {"name": "NAME", "required": True}],
                "objects": [{**vm("${NAME}", "${INSTANCETYPE}", "${PREFERENCE}"), "metadata": {"name": "${NAME}"}}]}
    write(here, "template.yaml", template)
    run = refs("template.yaml")
    assert run.exit_code == 1
    assert run.stdout == (
        "template.yaml:9:10: error: Template fedora-vm $.parameters[1].value: names preference "
        "'fedora.cloud', which the built-in catalog does not have; did you mean 'fedora'? [unknown-name]\n"
        "2 references checked against the built-in catalog v1.8.0-dev; 1 file read; 1 finding\n")
    assert run.stderr == ""


def test_a_template_parameter_without_a_default_is_counted_as_unchecked(here):
    template = {"apiVersion": "template.kubevirt.io/v1beta1", "kind": "VirtualMachineTemplate",
                "metadata": {"name": "any-vm", "namespace": "shop"},
                "spec": {"parameters": [{"name": "PREFERENCE", "required": True}],
                         "virtualMachine": vm("vm", "u1.medium", "${PREFERENCE}")}}
    write(here, "template.yaml", template)
    run = refs("template.yaml")
    assert (run.exit_code, run.stdout) == (
        0, "1 reference checked against the built-in catalog v1.8.0-dev, 1 unchecked (no value offline); 1 file read; "
           "nothing found\n")


def test_an_instancetype_too_small_for_the_preference_is_refused_as_kubevirt_refuses_it(here):
    write(here, "vm.yaml", vm("win", "u1.small", "windows.11"))
    run = refs("vm.yaml")
    assert (run.stdout, run.stderr) == (
        "vm.yaml:8:11: error: VirtualMachine shop/win $.spec.instancetype.name: names instancetype 'u1.small' "
        "and preference 'windows.11', which KubeVirt refuses together: insufficient CPU resources of 1 vCPU "
        "provided by instance type, preference requires 2 vCPU [requirements]\n"
        "2 references checked against the built-in catalog v1.8.0-dev; 1 file read; 1 finding\n", "")


def test_a_namespaced_object_defined_beside_the_vm_resolves(here):
    mine = {"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": "VirtualMachineInstancetype",
            "metadata": {"name": "cmedium", "namespace": "shop"},
            "spec": {"cpu": {"guest": 1}, "memory": {"guest": "1Gi"}}}
    local = vm("web", "cmedium", "fedora")
    local["spec"]["instancetype"]["kind"] = "VirtualMachineInstancetype"
    write(here, "app.yaml", mine, local)
    assert refs("app.yaml").exit_code == 0


def test_places_a_user_names_are_read(here):
    osmap = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "forklift-vsphere-osmap"},
             "data": {"centos7_64Guest": "centos.7", "rhel9_64Guest": "rhel.9"}}
    write(here, "osmap.yaml", osmap)
    unnamed = refs("osmap.yaml")
    assert (unnamed.exit_code, unnamed.stdout) == (2, "")
    assert unnamed.stderr == ("osmap.yaml: error: nothing to check: it holds no reference to an instancetype or "
                              "preference (no VirtualMachine, pool, template, DataSource, DataVolume, PVC or "
                              "DataImportCron naming one, and no --names place); pass --allow-empty where that is fine "
                              "[input]\n")
    write(here, "other.yaml", osmap)
    two = refs("osmap.yaml", "osmap.yaml", ".")  # osmap.yaml once, however often named
    assert two.exit_code == 2 and two.stderr.startswith(
        "citgen: error: nothing to check: no reference to an instancetype or preference in the 2 files read "
        "(osmap.yaml, other.yaml: no VirtualMachine")
    allowed = refs("osmap.yaml", "--allow-empty")
    assert (allowed.exit_code, allowed.stdout) == (0, "nothing to check: it holds no reference to an instancetype or "
                                                      "preference (no VirtualMachine, pool, template, DataSource, "
                                                      "DataVolume, PVC or DataImportCron naming one, and no --names "
                                                      "place)\n")
    run = refs("osmap.yaml", "--names", "preference=ConfigMap/forklift-*-osmap:data.*")
    assert run.exit_code == 1
    assert "ConfigMap forklift-vsphere-osmap $.data.centos7_64Guest: names preference 'centos.7'" in run.stdout
    (here / "refs.yaml").write_text("names:\n  - preference=ConfigMap/forklift-*-osmap:data.*\n", encoding="utf-8")
    assert refs("osmap.yaml", "--names-file", "refs.yaml").stdout == run.stdout


@pytest.mark.parametrize(("spec", "said"), [
    ("preference:data", "'preference:data': no '=' after the family; expected FAMILY=KIND[.GROUP][/NAME]:PATH, "
                        "such as preference=ConfigMap/forklift-*-osmap:data.*"),
    ("preference=ConfigMap:\x01data", "expected text without control characters, line breaks or direction marks, "
                                      "got 'preference=ConfigMap:\\\\x01data'"),
])
def test_a_place_that_is_not_one_is_refused_at_the_option(here, spec, said):
    write(here, "vm.yaml", vm("web", "u1.medium", "fedora"))
    run = refs("vm.yaml", "--names", spec)
    assert (run.exit_code, run.stderr) == (2, f"--names: error: {said} [input]\n")


def test_a_place_parameter_names_the_option_it_reads_in_its_refusal():
    with pytest.raises(InputError) as refused:
        PlaceParam().check("preference:data", "--where")
    assert [str(p.location) for p in refused.value.problems] == ["--where"]


# --------------------------------------------------------------------------- a chart, rendered by Helm and piped in


@pytest.fixture
def helm() -> Any:
    return helm_engine()


CHART_TEMPLATE = """\
{{- range .Values.vms }}
---
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: {{ .name }}
  namespace: {{ $.Release.Namespace }}
spec:
  instancetype:
    name: {{ .instancetype }}
  preference:
    name: {{ .preference }}
  template:
    spec:
      domain:
        devices: {}
{{- end }}
"""


def test_a_chart_rendered_by_helm_is_checked_from_standard_input(helm, here):
    chart = here / "chart"
    (chart / "templates").mkdir(parents=True)
    (chart / "Chart.yaml").write_text("apiVersion: v2\nname: vms\nversion: 0.1.0\n", encoding="utf-8")
    (chart / "values.yaml").write_text(yaml.safe_dump({"vms": [
        {"name": "web", "instancetype": "u1.medium", "preference": "fedora"},
        {"name": "legacy", "instancetype": "u1.small", "preference": "centos.stream8"}]}), encoding="utf-8")
    (chart / "templates" / "vms.yaml").write_text(CHART_TEMPLATE, encoding="utf-8")
    with helm.Chart.load(str(chart)) as loaded:
        rendered = loaded.render({}, name="shop", namespace="shop")
    stream = "".join(f"---\n# Source: {name}\n{text}" for name, text in sorted(rendered.items()))
    run = refs("-", "--format", "json", stdin=stream)
    report = json.loads(run.stdout)
    assert run.exit_code == 1
    assert [(p["file"], p["name"], p["rule"]) for p in report["problems"]] == [("<stdin>", "legacy", "unknown-name")]
    assert report["problems"][0]["message"] == (
        "names preference 'centos.stream8', which the built-in catalog does not have: "
        "centos.stream8 was removed in v1.2.1; use 'centos.stream9'")
    assert report["counts"]["checked"] == 4


# --------------------------------------------------------------------------- targets


def test_a_published_bundle_is_the_target_as_it_is(here):
    write(here, "vm.yaml", vm("old", "u1.medium", "centos.stream8"), vm("win", "u1.large", "windows.2k12"))
    run = refs("vm.yaml", "--bundle", shared_file(V1_0_0))
    assert run.exit_code == 1
    assert (run.stdout, run.stderr) == (
        f"vm.yaml:26:11: error: VirtualMachine shop/win $.spec.preference.name: names preference 'windows.2k12', "
        f"which bundle {V1_0_0} deprecated (labelled instancetype.kubevirt.io/deprecated, no replacement named); it "
        "leaves the catalog in a later release [deprecated]\n"
        f"4 references checked against bundle {V1_0_0}; 1 file read; 1 finding\n", "")


def test_the_build_for_a_kubevirt_release_leaves_out_what_that_release_cannot_run(here):
    write(here, "vm.yaml", vm("secure", "u1.medium", "fedora.s390x.secex"))
    assert refs("vm.yaml").exit_code == 0
    run = refs("vm.yaml", "--kubevirt", "v1.8")
    assert run.exit_code == 1
    assert (run.stdout, run.stderr) == (
        "vm.yaml:10:11: error: VirtualMachine shop/secure $.spec.preference.name: names preference "
        "'fedora.s390x.secex', which the build for KubeVirt v1.8 of the built-in catalog leaves out: its "
        "spec.preferredLaunchSecurity came in KubeVirt v1.9 [release]\n"
        "2 references checked against the build for KubeVirt v1.8 of the built-in catalog v1.8.0-dev; 1 file read; "
        "1 finding\n", "")


def test_a_catalog_and_its_overlay_are_the_target(here):
    copy_catalog(here / "catalog")
    (here / "drop-fedora.yaml").write_text("preferences:\n  drop: [fedora]\n", encoding="utf-8")
    write(here, "vm.yaml", vm("web", "u1.medium", "fedora"))
    assert refs("vm.yaml", "--catalog", "catalog").exit_code == 0
    run = refs("vm.yaml", "--catalog", "catalog", "--overlay", "drop-fedora.yaml")
    assert run.exit_code == 1
    finding, closing = run.stdout.splitlines()
    assert closing == ("2 references checked against catalog catalog v1.8.0-dev with overlay drop-fedora.yaml; 1 file read; "
                       "1 finding")
    assert finding.startswith("vm.yaml:10:11: error: VirtualMachine shop/web $.spec.preference.name: names preference "
                              "'fedora', which catalog catalog with overlay drop-fedora.yaml does not have")
    assert run.stderr == ""


@pytest.mark.parametrize(("given", "said"), [
    (["--bundle", "b.yaml", "--catalog", "catalog"],
     "--catalog: error: --catalog chooses a build, and --bundle names objects already built; give one or the other "
     "[input]\n"),
    (["--to", "b.yaml"], "--to: error: --to names the catalog upgraded to; give --from, the one upgraded from, too "
                         "[input]\n"),
    (["--from", "b.yaml", "--to", "b.yaml", "--kubevirt", "v1.8"],
     "--kubevirt: error: --kubevirt chooses the target, and --to already names it; give one or the other [input]\n"),
    (["--from", "b.yaml", "--to", "b.yaml", "--catalog", "catalog", "--overlay", "o.yaml", "--bundle", "b.yaml"],
     "--catalog: error: --catalog, --overlay, --bundle chooses the target, and --to already names it; give one or "
     "the other [input]\n"),
])
def test_options_that_cannot_go_together_are_refused(here, given, said):
    write(here, "vm.yaml", vm("web", "u1.medium", "fedora"))
    (here / "catalog").mkdir()
    (here / "b.yaml").write_bytes(shared_file(V1_0_0).read_bytes())
    run = refs("vm.yaml", *given)
    assert (run.exit_code, run.stderr) == (2, said)


# --------------------------------------------------------------------------- an upgrade (--from)


def test_an_upgrade_that_breaks_a_name_is_reported_in_text_and_exit_1(here):
    old = shared_file(V1_0_0)
    write(here, "vm.yaml", vm("web", "u1.medium", "centos.stream8"))
    run = refs("vm.yaml", "--from", old)
    assert run.exit_code == 1
    assert run.stdout == (
        "vm.yaml:10:11: error: VirtualMachine shop/web $.spec.preference.name: names preference 'centos.stream8', "
        "which no longer resolves after the upgrade to the built-in catalog: the built-in catalog does not have it: "
        "centos.stream8 was removed in v1.2.1; use 'centos.stream9' [upgrade-breaks]\n"
        "Names that no longer resolve:\n"
        "  preference centos.stream8 (VirtualMachineClusterPreference), 1 reference: the built-in catalog does not "
        "have it: centos.stream8 was removed in v1.2.1; use 'centos.stream9'\n\n"
        "A VirtualMachine already running keeps the copy of its instancetype and preference it stored (its "
        "ControllerRevision) and runs on; what breaks is creating it again from its manifest (a GitOps re-sync, a "
        "new cluster, a restore), and every VirtualMachine that has none yet.\n\n"
        f"from bundle {old} to the built-in catalog v1.8.0-dev: 1 reference to 1 object broken, 0 to 0 objects newly "
        "deprecated, 0 to 0 objects changed in meaning; 2 references checked, 1 file read\n")
    assert run.stderr == ""


def test_an_upgrade_in_json_gives_its_counts_what_breaks_and_what_was_skipped(here):
    old = shared_file(V1_0_0)
    write(here, "vm.yaml", vm("web", "u1.medium", "centos.stream8"))
    (here / "params.yaml").write_text("replicas: 3\n", encoding="utf-8")
    report = json.loads(refs("vm.yaml", "params.yaml", "--from", old, "--format", "json").stdout)
    assert (report["command"], report["exitCode"]) == ("refs", 1)
    assert report["counts"] == {"breaks": 1, "breaksObjects": 1, "changes": 0, "changesObjects": 0, "checked": 2,
                                "deprecates": 0, "deprecatesObjects": 0, "files": 2, "references": 2, "skipped": 1,
                                "unchecked": 0}
    assert [p["rule"] for p in report["problems"]] == ["upgrade-breaks"]
    assert report["skipped"] == ["params.yaml"]
    assert report["upgrade"] == {
        "breaks": [{"family": "preference", "kind": "VirtualMachineClusterPreference", "name": "centos.stream8",
                    "places": [{"column": 11, "document": 0, "file": "vm.yaml", "line": 10,
                                "owner": {"kind": "VirtualMachine", "name": "web", "namespace": "shop"}}],
                    "references": 1, "what": "the built-in catalog does not have it: centos.stream8 was removed in "
                                             "v1.2.1; use 'centos.stream9'"}],
        "changes": [], "deprecates": [], "from": f"bundle {old}", "to": "the built-in catalog"}


# --------------------------------------------------------------------------- what could not be read


def test_nothing_read_is_exit_2(here):
    run = refs("missing.yaml")
    assert (run.exit_code, run.stdout, run.stderr) == (2, "", "missing.yaml: error: no such file or folder [input]\n")


def test_a_folder_without_a_file_is_nothing_read_said_at_citgen(here):
    (here / "empty").mkdir()
    run = refs("empty")
    assert (run.exit_code, run.stdout, run.stderr) == (
        2, "", "citgen: error: no file to read: name manifests, folders or - [input]\ncitgen: nothing could be read\n")
    report = json.loads(refs("empty", "--format", "json").stdout)
    assert {key: report[key] for key in ("command", "counts", "exitCode", "notes", "ok", "outputs")} == {
        "command": "refs", "counts": {}, "exitCode": 2, "notes": ["citgen: nothing could be read"], "ok": False,
        "outputs": []}
    assert [(p["file"], p["line"], p["message"], p["rule"]) for p in report["problems"]] == [
        ("citgen", None, "no file to read: name manifests, folders or -", "input")]


def test_a_file_that_is_not_yaml_beside_one_that_is_is_a_problem_and_exit_1(here):
    write(here, "vm.yaml", vm("web", "u1.medium", "fedora"))
    (here / "broken.yaml").write_text("spec: [unclosed\n", encoding="utf-8")
    run = refs(".")
    assert run.exit_code == 1
    assert run.stderr == ""
    finding, closing = run.stdout.splitlines()
    assert finding.startswith("broken.yaml:2:1: error: malformed YAML: ") and finding.endswith(" [input]")
    assert closing == ("2 references checked against the built-in catalog v1.8.0-dev; 2 files read, 1 problem reading them; "
                       "nothing found")


# --------------------------------------------------------------------------- hostile names, in every format


@pytest.fixture
def hostile(here: Path) -> Path:
    """VMs whose names, and the names they give their preference, are the hostile strings of every writer's test."""
    return write(here, "vms.yaml", *[vm(text, "u1.medium", text) for text in HOSTILE],
                 *[vm(text, "u1.medium", "centos.stream8") for text in HOSTILE])


@pytest.mark.parametrize("fmt", ["text", "github"])
def test_hostile_names_take_no_effect_in_text_and_github(hostile, fmt):
    for args in (("vms.yaml",), ("vms.yaml", "--from", shared_file(V1_0_0))):
        run = refs(*args, "--format", fmt)
        assert run.exit_code == 1
        assert_lines(run.stdout + run.stderr, commands=fmt == "github")


def test_hostile_names_come_back_whole_from_json(hostile):
    assert_json(refs("vms.yaml", "--format", "json").stdout)
    assert_json(refs("vms.yaml", "--from", shared_file(V1_0_0), "--format", "json").stdout, holds=())


def test_hostile_names_are_no_markdown_in_either_comment(hostile):
    for args in (("vms.yaml",), ("vms.yaml", "--from", shared_file(V1_0_0))):
        shown = refs(*args, "--format", "markdown").stdout
        assert_markdown(shown)
        assert_columns_kept(shown)
