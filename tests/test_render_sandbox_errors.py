"""render/sandbox.py's template_error: every failure inside a template, as the problem the user reads.

Each kind of failure is raised by a small template file at a known line, and
the problem is pinned whole: the template's display name, the line, the message.
"""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from generator.render.limits import Limits
from generator.render.sandbox import environment, template_error


@pytest.fixture
def templates(tmp_path: Path) -> Path:
    return tmp_path


def problem(folder: Path, name: str, source: str, **values: object) -> str:
    """What the user reads when ``source``, as ``templates/name``, fails to compile or render."""
    (folder / name).write_text(source)
    env = environment([folder])
    with pytest.raises(Exception) as raised:
        env.get_template(name).render(**values)
    error = template_error(raised.value, name, env, "templates/" + name)
    assert len(error.problems) == 1
    return str(error.problems[0])


def test_a_syntax_error_names_its_line(templates) -> None:
    assert problem(templates, "bad.j2", "a\n{% if %}\n") == (
        "templates/bad.j2:2: template syntax error: Expected an expression, got 'end of statement block'")


def test_an_undefined_value_names_its_line(templates) -> None:
    assert problem(templates, "t.j2", "a\nb\n{{ spec.cpu }}\n", spec={}) == (
        "templates/t.j2:3: undefined value in template: 'dict object' has no attribute 'cpu'")


def test_an_include_not_found_never_shows_where_it_was_looked_for(templates) -> None:
    assert problem(templates, "t.j2", "a\n{% include 'nope.j2' %}\n") == (
        "templates/t.j2:2: template 'nope.j2' not found (a template can include only files of templates/)")


def test_memory_refused_names_its_line_what_was_rendered_and_how_to_raise_it(templates) -> None:
    (templates / "t.j2").write_text("a\nb\n{{ name.ljust(n) }}\n")
    env = environment([templates])
    error = template_error(MemoryError(), "t.j2", env, "templates/t.j2", "'u1.large' as VirtualMachineInstancetype",
                           Limits(memory=64), line=3)
    assert str(error.problems[0]) == (
        "templates/t.j2:3: template exceeded a limit: rendering 'u1.large' as VirtualMachineInstancetype took "
        "more than 64 MiB of memory (set CITGEN_TEMPLATE_MAX_MEMORY to raise the limit)")


def test_what_the_sandbox_forbids_names_its_line(templates) -> None:
    assert problem(templates, "t.j2", "a\n{{ items.append(1) }}\n", items=[]) == (
        "templates/t.j2:2: template tried something the sandbox forbids: "
        "access to attribute 'append' of 'list' object is unsafe.")


def test_a_template_that_includes_itself_is_nested_too_deeply(templates) -> None:
    assert problem(templates, "t.j2", "a\n{% include 't.j2' %}\n") == (
        "templates/t.j2:2: template exceeded a limit: one rendering nested too deeply (a template or macro that "
        "includes, extends or calls itself without end, or a value nested thousands of levels deep)")


def test_any_other_failure_names_its_kind(templates) -> None:
    assert problem(templates, "t.j2", "a\n{{ 1 // n }}\n", n=0) == (
        "templates/t.j2:2: template failed: ZeroDivisionError: integer division or modulo by zero")


def test_a_failure_inside_an_include_names_the_line_of_the_include(templates) -> None:
    (templates / "inner.j2").write_text("x\n{{ spec.cpu }}\n")
    assert problem(templates, "outer.j2", "a\nb\n{% include 'inner.j2' %}\n", spec={}) == (
        "templates/outer.j2:3: undefined value in template: 'dict object' has no attribute 'cpu'")


def test_a_failure_raised_by_python_code_names_the_line_that_called_it(templates) -> None:
    def fail() -> None:
        raise ValueError("no")

    assert problem(templates, "t.j2", "a\n{{ fail() }}\nc\n", fail=fail) == (
        "templates/t.j2:2: template failed: ValueError: no")


def test_a_template_the_loader_cannot_find_has_no_line(templates) -> None:
    env = environment([templates])
    with pytest.raises(ZeroDivisionError) as raised:
        env.from_string("a\n{{ 1 // n }}\n").render(n=0)
    error = template_error(raised.value, "gone.j2", env, "templates/gone.j2")
    assert str(error.problems[0]) == (
        "templates/gone.j2: template failed: ZeroDivisionError: integer division or modulo by zero")


def test_an_environment_without_a_loader_has_no_line() -> None:
    env = jinja2.Environment()
    with pytest.raises(ZeroDivisionError) as raised:
        env.from_string("a\n{{ 1 // n }}\n").render(n=0)
    error = template_error(raised.value, "t.j2", env, "t.j2")
    assert str(error.problems[0]) == "t.j2: template failed: ZeroDivisionError: integer division or modulo by zero"


def test_a_recursion_error_is_nested_too_deeply(templates) -> None:
    env = environment([templates])
    error = template_error(RecursionError("maximum recursion depth exceeded"), "t.j2", env, "templates/t.j2")
    assert str(error.problems[0]) == (
        "templates/t.j2: template exceeded a limit: one rendering nested too deeply (a template or macro that "
        "includes, extends or calls itself without end, or a value nested thousands of levels deep)")


def test_a_recursion_error_names_what_was_being_rendered(templates) -> None:
    env = environment([templates])
    error = template_error(RecursionError("maximum recursion depth exceeded"), "t.j2", env, "templates/t.j2",
                           "'u1.large' as VirtualMachineInstancetype")
    assert str(error.problems[0]).startswith(
        "templates/t.j2: template exceeded a limit: rendering 'u1.large' as VirtualMachineInstancetype nested too "
        "deeply (")


def test_a_failure_in_a_template_found_by_the_loader_names_its_line(templates) -> None:
    (templates / "t.j2").write_text("a\nb\n{{ 1 // n }}\n")
    env = environment([templates])
    with pytest.raises(ZeroDivisionError) as raised:
        env.get_template("t.j2").render(n=0)
    error = template_error(raised.value, "t.j2", env, "templates/t.j2")
    assert str(error.problems[0]) == (
        "templates/t.j2:3: template failed: ZeroDivisionError: integer division or modulo by zero")
