"""One error hierarchy. The CLI turns a CitgenError into a message and exit code.

Exit codes are decided once, here: 0 clean, 1 problems found in what was
validated, 2 usage or input error (a mistake in a catalog, overlay, template or
file handed to the tool).
"""

from __future__ import annotations

from typing import Iterable

from .problems import Location, Problem, sort_problems


class CitgenError(Exception):
    """Base of every error the tool reports to a user without a traceback."""

    exit_code = 2

    def __init__(self, problems: Iterable[Problem] | str):
        if isinstance(problems, str):
            problems = [Problem(Location("citgen"), problems)]
        self.problems: list[Problem] = sort_problems(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class InputError(CitgenError):
    """The catalog, an overlay, a template or a given file is unusable as written."""

    @classmethod
    def at(cls, location: Location, message: str) -> "InputError":
        return cls([Problem(location, message)])


class ValidationFailed(CitgenError):
    """Generated or given objects break the schema or a rule; nothing was written."""

    exit_code = 1
