"""citgen's benchmark: how fast and how lean a build and a validation are, and how they grow.

Run it with ``make bench`` (or ``python benchmarks/bench.py``). It prints, for each case,
the median wall time, CPU time and peak memory of several runs after a warm-up, and
the objects (Kubernetes documents) handled per second:

1. ``citgen build`` on the built-in catalog, as a separate process, so interpreter
   start and imports count, with every output and the full validation;
2. ``citgen validate`` of the all-bundle, as a process;
3. ``citgen build`` of synthetic catalogs 10x, 100x and 1000x the built-in number of
   instancetypes (many vendor series over a larger size matrix), to show how time
   and memory grow with the catalog.

Then it shows where the time of case 1 goes, step by step, measured in-process, and
the same for the 100x catalog, where per-object costs dominate start-up costs.

The process running this script stays small on purpose and never imports citgen:
Linux counts the memory a child inherited at fork time into the child's peak RSS,
so a parent that had loaded the catalog would inflate every figure it measures.
Everything that needs citgen (writing the synthetic catalogs, the step breakdown)
runs in a worker process of this same script (``--worker``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

REPO = Path(__file__).resolve().parent.parent
ALL_BUNDLE = "common-instancetypes-all-bundle.yaml"
FACTORS = (10, 100, 1000)
MIB = 1024 * 1024

# Targets of issue 7, printed next to the figures so a regression is plain to see.
TARGET_WALL_S = 0.5
TARGET_PEAK_MIB = 100
TARGET_GROWTH = 1.1  # 1000x per-object cost at most "about" the 100x one
TARGET_RATE_100X = 5000


# --------------------------------------------------------------------------- measuring processes


@dataclass(frozen=True)
class Sample:
    """One finished child process: its wall time, CPU time (user + system) and peak RSS."""

    wall: float
    cpu: float
    peak: int  # bytes


@dataclass(frozen=True)
class Figures:
    """The medians of several samples of one case, and what they mean per object."""

    case: str
    objects: int
    runs: int
    wall: float
    cpu: float
    peak: int

    @property
    def rate(self) -> float:
        return self.objects / self.wall if self.wall else 0.0

    @property
    def us_per_object(self) -> float:
        return self.wall / self.objects * 1e6 if self.objects else 0.0

    def as_json(self) -> dict[str, Any]:
        return {**asdict(self), "peak_mib": self.peak / MIB, "objects_per_s": self.rate,
                "us_per_object": self.us_per_object}


def child_env() -> dict[str, str]:
    """The environment of measured children: this checkout's code comes first on the path."""
    env = dict(os.environ)
    # The warm-up run is there to write bytecode, as an installed citgen has it; an
    # environment that forbids writing it would make every run compile from source.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    return env


def citgen_command() -> list[str]:
    """How a user runs citgen: the console script beside this interpreter, else the module."""
    script = Path(sys.executable).with_name("citgen")
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from generator.cli import main; sys.exit(main())"]


def run(argv: Sequence[str], cwd: Path) -> Sample:
    """Run one child to completion and read its own resource usage from the kernel.

    os.wait4 gives the rusage of exactly this child (not of every child so far, as
    RUSAGE_CHILDREN would), so CPU time and peak RSS belong to the measured run.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(list(argv), cwd=cwd, stdout=out, stderr=err, env=child_env())
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            out.seek(0)
            raise SystemExit(f"bench: {' '.join(argv)} exited with {proc.returncode}:\n"
                             f"{out.read().decode(errors='replace')}{err.read().decode(errors='replace')}")
    return Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024)


def measure(case: str, argv: Sequence[str], cwd: Path, runs: int, objects: Callable[[], int],
            warmup: bool = True) -> Figures:
    """Median figures of ``runs`` runs, after one unmeasured warm-up run (disk cache, bytecode)."""
    if warmup:
        run(argv, cwd)
    samples = [run(argv, cwd) for _ in range(runs)]
    return Figures(case, objects(), runs,
                   statistics.median(s.wall for s in samples),
                   statistics.median(s.cpu for s in samples),
                   int(statistics.median(s.peak for s in samples)))


def count_documents(path: Path) -> int:
    """Documents in a bundle citgen wrote: each starts with its own ``---`` line."""
    with open(path, encoding="utf-8") as f:
        return sum(1 for line in f if line.rstrip("\n") == "---")


def worker(args: Sequence[str]) -> Any:
    """Run this script as a worker process and return the JSON it prints."""
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", *args],
                          capture_output=True, text=True, env=child_env(), cwd=REPO)
    if done.returncode != 0:
        raise SystemExit(f"bench: worker {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return json.loads(done.stdout)


# --------------------------------------------------------------------------- workers (import citgen)


#: The synthetic size matrix: three fixed-memory sizes, as the standard matrix has,
#: then one size per vCPU count. Wider than any built-in matrix, so every series
#: file yields many objects, as a vendor catalog with many sizes would.
SYNTHETIC_SIZES = 48
FIXED_SIZES = {"nano": {"cpu": 1, "memory": "1Gi"}, "micro": {"cpu": 1, "memory": "2Gi"},
               "small": {"cpu": 2, "memory": "4Gi"}}


def _letters(number: int, width: int = 3) -> str:
    """A series name suffix of lowercase letters (series names may not hold digits)."""
    out = ""
    for _ in range(width):
        number, digit = divmod(number, 26)
        out = chr(ord("a") + digit) + out
    return out


def write_synthetic_catalog(dest: Path, factor: int) -> dict[str, int]:
    """A catalog with ``factor`` times the built-in number of instancetypes, written to ``dest``.

    Series are copies of the built-in ones (so every feature flag and variant is
    exercised) under new prefixes, all over one wide size matrix; the catalog
    settings, preferences and templates are the built-in ones. Everything is written
    as JSON, which YAML reads as it is.
    """
    from generator.expand.instancetypes import instancetype_objects
    from generator.load.catalog import load_catalog, series_files
    from generator.paths import builtin_catalog
    from generator.source.yamlsrc import load_file

    source = builtin_catalog()
    base = len(instancetype_objects(load_catalog(source)))
    target = base * factor
    dest.mkdir(parents=True)
    # With a GPU device, so that the copies of the GN series are built like the others; without the
    # retired instancetypes, whose replacements are the built-in series' sizes, renamed here.
    settings = load_file(source / "catalog.yaml", "catalog.yaml").data
    settings["parameters"] = {"gpu": {"deviceName": "nvidia.com/A400"}}
    settings.get("retired", {}).pop("instancetypes", None)
    (dest / "catalog.yaml").write_text(json.dumps(settings, indent=1), encoding="utf-8")
    for folder in ("preferences", "templates"):
        shutil.copytree(source / folder, dest / folder)
    (dest / "series").mkdir()
    sizes: dict[str, Any] = dict(FIXED_SIZES)
    sizes.update((f"c{cpu}", cpu) for cpu in range(1, SYNTHETIC_SIZES - len(FIXED_SIZES) + 1))
    (dest / "series" / "sizes.yaml").write_text(json.dumps({"matrices": {"wide": sizes}}, indent=1))
    names = list(sizes)
    templates = [load_file(source / name, name).data for name in series_files(source)]
    made = count = 0
    while made < target:
        data = dict(templates[count % len(templates)])
        flavours = 1 + len(data.get("variants", {}))
        wanted = min(len(names), -(-(target - made) // flavours))
        data.update(prefix=data["prefix"] + _letters(count), matrix="wide",
                    sizes={"to": names[wanted - 1]})
        (dest / "series" / f"{data['prefix']}.yaml").write_text(json.dumps(data, indent=1))
        made += wanted * flavours
        count += 1
    return {"base_instancetypes": base, "instancetypes": made, "series": count, "sizes": len(names)}


def breakdown(runs: int, helm_package: bool, catalog: str | None = None) -> dict[str, Any]:
    """Seconds per build step of a catalog (the built-in one by default), median of ``runs`` after a warm-up.

    Each step is one of the pipeline's own functions called on the previous one's
    result, in the order generate() calls them, so the figures add up to a build.
    Expansion is catalog_objects() minus the load it starts with, timed in the same run.
    """
    start = time.perf_counter()
    from generator import pipeline
    from generator.outputs import output_files
    from generator.outputs.context import OutputContext
    from generator.parse import parse_rendered
    from generator.render.bundles import render_bundles
    from generator.runtime.gcpause import paused_collector
    from generator.schemas import schema_problems
    from generator.validate.rules import RULES
    from generator.write import write_outputs
    imports = time.perf_counter() - start

    options = pipeline.BuildOptions(catalog=Path(catalog) if catalog else None, helm_package=helm_package)
    timings: dict[str, list[float]] = {}

    def timed(step: str, call: Callable[[], Any]) -> Any:
        begin = time.perf_counter()
        result = call()
        timings.setdefault(step, []).append(time.perf_counter() - begin)
        return result

    with tempfile.TemporaryDirectory() as tmp, paused_collector():  # as generate() runs
        for i in range(runs + 1):
            if i == 1:
                timings.clear()  # the first pass was the warm-up
            catalog, _preferences = timed("load", lambda: pipeline.load_all(options))
            catalog, version, objects = timed("expand", lambda: pipeline.catalog_objects(options))
            timings["expand"][-1] -= timings["load"][-1]
            rendered = timed("render", lambda: render_bundles(catalog, objects))
            bundles = rendered.bundles
            parsed = timed("parse", lambda: parse_rendered(rendered))
            documents = parsed.documents
            timed("schema", lambda: [p for doc in documents for p in schema_problems(doc)])
            ctx = pipeline.rule_context(catalog)
            for rule_id, rule in RULES.items():
                timed(f"rule {rule_id}", lambda: list(rule.check(documents, ctx)))
            files = timed("outputs", lambda: {
                **pipeline.release_files(bundles, options.release),
                **output_files(OutputContext(catalog=catalog, version=version, objects=objects,
                                             bundles=bundles, helm_package=options.helm_package,
                                             documents=documents,
                                             texts=parsed.texts))})
            timed("write", lambda: write_outputs(Path(tmp) / "out", files))
            timed("generate() whole", lambda: pipeline.generate(options))
    medians = {step: statistics.median(values) for step, values in timings.items()}
    return {"imports": imports, "steps": medians, "documents": len(documents), "runs": runs}


def worker_main(args: Sequence[str]) -> None:
    kind, *rest = args
    if kind == "synth":
        result: Any = write_synthetic_catalog(Path(rest[0]), int(rest[1]))
    elif kind == "breakdown":
        result = breakdown(int(rest[0]), rest[1] == "helm", rest[2] if len(rest) > 2 else None)
    else:
        raise SystemExit(f"bench: unknown worker {kind!r}")
    print(json.dumps(result))


# --------------------------------------------------------------------------- the report


def mib(size: int) -> str:
    return f"{size / MIB:.1f} MiB"


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def table(rows: Sequence[Figures]) -> str:
    head = f"{'case':<48} {'objects':>8} {'wall s':>8} {'cpu s':>8} {'peak MiB':>9} {'objects/s':>10} {'us/object':>10}"
    lines = [head, "-" * len(head)]
    for f in rows:
        lines.append(f"{f.case:<48} {f.objects:>8} {f.wall:>8.3f} {f.cpu:>8.3f} {f.peak / MIB:>9.1f} "
                     f"{f.rate:>10.0f} {f.us_per_object:>10.1f}")
    return "\n".join(lines)


def print_breakdown(title: str, steps: dict[str, Any], startup: Figures) -> None:
    """One line per step: milliseconds, microseconds per document, share of the build, a bar."""
    total = sum(v for k, v in steps["steps"].items() if k != "generate() whole")
    count = steps["documents"]
    print(title)
    print(f"  {'interpreter start + imports (process)':<38} {startup.wall * 1000:9.1f} ms")
    print(f"  {'  of which importing the pipeline':<38} {steps['imports'] * 1000:9.1f} ms  (first import, in the worker)")
    for step, seconds in steps["steps"].items():
        if step == "generate() whole":
            continue
        share = seconds / total * 100 if total else 0.0
        print(f"  {step:<38} {seconds * 1000:9.1f} ms {seconds / count * 1e6:7.1f} us/doc "
              f"{share:5.1f}%  {'#' * round(share / 2)}")
    print(f"  {'sum of the steps above':<38} {total * 1000:9.1f} ms {total / count * 1e6:7.1f} us/doc")
    print(f"  {'generate() in one call, for comparison':<38} {steps['steps']['generate() whole'] * 1000:9.1f} ms")
    print()


def supports(option: str, cwd: Path) -> bool:
    done = subprocess.run([*citgen_command(), "build", "--help"], capture_output=True, text=True,
                          cwd=cwd, env=child_env())
    return option in done.stdout


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="one run per case, no warm-up, only the 10x synthetic catalog (a smoke test)")
    parser.add_argument("--runs", type=int, default=None, help="measured runs per case (default 5, --quick 1)")
    parser.add_argument("--json", type=Path, default=None, metavar="FILE", help="also save the figures as JSON")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker_main(args.worker)
        return 0
    runs = args.runs or (1 if args.quick else 5)
    if runs < 1:
        parser.error("--runs must be at least 1")
    factors = FACTORS[:1] if args.quick else FACTORS
    warmup = not args.quick  # a smoke test checks that every case runs, not how steady its figures are
    citgen = citgen_command()

    with tempfile.TemporaryDirectory(prefix="citgen-bench-") as tmp_name:
        tmp = Path(tmp_name)
        extra = ["--helm-package"] if supports("--helm-package", tmp) else []
        before = "after a warm-up" if warmup else "with no warm-up"
        print(f"citgen benchmark: Python {sys.version.split()[0]} on {os.cpu_count()} cores, "
              f"{runs} run{'s' if runs != 1 else ''} per case {before} (medians)")
        print(f"build options: --out DIR {' '.join(extra)}".rstrip())
        print()

        out = tmp / "out"
        build = measure("1. build, built-in catalog", [*citgen, "build", "--out", str(out), *extra],
                        tmp, runs, lambda: count_documents(out / ALL_BUNDLE), warmup)
        bundle = REPO / "bundles" / ALL_BUNDLE
        if not bundle.is_file():
            bundle = out / ALL_BUNDLE
        validate = measure("2. validate all-bundle", [*citgen, "validate", str(bundle)],
                           tmp, runs, lambda: count_documents(bundle), warmup)

        helm = "helm" if extra else "no-helm"
        scaled: list[tuple[int, dict[str, int], Figures]] = []
        scaled_steps: dict[str, Any] | None = None
        for factor in factors:
            catalog = tmp / f"catalog-{factor}x"
            shape = worker(["synth", str(catalog), str(factor)])
            scaled_out = tmp / f"out-{factor}x"
            # A 1000x build takes long enough that a handful of runs is plenty.
            figures = measure(f"3. build, {factor}x catalog ({shape['instancetypes']} instancetypes)",
                              [*citgen, "build", "--catalog", str(catalog), "--out", str(scaled_out), *extra],
                              tmp, min(runs, 3) if factor >= 1000 else runs,
                              lambda: count_documents(scaled_out / ALL_BUNDLE), warmup)
            scaled.append((factor, shape, figures))
            if factor == 100:  # where the time goes once a catalog is large
                scaled_steps = worker(["breakdown", str(min(runs, 3)), helm, str(catalog)])
            shutil.rmtree(scaled_out, ignore_errors=True)
        steps = worker(["breakdown", str(runs), helm])
        startup = measure("interpreter start + imports", [sys.executable, "-c", "import generator.cli"],
                          tmp, runs, lambda: 0, warmup)

    print(table([build, validate, *(f for _, _, f in scaled)]))
    print()
    print(f"synthetic catalogs: copies of the built-in series over one {scaled[0][1]['sizes']}-size matrix, "
          f"with the built-in preferences ({scaled[0][1]['base_instancetypes']} instancetypes = 1x)")
    print()
    print("growth with catalog size (per object: wall time, CPU time, peak memory):")
    previous: Figures | None = None
    for factor, shape, f in scaled:
        line = (f"  {factor:>5}x {f.objects:>7} objects  {f.us_per_object:8.1f} us  "
                f"{f.cpu / f.objects * 1e6:8.1f} us cpu  {f.peak / f.objects / 1024:7.2f} KiB")
        if previous is not None:
            cost = f.us_per_object / previous.us_per_object
            marginal = (f.wall - previous.wall) / (f.objects - previous.objects) * 1e6
            line += f"   x{cost:.2f} the per-object cost of the step before; marginal {marginal:.1f} us/object"
        print(line)
        previous = f
    print()

    print_breakdown(f"where the time of case 1 goes (in-process, {steps['documents']} documents, "
                    f"median of {steps['runs']}):", steps, startup)
    if scaled_steps is not None:
        print_breakdown(f"where the time of the 100x build goes ({scaled_steps['documents']} documents, "
                        f"median of {scaled_steps['runs']}):", scaled_steps, startup)

    print("targets (issue 7):")
    print(f"  case 1 wall < {TARGET_WALL_S} s: {build.wall:.3f} s, {verdict(build.wall < TARGET_WALL_S)}")
    print(f"  case 1 peak < {TARGET_PEAK_MIB} MiB: {mib(build.peak)}, {verdict(build.peak < TARGET_PEAK_MIB * MIB)}")
    by_factor = {factor: f for factor, _, f in scaled}
    if 100 in by_factor:
        rate = by_factor[100].rate
        print(f"  100x >= {TARGET_RATE_100X} objects/s: {rate:.0f}/s, {verdict(rate >= TARGET_RATE_100X)}")
    if 100 in by_factor and 1000 in by_factor:
        growth = by_factor[1000].us_per_object / by_factor[100].us_per_object
        print(f"  1000x per-object cost <= ~{TARGET_GROWTH}x the 100x one: x{growth:.2f}, "
              f"{verdict(growth <= TARGET_GROWTH)}")
    if args.quick:
        print("  (--quick: the 100x and 1000x targets need the full run)")

    if args.json:
        report = {
            "python": sys.version.split()[0], "cores": os.cpu_count(), "runs": runs, "quick": args.quick,
            "build_options": extra,
            "cases": {"build": build.as_json(), "validate": validate.as_json(),
                      "scaled": [{"factor": factor, **shape, **f.as_json()} for factor, shape, f in scaled]},
            "startup": startup.as_json(),
            "breakdown": steps,
            "breakdown_100x": scaled_steps,
        }
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
