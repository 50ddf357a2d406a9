"""What a template may build, iterate and take: the limits, and the arithmetic that predicts sizes.

sandbox.py applies these at every place a template can make a value, loop or
call; this module says how large a value is (``deep_size``), how long the
result of an operation that takes a size as a parameter would be (the
predictors), and keeps the running budget of one rendering (``Budget``).
"""

from __future__ import annotations

import codecs
import math
import os
import re
import resource
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from jinja2.exceptions import SecurityError
from jinja2.utils import Namespace

from ..errors import InputError
from ..problems import Location, Problem, excerpt
from ..quantity import BOUNDS, MAX_DIGITS, within_bounds

#: Largest whole number a template may make, in bits (``9 ** 9 ** 9`` would take minutes).
MAX_INT_BITS = 4096
#: Deepest nesting of calls (macros, caller(), recursive loops) in a template. Python's
#: own recursion limit would stop a little over this with a RecursionError.
MAX_DEPTH = 100
#: How the variables are written: ASCII digits, and for seconds a point and an exponent if need be.
_WHOLE = re.compile(r"([0-9]+)")
_SECONDS = re.compile(r"([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE]([-+]?[0-9]+))?")


@dataclass(frozen=True)
class Limits:
    """How much one rendering of a template may build, iterate, hold and take.

    ``size`` bounds every single value (characters or items), ``memory`` (MiB)
    how much one rendering may add to the process's peak memory however many
    values it keeps, the seconds bound one rendering and all renderings through
    one environment. The defaults are far above what any catalog template needs
    (docs/errors.md has the margins of the built-in templates) and far below
    what hurts a machine. Each can be raised through its variable in ``VARIABLES``.
    """

    size: int = 1_000_000
    iterations: int = 1_000_000
    memory: int = 256  # MiB
    seconds: float = 10.0
    total_seconds: float = 60.0

    VARIABLES = {
        "size": "CITGEN_TEMPLATE_MAX_SIZE",
        "iterations": "CITGEN_TEMPLATE_MAX_ITERATIONS",
        "memory": "CITGEN_TEMPLATE_MAX_MEMORY",
        "seconds": "CITGEN_TEMPLATE_SECONDS",
        "total_seconds": "CITGEN_TEMPLATE_TOTAL_SECONDS",
    }

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] = os.environ) -> "Limits":
        """The defaults, with each one the environment sets; a value that is not a number is refused."""
        values: dict[str, Any] = {}
        problems = []
        for field, variable in cls.VARIABLES.items():
            text = environ.get(variable)
            if text is None:
                continue
            whole = field in ("size", "iterations", "memory")
            written = (_WHOLE if whole else _SECONDS).fullmatch(text)  # int() also reads '١٠', '1_0' and ' 1'
            bounded = written is not None and within_bounds(written[1], None if whole else written[2])
            value = (int(text) if whole else float(text)) if bounded else None
            if value is None or not value > 0:
                expected = "a whole number at least 1" if whole else "a number of seconds greater than 0"
                if written is not None and not bounded:
                    expected += f" of at most {MAX_DIGITS} digits" if whole else f" of {BOUNDS}"
                problems.append(Problem(Location(variable), f"expected {expected}, got {excerpt(text)!r}"))
            else:
                values[field] = value
        if problems:
            raise InputError(problems)
        return cls(**values)


class TemplateLimitError(SecurityError):
    """A template went past one of its limits; the message says which and how to raise it."""


def too_large(what: str, limits: Limits) -> TemplateLimitError:
    return TemplateLimitError(f"template exceeded a limit: {what} would be longer than {limits.size} "
                              f"characters or items (set {Limits.VARIABLES['size']} to raise the limit)")


def too_many_bits(what: str) -> TemplateLimitError:
    return TemplateLimitError(f"template exceeded a limit: {what} would be a number of more than "
                              f"{MAX_INT_BITS} bits")


SCALARS = (bool, float, type(None))


def deep_size(value: Any, limit: int) -> int:
    """Characters and items ``value`` holds, counted deeply; counting stops just past ``limit``.

    A list that holds one string a million times counts a million strings,
    because that is what printing, comparing or serialising it costs; a value
    built by doubling a list ten thousand times is thus found at once, by
    counting no further than the limit.
    """
    total = 0
    stack = [value]
    pop, extend = stack.pop, stack.extend
    while stack:
        item = pop()
        kind = type(item)
        if kind is str or kind is bytes or isinstance(item, (str, bytes, bytearray)):
            total += len(item) or 1
        elif kind is int:
            total += 1 + item.bit_length() // 32
        elif kind is list or kind is tuple or isinstance(item, (list, tuple, set, frozenset)):
            total += 1
            extend(item)
        elif isinstance(item, dict):
            total += 1
            extend(item.keys())
            extend(item.values())
        elif isinstance(item, Namespace):
            total += 1
            stack.append(object.__getattribute__(item, "_Namespace__attrs"))
        else:  # numbers, None, lazy sequences (counted as they yield), macros and other callables
            total += 1
        if total > limit:
            break
    return total


def text_length(value: Any) -> int:
    """Length of ``str(value)``; only called for values already within the size limit."""
    return len(value) if isinstance(value, str) else len(str(value))


def text_bound(value: Any, limit: int, as_repr: bool = True) -> int:
    """An upper bound of ``len(repr(value))`` (or of ``len(str(value))``), without making either.

    repr() writes a character as at most ten (``'\\U000e0001'``) and a container
    adds brackets, quotes and separators per item; a float prints as at most
    about 320 digits. str() of a string is the string itself.
    """
    if isinstance(value, str):
        return 10 * len(value) + 2 if as_repr else len(value)
    return 12 * deep_size(value, limit) + 330


# --------------------------------------------------------------------------- size predictions

#: The numbers in a printf-style conversion: ``%(key)-08.3f``, ``%*d``, ``%%``.
_PRINTF = re.compile(r"%(?:\((?P<key>[^)]*)\))?[-#0 +]*(?P<width>\*|\d+)?(?:\.(?P<precision>\*|\d+))?[hlL]?(?P<type>.)?",
                     re.DOTALL)
_DIGITS = re.compile(r"\d+")


def _number(digits: str) -> int:
    """A width or precision; one too long to convert is larger than any limit anyway."""
    return int(digits) if len(digits) <= 18 else 10 ** 18


def printf_size(template: str, args: Any, limit: int) -> int:
    """An upper bound of ``len(template % args)``: the text, plus each conversion's widest output."""
    total = len(template)
    positional = list(args) if isinstance(args, tuple) else [args]
    mapping = args if isinstance(args, Mapping) else None
    for match in _PRINTF.finditer(template):
        if match["type"] == "%":
            continue
        for part in ("width", "precision"):
            if match[part] == "*":
                star = positional.pop(0) if positional else 0
                total += abs(star) if isinstance(star, int) else 0
            elif match[part]:
                total += _number(match[part])
        if match["key"] is not None and mapping is not None:
            value = mapping.get(match["key"])
        else:
            value = positional.pop(0) if positional else None
        total += text_bound(value, limit, as_repr=match["type"] in ("r", "a"))
        if total > limit:
            break
    return total


def format_field_size(value: Any, spec: str, limit: int) -> int:
    """An upper bound of ``len(format(value, spec))``: the widest of its numbers and the value's text."""
    widest = max((_number(d) for d in _DIGITS.findall(spec)), default=0)
    return widest + text_bound(value, limit, as_repr=False)  # a !r conversion was made before


def _indent_width(indent: Any) -> int:
    return len(indent) if isinstance(indent, str) else max(int(indent or 0), 0) if isinstance(indent, int) else 8


def _depth(value: Any, limit: int) -> int:
    """How deeply lists and mappings nest in ``value`` (at most ``limit``)."""
    deepest = 0
    stack = [(value, 1)]
    while stack and deepest < limit:
        item, level = stack.pop()
        if isinstance(item, (list, tuple, set, frozenset)):
            deepest = max(deepest, level)
            stack.extend((x, level + 1) for x in item)
        elif isinstance(item, dict):
            deepest = max(deepest, level)
            stack.extend((x, level + 1) for x in item.values())
    return deepest


#: For filters and methods that take a size as a parameter: the size of their result,
#: predicted from the bound arguments (a mapping of parameter name to value).
Predictor = Callable[[Mapping[str, Any], int], int]


def _str_arg(arguments: Mapping[str, Any], name: str) -> str:
    value = arguments.get(name)
    return value if isinstance(value, (str, bytes)) else str(value)


def _replace_size(text: str | bytes, old: str | bytes, new: str | bytes, count: Any) -> int:
    times = len(text) + 1 if not old else text.count(old)
    if isinstance(count, int) and count >= 0:
        times = min(times, count)
    return len(text) + times * len(new)


def _tojson_size(arguments: Mapping[str, Any], limit: int) -> int:
    value, indent = arguments["value"], arguments.get("indent")
    size = deep_size(value, limit)
    if indent in (None, 0, ""):
        return text_bound(value, limit)
    return text_bound(value, limit) + size * _depth(value, limit) * _indent_width(indent)


FILTER_PREDICTORS: dict[str, Predictor] = {
    "center": lambda a, limit: max(text_length(a["value"]), int(a["width"])),
    "indent": lambda a, limit: (len(_str_arg(a, "s")) + (_str_arg(a, "s").count("\n") + 1)
                                * _indent_width(a["width"])),
    "wordwrap": lambda a, limit: (len(_str_arg(a, "s"))
                                  * (2 + len(a["wrapstring"] if isinstance(a.get("wrapstring"), str) else "\n"))),
    "replace": lambda a, limit: _replace_size(_str_arg(a, "s"), _str_arg(a, "old"), _str_arg(a, "new"),
                                              a.get("count")),
    "format": lambda a, limit: printf_size(_str_arg(a, "value"), a["kwargs"] or a["args"], limit),
    "tojson": _tojson_size,
    "pprint": lambda a, limit: _tojson_size({"value": a["value"], "indent": 1}, limit),
    "batch": lambda a, limit: (0 if a.get("fill_with") is None
                               else int(a["linecount"]) * (1 + deep_size(a["fill_with"], limit))),
    "yaml_block": lambda a, limit: (0 if not isinstance(a.get("indent"), int) or a["indent"] <= 64
                                    else (deep_size(a["value"], limit) + 1) * (a["indent"] + 1)),
}


#: Characters (or bytes) a codec whose time grows faster than its input may take in one call:
#: punycode is quadratic, some 1.6 s for 4,096 characters, minutes for a megabyte.
CODEC_INPUT_MOST = 256
_LINEAR_CODECS = frozenset({"utf-8", "ascii", "latin-1", "iso8859-1", "utf-16", "utf-16-le", "utf-16-be",
                            "utf-32", "utf-32-le", "utf-32-be", "utf-7", "unicode-escape", "raw-unicode-escape"})
_SINGLE_BYTE = ("cp", "iso8859-", "mac-", "koi8-", "latin", "windows-")


def linear_codec(name: Any) -> bool:
    """Whether encoding or decoding with ``name`` takes time in proportion to the text (False if unknown)."""
    if not isinstance(name, str):
        return False
    try:
        found = codecs.lookup(name).name
    except LookupError:
        return True  # the call fails at once, saying so
    return found in _LINEAR_CODECS or found.startswith(_SINGLE_BYTE)


METHOD_PREDICTORS: dict[str, Callable[..., int]] = {
    "center": lambda s, width, *_: max(len(s), width),
    "ljust": lambda s, width, *_: max(len(s), width),
    "rjust": lambda s, width, *_: max(len(s), width),
    "zfill": lambda s, width: max(len(s), width),
    "expandtabs": lambda s, tabsize=8: len(s) + s.count("\t" if isinstance(s, str) else b"\t") * max(tabsize, 0),
    "replace": lambda s, old, new, count=-1: _replace_size(s, old, new, count),
}


# --------------------------------------------------------------------------- the budget of one rendering


#: Values of at least this many characters or items, and every this many ticks, the
#: budget looks at the process's peak memory (a system call, too slow for every value).
LARGE_VALUE = 4096
MEMORY_EVERY = 1024
#: ru_maxrss is in KiB on Linux and in bytes on macOS.
_RSS_UNIT = 1 if sys.platform == "darwin" else 1024


def peak_memory() -> int:
    """The process's peak resident memory so far, in bytes."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * _RSS_UNIT


class Budget:
    """The iterations, time, call depth and memory one rendering has used.

    Mutable on purpose: it is the running count of the rendering in progress,
    reset by ``start`` for every rendering. The peaks it keeps are the margins
    docs/errors.md reports for the built-in catalog.

    Memory is measured as growth of the process's peak resident size, first
    looked at when the rendering makes its first large value or after
    ``MEMORY_EVERY`` ticks, so an ordinary rendering makes no system call.
    """

    __slots__ = ("limits", "iterations", "depth", "deadline", "started", "spent", "ticks", "memory_base",
                 "peak_iterations", "peak_seconds", "peak_text")

    def __init__(self, limits: Limits):
        self.limits = limits
        self.iterations = 0
        self.depth = 0
        self.deadline = math.inf  # not rendering (compile-time constant folding); 0.0: rendering, clock not started
        self.started = 0.0
        self.spent = 0.0
        self.ticks = 0
        self.memory_base = 0
        self.peak_iterations = 0
        self.peak_seconds = 0.0
        self.peak_text = 0

    def start(self) -> None:
        """A rendering begins; its clock starts at its first tick, so one that never loops,
        calls or filters (the built-in templates) reads no clock at all."""
        self.iterations = 0
        self.depth = 0
        self.ticks = 0
        self.memory_base = 0
        self.started = 0.0
        self.deadline = 0.0

    def stop(self) -> None:
        if self.started:
            took = time.monotonic() - self.started
            self.spent += took
            self.peak_seconds = max(self.peak_seconds, took)
        self.peak_iterations = max(self.peak_iterations, self.iterations)
        self.deadline = math.inf

    def tick(self) -> None:
        """Stop the rendering once its time is up, and look at its memory now and then."""
        now = time.monotonic()
        if now > self.deadline:
            if not self.deadline:  # the first tick of this rendering
                self.started = now
                self.deadline = now + min(self.limits.seconds, max(self.limits.total_seconds - self.spent, 0.0))
            elif self.spent + self.limits.seconds > self.limits.total_seconds:
                raise TemplateLimitError(
                    f"template exceeded a limit: rendering through this template took longer than "
                    f"{self.limits.total_seconds:g} seconds in all (set {Limits.VARIABLES['total_seconds']} "
                    "to raise the limit)")
            else:
                raise TemplateLimitError(
                    f"template exceeded a limit: one rendering took longer than {self.limits.seconds:g} seconds "
                    f"(set {Limits.VARIABLES['seconds']} to raise the limit)")
        self.ticks += 1
        if not self.ticks % MEMORY_EVERY:
            self.check_memory()

    def check_memory(self) -> None:
        """Stop the rendering once it raised the process's peak memory by more than the limit."""
        if self.deadline == math.inf:  # not rendering
            return
        peak = peak_memory()
        if not self.memory_base:
            self.memory_base = peak
        elif peak - self.memory_base > self.limits.memory * 1024 * 1024:
            raise TemplateLimitError(
                f"template exceeded a limit: one rendering took more than {self.limits.memory} MiB of memory "
                f"(set {Limits.VARIABLES['memory']} to raise the limit)")

    def iteration(self) -> None:
        self.iterations += 1
        if self.iterations > self.limits.iterations:
            raise TemplateLimitError(
                f"template exceeded a limit: more than {self.limits.iterations} loop iterations in one "
                f"rendering (set {Limits.VARIABLES['iterations']} to raise the limit)")
        self.tick()
