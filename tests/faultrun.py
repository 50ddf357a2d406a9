"""Runs citgen command lines under faults of their process, each in a forked child: the matrix's engine.

``python tests/faultrun.py CASES RESULTS`` reads a JSON list of runs, imports the
command line once, and runs each in a child forked from this process (milliseconds,
where a new interpreter costs a third of a second), so that the fault matrix
(tests/test_fault_matrix.py) can run hundreds of command lines within the suite's
budget. A child is the real program from the point where Python has opened its
standard streams: its descriptors 1 and 2 are what the run says (a file, closed,
``/dev/full``), ``sys.stdout`` and ``sys.stderr`` are made from them as Python makes
them at start-up (None for a closed one), its working directory may be deleted
under it, and it runs ``citgen`` as the console script does. Whatever escapes the
command line as an exception is written, with its traceback, to a descriptor of
its own, so a traceback is seen whatever became of standard error.

A run is a mapping: ``args``, ``cwd``, ``env`` (added to the environment),
``stdout`` and ``stderr`` (``file``, ``closed``, ``full`` or ``ascii``: a file whose
stream has the ASCII encoding), ``stdin`` (``closed``; else /dev/null), ``full_disk`` (no file may grow: ``RLIMIT_FSIZE`` 0, as a
full file system refuses every write, with both streams pipes, which it does not bind),
``deleted_cwd`` (the working directory is a folder
removed before citgen starts), ``unreadable`` (paths whose permission bits are
cleared while the run lasts), ``modes`` (paths given these permission bits while it
lasts, e.g. 0o644 for a folder that may be listed but not entered), ``loops``
(links to themselves made while it lasts, in place of files that are there) and
``as_files`` (folders that are a file while it lasts, the folder put back after). A result: ``code``, ``stdout``, ``stderr`` (text, with
what could not be decoded escaped), ``traceback`` (empty when none escaped), ``peak``
(the child's largest resident memory in bytes, its rendering child's included, as
``RUSAGE_CHILDREN`` gives it for a process of its own) and ``seconds`` (its wall time).
A child ends as Python ends a process: its exit handlers run (the rendering child is
stopped and reaped), then its standard streams are flushed.

``python tests/faultrun.py --serve`` runs the runs it reads from standard input, a JSON
mapping a line, one at a time, and answers each with its result on a line of standard
output: for tests that run a few command lines each, one after another, and measure each
process's own memory and time (``tests.helpers.ForkedCitgen``).
"""

from __future__ import annotations

import atexit
import io
import json
import os
import resource
import signal
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path
from typing import Any

#: How long one run may take before it counts as hung.
DEADLINE = 60


def _stream(fd: int, how: str, *, err: bool) -> io.TextIOWrapper | None:
    """The text stream Python makes for ``fd`` at start-up, or None where the descriptor is closed."""
    if how == "closed":
        return None
    encoding = "ascii" if how == "ascii" else "utf-8"
    return io.TextIOWrapper(io.FileIO(fd, "w", closefd=False), encoding=encoding,
                            errors="backslashreplace" if err else "strict", line_buffering=err)


def _place(fd: int, how: str, capture: int) -> None:
    if how == "closed":
        os.close(fd)
    elif how == "full":
        full = os.open("/dev/full", os.O_WRONLY)
        os.dup2(full, fd)
        os.close(full)
    else:
        os.dup2(capture, fd)


def _child(run: dict[str, Any], out: int, err: int, escaped: int) -> None:
    """In the forked child: arrange the process as ``run`` says and run citgen in it."""
    code = 0
    try:
        os.environ.update(run.get("env", {}))
        os.chdir(run["cwd"])
        if run.get("deleted_cwd"):
            gone = tempfile.mkdtemp(dir=run["cwd"])
            os.chdir(gone)
            os.rmdir(gone)
        if run.get("stdin") == "closed":  # ``<&-``: the system gives its number to the next descriptor made
            os.close(0)
            sys.stdin = None  # type: ignore[assignment]
        else:
            devnull = os.open(os.devnull, os.O_RDONLY)
            os.dup2(devnull, 0)
        _place(1, run.get("stdout", "file"), out)
        _place(2, run.get("stderr", "file"), err)
        sys.stdout = _stream(1, run.get("stdout", "file"), err=False)  # type: ignore[assignment]
        sys.stderr = _stream(2, run.get("stderr", "file"), err=True)  # type: ignore[assignment]
        if run.get("full_disk"):  # every write to a file fails (EFBIG), as on a full file system (ENOSPC)
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
        from generator.entry import main

        main(args=run["args"], prog_name="citgen")
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    except BaseException:  # what the matrix looks for: anything that is not an exit
        _room()
        os.write(escaped, traceback.format_exc().encode("utf-8", "backslashreplace"))
        code = 70
    _room()
    atexit._run_exitfuncs()  # as Python's exit: citgen's stops its rendering child (a failure is printed, as there)
    for stream in (sys.stdout, sys.stderr):  # Python's own last flush, as at exit
        try:
            if stream is not None:
                stream.flush()
        except Exception:  # noqa: BLE001 - seen as an exit the run did not choose
            os.write(escaped, b"the last flush of a standard stream failed:\n" +
                     traceback.format_exc().encode("utf-8", "backslashreplace"))
    os._exit(code)


def _room() -> None:
    """Files may grow again (after a ``full_disk`` run): what the run left is written down."""
    hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]
    resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))


def _drained(fd: int, into: list[bytes]) -> threading.Thread:
    """A thread reading the pipe ``fd`` to its end into ``into``: a child never waits for its reader."""
    def read() -> None:
        with os.fdopen(fd, "rb") as pipe:
            into.append(pipe.read())
    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def _read(fd: int) -> str:
    os.lseek(fd, 0, os.SEEK_SET)
    with os.fdopen(fd, "rb") as handle:
        return handle.read().decode("utf-8", "backslashreplace")


def run_one(run: dict[str, Any]) -> dict[str, Any]:
    """Fork, run ``run`` in the child, wait for it (killing it at the deadline) and collect what it wrote."""
    out, err, escaped = (tempfile.TemporaryFile() for _ in range(3))
    changed = {**{path: 0 for path in run.get("unreadable", ())}, **run.get("modes", {})}
    modes = {path: os.stat(path).st_mode & 0o7777 for path in changed}
    for path, mode in changed.items():
        os.chmod(path, mode)
    for link in run.get("loops", ()):  # in place of a file that is there, which is put back after
        if os.path.lexists(link):
            os.rename(link, link + ".faultrun")
        os.symlink(os.path.basename(link), link)
    for folder in run.get("as_files", ()):
        os.rename(folder, folder + ".faultrun")
        Path(folder).write_text("a file where a folder was\n", encoding="utf-8")
    pipes = [os.pipe(), os.pipe()] if run.get("full_disk") else []
    targets = [w for _, w in pipes] or [out.fileno(), err.fileno()]
    texts: list[list[bytes]] = [[], []]
    try:
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child ends in os._exit
            signal_default()
            _child(run, targets[0], targets[1], escaped.fileno())
        readers = []
        for (read, write), into in zip(pipes, texts):
            os.close(write)
            readers.append(_drained(read, into))
        status, usage = _wait(pid)
        seconds = time.monotonic() - started
        for reader in readers:
            reader.join()
    finally:
        for path, mode in modes.items():
            os.chmod(path, mode)
        for link in run.get("loops", ()):
            os.unlink(link)
            if os.path.lexists(link + ".faultrun"):
                os.rename(link + ".faultrun", link)
        for folder in run.get("as_files", ()):
            os.unlink(folder)
            os.rename(folder + ".faultrun", folder)
    measured = {"peak": usage.ru_maxrss * 1024, "seconds": seconds}
    if pipes:
        return {"code": status, "stdout": b"".join(texts[0]).decode("utf-8", "backslashreplace"),
                "stderr": b"".join(texts[1]).decode("utf-8", "backslashreplace"),
                "traceback": _read(os.dup(escaped.fileno())), **measured}
    return {"code": status, "stdout": _read(os.dup(out.fileno())), "stderr": _read(os.dup(err.fileno())),
            "traceback": _read(os.dup(escaped.fileno())), **measured}


def signal_default() -> None:
    import signal

    signal.alarm(DEADLINE)  # a hung child ends itself: SIGALRM's default action
    signal.signal(signal.SIGALRM, signal.SIG_DFL)


def _wait(pid: int) -> tuple[int, resource.struct_rusage]:
    """The child's exit status (minus the signal that ended it) and its usage, its reaped children's included."""
    _, status, usage = os.wait4(pid, 0)
    if os.WIFSIGNALED(status):
        return -os.WTERMSIG(status), usage
    return os.WEXITSTATUS(status), usage


def warm() -> None:
    """Do here, once, the work every child would repeat that reads nothing a run's faults are made on.

    Each child is forked from this process and inherits what it holds: the whole package
    imported (commands import their tools lazily, and a run's rendering child, forked from
    it, the template engine), and the pure, remembered answers that depend on no file of a
    run, only on citgen's own package: the input formats' and the shipped CRD schemas'
    compiled checks (and the regular expressions they compile). No catalog file, template,
    bundle or option's path is read here, so a fault on one is still met by the child that
    reads it; the 520 runs of the matrix say, and print, exactly what they did without this.
    """
    import importlib
    import pkgutil

    import generator

    for found in pkgutil.walk_packages(generator.__path__, "generator."):
        if not found.name.endswith(".__main__"):  # running the command line is the children's
            importlib.import_module(found.name)
    from generator import schemas
    from generator.source import formats, inputcheck

    for schema in formats.FILE_KINDS.values():
        inputcheck.quick_check_for(schema)
    for kind in schemas.known_kinds():
        schemas.quick_check(kind)


def main() -> None:
    warm()
    if sys.argv[1:] == ["--serve"]:
        for line in sys.stdin:  # one at a time: the next run is sent once this one is answered
            sys.stdout.write(json.dumps(run_one(json.loads(line))) + "\n")
            sys.stdout.flush()  # before the next fork: a child must not inherit (nor write) what is unsent
        return
    cases = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    results = {name: run_one(run) for name, run in cases.items()}
    Path(sys.argv[2]).write_text(json.dumps(results), encoding="utf-8")


if __name__ == "__main__":
    main()
