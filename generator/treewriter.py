"""A tree of files written by a process of its own, while the build goes on making the rest of them.

A build's outputs are a hundred small files in sixty folders (the kustomize tree,
the chart). Making them is mostly the operating system's work, a folder, a file and
its bytes at a time: so the files are handed over as each step makes them (the
bundles, the kustomize tree's documents, its kustomizations, the chart) and written
by a child process while the build lays out the next batch and validates them all,
on the second core. A process rather than a thread: a thread that writes needs
Python's lock back after each system call, and while the build computes it gets it
seldom (a hundred files took four times as long).

Files are written in the order they were handed, each folder made once, before the
first file in it, under a root folder that holds nothing else (write.py's staging
folder), with the modes the umask leaves. The first failure stops the writing;
``finish`` raises it in the build's process, as the build would have met it writing
the files itself. Where no process can be started (no memory, no process left to the
user), the files are written as they are handed, in the build's own process; so they are
in a process that holds a great deal of memory already (``FORK_AT_MOST``, a test runner
or a service that builds many catalogs), for which the fork costs more than the writing.

``citgen build`` forks its writer as it begins (``start``), before it has imported its
steps and read its catalog, and hands it its root when its first files are made: a child
forked later shares all of that memory, and the build would copy each page of it that it
touches again.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import os
import pickle
import signal
import struct
from pathlib import Path, PurePosixPath
from typing import Mapping

from .pipes import hold_only, last_word, pipe, send_all, widen

#: The child's answer when it has written every file it was handed (else: its first failure, pickled).
#: Never a pickle's first bytes, which start with the protocol's opcode.
WRITTEN = b"written"
#: A batch's length, before its pickled (path, bytes) pairs.
_LENGTH = struct.Struct(">Q")
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC


def write_files(root: Path, files: list[tuple[str, bytes]], made: set[str], parent: int | None = None) -> bool:
    """Write ``files`` (relative POSIX paths) under ``root``, making each folder not in ``made`` first (and noting it).

    With ``parent`` (the child's), nothing more is written once that process has ended (a
    build killed meanwhile): False then, True when every file was written.
    """
    for name, data in files:
        if parent is not None and os.getppid() != parent:
            return False
        path = PurePosixPath(name)
        _folder(root, path.parent, made)
        fd = os.open(root.joinpath(*path.parts), _FLAGS, 0o666)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
    return True


def _folder(root: Path, folder: PurePosixPath, made: set[str]) -> None:
    key = str(folder)
    if key in made:
        return
    _folder(root, folder.parent, made)
    os.mkdir(root.joinpath(*folder.parts))
    made.add(key)


class TreeWriter:
    """Writes the files handed to it under ``root``, in order, in a child process (forked ahead by ``start``, or
    for it).

    Mutable on purpose: it is the writing under way (the child, what failed).
    ``finish`` or ``abandon`` must be called once, and ends the child.
    """

    def __init__(self, root: Path):
        self.root = root
        self._made: set[str] = {"."}
        self._failure: BaseException | None = None
        self._pid, self._requests, self._answers = 0, -1, -1
        # the first thing the child reads: where to write, and with which umask (it may have been forked
        # before the caller changed its working directory or umask)
        told = pickle.dumps((os.path.abspath(root), current_umask()), pickle.HIGHEST_PROTOCOL)
        for make in (_take_spare, _fork):  # the child start() forked, else one forked now
            child = make()
            if child is None:
                continue
            try:
                send_all(child[1], _LENGTH.pack(len(told)) + told)
            except BrokenPipeError:  # it ended while it waited (killed from outside): not this build's fault
                _stop(child)
                continue
            self._pid, self._requests, self._answers = child
            return
        # no process could be started (no descriptor, memory or process left to the user), or this one is too
        # large to fork one (FORK_AT_MOST): the files are written here, as they are handed

    def add(self, files: Mapping[PurePosixPath, bytes]) -> None:
        """Hand ``files`` (relative paths the caller checked) to the child: written after those handed before."""
        batch = [(str(path), data) for path, data in files.items()]
        if not self._pid:
            if self._failure is None:
                try:
                    write_files(self.root, batch, self._made)
                except BaseException as exc:  # noqa: BLE001 - raised by finish(), as the child's would be
                    self._failure = exc
            return
        data = pickle.dumps(batch, pickle.HIGHEST_PROTOCOL)
        try:
            send_all(self._requests, _LENGTH.pack(len(data)) + data)
        except BrokenPipeError:  # the child ended: finish() says how
            pass

    def finish(self) -> None:
        """Wait until every file handed is written; the first failure of the writing is raised here."""
        if self._pid:
            os.close(self._requests)
            self._requests = -1
            answers, self._answers = self._answers, -1  # closed by last_word, whatever happens while it reads
            answer, status = last_word(self._pid, answers)
            self._pid = 0
            if answer == WRITTEN:
                pass
            elif answer:
                self._failure = pickle.loads(answer)
            else:  # it ended without saying it wrote them all (killed, or it never read them): they are not all there
                how = f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else \
                    f"exit status {os.WEXITSTATUS(status)}"
                self._failure = OSError(errno.EIO, f"the process writing the outputs stopped ({how})", str(self.root))
        if self._failure is not None:
            raise self._failure

    def abandon(self) -> None:
        """Write nothing more: the child is stopped where it is (what it wrote is the caller's to remove)."""
        if self._pid:  # also after an interrupted finish(): what it closed already is not closed again
            os.kill(self._pid, signal.SIGKILL)
            for fd in (self._requests, self._answers):
                if fd >= 0:
                    os.close(fd)
            self._requests = self._answers = -1
            os.waitpid(self._pid, 0)
            self._pid = 0


#: A child forked ahead of its tree (``start``), waiting to be told where to write: (pid, requests, answers).
_spare: tuple[int, int, int] | None = None


def start() -> None:
    """Fork the child of this process's next TreeWriter now, and go on.

    A command that writes a tree calls this as it begins, while the process is still
    small: a child forked once the build has loaded, rendered and parsed shares all of
    that memory with it, and the build then copies each page it touches again (5 to 7 ms
    of a build of the built-in catalog). The child waits to be told its root.
    """
    global _spare
    if _spare is None:
        _spare = _fork()


def _take_spare() -> tuple[int, int, int] | None:
    global _spare
    spare, _spare = _spare, None
    return spare


def _forget_spare() -> None:
    """In a forked process: the parent's waiting child is not ours to hand a tree to; let go of its pipes."""
    global _spare
    if _spare is not None:
        os.close(_spare[1])
        os.close(_spare[2])
        _spare = None


os.register_at_fork(after_in_child=_forget_spare)


def _stop_spare_at_exit() -> None:
    """A process leaves no child behind: one still waiting for a tree is stopped and reaped."""
    spare = _take_spare()
    if spare is not None:
        _stop(spare)


atexit.register(_stop_spare_at_exit)


def current_umask() -> int:
    """This process's umask (reading it means setting it: it is put back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _stop(child: tuple[int, int, int]) -> None:
    """Close the pipes of a child that has no tree to write, kill it and reap it (unless that was done already:
    a program that ignores SIGCHLD has its children reaped by the system)."""
    pid, requests, answers = child
    os.close(requests)
    os.close(answers)
    with contextlib.suppress(ProcessLookupError, ChildProcessError):
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


#: The most memory a process may hold in use (its resident size) and still fork a writer. Forking copies the
#: tables that map all of a process's memory, and the child's end frees them again: for citgen's own process
#: (about 32 MiB) a millisecond or two, for a process that holds 500 MiB (a test runner, a service that builds
#: catalogs) 40 ms and more on a small virtual machine, more than writing a build's files itself takes.
FORK_AT_MOST = 256 * 2**20


def _small_enough() -> bool:
    """Whether this process holds little enough memory that a writer child pays for its fork; True where its
    resident size cannot be read (a system without /proc), as before there was a bound."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            resident = int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return True
    return resident <= FORK_AT_MOST


def _fork() -> tuple[int, int, int] | None:
    """A child that writes the tree it is told (``_serve``): (its pid, the pipe to it, the pipe from it); None
    where no pipe or process can be had, or where the process is too large for a child to pay (``FORK_AT_MOST``):
    the tree is then written by the process itself, as its files are handed."""
    if not _small_enough():
        return None
    try:
        requests, to_child = pipe()
    except OSError:
        return None
    try:
        from_child, answers = pipe()
    except OSError:
        os.close(requests)
        os.close(to_child)
        return None
    widen(to_child)  # the build hands a batch over whole, and goes on
    try:
        pid = os.fork()
    except OSError:
        for fd in (requests, to_child, from_child, answers):
            os.close(fd)
        return None
    if pid == 0:  # pragma: no mutate - the child ends in os._exit
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # pragma: no mutate - Ctrl-C is the build's to answer
            hold_only(requests, answers)  # pragma: no mutate
            _serve(requests, answers, os.getppid())  # pragma: no mutate
        finally:
            os._exit(0)  # pragma: no mutate
    os.close(requests)
    os.close(answers)
    return pid, to_child, from_child


def _serve(requests: int, answers: int, parent: int) -> None:  # pragma: no mutate - in the child
    """In the child: read the root to write under, then write each batch the parent sends until it closes its
    end, and answer WRITTEN, or the first failure (pickled). A parent that was killed meanwhile gets
    nothing more written: its staging folder is the next build's to remove, and it must find nobody writing
    there."""
    made: set[str] = {"."}
    failure: BaseException | None = None
    with os.fdopen(requests, "rb") as reader:
        head = reader.read(_LENGTH.size)
        if len(head) < _LENGTH.size:  # ended before it was given a tree: nothing to write
            return
        where, umask = pickle.loads(reader.read(_LENGTH.unpack(head)[0]))
        root = Path(where)
        os.umask(umask)
        while len(head := reader.read(_LENGTH.size)) == _LENGTH.size:
            batch = pickle.loads(reader.read(_LENGTH.unpack(head)[0]))
            if failure is None:
                try:
                    if not write_files(root, batch, made, parent):
                        return
                except BaseException as exc:  # noqa: BLE001 - the parent raises it
                    failure = exc
    send_all(answers, WRITTEN if failure is None else pickle.dumps(failure, pickle.HIGHEST_PROTOCOL))
    os.close(answers)
