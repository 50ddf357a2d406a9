"""Objects the vmexpand tests write: a VirtualMachine, an instancetype spec, and the expanded template spec.

Not a test file: the test files of several ``generator/tools/vmexpand`` modules import it.
"""

from __future__ import annotations


def vm(**template_spec) -> dict:
    spec = {"domain": {}}
    spec.update(template_spec)
    return {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": {"name": "t"},
            "spec": {"template": {"spec": spec}}}


def instancetype(cpu: int = 2, memory: str = "2Gi", **extra) -> dict:
    spec = {"cpu": {"guest": cpu}, "memory": {"guest": memory}}
    for key, value in extra.items():
        if key in ("cpu_extra", "memory_extra"):
            spec[key.split("_")[0]].update(value)
        else:
            spec[key] = value
    return spec


def template_spec(result) -> dict:
    assert result.errors == ()
    return result.vm["spec"]["template"]["spec"]
