"""What the commands share: the command class that reports Results, --format, --catalog and option types.

Apart from the group (cli/__init__.py) so that each command's module can use them
while the group imports the commands: neither imports the other's module.

Every command is a CitgenCommand: its function returns a Result (generator/result.py)
or raises a CitgenError, and the command, not the function, prints the Result in the
chosen --format and exits with the Result's code. Because the command does it rather
than the group, a command behaves the same whether it runs inside `citgen` or on its
own (tests invoke `validate`, `diff`, `init` and `expand` directly).
"""

from __future__ import annotations

import functools
import math
import os
import re
from pathlib import Path
from typing import Any, Callable, Iterator, NoReturn

import click
from click.core import ParameterSource

from ..errors import CitgenError, InputError
from ..frozen import frozen
from ..problems import Location, Problem, excerpt
from ..quantity import QuantityError, parse as parse_quantity, within_bounds
from ..report import FORMATS, show
from ..result import Result
from ..source import inputfiles

#: Where the group's --format is kept for its command: ctx.meta is shared down the chain.
GROUP_FORMAT = "citgen.format"
#: The parameter name of every command's own --format.
FORMAT_PARAM = "report_format"
FORMAT_HELP = ("How to report: text for people (one line per finding, FILE:LINE:COL: SEVERITY: MESSAGE [RULE]), "
               "json for programs (one object; docs/errors.md), github for GitHub Actions annotations, markdown "
               "for a pull-request comment, sarif for code scanning (SARIF 2.1.0).")


@frozen
class Refused:
    """An option value its type refused: kept as problems so they are reported like any input error.

    A click.BadParameter would stop parsing at the first bad option and print
    click's usage text; this way every bad option is reported, located at its
    option name, in the chosen --format, with exit code 2.
    """

    problems: tuple[Problem, ...]


class PathParam(click.Path):
    """click's Path whose refusals (a folder where a file belongs, a file where a folder does) are located problems
    (Refused), as every checked option's are: every bad path of a command line is named at once, in the chosen
    --format, with exit status 2."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as exc:
            where = max(param.opts, key=len) if param is not None and param.opts else \
                param.human_readable_name if param is not None else "citgen"
            return Refused((Problem(Location(excerpt(where)), excerpt(exc.message, 300)),))


class CheckedParam(click.ParamType):
    """A click type whose refusals are located problems (Refused) rather than usage errors."""

    def check(self, value: str, option: str) -> Any:
        """The converted value; raise InputError or ValueError (its message at ``option``) to refuse it."""
        raise NotImplementedError

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str):
            return value  # a default, or converted already (a Refused among them)
        option = max(param.opts, key=len) if param is not None else self.name
        try:
            return self.check(value, option)
        except CitgenError as exc:
            return Refused(tuple(exc.problems))
        except ValueError as exc:
            return Refused((Problem(Location(option), str(exc)),))


#: A whole number as an option takes it: ASCII digits and nothing else (Python's int() also
#: reads '١٦', '４', ' 4 ' and '1_0', which a user never means as one).
_DIGITS = re.compile(r"[0-9]+")


#: The most digits a count an option takes may have: each fits a 64-bit integer.
COUNT_DIGITS = 18


def whole(value: str) -> int | None:
    """``value`` as a whole number written in ASCII digits, at most COUNT_DIGITS; None for anything else."""
    return int(value) if len(value) <= COUNT_DIGITS and _DIGITS.fullmatch(value) else None


def too_long(value: str) -> str:
    """What a refusal adds for ``value`` of ASCII digits too many to be a count (``, of at most 18 digits``)."""
    return f", of at most {COUNT_DIGITS} digits" if len(value) > COUNT_DIGITS and _DIGITS.fullmatch(value) else ""


class GpuCount(CheckedParam):
    """How many GPUs each GN instancetype gets: KubeVirt's GN sizes go from 1 to 16."""

    name = "COUNT"
    LOWEST, HIGHEST = 1, 16

    def check(self, value: str, option: str) -> int:
        count = whole(value)
        if count is None and too_long(value):
            raise ValueError(f"expected {self.LOWEST} to {self.HIGHEST} GPUs, got {excerpt(value)!r}")
        if count is None:
            raise ValueError(f"expected a whole number of GPUs, got {excerpt(value)!r}")
        if not self.LOWEST <= count <= self.HIGHEST:
            raise ValueError(f"expected {self.LOWEST} to {self.HIGHEST} GPUs, got {count}")
        return count


class CpuCount(CheckedParam):
    """A number of vCPUs: 1 or more, in ASCII digits."""

    name = "COUNT"

    def check(self, value: str, option: str) -> int:
        count = whole(value)
        if count is None or count < 1:
            raise ValueError(f"expected a whole number of vCPUs, 1 or more{too_long(value)}, got {excerpt(value)!r}")
        return count


class DocumentCount(click.ParamType):
    """How many documents one file may hold: 1 or more, in ASCII digits (a group option: a usage error)."""

    name = "COUNT"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        count = whole(str(value))
        if count is None or count < 1:
            refuse(f"expected a whole number of documents, 1 or more{too_long(str(value))}, got "
                   f"{excerpt(str(value))!r}", param, ctx)
        return count


class QuantityParam(CheckedParam):
    """A Kubernetes quantity (8Gi, 512Mi), as a number of bytes."""

    name = "QUANTITY"

    def check(self, value: str, option: str) -> Any:
        try:
            amount = parse_quantity(value)
        except QuantityError as exc:
            raise ValueError(str(exc)) from None
        if amount <= 0:
            raise ValueError(f"expected an amount of memory greater than 0, got {excerpt(value)!r}")
        return amount


class SelectorParam(CheckedParam):
    """A label selector as `kubectl get -l` reads it, parsed into its requirements."""

    name = "SELECTOR"

    def check(self, value: str, option: str) -> Any:
        from ..query import parse_selector  # imported when a command is given a selector

        return parse_selector(value)  # an InputError names --selector and the text


class Seconds(CheckedParam):
    """A time to wait, in seconds: a finite number from 0 to a day (``nan`` or ``inf`` would wait for ever).

    Written in ASCII digits, with a point and an exponent if need be, within the bounds of
    every number citgen reads (Python's float() would also take ``1_0``, ``١٠`` and ``infinity``).
    """

    name = "SECONDS"
    MOST = 86_400
    WRITTEN = re.compile(r"([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE]([-+]?[0-9]+))?")

    def check(self, value: str, option: str) -> float:
        written = self.WRITTEN.fullmatch(value)
        seconds = float(value) if written and within_bounds(written[1], written[2]) else math.nan
        if not (0 <= seconds <= self.MOST):  # also false for nan
            raise ValueError(f"expected a number of seconds from 0 to {self.MOST}, got {value[:40]!r}")
        return seconds


class KubevirtParam(CheckedParam):
    """A KubeVirt release citgen has the schemas of: v1.8, 1.8 and v1.8.4 all name v1.8."""

    name = "vX.Y"

    def check(self, value: str, option: str) -> Any:
        from ..schemas.releases import UnknownRelease, resolve

        try:
            return resolve(value)
        except UnknownRelease as exc:
            raise ValueError(str(exc)) from None


def kubevirt_option(what: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--kubevirt vX.Y``: the KubeVirt release a command works for (default: the newest known)."""
    return click.option("--kubevirt", type=KubevirtParam(), metavar="vX.Y",
                        help=f"{what} (default: the newest release citgen knows; v1.8, 1.8 and v1.8.4 "
                             "all mean v1.8).")


def osinfo_option(function: Callable[..., Any]) -> Callable[..., Any]:
    """``--osinfo-db DIR``: libosinfo's database the osinfo rule judges the preferences against."""
    return click.option(
        "--osinfo-db", "osinfo_db", type=PathParam(file_okay=False, path_type=Path), metavar="DIR",
        help="libosinfo's database (osinfo-db) to judge each preference against its OS with (the osinfo rule); "
             "default: where libosinfo finds it (OSINFO_SYSTEM_DIR, /usr/share/osinfo, /etc/osinfo, "
             "~/.config/osinfo). None found: the rule is skipped, with a note.")(function)


def refuse(message: str, param: click.Parameter | None, ctx: click.Context | None) -> NoReturn:
    """A usage error naming where the value came from: the option, or the environment variable that set it.

    click fills in the context and the parameter of an error that a type raises while it
    reads the command line, so the error is raised without them.
    """
    if (ctx is not None and param is not None and param.name and isinstance(param.envvar, str)
            and ctx.get_parameter_source(param.name) is ParameterSource.ENVIRONMENT):
        raise click.BadParameter(message, param_hint=param.envvar)
    raise click.BadParameter(message)


class SizeParam(click.ParamType):
    """A size in bytes as people write it: 64MiB, 200Mi, 1G."""

    name = "SIZE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        try:
            return inputfiles.parse_size(str(value))
        except ValueError as exc:
            refuse(str(exc), param, ctx)


CATALOG_HELP = ("Catalog directory, or 'builtin' for the built-in catalog (default: the catalog the working "
                "directory is in, the nearest folder from it up holding catalog.yaml; else the built-in one).")


def _catalog(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """--catalog as a folder; ``builtin`` is the built-in catalog (a folder of that name is ``./builtin``)."""
    from ..paths import BUILTIN, builtin_catalog

    if value is None or isinstance(value, Refused):  # a refused value is reported with the others
        return value  # None: the catalog the working directory is in, else the built-in one (paths.catalog_folder)
    return builtin_catalog() if value == BUILTIN else Path(value)


def default_out(name: str) -> Path:
    """An output folder's default (``--out``): ``name`` in the folder of the catalog the user is in, else here.

    A click default, read once the options given are: --catalog given means ./``name``
    (paths.home_folder). Relative, as the user would write it, so that a working
    directory deleted meanwhile is refused at the option like any relative path.
    """
    from ..paths import home_folder

    catalog = click.get_current_context().params.get("catalog")
    return home_folder(None if isinstance(catalog, Refused) else catalog) / name


catalog_option = click.option("--catalog", type=PathParam(file_okay=False), default=None, callback=_catalog,
                              help=CATALOG_HELP)


def gpu_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """--gpu-device and --gpu-count, for every command that builds a catalog (or judges against one).

    GN is built only with a device (load/gpu.py): without these a command that judges
    VMs against the catalog's build would find no GN object, and says why when it
    meets a GN name.
    """
    decorators = (
        click.option("--gpu-device", metavar="nvidia.com/MODEL",
                     help="NVIDIA GPU device of the GN series, which is built only when a device is configured "
                          "(here or as parameters.gpu.deviceName)."),
        click.option("--gpu-count", type=GpuCount(),
                     help="GPUs per GN instancetype, 1 to 16 (default: parameters.gpu.count, else 1); "
                          "needs a device."),
    )
    for decorate in reversed(decorators):
        function = decorate(function)
    return function


def catalog_build_options(function: Callable[..., Any]) -> Callable[..., Any]:
    """The options that decide which catalog a build makes, for every command that builds one.

    `citgen build` and `citgen site` take the same ones with the same meaning, so the
    page shows exactly the catalog the bundles ship: --catalog, --version, the GPU
    parameters, --retain-from and --overlay.
    """
    decorators = (
        catalog_option,
        click.option("--version",
                     help="Catalog version stamped as the common-instancetypes-version label "
                          "(default: catalog.yaml's version, or --release where there is one)."),
        gpu_options,
        click.option("--retain-from", multiple=True, metavar="BUNDLE", type=PathParam(path_type=Path),
                     help="Old bundle (a file, a folder, - or a pipe) whose objects the catalog no longer defines "
                          "are carried over exactly as released (instancetype.kubevirt.io/v1beta1 only), labelled "
                          "deprecated. Repeatable."),
        click.option("--overlay", "overlays", multiple=True, type=PathParam(dir_okay=False, path_type=Path),
                     help="Overlay file changing the catalog without copying it; applied in order. Repeatable."),
        click.option("--os-labels", is_flag=True,
                     help="Label every preference os.template.kubevirt.io/<short-id>: \"true\" for each libosinfo OS "
                          "release its osinfo claim names, as catalog.yaml's osLabels does (off by default: "
                          "upstream's objects have no such labels)."),
    )
    for decorate in reversed(decorators):
        function = decorate(function)
    return function


def _refused(params: dict[str, Any]) -> Iterator[Problem]:
    for value in params.values():
        for one in value if isinstance(value, tuple) else (value,):
            if isinstance(one, Refused):
                yield from one.problems


def _unprintable(ctx: click.Context) -> Iterator[Problem]:
    """Text options holding control characters, line breaks or direction marks: refused, for every command.

    A text option becomes a label, a version recorded in a file, a device or rule
    name; none of them holds characters that are not seen, and none that would let
    a value start a line of its own in a report or a file.
    """
    for param in ctx.command.params:
        if not isinstance(param.type, click.types.StringParamType) or param.name not in ctx.params:
            continue
        value = ctx.params[param.name]
        for one in value if isinstance(value, (tuple, list)) else (value,):
            if isinstance(one, str) and not one.isprintable():
                named = max(param.opts, key=len) if isinstance(param, click.Option) else param.human_readable_name
                yield Problem(Location(named), "expected text without control characters, "
                              f"line breaks or direction marks, got {excerpt(one)!r}")


def _unresolvable(ctx: click.Context) -> Iterator[Problem]:
    """The relative paths of a command line (given or by default) when the working directory is gone.

    A directory deleted while a shell stays in it leaves nothing to read ``bundles`` or
    ``vm.yaml`` against. A command that needs no such path (``citgen list``) still runs;
    one that does is refused here, naming each option, before anything is read or written.
    """
    try:
        os.getcwd()
        return
    except OSError as exc:
        reason = "it was deleted" if isinstance(exc, FileNotFoundError) else (exc.strerror or str(exc)).lower()
    for param in ctx.command.params:
        if not isinstance(param.type, click.Path) or param.name not in ctx.params:
            continue
        value = ctx.params[param.name]
        for one in value if isinstance(value, (tuple, list)) else (value,):
            if one is not None and not os.path.isabs(os.fspath(one)):
                yield Problem(Location(max(param.opts, key=len)),
                              f"{excerpt(os.fspath(one))!r} is a relative path, but the working directory cannot be "
                              f"used ({reason}); give an absolute path or change to a directory that exists")


#: Where CitgenCommand.parse_args keeps the path parameters given as '' (click makes '' the path '.').
EMPTY_PATHS = "citgen.empty-paths"


def _empty_paths(command: click.Command, raw: dict[str, Any]) -> Iterator[Problem]:
    """The path parameters (options and arguments) given an empty text, from the command line as written.

    POSIX gives '' no meaning, and as a path object it is the working directory: an unset
    variable in a script (``--out "$OUT"``) would build into the current folder. Refused for
    every click.Path of every command, before click turns '' into '.'.
    """
    for param in command.params:
        if isinstance(param.type, click.Path) and param.name in raw:
            value = raw[param.name]
            if any(one == "" for one in (value if isinstance(value, (tuple, list)) else (value,))):
                named = max(param.opts, key=len) if isinstance(param, click.Option) else param.human_readable_name
                yield Problem(Location(named), "expected a path, got an empty text, which names no file or folder "
                                               "(an unset variable?); give a path")


def report_format(ctx: click.Context, own: str | None) -> str:
    """The format a command reports in: its own --format, else the group's, else text."""
    return own or ctx.meta.get(GROUP_FORMAT) or "text"


def emit(result: Result, fmt: str) -> None:
    """Print ``result`` as ``fmt`` shows it: its standard output, then its standard error.

    The streams themselves (cli/streams.py) deliver the text whole, escape what their
    encoding lacks and record what they could not take, for every writer alike.
    """
    shown = show(result, fmt)
    if shown.stdout:
        click.echo(shown.stdout, nl=False)
    if shown.stderr:
        click.echo(shown.stderr, nl=False, err=True)


class CitgenCommand(click.Command):
    """A command whose function returns a Result: printed in the chosen --format, exit code from it.

    ``closing`` ends a refusal's report with its count (``citgen: {problems}``) for
    the commands that read a whole catalog and collect all its mistakes first;
    ``report_name`` is the name a report gives the command (``schema import``);
    ``formats`` says what a format means for this command where it has a rendition
    of its own (``diff``'s markdown is a release's notes; the Result's ``renditions``).
    """

    def __init__(self, *args: Any, closing: str | None = None, report_name: str | None = None,
                 formats: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.closing = closing
        self.report_name = report_name or self.name or "citgen"
        more = "".join(f" Here {name} is {what}." for name, what in (formats or {}).items())
        self.params.append(click.Option(["--format", FORMAT_PARAM], type=click.Choice(FORMATS),
                                        help=FORMAT_HELP + more + "  [default: text, or citgen --format]"))

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        raw, _, _ = self.make_parser(ctx).parse_args(args=list(args))  # the values as written, before click's types
        ctx.meta[EMPTY_PATHS] = tuple(_empty_paths(self, raw))
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Result:
        fmt = report_format(ctx, ctx.params.pop(FORMAT_PARAM))
        refused = [*_refused(ctx.params), *_unprintable(ctx), *ctx.meta.get(EMPTY_PATHS, ()), *_unresolvable(ctx)]
        try:
            if refused:
                raise InputError(refused)
            result = super().invoke(ctx)
        except CitgenError as exc:
            result = Result.refused(self.report_name, exc, self.closing)
        if not isinstance(result, Result):  # a command written without one: a mistake of citgen's own
            raise TypeError(f"{self.report_name} returned {result!r}, not a Result")
        emit(result, fmt)
        ctx.exit(result.exit_code)
        return result  # pragma: no cover - ctx.exit raised


def command(name: str | None = None, **attrs: Any) -> Any:
    """``click.command`` making a CitgenCommand (``closing``, ``report_name`` as it takes them)."""
    return click.command(name, cls=CitgenCommand, **attrs)


def reported(function: Callable[..., Any]) -> Callable[..., Any]:
    """For a plain click command (not a CitgenCommand): a CitgenError as its problems and exit code.

    citgen's own commands return Results instead; this keeps a command written in the
    earlier style free of tracebacks until it returns one.
    """

    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except CitgenError as exc:
            result = Result.refused(function.__name__, exc)
            emit(result, "text")
            raise click.exceptions.Exit(result.exit_code) from None

    return run
