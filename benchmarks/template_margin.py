"""How far inside the template limits a real build stays: the figures of docs/errors.md.

Builds the built-in catalog and a synthetic catalog a hundred times larger (the
one benchmarks/bench.py builds) and records, for every template, its largest
rendered text, its slowest rendering and all its renderings together, as the
parent of the rendering process sees them (generator/render/process.py: the
wait for each answer, which is what the time limits count), then prints them
beside the limits (generator/render/limits.py).

    python benchmarks/template_margin.py [--factor 100]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import write_synthetic_catalog  # noqa: E402
from generator.pipeline import BuildOptions, generate  # noqa: E402
from generator.render.limits import Limits  # noqa: E402
from generator.render.process import Rendering  # noqa: E402


class Figures:
    """Per template: the largest text, the slowest rendering, the total time."""

    def __init__(self) -> None:
        self.text: dict[str, int] = defaultdict(int)
        self.slowest: dict[str, float] = defaultdict(float)
        self.total: dict[str, float] = defaultdict(float)
        self.renderings: dict[str, int] = defaultdict(int)

    def measured_answer(self, original: Any) -> Any:
        figures = self

        def answer(process: Rendering, job: Any, prefix: str) -> str:
            started = time.perf_counter()
            text = original(process, job, prefix)
            took = time.perf_counter() - started
            name = job.template
            figures.text[name] = max(figures.text[name], len(text))
            figures.slowest[name] = max(figures.slowest[name], took)
            figures.total[name] += took
            figures.renderings[name] += 1
            return text

        return answer


def measure(catalog: Path | None) -> Figures:
    figures = Figures()
    original = Rendering._answer
    Rendering._answer = figures.measured_answer(original)  # type: ignore[method-assign]
    try:
        build = generate(BuildOptions(catalog=catalog, helm_package=True))
    finally:
        Rendering._answer = original  # type: ignore[method-assign]
    assert not build.problems, build.problems
    return figures


def report(title: str, figures: Figures, limits: Limits) -> None:
    print(f"\n{title}")
    print(f"  {'template':36s} {'renderings':>10s} {'largest text':>13s} {'slowest ms':>10s} {'all ms':>8s}")
    for name in sorted(figures.renderings):
        print(f"  {name:36s} {figures.renderings[name]:10d} {figures.text[name]:13d} "
              f"{figures.slowest[name] * 1000:10.2f} {figures.total[name] * 1000:8.1f}")
    text, slowest, total = max(figures.text.values()), max(figures.slowest.values()), sum(figures.total.values())
    print(f"  margins: size {limits.size / text:,.0f}x, one rendering {limits.seconds / slowest:,.0f}x, "
          f"all renderings of the build {limits.total_seconds / max(total, 1e-6):,.0f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--factor", type=int, default=100, help="size of the synthetic catalog (default 100x)")
    args = parser.parse_args()
    limits = Limits.from_environ()
    print(f"limits: size {limits.size}, memory {limits.memory} MiB, {limits.seconds:g} s per rendering, "
          f"{limits.total_seconds:g} s for all renderings of a build")
    report("built-in catalog", measure(None), limits)
    with tempfile.TemporaryDirectory() as folder:
        catalog = Path(folder) / "catalog"
        write_synthetic_catalog(catalog, args.factor)
        report(f"synthetic catalog, {args.factor}x", measure(catalog), limits)
    return 0


if __name__ == "__main__":
    sys.exit(main())
