"""The API server's admission of a ValidatingAdmissionPolicy, imitated with a real CEL engine.

The engine is cel-expr-python: Google's C++ CEL, with its strings extension at
version 2, the version Kubernetes 1.30 and later register (cel-go's
``ext.Strings(ext.StringsVersion(2))``, k8s.io/apiserver pkg/cel/environment/base.go),
which holds the ``lowerAscii()`` and ``replace()`` the policy calls. No Python
engine implements Kubernetes' own libraries (lists, regex, quantity, ...);
the policy calls none of them, and an expression that did would not compile
here. What the API server checks when it admits the policy object is what
``compile`` checks (pkg/admission/plugin/cel/compile.go): the expression parses
(CEL's 100,000-code-point limit, which the C++ parser enforces as cel-go does,
and no surrogate escapes, which both refuse), type-checks, and returns the type
the field needs (bool for a validation, string for a message). Kubernetes sets
no compile-time cost limit for an admission policy; at run time each
expression may cost 1,000,000 units, which the policy's handful of field tests
and one map lookup per rule are far below.

What a request is told follows validator.go: a message over 5 KiB, or with a
line break, is replaced by "failed expression: ..." (``shown``).
"""

from __future__ import annotations

from typing import Any, Mapping

import pytest

cel = pytest.importorskip("cel_expr_python.cel")
ext_strings = pytest.importorskip("cel_expr_python.ext.ext_strings")

#: Kubernetes' strings extension version (1.29 and later).
STRINGS_VERSION = 2
#: k8s.io/apiserver pkg/apis/cel/config.go: MaxEvaluatedMessageExpressionSizeBytes.
MAX_MESSAGE_BYTES = 5 * 1024


def environment() -> Any:
    return cel.NewEnv(variables={"object": cel.Type.DYN, "oldObject": cel.Type.DYN, "variables": cel.Type.DYN},
                      extensions=[ext_strings.ExtStrings(STRINGS_VERSION)])


def compile_as(env: Any, expression: str, returns: Any = None) -> Any:
    """``expression`` compiled as the API server compiles it; AssertionError when it returns another type.

    A variable may be of any type (``returns`` None); ``dyn`` is taken for any type.
    """
    compiled = env.compile(expression)
    kind = compiled.return_type()
    assert returns is None or kind == returns or kind == cel.Type.DYN, f"returns {kind.name()}: {expression[:200]}"
    return compiled


def shown(message: str, expression: str) -> str:
    """What the API server shows of a message (validator.go): trimmed, or the failed expression instead."""
    message = message.strip()
    if not message or len(message.encode()) > MAX_MESSAGE_BYTES or "\n" in message:
        return f"failed expression: {expression}"
    return message


class Admission:
    """One policy as the API server runs it: its variables in order, then each validation."""

    def __init__(self, policy: Mapping[str, Any]):
        self.env = environment()
        spec = policy["spec"]
        self.variables = [(v["name"], compile_as(self.env, v["expression"]))
                          for v in spec["variables"]]
        self.validations = [(v["expression"], compile_as(self.env, v["expression"], cel.Type.BOOL),
                             compile_as(self.env, v["messageExpression"], cel.Type.STRING))
                            for v in spec["validations"]]

    def messages(self, obj: Mapping[str, Any], old: Mapping[str, Any] | None = None) -> list[str]:
        """What the request is told: the message of every validation that fails, in order, as shown."""
        variables: dict[str, Any] = {}
        data: dict[str, Any] = {"object": dict(obj), "oldObject": None if old is None else dict(old),
                                "variables": variables}
        for name, expression in self.variables:
            variables[name] = expression.eval(data=data).plain_value()
        found = []
        for text, valid, said in self.validations:
            result = valid.eval(data=data).value()
            assert isinstance(result, bool)
            if not result:
                found.append(shown(said.eval(data=data).value(), text))
        return found
