"""``citgen --version``: the package's version and the built-in catalog's.

The two move separately: a citgen release carries one catalog version
(catalog.yaml's ``version``, the common-instancetypes-version label its
objects are stamped with), and a bug report or a pinned CI job needs both.
The catalog is read only when the option is given, so no other command
pays for it.
"""

from __future__ import annotations

from typing import Any, Callable

import click

from .. import __version__
from ..errors import CitgenError
from ..paths import builtin_catalog
from ..problems import Location, Problem


def version_line() -> str:
    """``citgen 0.1.0 (built-in catalog v1.8.0-dev)``: one line, so scripts can read it."""
    from ..load.catalog import load_catalog  # read only when --version is given

    return f"citgen {__version__} (built-in catalog {load_catalog(builtin_catalog()).settings.version})"


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    try:
        line = version_line()
    except (CitgenError, RuntimeError) as exc:  # an installation whose catalog is missing or broken
        from ..report import finding_line

        problems = getattr(exc, "problems", None) or [Problem(Location("citgen"), str(exc))]
        for problem in problems:
            click.echo(finding_line(problem), err=True)
        click.echo(f"citgen {__version__}: the built-in catalog cannot be read; reinstall citgen", err=True)
        ctx.exit(2)
    click.echo(line)
    ctx.exit()


def version_option() -> Callable[[Any], Any]:
    """The group's eager ``--version`` flag (a subcommand's ``--version`` is its own option)."""
    return click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
                        help="Show citgen's version and the built-in catalog's version, and exit.")
