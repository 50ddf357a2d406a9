"""benchmarks/bench.py's growth inputs (issue 41) are what they stand for: read in-process, at a small size.

The figures themselves are ``make bench``'s to print (no timing is asserted): here, that
every near-miss VM is an unknown name offered its definition, and that the chained
catalog's names each lead along the chain to fedora.
"""

from __future__ import annotations

import sys
from pathlib import Path

from generator.load.catalog import load_catalog
from generator.tools.refs.judge import judge
from generator.tools.refs.scan import scan
from generator.tools.refs.target import Target

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bench  # noqa: E402  (a script, not a package)


def test_each_near_miss_vm_is_offered_the_definition_it_misses(tmp_path):
    path = tmp_path / "near.yaml"
    bench.write_near_misses(path, 3)
    verdict = judge(scan([str(path)]), Target((), "nothing"))
    offered = [p.message.rsplit("did you mean ", 1)[1] for p in verdict.findings if "instancetype" in p.message]
    assert [first.split(",")[0].split(" ")[0] for first in offered] == [f"'it-00000{i}'" for i in range(3)]


def test_each_chained_name_leads_along_the_chain_to_fedora(tmp_path):
    bench.write_chained_catalog(tmp_path / "chained", 3)
    retired = load_catalog(tmp_path / "chained").retirements
    assert [(r.name, r.replacement) for r in retired.values() if r.name.startswith("old-")] == [
        ("old-000000", "old-000001"), ("old-000001", "old-000002"), ("old-000002", "fedora")]
