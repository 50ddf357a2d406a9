"""Jinja's file loader for citgen's templates: every template read as any input file is read.

Only the rendering child renders, so only it imports this module, and jinja2
with it: a command's own process never pays for the template engine.
"""

from __future__ import annotations

import os
import posixpath
from pathlib import Path
from typing import Callable

import jinja2
from jinja2.loaders import split_template_path

from ..source.inputfiles import lookup, read_text


class TemplateLoader(jinja2.FileSystemLoader):
    """Jinja's file loader reading through read_text: templates are bounded like every other input.

    A template found in a templates folder must be a regular file, within the
    size limit, and not a link leading out of the catalog holding that folder;
    earlier folders win, as with FileSystemLoader. Only a template that is not
    there passes to the next folder: one in a folder that cannot be entered, or
    that is a link to nothing, is refused rather than replaced by another.
    """

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        pieces = split_template_path(template)
        display = f"templates/{template}"
        for folder in self.searchpath:
            filename = posixpath.join(folder, *pieces)
            catalog = Path(folder).parent
            if lookup(filename, display, within=catalog) is not None:
                source = read_text(filename, display, within=catalog)
                return source, os.path.normpath(filename), lambda: True
        raise jinja2.TemplateNotFound(template)
