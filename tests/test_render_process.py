"""The rendering child (generator/render/process.py, worker.py): templates rendered where the system bounds them.

Each hostile template here goes past one bound the way a vendor's template
could (a loop for ever, a 10 GB string made in one C call, recursion, minutes
inside one C-level call, Python internals) and must end, within the limit plus
a second, in an InputError naming the template, what was being rendered and
the variable that raises the bound. tests/test_render_limits.py runs the same
through whole builds.
"""

from __future__ import annotations

import errno
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.errors import CitgenError, InputError
from generator.render import process, worker
from generator.render.limits import Limits
from generator.render.process import Job, render, render_one, rendering, submit
from generator.render.worker import bound

pytestmark = pytest.mark.heavy(5)  # seconds of a worker's time: run early (conftest.py)

WHAT = "'u1.large' as VirtualMachineInstancetype"
#: 20,000 different characters: punycode takes minutes for them, in one call Python cannot interrupt.
SLOW_FOR_PUNYCODE = "".join(chr(0x4E00 + i) for i in range(20000))


@pytest.fixture
def templates(tmp_path: Path) -> Path:
    return tmp_path


def refused(folder: Path, source: str, **variables: object) -> tuple[str, float]:
    """The one problem of rendering ``source`` as ``templates/t.j2``, and how long it took to say so."""
    (folder / "t.j2").write_text(source)
    started = time.monotonic()
    with pytest.raises(InputError) as raised:
        render_one([folder], "t.j2", variables, WHAT)
    [problem] = raised.value.problems
    return str(problem), time.monotonic() - started


# --------------------------------------------------------------------------- rendering


def test_a_batch_is_rendered_in_order_with_each_jobs_variables(templates):
    (templates / "a.j2").write_text("a {{ n }}")
    (templates / "b.j2").write_text("b {{ n }}\n")
    assert render([templates], [Job("a.j2", {"n": 1}), Job("b.j2", {"n": 2}), Job("a.j2", {"n": 3})]) == [
        "a 1", "b 2\n", "a 3"]


def test_a_batch_submitted_is_rendered_while_the_caller_goes_on_and_taken_in_order(templates):
    (templates / "a.j2").write_text("a {{ n }}")
    with rendering():
        texts = submit([templates], [Job("a.j2", {"n": 1}), Job("a.j2", {"n": 2})])
        seen: list[tuple[int, str]] = []
        assert texts(lambda number, text: seen.append((number, text))) == ["a 1", "a 2"]
    assert seen == [(0, "a 1"), (1, "a 2")]


def test_one_batch_is_owed_at_a_time(templates):
    (templates / "a.j2").write_text("a")
    with rendering():
        texts = submit([templates], [Job("a.j2", {})])
        with pytest.raises(RuntimeError, match="a batch is still owed"):
            submit([templates], [Job("a.j2", {})])
        assert texts() == ["a"]
        assert submit([templates], [Job("a.j2", {})])() == ["a"]  # taken: the next may be handed over


def test_a_batch_submitted_outside_a_build_is_rendered_at_once(templates):
    (templates / "a.j2").write_text("a {{ n }}")
    texts = submit([templates], [Job("a.j2", {"n": 1})])
    (templates / "a.j2").write_text("changed since")
    seen: list[tuple[int, str]] = []
    assert texts(lambda number, text: seen.append((number, text))) == ["a 1"] and seen == [(0, "a 1")]


def test_an_earlier_folder_wins(tmp_path):
    (tmp_path / "own").mkdir()
    (tmp_path / "builtin").mkdir()
    (tmp_path / "own" / "t.j2").write_text("own")
    (tmp_path / "builtin" / "t.j2").write_text("built in")
    (tmp_path / "builtin" / "u.j2").write_text("only built in")
    dirs = [tmp_path / "own", tmp_path / "builtin"]
    assert render(dirs, [Job("t.j2", {}), Job("u.j2", {})]) == ["own", "only built in"]


def test_a_block_inside_another_shares_its_process(templates):
    with rendering() as outer, rendering() as inner:
        assert inner is outer


def test_the_process_serves_on_after_a_template_fails(templates):
    (templates / "bad.j2").write_text("{{ nothing }}")
    (templates / "good.j2").write_text("fine")
    with rendering():
        with pytest.raises(InputError):
            render([templates], [Job("good.j2", {}), Job("bad.j2", {}), Job("good.j2", {})])
        assert render_one([templates], "good.j2", {}) == "fine"


def test_a_missing_template_is_named(templates):
    with pytest.raises(InputError) as raised:
        render_one([templates], "nope.j2", {})
    assert [str(p) for p in raised.value.problems] == ["templates/nope.j2: template not found"]


def test_templates_compiled_ahead_still_say_what_is_wrong_with_them_when_rendered(templates):
    (templates / "bad.j2").write_text("{% if %}")
    (templates / "good.j2").write_text("fine")
    with rendering() as active:
        active.prepare([templates])
        assert render_one([templates], "good.j2", {}) == "fine"
        with pytest.raises(InputError) as raised:
            render_one([templates], "bad.j2", {})
    assert [str(p) for p in raised.value.problems] == [
        "templates/bad.j2:1: template syntax error: Expected an expression, got 'end of statement block'"]


def test_one_child_serves_the_builds_of_a_process(templates):
    """Private state, read on purpose: which child a build talked to is seen nowhere else."""
    (templates / "t.j2").write_text("x")
    with rendering() as first:
        render_one([templates], "t.j2", {})
    with rendering() as second:
        render_one([templates], "t.j2", {})
    assert first._child is second._child is not None


def test_a_build_sees_the_templates_as_they_are_when_it_begins(templates):
    (templates / "t.j2").write_text("before")
    assert render_one([templates], "t.j2", {}) == "before"
    (templates / "t.j2").write_text("after")
    assert render_one([templates], "t.j2", {}) == "after"


def test_a_child_that_went_past_a_bound_is_replaced_by_the_next_build(templates, monkeypatch):
    """Private state, read on purpose: that the build let go of its child is seen nowhere else."""
    monkeypatch.setenv("CITGEN_TEMPLATE_SECONDS", "0.2")
    (templates / "slow.j2").write_text("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}"
                                       "{% endfor %}")
    (templates / "t.j2").write_text("fine")
    with rendering() as first:
        with pytest.raises(InputError):
            render_one([templates], "slow.j2", {})
    assert first._child is None
    assert render_one([templates], "t.j2", {}) == "fine"


def test_a_build_that_stops_reading_leaves_no_answers_to_the_next(templates, monkeypatch):
    """Private method, replaced on purpose: only an error in the parent stops reading a batch half-way."""
    (templates / "t.j2").write_text("{{ n }}")
    original = process.Rendering._answer

    def interrupted(self, job, prefix):
        if job.variables["n"] == 2:
            raise KeyboardInterrupt
        return original(self, job, prefix)

    monkeypatch.setattr(process.Rendering, "_answer", interrupted)
    with pytest.raises(KeyboardInterrupt):
        render([templates], [Job("t.j2", {"n": 1}), Job("t.j2", {"n": 2}), Job("t.j2", {"n": 3})])
    monkeypatch.setattr(process.Rendering, "_answer", original)
    assert render([templates], [Job("t.j2", {"n": 4})]) == ["4"]


def test_a_forked_process_forks_a_child_of_its_own(templates):
    """After os.fork the parent's child is not the new process's to talk to: private state, read on purpose."""
    (templates / "t.j2").write_text("{{ n }}")
    render_one([templates], "t.j2", {"n": 0})
    parents = process._child
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the forked process
        ok = process._child is None and render_one([templates], "t.j2", {"n": 1}) == "1"
        ok = ok and process._child is not None and process._child.pid != parents.pid
        os._exit(0 if ok else 1)
    assert os.waitpid(pid, 0)[1] == 0
    assert render_one([templates], "t.j2", {"n": 2}) == "2"


# --------------------------------------------------------------------------- the bounds


def test_a_loop_for_ever_stops_within_a_second_of_the_time_limit(templates, monkeypatch):
    monkeypatch.setenv("CITGEN_TEMPLATE_SECONDS", "0.3")
    message, took = refused(templates, "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}"
                                       "{% endfor %}")
    assert message == (f"templates/t.j2: template exceeded a limit: rendering {WHAT} took longer than 0.3 seconds "
                       "(set CITGEN_TEMPLATE_SECONDS to raise the limit)")
    assert took < 0.3 + 1


def test_minutes_in_one_c_call_stop_within_a_second_of_the_time_limit(templates, monkeypatch):
    monkeypatch.setenv("CITGEN_TEMPLATE_SECONDS", "0.3")
    message, took = refused(templates, "{{ text.encode('punycode') }}", text=SLOW_FOR_PUNYCODE)
    assert message == (f"templates/t.j2: template exceeded a limit: rendering {WHAT} took longer than 0.3 seconds "
                       "(set CITGEN_TEMPLATE_SECONDS to raise the limit)")
    assert took < 0.3 + 1


def test_a_10_gb_string_in_one_c_call_is_refused_at_its_line(templates):
    message, took = refused(templates, "a\n{{ name.ljust(10 ** 10) }}\n", name="x")
    assert message == (f"templates/t.j2:2: template exceeded a limit: rendering {WHAT} took more than 256 MiB of "
                       "memory (set CITGEN_TEMPLATE_MAX_MEMORY to raise the limit)")
    assert took < 1


def test_the_memory_limit_is_raised_by_its_variable(templates, monkeypatch):
    monkeypatch.setenv("CITGEN_TEMPLATE_MAX_MEMORY", "16")
    message, _ = refused(templates, "{{ ('x' * 10 ** 9) | length }}")
    assert message == (f"templates/t.j2:1: template exceeded a limit: rendering {WHAT} took more than 16 MiB of "
                       "memory (set CITGEN_TEMPLATE_MAX_MEMORY to raise the limit)")


def test_recursion_without_end_is_refused_at_its_line(templates):
    message, _ = refused(templates, "{% macro down(n) %}{{ down(n + 1) }}{% endmacro %}\n{{ down(0) }}")
    assert message == (f"templates/t.j2:1: template exceeded a limit: rendering {WHAT} nested too deeply (a "
                       "template or macro that includes, extends or calls itself without end, or a value nested "
                       "thousands of levels deep)")


def test_python_internals_stay_out_of_reach(templates):
    message, _ = refused(templates, "{{ ''.__class__.__mro__[1].__subclasses__() }}")
    assert message == ("templates/t.j2:1: template tried something the sandbox forbids: access to attribute "
                       "'__class__' of 'str' object is unsafe.")


def test_a_text_at_the_size_limit_comes_back_and_one_past_it_is_refused(templates, monkeypatch):
    monkeypatch.setenv("CITGEN_TEMPLATE_MAX_SIZE", "10")
    (templates / "t.j2").write_text("{{ 'é' * n }}")
    assert render_one([templates], "t.j2", {"n": 10}) == "é" * 10
    message, _ = refused(templates, "{{ 'é' * n }}", n=11)
    assert message == (f"templates/t.j2: template exceeded a limit: rendering {WHAT} gave a text longer than 10 "
                       "characters (set CITGEN_TEMPLATE_MAX_SIZE to raise the limit)")


def test_a_text_far_past_the_size_limit_is_refused_unread(templates, monkeypatch):
    monkeypatch.setenv("CITGEN_TEMPLATE_MAX_SIZE", "10")
    message, _ = refused(templates, "{{ 'x' * 1000 }}")
    assert message.endswith("gave a text longer than 10 characters (set CITGEN_TEMPLATE_MAX_SIZE to raise the limit)")


def test_renderings_together_stop_at_the_limit_for_all_of_them(templates, monkeypatch):
    monkeypatch.setenv("CITGEN_TEMPLATE_TOTAL_SECONDS", "0.5")
    (templates / "t.j2").write_text("{% for i in range(100000) %}{% endfor %}" * 3)
    started = time.monotonic()
    with pytest.raises(InputError) as raised:
        render([templates], [Job("t.j2", {}, f"'u{i}.large' as VirtualMachineInstancetype") for i in range(1000)])
    [problem] = raised.value.problems
    assert str(problem).startswith("templates/t.j2: template exceeded a limit: rendering 'u")
    assert str(problem).endswith(" as VirtualMachineInstancetype went past 0.5 seconds, the time all of a build's "
                                 "renderings may take (set CITGEN_TEMPLATE_TOTAL_SECONDS to raise the limit)")
    assert time.monotonic() - started < 2


def test_a_rendering_of_no_object_is_one_rendering(templates, monkeypatch):
    monkeypatch.setenv("CITGEN_TEMPLATE_SECONDS", "0.2")
    (templates / "t.j2").write_text("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}"
                                    "{% endfor %}")
    with pytest.raises(InputError) as raised:
        render_one([templates], "t.j2", {})
    assert [str(p) for p in raised.value.problems] == [
        "templates/t.j2: template exceeded a limit: one rendering took longer than 0.2 seconds "
        "(set CITGEN_TEMPLATE_SECONDS to raise the limit)"]


def test_the_system_stops_a_child_past_its_processor_time():
    """The backstop behind the parent's deadline: RLIMIT_CPU, a second past the total for the child's start."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        bound(Limits(total_seconds=0.5))
        while True:
            pass
    _, status, usage = os.wait4(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGXCPU
    assert usage.ru_utime + usage.ru_stime < 0.5 + 1 + 1  # the bound is whole seconds: ceil(0.5) + 1


def test_a_child_that_stops_unexpectedly_is_reported(templates, monkeypatch):
    monkeypatch.setattr(process, "_child", None)
    monkeypatch.setattr(worker, "serve", lambda *args: os._exit(3))
    message, _ = refused(templates, "x")
    assert message == f"templates/t.j2: template failed: the rendering process stopped (exit status 3) while " \
                      f"rendering {WHAT}"


def test_a_child_killed_by_its_processor_limit_is_reported_as_that_limit(templates, monkeypatch):
    monkeypatch.setattr(process, "_child", None)
    monkeypatch.setattr(worker, "serve", lambda *args: os.kill(os.getpid(), signal.SIGXCPU))
    message, _ = refused(templates, "x")
    assert message == (f"templates/t.j2: template exceeded a limit: rendering {WHAT} went past 60 seconds of "
                       "processor time, what all of a build's renderings may take (set CITGEN_TEMPLATE_TOTAL_SECONDS "
                       "to raise the limit)")


# --------------------------------------------------------------------------- the child's life


def in_a_forked_process(check) -> int:
    """Run ``check`` in a process of its own: its exit status, 0 when ``check`` returned True."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the forked process
        try:
            os._exit(0 if check() else 1)
        except BaseException:
            os._exit(2)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def test_nothing_to_render_is_rendered_without_a_child(templates, monkeypatch):
    """Private state, read on purpose: that no child was forked is seen nowhere else."""
    monkeypatch.setattr(process, "_child", None)
    assert render([templates], []) == []
    assert process._child is None


def test_a_relative_template_folder_is_found_from_the_parent_s_working_directory(tmp_path, monkeypatch):
    (tmp_path / "t.j2").write_text("first")
    render_one([tmp_path], "t.j2", {})  # the child is forked before the working directory changes
    (tmp_path / "here").mkdir()
    (tmp_path / "here" / "t.j2").write_text("from here")
    monkeypatch.chdir(tmp_path)
    assert render_one([Path("here")], "t.j2", {}) == "from here"


def test_a_relative_template_folder_in_a_deleted_working_directory_is_refused(tmp_path):
    def check() -> bool:
        gone = tmp_path / "gone"
        gone.mkdir()
        os.chdir(gone)
        gone.rmdir()
        try:
            render_one([Path("templates")], "t.j2", {})
        except InputError as exc:
            return [str(p) for p in exc.problems] == [
                "templates: a relative template folder, but the working directory cannot be used (it was deleted)"]
        return False

    assert in_a_forked_process(check) == 0


def test_a_forked_process_closes_its_parent_s_pipes_to_the_child(templates):
    """Private state, read on purpose: the pipes a forked process inherited are not seen otherwise."""
    (templates / "t.j2").write_text("x")
    render_one([templates], "t.j2", {})
    inherited = (process._child.requests, process._child.answers)

    def check() -> bool:
        closed = 0
        for fd in inherited:
            try:
                os.fstat(fd)
            except OSError:
                closed += 1
        return closed == 2

    assert in_a_forked_process(check) == 0


def test_a_child_killed_between_builds_is_replaced_by_the_next(templates):
    """Private state, read on purpose: the child's process id. The next build begins once the child has ended
    (a pidfd is readable then, and reaps nothing: the build does); a fixed pause was too short on a busy machine."""
    (templates / "t.j2").write_text("{{ n }}")
    assert render_one([templates], "t.j2", {"n": 1}) == "1"
    killed = process._child.pid
    ended = os.pidfd_open(killed)
    try:
        os.kill(killed, signal.SIGKILL)
        assert select.select([ended], [], [], 60)[0] == [ended]
    finally:
        os.close(ended)
    assert render_one([templates], "t.j2", {"n": 2}) == "2"
    assert process._child.pid != killed


@pytest.mark.parametrize("serve, how", [
    (lambda *args: None, "exit status 0"),
    (lambda *args: 1 / 0, "exit status 1"),
    (lambda *args: os.kill(os.getpid(), signal.SIGTERM), f"signal {signal.SIGTERM.value}"),
])
def test_a_child_that_stops_is_reported_with_how_it_stopped(templates, monkeypatch, serve, how):
    monkeypatch.setattr(process, "_child", None)
    monkeypatch.setattr(worker, "serve", serve)
    message, _ = refused(templates, "x")
    assert message == f"templates/t.j2: template failed: the rendering process stopped ({how}) while rendering {WHAT}"


def test_a_child_that_stops_while_rendering_no_object_says_so(templates, monkeypatch):
    monkeypatch.setattr(process, "_child", None)
    monkeypatch.setattr(worker, "serve", lambda *args: os._exit(3))
    (templates / "t.j2").write_text("x")
    with pytest.raises(InputError) as raised:
        render_one([templates], "t.j2", {})
    assert [str(p) for p in raised.value.problems] == [
        "templates/t.j2: template failed: the rendering process stopped (exit status 3) while rendering"]


def test_a_child_killed_outright_is_reported_as_past_its_processor_time(templates, monkeypatch):
    monkeypatch.setattr(process, "_child", None)
    monkeypatch.setattr(worker, "serve", lambda *args: os.kill(os.getpid(), signal.SIGKILL))
    message, _ = refused(templates, "x")
    assert message.endswith("went past 60 seconds of processor time, what all of a build's renderings may take "
                            "(set CITGEN_TEMPLATE_TOTAL_SECONDS to raise the limit)")


def test_a_text_of_four_bytes_a_character_at_the_size_limit_comes_back(templates, monkeypatch):
    monkeypatch.setenv("CITGEN_TEMPLATE_MAX_SIZE", "10")
    (templates / "t.j2").write_text("{{ '\U0001F600' * 10 }}")
    assert render_one([templates], "t.j2", {}) == "\U0001F600" * 10


def test_a_template_s_problem_is_told_whatever_the_size_limit(templates, monkeypatch):
    monkeypatch.setenv("CITGEN_TEMPLATE_MAX_SIZE", "1")
    message, _ = refused(templates, "{{ a_value_nobody_gave }}")
    assert message == "templates/t.j2:1: undefined value in template: 'a_value_nobody_gave' is undefined"


def test_a_text_larger_than_a_pipe_holds_comes_back_whole(templates):
    (templates / "t.j2").write_text("{{ 'ab' * n }}")
    assert render_one([templates], "t.j2", {"n": 300_000}) == "ab" * 300_000


def test_the_limit_for_all_renderings_is_told_when_it_is_the_nearer_one(templates, monkeypatch):
    monkeypatch.setenv("CITGEN_TEMPLATE_SECONDS", "5")
    monkeypatch.setenv("CITGEN_TEMPLATE_TOTAL_SECONDS", "0.3")
    message, took = refused(templates, "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}"
                                       "{% endfor %}")
    assert message == (f"templates/t.j2: template exceeded a limit: rendering {WHAT} went past 0.3 seconds, the "
                       "time all of a build's renderings may take (set CITGEN_TEMPLATE_TOTAL_SECONDS to raise the "
                       "limit)")
    assert took < 0.3 + 1


# The same, called in this process: mutation testing links a test to the code it sees the test
# run, and code run in a forked process is not seen (private helpers, tested on purpose).


def test_a_relative_folder_where_the_working_directory_is_gone_is_refused_naming_it(monkeypatch):
    def gone() -> str:
        raise FileNotFoundError(2, "No such file or directory")

    monkeypatch.setattr(os, "getcwd", gone)
    with pytest.raises(InputError) as raised:
        process._absolute([Path("/abs/templates"), Path("mine/templates")])
    assert [str(p) for p in raised.value.problems] == [
        "mine/templates: a relative template folder, but the working directory cannot be used (it was deleted)"]


def test_forgetting_the_parent_s_child_closes_both_its_pipes(monkeypatch):
    requests, answers = os.pipe()
    inherited = process.Child.__new__(process.Child)
    inherited.requests, inherited.answers = requests, answers
    monkeypatch.setattr(process, "_child", inherited)
    process._forget_the_parents_child()
    assert process._child is None
    for fd in (requests, answers):
        with pytest.raises(OSError):
            os.fstat(fd)


def test_text_that_is_no_utf_8_comes_back_as_it_was_rendered(templates):
    (templates / "t.j2").write_text("a {{ n }}")
    assert render_one([templates], "t.j2", {"n": "\udc80"}) == "a \udc80"


def test_a_build_s_first_rendering_has_the_whole_time_of_all(templates, monkeypatch):
    monkeypatch.setenv("CITGEN_TEMPLATE_TOTAL_SECONDS", "0.5")
    (templates / "t.j2").write_text("quick")
    assert render_one([templates], "t.j2", {}) == "quick"


def test_a_process_that_exits_leaves_no_rendering_child_behind(tmp_path):
    (tmp_path / "t.j2").write_text("x")
    code = ("import os, sys; from pathlib import Path; from generator.render import process; "
            f"process.render_one([Path({str(tmp_path)!r})], 't.j2', {{}}); print(process._child.pid)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    child = int(done.stdout)
    with pytest.raises(ProcessLookupError):
        os.kill(child, 0)


@pytest.mark.parametrize("failing", ["fork", "pipe"])
def test_a_child_the_system_will_not_start_is_a_refusal_and_leaves_no_descriptor_open(monkeypatch, failing):
    """No process or descriptor left to the user (EAGAIN, EMFILE): said plainly, nothing of the attempt left open."""
    before = set(os.listdir("/proc/self/fd"))
    calls = []

    def refuse(*args):
        calls.append(args)
        if failing == "fork" or len(calls) == 2:  # the second pipe, after the first was made
            raise OSError(errno.EAGAIN if failing == "fork" else errno.EMFILE,
                          "Resource temporarily unavailable" if failing == "fork" else "Too many open files")
        return real_pipe()

    real_pipe = os.pipe
    monkeypatch.setattr(os, "fork" if failing == "fork" else "pipe", refuse)
    with pytest.raises(CitgenError) as caught:
        process.Child()
    reason = "resource temporarily unavailable" if failing == "fork" else "too many open files"
    assert str(caught.value.problems[0]).startswith(
        f"citgen: cannot start the process that renders the templates: {reason}; ")
    assert set(os.listdir("/proc/self/fd")) == before
