"""The `citgen` command line: parse options, call the pipeline, report.

Every user mistake arrives here as a CitgenError, printed as located problems
with the error's exit code (2 for unusable input, 1 for problems found); no
Python traceback reaches a user for a mistake in their input.
"""

from __future__ import annotations

import importlib
from typing import Any

import click

from ..errors import CitgenError
from ..source import inputfiles
from .build import build
from .list import list_
from .options import SizeParam
from .readme import readme
from .version import version_option

#: Commands that live in modules of their own, imported only when they run (or help
#: lists them): a build does not pay for the validator's, expander's or schema
#: importer's imports.
LAZY_COMMANDS = {
    "validate": ("generator.cli.validate", "validate"),
    "expand": ("generator.cli.expand", "expand_command"),
    "schema": ("generator.cli.schema", "schema"),
    "init": ("generator.cli.init", "init"),
    "diff": ("generator.cli.diff", "diff"),
}


class CitgenGroup(click.Group):
    """Reports CitgenErrors as messages and exit codes instead of tracebacks."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in LAZY_COMMANDS and cmd_name not in self.commands:
            module, attribute = LAZY_COMMANDS[cmd_name]
            self.add_command(getattr(importlib.import_module(module), attribute), cmd_name)
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CitgenError as exc:
            for problem in exc.problems:
                click.echo(f"error: {problem}", err=True)
            count = len(exc.problems)
            click.echo(f"citgen: {count} problem{'s' if count != 1 else ''}, nothing written"
                       if ctx.invoked_subcommand == "build" else
                       f"citgen: {count} problem{'s' if count != 1 else ''}", err=True)
            ctx.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo("citgen: interrupted", err=True)
            ctx.exit(130)


@click.group(cls=CitgenGroup, context_settings={"help_option_names": ["-h", "--help"]})
@version_option()
@click.option(inputfiles.SIZE_OPTION, "max_file_size", type=SizeParam(), envvar=inputfiles.SIZE_VARIABLE,
              default=inputfiles.show_size(inputfiles.DEFAULT_MAX_FILE_SIZE).replace(" ", ""), show_default=True,
              help=f"Largest file citgen reads (catalog files, overlays, bundles, VM files, templates); "
                   f"also {inputfiles.SIZE_VARIABLE}.")
@click.option(inputfiles.DOCUMENTS_OPTION, "max_documents", type=click.IntRange(min=1),
              envvar=inputfiles.DOCUMENTS_VARIABLE, default=inputfiles.DEFAULT_MAX_DOCUMENTS, show_default=True,
              help=f"Most YAML documents citgen reads from one file; also {inputfiles.DOCUMENTS_VARIABLE}.")
@click.pass_context
def main(ctx: click.Context, max_file_size: int, max_documents: int) -> None:
    """Generate KubeVirt's common instancetype and preference catalog from data.

    The built-in catalog (series, size matrices, preferences, templates) ships
    with citgen; --catalog DIR points any command at another catalog.

    citgen reads only regular files, each within the limits below, so that a
    file a pull request brings can neither hang a run nor exhaust its memory.
    """
    # in force while the command runs, restored after it (a test may run many commands in one process)
    ctx.with_resource(inputfiles.limited(inputfiles.Limits(max_file_size, max_documents)))


for _command in (build, list_, readme):
    main.add_command(_command)
