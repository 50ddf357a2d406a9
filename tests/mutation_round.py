"""A mutation round: plausible one-line mistakes, each of which a test of its own module must catch.

Every entry of ``MUTATIONS`` is a single-line change to one module of ``generator/``
(a flipped comparison, an off-by-one, a dropped branch, swapped arguments) and the
test file named after that module. ``python tests/mutation_round.py`` copies the
repository into a temporary directory, applies one mutation at a time to the copy,
runs only that test file against it and reports each mutation as caught (the file
failed) or survived. The checkout itself is never changed, so a mutation cannot be
committed by accident, and a round can run beside other work.

Run a part of the round with ``-k TEXT`` (mutations whose module or test file
contains TEXT). docs/testing.md has the table of the last round and how to add to it;
tests/test_mutation_round.py keeps every entry applicable to the code as it is.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Mutation:
    """One wrong line: ``before`` (found exactly once in ``module``) written as ``after``."""

    module: str  # path from the repository root
    before: str
    after: str
    tests: str  # the test file of the module, which must fail
    what: str  # the mistake in a few words, for the table in docs/testing.md


def _m(module: str, tests: str, what: str, before: str, after: str) -> Mutation:
    return Mutation(f"generator/{module}", before, after, f"tests/{tests}", what)


MUTATIONS: tuple[Mutation, ...] = (
    # -- foundations
    _m("quantity.py", "test_quantity.py", "binary suffixes read as powers of 1000",
       "return value * 1024 ** _BINARY[suffix]", "return value * 1000 ** _BINARY[suffix]"),
    _m("quantity.py", "test_quantity.py", "the minus sign ignored, the plus sign negating",
       'if match["sign"] == "-":', 'if match["sign"] == "+":'),
    _m("quantity.py", "test_quantity.py", "bytes written with the smallest whole unit first",
       "key=lambda kv: -kv[1])", "key=lambda kv: kv[1])"),
    _m("quantity.py", "test_quantity.py", "a fraction of a byte truncated instead of refused",
       "if value.denominator != 1:", "if value.denominator == 0:"),
    _m("quantity.py", "test_quantity.py", "match() and $: a trailing line break accepted",
       "match = _GRAMMAR.fullmatch(text)", 'match = __import__("re").match(_GRAMMAR.pattern + "$", text)'),
    _m("objectmeta.py", "test_objectmeta.py", "a name of exactly 253 characters refused (>= for >)",
       "if _size(value) > SUBDOMAIN_MAX:", "if _size(value) >= SUBDOMAIN_MAX:"),
    _m("objectmeta.py", "test_objectmeta.py", "a key with two slashes read as prefix and name",
       "if len(parts) > 2:", "if len(parts) > 3:"),
    _m("objectmeta.py", "test_objectmeta.py", "annotation keys checked case-sensitively",
       "return qualified_name_errors(key.lower())", "return qualified_name_errors(key)"),
    _m("objectmeta.py", "test_objectmeta.py", "the fast path assumes 2 bytes a character, not 4",
       "if 4 * sum(len(k) + len(v) for k, v in annotations.items())",
       "if 2 * sum(len(k) + len(v) for k, v in annotations.items())"),
    _m("objectmeta.py", "test_objectmeta.py", "a boolean named as an integer",
       "if isinstance(value, bool):", "if isinstance(value, int):"),
    # -- load
    _m("load/gpu.py", "test_load_gpu.py", "a device name without a domain accepted",
       'if "/" not in device or qualified_name_errors(device):', "if qualified_name_errors(device):"),
    _m("load/gpu.py", "test_load_gpu.py", "a GPU feature of a variant overlooked",
       'return bool(series.features.get("gpus")) or any(v.features.get("gpus") for v in series.variants)',
       'return bool(series.features.get("gpus"))'),
    _m("load/gpu.py", "test_load_gpu.py", "a gpu section without a device taken as configured",
       'return bool((parameters.get("gpu") or {}).get("deviceName"))', 'return "gpu" in parameters'),
    _m("load/gpu.py", "test_load_gpu.py", "GPU series left out when a device is configured",
       "    if configured(parameters):\n        return []", "    if not configured(parameters):\n        return []"),
    _m("load/gpu.py", "test_load_gpu.py", "the summary names the series in lower case",
       "names = [s.prefix.upper() for s in series]", "names = [s.prefix for s in series]"),
    # -- expand
    _m("expand/instancetypes.py", "test_expand_instancetypes.py", "memory for one vCPU more than the size has",
       "return int(gib(series.ratio) * size.cpu)", "return int(gib(series.ratio) * (size.cpu + 1))"),
    _m("expand/instancetypes.py", "test_expand_instancetypes.py", "an empty numa mapping labelled numa",
       'if "guestMappingPassthrough" in cpu.get("numa", {}):', 'if "numa" in cpu:'),
    _m("expand/instancetypes.py", "test_expand_instancetypes.py", "the series spec merged the wrong way round",
       "deep_merge(spec, series.spec)", "deep_merge(dict(series.spec), spec)"),
    _m("expand/instancetypes.py", "test_expand_instancetypes.py", "the variant suffix left out of the size",
       "size_name = size.name + suffix", "size_name = size.name"),
    _m("expand/instancetypes.py", "test_expand_instancetypes.py", "base features win over a variant's",
       "(v.suffix, {**series.features, **v.features})", "(v.suffix, {**v.features, **series.features})"),
    _m("expand/instancetypes.py", "test_expand_instancetypes.py", "objects in the order made, not by name",
       "return [by_name[k] for k in sorted(by_name)]", "return list(by_name.values())"),
    _m("expand/instancetypes.py", "test_expand_instancetypes.py", "GPU series judged by the catalog's parameters only",
       "skipped = {s.name for s in left_out(catalog.series, params)}",
       "skipped = {s.name for s in left_out(catalog.series, catalog.settings.parameters)}"),
    _m("expand/preferences.py", "test_expand_preferences.py", "the root of a basedOn chain wins over the child",
       "    for pref in reversed(chain):\n        value = getattr(pref, attribute)",
       "    for pref in chain:\n        value = getattr(pref, attribute)"),
    _m("expand/preferences.py", "test_expand_preferences.py", "the arch label from the required architecture first",
       "arch = preferred_arch if preferred_arch is not None else required_arch",
       "arch = required_arch if required_arch is not None else preferred_arch"),
    _m("expand/preferences.py", "test_expand_preferences.py", "deprecated: false cannot undo a deprecated family",
       "deprecated = pref.deprecated if pref.deprecated is not None else family.deprecated",
       "deprecated = pref.deprecated or family.deprecated"),
    _m("expand/preferences.py", "test_expand_preferences.py", "a base's requirements win over the child's",
       "requirements = p.requirements.over(requirements)", "requirements = requirements.over(p.requirements)"),
    _m("expand/preferences.py", "test_expand_preferences.py", "a tag repeated when two traits carry it",
       "tags += [t for t in trait.tags if t not in tags]", "tags += list(trait.tags)"),
    _m("expand/preferences.py", "test_expand_preferences.py", "a basedOn circle printed backwards",
       "[current.name] + [p.name for p in reversed(loop)]", "[current.name] + [p.name for p in loop]"),
    _m("expand/traits.py", "test_expand_traits.py", "1 and true taken for the same value",
       "    if type(a) is not type(b):\n        return False",
       "    if isinstance(a, dict) is not isinstance(b, dict):\n        return False"),
    _m("expand/traits.py", "test_expand_traits.py", "quantities compared as amounts everywhere",
       "if _quantity_at(path) and quantity.same(a, b):", "if quantity.same(a, b):"),
    _m("expand/traits.py", "test_expand_traits.py", "the stale-override check inverted",
       "if layer.override and not replaced:", "if layer.override and replaced:"),
    _m("expand/traits.py", "test_expand_traits.py", "the parent of a leaf not checked for a plain value",
       "for i in range(1, len(path)):  # an ancestor set to a plain value",
       "for i in range(2, len(path)):  # an ancestor set to a plain value"),
    _m("expand/traits.py", "test_expand_traits.py", "a default overwrites a value set at the same path",
       "if any(path[:i] in self.owner for i in range(1, len(path) + 1)):",
       "if any(path[:i] in self.owner for i in range(1, len(path))):"),
    _m("expand/traits.py", "test_expand_traits.py", "a conflict names the other layer's file without its line",
       'return f"{location.file}:{location.line}" if location.line is not None else location.file',
       "return location.file"),
    # -- query
    _m("query/selector.py", "test_query_selector.py", "!= and notin no longer match an absent label",
       "return value not in self.values  # != and notin", "return value is not None and value not in self.values  #"),
    _m("query/selector.py", "test_query_selector.py", "== read as !=",
       'op = "=" if match["op"] in ("=", "==") else "!="', 'op = "=" if match["op"] == "=" else "!="'),
    _m("query/selector.py", "test_query_selector.py", "a prefixed key prefixed again",
       'return key if "/" in key else LABEL_PREFIX + key', "return LABEL_PREFIX + key"),
    _m("query/selector.py", "test_query_selector.py", "empty items dropped from a set (kubectl keeps them as '')",
       'values = [v.strip() for v in match["values"].split(",")]',
       'values = [v.strip() for v in match["values"].split(",") if v.strip()]'),
    _m("query/selector.py", "test_query_selector.py", "the character of a refusal counted from 0",
       "at \"\n                                f\"character {position + 1}",
       "at \"\n                                f\"character {position}"),
    # -- render
    _m("render/sandbox.py", "test_render_sandbox.py", "only 'x' * N bounded, not N * 'x' (the survivor)",
       "for seq, count in ((left, right), (right, left)):", "for seq, count in ((left, right),):"),
    _m("render/sandbox.py", "test_render_sandbox.py", "a product of exactly the limit refused",
       "if count > 0 and deep_size(seq, limit) * count > limit:", "if count > 0 and deep_size(seq, limit) * count >= limit:"),
    _m("render/sandbox.py", "test_render_sandbox.py", "numbers multiplied before their size is known",
       "left.bit_length() + right.bit_length() > MAX_INT_BITS", "left.bit_length() + right.bit_length() > 2 * MAX_INT_BITS"),
    _m("render/sandbox.py", "test_render_sandbox.py", "a power predicted from the exponent alone",
       "if right > 0 and right * abs(left).bit_length() > MAX_INT_BITS:", "if right > MAX_INT_BITS:"),
    _m("render/sandbox.py", "test_render_sandbox.py", "'~' text made before it is measured",
       "            if made > self.limits.size:\n                raise too_large(\"the text built with '~'\"",
       "            if made > 2 * self.limits.size:\n                raise too_large(\"the text built with '~'\""),
    _m("render/sandbox.py", "test_render_sandbox.py", "one call deeper than MAX_DEPTH allowed",
       "if budget.depth >= MAX_DEPTH:", "if budget.depth > MAX_DEPTH:"),
    _m("render/limits.py", "test_render_sandbox.py", "a limit of 0 accepted from the environment",
       "if value is None or not value > 0 or not math.isfinite(value):",
       "if value is None or value < 0 or not math.isfinite(value):"),
    _m("render/limits.py", "test_render_sandbox.py", "one loop iteration fewer than the limit allowed",
       "if self.iterations > self.limits.iterations:", "if self.iterations >= self.limits.iterations:"),
    _m("render/limits.py", "test_render_sandbox.py", "zfill's width not predicted",
       '"zfill": lambda s, width: max(len(s), width),', '"zfill": lambda s, width: len(s),'),
    _m("render/limits.py", "test_render_sandbox.py", "a printf '*' width not counted",
       "total += abs(star) if isinstance(star, int) else 0", "total += 0"),
    # -- parse
    _m("parse.py", "test_parse.py", "a text without its final line break taken as one document",
       'if not (text.startswith("---\\n") and text.endswith("\\n")):', 'if not text.startswith("---\\n"):'),
    _m("parse.py", "test_parse.py", "two documents in one text taken as one",
       "if len(one) != 1:", "if len(one) < 1:"),
    _m("parse.py", "test_parse.py", "a namespaced twin keeps the cluster kind",
       'twins.append({**twin, "kind": namespaced})', "twins.append(twin)"),
    _m("parse.py", "test_parse.py", "documents in kind order, not the all-bundle's",
       "return [doc for kind in ALL_ORDER for doc in out[kind]]",
       "return [doc for kind in (*INSTANCETYPE_KINDS, *PREFERENCE_KINDS) for doc in out[kind]]"),
    # -- validate: rules
    _m("validate/rules/api_version.py", "test_validate_rules_api_version.py", "the right apiVersion reported",
       "if api_version != API_VERSION:", "if api_version == API_VERSION:"),
    _m("validate/rules/api_version.py", "test_validate_rules_api_version.py", "another kind's apiVersion reported too",
       "continue  # its apiVersion is whatever its own kind needs", "pass"),
    _m("validate/rules/api_version.py", "test_validate_rules_api_version.py", "the message lists two kinds of four",
       "expected one of {', '.join(KINDS)}", "expected one of {', '.join(KINDS[:2])}"),
    _m("validate/rules/known_labels.py", "test_validate_rules_known_labels.py", "other prefixes checked too",
       "if not isinstance(key, str) or not key.startswith(LABEL_PREFIX):", "if not isinstance(key, str):"),
    _m("validate/rules/known_labels.py", "test_validate_rules_known_labels.py", "the suggestion looked up for the whole key",
       "close = difflib.get_close_matches(short, _SORTED, n=1)", "close = difflib.get_close_matches(key, _SORTED, n=1)"),
    _m("validate/rules/known_labels.py", "test_validate_rules_known_labels.py", "a known label dropped from the list",
       '"os-type", "arch", "required-cpu"', '"os-type", "required-cpu"'),
    _m("validate/rules/known_labels.py", "test_validate_rules_known_labels.py", "known labels reported",
       "if short in KNOWN:", "if short not in KNOWN:"),
    _m("validate/rules/name_grammar.py", "test_validate_rules_name_grammar.py", "the series version made optional",
       'r"[a-z]+[0-9]+\\.', 'r"[a-z]+[0-9]*\\.'),
    _m("validate/rules/name_grammar.py", "test_validate_rules_name_grammar.py", "names Kubernetes refuses reported twice",
       'if not name or family(doc) != "instancetype" or name_problem(name):',
       'if not name or family(doc) != "instancetype":'),
    _m("validate/rules/name_grammar.py", "test_validate_rules_name_grammar.py", "preferences held to the grammar",
       'family(doc) != "instancetype"', "family(doc) is None"),
    _m("validate/rules/name_grammar.py", "test_validate_rules_name_grammar.py", "a prefix match taken for the name",
       "if not _INSTANCETYPE.fullmatch(name):", "if not _INSTANCETYPE.match(name):"),
    _m("validate/rules/series_ratio.py", "test_validate_rules_series_ratio.py", "too little memory passes",
       "if memory != expected:", "if memory > expected:"),
    _m("validate/rules/series_ratio.py", "test_validate_rules_series_ratio.py", "a ratio below 1 GiB rounded to 0",
       "per_cpu = {name: gib(series.ratio)", "per_cpu = {name: gib(int(series.ratio))"),
    _m("validate/rules/series_ratio.py", "test_validate_rules_series_ratio.py", "a series the context lacks looked up",
       "if parts is None or parts[0] not in ctx.series:", "if parts is None:"),
    _m("validate/rules/series_ratio.py", "test_validate_rules_series_ratio.py", "2 vCPUs in the singular",
       "vCPU{'s' if cpus != 1 else ''} with", "vCPU{'s' if cpus > 2 else ''} with"),
    _m("validate/rules/twins_identical.py", "test_validate_rules_twins_identical.py", "2 and 2.0 taken for twins",
       "elif here != there or type(here) is not type(there):", "elif here != there:"),
    _m("validate/rules/twins_identical.py", "test_validate_rules_twins_identical.py", "quantities compared as amounts in labels",
       "if not (quantity_at(kind, path) and same(here, there)):", "if not same(here, there):"),
    _m("validate/rules/twins_identical.py", "test_validate_rules_twins_identical.py", "the last object of a name compared",
       "twins.setdefault((fam, name), {}).setdefault(doc.kind, doc)", "twins.setdefault((fam, name), {})[doc.kind] = doc"),
    _m("validate/rules/twins_identical.py", "test_validate_rules_twins_identical.py", "the namespace compared",
       'if isinstance(meta, dict) and "namespace" in meta:', 'if isinstance(meta, dict) and "namespace" not in meta:'),
    _m("validate/rules/unique_names.py", "test_validate_rules_unique_names.py", "the first of each name reported",
       "if seen is not doc:", "if seen is doc:"),
    _m("validate/rules/unique_names.py", "test_validate_rules_unique_names.py", "names unique across kinds",
       "first.setdefault((kind, name), doc)", "first.setdefault((name, name), doc)"),
    _m("validate/rules/unique_names.py", "test_validate_rules_unique_names.py", "the repeat named as the first",
       "(first defined at {seen.file}#{seen.index})", "(first defined at {seen.file}#{doc.index})"),
    _m("validate/rules/vendor_label.py", "test_validate_rules_vendor_label.py", "a tie goes to the first by name",
       "vendor = next(v for v in values if isinstance(v, str) and counts[v] == most)",
       "vendor = sorted(v for v in counts if counts[v] == most)[0]"),
    _m("validate/rules/vendor_label.py", "test_validate_rules_vendor_label.py", "a given vendor outvoted by the set",
       "agreement = agreed_vendor(docs) if ctx.vendor is None else None", "agreement = agreed_vendor(docs)"),
    _m("validate/rules/vendor_label.py", "test_validate_rules_vendor_label.py", "other kinds counted in the vote",
       "objects = [doc for doc in docs if family(doc) is not None]", "objects = list(docs)"),
    _m("validate/rules/object_metadata.py", "test_validate_rules_object_metadata.py", "an empty name judged as a name",
       'if name is None or name == "":', "if name is None:"),
    _m("validate/rules/object_metadata.py", "test_validate_rules_object_metadata.py", "'labels' not made singular",
       "singular = section[:-1]", "singular = section"),
    _m("validate/rules/object_metadata.py", "test_validate_rules_object_metadata.py", "annotation values held to label syntax",
       '"annotations", annotation_key_problem, None)', '"annotations", annotation_key_problem, label_value_problem)'),
    _m("validate/rules/object_metadata.py", "test_validate_rules_object_metadata.py", "a document that is no object read",
       "continue  # api-version says what a document that is no object is", "pass"),
    _m("validate/rules/requirements_met.py", "test_validate_rules_requirements_met.py", "exactly the required vCPUs fall short",
       "i = bisect_left(self.cpus, cpu)", "i = bisect_right(self.cpus, cpu)"),
    _m("validate/rules/requirements_met.py", "test_validate_rules_requirements_met.py", "exactly the required memory falls short",
       "return i < len(self.cpus) and self.best[i] >= memory", "return i < len(self.cpus) and self.best[i] > memory"),
    _m("validate/rules/requirements_met.py", "test_validate_rules_requirements_met.py", "the least memory kept as the best",
       "running = memory if running is None or memory > running else running",
       "running = memory if running is None or memory < running else running"),
    _m("validate/rules/requirements_met.py", "test_validate_rules_requirements_met.py", "the arch label ignored",
       "(by_arch.setdefault(arch, []) if isinstance(arch, str) else anywhere).append((cpu, memory))",
       "anywhere.append((cpu, memory))"),
    _m("validate/rules/requirements_met.py", "test_validate_rules_requirements_met.py", "unlabelled instancetypes not offered for an arch",
       "per_arch[arch] = _merge(anywhere, by_arch.get(arch, []))", "per_arch[arch] = _merge(by_arch.get(arch, []))"),
    _m("validate/rules/labels_match_spec.py", "test_validate_rules_labels_match_spec.py", "a cpu label with a sign or point read",
       "return int(value) if isinstance(value, str) and value.isdigit() else None",
       "return int(float(value)) if isinstance(value, str) else None"),
    _m("validate/rules/labels_match_spec.py", "test_validate_rules_labels_match_spec.py", "memory labels compared as text",
       '_Value("memory", ("spec", "memory", "guest"), quantity, quantity),',
       '_Value("memory", ("spec", "memory", "guest"), _text, _text),'),
    _m("validate/rules/labels_match_spec.py", "test_validate_rules_labels_match_spec.py", "an empty numa mapping taken for NUMA",
       'lambda d: dig(d, "spec", "cpu", "numa", "guestMappingPassthrough") is not None,',
       'lambda d: dig(d, "spec", "cpu", "numa") is not None,'),
    _m("validate/rules/labels_match_spec.py", "test_validate_rules_labels_match_spec.py", "a 'false' flag on a feature passes",
       'if has and value != "true":', "if has and value is None:"),
    _m("validate/rules/labels_match_spec.py", "test_validate_rules_labels_match_spec.py", "a missing size label not dated",
       "lambda v: v,\n                       since=SIZE_LABEL_SINCE)", "lambda v: v,\n                       since=None)"),
    # -- write
    _m("write.py", "test_write.py", "a failed first build 'restores' outputs it never moved",
       "if moved_aside and not os.path.lexists(out):", "if not os.path.lexists(out):"),
    _m("write.py", "test_write.py", "a failed undo reported as 'unchanged'",
       "if isinstance(exc, OSError):\n                    raise _NotPutBack",
       "if isinstance(exc, KeyboardInterrupt):\n                    raise _NotPutBack"),
    _m("write.py", "test_write.py", "the old outputs left beside the new ones",
       "    remove_tree(backup)\n", "    pass\n"),
    _m("write.py", "test_write.py", "an empty directory refused as not citgen's",
       "if not out.is_dir() or not any(out.iterdir()):",
       "if not out.is_dir():"),
    _m("write.py", "test_write.py", "the outputs left readable by their owner only",
       "os.chmod(staging, 0o755)", "os.chmod(staging, 0o700)"),
    _m("write.py", "test_write.py", "a backslash allowed in an output path",
       ' or "\\\\" in name:', ":"),
    # -- tools
    _m("tools/diff.py", "test_tools_diff.py", "1 and true the same value (the survivor)",
       "    if type(old) is not type(new):\n        return False",
       "    if not isinstance(old, type(new)) and not isinstance(new, type(old)):\n        return False"),
    _m("tools/diff.py", "test_tools_diff.py", "floats compared as Python compares them",
       "if type(old) is float or isinstance(old, dt.date):", "if isinstance(old, dt.date):"),
    _m("tools/diff.py", "test_tools_diff.py", "mapping keys 1 and true merged",
       'return (type(key).__name__, repr(key))', "return key"),
    _m("tools/diff.py", "test_tools_diff.py", "items past the shorter list ignored",
       "for i in range(max(len(old), len(new))):", "for i in range(min(len(old), len(new))):"),
    _m("tools/diff.py", "test_tools_diff.py", "the version label not ignored",
       "kept = {k: v for k, v in labels.items() if k not in ignored}", "kept = dict(labels)"),
    _m("tools/vmexpand/requirements.py", "test_tools_vmexpand_requirements.py", "'any' leaves threads out (the survivor)",
       'have = count["cores"] * count["sockets"] * count["threads"]', 'have = count["cores"] * count["sockets"]'),
    _m("tools/vmexpand/requirements.py", "test_tools_vmexpand_requirements.py", "spread over three factors counts two",
       'ACROSS_SOCKETS_CORES_THREADS: ("sockets", "cores", "threads"),', 'ACROSS_SOCKETS_CORES_THREADS: ("sockets", "cores"),'),
    _m("tools/vmexpand/requirements.py", "test_tools_vmexpand_requirements.py", "CoresThreads counts sockets",
       'ACROSS_CORES_THREADS: ("cores", "threads"),', 'ACROSS_CORES_THREADS: ("sockets", "cores", "threads"),'),
    _m("tools/vmexpand/requirements.py", "test_tools_vmexpand_requirements.py", "exactly the required count falls short",
       "if count[topology] < need:", "if count[topology] <= need:"),
    _m("tools/vmexpand/requirements.py", "test_tools_vmexpand_requirements.py", "one factor counts the whole topology",
       "if count[topology] < need:", 'if count["sockets"] * count["cores"] * count["threads"] < need:'),
)


def apply(source: str, mutation: Mutation) -> str:
    """``source`` with the mutation applied; ValueError unless ``before`` occurs exactly once."""
    found = source.count(mutation.before)
    if found != 1:
        raise ValueError(f"{mutation.module}: {mutation.before!r} occurs {found} times, expected once")
    return source.replace(mutation.before, mutation.after)


def _copy(target: Path) -> None:
    ignore = shutil.ignore_patterns(".venv", ".git", "__pycache__", ".pytest_cache", ".hypothesis", "*.pyc")
    shutil.copytree(REPO, target, ignore=ignore, symlinks=True)


def run(mutations: tuple[Mutation, ...]) -> list[tuple[Mutation, bool]]:
    """Each mutation with whether its test file caught it (failed on the mutated copy)."""
    results = []
    with tempfile.TemporaryDirectory(prefix="citgen-mutants-") as tmp:
        copy = Path(tmp) / "repo"
        _copy(copy)
        env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
        for mutation in mutations:
            target = copy / mutation.module
            original = target.read_text(encoding="utf-8")
            target.write_text(apply(original, mutation), encoding="utf-8")
            try:
                done = subprocess.run(
                    [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", mutation.tests],
                    cwd=copy, env=env, capture_output=True, text=True, timeout=600)
            finally:
                target.write_text(original, encoding="utf-8")
            caught = done.returncode != 0
            results.append((mutation, caught))
            print(f"{'caught  ' if caught else 'SURVIVED'} {mutation.module}: {mutation.what}", flush=True)
    return results


def table(results: list[tuple[Mutation, bool]]) -> str:
    """The round as the Markdown table of docs/testing.md."""
    lines = ["| module | mutation | caught by |", "| --- | --- | --- |"]
    for mutation, caught in results:
        by = f"`{mutation.tests}`" if caught else "**survived**"
        lines.append(f"| `{mutation.module.removeprefix('generator/')}` | {mutation.what} | {by} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-k", dest="only", default="", help="only mutations whose module or test file contains this")
    parser.add_argument("--table", action="store_true", help="print the Markdown table at the end")
    options = parser.parse_args()
    chosen = tuple(m for m in MUTATIONS if options.only in m.module or options.only in m.tests)
    results = run(chosen)
    if options.table:
        print(table(results), end="")
    survivors = sum(1 for _, caught in results if not caught)
    print(f"{len(results) - survivors} of {len(results)} mutations caught")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
