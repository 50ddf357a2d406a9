"""generator/write.py: an earlier output is replaced only when everything in it was seen to be citgen's.

The cases of issue 43, as the ordinary user who meets them (root gives up its overrides of the
permission bits: tests.helpers.bits_apply), for every command that replaces an output directory:
`build`, `site` and `build --helm-package`. Before the listing saw everything, an empty folder of
the user's was deleted (exit 0), and a folder it could not list hid its files: the new output was
swapped in, removing the old one failed with a traceback, and the user's folder was left in a
hidden `.out.citgen-old-*` beside the output. Now each is refused, naming what it is, with status
2; the earlier output stays byte for byte and nothing is left beside it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from tests.helpers import bits_apply, child_env, citgen_forked, snapshot

pytestmark = pytest.mark.heavy(3)  # seconds of a worker's time: three builds, and twelve refusals forked

#: Each command that replaces an output directory, by the command line that writes one.
COMMANDS = {"build": ["build"], "site": ["site"], "build --helm-package": ["build", "--helm-package"]}
UNSEEN = ("cannot list it (permission denied), so citgen cannot tell that {out} holds only what citgen wrote, and "
          "replacing {out} would move or delete what it cannot see: make it readable, or choose an empty or new --out")
STRANGER = ("holds 1 {what} citgen did not write ({name}), which replacing it would delete; move it, or choose an empty "
            "or new --out")
NOTHING = "citgen: 1 problem, nothing written"


def deepest_folder(out: Path) -> str:
    """The folder of an output furthest from its top, as the output names it; one made where it has none (a site)."""
    folders = [Path(top).relative_to(out) for top, _, _ in os.walk(out) if Path(top) != out]
    if not folders:
        (out / "mine" / "deep" / "down").mkdir(parents=True)
        return "mine/deep/down"
    return max(folders, key=lambda folder: (len(folder.parts), folder.as_posix())).as_posix()


def prepared(earlier: Path, folder: Path, case: str) -> tuple[dict, str, str]:
    """A copy of ``earlier`` in ``folder/out`` set up as ``case`` says: the run's faults, where the refusal is, and
    what it says."""
    out = folder / "out"
    shutil.copytree(earlier, out, symlinks=True)
    if case == "an empty folder":
        (out / "mine").mkdir()
        return {}, str(out), STRANGER.format(what="folder", name="mine/")
    if case == "an unlistable folder":
        (out / "private").mkdir()
        (out / "private" / "precious").write_text("mine\n")
        return {"unreadable": [str(out / "private")]}, f"{out}/private", UNSEEN.format(out=out)
    if case == "an unreadable file":
        (out / "precious").write_text("mine\n")
        return {"unreadable": [str(out / "precious")]}, str(out), STRANGER.format(what="file", name="precious")
    deep = deepest_folder(out)  # one that citgen wrote, where a user's chmod left it
    return {"modes": {str(out / deep): 0}}, f"{out}/{deep}", UNSEEN.format(out=out)


def one_refusal(stderr: str, where: str, says: str) -> bool:
    """Whether ``stderr`` is one refusal at ``where`` saying ``says``, then the closing count (the place and the words
    are pinned, not how a report line lays them out)."""
    lines = stderr.splitlines()
    return len(lines) == 2 and f"{where}: " in lines[0] and says in lines[0] and lines[1] == NOTHING


CASES = ("an empty folder", "an unlistable folder", "an unreadable file", "a mode-0 folder deep in the tree")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """Every command over every case, run by one process that permission bits bind; what each left behind."""
    root = tmp_path_factory.mktemp("unseen")
    made, expected, before = {}, {}, {}  # expected: (where, says)
    for name, args in COMMANDS.items():
        earlier = root / "earlier" / name.replace(" ", "")
        done = CliRunner().invoke(main, [*args, "--out", str(earlier)])
        assert done.exit_code == 0, done.output
        for case in CASES:
            folder = root / f"{name} {case}".replace(" ", "-")
            folder.mkdir()
            faults, *expected[(name, case)] = prepared(earlier, folder, case)
            before[(name, case)] = snapshot(folder / "out")
            made[f"{name}: {case}"] = {"args": [*args, "--out", str(folder / "out")], "cwd": str(folder), **faults}
    results = citgen_forked(made, tmp_path_factory.mktemp("runs"))
    return {key: {**results[f"{key[0]}: {key[1]}"], "expected": expected[key], "before": before[key],
                  "after": snapshot(root / f"{key[0]} {key[1]}".replace(" ", "-") / "out"),
                  "beside": sorted(os.listdir(root / f"{key[0]} {key[1]}".replace(" ", "-")))}
            for key in before}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("case", CASES)
def test_what_citgen_cannot_see_or_did_not_write_is_refused_and_the_earlier_output_kept(runs, command, case):
    done = runs[(command, case)]
    assert (done["code"], done["traceback"]) == (2, "")
    assert one_refusal(done["stderr"], *done["expected"]), done["stderr"]
    assert done["after"] == done["before"]  # byte for byte
    assert done["beside"] == ["out"]  # no lock, no staging, no hidden .out.citgen-old-* with the user's files


def test_a_tree_with_parts_its_owner_may_not_read_is_removed_whole(tmp_path: Path):
    """remove_tree's second try works for whatever function shutil.rmtree reports: here os.open and os.scandir
    of folders of mode 0 (the handler called os.open with one argument, a TypeError)."""
    tree = tmp_path / ".out.citgen-old-1"
    (tree / "a" / "b").mkdir(parents=True)
    (tree / "a" / "b" / "file.yaml").write_text("x")
    (tree / "c").mkdir()
    (tree / "c" / "file.yaml").write_text("y")
    for folder in (tree / "a" / "b", tree / "c", tree / "a"):
        folder.chmod(0)
    script = f"from generator.write import remove_tree; remove_tree({str(tree)!r})"
    done = subprocess.run(bits_apply([sys.executable, "-c", script]), env=child_env(), capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
    assert os.listdir(tmp_path) == []


def test_old_outputs_that_cannot_be_removed_after_the_swap_are_said_to_be_kept_where_they_are(tmp_path: Path):
    """The new outputs are in place; what is left of the old ones is named, with why, rather than a traceback.

    An output folder of another user's, which the build may neither empty nor make writable: made by root,
    and run by a root that gives up the overrides of permission bits and of ownership (CAP_FOWNER)."""
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None:
        pytest.skip("needs root (with setpriv) to give the output a folder of another user's")
    out = tmp_path / "out"
    assert CliRunner().invoke(main, ["build", "--out", str(out)]).exit_code == 0
    for path in (out / "helm", *(out / "helm").rglob("*")):
        os.chown(path, 65534, 65534, follow_symlinks=False)
    command = [setpriv, "--bounding-set=-dac_override,-dac_read_search,-fowner", sys.executable, "-m", "generator",
               "build", "--out", str(out)]
    done = subprocess.run(command, env=child_env(), capture_output=True, text=True, timeout=120)
    if done.returncode != 0 and "setpriv" in done.stderr:
        pytest.skip(f"root cannot give up its overrides here: {done.stderr.strip()}")
    [backup] = [name for name in os.listdir(tmp_path) if name != "out"]
    assert backup.startswith(".out.citgen-old-")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    [warning] = [line for line in (done.stdout + done.stderr).splitlines() if "warning" in line]
    assert f"{tmp_path / backup}: " in warning and "the previous outputs, moved here when the new ones took their " \
        "place, could not all be removed (Operation not permitted (" in warning
    assert f"; the new outputs are in place in {out}: remove this folder" in warning
    assert (out / ".citgen-manifest").read_text().count("\n") == 112  # the new outputs whole: its 111 files
    assert (tmp_path / backup / "helm").is_dir()  # and the other user's folder, where the message says
