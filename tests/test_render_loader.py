"""The template loader: every template read as any input file is read, the catalog's folder first.

Templates are found in the catalog's templates folder, then in the built-in one;
each is a regular file within the size limit and not a link out of its catalog,
and one that is there but cannot be read is refused by its template name rather
than taken from the next folder.
"""

from __future__ import annotations

import os
from pathlib import Path

import jinja2
import pytest

from generator.render.loader import TemplateLoader
from generator.source.inputfiles import Limits, limited
from tests.readers import ONLY_REGULAR, OUTSIDE, WHOLE, refusal, too_large, unsearchable, write


def template_folders(tmp_path: Path) -> tuple[Path, Path]:
    first, second = tmp_path / "catalog" / "templates", tmp_path / "builtin" / "templates"
    first.mkdir(parents=True)
    second.mkdir(parents=True)
    return first, second


def test_a_template_is_read_from_the_first_folder_that_has_it(tmp_path: Path):
    first, second = template_folders(tmp_path)
    write(first / "a.j2", b"first {{ x }}")
    write(second / "a.j2", b"second")
    write(second / "b.j2", b"only the second\r\n")
    loader = TemplateLoader([str(first), str(second)])
    env = jinja2.Environment(loader=loader)
    source, filename, uptodate = loader.get_source(env, "a.j2")
    assert (source, filename, uptodate()) == ("first {{ x }}", str(first / "a.j2"), True)
    assert loader.get_source(env, "b.j2")[:2] == ("only the second\n", str(second / "b.j2"))
    assert env.get_template("a.j2").render(x=1) == "first 1"


def test_a_template_in_a_subfolder_is_found(tmp_path: Path):
    first, _ = template_folders(tmp_path)
    (first / "parts").mkdir()
    write(first / "parts" / "p.j2", b"part")
    loader = TemplateLoader([str(first)])
    assert loader.get_source(jinja2.Environment(), "parts/p.j2")[:2] == ("part", str(first / "parts" / "p.j2"))


def test_the_file_name_of_a_template_is_normalised(tmp_path: Path):
    first, _ = template_folders(tmp_path)
    write(first / "a.j2", b"a")
    (tmp_path / "catalog" / "other").mkdir()
    loader = TemplateLoader([f"{tmp_path}/catalog/./other/../templates"])
    assert loader.get_source(jinja2.Environment(), "a.j2")[1] == str(first / "a.j2")


def test_a_folder_named_like_the_template_is_refused_not_passed_over(tmp_path: Path):
    first, second = template_folders(tmp_path)
    (first / "a.j2").mkdir()
    write(second / "a.j2", b"second")
    loader = TemplateLoader([str(first), str(second)])
    assert refusal(loader.get_source, jinja2.Environment(), "a.j2") == [
        f"templates/a.j2: is a directory, {ONLY_REGULAR}"]


def test_a_template_in_no_folder_is_not_found(tmp_path: Path):
    first, second = template_folders(tmp_path)
    loader = TemplateLoader([str(first), str(second)])
    with pytest.raises(jinja2.TemplateNotFound) as caught:
        loader.get_source(jinja2.Environment(), "absent.j2")
    assert caught.value.name == "absent.j2"
    with pytest.raises(jinja2.TemplateNotFound):
        loader.get_source(jinja2.Environment(), "../catalog/templates/absent.j2")


def test_a_template_that_is_a_fifo_is_refused_by_its_template_name(tmp_path: Path):
    first, second = template_folders(tmp_path)
    os.mkfifo(first / "a.j2")
    write(second / "a.j2", b"second")
    loader = TemplateLoader([str(first), str(second)])
    assert refusal(loader.get_source, jinja2.Environment(), "a.j2") == [
        f"templates/a.j2: is a FIFO (named pipe), {ONLY_REGULAR}"]


def test_a_template_that_is_a_dangling_link_is_refused_not_passed_over(tmp_path: Path):
    first, second = template_folders(tmp_path)
    (first / "a.j2").symlink_to("gone.j2")
    write(second / "a.j2", b"second")
    loader = TemplateLoader([str(first), str(second)])
    assert refusal(loader.get_source, jinja2.Environment(), "a.j2") == [
        "templates/a.j2: is a symbolic link that points nowhere: 'gone.j2' does not exist"]


def test_a_template_linked_out_of_its_catalog_is_refused(tmp_path: Path):
    first, _ = template_folders(tmp_path)
    (first / "a.j2").symlink_to(write(tmp_path / "outside.j2", b"x"))
    loader = TemplateLoader([str(first)])
    assert refusal(loader.get_source, jinja2.Environment(), "a.j2") == [f"templates/a.j2: {OUTSIDE}"]


def test_a_template_linked_elsewhere_in_its_catalog_is_read(tmp_path: Path):
    first, _ = template_folders(tmp_path)
    (first / "a.j2").symlink_to(write(tmp_path / "catalog" / "shared.j2", b"shared"))
    loader = TemplateLoader([str(first)])
    assert loader.get_source(jinja2.Environment(), "a.j2")[0] == "shared"


def test_a_template_past_the_size_limit_is_refused(tmp_path: Path):
    first, _ = template_folders(tmp_path)
    write(first / "a.j2", b"12345")
    loader = TemplateLoader([str(first)])
    with limited(Limits(max_file_size=4)):
        assert refusal(loader.get_source, jinja2.Environment(), "a.j2") == [too_large("templates/a.j2", "4 bytes")]


def test_a_template_in_a_folder_that_cannot_be_entered_is_refused_not_taken_from_the_next(tmp_path: Path,
                                                                                           monkeypatch):
    first, second = template_folders(tmp_path)
    write(first / "kustomize" / "kustomization.yaml.j2", b"the vendor's")
    write(second / "kustomize" / "kustomization.yaml.j2", b"the built-in one")
    unsearchable(monkeypatch, first / "kustomize")
    loader = TemplateLoader([str(first), str(second)])
    assert refusal(loader.get_source, jinja2.Environment(), "kustomize/kustomization.yaml.j2") == [
        f"templates/kustomize: cannot read the folder: permission denied; {WHOLE}"]


def test_a_template_missing_from_the_first_folder_is_taken_from_the_next(tmp_path: Path):
    first, second = template_folders(tmp_path)
    (first / "kustomize").mkdir()
    write(second / "kustomize" / "kustomization.yaml.j2", b"the built-in one")
    loader = TemplateLoader([str(first), str(second)])
    assert loader.get_source(jinja2.Environment(), "kustomize/kustomization.yaml.j2")[0] == "the built-in one"


def test_a_template_saved_with_a_byte_order_mark_and_crlf_renders_as_without(tmp_path: Path):
    folder = write(tmp_path / "catalog" / "templates" / "a.j2", b"\xef\xbb\xbfkind: {{ kind }}\r\nname: x\r\n").parent
    env = jinja2.Environment(loader=TemplateLoader([str(folder)]), keep_trailing_newline=True)
    assert env.get_template("a.j2").render(kind="A") == "kind: A\nname: x\n"
