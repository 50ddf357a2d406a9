"""What the commands share: the --catalog option, the SIZE type, reporting for commands run alone.

Apart from the group (cli/__init__.py) so that each command's module can use them
while the group imports the commands: neither imports the other's module.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Callable

import click

from ..errors import CitgenError
from ..source import inputfiles


class SizeParam(click.ParamType):
    """A size in bytes as people write it: 64MiB, 200Mi, 1G."""

    name = "SIZE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        try:
            return inputfiles.parse_size(str(value))
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


catalog_option = click.option(
    "--catalog", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="Catalog directory (default: the built-in catalog).")


def reported(command: Callable[..., Any]) -> Callable[..., Any]:
    """Turn a CitgenError into its problems on stderr and its exit code, never a traceback."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except CitgenError as exc:
            for problem in exc.problems:
                click.echo(f"error: {problem}", err=True)
            raise click.exceptions.Exit(exc.exit_code) from None

    return run
