"""How far inside the template limits a real build stays: the figures of docs/errors.md.

Builds the built-in catalog and a synthetic catalog a hundred times larger (the
one benchmarks/bench.py builds) and records, for every template, its largest
rendered text (the largest value a built-in template makes), its most loop
iterations in one rendering, its slowest rendering, all its renderings
together, and the part of that the time limits count (a rendering's clock starts
at its first loop, call or filter: straight template text is as fast as it is
short), then prints them beside the limits (generator/render/limits.py).

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
from generator.render import sandbox  # noqa: E402
from generator.pipeline import BuildOptions, generate  # noqa: E402
from generator.render.limits import Limits  # noqa: E402


class Figures:
    """Per template: the largest text, the most iterations, the slowest rendering, the total time."""

    def __init__(self) -> None:
        self.text: dict[str, int] = defaultdict(int)
        self.iterations: dict[str, int] = defaultdict(int)
        self.slowest: dict[str, float] = defaultdict(float)
        self.total: dict[str, float] = defaultdict(float)
        self.counted: dict[str, float] = defaultdict(float)
        self.renderings: dict[str, int] = defaultdict(int)

    def measured_render(self, original: Any) -> Any:
        figures = self

        def render(template: Any, *args: Any, **kwargs: Any) -> str:
            started = time.perf_counter()
            text = original(template, *args, **kwargs)
            took = time.perf_counter() - started
            budget = template.environment.budget
            name = template.name
            figures.counted[name] += time.monotonic() - budget.started if budget.started else 0.0
            figures.text[name] = max(figures.text[name], len(text))
            figures.iterations[name] = max(figures.iterations[name], template.environment.budget.iterations)
            figures.slowest[name] = max(figures.slowest[name], took)
            figures.total[name] += took
            figures.renderings[name] += 1
            return text

        return render


def measure(catalog: Path | None) -> Figures:
    figures = Figures()
    original = sandbox._BoundedTemplate.render
    sandbox._BoundedTemplate.render = figures.measured_render(original)  # type: ignore[method-assign]
    try:
        build = generate(BuildOptions(catalog=catalog, helm_package=True))
    finally:
        sandbox._BoundedTemplate.render = original  # type: ignore[method-assign]
    assert not build.problems, build.problems
    return figures


def report(title: str, figures: Figures, limits: Limits) -> None:
    print(f"\n{title}")
    print(f"  {'template':36s} {'renderings':>10s} {'largest text':>13s} {'iterations':>10s} "
          f"{'slowest ms':>10s} {'all ms':>8s} {'counted ms':>10s}")
    for name in sorted(figures.renderings):
        print(f"  {name:36s} {figures.renderings[name]:10d} {figures.text[name]:13d} "
              f"{figures.iterations[name]:10d} {figures.slowest[name] * 1000:10.2f} {figures.total[name] * 1000:8.1f} "
              f"{figures.counted[name] * 1000:10.1f}")
    text, iterations = max(figures.text.values()), max(figures.iterations.values())
    slowest, counted = max(figures.slowest.values()), max(figures.counted.values())
    print(f"  margins: size {limits.size / text:,.0f}x, iterations {limits.iterations / max(iterations, 1):,.0f}x, "
          f"one rendering {limits.seconds / slowest:,.0f}x, all renderings of a template "
          f"{limits.total_seconds / max(counted, 1e-6):,.0f}x (counted time)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--factor", type=int, default=100, help="size of the synthetic catalog (default 100x)")
    args = parser.parse_args()
    limits = Limits.from_environ()
    print(f"limits: size {limits.size}, iterations {limits.iterations}, memory {limits.memory} MiB, "
          f"{limits.seconds:g} s per rendering, {limits.total_seconds:g} s for all renderings of a template")
    report("built-in catalog", measure(None), limits)
    with tempfile.TemporaryDirectory() as folder:
        catalog = Path(folder) / "catalog"
        write_synthetic_catalog(catalog, args.factor)
        report(f"synthetic catalog, {args.factor}x", measure(catalog), limits)
    return 0


if __name__ == "__main__":
    sys.exit(main())
