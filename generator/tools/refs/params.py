"""Template parameters: a name written as ``${NAME}`` or ``${{NAME}}``, resolved through the parameter's default.

Two engines turn a template into a VirtualMachine with parameters, and both are read:

- virt-template's VirtualMachineTemplate (template.kubevirt.io v1alpha1 and v1beta1;
  ``staging/src/kubevirt.io/virt-template-engine/template/template.go`` at v0.2.2);
- OpenShift's Template (template.openshift.io/v1, or ``apiVersion: v1``; openshift/library-go
  ``pkg/template/templateprocessing/template.go``).

Both replace ``${NAME}`` anywhere in a string (several times, with text around it)
and ``${{NAME}}`` when it is the whole string, with the parameter's value. A
parameter's value is its ``value`` when it has one; otherwise it is generated
(``generate``), demanded (``required``) or empty, and known only when the template is
processed: a name that depends on it is unchecked, never reported as unknown. A
``${NAME}`` naming no parameter of the template differs between the two: virt-template's
webhook refuses the template (``references undefined parameter NAME``, ``ValidateParameterReferences``
in ``parameters.go``), OpenShift leaves the text as it is written.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from ...frozen import frozen
from ...problems import Path, excerpt

#: ``${NAME}``, anywhere in a string (both engines: letters, digits and ``_``).
STRING_PARAMETER = re.compile(r"\$\{([a-zA-Z0-9_]+)\}")
#: ``${{NAME}}``, the whole string: the value as it is, not as text (JSON of another type).
WHOLE_PARAMETER = re.compile(r"\$\{\{([a-zA-Z0-9_]+)\}\}")


@frozen
class Parameter:
    """One parameter of a template: its default, or why it has none; ``at`` is where its ``value`` is written."""

    name: str
    value: str | None
    missing: str | None = None
    at: Path = ()


@frozen
class Parameters:
    """A template's parameters by name, and how its engine treats a parameter it does not define."""

    engine: str
    known: Mapping[str, Parameter]
    strict: bool


@frozen
class Resolved:
    """A string with its parameters replaced.

    ``text`` is the string as the engine makes it, or None when a parameter it uses
    has no default: ``unchecked`` says why. ``parameter`` is the parameter it depends
    on (the first, when it uses several); ``at`` is where the whole text is written
    when it is one parameter's default; ``undefined`` a parameter the template does
    not define, for a strict engine a mistake.
    """

    text: str | None
    unchecked: str | None = None
    parameter: str | None = None
    at: Path | None = None
    undefined: str | None = None


def parameters(items: Any, engine: str, *, strict: bool, at: Path) -> Parameters:
    """The parameters of a template's list ``items`` (written at ``at``); entries without a name are passed over."""
    known: dict[str, Parameter] = {}
    for index, item in enumerate(items if isinstance(items, list) else ()):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            continue
        name, value = item["name"], item.get("value")
        if isinstance(value, str) and value:
            known[name] = Parameter(name, value, None, at + (index, "value"))
        elif isinstance(item.get("generate"), str) and item["generate"]:
            known[name] = Parameter(name, None, f"is generated ({excerpt(item['generate'])}) when the template is "
                                    "processed")
        elif item.get("required") is True:
            known[name] = Parameter(name, None, "is required and has no default: it is given when the template "
                                    "is processed")
        else:
            known[name] = Parameter(name, None, "has no default value: it is empty unless given when the template "
                                    "is processed")
    return Parameters(engine, known, strict)


def resolve(text: str, given: Parameters) -> Resolved:
    """``text`` with every parameter replaced by its default, as ``given``'s engine would."""
    whole = WHOLE_PARAMETER.fullmatch(text)
    if whole:
        return _one(whole.group(1), given, whole=True)
    used = STRING_PARAMETER.findall(text)
    if not used:
        return Resolved(text)
    if text == f"${{{used[0]}}}":
        return _one(used[0], given)
    values: dict[str, str] = {}
    for name in used:
        found = _one(name, given)
        if found.text is None:
            return found
        values[name] = found.text
    return Resolved(STRING_PARAMETER.sub(lambda m: values[m.group(1)], text), parameter=used[0])


def _one(name: str, given: Parameters, *, whole: bool = False) -> Resolved:
    """The value a single parameter reference stands for."""
    parameter = given.known.get(name)
    written = f"${{{{{name}}}}}" if whole else f"${{{name}}}"
    if parameter is None:
        if given.strict:
            return Resolved(None, f"{written} names no parameter of the template", name, undefined=name)
        return Resolved(None, f"{written} names no parameter of the template; {given.engine} leaves it as written",
                        name)
    if parameter.value is None:
        return Resolved(None, f"parameter {name} {parameter.missing}", name)
    return Resolved(parameter.value, parameter=name, at=parameter.at)
