"""Templates of a vendor catalog run in a sandbox: they render data, and nothing more.

Each hostile template below tries to reach Python internals, the environment,
files, or to change the data or exhaust memory; each must end in an
InputError naming the template file and line, never in output or a traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import InputError
from generator.model import CatalogObject
from generator.problems import Location
from generator.render import Renderer

SECRET = "citgen-sandbox-secret-value"

OBJECT = CatalogObject(
    family="instancetype",
    name="u1.large",
    group="u",
    labels={"instancetype.kubevirt.io/cpu": "2"},
    annotations={"instancetype.kubevirt.io/description": "General purpose."},
    spec={"cpu": {"guest": 2}, "memory": {"guest": "8Gi"}},
    location=Location("series/u.yaml", 1, 1),
)

HOSTILE = {
    "class of a string": "{{ ''.__class__ }}",
    "method resolution order": "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "function globals": "{{ lipsum.__globals__['os'].environ }}",
    "class init globals": "{{ cycler.__init__.__globals__.os.environ }}",
    "template module": "{{ self._TemplateReference__context }}",
    "format string attribute": "{{ '{0.__class__}'.format(name) }}",
    "dict mutation": "{{ labels.update({'x': 'y'}) }}",
    "spec mutation": "{{ spec.cpu.pop('guest') }}",
    "list mutation": "{% set items = [1] %}{{ items.append(2) }}",
    "absolute include": "{% include '/etc/passwd' %}",
    "relative include": "{% include '../secret.txt' %}",
    "import of a python module": "{% import 'os' as os %}{{ os.environ }}",
    "huge string": "{{ 'x' * 10 ** 10 }}",
    "huge list": "{{ [0] * 10 ** 9 }}",
    "huge power": "{{ 7 ** 999999 }}",
    "huge range": "{{ range(10 ** 9) | list | length }}",
}


def renderer(tmp_path: Path, body: str) -> Renderer:
    templates = tmp_path / "catalog" / "templates"
    templates.mkdir(parents=True)
    (tmp_path / "catalog" / "secret.txt").write_text(SECRET)
    (templates / "instancetype.yaml.j2").write_text(
        "---\napiVersion: {{ api_version }}\nkind: {{ kind }}\n" + body + "\nmetadata:\n"
        "  name: {{ name | yaml_scalar }}\nspec:{{ spec | yaml_block(2) }}\n")
    return Renderer([templates])


@pytest.mark.parametrize("body", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_template_is_refused_naming_its_file_and_line(tmp_path, monkeypatch, body):
    monkeypatch.setenv("CITGEN_SANDBOX_SECRET", SECRET)
    with pytest.raises(InputError) as caught:
        renderer(tmp_path, body).render(OBJECT, "VirtualMachineClusterInstancetype")
    [problem] = caught.value.problems
    assert problem.location.file == "templates/instancetype.yaml.j2"
    assert problem.location.line == 4
    assert SECRET not in problem.message
    assert str(tmp_path) not in problem.message  # no search paths or other local details


def test_the_data_is_unchanged_after_a_refused_mutation(tmp_path):
    with pytest.raises(InputError):
        renderer(tmp_path, "{{ spec.cpu.pop('guest') }}").render(OBJECT, "VirtualMachineClusterInstancetype")
    assert OBJECT.spec == {"cpu": {"guest": 2}, "memory": {"guest": "8Gi"}}


def test_ordinary_template_code_still_works(tmp_path):
    body = ("# {{ labels | length }} label, {{ 2 ** 10 }} {{ 'ab' * 3 }} {{ range(3) | list }}"
            " {{ name.split('.')[0] | upper }} {% for k, v in spec.cpu | dictsort %}{{ k }}={{ v }}{% endfor %}")
    text = renderer(tmp_path, body).render(OBJECT, "VirtualMachineClusterInstancetype")
    assert "# 1 label, 1024 ababab [0, 1, 2] U1 guest=2\n" in text


def test_an_undefined_name_is_an_error_not_an_empty_string(tmp_path):
    with pytest.raises(InputError) as caught:
        renderer(tmp_path, "# {{ descriptoin }}").render(OBJECT, "VirtualMachineClusterInstancetype")
    assert [str(p) for p in caught.value.problems] == [
        "templates/instancetype.yaml.j2:4: undefined value in template: 'descriptoin' is undefined"]


def test_a_syntax_error_names_the_line(tmp_path):
    with pytest.raises(InputError) as caught:
        renderer(tmp_path, "# {% if name %}never closed").render(OBJECT, "VirtualMachineClusterInstancetype")
    [problem] = caught.value.problems
    assert problem.location.file == "templates/instancetype.yaml.j2"
    assert problem.message.startswith("template syntax error: ")

