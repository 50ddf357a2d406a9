"""Every writer of every output format, fed the same hostile names and descriptions (issue 32).

Text enters citgen's outputs from files anyone may write: display names and
descriptions through a catalog (its names follow a grammar, so its free text is
what can be hostile), object names and kinds through the bundles handed to
``diff`` and ``validate``, and file names through the command line. Each case
below sends the same list of strings (HOSTILE) through one writer and reads what
it wrote as that format's reader would:

- text (reports, ``diff``, ``list``, ``validate --matrix``): no character a reader
  cannot see reaches the terminal as itself, and no line break of an input
  starts a line of its own;
- Markdown (release notes, README tables, the Helm chart's and the kustomize
  tree's README): every piece of hostile text is there only as escape.markdown
  or escape.markdown_code wrote it, so no link, image, HTML or workflow command
  is left, and every table row keeps its columns;
- HTML (the catalog page): no tag or attribute but the page's own, and the data
  script still parses to the very strings;
- JSON (every report and data file): ASCII, and the very strings read back;
- GitHub workflow commands: every line starting with ``::`` is one of citgen's
  own annotations or notices.

The escapers' own cases are in tests/test_escape.py.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Callable, Iterable

import click
import pytest
import yaml
from click.testing import CliRunner

from generator import escape
from generator.cli import main
from generator.pipeline import BuildOptions, generate
from generator.tools.release_notes import series_of
from generator.tools.site import site_files
from tests.helpers import REPO, copy_catalog, leaf_commands
from tests.markdown_reader import MARKDOWN_HOSTILE, assert_inert, shown

#: The hostile text every writer is given: line breaks (one of them a workflow command
#: after it), Markdown and HTML that would take over a page, a script's end, terminal
#: escapes and bidirectional marks that would rewrite what a reader sees.
HOSTILE: tuple[str, ...] = (
    "two\nlines",
    "x\n::error file=x::y",
    "::warning::at the start",
    "`code` and ``more``",
    "a | b | c",
    "<img src=x onerror=alert(1)>",
    "](javascript:x)",
    "[x](y)",
    "# heading *bold* _em_ ~del~ $x$ &amp;",
    "\x1b[31mred\x1b[0m",
    "bell\x07",
    "back\rto the start",
    "\u202eevil\u200f \u2066isolated\u2069",
    "</script><!--",
    *MARKDOWN_HOSTILE,  # links, images, autolinks, mentions, emphasis: each acts on MARK if not escaped
)

#: What a line break of HOSTILE would put at the start of a line of its own.
CONTINUATIONS = tuple(piece for value in HOSTILE for piece in value.splitlines()[1:])
#: Characters no output of citgen holds as themselves: a terminal, a log or a browser acts on them.
UNSEEN = ("\x1b", "\x07", "\r", "\u202e", "\u200f", "\u2066", "\u2069")
#: Fragments of HOSTILE that Markdown or HTML would act on.
ACTIVE = ("<img", "](javascript", "[x](y)", "</script", "<!--", "`code`", "# heading", "*bold*", "_em_", "~del~", "$x$")

#: Series u's display name, which the page shows in its chart's legend: HTML, bidirectional marks and a script's end.
SERIES_NAME = " ".join((HOSTILE[5], HOSTILE[12], HOSTILE[13]))
KIND = "VirtualMachineClusterInstancetype"
PREFERENCE_KIND = "VirtualMachineClusterPreference"


def cli(*args: str | Path) -> tuple[int, str, str]:
    """citgen in this process: exit status, standard output and standard error; an exception fails the test."""
    result = CliRunner().invoke(main, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"unhandled {type(result.exception).__name__}: {result.exception}\n{result.output}")
    return result.exit_code, result.stdout, result.stderr


# --------------------------------------------------------------------------- what each format's reader sees


def assert_unseen_characters_escaped(out: str) -> None:
    """No character of UNSEEN reaches the reader as itself."""
    assert not [char for char in UNSEEN if char in out], ascii(out[:2000])


def assert_lines(out: str, *, commands: bool = False) -> None:
    """No character a reader cannot see and no line break of an input took effect; no line is a
    workflow command, or with ``commands`` (the GitHub format) only citgen's own annotations and notices."""
    assert_unseen_characters_escaped(out)
    for line in out.splitlines():
        stripped = line.lstrip()
        assert not any(stripped.startswith(piece) for piece in CONTINUATIONS), ascii(line)
        if stripped.startswith("::"):
            assert commands and re.match(r"::(error|warning|notice) \w+=", stripped), ascii(line)


def assert_json(out: str, *, holds: Iterable[str] = HOSTILE) -> Any:
    """JSON as escape.json_text writes it: ASCII, and reading it back gives every hostile string whole."""
    assert out.isascii()
    value = json.loads(out)
    found = set(_strings(value))
    assert [h for h in holds if h not in found] == []
    return value


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def outside_code_spans(markdown: str) -> str:
    """``markdown`` without its code spans (CommonMark 6.1: a run of backticks to the next run as long), in
    which nothing is Markdown or HTML, and with each backslash escape written as ``\\0``: what Markdown reads."""
    out, i = [], 0
    while i < len(markdown):
        if markdown[i] == "\\" and i + 1 < len(markdown):
            out.append("\0")
            i += 2
            continue
        if markdown[i] != "`":
            out.append(markdown[i])
            i += 1
            continue
        fence = re.match(r"`+", markdown[i:]).group()
        end = re.compile(rf"(?<!`){fence}(?!`)").search(markdown, i + len(fence))
        if end is None:
            out.append(fence)
            i += len(fence)
        else:
            out.append("\0")
            i = end.end()
    return "".join(out)


def assert_markdown(out: str, *, shows: Iterable[str] = (), as_code: Iterable[str] = ()) -> None:
    """No hostile text is Markdown or HTML in ``out``, and each one a reader must read shows there.

    ``shows`` must each appear as escape.markdown wrote it, ``as_code`` as
    escape.markdown_code did. Outside code spans and escapes, no fragment of
    HOSTILE that Markdown or HTML would act on is left.
    """
    assert_lines(out)
    for value in shows:
        assert escape.markdown(value) in out, ascii(value)
    for value in as_code:
        assert escape.markdown_code(value) in out, ascii(value)
    read = outside_code_spans(out)
    assert [fragment for fragment in ACTIVE if fragment in read] == [], ascii(read[:3000])


def table_rows(markdown: str) -> list[list[str]]:
    """Each table of ``markdown``, as GitHub splits its rows: at every ``|`` no backslash precedes."""
    tables: list[list[str]] = [[]]
    for line in markdown.splitlines():
        if line.startswith("|"):
            tables[-1].append(line)
        elif tables[-1]:
            tables.append([])
    return [t for t in tables if t]


def assert_columns_kept(markdown: str) -> None:
    for rows in table_rows(markdown):
        widths = {len(re.split(r"(?<!\\)\|", row)) - 2 for row in rows}
        assert len(widths) == 1, rows


class _Page(HTMLParser):
    """The tags, attributes and script texts of a page, as a browser tokenises them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.scripts: list[str] = []
        self.texts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))
        self._in_script = tag == "script"
        if self._in_script:
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts[-1] += data
        else:
            self.texts.append(data)

    def handle_comment(self, data: str) -> None:
        raise AssertionError(f"a comment in the page: {data[:200]!r}")


# --------------------------------------------------------------------------- inputs


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built-in catalog, its series u and one preference per hostile text named and described by it."""
    root = copy_catalog(tmp_path_factory.mktemp("hostile") / "catalog")
    preferences = {f"alpine.h{i}": {"basedOn": "alpine", "displayName": value, "description": value}
                   for i, value in enumerate(HOSTILE)}
    overlay = {"series": {"change": {"u": {"displayName": SERIES_NAME, "description": " ".join(HOSTILE)}}},
               "preferences": {"add": preferences}}
    (root / "hostile.yaml").write_text(yaml.safe_dump(overlay))  # PyYAML writes every character as an escape
    with (root / "catalog.yaml").open("a") as file:
        file.write("overlays: [hostile.yaml]\n")
    (root / "README.md").write_bytes((REPO / "README.md").read_bytes())
    return root


@pytest.fixture(scope="module")
def build(catalog: Path):
    result = generate(BuildOptions(catalog=catalog))
    assert result.problems == ()
    return result


def _object(kind: str, name: str, **spec: Any) -> dict[str, Any]:
    return {"apiVersion": "instancetype.kubevirt.io/v1beta1", "kind": kind,
            "metadata": {"name": name, "annotations": {"description": name}}, "spec": spec}


@pytest.fixture(scope="module")
def bundles(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two bundles whose objects are named by the hostile texts: changed, removed and added ones.

    Each text names an instancetype in both (its vCPUs and an annotation change, a
    key of the new one is the text itself), a preference only the new bundle has
    (added; it asks for more vCPUs than any instancetype has, so that every pair of
    ``validate --matrix`` is refused and named) and a namespaced preference only the
    old one has (removed); one object's kind is a hostile text too.
    """
    folder = tmp_path_factory.mktemp("bundles")
    old = [_object(KIND, h, cpu={"guest": 1}, memory={"guest": "1Gi"}) for h in HOSTILE]
    old += [_object("VirtualMachinePreference", h) for h in HOSTILE]
    new = [_object(KIND, h, cpu={"guest": 2}, memory={"guest": "1Gi"}) for h in HOSTILE]
    for obj in new:
        obj["metadata"]["annotations"] = {obj["metadata"]["name"]: "new", "description": HOSTILE[5]}
    new += [_object(PREFERENCE_KIND, h, requirements={"cpu": {"guest": 64}}) for h in HOSTILE]
    new.append(_object(HOSTILE[1], "a-kind-of-its-own"))
    paths = folder / "old.yaml", folder / "new.yaml"
    for path, objects in zip(paths, (old, new)):
        path.write_text(yaml.safe_dump_all(objects))
    return paths


# --------------------------------------------------------------------------- diff


def test_the_release_notes_show_every_name_as_a_code_span_and_every_series_and_kind_as_text(bundles):
    code, out, _ = cli("diff", *bundles, "--format", "markdown")
    assert code == 1
    assert_markdown(out, shows=map(series_of, HOSTILE), as_code=HOSTILE)  # series headings; names
    assert f"#### {escape.markdown(HOSTILE[1])}" in out.splitlines()  # the kind's own heading


@pytest.mark.parametrize("fmt", ["text", "github"])
def test_the_diff_for_people_and_for_a_log_writes_each_name_on_its_line(bundles, fmt: str):
    code, out, err = cli("diff", *bundles, "--format", fmt)
    assert code == 1 and err == ""
    assert_lines(out, commands=fmt == "github")
    assert "::stop-commands::" not in out  # nothing of the product had to be kept from running
    for value in HOSTILE:
        assert f" {escape.text(value)} (" in out


def test_the_diff_as_json_holds_the_very_names(bundles):
    code, out, _ = cli("diff", *bundles, "--format", "json")
    assert code == 1
    report = assert_json(out)
    assert sorted(e["name"] for e in report["added"] if e["kind"] == PREFERENCE_KIND) == sorted(HOSTILE)


# --------------------------------------------------------------------------- a command's report of problems


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_a_validation_report_of_hostile_objects(bundles, fmt: str):
    code, out, _ = cli("validate", bundles[0], "--format", fmt)
    assert code == 1
    if fmt == "json":
        assert sorted({p["name"] for p in assert_json(out)}) == sorted(HOSTILE)
        return
    assert_lines(out, commands=fmt == "github")
    lines = [line for line in out.splitlines() if line]
    if fmt == "text":  # one line per problem shown, one per error whose further places are counted, the summary
        more = [re.match(r"citgen: (\d+) more places", line) for line in lines]
        shown = [line for line, counted in zip(lines, more) if counted is None]
        assert len(shown) - 1 + sum(int(m.group(1)) for m in more if m) == int(lines[-1].split()[0])
    else:
        assert all(line.startswith(("::error ", "::notice ")) for line in lines)


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_a_refusal_names_a_hostile_file_on_one_line(tmp_path: Path, fmt: str):
    missing = tmp_path / HOSTILE[1]
    code, out, err = cli("diff", missing, missing, "--format", fmt)
    assert code == 2
    if fmt == "json":
        assert assert_json(out, holds=[str(missing)])["problems"][0]["file"] == str(missing)
        return
    said = err if fmt == "text" else out
    assert_lines(said, commands=fmt == "github")
    assert escape.text(str(missing)) in said if fmt == "text" else escape.github_property(str(missing)) in said


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_what_a_command_says_of_a_hostile_file_is_one_line(catalog: Path, tmp_path: Path, fmt: str):
    readme = tmp_path / f"{HOSTILE[1]}{HOSTILE[12]}.md"
    readme.write_bytes((REPO / "README.md").read_bytes())
    code, out, err = cli("readme", "--catalog", catalog, "--file", readme, "--format", fmt)
    assert code == 0, err
    if fmt == "json":
        assert assert_json(out, holds=[str(readme)])["file"] == str(readme)
    else:
        assert_lines(out, commands=fmt == "github")
        assert out.count("\n") == 1


# --------------------------------------------------------------------------- README tables and list


def test_the_readme_table_shows_each_display_name_as_markdown_text_in_its_column(catalog: Path, tmp_path: Path):
    readme = tmp_path / "README.md"
    readme.write_bytes((REPO / "README.md").read_bytes())
    code, _, err = cli("readme", "--catalog", catalog, "--file", readme)
    assert code == 0, err
    text = readme.read_text(encoding="utf-8")
    tables = text[text.index("<!-- BEGIN citgen readme: series -->"):text.index("<!-- END citgen readme: preferences -->")]
    tables = re.sub(r"<!-- (BEGIN|END) citgen readme: \w+ -->", "", tables)
    assert_markdown(tables)
    assert_columns_kept(tables)
    for value in HOSTILE:  # each display name as Markdown text, its pipes in the table's own escape
        assert escape.markdown_cell(escape.markdown(value)) in tables
    rows = [row for row in tables.splitlines() if row.startswith("| `alpine.h")]
    assert len(rows) == len(HOSTILE) and all(len(re.split(r"(?<!\\)\|", row)) - 2 == 5 for row in rows)


def test_citgen_list_writes_each_display_name_on_its_row(catalog: Path):
    code, out, _ = cli("list", "--catalog", catalog, "--preferences")
    assert code == 0
    assert_lines(out)
    for i, value in enumerate(HOSTILE):
        [row] = [line for line in out.splitlines() if line.startswith(f"alpine.h{i} ")]
        assert escape.text(value) in row


@pytest.mark.parametrize("args", [("-o", "json"), ("--format", "json")])
def test_citgen_list_as_json_is_ascii_json(catalog: Path, args: tuple[str, str]):
    code, out, _ = cli("list", "--catalog", catalog, "--preferences", *args)
    assert code == 0
    assert_json(out, holds=())  # the objects' names, labels and specs: no display name among them


def test_validate_matrix_names_each_refused_pair_on_its_line(bundles):
    code, out, _ = cli("validate", "--matrix", bundles[1])
    assert code in (0, 1)
    assert_lines(out)
    assert len(out.splitlines()) == len(HOSTILE) ** 2 + 1
    code, out, _ = cli("validate", "--matrix", bundles[1], "--format", "json")
    assert {pair["instancetype"] for pair in assert_json(out)} == set(HOSTILE)


# --------------------------------------------------------------------------- a build's READMEs and data


def test_the_helm_chart_readme_holds_no_catalog_text_but_escaped(build):
    readme = build.files["helm/common-instancetypes/README.md"].decode()
    assert_markdown(readme)
    assert_columns_kept(readme)


def test_the_kustomize_readme_holds_no_catalog_text_but_escaped(build):
    readme = build.files["kustomize/README.md"].decode()
    assert_markdown(readme)
    assert_columns_kept(readme)


def test_the_helm_chart_s_data_is_json_of_the_very_texts(build):
    data = assert_json(build.files["helm/common-instancetypes/catalog/objects.json"].decode())
    names = {p["document"]["metadata"]["annotations"]["openshift.io/display-name"] for p in data["preferences"]}
    assert set(HOSTILE) <= names


# --------------------------------------------------------------------------- the page


@pytest.fixture(scope="module")
def page(catalog: Path) -> dict[str, bytes]:
    return site_files(BuildOptions(catalog=catalog))


def test_the_page_holds_no_tag_or_attribute_of_a_catalog_s_text(page):
    html = page["index.html"].decode()
    assert_unseen_characters_escaped(html)
    parsed = _Page()
    parsed.feed(html)
    assert not [tag for tag, _ in parsed.tags if tag == "img"]
    assert not [name for _, attrs in parsed.tags for name, _ in attrs if name.startswith("on")]
    assert [tag for tag, _ in parsed.tags].count("script") == 2  # the data and the page's script, nothing else
    legend = "".join(parsed.texts)
    assert escape.text(SERIES_NAME) in legend  # the series' display name, readable, not reversing the page


def test_the_page_s_data_reads_back_as_the_very_texts(page):
    parsed = _Page()
    parsed.feed(page["index.html"].decode())
    data = assert_json(parsed.scripts[0])
    assert [s["displayName"] for s in data["series"] if s["name"] == "u1"] == [SERIES_NAME]
    assert assert_json(page["catalog.json"].decode()) == data


# --------------------------------------------------------------------------- Markdown, as a renderer reads it


#: Parameters that name what a command writes rather than what it reads.
WRITTEN = {"out", "out_dir"}


def _hostile_paths(command: click.Command, missing: Path) -> list[str]:
    """The command's arguments with every path it reads given ``missing``: each is refused, or read as absent."""
    args: list[str] = []
    for param in command.params:
        if not isinstance(param.type, click.Path) or param.name in WRITTEN:
            continue
        args += [str(missing)] if isinstance(param, click.Argument) else [max(param.opts, key=len), str(missing)]
    return args


@pytest.mark.parametrize("words", sorted(leaf_commands()))
def test_every_command_s_markdown_makes_nothing_of_the_paths_it_is_given(words: str, tmp_path: Path):
    """Every command of click's tree, every path it reads named by each hostile text: its Markdown report
    (the findings table, what it says) makes no link, image, HTML, emphasis, mention or reference of it."""
    command = leaf_commands()[words]
    for i, value in enumerate(MARKDOWN_HOSTILE):
        missing = tmp_path / f"run{i}" / value  # absent: every command refuses it, naming it
        code, out, err = cli(*words.split(), *_hostile_paths(command, missing), "--format", "markdown")
        assert code == 2, (words, value, out, err)
        found = assert_inert(out)
        said = escape.text(str(missing))  # named where it is (a code span) or in the message (text)
        assert any(said in c for c in found.codes) or shown(str(missing)) in found.text, (words, value, out)


def _vm(name: str) -> dict[str, Any]:
    return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": name, "namespace": "ns"},
            "spec": {"instancetype": {"name": name}, "preference": {"name": name}, "runStrategy": "Halted",
                     "template": {"spec": {"domain": {"devices": {}}}}}}


@pytest.fixture(scope="module")
def vms(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """VirtualMachines named by the hostile texts, each naming an instancetype and a preference so named."""
    path = tmp_path_factory.mktemp("vms") / "vms.yaml"
    path.write_text(yaml.safe_dump_all([_vm(h) for h in HOSTILE]))
    return path


#: Runs whose Markdown holds names from what they read: a validation's findings (the report every
#: command writes), and the Markdown of a command's own (diff's release notes; refs' findings, and
#: with --from the upgrade's report).
MARKDOWN_RUNS: dict[str, Callable[[tuple[Path, Path], Path], tuple[Any, ...]]] = {
    "validate": lambda bundles, vms: ("validate", bundles[0]),
    "diff": lambda bundles, vms: ("diff", *bundles),
    "refs": lambda bundles, vms: ("refs", vms),
    "refs --from": lambda bundles, vms: ("refs", vms, "--from", bundles[0]),
}


@pytest.mark.parametrize("run", sorted(MARKDOWN_RUNS))
def test_a_command_s_markdown_makes_nothing_of_hostile_names(run: str, bundles, vms):
    code, out, err = cli(*MARKDOWN_RUNS[run](bundles, vms), "--format", "markdown")
    assert code == 1, err
    assert_inert(out)
    assert_columns_kept(out)


def test_the_release_notes_read_each_series_as_text_and_each_name_as_code(bundles):
    _, out, _ = cli("diff", *bundles, "--format", "markdown")
    assert_inert(out, shows=map(series_of, HOSTILE), as_code=HOSTILE)


def test_every_markdown_file_a_build_writes_makes_nothing_of_catalog_text(build):
    written = sorted(path for path in build.files if path.endswith(".md"))
    assert "helm/common-instancetypes/README.md" in written and "kustomize/README.md" in written
    for path in written:  # their own prose holds links and comments: none may carry a catalog's text
        assert_inert(build.files[path].decode(), links=True, html=True)


def test_the_readme_tables_read_each_display_name_as_written(catalog: Path, tmp_path: Path):
    readme = tmp_path / "README.md"
    readme.write_bytes((REPO / "README.md").read_bytes())
    code, _, err = cli("readme", "--catalog", catalog, "--file", readme)
    assert code == 0, err
    text = readme.read_text(encoding="utf-8")
    tables = text[text.index("<!-- BEGIN citgen readme: series -->"):
                  text.index("<!-- END citgen readme: preferences -->")]
    assert_inert(tables, html=True, shows=HOSTILE)  # the markers are HTML comments of citgen's own
