"""What the rendering child does: bound itself for each build and render what the parent sends.

The parent's side is render/process.py, which forks the child and calls
``serve``. A request is a pickled tuple: ``("begin", limits)`` starts a build
(its bounds set, a fresh environment), ``("compile", dirs)`` compiles a
folder's templates ahead, ``("render", dirs, prefix, jobs)`` renders a batch,
answering each job with a frame (its kind, its length, then the text or the
pickled problems) up to the first that fails. The child ends when the parent
closes its end, or after a template took all the memory it may have.
"""

from __future__ import annotations

import gc
import math
import os
import pickle
import resource
from pathlib import Path
from typing import Any, BinaryIO, Sequence

import jinja2

from ..errors import InputError
from ..problems import Location
from .frames import CUSHION, FATAL, HEADER, LENGTH, MIB, PROBLEMS, TEXT, Job
from .limits import Limits
from .sandbox import environment, template_error, template_line

def detach(keep: Sequence[int]) -> None:
    """In the child: hold none of the parent's files (a reader of its output waits for their end),
    nor let the collector walk the parent's objects (it would copy every page it touches).

    Not mutated: it runs only in a forked child (in a test's own process it would close
    the test's files), and mutation testing links a test to the code it sees the test run;
    tests/test_render_worker.py checks what it leaves open from the parent.
    """
    gc.freeze()  # pragma: no mutate
    null = os.open(os.devnull, os.O_RDWR)  # pragma: no mutate
    for fd in (0, 1, 2):  # pragma: no mutate
        os.dup2(null, fd)  # pragma: no mutate
    low, high = sorted(keep)  # pragma: no mutate
    os.closerange(3, low)  # pragma: no mutate
    os.closerange(low + 1, high)  # pragma: no mutate
    os.closerange(high + 1, os.sysconf("SC_OPEN_MAX"))  # pragma: no mutate


#: The limits the child was given when forked: a build may tighten them, never loosen them.
_GIVEN: dict[int, tuple[int, int]] = {}


def _tighten(limit: int, value: int) -> None:
    """Bound ``limit`` to ``value`` at most, never past what this process was given when it began."""
    soft, hard = _GIVEN.setdefault(limit, resource.getrlimit(limit))
    for given in (soft, hard):
        if given != resource.RLIM_INFINITY:
            value = min(value, given)
    resource.setrlimit(limit, (value, hard))


def _address_space() -> int | None:
    """The child's address space in bytes, where the system bounds it (Linux; macOS ignores RLIMIT_AS)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _peak() -> int | None:
    """The largest address space this process has had (Linux)."""
    try:
        with open("/proc/self/status", "rb") as status:
            return next(int(line.split()[1]) * 1024 for line in status if line.startswith(b"VmPeak:"))
    except (OSError, ValueError, IndexError, StopIteration):
        return None


def bound(limits: Limits) -> None:
    """Bound this process for one build: its processor time from now, its address space past what it has now."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    # the child computes only while the parent waits, so the parent's wall-clock deadline comes first
    _tighten(resource.RLIMIT_CPU, math.ceil(usage.ru_utime + usage.ru_stime + limits.total_seconds) + 1)
    space = _address_space()
    if space is not None:
        _tighten(resource.RLIMIT_AS, space + limits.memory * MIB)


def _receive(reader: BinaryIO) -> tuple | None:
    head = reader.read(LENGTH.size)
    if len(head) < LENGTH.size:
        return None
    return pickle.loads(reader.read(LENGTH.unpack(head)[0]))


def _remembering(dump: Any, texts: dict[tuple, tuple[Any, str]]) -> Any:
    """``dump`` remembering its text for each value of one batch.

    A batch renders each object once per kind from the very same values
    (unpickling keeps them shared), and writing them as YAML is half of all
    rendering. An entry holds its value, so its id cannot be reused while the
    entry lasts; the batch's end empties them all.
    """

    def remembered(value: Any, *args: Any, **kwargs: Any) -> str:
        key = (dump, id(value), args, tuple(sorted(kwargs.items())))
        hit = texts.get(key)
        if hit is None or hit[0] is not value:
            hit = texts[key] = (value, dump(value, *args, **kwargs))
        return hit[1]

    return remembered


class _Compiled(jinja2.BytecodeCache):
    """The templates this child compiled, kept for its later builds in memory (Jinja's own cache, by name and the
    checksum of the source read each time): a process that builds many times (a test run, ``site``) compiles each
    template once. Only the code compiled from a template's text is kept; every build still gets a fresh
    environment, so nothing a template did outlives its build."""

    #: The most templates kept: a process that builds many catalogs starts afresh past it.
    MOST = 512

    def __init__(self) -> None:
        self.codes: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.codes.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)  # kept only where the source's checksum is the same

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if len(self.codes) >= self.MOST:
            self.codes.clear()
        self.codes[bucket.key] = bucket.bytecode_to_string()


#: This child's compiled templates (it serves every build of the process that forked it).
_COMPILED = _Compiled()


class _Build:
    """What the child holds for one build: its limits, the peak it began at, its environments."""

    def __init__(self, limits: Limits):
        bound(limits)
        self.limits = limits
        self.peak = _peak()
        self.environments: dict[tuple[str, ...], jinja2.Environment] = {}
        self.texts: dict[tuple, tuple[Any, str]] = {}  # what the yaml filters wrote, for one batch

    def environment(self, dirs: tuple[str, ...]) -> jinja2.Environment:
        env = self.environments.get(dirs)
        if env is None:
            env = self.environments[dirs] = environment([Path(d) for d in dirs], _COMPILED)
            for name in ("yaml_block", "yaml_scalar"):
                env.filters[name] = _remembering(env.filters[name], self.texts)
        return env

    def out_of_memory(self, exc: BaseException) -> bool:
        """Whether ``exc`` is the memory bound: a MemoryError, or another error CPython (or Jinja
        rewriting the traceback) raised instead, this build having come within a few MiB of it."""
        if isinstance(exc, MemoryError):
            return True
        soft, peak = resource.getrlimit(resource.RLIMIT_AS)[0], _peak()
        return (soft != resource.RLIM_INFINITY and peak is not None and self.peak is not None
                and peak > self.peak and soft - peak < 4 * CUSHION)


def serve(requests: int, answers: int) -> None:
    """Serve the parent's requests until it closes its end: a build begins, templates are compiled
    ahead, a batch is rendered (a frame per job, up to the first that fails)."""
    reader = os.fdopen(requests, "rb")
    cushion = bytearray(CUSHION)  # room to report a template that took all the memory it may have
    build = _Build(Limits())
    while (message := _receive(reader)) is not None:
        if message[0] == "begin":
            build = _Build(message[1])
        elif message[0] == "compile":
            _compile_all(build.environment(message[1]))
        else:
            _, dirs, prefix, jobs = message
            for job in jobs:
                kind, payload = _render_frame(build, build.environment(dirs), prefix + job.template, job, cushion)
                view = memoryview(HEADER.pack(kind, len(payload)) + payload)
                while view:
                    view = view[os.write(answers, view):]
                if kind == FATAL:
                    return
                if kind == PROBLEMS:
                    break
            build.texts.clear()


def _compile_all(env: jinja2.Environment) -> None:
    """Compile every template of the environment's folders ahead of its first rendering."""
    for name in env.list_templates(extensions=["j2"]):
        try:
            env.get_template(name)
        except Exception:  # noqa: BLE001 - reported when the template is rendered
            pass


def _render_frame(build: _Build, env: jinja2.Environment, display: str, job: Job,
                  cushion: bytearray) -> tuple[bytes, bytes]:
    try:
        return TEXT, _render(build, env, display, job, cushion).encode("utf-8", "surrogatepass")
    except InputError as exc:
        fatal = not cushion  # the memory bound was reached: this child's state is not to be trusted
        return (FATAL if fatal else PROBLEMS), pickle.dumps(exc.problems, pickle.HIGHEST_PROTOCOL)


def _render(build: _Build, env: jinja2.Environment, display: str, job: Job, cushion: bytearray) -> str:
    try:
        template = env.get_template(job.template)
    except jinja2.TemplateNotFound:
        raise InputError.at(Location(display), "template not found") from None
    except InputError:  # what the loader refused (not UTF-8, unreadable), named already
        raise
    except Exception as exc:  # a syntax error, or an error while compiling
        raise template_error(exc, job.template, env, display, job.what, build.limits) from None
    try:
        return template.render(**job.variables)
    except Exception as exc:  # any failure inside a template is the template's fault
        memory = build.out_of_memory(exc)
        if memory:
            cushion.clear()
        line = template_line(exc.__traceback__, template.filename)
        exc.__traceback__ = None  # its frames hold what a MemoryError took: let them go before going on
        raise template_error(MemoryError() if memory else exc, job.template, env, display, job.what,
                             build.limits, line) from None
