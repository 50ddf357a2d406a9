"""The catalog page in a real browser: headless Chromium (Debian's `chromium`) driven by Playwright.

Each test reads the rendered DOM of the page, loaded from file://, after its
script ran. The answers are compared with the command line's on the same
questions (`citgen list -l`, `citgen validate --matrix`), so the page cannot
drift from the tools. Chromium is installed when missing and we may (root);
without it the tests skip, except under CI (CI=true), where they fail.

One browser serves the session and one page, loaded once, the module: a test
that reads the DOM, filters or follows a link within the page starts from it,
brought back to the state a fresh load of its link gives (``at``). What is
about loading the page (a link opened in a new tab, the requests it makes, what
it logs, screenshots) loads its own tab afresh (``open_page``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Iterator

import pytest
import yaml
from click.testing import CliRunner

from generator.cli import main
from generator.tools.vmexpand import expand

from tests.conftest import SHARED, shared_file
from tests.helpers import default_build

pytestmark = pytest.mark.heavy(12)  # seconds of a worker's time: run early (conftest.py)

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # the test extra installs it; under CI its absence is a failure, not a skip
    if os.environ.get("CI") == "true":
        raise
    pytest.skip("playwright is not installed (pip install -e '.[test]')", allow_module_level=True)


def _unavailable(message: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(message + " (required under CI)")
    pytest.skip(message)


def chromium_path() -> str:
    """Debian's chromium, installed with apt-get when it is missing and we are root."""
    found = shutil.which("chromium")
    if found is None and hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for command in (["apt-get", "update"], ["apt-get", "install", "-y", "chromium"]):
            done = subprocess.run(command, env=env, capture_output=True, text=True)
            if done.returncode != 0:
                _unavailable(f"{' '.join(command)} failed: {done.stderr.strip()[-500:]}")
        found = shutil.which("chromium")
    if found is None:
        _unavailable("chromium is not installed (apt-get install chromium)")
    return str(found)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def context(browser: object) -> Iterator[object]:
    """The module's browser context: a 1280×900 window in the light scheme. Tabs set their own size and scheme."""
    made = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="light")
    yield made
    made.close()


def write_site(out: Path, *args: str) -> Path:
    result = CliRunner().invoke(main, ["site", "--out", str(out), *args])
    assert result.exit_code == 0, result.output
    return out


#: What a hash change runs through before the link's own: ``#-`` names nothing, so the details
#: close; ``#l=`` is an empty selector, so the filter and the fit view are as the page's start
#: leaves them (it applies an empty selector and fits the first preference before reading the link).
RESET_HASHES = ("#-", "#l=")

#: Go to each hash in turn and wait until the page's hashchange handler (added before ours) has run.
#: A hash the page already shows is skipped: setting it again fires no hashchange.
GO_TO_HASHES = """async (hashes) => {
  for (const hash of hashes) {
    if (location.hash === hash) continue;
    await new Promise((resolve, reject) => {
      const late = setTimeout(() => reject(new Error("no hashchange for " + hash)), 10000);
      window.addEventListener("hashchange", () => { clearTimeout(late); resolve(); }, { once: true });
      location.hash = hash;
    });
  }
  if (document.activeElement) document.activeElement.blur();
  window.scrollTo(0, 0);
}"""


class Page:
    """One tab with everything it asked for and everything it logged since its last load."""

    def __init__(self, context: object, site_dir: Path):
        self.context = context
        self.page = context.new_page()
        self.requests: list[str] = []
        self.console: list[str] = []
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("console", lambda message: self.console.append(f"{message.type}: {message.text}"))
        self.page.on("pageerror", lambda error: self.console.append(f"pageerror: {error}"))
        self.url = (site_dir / "index.html").as_uri()

    def load(self, fragment: str = "", width: int = 1280, scheme: str = "light") -> "Page":
        """Load the page afresh at ``url + fragment`` in a ``width``×900 window of colour ``scheme``."""
        self.page.set_viewport_size({"width": width, "height": 900})
        self.page.emulate_media(color_scheme=scheme)
        if self.page.url.partition("#")[0] == self.url and self.page.url != self.url + fragment:
            self.page.goto("about:blank")  # from another hash of the page, a link to it would not load it again
        self.requests.clear()
        self.console.clear()
        if self.page.url == self.url + fragment:
            self.page.reload()
        else:
            self.page.goto(self.url + fragment)
        self.page.wait_for_selector("html[data-ready]", state="attached")
        return self

    def at(self, fragment: str = "") -> "Page":
        """The loaded page as a fresh load of ``url + fragment`` shows it, reached by changing the hash only."""
        self.page.evaluate(GO_TO_HASHES, [*RESET_HASHES, fragment])
        return self

    def visible(self, selector: str) -> list[str]:
        """data-name of every element matching ``selector`` that the page shows."""
        return self.page.eval_on_selector_all(
            selector, "els => els.filter(e => e.offsetParent !== null).map(e => e.dataset.name)")

    def filter(self, selector: str) -> None:
        self.page.fill("#selector", selector)
        self.page.press("#selector", "Enter")

    def close(self) -> None:
        self.page.close()


@pytest.fixture(scope="module")
def shared_page(context: object, site_dir: Path) -> Iterator[Page]:
    """The page, loaded once for the module's tests that do not reload it."""
    page = Page(context, site_dir).load()
    yield page
    page.close()


@pytest.fixture
def at(shared_page: Page):
    """``at(fragment)``: the module's page as a fresh load of ``#fragment`` shows it, without loading it again."""
    return shared_page.at


@pytest.fixture
def open_page(context: object, site_dir: Path) -> Iterator:
    """``open_page(fragment, width=, scheme=)``: a tab of the test's own, loaded afresh; ``None``: not loaded yet."""
    pages: list[Page] = []

    def opener(fragment: str | None = "", **kwargs: object) -> Page:
        pages.append(Page(context, site_dir))
        return pages[-1] if fragment is None else pages[-1].load(fragment, **kwargs)

    yield opener
    for page in pages:
        page.close()


def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def validate_matrix() -> str:
    """What ``citgen validate --matrix`` prints: every refused pair and a summary line."""
    code, text, _ = cli("validate", "--matrix")
    assert code == 0
    return text


SELECTORS = ["cpu=4,!gpus", "size in (large,xlarge)", "hugepages in (1Gi),cpu=2", "class=general.purpose",
             "os-type=windows", "required-cpu=2", "!deprecated,memory notin (1Gi,2Gi)", "dedicatedCPUPlacement",
             "gpus in ()", "cpu notin ( , )", "cpu in (2,)",
             "cpu!=4", " numa , cpu==8 ", "cpu in ( 2 , 4 ),class notin (realtime,network)",
             "instancetype.kubevirt.io/vendor=kubevirt.io,os-type"]
BAD_SELECTORS = ["cpu=4,(", "a'b in", "size in large", "=4", "cpu=4,,gpus", "cpu=4 gpus", 'say"hi in',
                 "cpu=4,\t(", "size in (large",
                 # kubectl's demands of keys and values (issue 25): a set, a key, a value
                 "cpu!=4!=5", "a/b/c=1", "é=1", "Example.com/cpu=1", "/cpu",
                 "cpu=" + "4" * 64, "k" * 64, "example.com/" + "k" * 70 + "=x", "cpu in (2,-x-)"]


def test_every_object_of_the_catalog_appears(at):
    page = at()
    build = default_build()
    assert sorted(page.visible("#size-grid a.it")) == [o.name for o in build.objects if o.family == "instancetype"]
    assert sorted(page.visible("#preference-groups .pref")) == sorted(
        o.name for o in build.objects if o.family == "preference")
    assert page.page.eval_on_selector_all("#series-cards .card", "els => els.map(e => e.dataset.series)") == [
        s.name for s in build.catalog.series if s.name != "gn1"]
    assert sorted(page.page.eval_on_selector_all(".chart .point", "els => els.map(e => e.dataset.name)")) == sorted(
        o.name for o in build.objects if o.family == "instancetype" and not o.name.endswith("1gi"))


def test_the_grid_shows_each_size_with_vcpus_memory_and_variants_in_its_cell(at):
    page = at()
    cell = page.page.eval_on_selector("#size-grid a[data-name='cx1.large1gi']",
                                      "e => [e.closest('td').cellIndex, e.innerText]")
    header = page.page.eval_on_selector_all("#size-grid thead th", "els => els.map(e => e.innerText)")
    assert header[cell[0]] == "large"
    assert cell[1].split("\n") == ["cx1.large1gi", "2 vCPUs · 4Gi"]
    assert page.page.eval_on_selector("#size-grid a[data-name='cx1.large1gi']", "e => e.closest('td').innerText"
                                      ).split("\n")[0] == "cx1.large"


@pytest.mark.parametrize("selector", SELECTORS)
def test_filtering_gives_exactly_what_citgen_list_gives(at, selector):
    page = at()
    page.filter(selector)
    code, instancetypes, _ = cli("list", "-o", "name", "-l", selector)
    assert code == 0
    assert sorted(page.visible("#size-grid a.it")) == instancetypes.split()
    code, preferences, _ = cli("list", "--preferences", "-o", "name", "-l", selector)
    assert sorted(page.visible("#preference-groups .pref")) == sorted(preferences.split())
    assert page.page.is_hidden("#selector-error")


@pytest.mark.parametrize("selector", BAD_SELECTORS)
def test_a_bad_selector_shows_the_message_the_command_line_prints(at, selector):
    page = at()
    page.filter(selector)
    code, _, stderr = cli("list", "-l", selector)
    assert code == 2
    assert page.page.inner_text("#selector-error") == stderr.splitlines()[0]
    assert len(page.visible("#size-grid a.it")) == len([o for o in default_build().objects if o.family == "instancetype"])


def test_a_filtered_view_is_a_link(at, open_page):
    page = at()
    page.filter("size in (large,xlarge)")
    linked = open_page(page.page.url.partition("#")[2] and "#" + page.page.url.partition("#")[2])
    assert "l=size+in+%28large%2Cxlarge%29" in page.page.url
    assert linked.page.input_value("#selector") == "size in (large,xlarge)"
    assert sorted(linked.visible("#size-grid a.it")) == cli("list", "-o", "name", "-l", "size in (large,xlarge)")[1].split()


@pytest.mark.parametrize("preference", ["fedora", "windows.11", "rhel.9.dpdk", "rhel.9.realtime", "legacy"])
def test_the_fit_view_agrees_with_validate_matrix(at, validate_matrix, preference):
    page = at(f"#fit={preference}")
    refused = {}
    for line in validate_matrix.splitlines()[:-1]:
        pair, _, error = line.partition(": ")
        instancetype, _, pref = pair.partition(" + ")
        if pref == preference:
            refused[instancetype] = error
    shown = page.page.eval_on_selector_all(
        "#fit-refused li[data-name]",
        "els => els.map(e => [e.dataset.name, e.closest('.refusal').querySelector('.why').innerText])")
    assert dict(shown) == refused
    every = [o.name for o in default_build().objects if o.family == "instancetype"]
    assert page.visible("#fit-accepted li") == [name for name in every if name not in refused]


def test_the_manifest_of_a_chosen_pair_is_accepted_by_kubevirt(at):
    page = at("#fit=windows.11&with=u1.xlarge")
    assert page.page.input_value("#fit-instancetype") == "u1.xlarge"
    vm = yaml.safe_load(page.page.inner_text("#manifest"))
    objects = {(d.kind, d.name): d.data for d in default_build().documents}
    assert (vm["spec"]["instancetype"]["name"], vm["spec"]["preference"]["name"]) == ("u1.xlarge", "windows.11")
    outcome = expand(vm, objects[("VirtualMachineClusterInstancetype", "u1.xlarge")],
                     objects[("VirtualMachineClusterPreference", "windows.11")])
    assert outcome.ok, outcome.errors
    assert page.page.inner_text("#copy-status") == ""  # the page is shared: nothing copied before this click
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        page.page.click("#copy-manifest")
        # a function, not an expression: polling an expression evals it, which the page's CSP refuses
        page.page.wait_for_function("() => document.getElementById('copy-status').textContent !== ''")
        assert page.page.inner_text("#copy-status") == "Copied."
    finally:
        page.context.clear_permissions()


def test_a_deep_link_shows_the_instancetype(at):
    page = at("#u1.large")
    assert page.page.inner_text("#details h3") == "u1.large"
    assert "KubeVirt v1.0 or later" in page.page.inner_text("#details p")  # fields all of v1.0
    assert page.page.evaluate("document.querySelector(':target').dataset.name") == "u1.large"
    preference = at("#windows.11")
    assert preference.page.evaluate("document.querySelector(':target').dataset.name") == "windows.11"
    facts = preference.page.inner_text(":target dl.facts")
    assert "KubeVirt\nv1.4 or later" in facts  # spec.firmware.preferredEfi
    mistyped = at("#u1.lar%E0ge")  # its console is all the shared page logged since it was loaded
    assert (mistyped.console, mistyped.page.is_hidden("#details")) == ([], True)


def test_keyboard_moves_through_the_grid_and_slash_focuses_the_filter(at):
    page = at()
    page.page.focus("#size-grid a[data-name='u1.medium']")
    page.page.keyboard.press("ArrowUp")
    assert page.page.evaluate("document.activeElement.dataset.name") == "rt1.medium"
    page.page.keyboard.press("ArrowDown")
    page.page.keyboard.press("ArrowRight")
    assert page.page.evaluate("document.activeElement.dataset.name") == "u1.2xmedium"
    page.page.keyboard.press("ArrowUp")  # skips the series without a 2xmedium size
    assert page.page.evaluate("document.activeElement.dataset.name") == "d1.2xmedium"
    page.page.keyboard.press("/")
    assert page.page.evaluate("document.activeElement.id") == "selector"


def test_controls_have_labels_and_focus_is_visible(at):
    page = at()
    unlabelled = page.page.eval_on_selector_all(
        "input, select", "els => els.filter(e => !document.querySelector(`label[for='${e.id}']`)).map(e => e.id)")
    assert unlabelled == []
    page.page.focus("#size-grid a[data-name='u1.large']")
    outline = page.page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline == "solid"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_contrast_is_readable(at, scheme):
    page = at()
    page.page.emulate_media(color_scheme=scheme)
    try:
        worst = page.page.evaluate("""() => {
          const lum = (c) => { const [r, g, b] = c.match(/\\d+/g).slice(0, 3).map(Number).map(v => v / 255)
            .map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4); return 0.2126*r + 0.7152*g + 0.0722*b; };
          const bg = (e) => { for (; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor;
            if (c !== 'rgba(0, 0, 0, 0)') return c; } return getComputedStyle(document.body).backgroundColor; };
          let worst = 21;
          for (const e of document.querySelectorAll('p, li, a, dt, dd, th, td, h1, h2, h3, h4, label, span, code')) {
            if (!e.offsetParent || !e.textContent.trim()) continue;
            const [a, b] = [lum(getComputedStyle(e).color), lum(bg(e))];
            worst = Math.min(worst, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05));
          }
          return worst; }""")
    finally:
        page.page.emulate_media(color_scheme="light")  # the shared page's scheme
    assert worst >= 4.5


def test_the_page_makes_no_request_and_logs_no_error_and_is_screenshotted(open_page, tmp_path):
    shots = []
    page = open_page(None)  # one tab, loaded afresh in each size and scheme
    for width, name in ((1280, "desktop"), (390, "phone")):
        for scheme in ("light", "dark"):
            page.load("#l=cpu%3D4,!gpus&fit=windows.11", width=width, scheme=scheme)
            page.page.screenshot(path=str(tmp_path / f"site-{name}-{scheme}.png"), full_page=True)
            shots.append(tmp_path / f"site-{name}-{scheme}.png")
            assert page.requests == [page.url]
            assert page.console == []
            if name == "phone":  # one column: nothing wider than the screen but the grid, which scrolls
                assert page.page.evaluate("document.documentElement.scrollWidth") <= width
    assert all(shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for shot in shots)


def test_deprecated_objects_are_marked(context, tmp_path):
    release = shared_file(SHARED / "reference" / "releases" / "v1.0.0-common-instancetypes-all-bundle.yaml")
    page = Page(context, write_site(tmp_path / "site", "--retain-from", str(release))).load()
    try:
        marked = page.page.eval_on_selector_all(
            "#size-grid a.it", "els => els.filter(e => e.querySelector('.deprecated')).map(e => e.dataset.name)")
        assert marked == ["gn1.xlarge", "gn1.2xlarge", "gn1.4xlarge", "gn1.8xlarge"]
        cards = page.page.eval_on_selector_all(
            ".pref", "els => els.filter(e => e.querySelector('.deprecated')).map(e => e.dataset.name)")
        assert cards == ["centos.7", "centos.7.desktop", "centos.stream8", "centos.stream8.desktop",
                         "centos.stream8.dpdk"]
        # catalog.yaml's retired names give the retained preferences their replacement, a link to it
        assert page.page.inner_text("[data-name='centos.stream8'] .deprecated") == \
            "Deprecated since v1.2.1 · use centos.stream9"
        assert page.page.get_attribute("[data-name='centos.7'] .deprecated a", "href") == "#rhel.7"
        assert page.page.inner_text("[data-name='gn1.xlarge']").endswith("deprecated")
        assert page.console == []
    finally:
        page.close()


def test_the_retired_names_are_listed_with_what_to_use_instead(at):
    page = at()
    rows = page.page.eval_on_selector_all(
        "#retired-names tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText))")
    assert len(rows) == 17
    assert rows[0] == ["highperformance.large", "instancetype", "v0.4.0", "d1.large"]
    assert ["centos.8.stream", "preference", "v0.4.0", "renamed to centos.stream8 → centos.stream9"] in rows
    assert ["centos.7", "preference", "v1.2.1", "rhel.7"] in rows
    assert page.page.get_attribute("#retired-names tr[data-name='server.micro'] a", "href") == "#u1.nano"
    assert page.page.is_visible("#retired-link")


def test_a_deprecated_series_and_its_sizes_name_their_replacements(context, tmp_path):
    catalog = tmp_path / "catalog"
    catalog.mkdir()
    (catalog / "catalog.yaml").write_text("extends: builtin\noverlays: [o.yaml]\n")
    (catalog / "o.yaml").write_text("series: {change: {o1: {deprecated: {since: v1.9.0, replacement: u1}}}}\n"
                                    "retired: {instancetypes: {server.micro: null}}\n")
    page = Page(context, write_site(tmp_path / "site", "--catalog", str(catalog))).load("#o1.medium")
    try:
        assert page.page.inner_text("#series-o1 .deprecated") == "Deprecated since v1.9.0 · replaced by U1"
        assert page.page.get_attribute("#series-o1 .deprecated a", "href") == "#series-u1"
        assert page.page.inner_text("#details p").endswith("deprecated since v1.9.0 · use u1.medium")
        assert page.page.get_attribute("#details p a", "href") == "#u1.medium"
        label = page.page.get_attribute("#size-grid a[data-name='o1.medium']", "aria-label")
        assert label == "o1.medium, 1 vCPU, 4Gi memory, deprecated, use u1.medium"
        assert "server.micro" not in page.page.inner_text("#retired-names")
        assert page.console == []
    finally:
        page.close()
