"""There is one checker of an input file's shape: the formats and their explainer, never load/.

Read from the syntax tree of every module of generator/load/, as tests/test_layout.py
reads imports:

- load/ reads a file only through ``source.inputcheck.read_checked`` (which checks it
  against its format): it imports neither the YAML reader nor jsonschema nor the
  explainer's parts;
- a type test there (``isinstance``, ``whole_number``, ``type``) only chooses between
  shapes the format allows: no branch it guards reports a problem or words a message;
- none of load/'s text says what the explainer says ("unknown key", "expected a
  mapping", ...), so no second wording of a shape mistake can grow there.
"""

from __future__ import annotations

import ast
from pathlib import Path

import generator

LOAD = Path(generator.__file__).resolve().parent / "load"

#: What reads or checks a file beside the one explainer.
SECOND_READERS = {"load_file", "schema_problems", "validator_for", "quick_check_for", "jsonschema", "yaml"}
#: Calls that test a value's type.
TYPE_TESTS = {"isinstance", "whole_number", "type"}
#: The explainer's words for a mistake in a file's shape.
EXPLAINER_WORDS = ("unknown key", "missing required key", "expected a whole number", "expected a mapping",
                   "expected a list", "expected a string", "must be true or false", "must be a mapping",
                   "must be a non-empty string")


def trees() -> dict[str, ast.Module]:
    return {path.name: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(LOAD.glob("*.py"))}


def imported_names(tree: ast.AST) -> set[str]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            found |= {alias.name for alias in node.names} | {(node.module or "").split(".")[0]}
    return found


def _called(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        func = node.func
        return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    return None


def _is_type_test(test: ast.AST) -> bool:
    return any(_called(node) in TYPE_TESTS for node in ast.walk(test))


def _refuses(branch: list[ast.AST]) -> bool:
    """Whether code reports a problem: makes one, raises, or writes a message (text of several words)."""
    for statement in branch:
        for node in ast.walk(statement):
            if isinstance(node, ast.Raise) or _called(node) in {"Problem", "InputError", "problem"}:
                return True
            if isinstance(node, ast.JoinedStr):
                return True
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and " " in node.value.strip():
                return True
    return False


def refusals_by_type(tree: ast.AST) -> list[int]:
    """Lines of branches a type test guards that report a problem."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_test(node.test):
            if _refuses(node.body) or _refuses(node.orelse):
                lines.append(node.lineno)
        elif isinstance(node, ast.IfExp) and _is_type_test(node.test):
            if _refuses([node.body]) or _refuses([node.orelse]):
                lines.append(node.lineno)
        elif isinstance(node, ast.comprehension) and any(_is_type_test(t) for t in node.ifs):
            lines.append(node.ifs[0].lineno)  # a filter on a value's type drops what the format should refuse
    return lines


def explainer_words(tree: ast.AST) -> list[str]:
    texts = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    return [text for text in texts if any(words in text for words in EXPLAINER_WORDS)]


OLD_CHECK = '''
def _bool(doc, data, key, path, problems):
    value = data[key]
    if not isinstance(value, bool):
        problems.append(doc.source.problem(path + (key,), f"{key} must be true or false, got {type_name(value)}"))
        return None
    return value
'''

DISPATCH = '''
def refs(value):
    return [(entry, False) if isinstance(entry, str) else (entry["trait"], entry.get("override", False))
            for entry in value]
'''


def test_the_scan_sees_a_hand_written_check_and_lets_a_dispatch_be():
    assert refusals_by_type(ast.parse(OLD_CHECK)) == [4]
    assert explainer_words(ast.parse(OLD_CHECK)) == [" must be true or false, got "]
    assert explainer_words(ast.parse('message = "unknown key {key!r}"')) == ["unknown key {key!r}"]
    assert refusals_by_type(ast.parse(DISPATCH)) == []
    assert "load_file" in imported_names(ast.parse("from ..source.yamlsrc import Document, load_file"))


def test_load_reads_files_only_through_the_explainer():
    assert {name: sorted(imported_names(tree) & SECOND_READERS) for name, tree in trees().items()} == {
        name: [] for name in trees()}
    readers = {name for name, tree in trees().items() if "read_checked" in imported_names(tree)}
    assert readers == {"catalog.py", "overlays.py", "preferences.py", "traits.py"}


def test_no_type_test_in_load_refuses_a_value():
    assert {name: refusals_by_type(tree) for name, tree in trees().items()} == {name: [] for name in trees()}


def test_load_does_not_word_shape_mistakes():
    assert {name: explainer_words(tree) for name, tree in trees().items()} == {name: [] for name in trees()}
