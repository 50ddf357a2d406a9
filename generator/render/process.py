"""Rendering in a child process that the operating system bounds.

A vendor template may loop for ever, build a 10 GB string in one C call,
recurse, or spend minutes in one C-level call (``encode('punycode')`` of a
long text). None of that can be interrupted or predicted from inside the
interpreter, so every template of a build is rendered in one forked child and
bounded from outside:

- **Processor time.** ``RLIMIT_CPU`` in the child: all of a build's renderings
  together may take ``Limits.total_seconds`` of processor time (and a second
  for the child's own start); past it the system stops the child (SIGXCPU),
  even if the parent could not.
- **Memory.** ``RLIMIT_AS`` in the child: its address space may grow by
  ``Limits.memory`` MiB past what it had when forked; an allocation beyond
  fails at once with a MemoryError, at the template line that made it. macOS
  ignores ``RLIMIT_AS``: there only the time bounds hold.
- **Wall time.** The parent waits ``Limits.seconds`` for each rendering and
  ``Limits.total_seconds`` for all of them, and kills the child at the deadline.
- **Size.** The parent reads each rendered text's length before the text and
  refuses one longer than ``Limits.size`` characters without reading it.

One child serves a whole build (``rendering()``) and takes requests through a
pipe; a request is a batch of renderings (``Job``, pickled), each answered by a
frame as soon as it is rendered, and the parent reads every frame ready at
once. A build forks it first thing (``prepare``), so that it compiles the
templates on the second core while the parent loads the catalog; elsewhere it
is forked at the first rendering. One batch per step (the objects, the
kustomizations, the Helm files) keeps the round trips few: a build costs about
as much as rendering in the parent did. Whatever stops a rendering ends in an
InputError naming the template and, for a limit, what was being rendered, the
bound and the variable that raises it; the build then writes nothing.
"""

from __future__ import annotations

import gc
import math
import os
import pickle
import resource
import select
import signal
import struct
import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping, NoReturn, Sequence

import jinja2

from ..errors import InputError
from ..problems import Location
from .limits import Limits, exceeded
from .sandbox import environment, template_error, template_line

#: A frame: its kind and the length of what follows.
_HEADER = struct.Struct(">cQ")
_TEXT, _PROBLEMS = b"T", b"P"
#: A character is at most four bytes of UTF-8.
_MOST_BYTES = 4
_MIB = 1024 * 1024
#: Memory the child keeps in reserve, to report a template that took all it may have.
_CUSHION = 4 * _MIB


@dataclass(frozen=True)
class Job:
    """One rendering: a template (its name under templates/), its variables, and what it renders."""

    template: str
    variables: Mapping[str, Any]
    what: str | None = None  # for messages: "'u1.large' as VirtualMachineInstancetype"


_current: ContextVar["RenderProcess | None"] = ContextVar("citgen_rendering", default=None)


@contextmanager
def rendering() -> Iterator["RenderProcess"]:
    """One rendering process for everything rendered inside the block; an inner block shares the outer's."""
    active = _current.get()
    if active is not None:
        yield active
        return
    process = RenderProcess(Limits.from_environ())
    token = _current.set(process)
    try:
        yield process
    finally:
        _current.reset(token)
        process.stop()


def render(template_dirs: Sequence[Path], jobs: Sequence[Job], prefix: str = "templates/") -> list[str]:
    """The text of each job, rendered with the templates of ``template_dirs`` (earlier ones win)."""
    with rendering() as process:
        return process.render(template_dirs, jobs, prefix)


def render_one(template_dirs: Sequence[Path], name: str, variables: Mapping[str, Any],
               what: str | None = None) -> str:
    """One template rendered with ``variables``."""
    return render(template_dirs, [Job(name, variables, what)])[0]


# --------------------------------------------------------------------------- the parent


class RenderProcess:
    """The parent's end of the rendering child: sends batches, reads answers within the limits.

    Mutable on purpose: it holds the child's process id, its pipes and the wall
    time its renderings have taken so far.
    """

    def __init__(self, limits: Limits):
        self.limits = limits
        self.spent = 0.0
        self._pid: int | None = None
        self._requests = self._answers = -1
        self._buffer = bytearray()  # answers read but not yet taken: one read takes every frame ready

    def render(self, template_dirs: Sequence[Path], jobs: Sequence[Job], prefix: str) -> list[str]:
        if not jobs:
            return []
        self._send(template_dirs, prefix, jobs)
        return [self._answer(job, prefix) for job in jobs]

    def prepare(self, template_dirs: Sequence[Path]) -> None:
        """Start the child now and have it compile the templates of ``template_dirs`` while the
        parent goes on (loading the catalog, on a second core); nothing is answered, and a
        template that fails to compile fails again, reported, when it is rendered."""
        self._send(template_dirs, "templates/", ())

    def _send(self, template_dirs: Sequence[Path], prefix: str, jobs: Sequence[Job]) -> None:
        if self._pid is None:
            self._start()
        request = pickle.dumps((tuple(str(d) for d in template_dirs), prefix, tuple(jobs)), pickle.HIGHEST_PROTOCOL)
        _write(self._requests, struct.pack(">Q", len(request)) + request)

    def stop(self) -> None:
        """End the child (it holds nothing worth a clean exit) and reap it."""
        if self._pid is None:
            return
        os.close(self._requests)
        os.close(self._answers)
        self._buffer.clear()
        try:
            os.kill(self._pid, signal.SIGKILL)
        except ProcessLookupError:  # pragma: no cover - already reaped
            pass
        os.waitpid(self._pid, 0)
        self._pid = None

    def _start(self) -> None:
        requests, self._requests = os.pipe()
        self._answers, answers = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: bound itself, serve, and leave without cleanup (nor flushing streams)
            status = 0
            try:
                os.close(self._requests)
                os.close(self._answers)
                cushion = bytearray(_CUSHION)  # made before the bound: room to report a template out of memory
                bound(self.limits)
                serve(requests, answers, self.limits, cushion)
            except BaseException:
                status = 1
            finally:
                os._exit(status)
        os.close(requests)
        os.close(answers)
        self._pid = pid

    def _answer(self, job: Job, prefix: str) -> str:
        """The next frame: the job's text, or the problems that stopped it."""
        left = self.limits.total_seconds - self.spent
        deadline = time.monotonic() + min(self.limits.seconds, left)
        started = time.monotonic()
        try:
            kind, length = _HEADER.unpack(self._read(_HEADER.size, deadline, job, prefix, left))
            if kind == _TEXT and length > _MOST_BYTES * self.limits.size:
                self._fail(job, prefix, self._too_long(job))
            payload = self._read(length, deadline, job, prefix, left)
        finally:
            self.spent += time.monotonic() - started
        if kind == _PROBLEMS:
            raise InputError(pickle.loads(payload))
        text = payload.decode("utf-8", "surrogatepass")
        if len(text) > self.limits.size:
            self._fail(job, prefix, self._too_long(job))
        return text

    def _too_long(self, job: Job) -> str:
        return exceeded(job.what, f"gave a text longer than {self.limits.size} characters", "size")

    def _read(self, size: int, deadline: float, job: Job, prefix: str, left: float) -> bytes:
        """``size`` bytes from the child, or the limit it went past."""
        got = self._buffer
        while len(got) < size:
            ready, _, _ = select.select([self._answers], [], [], max(deadline - time.monotonic(), 0))
            if not ready:
                if self.limits.seconds <= left:
                    message = exceeded(job.what, f"took longer than {self.limits.seconds:g} seconds", "seconds")
                else:
                    message = exceeded(job.what, f"went past {self.limits.total_seconds:g} seconds, the time all "
                                       "of a build's renderings may take", "total_seconds")
                self._fail(job, prefix, message)
            chunk = os.read(self._answers, max(size - len(got), _MIB))
            if not chunk:
                self._fail(job, prefix, self._ended(job))
            got += chunk
        taken = bytes(got[:size])
        del got[:size]
        return taken

    def _ended(self, job: Job) -> str:
        """Why the child stopped answering: the processor time it had, or a crash."""
        assert self._pid is not None
        _, status = os.waitpid(self._pid, 0)
        self._pid = None
        os.close(self._requests)
        os.close(self._answers)
        self._buffer.clear()
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
            return exceeded(job.what, f"went past {self.limits.total_seconds:g} seconds of processor time, what "
                            "all of a build's renderings may take", "total_seconds")
        how = (f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status)
               else f"exit status {os.WEXITSTATUS(status)}")
        rendering = f"rendering {job.what}" if job.what else "rendering"
        return f"template failed: the rendering process stopped ({how}) while {rendering}"

    def _fail(self, job: Job, prefix: str, message: str) -> NoReturn:
        self.stop()
        raise InputError.at(Location(prefix + job.template), message)


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


# --------------------------------------------------------------------------- the child


def _tighten(limit: int, value: int) -> None:
    """Bound ``limit`` to ``value`` at most, never loosening what this process was given."""
    soft, hard = resource.getrlimit(limit)
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


def bound(limits: Limits) -> None:
    """Bound this process: its processor time in all, and its address space past what it has now."""
    # the child computes only while the parent waits, so the parent's wall-clock deadline comes first
    _tighten(resource.RLIMIT_CPU, math.ceil(limits.total_seconds) + 1)
    space = _address_space()
    if space is not None:
        _tighten(resource.RLIMIT_AS, space + limits.memory * _MIB)


def serve(requests: int, answers: int, limits: Limits, cushion: bytearray) -> None:
    """Render each batch that comes through ``requests``, a frame per job, until the parent closes it.

    ``cushion`` is let go when a template took all the memory the child may have,
    so that there is room to say so.
    """
    reader = os.fdopen(requests, "rb")
    environments: dict[tuple[str, ...], _Remembering] = {}
    while True:
        head = reader.read(8)
        if len(head) < 8:
            return
        dirs, prefix, jobs = pickle.loads(reader.read(struct.unpack(">Q", head)[0]))
        env = environments.get(dirs)
        if env is None:
            env = environments[dirs] = _Remembering(environment([Path(d) for d in dirs]))
        if not jobs:
            _compile_all(env.env)
        for job in jobs:
            try:
                frame = _TEXT, _render(env.env, prefix, job, limits, cushion).encode("utf-8", "surrogatepass")
            except InputError as exc:
                frame = _PROBLEMS, pickle.dumps(exc.problems, pickle.HIGHEST_PROTOCOL)
            _write(answers, _HEADER.pack(frame[0], len(frame[1])) + frame[1])
            if frame[0] == _PROBLEMS:
                break
        env.forget()


def _compile_all(env: jinja2.Environment) -> None:
    """Compile every template of the environment's folders ahead of its first rendering."""
    for name in env.list_templates(extensions=["j2"]):
        try:
            env.get_template(name)
        except Exception:  # noqa: BLE001 - reported when the template is rendered
            pass


def _render(env: jinja2.Environment, prefix: str, job: Job, limits: Limits, cushion: bytearray) -> str:
    display = prefix + job.template
    try:
        template = env.get_template(job.template)
    except jinja2.TemplateNotFound:
        raise InputError.at(Location(display), "template not found") from None
    except UnicodeDecodeError as exc:
        raise InputError.at(Location(display), f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except InputError:
        raise
    except Exception as exc:  # a syntax error, or an error while compiling
        raise template_error(exc, job.template, env, display, job.what, limits) from None
    try:
        return template.render(**job.variables)
    except Exception as exc:  # any failure inside a template is the template's fault
        # short of memory, CPython (and Jinja rewriting the traceback) may raise another error instead
        memory = isinstance(exc, MemoryError) or _reached_the_limit()
        if memory:
            cushion.clear()
        line = template_line(exc.__traceback__, template.filename)
        exc.__traceback__ = None  # its frames hold what a MemoryError took: let them go before going on
        if memory:
            gc.collect()  # and what they held in reference cycles (a build runs with the collector paused)
        raise template_error(MemoryError() if memory else exc, job.template, env, display, job.what, limits,
                             line) from None


def _reached_the_limit() -> bool:
    """Whether this process's address space has ever come within a few MiB of its bound (Linux)."""
    soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    try:
        with open("/proc/self/status", "rb") as status:
            peak = next(int(line.split()[1]) * 1024 for line in status if line.startswith(b"VmPeak:"))
    except (OSError, ValueError, IndexError, StopIteration):
        return False
    return soft != resource.RLIM_INFINITY and soft - peak < 4 * _CUSHION


class _Remembering:
    """An environment whose yaml filters remember their text for each value within one batch.

    An object is rendered once per kind from the very same values (pickling keeps
    them shared), so dumping them again for the second kind was half of all
    rendering. An entry holds its value, so the id it is keyed by cannot be
    reused while it is remembered; ``forget`` empties it after each batch.
    """

    def __init__(self, env: jinja2.Environment):
        self.env = env
        self._memo: dict[tuple, tuple[Any, str]] = {}
        for name in ("yaml_block", "yaml_scalar"):
            env.filters[name] = self._remembering(name, env.filters[name])

    def _remembering(self, name: str, dump: Any) -> Any:
        memo = self._memo

        def remembered(value: Any, *args: Any, **kwargs: Any) -> str:
            key = (name, id(value), args, tuple(sorted(kwargs.items())))
            hit = memo.get(key)
            if hit is not None and hit[0] is value:
                return hit[1]
            text = dump(value, *args, **kwargs)
            memo[key] = (value, text)
            return text

        return remembered

    def forget(self) -> None:
        self._memo.clear()
