"""The ``citgen`` program: the command line, started so that nothing ends it in a traceback.

The console script and ``python -m generator`` start here rather than at the
click group (cli/__init__.py) because some ways a run ends come before or after
the group runs: Ctrl-C while the command line is still being imported. What the
group itself sees to (cli/__init__.py ``CitgenGroup.main``): standard streams that
are closed, full, narrow or slow (cli/streams.py), and a working directory that no
longer exists (cli/options.py).

This module imports nothing but what Python has loaded before any program runs
(``os``, ``sys``) until it is inside the guard, so that Ctrl-C in a run's first
milliseconds finds the guard there: importing ``typing`` here cost 4 ms outside
it, in which Ctrl-C was a traceback. What comes before this module (Python's own
start, the console script's ``import re``) is Python's and not citgen's.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing is imported inside the guard, with the command line
if TYPE_CHECKING:
    from typing import Any, NoReturn

#: The exit status of a run ended by Ctrl-C, as shells report a process ended by SIGINT.
INTERRUPTED = 130


def main(**kwargs: Any) -> NoReturn:
    """Run the command line; Ctrl-C at any point ends it with one line and status 130.

    The line says what the run had already put in place (cli/streams.py
    ``interrupted``): a Ctrl-C just after a build's outputs were swapped in
    does not undo them.
    """
    try:
        _fewer_collections()
        _no_last_collection()
        from .cli import main as command_line

        command_line(**kwargs)
    except KeyboardInterrupt:
        _say(_interrupted())
        sys.exit(INTERRUPTED)
    sys.exit(0)  # pragma: no cover - click exits itself


def program(**kwargs: Any) -> NoReturn:
    """The ``citgen`` program (the console script, ``python -m generator``): ``main``, then the process ends at
    once, without the interpreter's teardown of every object the run made.

    Past its exit functions (the children stopped and reaped, the standard streams'
    report delivered, cli/streams.py), what the interpreter does on its way out is free
    each module and object one at a time, 5 to 10 ms of a build, only for the system to
    take all of the memory back. The process ends the way the interpreter would have
    ended it: exit functions run, standard output and error flushed, the same status.
    Where anything is left that the teardown would still have to do (a thread still
    running, a stream that will not flush), the interpreter ends it as usual. Tests run
    ``main``, which returns to its caller.
    """
    try:
        main(**kwargs)
    except SystemExit as done:
        status = done.code
        if status is None or isinstance(status, int):  # else: the interpreter prints it, as it always does
            _end_now(status or 0)
        raise


def _end_now(status: int) -> None:
    """Run the exit functions, flush the standard streams and end the process with ``status``; return instead
    where a thread is still running or a stream cannot be flushed, for the interpreter to end it as usual."""
    import atexit
    import os

    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            return  # the interpreter reports what it cannot write, as it does at every exit
    os._exit(status)


#: Allocations between two of the cyclic collector's young passes in a citgen process (Python's default is 700).
YOUNG_COLLECTION_EVERY = 50_000


def _fewer_collections() -> None:
    """Let the cyclic collector look at new objects after tens of thousands of them, not every 700.

    A run imports its modules and reads its catalog before anything it made can be let go:
    tens of thousands of objects, all of them kept. Each young pass walked those made since
    the last one, and each older pass all of them again, to find nothing to free (8 to 10 ms of
    the 260 ms of processor time of a build of the built-in catalog; mypy raises its threshold
    for the same reason). Nothing is held longer for it but garbage that refers to itself: memory that
    only reference cycles keep is found at the next pass, as before, only later. The older
    generations' thresholds stay Python's.
    """
    import gc

    gc.set_threshold(YOUNG_COLLECTION_EVERY, *gc.get_threshold()[1:])


def _no_last_collection() -> None:
    """Spare the ending process the interpreter's last look through every object the run made.

    On its way out Python collects reference cycles over the whole heap, only for the
    system to take all of the memory back a moment later: 20 to 40 ms of a build of the
    built-in catalog, as long as its validation. ``gc.freeze`` as the last exit function
    (the first registered runs last) puts every object out of the collector's sight
    first. Nothing a run leaves depends on it: the outputs and the lock are closed when
    the command returns, the standard streams are flushed by the interpreter itself, and
    the other exit functions (the rendering child stopped and reaped) run before it.
    Registered once however often ``main`` runs in one process (a test's).
    """
    import atexit
    import gc

    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)


def _interrupted() -> str:
    """What a Ctrl-C ends the run with: what the run wrote, where the command line got so far as to know it."""
    streams = sys.modules.get("generator.cli.streams")  # never imported here: Ctrl-C may have come before
    if streams is None:
        return "citgen: interrupted\n"
    try:
        return streams.interrupted()
    except Exception:  # noqa: BLE001 - the line must be said whatever went wrong with saying more
        return "citgen: interrupted\n"


def _say(text: str) -> None:
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
