"""generator/render/sandbox.py: the one Jinja environment every template is rendered with.

What a template meets: an undefined variable is an error, a template's last newline is
kept, nothing is HTML-escaped, the two yaml filters are there, a template is read once
per environment, an earlier folder wins over a later one, and an operator on constants
is computed when the template is rendered, never folded into its compiled code.
tests/test_render_sandbox_errors.py pins the problems a failure becomes.
"""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from generator.render.sandbox import environment


def folder(root: Path, **templates: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in templates.items():
        (root / f"{name}.j2").write_text(text)
    return root


def rendered(root: Path, text: str, **variables: object) -> str:
    return environment([folder(root, t=text)]).get_template("t.j2").render(**variables)


def test_an_undefined_variable_is_an_error_not_an_empty_string(tmp_path: Path):
    with pytest.raises(jinja2.UndefinedError, match="'nothing' is undefined"):
        rendered(tmp_path, "a {{ nothing }} b")


def test_the_last_newline_is_kept_and_nothing_is_escaped(tmp_path: Path):
    assert rendered(tmp_path, "<b>{{ value }}</b>\n", value="<i>&</i>") == "<b><i>&</i></b>\n"


def test_the_yaml_filters_write_values_as_yaml(tmp_path: Path):
    assert rendered(tmp_path, "k: {{ v | yaml_scalar }}\nm:{{ m | yaml_block(2) }}\n", v="yes", m={"a": 1}) == (
        "k: 'yes'\nm:\n  a: 1\n")


def test_a_template_is_read_once_per_environment(tmp_path: Path):
    root = folder(tmp_path, t="first")
    env = environment([root])
    assert env.get_template("t.j2").render() == "first"
    (root / "t.j2").write_text("second")
    assert env.get_template("t.j2").render() == "first"
    assert environment([root]).get_template("t.j2").render() == "second"


def test_an_earlier_folder_wins_and_a_later_one_fills_in(tmp_path: Path):
    own = folder(tmp_path / "own", t="own t")
    builtin = folder(tmp_path / "builtin", t="built-in t", u="built-in u")
    env = environment([own, builtin])
    assert (env.get_template("t.j2").render(), env.get_template("u.j2").render()) == ("own t", "built-in u")


@pytest.mark.parametrize("expression", ["'ab' * 5000", "2 ** 5000", "'ab' + 'cd' * 5000"])
def test_an_operator_on_constants_is_left_to_the_rendering(tmp_path: Path, expression: str):
    """Folded while compiling, ``'x' * 10 ** 10`` would be made before any bound could see it."""
    code = environment([tmp_path]).compile("{% if false %}{{ " + expression + " }}{% endif %}", raw=True)
    assert len(code) < 5000
