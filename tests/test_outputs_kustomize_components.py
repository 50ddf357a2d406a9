"""outputs/kustomize.py on its own: the component of each KubeVirt release and the texts of its patches.

A patch targets one object in all its kinds (``target_name`` escapes the name as
a regular expression and quotes what YAML would not read as written); an object
the release leaves out gets a ``$patch: delete``, an object it changes the
JSON-patch operations of its first kind, one JSON line each where it fits the
width and a YAML block where it does not; comment lines say why, within the
width. ``component_files`` writes a
component per release, the newest one with no patch, and the tree's README.

Private helpers, tested on purpose: the texts of a patch (_flow, _op_text, _delete_text, _comment,
_patch_text) have widths, escapes and values that no release's real differences reach, so each is
pinned here by itself.
"""

from __future__ import annotations

import json

import pytest

from generator.model import CatalogObject, INSTANCETYPE_KINDS, PREFERENCE_KINDS
from generator.outputs import kustomize
from generator.outputs.context import OutputContext
from generator.outputs.kustomize import (
    _comment, _delete_text, _flow, _op_text, _patch_text, component_dir, component_patches,
    target_name)
from generator.outputs.releases import Changed, Op, ReleaseDelta
from generator.problems import Location
from generator.schemas.releases import Release, known, newest
from tests.helpers import default_build

CI, NI = INSTANCETYPE_KINDS
CP, NP = PREFERENCE_KINDS


def obj(family: str, name: str, **more) -> CatalogObject:
    return CatalogObject(family, name, "g", {}, {}, {}, Location("x.yaml", 1), **more)


# --------------------------------------------------------------------------- names and values


def test_a_component_lives_under_components_named_after_its_release():
    assert component_dir(Release(1, 8)) == "components/kubevirt-v1.8"
    assert component_dir("v2.10") == "components/kubevirt-v2.10"


def test_a_target_name_escapes_the_dots_of_a_plain_name():
    assert target_name("u1.large") == "u1\\.large"
    assert target_name("fedora") == "fedora"
    assert target_name("rhel.9-s390x") == "rhel\\.9-s390x"


def test_a_target_name_escapes_every_regular_expression_metacharacter_and_quotes_it():
    escaped = r"a\\\.\+\*\?\(\)\|\[\]\{\}\^\$b"  # each one after a backslash, as Go's QuoteMeta writes
    assert target_name("a\\.+*?()|[]{}^$b") == json.dumps(escaped)
    assert target_name("a+b") == '"a\\\\+b"'


@pytest.mark.parametrize("name, written", [
    ("U1.large", '"U1\\\\.large"'), ("-a", '"-a"'), ("a-", '"a-"'), (".a", '"\\\\.a"'), ("a.", '"a\\\\."'),
    ("a b", '"a b"'), ("a_b", '"a_b"'), ("", '""'), ("é", '"\\u00e9"')])
def test_a_name_yaml_might_not_read_as_written_is_a_json_string(name: str, written: str):
    assert target_name(name) == written


def test_a_one_character_name_is_plain():
    assert target_name("n") == "n"
    assert target_name("7") == "7"


def test_a_flow_value_is_json_with_sorted_keys_and_its_characters_as_they_are():
    assert _flow({"b": 1, "a": ["é", None, True]}) == '{"a": ["é", null, true], "b": 1}'


def test_a_flow_value_escapes_what_yaml_reads_as_a_line_break():
    assert _flow("a\u0085b\u2028c\u2029d\ne") == '"a\\u0085b\\u2028c\\u2029d\\ne"'


# --------------------------------------------------------------------------- operations


def test_a_removal_is_one_line_of_json():
    assert _op_text(Op("remove", ("spec", "devices", "preferredVideoType"))) == (
        '- {"op": "remove", "path": "/spec/devices/preferredVideoType"}')


def test_a_removal_escapes_its_pointer():
    assert _op_text(Op("remove", ("metadata", "labels", "a.io/b~c"))) == (
        '- {"op": "remove", "path": "/metadata/labels/a.io~1b~0c"}')


def test_an_addition_and_a_replacement_are_one_line_of_json_with_their_value():
    assert _op_text(Op("add", ("spec", "cpu"), {"guest": 2, "model": "host"})) == (
        '- {"op": "add", "path": "/spec/cpu", "value": {"guest": 2, "model": "host"}}')
    assert _op_text(Op("replace", ("x",), ["é\u2028"])) == '- {"op": "replace", "path": "/x", "value": ["é\\u2028"]}'


def test_an_operation_whose_line_fits_the_width_once_indented_stays_one_line():
    width = 120 - 6
    fits = Op("remove", ("a" * (width - len('- {"op": "remove", "path": "/"}')),))
    assert len(_op_text(fits)) == width and "\n" not in _op_text(fits)
    value = "v" * (width - len('- {"op": "add", "path": "/x", "value": ""}'))
    assert _op_text(Op("add", ("x",), value)) == '- {"op": "add", "path": "/x", "value": "' + value + '"}'


def test_an_operation_one_character_too_long_is_a_yaml_block():
    width = 120 - 6
    key = "a" * (width + 1 - len('- {"op": "remove", "path": "/"}'))
    assert _op_text(Op("remove", (key,))) == f"- op: remove\n  path: /{key}"
    value = "v" * (width + 1 - len('- {"op": "add", "path": "/x", "value": ""}'))
    assert _op_text(Op("add", ("x",), value)) == f"- op: add\n  path: /x\n  value: {value}"


def test_a_long_operation_is_folded_within_the_width_once_indented():
    text = _op_text(Op("add", ("spec",), "a " * 70))
    assert text == ('- op: add\n  path: /spec\n  value: "' + "a " * 50 + "a\n    " + "a " * 19 + '"')
    assert max(len(line) for line in text.split("\n")) + 6 <= 120


def test_a_deletion_names_the_object_as_its_first_kind():
    assert _delete_text(CP, "fedora.s390x") == "\n".join([
        "$patch: delete", "apiVersion: instancetype.kubevirt.io/v1beta1", f"kind: {CP}", "metadata:",
        '  name: "fedora.s390x"'])


# --------------------------------------------------------------------------- comments and patches


def test_a_comment_line_has_its_white_space_made_single_spaces():
    assert _comment(["a  b\n\tc ", " x\u2028y\u0085z "]) == ["a b c", "x y z"]


def test_a_comment_line_of_exactly_the_width_stays_whole():
    assert _comment(["x " * 57 + "yy"]) == ["x " * 57 + "yy"]
    assert _comment(["a b"], 3) == ["a b"]


def test_a_longer_comment_line_is_wrapped_at_spaces_with_an_indent():
    assert _comment(["x " * 58 + "y"]) == ["x " * 57 + "x", "  y"]
    assert _comment(["a b c"], 3) == ["a b", "  c"]


def test_a_wrapped_comment_line_follows_the_lines_before_it():
    assert _comment(["first", "a b c", "last"], 3) == ["first", "a b", "  c", "last"]


def test_a_comment_wraps_neither_within_a_word_nor_at_a_hyphen():
    assert _comment(["one-two three-four"], 10) == ["one-two", "  three-four"]
    assert _comment(["abcdefghijkl mn"], 5) == ["abcdefghijkl", "  mn"]


def test_a_comment_says_each_line_given_and_turns_values_into_text():
    assert _comment([1, "two"]) == ["1", "two"]
    assert _comment([]) == []


def test_a_patch_is_its_comments_its_target_and_its_body_indented():
    assert _patch_text([CP, NP], "a.b", ["why", "and why"], "line 1\n  line 2") == "\n".join([
        "  # why", "  # and why", "  - target:", f"      kind: {CP}|{NP}", "      name: a\\.b", "    patch: |",
        "      line 1", "        line 2"])


def test_an_empty_line_of_a_patch_body_gets_no_trailing_spaces():
    assert _patch_text([CI], "a", [], "x\n\ny\n") == "\n".join([
        "  - target:", f"      kind: {CI}", "      name: a", "    patch: |", "      x", "", "      y", ""])


# --------------------------------------------------------------------------- a release's patches

U1 = obj("instancetype", "u1.small")
FEDORA = obj("preference", "fedora")
SAME_NAME = obj("preference", "u1.small")
OPS = {CI: (Op("remove", ("spec", "a")), Op("add", ("spec", "b"), 1)), NI: (Op("remove", ("spec", "nope")),)}


def delta(left_out=(), changed=(), why=None) -> ReleaseDelta:
    return ReleaseDelta(Release(1, 0), tuple(left_out), tuple(changed), why or {})


def test_an_object_left_out_is_deleted_in_each_of_its_kinds_saying_why():
    patches = component_patches(delta([FEDORA], why={"preference/fedora": ("fedora: too new", "really")}),
                                [U1, FEDORA])
    assert patches == ["\n".join([
        "  # fedora: too new", "  # really", "  - target:", f"      kind: {CP}|{NP}", "      name: fedora",
        "    patch: |", "      $patch: delete", "      apiVersion: instancetype.kubevirt.io/v1beta1",
        f"      kind: {CP}", "      metadata:", '        name: "fedora"'])]


def test_an_object_left_out_without_a_reason_says_it_is_left_out():
    [patch] = component_patches(delta([U1], why={"instancetype/u1.large": ("another",)}), [U1])
    assert patch.split("\n")[:3] == ["  # u1.small: left out", "  - target:", f"      kind: {CI}|{NI}"]


def test_an_object_changed_gets_the_operations_of_its_first_kind_saying_why():
    patches = component_patches(delta(changed=[Changed(U1, OPS, ("u1.small: spec.a (v1.1)",))]), [U1])
    assert patches == ["\n".join([
        "  # u1.small: spec.a (v1.1)", "  - target:", f"      kind: {CI}|{NI}", "      name: u1\\.small",
        "    patch: |", '      - {"op": "remove", "path": "/spec/a"}',
        '      - {"op": "add", "path": "/spec/b", "value": 1}'])]


def test_an_object_changed_without_a_reason_says_it_is_changed():
    [patch] = component_patches(delta(changed=[Changed(U1, OPS, ())]), [U1])
    assert patch.split("\n")[0] == "  # u1.small: changed"


def test_an_object_of_some_kinds_only_is_targeted_in_those():
    only = obj("instancetype", "u1.small", only_kinds=(NI,))
    [patch] = component_patches(delta([only]), [only])
    assert patch.split("\n")[2] == f"      kind: {NI}"
    assert patch.split("\n")[7] == f"      kind: {NI}"
    [patch] = component_patches(delta(changed=[Changed(only, {NI: OPS[NI]}, ())]), [only])
    assert patch.split("\n")[2:] == [f"      kind: {NI}", "      name: u1\\.small", "    patch: |",
                                     '      - {"op": "remove", "path": "/spec/nope"}']


def test_patches_follow_the_build_order_and_only_objects_the_release_touches_get_one():
    untouched = obj("instancetype", "o1.small")
    release = delta([FEDORA], [Changed(U1, OPS, ())])
    patches = component_patches(release, [FEDORA, untouched, U1])
    assert [p.split("\n")[0] for p in patches] == ["  # fedora: left out", "  # u1.small: changed"]
    patches = component_patches(release, [U1, untouched, FEDORA])
    assert [p.split("\n")[0] for p in patches] == ["  # u1.small: changed", "  # fedora: left out"]
    assert component_patches(delta(), [U1, FEDORA]) == []


def test_objects_are_told_apart_by_family_and_name():
    release = delta([SAME_NAME], [], {"preference/u1.small": ("the preference",),
                                      "instancetype/u1.small": ("the instancetype",)})
    assert [p.split("\n")[:3] for p in component_patches(release, [U1, SAME_NAME])] == [
        ["  # the preference", "  - target:", f"      kind: {CP}|{NP}"]]
    release = delta([], [Changed(SAME_NAME, {CP: (Op("remove", ("p",)),)}, ("the preference",))])
    assert [p.split("\n")[:3] for p in component_patches(release, [U1, SAME_NAME])] == [
        ["  # the preference", "  - target:", f"      kind: {CP}|{NP}"]]


def test_each_patch_says_its_own_object_reasons_and_operations():
    first = component_patches(delta([U1], why={"instancetype/u1.small": ("one",)}), [U1])
    assert component_patches(delta([U1], why={"instancetype/u1.small": ("one",)}), [U1]) == first
    assert component_patches(delta([U1], why={"instancetype/u1.small": ("two",)}), [U1])[0].startswith("  # two\n")
    only = obj("instancetype", "u1.small", only_kinds=(NI,))
    assert f"kind: {NI}\n" in component_patches(delta([only], why={"instancetype/u1.small": ("one",)}), [only])[0]
    changed = component_patches(delta(changed=[Changed(U1, OPS, ("one",))]), [U1])
    assert changed[0] != first[0] and changed[0].endswith('"value": 1}')
    other_ops = {CI: (Op("remove", ("spec", "c")),)}
    assert component_patches(delta(changed=[Changed(U1, other_ops, ("one",))]), [U1])[0].endswith('"/spec/c"}')
    assert component_patches(delta(changed=[Changed(U1, OPS, ("two",))]), [U1])[0].startswith("  # two\n")


def test_objects_changed_alike_each_get_a_patch_naming_them():
    other = obj("instancetype", "u1.large")
    patches = component_patches(delta(changed=[Changed(U1, OPS, ("why",)), Changed(other, OPS, ("why",))]),
                                [U1, other])
    assert [p.split("\n")[3] for p in patches] == ["      name: u1\\.small", "      name: u1\\.large"]
    assert component_patches(delta(changed=[Changed(U1, OPS, ("other why",))]), [U1])[0].split("\n")[0] == (
        "  # other why")


# --------------------------------------------------------------------------- the components of a build

HEAD = """\
# Generated by citgen from the catalog (v1.8.0-dev); do not edit: build again.
# The catalog as KubeVirt {release} accepts it: the objects `citgen build --kubevirt {release}` writes.
{what}
# Add it to a kustomization of the whole tree or of any kind, series or family directory in it;
# a patch whose object is not there does nothing:
#   resources: [<the tree or a directory of it>]
#   components: [<this directory>]
apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Component
"""


def component(release: str) -> str:
    return default_build().files[f"kustomize/{component_dir(release)}/kustomization.yaml"].decode()


def test_a_build_has_a_component_for_each_release_up_to_its_own():
    names = [n for n in default_build().files if n.startswith("kustomize/components/")]
    assert names == [f"kustomize/components/kubevirt-{r}/kustomization.yaml" for r in known()]
    assert known()[-1] == newest() == Release(1, 9)


def test_the_component_of_the_release_built_for_changes_nothing():
    assert component("v1.9") == HEAD.format(release="v1.9", what=(
        "# v1.9 is the release these objects were built for: this component changes nothing.")) + "patches: []\n"


def test_the_component_of_an_older_release_lists_a_patch_per_object_it_leaves_out_or_changes():
    text = component("v1.8")
    head = HEAD.format(release="v1.8", what=(
        "# 3 objects left out, 9 changed; each patch is one object, in each of its kinds.")) + "patches:\n"
    assert text.startswith(head + "\n".join([
        "  # preference fedora.s390x.secex: spec.preferredLaunchSecurity (KubeVirt v1.9) object left out",
        "  - target:", f"      kind: {CP}|{NP}", "      name: fedora\\.s390x\\.secex", "    patch: |",
        "      $patch: delete", "      apiVersion: instancetype.kubevirt.io/v1beta1", f"      kind: {CP}",
        "      metadata:", '        name: "fedora.s390x.secex"', "  # preference rhel.10.s390x.secex:"]))
    assert text.count("\n  - target:\n") == 12 and text.count("$patch: delete") == 3
    assert text.endswith('"}\n') and not text.endswith("\n\n")
    assert "\n      - {\"op\": \"remove\", \"path\": \"/spec/devices/preferredVideoType\"}\n  # preference" in text


def test_the_components_patches_are_the_release_deltas_patches():
    build = default_build()
    ctx = OutputContext(build.catalog, build.version, build.objects, build.bundles, documents=build.documents)
    render = kustomize._Kustomizations(ctx)
    files = kustomize.component_files(ctx, render)
    for d in kustomize.build_deltas(ctx):
        patches = component_patches(d, build.objects)
        text = files[f"kustomize/{component_dir(d.release)}/kustomization.yaml"].decode()
        assert text.endswith("".join(p + "\n" for p in patches)), d.release
        assert text.count("\n  - target:\n") == len(patches) == len(d.left_out) + len(d.changed)


README_TABLE = """\
| component | objects left out | objects changed |
| --- | --- | --- |
| `components/kubevirt-v1.0` | 3 | 80 |
| `components/kubevirt-v1.1` | 3 | 49 |
| `components/kubevirt-v1.2` | 3 | 49 |
| `components/kubevirt-v1.3` | 3 | 37 |
| `components/kubevirt-v1.4` | 3 | 21 |
| `components/kubevirt-v1.5` | 3 | 21 |
| `components/kubevirt-v1.6` | 3 | 21 |
| `components/kubevirt-v1.7` | 3 | 9 |
| `components/kubevirt-v1.8` | 3 | 9 |
| `components/kubevirt-v1.9` | 0 | 0 |
"""


def test_the_readme_names_each_kind_directory_and_tabulates_the_components():
    text = default_build().files["kustomize/README.md"].decode()
    assert text.startswith("# The catalog as kustomize bases\n\n"
                           "Generated by citgen from the catalog (v1.8.0-dev); do not edit: build again.\n\n"
                           "`kustomization.yaml` here gives every object of `common-instancetypes-all-bundle.yaml`;\n"
                           f"`instancetypes/cluster/` the {CI} objects,\n"
                           f"`preferences/cluster/` the {CP} objects,\n"
                           f"`instancetypes/namespaced/` the {NI} objects,\n"
                           f"`preferences/namespaced/` the {NP} objects,\n"
                           "and each directory below a kind one series or OS family of it.")
    assert "\nThese objects are for KubeVirt v1.9, the newest release citgen knows. An older\n" in text
    assert text.endswith("\n\n" + README_TABLE)


def test_the_readme_of_a_build_for_an_older_release_says_so_and_its_component_changes_nothing():
    from generator.pipeline import BuildOptions, generate

    files = generate(BuildOptions(kubevirt=Release(1, 7))).files
    text = files["kustomize/README.md"].decode()
    assert ("\nThese objects are for KubeVirt v1.7, the release they were built for "
            "(`citgen build --kubevirt v1.7`). An older\n") in text
    assert text.endswith("| `components/kubevirt-v1.6` | 0 | 12 |\n| `components/kubevirt-v1.7` | 0 | 0 |\n")
    assert files["kustomize/components/kubevirt-v1.7/kustomization.yaml"].decode() == HEAD.format(
        release="v1.7", what="# v1.7 is the release these objects were built for: this component changes nothing."
    ) + "patches: []\n"
    assert "kustomize/components/kubevirt-v1.8/kustomization.yaml" not in files
