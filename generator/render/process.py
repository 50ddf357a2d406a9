"""Rendering in a child process that the operating system bounds.

A vendor template may loop for ever, build a 10 GB string in one C call,
recurse, or spend minutes in one C-level call (``encode('punycode')`` of a
long text). None of that can be interrupted or predicted from inside the
interpreter, so templates are rendered in a child process and bounded from
outside, anew for each build (``rendering()``):

- **Processor time.** ``RLIMIT_CPU`` in the child: all of a build's renderings
  together may take ``Limits.total_seconds`` of processor time (and a second
  more); past it the system stops the child (SIGXCPU), even if the parent
  could not.
- **Memory.** ``RLIMIT_AS`` in the child: its address space may grow by
  ``Limits.memory`` MiB past what it had when the build began; an allocation
  beyond fails at once with a MemoryError, at the template line that made it.
  macOS ignores ``RLIMIT_AS``: there only the time bounds hold.
- **Wall time.** The parent waits ``Limits.seconds`` for each rendering and
  ``Limits.total_seconds`` for all of a build's, and kills the child at the
  deadline.
- **Size.** The parent reads each rendered text's length before the text and
  refuses one longer than ``Limits.size`` characters without reading it.

The child is forked at a process's first rendering and serves its later builds
too: forking a large process costs tens of milliseconds (its page tables), a
build a few hundred. A build begins by setting the child's bounds and giving
it a fresh Jinja environment, so nothing a template did outlives its build (only
the code compiled from a template's text is kept, render/worker.py). A
child that went past a bound, ran out of memory or was left with answers
unread is killed, and the next build forks another. Requests are pickled
batches; each rendering is answered by a frame as soon as it is ready.
"""

from __future__ import annotations

import atexit
import os
import pickle
import select
import signal
import time
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, NoReturn, Sequence

from ..errors import CitgenError, InputError
from ..pipes import pipe, widen
from ..problems import Location, Problem
from .limits import Limits, exceeded
from .frames import FATAL, HEADER, LENGTH, MIB, MOST_BYTES, TEXT, Job

_current: ContextVar["Rendering | None"] = ContextVar("citgen_rendering", default=None)


@contextmanager
def rendering() -> Iterator["Rendering"]:
    """One build's renderings: the child bounded anew; an inner block shares the outer's."""
    active = _current.get()
    if active is not None:
        yield active
        return
    session = Rendering(Limits.from_environ())
    token = _current.set(session)
    try:
        yield session
    finally:
        _current.reset(token)
        session.end()


def render(template_dirs: Sequence[Path], jobs: Sequence[Job], prefix: str = "templates/") -> list[str]:
    """The text of each job, rendered with the templates of ``template_dirs`` (earlier ones win)."""
    with rendering() as session:
        return session.render(template_dirs, jobs, prefix)


def submit(template_dirs: Sequence[Path], jobs: Sequence[Job], prefix: str = "templates/") -> Callable[..., list[str]]:
    """``render`` begun and not waited for: the child renders on the second core while the caller goes on,
    and calling the result waits for the texts (``Rendering.submit``). Within ``rendering()``, whose child
    that is; outside it, in a session of its own that ends before this returns: rendered at once."""
    session = _current.get()
    if session is None:
        rendered = render(template_dirs, jobs, prefix)

        def texts(each: Callable[[int, str], None] | None = None) -> list[str]:
            for number, text in enumerate(rendered):
                if each is not None:
                    each(number, text)
            return rendered
        return texts
    return session.submit(template_dirs, jobs, prefix)


def render_one(template_dirs: Sequence[Path], name: str, variables: Mapping[str, Any],
               what: str | None = None) -> str:
    """One template rendered with ``variables``."""
    return render(template_dirs, [Job(name, variables, what)])[0]


# --------------------------------------------------------------------------- the parent


class Child:
    """The parent's end of the rendering child: its process id and pipes.

    Mutable on purpose: it holds the answers read but not yet taken (one read
    takes every frame ready).
    """

    def __init__(self) -> None:
        opened: list[int] = []
        try:
            requests, self.requests = ends = pipe()
            opened += ends
            self.answers, answers = ends = pipe()
            opened += ends
            widen(answers)  # the child renders a whole batch while the parent does something else
            widen(self.requests)  # and the parent hands it over whole while the child still compiles
            self.pid = os.fork()
        except OSError as exc:  # no process or descriptor left to the user, no memory: the system's, said plainly
            for fd in opened:
                os.close(fd)
            raise CitgenError([Problem(Location("citgen"), (
                f"cannot start the process that renders the templates: {(exc.strerror or str(exc)).lower()}; "
                "citgen renders in a child process the system bounds (docs/security.md): let this run start one "
                "(the limit of processes or open files, ulimit -u or -n, or free memory)"))]) from None
        self.buffer = bytearray()
        # the child: serve, and leave without cleanup (nor flushing the parent's streams). Not mutated: a
        # mutant that sends the parent here leaves a process whose child is "0", and os.kill(0) of that
        # process would stop every process of its group, mutation testing's own included
        if self.pid == 0:  # pragma: no mutate
            status = 1
            try:
                from . import worker  # jinja2 and the sandbox: imported here, on the child's core

                worker.detach(keep=(requests, answers))
                worker.serve(requests, answers)
                status = 0
            finally:
                os._exit(status)
        os.close(requests)
        os.close(answers)

    def send(self, *message: Any) -> None:
        data = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
        view = memoryview(LENGTH.pack(len(data)) + data)
        while view:
            view = view[os.write(self.requests, view):]

    def read(self, size: int, deadline: float) -> bytes | None:
        """``size`` bytes from the child; None at the deadline; b"" if it ended."""
        got = self.buffer
        while len(got) < size:
            ready, _, _ = select.select([self.answers], [], [], max(deadline - time.monotonic(), 0))
            if not ready:
                return None
            chunk = os.read(self.answers, max(size - len(got), MIB))
            if not chunk:
                return b""
            got += chunk
        taken = bytes(got[:size])
        del got[:size]
        return taken

    def stop(self) -> int:
        """End the child (it holds nothing worth a clean exit) and reap it: its wait status.

        One that closed its end has begun to exit already: its status is set, and the
        signal cannot change it.
        """
        os.close(self.requests)
        os.close(self.answers)
        os.kill(self.pid, signal.SIGKILL)
        return os.waitpid(self.pid, 0)[1]


#: This process's rendering child, once a rendering has forked it.
_child: Child | None = None


def _forget_the_parents_child() -> None:
    """In a forked process: the parent's child is not ours to talk to; let go of its pipes."""
    global _child
    if _child is not None:
        os.close(_child.requests)
        os.close(_child.answers)
        _child = None


os.register_at_fork(after_in_child=_forget_the_parents_child)


def start() -> None:
    """Fork this process's rendering child now, if it has none, and go on.

    A command that renders calls this before importing the rest of itself: the
    child imports the template engine and waits for its first build on the
    second core while the parent imports the build, instead of after it.
    """
    global _child
    if _child is None:
        try:
            _child = Child()
        except CitgenError:  # the first rendering tries again, and says why if it cannot either
            pass


def _stop_at_exit() -> None:
    """A process leaves no child behind: its own is stopped and reaped (so its time is counted as the process's)."""
    if _child is not None:
        _let_go(_child)


atexit.register(_stop_at_exit)


def _let_go(child: Child) -> int:
    """Stop ``child``, which no build will talk to again: its wait status."""
    global _child
    if _child is child:
        _child = None
    return child.stop()


class Rendering:
    """One build's renderings, as the parent sees them: the limits and the wall time spent.

    Mutable on purpose: it counts the time spent, and knows whether the child still
    owes answers (the parent stopped reading a batch half-way).
    """

    def __init__(self, limits: Limits):
        self.limits = limits
        self.spent = 0.0
        self.owing = False
        self._child: Child | None = None

    def _ready(self) -> Child:
        """The child, bounded for this build; forked if this process has none, or none alive.

        BrokenPipeError if a child forked for this build has ended already: reading its
        answers then says why.
        """
        global _child
        if self._child is None:
            if _child is not None:
                try:
                    _child.send("begin", self.limits)
                    self._child = _child
                    return _child
                except BrokenPipeError:  # it ended between builds (killed from outside): not this build's fault
                    _let_go(_child)
            _child = self._child = Child()
            _child.send("begin", self.limits)
        return self._child

    def prepare(self, template_dirs: Sequence[Path]) -> None:
        """Have the child compile the templates of ``template_dirs`` while the parent goes on
        (loading the catalog, on a second core); nothing is answered, and a template that
        fails to compile fails again, reported, when it is rendered."""
        try:
            self._ready().send("compile", _absolute(template_dirs))
        except BrokenPipeError:  # the child ended: the first rendering says why
            pass

    def render(self, template_dirs: Sequence[Path], jobs: Sequence[Job], prefix: str) -> list[str]:
        return self.submit(template_dirs, jobs, prefix)()

    def submit(self, template_dirs: Sequence[Path], jobs: Sequence[Job], prefix: str) -> Callable[..., list[str]]:
        """Hand ``jobs`` to the child and return at once; calling the result waits for their texts, and
        gives each to ``each(number, text)`` as it comes, where given.

        The child renders on the second core while this process goes on (its answers wait
        in the pipe, ``pipes.PIPE_SIZE`` bytes of them before the child has to wait in turn).
        Each rendering's wall-time bound is counted from when its text is waited for; the
        processor time the child may spend is bounded by the system whatever the parent does.
        """
        if self.owing:
            raise RuntimeError("a batch is still owed: take its texts before submitting another")
        if not jobs:
            return lambda each=None: []
        try:
            self._ready().send("render", _absolute(template_dirs), prefix, tuple(jobs))
        except BrokenPipeError:  # the child ended: reading its answers says why
            pass
        self.owing = True

        def texts(each: Callable[[int, str], None] | None = None) -> list[str]:
            done = []
            for number, job in enumerate(jobs):
                done.append(self._answer(job, prefix))
                if each is not None:  # the caller's use of each text as it comes, while the child renders the next
                    each(number, done[-1])
            self.owing = False
            return done
        return texts

    def end(self) -> None:
        """A child owing answers would give them to the next build: end it."""
        if self._child is not None and self.owing:
            _let_go(self._child)

    def _answer(self, job: Job, prefix: str) -> str:
        """The next frame: the job's text, or the problems that stopped it."""
        child = self._child
        assert child is not None
        left = self.limits.total_seconds - self.spent
        deadline = time.monotonic() + min(self.limits.seconds, left)
        started = time.monotonic()
        try:
            header = child.read(HEADER.size, deadline)
            kind, length = HEADER.unpack(header) if header else (None, 0)
            if kind == TEXT and length > MOST_BYTES * self.limits.size:
                self._fail(job, prefix, self._too_long(job))
            payload = child.read(length, deadline) if kind else header
        finally:
            self.spent += time.monotonic() - started
        if payload is None:
            self._fail(job, prefix, self._late(job, left))
        if not kind or len(payload) < length:
            self._fail(job, prefix, self._stopped(job, _let_go(child)))
        if kind != TEXT:
            self.owing = False  # the child renders nothing more of this batch
            if kind == FATAL:
                _let_go(child)
            raise InputError(pickle.loads(payload))
        text = payload.decode("utf-8", "surrogatepass")
        if len(text) > self.limits.size:
            self._fail(job, prefix, self._too_long(job))
        return text

    def _too_long(self, job: Job) -> str:
        return exceeded(job.what, f"gave a text longer than {self.limits.size} characters", "size")

    def _late(self, job: Job, left: float) -> str:
        if self.limits.seconds <= left:
            return exceeded(job.what, f"took longer than {self.limits.seconds:g} seconds", "seconds")
        return exceeded(job.what, f"went past {self.limits.total_seconds:g} seconds, the time all of a build's "
                        "renderings may take", "total_seconds")

    def _stopped(self, job: Job, status: int) -> str:
        """Why the child stopped answering: the processor time it had, or a crash."""
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
            return exceeded(job.what, f"went past {self.limits.total_seconds:g} seconds of processor time, what "
                            "all of a build's renderings may take", "total_seconds")
        how = f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"exit status {os.WEXITSTATUS(status)}"
        rendering = f"rendering {job.what}" if job.what else "rendering"
        return f"template failed: the rendering process stopped ({how}) while {rendering}"

    def _fail(self, job: Job, prefix: str, message: str) -> NoReturn:
        if self._child is _child and self._child is not None:
            _let_go(self._child)
        self._child = None
        self.owing = False  # a child that was let go owes nothing
        raise InputError.at(Location(prefix + job.template), message)


def _absolute(template_dirs: Sequence[Path]) -> tuple[str, ...]:
    """The folders as the child must find them: it keeps the working directory it was forked in."""
    try:
        return tuple(os.path.abspath(d) for d in template_dirs)
    except FileNotFoundError:  # os.getcwd(): the working directory was deleted
        relative = next(d for d in template_dirs if not os.path.isabs(d))
        raise InputError.at(Location(str(relative)), "a relative template folder, but the working directory "
                            "cannot be used (it was deleted)") from None


