"""The `citgen` command line: parse options, call the pipeline, report.

Every command returns a Result (generator/result.py): its problems, what it says
and its product. The command class (options.CitgenCommand) prints it with the
reporter --format chooses (on the command, or on the group for every command) and
exits with the Result's code: 0 clean, 1 problems found, 2 unusable input or
usage. A user mistake is a located problem, never a Python traceback.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

import click

from ..errors import CitgenError
from ..problems import MAX_MESSAGE, Location, Problem, excerpt
from ..report import FORMATS
from ..result import Result
from ..source import inputfiles
from . import streams
from .options import GROUP_FORMAT, FORMAT_HELP, DocumentCount, SizeParam, emit
from .version import version_option

#: Every command, in a module of its own, imported only when it runs (or help lists them):
#: a build does not pay for the validator's, expander's, lister's or schema importer's
#: imports, nor a listing for the build's writer (click's documented lazy loading).
LAZY_COMMANDS = {
    "build": ("generator.cli.build", "build"),
    "validate": ("generator.cli.validate", "validate"),
    "expand": ("generator.cli.expand", "expand_command"),
    "schema": ("generator.cli.schema", "schema"),
    "init": ("generator.cli.init", "init"),
    "diff": ("generator.cli.diff", "diff"),
    "site": ("generator.cli.site", "site"),
    "list": ("generator.cli.list", "list_"),
    "readme": ("generator.cli.readme", "readme"),
    "refs": ("generator.cli.refs", "refs"),
    "osinfo": ("generator.cli.osinfo", "osinfo"),
}
#: The commands that render templates whatever their options: their rendering child is forked
#: before the command's module is imported (render/process.py start()), so that it imports
#: the template engine on the second core while this process imports the command; so is the
#: child that writes their outputs (treewriter.py start()), while this process is still small.
RENDERING_COMMANDS = frozenset({"build"})


class CitgenGroup(click.Group):
    """Loads commands when they run; a CitgenError that escapes a command is still reported.

    Every command of citgen reports its own Result (options.CitgenCommand). A plain
    click command added later that raises a CitgenError is reported the same way,
    in the group's --format, rather than as a traceback.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in LAZY_COMMANDS and cmd_name not in self.commands:
            module, attribute = LAZY_COMMANDS[cmd_name]
            self.add_command(getattr(importlib.import_module(module), attribute))  # named as LAZY_COMMANDS names it
        return super().get_command(ctx, cmd_name)

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[Any, ...]:
        if args and args[0] in RENDERING_COMMANDS and not ctx.resilient_parsing \
                and not set(args) & set(ctx.help_option_names):
            from .. import treewriter
            from ..render.process import start

            start()
            treewriter.start()  # the child that writes its outputs, forked while this process is small
        return super().resolve_command(ctx, args)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command line with standard streams that deliver its report whole (cli/streams.py).

        Whatever wrote (the command's report, click's help or usage error), a report
        that did not all arrive ends the run with status 2 and, where standard error
        still works, one line saying why.
        """
        with streams.delivered() as outcome:
            try:
                done = super().main(*args, **kwargs)
            except SystemExit as exit_:
                done = exit_
        delivery = outcome[0]
        if delivery.whole:
            if isinstance(done, SystemExit):
                raise done
            return done
        delivery.tell()
        sys.exit(streams.NOT_DELIVERED)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[USAGE_FORMAT] = _asked_format(args)  # before click reads it: a usage error is reported in it
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            _usage_refused(ctx, exc)
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:  # a command's own usage error, met while click reads its command line
            _usage_refused(ctx, exc)
            raise
        except CitgenError as exc:
            result = Result.refused(ctx.invoked_subcommand or "citgen", exc, "citgen: {problems}")
            emit(result, ctx.meta.get(GROUP_FORMAT) or "text")
            ctx.exit(result.exit_code)
        except KeyboardInterrupt:
            click.echo(streams.interrupted(), err=True, nl=False)  # and what was written before it, if anything
            ctx.exit(130)


#: Where the group keeps the --format the command line asks for, read before click reads it.
USAGE_FORMAT = "citgen.usage-format"


def _asked_format(args: list[str]) -> str | None:
    """The report format a command line asks for (its last ``--format X`` or ``--format=X`` that names one)."""
    asked = None
    for number, arg in enumerate(args):
        value = args[number + 1] if arg == "--format" and number + 1 < len(args) else \
            arg.partition("=")[2] if arg.startswith("--format=") else None
        if value in FORMATS:
            asked = value
    return asked


def _usage_refused(ctx: click.Context, exc: click.UsageError) -> None:
    """A usage error (an unknown option, a bad choice, a path click refuses) reported in the format asked for,
    as every refusal is, and the run ended with status 2; in text, click says it as it does, bounded.

    Returns only for the text format, for click to show the error itself.
    """
    fmt = ctx.meta.get(USAGE_FORMAT)
    if fmt in (None, "text"):
        exc.message = excerpt(exc.message, MAX_MESSAGE)  # what click quotes of a value is bounded too
        return
    where = "citgen"
    if isinstance(exc, click.NoSuchOption):
        where = exc.option_name
    elif isinstance(exc, click.BadParameter) and exc.param is not None:
        where = max(exc.param.opts, key=len) if exc.param.opts else exc.param.human_readable_name
    command = exc.ctx.command.name if exc.ctx is not None and exc.ctx.command.name != "main" else "citgen"
    problem = Problem(Location(excerpt(where)), exc.format_message(), "usage")
    emit(Result(command or "citgen", problems=(problem,), unusable=True), fmt)
    ctx.exit(2)


@click.group(cls=CitgenGroup, context_settings={"help_option_names": ["-h", "--help"]})
@version_option()
@click.option(inputfiles.SIZE_OPTION, "max_file_size", type=SizeParam(), envvar=inputfiles.SIZE_VARIABLE,
              default=inputfiles.show_size(inputfiles.DEFAULT_MAX_FILE_SIZE).replace(" ", ""), show_default=True,
              help=f"Largest file citgen reads (catalog files, overlays, bundles, VM files, templates); "
                   f"also {inputfiles.SIZE_VARIABLE}.")
@click.option(inputfiles.DOCUMENTS_OPTION, "max_documents", type=DocumentCount(),
              envvar=inputfiles.DOCUMENTS_VARIABLE, default=inputfiles.DEFAULT_MAX_DOCUMENTS, show_default=True,
              help=f"Most YAML documents citgen reads from one file; also {inputfiles.DOCUMENTS_VARIABLE}.")
@click.option("--format", "report_format", type=click.Choice(FORMATS), default=None,
              help=FORMAT_HELP + " Every command's own --format overrides it.  [default: text]")
@click.pass_context
def main(ctx: click.Context, max_file_size: int, max_documents: int, report_format: str | None) -> None:
    """Generate KubeVirt's common instancetype and preference catalog from data.

    The built-in catalog (series, size matrices, preferences, templates) ships
    with citgen; --catalog DIR points any command at another catalog.

    citgen reads regular files (and the pipes and - a command line names),
    each within the limits below, so that a file a pull request brings can
    neither hang a run nor exhaust its memory.

    Every command reports as --format says (here, or after the command): text
    (one line per finding, FILE:LINE:COL: SEVERITY: MESSAGE [RULE], on standard
    output), json, github, markdown or sarif. Exit status: 0 clean, 1 problems
    (or differences) found, 2 unusable input or usage.
    """
    for variable in (inputfiles.SIZE_VARIABLE, inputfiles.DOCUMENTS_VARIABLE):  # click takes an empty one as unset
        if variable in os.environ and not os.environ[variable].strip():
            raise click.UsageError(f"{variable} is set but empty; unset it, or give it a value "
                                   f"({'a size such as 64MiB' if variable == inputfiles.SIZE_VARIABLE else 'a count'})")
    if report_format is not None:
        ctx.meta[GROUP_FORMAT] = report_format
    # in force while the command runs, restored after it (a test may run many commands in one process)
    ctx.with_resource(inputfiles.limited(inputfiles.Limits(max_file_size, max_documents)))

