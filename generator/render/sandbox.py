"""The one Jinja environment of citgen, and the located problem any template failure becomes.

Every template citgen renders (the objects, the kustomizations, the Helm chart)
comes from ``environment()``, and is rendered only inside the build's rendering
process (render/process.py). A vendor catalog brings its own templates, and a
pre-commit hook or a release pipeline runs them on whatever a pull request
contains, so a template must not be able to reach Python internals, files or
the environment: Jinja's ImmutableSandboxedEnvironment sees to that. That it
cannot hang the build or take the machine's memory is the rendering process's
business: the operating system bounds it from outside, whatever the template
does (a loop, a huge string made in one C call, a slow codec).
"""

from __future__ import annotations

import types
from pathlib import Path
from typing import Sequence

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment

from ..errors import InputError
from ..problems import Location, Problem
from .limits import Limits, exceeded
from .loader import TemplateLoader
from .yamltext import yaml_block, yaml_scalar


class _Sandbox(ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox, computing operators on constants when rendering, not when compiling.

    Jinja folds ``'x' * 10 ** 10`` or ``7 ** 999999`` into a constant while it
    compiles; an operator it intercepts is left to the rendering, so what it
    costs is met at the template's line, like any other value a template makes.
    """

    intercepted_binops = frozenset(["+", "-", "*", "/", "//", "%", "**"])


def environment(template_dirs: Sequence[Path],
                compiled: jinja2.BytecodeCache | None = None) -> ImmutableSandboxedEnvironment:
    """The one Jinja environment of the tool; earlier directories win over later ones.

    Immutable: the same values render every kind of an object, so a template that
    changed one (``spec.update(...)``) would make the kinds differ. The filters are
    Jinja's own and the two that write values as YAML. ``compiled``: Jinja's cache of
    compiled templates, by name and the checksum of their source (every environment made
    here compiles a source to the same code).
    """
    env = _Sandbox(
        loader=TemplateLoader([str(d) for d in template_dirs]),  # bounded like every input file
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
        auto_reload=False,
        bytecode_cache=compiled,
    )
    env.filters["yaml_scalar"] = yaml_scalar
    env.filters["yaml_block"] = yaml_block
    return env


def template_line(tb: types.TracebackType | None, filename: str | None) -> int | None:
    """The template line a rendering error happened at (Jinja maps frames to template lines)."""
    line = None
    while tb is not None:
        if filename and tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def template_error(exc: Exception, name: str, env: jinja2.Environment, display: str,
                   what: str | None = None, limits: Limits | None = None, line: int | None = None) -> InputError:
    """An InputError naming the template file and line for any failure inside a template.

    ``what`` is what was being rendered (``'u1.large' as VirtualMachineInstancetype``),
    named when a limit was hit; ``limits`` are the limits in force; ``line``, when
    given, was taken from the traceback already (which a MemoryError must let go of).
    """
    if isinstance(exc, jinja2.TemplateSyntaxError):
        return InputError([Problem(Location(display, exc.lineno), f"template syntax error: {exc.message}")])
    if line is None:
        try:
            filename = env.loader.get_source(env, name)[1] if env.loader else None
        except (jinja2.TemplateNotFound, InputError, OSError):
            filename = None
        line = template_line(exc.__traceback__, filename)
    if isinstance(exc, jinja2.UndefinedError):
        message = f"undefined value in template: {exc.message}"
    elif isinstance(exc, jinja2.TemplateNotFound):  # an include or import; never show search paths
        message = f"template {exc.name!r} not found (a template can include only files of templates/)"
    elif isinstance(exc, jinja2.exceptions.SecurityError):
        message = f"template tried something the sandbox forbids: {exc}"
    elif isinstance(exc, MemoryError):
        message = exceeded(what, f"took more than {(limits or Limits()).memory} MiB of memory", "memory")
    elif isinstance(exc, RecursionError):
        rendering = f"rendering {what}" if what else "one rendering"
        message = (f"template exceeded a limit: {rendering} nested too deeply (a template or macro that includes, "
                   "extends or calls itself without end, or a value nested thousands of levels deep)")
    else:
        message = f"template failed: {type(exc).__name__}: {exc}"
    return InputError([Problem(Location(display, line), message)])
