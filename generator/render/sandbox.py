"""The one Jinja environment of citgen: sandboxed, and bounded in what a template may build.

Every template citgen renders (the objects, the kustomizations, the Helm chart)
comes from ``environment()``. A vendor catalog brings its own templates, and a
pre-commit hook or a release pipeline runs them on whatever a pull request
contains, so a template must not be able to reach Python internals, files or the
environment (Jinja's ImmutableSandboxedEnvironment sees to that), and must not
be able to hang the build or take the machine's memory (this module).

How the bounds hold, whatever the template does:

- **Size.** No value a template makes may hold more than ``Limits.size``
  characters or items, counted deeply (a list holding the same string twice
  counts it twice, which is what printing, comparing or serialising it costs).
  Every way a template makes a value is covered: ``~`` and list, tuple and dict
  literals (compiled into calls of this environment by ``_CodeGenerator``), the
  operators ``+ - * % **`` (``call_binop``), every function and method call
  (``call``), every filter (wrapped when the environment is made; the two yaml
  filters are bounded by what they are, see ``environment``), ``str.format``
  (``_BoundedFormatter``) and all text a template or macro renders (``concat``).
  Values made from values within the bound can only outgrow it by a factor the
  operation fixes, so most results are checked after they are made. Operations
  that take a size as a parameter (``'x' * n``, ``center(n)``, ``indent``,
  ``'%9999999d'``, ``'{:>9999999}'``, ``replace`` and ``join``, ``tojson`` with
  an indent, ``batch`` with a filler, ``sum`` of lists) would allocate the whole
  result before it could be checked, so their size is predicted from their
  arguments first and they are refused without being run.
- **Iterations.** Every ``{% for %}`` iterates through ``bounded_iter``, which
  counts the iterations of one rendering across all loops (nested loops
  multiply; Jinja's own ``MAX_RANGE`` only bounds one ``range()``). Lazy
  sequences a filter or call returns (``map``, ``select``, ``slice`` ...) are
  counted by the size of what they yield, so ``0 in (x | slice(10 ** 9))`` stops
  too, although the iteration runs inside Python's ``in``.
- **Time.** One rendering may take ``Limits.seconds``, and all renderings
  through one environment (every object of a build through one template set)
  ``Limits.total_seconds``. The deadline is checked at every loop iteration,
  call, filter, operator and item drawn from a lazy sequence, so it interrupts
  everything written in template code; a rendering's clock starts at its first
  such check, so a template that only writes values (the built-in ones) reads
  no clock at all. A single operation in C cannot be interrupted, which is why
  the size bounds keep each such operation small.
- **Memory.** However many values within the size limit a rendering keeps
  alive at once (in a namespace, or in the arguments of nested macro calls),
  it may add at most ``Limits.memory`` MiB to the process's peak memory,
  looked at whenever a large value is made and every thousand checks.
- **Depth.** Calls (macros, ``caller()``, recursive loops, blocks) nest at most
  ``MAX_DEPTH`` deep; deeper recursion, and includes or extends that include
  themselves, stop with a message rather than Python's RecursionError.

Exceeding a bound raises ``TemplateLimitError``; ``template_error`` turns it into
a located problem (the template file and line), the build stops before writing
anything, and the message names the environment variable that raises the bound.
The built-in catalog's templates stay far inside the defaults (docs/errors.md
has the measured margins, ``benchmarks/template_margin.py`` measures them).
"""

from __future__ import annotations

import functools
import inspect
import itertools
import math
import types
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame, optimizeconst
from jinja2.filters import make_attrgetter
from jinja2.runtime import LoopContext, markup_join
from jinja2.sandbox import ImmutableSandboxedEnvironment, SandboxedFormatter
from jinja2.utils import _PassArg, generate_lorem_ipsum, pass_environment
from markupsafe import EscapeFormatter, Markup

from ..errors import InputError
from ..problems import Location, Problem, excerpt
from ..source.inputfiles import TemplateLoader
from .limits import (CODEC_INPUT_MOST, FILTER_PREDICTORS, LARGE_VALUE, MAX_DEPTH, MAX_INT_BITS, METHOD_PREDICTORS,
                     SCALARS, Budget, linear_codec,
                     Limits, TemplateLimitError, deep_size, format_field_size, printf_size, text_length, too_large,
                     too_many_bits)
from .yamltext import yaml_block, yaml_scalar

# --------------------------------------------------------------------------- compiling templates


class _CodeGenerator(CodeGenerator):
    """Jinja's code generator, routing loops, ``~`` and literals through the environment's bounds.

    Generated code is the only place a loop or a literal can be intercepted:
    Jinja compiles them to plain Python ``for`` statements and displays. (Jinja
    forbids new node types, so the wrapping happens while the code is written.)
    """

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._loop_iterables: set[int] = set()

    def visit(self, node: nodes.Node, *args: Any, **kwargs: Any) -> Any:
        if id(node) in self._loop_iterables:
            self.write("environment.bounded_iter(")
            super().visit(node, *args, **kwargs)
            self.write(")")
            return None
        return super().visit(node, *args, **kwargs)

    def visit_For(self, node: nodes.For, frame: Frame) -> None:
        self._loop_iterables.add(id(node.iter))
        super().visit_For(node, frame)

    def _literal(self, node: nodes.List | nodes.Tuple | nodes.Dict, frame: Frame) -> None:
        """A literal of constants is as large as its source; one holding variables is checked."""
        try:
            node.as_const(frame.eval_ctx)
        except nodes.Impossible:
            if getattr(node, "ctx", "load") == "load":
                self.write("environment.bounded_value(")
                getattr(super(), f"visit_{type(node).__name__}")(node, frame)
                self.write(")")
                return
        getattr(super(), f"visit_{type(node).__name__}")(node, frame)

    def visit_List(self, node: nodes.List, frame: Frame) -> None:
        self._literal(node, frame)

    def visit_Tuple(self, node: nodes.Tuple, frame: Frame) -> None:
        self._literal(node, frame)

    def visit_Dict(self, node: nodes.Dict, frame: Frame) -> None:
        self._literal(node, frame)

    @optimizeconst
    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        if frame.eval_ctx.volatile:
            markup = "context.eval_ctx.autoescape"
        else:
            markup = "True" if frame.eval_ctx.autoescape else "False"
        self.write("environment.join_text((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write(f"), {markup})")


class _BoundedTemplate(jinja2.Template):
    """A template whose every rendering starts a fresh budget of iterations and time."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        """Jinja's Template.render (the synchronous path), within a budget."""
        env = self.environment
        budget = env.budget  # type: ignore[attr-defined]
        budget.start()
        try:
            return env.concat(self.root_render_func(self.new_context(dict(*args, **kwargs))))  # type: ignore
        except Exception:
            env.handle_exception()
        finally:
            budget.stop()


class _BoundedFormatter(SandboxedFormatter):
    """``str.format`` in the sandbox, refusing a field (``{:>999999999}``) or a whole text that is too long."""

    def __init__(self, env: "_Sandbox", **kwargs: Any):
        super().__init__(env, **kwargs)
        self._made = 0

    def vformat(self, format_string: str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> str:
        self._made = len(format_string)
        return super().vformat(format_string, args, kwargs)

    def format_field(self, value: Any, format_spec: str) -> Any:
        env: _Sandbox = self._env  # type: ignore[assignment]
        env.budget.tick()
        limit = env.limits.size
        if self._made + format_field_size(value, format_spec, limit) > limit:
            raise too_large("the result of str.format()", env.limits)
        text = super().format_field(value, format_spec)
        self._made += len(text)
        return text


class _BoundedEscapeFormatter(_BoundedFormatter, EscapeFormatter):
    pass


# --------------------------------------------------------------------------- the environment


class _Sandbox(ImmutableSandboxedEnvironment):
    """Jinja's sandbox, where data cannot be changed and a template cannot run away.

    Immutable: the same values render every kind of an object, so a template that
    changed one (``spec.update(...)``) would make the kinds differ. The module
    docstring explains the bounds.
    """

    code_generator_class = _CodeGenerator
    template_class = _BoundedTemplate
    intercepted_binops = frozenset(["+", "-", "*", "%", "**"])

    def __init__(self, limits: Limits, **options: Any):
        super().__init__(**options)
        self.limits = limits
        self.budget = Budget(limits)

    # -- values

    def checked(self, value: Any, what: str) -> Any:
        """``value`` if it is within the limits; a lazy sequence comes back counted as it yields."""
        kind = type(value)
        if kind is str:
            size = len(value)
        elif kind is int:
            if value.bit_length() > MAX_INT_BITS:
                raise too_many_bits(what)
            return value
        elif kind in SCALARS:
            return value
        elif hasattr(kind, "__next__"):  # an iterator: map, select, a generator
            return self.bounded_items(value, what)
        else:
            size = deep_size(value, self.limits.size)
        if size > self.limits.size:
            raise too_large(what, self.limits)
        if size >= LARGE_VALUE:
            self.budget.check_memory()
        return value

    def bounded_value(self, value: Any) -> Any:
        """A list, tuple or dict a template wrote as a literal, checked as it is made."""
        return self.checked(value, f"a {type(value).__name__} the template builds")

    def bounded_items(self, iterator: Iterable[Any], what: str) -> Iterator[Any]:
        """``iterator``, stopping once what it yielded adds up to more than the size limit.

        Whatever consumes it (a loop, ``in``, ``list``, ``sort``) may keep every
        item, so the items together must fit the limit, as one list would.
        """
        budget, limit = self.budget, self.limits.size
        made = 0
        for item in iterator:
            made += deep_size(item, limit - made)
            if made > limit:
                raise too_large(what, self.limits)
            budget.tick()
            yield item

    def bounded_iter(self, iterable: Iterable[Any]) -> Iterator[Any]:
        """The iterable of a ``for`` loop, counting each iteration against the rendering's budget."""
        iteration = self.budget.iteration
        for item in iterable:
            iteration()
            yield item

    def items_of(self, iterable: Any, what: str) -> Sequence[Any]:
        """The items of ``iterable``, refused as soon as they exceed the size limit."""
        if isinstance(iterable, (list, tuple)):  # made by the template or given to it: within the limit
            return iterable
        return list(self.bounded_items(iter(iterable), what))

    def join_text(self, values: Sequence[Any], markup: bool) -> str:
        """``a ~ b ~ c``: each part as text, refused before a too long result is made."""
        texts = []
        made = 0
        for value in values:
            text = value if isinstance(value, str) else str(value)
            made += len(text)
            if made > self.limits.size:
                raise too_large("the text built with '~'", self.limits)
            texts.append(text)
        return self.checked(markup_join(texts) if markup else "".join(texts), "the text built with '~'")

    def concat(self, pieces: Iterable[str]) -> str:  # type: ignore[override]
        """All text a template, macro or block renders: refused once it grows past the size limit.

        Raised inside the rendering generator, so the error points at the line
        whose output went past the limit.
        """
        limit = self.limits.size
        if type(pieces) is list:
            made = sum(map(len, pieces))
            if made > limit:
                raise too_large("the rendered text", self.limits)
            return "".join(pieces)
        texts: list[str] = []
        append = texts.append
        made = 0
        for text in pieces:
            append(text)
            made += len(text)
            if made > limit:
                error = too_large("the rendered text", self.limits)
                if isinstance(pieces, types.GeneratorType):
                    pieces.throw(error)
                raise error
        budget = self.budget
        if made > budget.peak_text:
            budget.peak_text = made
        return "".join(texts)

    # -- operators and calls

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        self.budget.tick()
        what = f"the result of '{operator}'"
        limit = self.limits.size
        if operator == "*":
            for seq, count in ((left, right), (right, left)):
                if isinstance(seq, (str, bytes, list, tuple)) and type(count) is int:
                    if count > 0 and deep_size(seq, limit) * count > limit:
                        raise too_large(what, self.limits)
            if type(left) is int and type(right) is int and left.bit_length() + right.bit_length() > MAX_INT_BITS:
                raise too_many_bits(what)
        elif operator == "**" and type(left) is int and type(right) is int and abs(left) > 1:
            if right > 0 and right * abs(left).bit_length() > MAX_INT_BITS:
                raise too_many_bits(what)
        elif operator == "%" and isinstance(left, (str, bytes)) and printf_size(
                left if isinstance(left, str) else left.decode("latin-1"), right, limit) > limit:
            raise too_large(what, self.limits)
        return self.checked(super().call_binop(context, operator, left, right), what)

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        """Every call a template makes: within the time, the depth and the size of its result."""
        budget = __self.budget
        budget.tick()
        owner = getattr(__obj, "__self__", None)
        name = getattr(__obj, "__name__", type(__obj).__name__)
        if isinstance(owner, (str, bytes)):
            args = __self._predict_method(owner, name, args, kwargs)
            what = f"the result of {type(owner).__name__}.{name}()"
        elif type(owner) is int and name == "to_bytes" and args and isinstance(args[0], int):
            if args[0] > __self.limits.size:
                raise too_large("the result of int.to_bytes()", __self.limits)
            what = "the result of int.to_bytes()"
        elif __obj is generate_lorem_ipsum:
            bound = inspect.signature(generate_lorem_ipsum).bind(*args, **kwargs)
            bound.apply_defaults()
            if int(bound.arguments["n"]) * (int(bound.arguments["max"]) + 1) * 16 > __self.limits.size:
                raise too_large("the result of lipsum()", __self.limits)
            what = "the result of lipsum()"
        else:
            what = f"the result of {name}()"
            if isinstance(__obj, LoopContext) and args:  # loop(children) in a recursive loop
                args = (__self.bounded_iter(args[0]),) + args[1:]
        if budget.depth >= MAX_DEPTH:
            raise TemplateLimitError(f"template exceeded a limit: calls (macros, caller(), recursive loops) "
                                     f"nested more than {MAX_DEPTH} deep")
        budget.depth += 1
        try:
            result = super().call(__context, __obj, *args, **kwargs)
        finally:
            budget.depth -= 1
        return __self.checked(result, what)

    def _predict_method(self, owner: str | bytes, name: str, args: tuple, kwargs: dict) -> tuple:
        """Refuse a str or bytes method whose result would be too long; the arguments to call it with."""
        limit = self.limits.size
        if name == "join" and len(args) == 1 and not kwargs:
            items = self.items_of(args[0], f"the result of {type(owner).__name__}.join()")
            made = sum(len(i) if isinstance(i, (str, bytes)) else 0 for i in items) + len(owner) * max(len(items) - 1, 0)
            if made > limit:
                raise too_large(f"the result of {type(owner).__name__}.join()", self.limits)
            return (items,)
        if name in ("encode", "decode"):
            codec = (args[0] if args else kwargs.get("encoding", "utf-8"))
            if len(owner) > CODEC_INPUT_MOST and not linear_codec(codec):
                raise TemplateLimitError(
                    f"template exceeded a limit: {type(owner).__name__}.{name}() with {excerpt(str(codec))!r} "
                    f"takes time that grows faster than its input; at most {CODEC_INPUT_MOST} characters are "
                    "taken (UTF-8, ASCII, Latin-1, UTF-16, UTF-32 and single-byte codecs take any)")
            return args
        if name == "translate" and len(args) == 1 and isinstance(owner, str):
            table = args[0]
            values = table.values() if isinstance(table, Mapping) else table if isinstance(table, (list, tuple)) else ()
            longest = max((len(v) for v in values if isinstance(v, str)), default=1)
            if len(owner) * max(longest, 1) > limit:
                raise too_large("the result of str.translate()", self.limits)
            return args
        predict = METHOD_PREDICTORS.get(name)
        if predict is not None:
            try:
                size = predict(owner, *args, **kwargs)
            except TypeError:  # wrong arguments: let the method itself say so
                return args
            if size > limit:
                raise too_large(f"the result of {type(owner).__name__}.{name}()", self.limits)
        return args

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """``str.format`` and ``str.format_map`` through a formatter that bounds what they make."""
        if not isinstance(value, (types.MethodType, types.BuiltinMethodType)) or \
                value.__name__ not in ("format", "format_map") or not isinstance(value.__self__, str):
            return None
        text: str = value.__self__
        is_map = value.__name__ == "format_map"
        formatter = (_BoundedEscapeFormatter(self, escape=text.escape) if isinstance(text, Markup)
                     else _BoundedFormatter(self))

        def wrapper(*args: Any, **kwargs: Any) -> str:
            if is_map:
                if kwargs or len(args) != 1:
                    raise TypeError("format_map() takes exactly one argument")
                args, kwargs = (), args[0]
            return type(text)(formatter.vformat(text, args, kwargs))

        return functools.update_wrapper(wrapper, value)

    # -- filters

    def bounded_indent(self, yaml_block: Callable[..., str]) -> Callable[..., str]:
        """``yaml_block``, refusing an indent whose padding of every line would make too long a text."""
        predict = FILTER_PREDICTORS["yaml_block"]
        limits = self.limits

        def bounded(value: Any, indent: Any, *args: Any, **kwargs: Any) -> str:
            if type(indent) is not int or indent > 64:
                if predict({"value": value, "indent": indent}, limits.size) > limits.size:
                    raise too_large("the result of the yaml_block filter", limits)
            return yaml_block(value, indent, *args, **kwargs)

        return functools.update_wrapper(bounded, yaml_block)


#: How a filter that Jinja passes a context, an evaluation context or the environment
#: reaches the environment; a filter Jinja passes nothing gets the environment added.
_ENVIRONMENT_OF: dict[Any, Callable[[Any], "_Sandbox"]] = {
    _PassArg.context: lambda context: context.environment,
    _PassArg.eval_context: lambda eval_ctx: eval_ctx.environment,
    _PassArg.environment: lambda env: env,
}


def bound_filters(env: "_Sandbox") -> None:
    """Wrap every filter of ``env``: within the time, its result within the size limit, and
    one that takes a size as a parameter refused before it runs."""
    for name, function in list(env.filters.items()):
        env.filters[name] = _bounded_filter(name, function)


@functools.lru_cache(maxsize=None)
def _bounded_filter(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """The bounded ``function``, made once per process and shared by every environment.

    Shared rather than made per environment: a wrapper holding its environment
    would sit in a reference loop with it, which only the cyclic garbage collector
    frees. The wrapper reaches the rendering's environment through what Jinja passes
    the filter.
    """
    predict = FILTER_PREDICTORS.get(name)
    signature = inspect.signature(function) if predict or name in ("join", "sum") else None
    what = f"the result of the {name} filter"
    pass_arg = _PassArg.from_obj(function)
    environment_of = _ENVIRONMENT_OF.get(pass_arg)

    def bounded(*args: Any, **kwargs: Any) -> Any:
        if environment_of is None:
            env, args = args[0], args[1:]
        else:
            env = environment_of(args[0])
        if env.budget.deadline == math.inf:  # Jinja folding constants while compiling: the bounds of
            raise nodes.Impossible()  # '~' and literals apply only when rendering, so leave it to that
        env.budget.tick()
        if signature is not None:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            if name == "join":
                return _join(env, function, bound)
            if name == "sum":
                return _sum(env, function, bound)
            try:
                size = predict(bound.arguments, env.limits.size)  # type: ignore[misc]
            except (TypeError, ValueError):  # arguments of the wrong kind: the filter itself says so
                size = 0
            if size > env.limits.size:
                raise too_large(what, env.limits)
        return env.checked(function(*args, **kwargs), what)

    functools.update_wrapper(bounded, function)  # with Jinja's pass-argument marker, if any
    if environment_of is None:
        pass_environment(bounded)
    return bounded


def _join(env: "_Sandbox", function: Callable[..., Any], bound: inspect.BoundArguments) -> str:
    """The join filter, its items counted before the joined text is made."""
    what = "the result of the join filter"
    items = env.items_of(bound.arguments["value"], what)
    attribute = bound.arguments.get("attribute")
    parts = list(map(make_attrgetter(env, attribute), items)) if attribute is not None else items
    separator = len(str(bound.arguments.get("d", "")))
    made = separator * max(len(parts) - 1, 0)
    for part in parts:
        made += text_length(part)
        if made > env.limits.size:
            raise too_large(what, env.limits)
    bound.arguments["value"] = items
    return env.checked(function(*bound.args, **bound.kwargs), what)


def _sum(env: "_Sandbox", function: Callable[..., Any], bound: inspect.BoundArguments) -> Any:
    """The sum filter; lists and tuples are joined in one pass, not by repeated ``+``.

    ``sum`` of n lists copies the growing list n times, which for a few
    hundred thousand short lists runs for minutes inside C.
    """
    what = "the result of the sum filter"
    items = env.items_of(bound.arguments["iterable"], what)
    attribute = bound.arguments.get("attribute")
    if attribute is not None:
        items = list(map(make_attrgetter(env, attribute), items))
    start = bound.arguments.get("start", 0)
    limit = env.limits.size
    for kind in (list, tuple):
        if type(start) is kind and items and all(type(i) is kind for i in items):
            if deep_size(start, limit) + deep_size(items, limit) > limit:
                raise too_large(what, env.limits)
            return kind(itertools.chain(start, *items))
    bound.arguments["iterable"] = items
    bound.arguments["attribute"] = None
    return env.checked(function(*bound.args, **bound.kwargs), what)


def environment(template_dirs: Sequence[Path], limits: Limits | None = None) -> _Sandbox:
    """The one Jinja environment of the tool; earlier directories win over later ones.

    The filters registered here are all the filters a template has: Jinja's own,
    each bounded, and the two that write values as YAML. Those run for every
    object, so they are bounded by what they are rather than wrapped: their text
    grows linearly with the value (PyYAML writes a value met twice as an alias),
    so it is bounded with the value and counted in the rendered text, and the
    one size parameter, yaml_block's indent, is checked before it is used.
    """
    env = _Sandbox(
        limits if limits is not None else Limits.from_environ(),
        loader=TemplateLoader([str(d) for d in template_dirs]),  # bounded like every input file
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
        auto_reload=False,
    )
    bound_filters(env)
    env.filters["yaml_scalar"] = yaml_scalar
    env.filters["yaml_block"] = env.bounded_indent(yaml_block)
    return env


# --------------------------------------------------------------------------- errors


def _template_line(tb: types.TracebackType | None, filename: str | None) -> int | None:
    """The template line a rendering error happened at (Jinja maps frames to template lines)."""
    line = None
    while tb is not None:
        if filename and tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def template_error(exc: Exception, name: str, env: jinja2.Environment, display: str) -> InputError:
    """An InputError naming the template file and line for any failure inside a template."""
    if isinstance(exc, jinja2.TemplateSyntaxError):
        return InputError([Problem(Location(display, exc.lineno), f"template syntax error: {exc.message}")])
    try:
        filename = env.loader.get_source(env, name)[1] if env.loader else None
    except jinja2.TemplateNotFound:
        filename = None
    line = _template_line(exc.__traceback__, filename)
    if isinstance(exc, jinja2.UndefinedError):
        what = f"undefined value in template: {exc.message}"
    elif isinstance(exc, jinja2.TemplateNotFound):  # an include or import; never show search paths
        what = f"template {exc.name!r} not found (a template can include only files of templates/)"
    elif isinstance(exc, TemplateLimitError):
        what = str(exc)
    elif isinstance(exc, jinja2.exceptions.SecurityError):
        what = f"template tried something the sandbox forbids: {exc}"
    elif isinstance(exc, RecursionError):
        what = ("template exceeded a limit: nested too deeply (a template or macro that includes, extends or "
                "calls itself without end, or a value nested thousands of levels deep)")
    else:
        what = f"template failed: {type(exc).__name__}: {exc}"
    return InputError([Problem(Location(display, line), what)])

