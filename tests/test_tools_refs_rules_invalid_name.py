"""generator/tools/refs/rules/invalid_name.py: a name no object can have is not an unknown name.

Upper case, spaces and anything else a DNS subdomain refuses can match no object in any
cluster: the finding says why, with the nearest names; a name the manifests define
resolves (the definition's own problem is elsewhere), and a valid name says nothing here.
"""

from __future__ import annotations

from generator.problems import Location
from generator.tools.refs.model import Definition
from generator.tools.refs.rules import invalid_name, unknown_name
from tests.refrules import CIT, CPREF, findings, made, obj, ref

TARGET = made(obj(CIT, "u1.medium"), obj(CIT, "u1.small"), obj(CPREF, "fedora"))
SUBDOMAIN = ("a DNS-1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
             "and end with an alphanumeric character")


def test_upper_case_is_no_name_and_its_lower_case_is_offered_first():
    assert invalid_name.ID == "invalid-name"
    assert findings(invalid_name, ref("instancetype", "U1.medium"), target=TARGET) == [
        "vm.yaml:8:11: spec.instancetype.name: names instancetype 'U1.medium', which is no "
        f"name an object can have: {SUBDOMAIN}; did you mean 'u1.medium'? [invalid-name]"]


def test_a_name_with_spaces_is_said_to_be_no_name_and_never_unknown():
    said = findings(invalid_name, ref("preference", "my fedora vm"), target=TARGET)
    assert said == [f"vm.yaml:8:11: spec.preference.name: names preference 'my fedora vm', "
                    f"which is no name an object can have: {SUBDOMAIN}; did you mean 'fedora'? [invalid-name]"]
    assert findings(unknown_name, ref("preference", "my fedora vm"), target=TARGET) == []


def test_a_valid_name_or_one_defined_says_nothing():
    assert findings(invalid_name, ref("instancetype", "u9.medium"), ref("preference", "fedora"), target=TARGET) == []
    mine = (Definition("preference", CPREF, "Mine", None, Location("p.yaml", 4, 9)),)
    assert findings(invalid_name, ref("preference", "Mine"), target=TARGET, definitions=mine) == []
