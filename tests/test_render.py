"""generator/render/__init__.py: the Renderer, seen from a vendor writing templates.

Each test writes the catalog's templates into its own folder, renders small
objects through a ``Renderer`` and checks the exact text, or the exact message
a broken template gets: the template's file (under the display prefix), the
object and kind being rendered, and what to write instead.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import InputError
from generator.model import CatalogObject
from generator.problems import Location
from generator.render import TEMPLATES, Renderer, rendering

CLUSTER_IT, IT = "VirtualMachineClusterInstancetype", "VirtualMachineInstancetype"
CLUSTER_PREF, PREF = "VirtualMachineClusterPreference", "VirtualMachinePreference"

#: The built-in templates' shape: every value through the yaml filters.
OBJECT = """\
---
apiVersion: {{ api_version }}
kind: {{ kind }}
metadata:
  annotations:{{ annotations | yaml_block(4) }}
  labels:{{ labels | yaml_block(4) }}
  name: {{ name | yaml_scalar }}
spec:{{ spec | yaml_block(2) }}
"""
IT_FILE, PREF_FILE = "templates/instancetype.yaml.j2", "templates/preference.yaml.j2"
PASS_VALUES = "pass values through the yaml_scalar or yaml_block filters"
ONE_OBJECT = "a template renders exactly one object"
WRITE_KIND_AND_NAME = "write kind: {{ kind }} and name: {{ name | yaml_scalar }}"


def instancetype(name: str = "u1.small", cpu: int = 1, only_kinds: tuple[str, ...] = ()) -> CatalogObject:
    return CatalogObject("instancetype", name, name.split(".")[0], {"instancetype.kubevirt.io/cpu": str(cpu)},
                         {"instancetype.kubevirt.io/description": "small"}, {"cpu": {"guest": cpu}},
                         Location("series/u.yaml"), only_kinds=only_kinds)


def preference(name: str = "fedora") -> CatalogObject:
    return CatalogObject("preference", name, name, {"instancetype.kubevirt.io/os-type": "linux"},
                         {"openshift.io/display-name": "Fedora"}, {"devices": {"preferredDiskBus": "virtio"}},
                         Location("preferences/fedora.yaml"))


def it_text(kind: str, name: str = "u1.small", cpu: int = 1) -> str:
    """What OBJECT renders for ``instancetype(name, cpu)`` as ``kind``."""
    return (f"---\napiVersion: instancetype.kubevirt.io/v1beta1\nkind: {kind}\nmetadata:\n"
            f"  annotations:\n    instancetype.kubevirt.io/description: small\n"
            f"  labels:\n    instancetype.kubevirt.io/cpu: '{cpu}'\n  name: {name}\n"
            f"spec:\n  cpu:\n    guest: {cpu}\n")


def pref_text(kind: str, name: str = "fedora") -> str:
    """What OBJECT renders for ``preference(name)`` as ``kind``."""
    return (f"---\napiVersion: instancetype.kubevirt.io/v1beta1\nkind: {kind}\nmetadata:\n"
            f"  annotations:\n    openshift.io/display-name: Fedora\n"
            f"  labels:\n    instancetype.kubevirt.io/os-type: linux\n  name: {name}\n"
            "spec:\n  devices:\n    preferredDiskBus: virtio\n")


def templates(folder: Path, instancetype: str | bytes | None = OBJECT,
              preference: str | bytes | None = OBJECT) -> Path:
    """A templates folder holding the two templates given (None: that one is absent)."""
    folder.mkdir(exist_ok=True)
    for name, text in (("instancetype.yaml.j2", instancetype), ("preference.yaml.j2", preference)):
        if isinstance(text, bytes):
            (folder / name).write_bytes(text)
        elif text is not None:
            (folder / name).write_text(text, encoding="utf-8")
    return folder


def refusal(call) -> list[str]:
    with pytest.raises(InputError) as caught:
        call()
    return [str(p) for p in caught.value.problems]


# --------------------------------------------------------------------------- which template, and its errors


def test_each_family_has_its_own_template_file():
    assert TEMPLATES == {"instancetype": "instancetype.yaml.j2", "preference": "preference.yaml.j2"}


def test_an_instancetype_and_a_preference_are_rendered_through_their_own_templates(tmp_path):
    folder = templates(tmp_path / "t", instancetype="---\nkind: {{ kind }}\nmetadata: {name: {{ name }}}\n# it\n",
                       preference="---\nkind: {{ kind }}\nmetadata: {name: {{ name }}}\n# pref\n")
    renderer = Renderer([folder])
    assert renderer.render(instancetype(), IT) == "---\nkind: VirtualMachineInstancetype\nmetadata: {name: u1.small}\n# it\n"
    assert renderer.render(preference(), PREF) == "---\nkind: VirtualMachinePreference\nmetadata: {name: fedora}\n# pref\n"


def test_a_template_sees_the_api_version_kind_name_labels_annotations_and_spec(tmp_path):
    renderer = Renderer([templates(tmp_path / "t")])
    assert renderer.render(instancetype("u1.large", cpu=2), CLUSTER_IT) == it_text(CLUSTER_IT, "u1.large", 2)
    assert renderer.render(preference("rhel.9"), CLUSTER_PREF) == pref_text(CLUSTER_PREF, "rhel.9")


def test_an_earlier_templates_folder_wins_over_a_later_one(tmp_path):
    vendor = templates(tmp_path / "vendor", instancetype="vendor {{ name }}\n", preference=None)
    builtin = templates(tmp_path / "builtin", instancetype="builtin {{ name }}\n", preference="builtin {{ name }}\n")
    renderer = Renderer([vendor, builtin])
    assert renderer.render(instancetype(), IT) == "vendor u1.small\n"
    assert renderer.render(preference(), PREF) == "builtin fedora\n"


def test_a_missing_template_is_refused_under_the_templates_folder(tmp_path):
    renderer = Renderer([templates(tmp_path / "t", preference=None)])
    assert refusal(lambda: renderer.render(preference(), PREF)) == [f"{PREF_FILE}: template not found"]


def test_a_missing_template_is_named_with_the_display_prefix_given(tmp_path):
    renderer = Renderer([templates(tmp_path / "t", instancetype=None)], display_prefix="vendor/templates/")
    assert refusal(lambda: renderer.render(instancetype(), IT)) == [
        "vendor/templates/instancetype.yaml.j2: template not found"]
    assert refusal(lambda: renderer.render_all([instancetype()])) == [
        "vendor/templates/instancetype.yaml.j2: template not found"]


def test_a_template_with_a_syntax_error_is_refused_at_its_line(tmp_path):
    renderer = Renderer([templates(tmp_path / "t", preference="---\nkind: {{ kind }}\nname: {% if %}\n")])
    assert refusal(lambda: renderer.render(preference(), PREF)) == [
        f"{PREF_FILE}:3: template syntax error: Expected an expression, got 'end of statement block'"]


def test_a_template_that_is_not_utf8_is_refused_naming_the_byte(tmp_path):
    latin1 = "{# caf\u00e9 #}\n".encode("latin-1") + OBJECT.encode()
    renderer = Renderer([templates(tmp_path / "t", instancetype=latin1)])
    assert refusal(lambda: renderer.render(instancetype(), IT)) == [
        f"{IT_FILE}: not UTF-8 text (invalid continuation byte at byte 6)"]


def test_a_template_is_compiled_once_and_kept_for_the_build(tmp_path):
    folder = templates(tmp_path / "t")
    renderer = Renderer([folder])
    with rendering():  # one rendering process, as a build has
        first = renderer.render(instancetype(), IT)
        (folder / "instancetype.yaml.j2").write_text("changed {{ name }}\n", encoding="utf-8")
        assert renderer.render(instancetype(), IT) == first == it_text(IT)


def test_a_failure_inside_a_template_is_refused_at_the_template_line(tmp_path):
    renderer = Renderer([templates(tmp_path / "t", preference="---\nkind: {{ kind }}\nname: {{ nmae }}\n")])
    assert refusal(lambda: renderer.render(preference(), PREF)) == [
        f"{PREF_FILE}:3: undefined value in template: 'nmae' is undefined"]


def test_a_failure_inside_a_template_is_named_with_the_display_prefix(tmp_path):
    renderer = Renderer([templates(tmp_path / "t", instancetype="{{ 1 // 0 }}\n")], display_prefix="v/")
    assert refusal(lambda: renderer.render(instancetype(), IT)) == [
        "v/instancetype.yaml.j2:1: template failed: ZeroDivisionError: integer division or modulo by zero"]


def test_a_template_cannot_change_the_objects_labels_or_annotations(tmp_path):
    obj = instancetype()
    source = "{{ labels.update({'x': 'y'}) }}{{ annotations.clear() }}\n"
    renderer = Renderer([templates(tmp_path / "t", instancetype=source)])
    assert refusal(lambda: renderer.render(obj, IT))[0].startswith(
        f"{IT_FILE}:1: template tried something the sandbox forbids:")
    assert dict(obj.labels) == {"instancetype.kubevirt.io/cpu": "1"}


# --------------------------------------------------------------------------- render_all: order and kinds


def test_render_all_gives_each_kinds_texts_in_the_order_of_the_objects(tmp_path):
    renderer = Renderer([templates(tmp_path / "t")])
    out = renderer.render_all([instancetype("u1.small", 1), preference("fedora"), instancetype("u1.large", 2)])
    assert out == {
        CLUSTER_IT: [it_text(CLUSTER_IT, "u1.small", 1), it_text(CLUSTER_IT, "u1.large", 2)],
        IT: [it_text(IT, "u1.small", 1), it_text(IT, "u1.large", 2)],
        CLUSTER_PREF: [pref_text(CLUSTER_PREF)],
        PREF: [pref_text(PREF)],
    }
    assert list(out) == [CLUSTER_IT, IT, CLUSTER_PREF, PREF]


def test_render_all_renders_an_object_retained_in_some_kinds_only_in_those(tmp_path):
    renderer = Renderer([templates(tmp_path / "t")])
    out = renderer.render_all([instancetype("u1.old", only_kinds=(IT,)), instancetype("u1.small")])
    assert out == {IT: [it_text(IT, "u1.old"), it_text(IT)], CLUSTER_IT: [it_text(CLUSTER_IT)]}


def test_render_all_of_nothing_is_empty(tmp_path):
    assert Renderer([templates(tmp_path / "t")]).render_all([]) == {}


def test_render_all_gives_what_render_gives(tmp_path):
    renderer = Renderer([templates(tmp_path / "t")])
    objects = [instancetype("u1.small"), preference("fedora")]
    out = renderer.render_all(objects)
    assert out == {kind: [Renderer([tmp_path / "t"]).render(obj, kind)] for obj in objects for kind in obj.kinds}


# --------------------------------------------------------------------------- the yaml filters, each value alike


def test_the_same_value_at_different_indents_is_written_at_each(tmp_path):
    source = ("---\nkind: {{ kind }}\nmetadata: {name: {{ name }}}\n"
              "b:{{ spec.cpu | yaml_block(2) }}\n"
              "c:\n  d:{{ spec.cpu | yaml_block(4) }}\n"
              "e:{{ spec.cpu | yaml_block(indent=2) }}\n"
              "f:\n  g:{{ spec.cpu | yaml_block(indent=4) }}\n")
    out = Renderer([templates(tmp_path / "t", instancetype=source)]).render_all([instancetype()])
    assert out[IT] == [("---\nkind: VirtualMachineInstancetype\nmetadata: {name: u1.small}\n"
                        "b:\n  guest: 1\n"
                        "c:\n  d:\n    guest: 1\n"
                        "e:\n  guest: 1\n"
                        "f:\n  g:\n    guest: 1\n")]


def test_yaml_scalar_given_an_argument_fails_even_after_yaml_block_wrote_the_same_value(tmp_path):
    source = "b:{{ spec.cpu | yaml_block(2) }}\nc: {{ spec.cpu | yaml_scalar(2) }}\n"
    renderer = Renderer([templates(tmp_path / "t", instancetype=source)])
    assert refusal(lambda: renderer.render_all([instancetype()])) == [
        f"{IT_FILE}:2: template failed: TypeError: yaml_scalar() takes 1 positional argument but 2 were given"]


def test_equal_values_that_are_different_objects_are_each_written(tmp_path):
    """The memory is by identity: a label map and an annotation map alike in content are two values."""
    obj = CatalogObject("preference", "p", "p", {"k": "v"}, {"k": "v"}, {}, Location("preferences/p.yaml"))
    out = Renderer([templates(tmp_path / "t")]).render_all([obj])
    assert out[PREF] == ["---\napiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachinePreference\n"
                         "metadata:\n  annotations:\n    k: v\n  labels:\n    k: v\n  name: p\nspec: {}\n"]


# --------------------------------------------------------------------------- what a template renders is read back


def refused_by_render_all(tmp_path, source: str, obj: CatalogObject | None = None, **kwargs) -> list[str]:
    obj = obj or instancetype()
    family = {"instancetype": source} if obj.family == "instancetype" else {"preference": source}
    renderer = Renderer([templates(tmp_path / "t", **family)], **kwargs)
    return refusal(lambda: renderer.render_all([obj]))


def test_a_template_that_renders_two_documents_is_refused_naming_the_template(tmp_path):
    source = OBJECT + "---\nkind: {{ kind }}\nmetadata:\n  name: extra\n"
    assert refused_by_render_all(tmp_path, source) == [
        f"{IT_FILE}: rendering 'u1.small' as {CLUSTER_IT} gave 2 documents; {ONE_OBJECT}"]


def test_a_template_that_renders_nothing_is_refused(tmp_path):
    assert refused_by_render_all(tmp_path, "{# nothing #}\n", preference()) == [
        f"{PREF_FILE}: rendering 'fedora' as {CLUSTER_PREF} gave 0 documents; {ONE_OBJECT}"]


@pytest.mark.parametrize("source, got", [("- a\n- b\n", "a list"), ("just text\n", "a str"), ("42\n", "a int")],
                         ids=["list", "text", "number"])
def test_a_template_that_renders_something_other_than_a_mapping_is_refused(tmp_path, source, got):
    assert refused_by_render_all(tmp_path, source) == [
        f"{IT_FILE}: rendering 'u1.small' as {CLUSTER_IT} gave {got}, not a mapping; {ONE_OBJECT}"]


def test_a_template_that_writes_a_value_without_the_filters_is_refused_as_not_yaml(tmp_path):
    source = OBJECT.replace("name: {{ name | yaml_scalar }}", "name: {{ name }}: {{ name }}")
    assert refused_by_render_all(tmp_path, source) == [
        f"{IT_FILE}: rendering 'u1.small' as {CLUSTER_IT} gave text that is not valid YAML "
        f"(the text:9:17: malformed YAML: mapping values are not allowed in this context); {PASS_VALUES}"]


def test_a_template_that_writes_a_key_twice_is_refused_not_merged(tmp_path):
    assert refused_by_render_all(tmp_path, OBJECT + "kind: {{ kind }}\n", preference()) == [
        f"{PREF_FILE}: rendering 'fedora' as {CLUSTER_PREF} gave text that is not valid YAML "
        f"(the text:13:1: kind: duplicate key 'kind' (first at line 3)); {PASS_VALUES}"]


def test_every_problem_of_the_text_is_listed_in_one_refusal(tmp_path):
    source = "kind: {{ kind }}\nmetadata: {name: {{ name }}}\nkind: again\nmetadata: again\n"
    assert refused_by_render_all(tmp_path, source) == [
        f"{IT_FILE}: rendering 'u1.small' as {CLUSTER_IT} gave text that is not valid YAML "
        "(the text:3:1: kind: duplicate key 'kind' (first at line 1); "
        "the text:4:1: metadata: duplicate key 'metadata' (first at line 2)); " + PASS_VALUES]


def test_a_refusal_is_named_with_the_display_prefix(tmp_path):
    assert refused_by_render_all(tmp_path, "[]\n", display_prefix="catalogs/acme/templates/") == [
        f"catalogs/acme/templates/instancetype.yaml.j2: rendering 'u1.small' as {CLUSTER_IT} gave a list, "
        f"not a mapping; {ONE_OBJECT}"]


@pytest.mark.parametrize("source, kind, name", [
    ("kind: Pod\nmetadata: {name: {{ name }}}\n", "'Pod'", "'u1.small'"),
    ("kind: {{ kind }}\nmetadata: {name: other}\n", f"'{CLUSTER_IT}'", "'other'"),
    ("kind: {{ kind }}\nmetadata: {}\n", f"'{CLUSTER_IT}'", "None"),
    ("kind: {{ kind }}\nmetadata: u1.small\n", f"'{CLUSTER_IT}'", "None"),
    ("kind: {{ kind }}\nname: {{ name }}\n", f"'{CLUSTER_IT}'", "None"),
    ("metadata: {name: {{ name }}}\n", "None", "'u1.small'"),
], ids=["wrong kind", "wrong name", "no name", "metadata not a mapping", "no metadata", "no kind"])
def test_a_template_that_renders_the_wrong_kind_or_name_is_refused(tmp_path, source, kind, name):
    assert refused_by_render_all(tmp_path, source) == [
        f"{IT_FILE}: rendering 'u1.small' as {CLUSTER_IT} gave an object of kind {kind} named {name}; "
        f"{WRITE_KIND_AND_NAME}"]


def test_each_kind_is_checked_for_its_own_name(tmp_path):
    """A template that writes the cluster kind whatever it is asked for is refused at the namespaced kind."""
    source = f"kind: {CLUSTER_PREF}\nmetadata: {{name: {{{{ name }}}}}}\n"
    assert refused_by_render_all(tmp_path, source, preference()) == [
        f"{PREF_FILE}: rendering 'fedora' as {PREF} gave an object of kind '{CLUSTER_PREF}' named 'fedora'; "
        f"{WRITE_KIND_AND_NAME}"]


def test_a_name_is_compared_as_text_with_the_objects_name(tmp_path):
    """A name the YAML reads as a number is not the object's name: the template must quote it."""
    obj = CatalogObject("instancetype", "1.5", "1", {}, {}, {}, Location("series/n.yaml"))
    source = "kind: {{ kind }}\nmetadata: {name: {{ name }}}\n"
    assert refused_by_render_all(tmp_path, source, obj) == [
        f"{IT_FILE}: rendering '1.5' as {CLUSTER_IT} gave an object of kind '{CLUSTER_IT}' named 1.5; "
        f"{WRITE_KIND_AND_NAME}"]
    renderer = Renderer([templates(tmp_path / "ok")])
    assert renderer.render_all([obj])[IT] == [
        "---\napiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineInstancetype\nmetadata:\n"
        "  annotations: {}\n  labels: {}\n  name: '1.5'\nspec: {}\n"]


def test_only_the_first_object_of_each_family_and_kind_is_read_back(tmp_path):
    """Reading back the first rendering of each kind is enough to catch a broken template; the others
    are not read again here (the bundles are read as a whole later), so a template that breaks only
    for some data passes this check."""
    source = OBJECT + "{% if name == 'u1.large' %}---\nkind: extra\n{% endif %}"
    renderer = Renderer([templates(tmp_path / "t", instancetype=source)])
    out = renderer.render_all([instancetype("u1.small"), instancetype("u1.large", 2)])
    assert out[IT][1] == it_text(IT, "u1.large", 2) + "---\nkind: extra\n"
    assert refusal(lambda: Renderer([tmp_path / "t"]).render_all([instancetype("u1.large", 2)])) == [
        f"{IT_FILE}: rendering 'u1.large' as {CLUSTER_IT} gave 2 documents; {ONE_OBJECT}"]


def test_every_kind_is_read_back_not_only_the_first(tmp_path):
    source = OBJECT + "{% if kind == 'VirtualMachineInstancetype' %}---\nkind: extra\n{% endif %}"
    assert refused_by_render_all(tmp_path, source) == [
        f"{IT_FILE}: rendering 'u1.small' as {IT} gave 2 documents; {ONE_OBJECT}"]


def test_each_family_is_read_back(tmp_path):
    """The instancetype template being sound says nothing of the preference template."""
    renderer = Renderer([templates(tmp_path / "t", preference="[]\n")])
    assert refusal(lambda: renderer.render_all([instancetype(), preference()])) == [
        f"{PREF_FILE}: rendering 'fedora' as {CLUSTER_PREF} gave a list, not a mapping; {ONE_OBJECT}"]


def test_render_alone_does_not_read_the_text_back(tmp_path):
    renderer = Renderer([templates(tmp_path / "t", instancetype="not: [yaml\n")])
    assert renderer.render(instancetype(), IT) == "not: [yaml\n"
