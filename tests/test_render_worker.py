"""generator/render/worker.py: the rendering child's side, spoken to through a real pipe pair in a forked process.

``serve`` answers each job of a batch with a frame (its kind, its length, the text or the
pickled problems) in order, stops a batch at its first failing job and serves the next,
begins each build with its own limits, and ends when the parent closes its end, or after a
template took all the memory it may have (a FATAL frame). ``bound`` sets the processor time
and address space of one build, never past what the process was given; ``detach`` leaves
the child holding only the two ends it keeps. render/process.py's tests speak to the same
child through its parent's side.
"""

from __future__ import annotations

import math
import os
import pickle
import resource
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from generator.render import worker
from generator.render.limits import Limits
from generator.render.worker import FATAL, HEADER, LENGTH, PROBLEMS, TEXT, Job, bound, detach

WHAT = "'u1.large' as VirtualMachineInstancetype"


class Child:
    """A forked process running ``serve`` on one end of each of two pipes; the test holds the other ends."""

    def __init__(self) -> None:
        requests_read, self.requests = os.pipe()
        self.answers, answers_write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # pragma: no cover - the child
            os.close(self.requests)
            os.close(self.answers)
            try:
                worker.serve(requests_read, answers_write)
            finally:
                os._exit(0)
        os.close(requests_read)
        os.close(answers_write)
        self.reader = os.fdopen(self.answers, "rb")

    def send(self, *message: Any) -> None:
        data = pickle.dumps(message)
        os.write(self.requests, LENGTH.pack(len(data)) + data)

    def frame(self) -> tuple[bytes, Any]:
        """The next answer: its kind, and the text or the problems as the user reads them."""
        kind, length = HEADER.unpack(self.reader.read(HEADER.size))
        payload = self.reader.read(length)
        return kind, payload.decode() if kind == TEXT else [str(p) for p in pickle.loads(payload)]

    def end(self) -> int:
        """Close the requests' end and wait: the child's exit status."""
        os.close(self.requests)
        _, status = os.waitpid(self.pid, 0)
        self.reader.close()
        return os.waitstatus_to_exitcode(status)

    def ended(self) -> bool:
        return os.waitpid(self.pid, os.WNOHANG)[0] == self.pid


@pytest.fixture
def child() -> Iterator[Child]:
    served = Child()
    yield served
    if not served.reader.closed:
        served.end()


@pytest.fixture
def templates(tmp_path: Path) -> tuple[str, ...]:
    for name, source in {"a.j2": "a {{ n }}", "b.j2": "b {{ n }}\n", "bad.j2": "{{ nothing.at }}",
                         "broken.j2": "{% if %}"}.items():
        (tmp_path / name).write_text(source)
    return (str(tmp_path),)


def test_a_batch_is_answered_a_frame_per_job_in_order(child: Child, templates: tuple[str, ...]):
    child.send("render", templates, "templates/", [Job("a.j2", {"n": 1}), Job("b.j2", {"n": 2}),
                                                   Job("a.j2", {"n": 3})])
    assert [child.frame() for _ in range(3)] == [(TEXT, "a 1"), (TEXT, "b 2\n"), (TEXT, "a 3")]
    assert child.end() == 0


def test_a_batch_stops_at_its_first_failing_job_and_the_next_batch_is_served(child: Child,
                                                                          templates: tuple[str, ...]):
    child.send("render", templates, "templates/", [Job("a.j2", {"n": 1}), Job("nope.j2", {}), Job("a.j2", {"n": 2})])
    child.send("render", templates, "t/", [Job("b.j2", {"n": 3})])
    assert [child.frame() for _ in range(3)] == [
        (TEXT, "a 1"), (PROBLEMS, ["templates/nope.j2: template not found"]), (TEXT, "b 3\n")]
    assert child.end() == 0


def test_a_template_s_mistake_is_named_with_what_was_rendered(child: Child, templates: tuple[str, ...]):
    child.send("render", templates, "templates/", [Job("broken.j2", {}, WHAT)])
    assert child.frame() == (PROBLEMS, [
        "templates/broken.j2:1: template syntax error: Expected an expression, got 'end of statement block'"])


def test_compiling_ahead_answers_nothing_and_a_broken_template_is_still_named_when_rendered(
        child: Child, templates: tuple[str, ...]):
    child.send("compile", templates)
    child.send("render", templates, "templates/", [Job("a.j2", {"n": 0}), Job("broken.j2", {})])
    assert child.frame() == (TEXT, "a 0")
    assert child.frame()[0] == PROBLEMS


def test_text_that_is_no_utf_8_keeps_its_surrogates(child: Child, templates: tuple[str, ...]):
    child.send("render", templates, "templates/", [Job("a.j2", {"n": "\udc80"})])
    kind, length = HEADER.unpack(child.reader.read(HEADER.size))
    assert (kind, child.reader.read(length)) == (TEXT, "a \udc80".encode("utf-8", "surrogatepass"))


def test_a_template_that_takes_all_its_memory_ends_the_child(child: Child, templates: tuple[str, ...],
                                                            tmp_path: Path):
    (tmp_path / "huge.j2").write_text("{{ 'x' * 1000000000 }}")
    child.send("begin", Limits(memory=64))
    child.send("render", templates, "templates/", [Job("huge.j2", {}, WHAT), Job("a.j2", {"n": 1})])
    assert child.frame() == (FATAL, [
        f"templates/huge.j2:1: template exceeded a limit: rendering {WHAT} took more than 64 MiB of memory (set "
        "CITGEN_TEMPLATE_MAX_MEMORY to raise the limit)"])
    assert child.reader.read() == b""  # the batch's next job is not rendered: the child has ended
    assert child.end() == 0


def in_a_child(body: Callable[[], Any]) -> Any:
    """``body()`` run in a forked process (whose limits it may change), and what it returned."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read)
        try:
            os.write(write, pickle.dumps(body()))
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as answer:
        data = answer.read()
    os.waitpid(pid, 0)
    return pickle.loads(data)


def test_bound_limits_processor_time_from_now_and_address_space_past_what_is_held():
    def bounded() -> tuple[float, tuple[int, int], int, tuple[int, int]]:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        bound(Limits(total_seconds=0.2, memory=100))
        with open("/proc/self/statm", "rb") as statm:
            space = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        return (usage.ru_utime + usage.ru_stime, resource.getrlimit(resource.RLIMIT_CPU), space,
                resource.getrlimit(resource.RLIMIT_AS))

    used, cpu, space, address = in_a_child(bounded)
    assert cpu[0] in (math.ceil(used + 0.2) + 1, math.ceil(used + 0.2) + 2)  # whole seconds, a second to spare
    assert abs(address[0] - (space + 100 * 1024 * 1024)) < 8 * 1024 * 1024
    assert (cpu[1], address[1]) == resource.getrlimit(resource.RLIMIT_CPU)[1:] + resource.getrlimit(
        resource.RLIMIT_AS)[1:]


def test_a_later_build_may_loosen_an_earlier_one_s_bound_but_never_past_what_the_process_was_given():
    def two_builds() -> tuple[int, int]:
        resource.setrlimit(resource.RLIMIT_CPU, (30, resource.getrlimit(resource.RLIMIT_CPU)[1]))
        bound(Limits(total_seconds=0.2))
        tight = resource.getrlimit(resource.RLIMIT_CPU)[0]
        bound(Limits(total_seconds=1000))
        return tight, resource.getrlimit(resource.RLIMIT_CPU)[0]

    tight, loose = in_a_child(two_builds)
    assert tight < 5 and loose == 30


def test_detach_keeps_only_the_two_ends_and_points_the_standard_files_at_dev_null(tmp_path: Path):
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read)
        try:
            opened = [os.open(tmp_path / name, os.O_CREAT | os.O_RDWR) for name in ("a", "b", "c")]
            detach((opened[1], write))
            still = [name for name, fd in zip("abc", opened) if is_open(fd)]
            null = os.fstat(0).st_rdev == os.fstat(1).st_rdev == os.fstat(2).st_rdev == os.stat(os.devnull).st_rdev
            os.write(write, pickle.dumps((still, null)))
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as answer:
        assert pickle.loads(answer.read()) == (["b"], True)
    os.waitpid(pid, 0)


def is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


# --------------------------------------------------------------------------- served in this process
#
# The same protocol with ``serve`` called here, so that the functions it runs are seen running by
# the tests (a forked child's calls are not, which mutation testing needs); each build's bounds are
# put back as they were after each test.


@pytest.fixture
def limits_put_back(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The processor-time and address-space limits of this process, as they were before the test."""
    monkeypatch.setattr(worker, "_GIVEN", {})  # private on purpose: what the process was given, read afresh
    kept = {limit: resource.getrlimit(limit) for limit in (resource.RLIMIT_CPU, resource.RLIMIT_AS)}
    yield
    for limit, values in kept.items():
        resource.setrlimit(limit, values)


def served(*requests: tuple) -> list[tuple[bytes, Any]]:
    """Every frame ``serve`` answers ``requests`` with, served in this process until the requests end."""
    requests_read, requests_write = os.pipe()
    answers_read, answers_write = os.pipe()
    for message in requests:
        data = pickle.dumps(message)
        os.write(requests_write, LENGTH.pack(len(data)) + data)
    os.close(requests_write)
    worker.serve(requests_read, answers_write)
    os.close(answers_write)
    frames = []
    with os.fdopen(answers_read, "rb") as reader:
        while head := reader.read(HEADER.size):
            kind, length = HEADER.unpack(head)
            payload = reader.read(length)
            frames.append((kind, payload.decode() if kind == TEXT else [str(p) for p in pickle.loads(payload)]))
    return frames


def test_served_here_two_batches_answer_in_order_the_first_stopping_at_its_failure(
        limits_put_back: None, templates: tuple[str, ...]):
    assert served(("begin", Limits()), ("compile", templates),
                  ("render", templates, "templates/", [Job("a.j2", {"n": 1}), Job("bad.j2", {}, WHAT),
                                                       Job("a.j2", {"n": 2})]),
                  ("render", templates, "t/", [Job("b.j2", {"n": 3}), Job("broken.j2", {})])) == [
        (TEXT, "a 1"),
        (PROBLEMS, ["templates/bad.j2:1: undefined value in template: 'nothing' is undefined"]),
        (TEXT, "b 3\n"),
        (PROBLEMS, ["t/broken.j2:1: template syntax error: Expected an expression, got 'end of statement block'"])]


def test_served_here_the_same_value_at_two_indents_is_written_at_each(limits_put_back: None, tmp_path: Path):
    (tmp_path / "t.j2").write_text("a:{{ v | yaml_block(2) }}\nb:\n  c:{{ v | yaml_block(indent=4) }}\n"
                                   "d: {{ v.k | yaml_scalar }}\n")
    value = {"k": "yes"}
    assert served(("render", (str(tmp_path),), "templates/", [Job("t.j2", {"v": value}),
                                                              Job("t.j2", {"v": {"k": "no"}})])) == [
        (TEXT, "a:\n  k: 'yes'\nb:\n  c:\n    k: 'yes'\nd: 'yes'\n"),
        (TEXT, "a:\n  k: 'no'\nb:\n  c:\n    k: 'no'\nd: 'no'\n")]


def test_served_here_a_new_build_reads_its_templates_again(limits_put_back: None, tmp_path: Path):
    (tmp_path / "t.j2").write_text("before")
    batch = ("render", (str(tmp_path),), "templates/", [Job("t.j2", {})])
    first = served(("begin", Limits()), batch)
    (tmp_path / "t.j2").write_text("after")
    assert first + served(("begin", Limits()), batch) == [(TEXT, "before"), (TEXT, "after")]


def test_served_here_a_template_is_compiled_once_for_the_builds_of_a_process_until_its_text_changes(
        limits_put_back: None, tmp_path: Path, monkeypatch):
    """A test run builds hundreds of times in one process: its rendering child compiles each template once.
    The child's cache is replaced by an empty one (private: the child's own state, which nothing else shows)."""
    compiled: list[str] = []
    compile_source = worker.jinja2.Environment.compile
    monkeypatch.setattr(worker, "_COMPILED", worker._Compiled())  # this test's own, empty (the module keeps one)
    monkeypatch.setattr(worker.jinja2.Environment, "compile",
                        lambda env, source, *a, **k: (compiled.append(source), compile_source(env, source, *a, **k))[1])
    (tmp_path / "t.j2").write_text("{{ 'x' }}")
    batch = ("render", (str(tmp_path),), "templates/", [Job("t.j2", {})])
    texts = served(("begin", Limits()), batch, ("begin", Limits()), batch)
    (tmp_path / "t.j2").write_text("{{ 'y' }}")
    texts += served(("begin", Limits()), batch)
    assert texts == [(TEXT, "x"), (TEXT, "x"), (TEXT, "y")]
    assert compiled == ["{{ 'x' }}", "{{ 'y' }}"]


def test_served_here_a_build_is_bounded_by_its_own_limits(limits_put_back: None, templates: tuple[str, ...]):
    served(("begin", Limits(total_seconds=120, memory=4096)))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    soft = resource.getrlimit(resource.RLIMIT_CPU)[0]
    assert math.ceil(usage.ru_utime + usage.ru_stime + 120) <= soft <= math.ceil(usage.ru_utime + usage.ru_stime
                                                                                  + 120) + 2


@pytest.mark.parametrize("name, source, problem", [
    ("nope.j2", None, "templates/nope.j2: template not found"),
    ("latin1.j2", b"caf\xe9", "templates/latin1.j2: not UTF-8 text (unexpected end of data at byte 3)"),
    ("syntax.j2", b"a\n{% if %}", "templates/syntax.j2:2: template syntax error: Expected an expression, got "
                                  "'end of statement block'"),
    ("undefined.j2", b"a\nb {{ nothing.at }}", "templates/undefined.j2:2: undefined value in template: "
                                                "'nothing' is undefined"),
    ("deep.j2", b"{% macro down(n) %}{{ down(n + 1) }}{% endmacro %}{{ down(0) }}",
     f"templates/deep.j2:1: template exceeded a limit: rendering {WHAT} nested too deeply (a template or macro "
     "that includes, extends or calls itself without end, or a value nested thousands of levels deep)"),
])
def test_served_here_each_failure_is_one_located_problem(limits_put_back: None, tmp_path: Path, name: str,
                                                         source: bytes | None, problem: str):
    if source is not None:
        (tmp_path / name).write_bytes(source)
    (tmp_path / "after.j2").write_text("after")
    assert served(("begin", Limits()), ("compile", (str(tmp_path),)),
                  ("render", (str(tmp_path),), "templates/", [Job(name, {}, WHAT), Job("after.j2", {})]),
                  ("render", (str(tmp_path),), "templates/", [Job("after.j2", {})])) == [
        (PROBLEMS, [problem]), (TEXT, "after")]


def test_served_here_text_that_is_no_utf_8_keeps_its_surrogates(limits_put_back: None, tmp_path: Path):
    (tmp_path / "t.j2").write_text("a {{ n }}")
    requests_read, requests_write = os.pipe()
    answers_read, answers_write = os.pipe()
    data = pickle.dumps(("render", (str(tmp_path),), "templates/", [Job("t.j2", {"n": "\udc80"})]))
    os.write(requests_write, LENGTH.pack(len(data)) + data)
    os.close(requests_write)
    worker.serve(requests_read, answers_write)
    os.close(answers_write)
    with os.fdopen(answers_read, "rb") as reader:
        kind, length = HEADER.unpack(reader.read(HEADER.size))
        assert (kind, reader.read(length)) == (TEXT, "a \udc80".encode("utf-8", "surrogatepass"))


def test_served_here_two_values_alike_but_not_the_same_are_each_written(limits_put_back: None, tmp_path: Path):
    (tmp_path / "t.j2").write_text("{{ a | yaml_block(2) }}|{{ b | yaml_block(2) }}|{{ a | yaml_block(indent=4) }}")
    assert served(("render", (str(tmp_path),), "templates/", [Job("t.j2", {"a": {"k": 1}, "b": {"k": 2}})])) == [
        (TEXT, "\n  k: 1|\n  k: 2|\n    k: 1")]


class OutOfMemory:
    """A value whose text cannot be made: printing it raises MemoryError, as a template that took all the
    memory it may have does, without taking any."""

    def __str__(self) -> str:
        raise MemoryError


def test_served_here_a_template_out_of_memory_is_told_and_ends_the_serving(limits_put_back: None, tmp_path: Path):
    (tmp_path / "t.j2").write_text("a\n{{ v }}\n")
    (tmp_path / "after.j2").write_text("after")
    assert served(("begin", Limits(memory=64)),
                  ("render", (str(tmp_path),), "templates/", [Job("t.j2", {"v": OutOfMemory()}, WHAT),
                                                              Job("after.j2", {})]),
                  ("render", (str(tmp_path),), "templates/", [Job("after.j2", {})])) == [
        (FATAL, [f"templates/t.j2:2: template exceeded a limit: rendering {WHAT} took more than 64 MiB of memory "
                 "(set CITGEN_TEMPLATE_MAX_MEMORY to raise the limit)"])]


def test_served_here_a_template_too_deep_to_compile_names_what_was_rendered(limits_put_back: None, tmp_path: Path):
    (tmp_path / "t.j2").write_text("{{ " + "(" * 5000 + "1" + ")" * 5000 + " }}")
    [(kind, [problem])] = served(("render", (str(tmp_path),), "templates/", [Job("t.j2", {}, WHAT)]))
    assert kind == PROBLEMS
    assert problem.startswith(f"templates/t.j2: template exceeded a limit: rendering {WHAT} nested too deeply (")


def test_an_error_far_from_the_memory_bound_is_that_error_and_one_near_it_is_the_bound(
        limits_put_back: None, monkeypatch: pytest.MonkeyPatch):
    """Private helper, replaced on purpose: how near the process came to its bound is read from /proc."""
    build = worker._Build(Limits(memory=64))
    assert build.out_of_memory(MemoryError()) is True
    assert build.out_of_memory(ValueError("x")) is False
    soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    build.peak = 0  # the build began far below: this process may have been larger before it
    monkeypatch.setattr(worker, "_peak", lambda: soft - 1024 * 1024)
    assert build.out_of_memory(ValueError("x")) is True
    monkeypatch.setattr(worker, "_peak", lambda: soft - 64 * 1024 * 1024)
    assert build.out_of_memory(ValueError("x")) is False
    for distance in (16, 18):  # MiB: near is under four times the cushion the child keeps
        monkeypatch.setattr(worker, "_peak", lambda: soft - distance * 1024 * 1024)
        assert build.out_of_memory(ValueError("x")) is False
    build.peak = soft - 1024 * 1024  # as near when the build began: this build's own doing is not to blame
    monkeypatch.setattr(worker, "_peak", lambda: soft - 1024 * 1024)
    assert build.out_of_memory(ValueError("x")) is False
