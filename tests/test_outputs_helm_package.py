"""The packaged chart (outputs/helm.py `package`, `helm_files`): a reproducible `helm package` archive.

`package` lays the chart out as ``<chart>/<file>`` in a gzipped tar, with every
field that could differ between two builds fixed: entries sorted, mtime 0, mode
0644, owner root with no names, and a gzip header with neither name nor time,
compressed at zlib's level 6. `helm_files` puts the chart under
``helm/common-instancetypes/`` and adds the archive, named after the chart
version, only when asked to.
"""

from __future__ import annotations

import dataclasses
import gzip
import io
import struct
import tarfile
import zlib

from generator.outputs.context import OutputContext
from generator.outputs.helm import chart_files, chart_version, helm_files, package
from tests.helpers import default_build

FILES = {"values.yaml": b"a: 1\n", "Chart.yaml": b"name: x\n", "templates/z.yaml": b"", "README.md": b"# r\n"}


def context(helm_package: bool = False) -> OutputContext:
    build = default_build()
    return OutputContext(build.catalog, build.version, build.objects, build.bundles, helm_package,
                         documents=build.documents)


def members(archive: bytes) -> list[tarfile.TarInfo]:
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
        return tar.getmembers()


def test_the_package_holds_each_file_under_the_chart_name_in_sorted_order():
    archive = package(FILES)
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
        names = tar.getnames()
        contents = {name: tar.extractfile(name).read() for name in names}
    assert names == ["common-instancetypes/Chart.yaml", "common-instancetypes/README.md",
                     "common-instancetypes/templates/z.yaml", "common-instancetypes/values.yaml"]
    assert contents == {f"common-instancetypes/{name}": data for name, data in FILES.items()}


def test_the_package_takes_the_chart_name_it_is_given():
    assert [m.name for m in members(package({"a": b"1"}, "other"))] == ["other/a"]


def test_every_entry_is_a_root_owned_0644_file_of_time_zero():
    for member in members(package(FILES)):
        assert member.isfile()
        assert (member.mode, member.mtime, member.uid, member.gid, member.uname, member.gname) == \
            (0o644, 0, 0, 0, "", ""), member.name
        assert member.size == len(FILES[member.name.partition("/")[2]])


def test_the_tar_is_pax_and_the_gzip_header_has_no_name_and_no_time():
    archive = package(FILES)
    magic, method, flags, mtime, extra, _os = struct.unpack("<2sBBIBB", archive[:10])
    assert (magic, method, flags, mtime, extra) == (b"\x1f\x8b", 8, 0, 0, 0)  # no FNAME flag; xfl 0: level 6
    raw = gzip.decompress(archive)
    with tarfile.open(fileobj=io.BytesIO(raw), mode="r:") as tar:
        assert tar.getmembers()[0].name == "common-instancetypes/Chart.yaml"
    # PAX: a header with the ustar magic; the entry names are short enough to need no extended header
    assert raw[257:263] == b"ustar\x00"


def test_the_package_is_deflated_at_zlibs_default_level_as_helm_package_does():
    archive = package(FILES)
    raw = gzip.decompress(archive)
    deflate = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    assert archive[10:-8] == deflate.compress(raw) + deflate.flush()
    assert struct.unpack("<II", archive[-8:]) == (zlib.crc32(raw), len(raw))


def test_the_same_files_always_give_the_same_bytes():
    assert package(FILES) == package(dict(reversed(FILES.items())))


def test_the_chart_is_written_under_helm_common_instancetypes_without_an_archive_unless_asked():
    ctx = context()
    files = chart_files(ctx)
    out = helm_files(ctx)
    assert out == {f"helm/common-instancetypes/{name}": data for name, data in files.items()}


def test_asked_for_the_package_the_archive_is_named_after_the_chart_version():
    ctx = context(helm_package=True)
    out = helm_files(ctx)
    archive = f"helm/common-instancetypes-{chart_version(ctx.version)}.tgz"
    assert [name for name in out if not name.startswith("helm/common-instancetypes/")] == [archive]
    assert out[archive] == package(chart_files(ctx))


def test_the_archive_name_follows_the_catalog_version():
    ctx = dataclasses.replace(context(helm_package=True), version="v2")
    assert "helm/common-instancetypes-2.0.0.tgz" in helm_files(ctx)


def test_the_built_in_chart_is_deflated_at_level_6_not_merely_a_level_giving_the_same_bytes_for_small_files():
    """Levels 6 and 7 differ on the whole chart (its objects.json repeats much), not on a few short files."""
    archive = package(chart_files(context()))
    raw = gzip.decompress(archive)

    def deflated(level: int) -> bytes:
        deflate = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
        return deflate.compress(raw) + deflate.flush()

    assert archive[10:-8] == deflated(6) != deflated(7)
