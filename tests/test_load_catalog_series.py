"""Loading a small catalog: its size matrices, its series, and every problem reported in one run.

Each test writes a catalog of its own (catalog.yaml, series/sizes.yaml and a series or
two) so that what load_catalog returns can be compared whole, locations included, and
what it refuses is the only problem there is.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from generator.errors import InputError
from generator.load.catalog import _spec_problems, load_catalog, series_files
from generator.model import Deprecation, Series, Size, SizeMatrix, Variant
from generator.problems import Location, Problem
from generator.source.yamlsrc import load_text

CATALOG = "vendor: example.com\nversion: v1\n"
#: ``tiny`` comes first so that messages listing the matrices show them sorted.
SIZES = ("matrices:\n"
         "  tiny:\n"
         "    one: 1\n"
         "  standard:\n"
         "    small: {cpu: 1, memory: 2Gi}\n"
         "    medium: 1\n"
         "    large: 2\n"
         "    xlarge: 5\n")
SERIES = ("prefix: a\n"
          "version: 1\n"
          "class: general.purpose\n"
          "displayName: A\n"
          "description: d\n"
          "icon: i\n"
          "ratio: \"1:4\"\n")
GI = 1024**3
EXTRA = Problem(Location("--gpu-count"), "an option's problem")


@pytest.fixture
def make(tmp_path: Path):
    """Writes a catalog: catalog.yaml and series/sizes.yaml unless ``files`` says otherwise (None: absent)."""

    def write(files: dict[str, str | None]) -> Path:
        root = tmp_path / "catalog"
        for name, text in {"catalog.yaml": CATALOG, "series/sizes.yaml": SIZES, **files}.items():
            if text is not None:
                (root / name).parent.mkdir(parents=True, exist_ok=True)
                (root / name).write_text(text)
        return root

    return write


def problems(root: Path | str, extra: tuple[Problem, ...] = ()) -> list[str]:
    with pytest.raises(InputError) as caught:
        load_catalog(root, extra_problems=extra)
    return [str(p) for p in caught.value.problems]


def at(file: str, line: int, column: int, *path: str | int) -> Location:
    return Location(file, line, column, tuple(path))


# --------------------------------------------------------------------------- size matrices


def test_size_matrices_are_read_with_fixed_or_ratio_derived_memory_and_located(make):
    loaded = load_catalog(make({}))
    assert loaded.matrices == {
        "tiny": SizeMatrix("tiny", (Size("one", 1, None, at("series/sizes.yaml", 3, 10, "matrices", "tiny", "one")),),
                           at("series/sizes.yaml", 3, 5, "matrices", "tiny")),
        "standard": SizeMatrix("standard", (
            Size("small", 1, 2 * GI, at("series/sizes.yaml", 5, 12, "matrices", "standard", "small")),
            Size("medium", 1, None, at("series/sizes.yaml", 6, 13, "matrices", "standard", "medium")),
            Size("large", 2, None, at("series/sizes.yaml", 7, 12, "matrices", "standard", "large")),
            Size("xlarge", 5, None, at("series/sizes.yaml", 8, 13, "matrices", "standard", "xlarge")),
        ), at("series/sizes.yaml", 5, 5, "matrices", "standard")),
    }
    assert list(loaded.matrices) == ["tiny", "standard"]


def test_a_fixed_memory_is_read_in_bytes_whatever_its_unit(make):
    loaded = load_catalog(make({"series/sizes.yaml": "matrices:\n  m:\n    a: {cpu: 3, memory: 1536Mi}\n"
                                                     "    b: {cpu: 1, memory: 1G}\n"}))
    assert [(s.name, s.cpu, s.memory) for s in loaded.matrices["m"].sizes] == [
        ("a", 3, 1536 * 1024**2), ("b", 1, 10**9)]
    assert type(loaded.matrices["m"].sizes[1].memory) is int


# --------------------------------------------------------------------------- a series


def test_a_series_with_every_key_is_read_as_written(make):
    root = make({"series/a.yaml": SERIES.replace('"1:4"', '"2:3"') + (
        "matrix: standard\n"               # 8
        "sizes: {from: medium}\n"          # 9
        "features:\n"                      # 10
        "  hugepages: 2Mi\n"               # 11
        "spec:\n"                          # 12
        "  annotations: {k: v}\n"          # 13
        "variants:\n"                      # 14
        "  zz: {hugepages: 1Gi}\n"         # 15
        "  1gi: {numa: true}\n"            # 16
        "deprecated: true\n")})
    [series] = load_catalog(root).series
    assert series == Series(
        prefix="a", version=1, cls="general.purpose", display_name="A", description="d", icon="i",
        ratio=Fraction(3, 2), matrix="standard", sizes=("medium", "large", "xlarge"),
        features={"hugepages": "2Mi"}, spec={"annotations": {"k": "v"}},
        variants=(Variant("1gi", {"numa": True}, at("series/a.yaml", 16, 8, "variants", "1gi")),
                  Variant("zz", {"hugepages": "1Gi"}, at("series/a.yaml", 15, 7, "variants", "zz"))),
        deprecated=True, location=at("series/a.yaml", 1, 1),
        deprecation=Deprecation(at("series/a.yaml", 17, 1, "deprecated")))


def test_a_series_with_only_the_required_keys_takes_the_defaults(make):
    [series] = load_catalog(make({"series/a.yaml": SERIES})).series
    assert series == Series(
        prefix="a", version=1, cls="general.purpose", display_name="A", description="d", icon="i",
        ratio=Fraction(4), matrix="standard", sizes=("small", "medium", "large", "xlarge"),
        features={}, spec={}, variants=(), deprecated=False, location=at("series/a.yaml", 1, 1))


def test_a_series_not_deprecated_says_so(make):
    [series] = load_catalog(make({"series/a.yaml": SERIES + "deprecated: false\n"})).series
    assert series.deprecated is False


def test_a_series_on_another_matrix_takes_its_sizes(make):
    [series] = load_catalog(make({"series/a.yaml": SERIES + "matrix: tiny\n"})).series
    assert (series.matrix, series.sizes) == ("tiny", ("one",))


def test_series_are_loaded_in_the_order_of_their_file_names(make):
    root = make({"series/b.yaml": SERIES.replace("prefix: a", "prefix: b"),
                 "series/a.yaml": SERIES.replace("prefix: a", "prefix: z"),
                 "series/c.yaml": SERIES.replace("prefix: a", "prefix: c")})
    assert [s.prefix for s in load_catalog(root).series] == ["z", "b", "c"]


def test_a_catalog_without_series_loads_with_none(make):
    assert load_catalog(make({})).series == ()


def test_a_catalog_named_by_text_is_loaded_as_a_path(make):
    root = make({"series/a.yaml": SERIES})
    loaded = load_catalog(str(root))
    assert loaded.root == root
    assert isinstance(loaded.root, Path)
    assert loaded.base is None
    assert loaded.changes == ()


# --------------------------------------------------------------------------- which files are series


def test_series_files_are_every_yaml_file_of_series_but_the_size_matrices_by_name(tmp_path):
    for name in ("sizes.yaml", "b.yaml", "a.yaml", "notes.txt", "c.yml"):
        (tmp_path / "series").mkdir(exist_ok=True)
        (tmp_path / "series" / name).write_text("x: 1\n")
    assert series_files(tmp_path) == ["series/a.yaml", "series/b.yaml"]


def test_no_series_folder_means_no_series_files(tmp_path):
    assert series_files(tmp_path) == []


def test_a_series_folder_that_cannot_be_read_is_refused_by_name(tmp_path):
    (tmp_path / "series").symlink_to(tmp_path / "series")
    with pytest.raises(InputError) as caught:
        series_files(tmp_path)
    assert [str(p) for p in caught.value.problems] == [
        "series: is a symbolic link loop: following its links never reaches a file"]


# --------------------------------------------------------------------------- a series' matrix and ratio


def test_an_undefined_matrix_is_named_with_the_defined_ones_sorted(make):
    root = make({"series/a.yaml": SERIES + "matrix: netwrok\n"})
    assert problems(root) == [
        "series/a.yaml:8:9: matrix: size matrix 'netwrok' is not defined in series/sizes.yaml "
        "(defined: standard, tiny)"]


def test_without_a_matrix_key_a_series_needs_the_standard_matrix(make):
    root = make({"series/sizes.yaml": "matrices:\n  other:\n    one: 1\n", "series/a.yaml": SERIES})
    assert problems(root) == [
        "series/a.yaml:1:1: matrix: size matrix 'standard' is not defined in series/sizes.yaml (defined: other)"]


def test_a_ratio_giving_fractions_of_bytes_names_the_sizes_it_derives(make):
    root = make({"series/a.yaml": SERIES.replace('"1:4"', '"1:0.3"')})
    assert problems(root) == [
        "series/a.yaml:7:8: ratio: ratio '1:0.3' does not give a whole number of bytes of memory for sizes "
        "medium, large; use a ratio in whole MiB per vCPU such as \"1:0.5\", or give those sizes a fixed memory "
        "in series/sizes.yaml"]


def test_a_ratio_giving_fractions_of_bytes_for_one_size_names_it_in_the_singular(make):
    root = make({"series/a.yaml": SERIES.replace('"1:4"', '"1:0.3"') + "sizes: [small, large, xlarge]\n"})
    assert problems(root) == [
        "series/a.yaml:7:8: ratio: ratio '1:0.3' does not give a whole number of bytes of memory for size "
        "large; use a ratio in whole MiB per vCPU such as \"1:0.5\", or give those sizes a fixed memory "
        "in series/sizes.yaml"]


def test_a_ratio_whole_for_the_selected_derived_sizes_is_accepted(make):
    root = make({"series/a.yaml": SERIES.replace('"1:4"', '"1:0.3"') + "sizes: [small, xlarge]\n"})
    [series] = load_catalog(root).series
    assert (series.ratio, series.sizes) == (Fraction(3, 10), ("small", "xlarge"))


def test_a_ratio_in_whole_mib_per_vcpu_is_accepted(make):
    [series] = load_catalog(make({"series/a.yaml": SERIES.replace('"1:4"', '"1:0.5"')})).series
    assert series.ratio == Fraction(1, 2)


#: 2**-31 GiB, half a byte, per vCPU: whole for an even vCPU count only.
HALF_A_BYTE = "0.0000000004656612873077392578125"


def test_a_ratio_of_half_a_byte_per_vcpu_is_uneven_for_odd_vcpu_counts_only(make):
    root = make({"series/a.yaml": SERIES.replace('"1:4"', f'"1:{HALF_A_BYTE}"')})
    assert problems(root) == [
        f"series/a.yaml:7:8: ratio: ratio '1:{HALF_A_BYTE}' does not give a whole number of bytes of memory for "
        "sizes medium, xlarge; use a ratio in whole MiB per vCPU such as \"1:0.5\", or give those sizes a fixed "
        "memory in series/sizes.yaml"]


def test_a_ratio_of_half_a_mib_per_vcpu_gives_whole_bytes(make):
    [series] = load_catalog(make({"series/a.yaml": SERIES.replace('"1:4"', '"1:0.00048828125"')})).series
    assert series.ratio == Fraction(1, 2048)


def test_an_unknown_size_is_reported_alone_though_the_ratio_is_uneven_too(make):
    root = make({"series/a.yaml": SERIES.replace('"1:4"', '"1:0.3"') + "sizes: [huge]\n"})
    assert problems(root) == [
        "series/a.yaml:8:9: sizes[0]: size 'huge' is not in size matrix 'standard' "
        "(it has: small, medium, large, xlarge)"]


def test_an_uneven_ratio_and_a_broken_spec_are_both_reported_ratio_first(make):
    root = make({"series/a.yaml": SERIES.replace('"1:4"', '"1:0.3"') + "sizes: [large]\nspec: {cpu: 3}\n"})
    assert problems(root) == [
        "series/a.yaml:7:8: ratio: ratio '1:0.3' does not give a whole number of bytes of memory for size "
        "large; use a ratio in whole MiB per vCPU such as \"1:0.5\", or give those sizes a fixed memory "
        "in series/sizes.yaml",
        "series/a.yaml:9:13: spec.cpu: expected object, got integer 3"]


# --------------------------------------------------------------------------- a series' spec fragment


def spec_problems(text: str) -> list[str]:
    """Private helper, tested on purpose: _spec_problems is the schema probe of a series, whose filtering of paths
    outside spec no broken catalog isolates.
    """
    return [str(p) for p in _spec_problems(load_text(text, "series/a.yaml"))]


def test_a_series_without_spec_has_no_spec_problems():
    assert spec_problems("prefix: a\n") == []


def test_a_spec_fragment_of_the_wrong_shape_is_located_at_its_value():
    assert spec_problems("spec: {cpu: 3}\n") == ["series/a.yaml:1:13: spec.cpu: expected object, got integer 3"]


def test_an_unknown_field_of_the_spec_is_located_at_its_key():
    assert spec_problems("spec:\n  cpu:\n    guets: 2\n") == [
        "series/a.yaml:3:5: spec.cpu.guets: unknown field 'guets'; did you mean 'guest'?"]


def test_a_spec_number_must_be_written_whole():
    assert spec_problems("spec: {cpu: {guest: 2.0}}\n") == [
        "series/a.yaml:1:21: spec.cpu.guest: expected a whole number, got 2.0"]


@pytest.mark.parametrize("spec", [
    "{}", "{cpu: {model: host-passthrough}}", "{memory: {overcommitPercent: 10}}", "{annotations: {a: b}}",
    "{cpu: {guest: 4}, memory: {guest: 2Gi}}",
])
def test_a_spec_fragment_need_not_give_the_vcpus_and_memory_the_sizes_give(spec):
    assert spec_problems(f"spec: {spec}\n") == []


def test_a_broken_spec_keeps_the_series_out_and_is_reported(make):
    root = make({"series/a.yaml": SERIES + "spec:\n  cpu:\n    guets: 2\n"})
    assert problems(root) == ["series/a.yaml:10:5: spec.cpu.guets: unknown field 'guets'; did you mean 'guest'?"]


# --------------------------------------------------------------------------- every problem, in one run


def test_a_series_symbolic_link_out_of_the_catalog_is_refused(make, tmp_path):
    root = make({})
    (tmp_path / "elsewhere.yaml").write_text(SERIES)
    (root / "series" / "a.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    assert problems(root) == [
        "series/a.yaml: is a symbolic link to a file outside the catalog directory; citgen reads only files "
        "inside the catalog"]


def test_a_catalog_folder_that_cannot_be_read_is_refused_by_the_name_given(tmp_path):
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    assert problems(str(tmp_path / "loop")) == [
        f"{tmp_path / 'loop'}: is a symbolic link loop: following its links never reaches a file"]


def test_a_missing_size_matrix_file_is_reported_and_series_are_not_checked_against_it(make):
    root = make({"series/sizes.yaml": None, "series/a.yaml": SERIES + "matrix: nowhere\n"})
    assert problems(root) == ["series/sizes.yaml: no such file or folder"]


def test_a_broken_size_matrix_file_is_reported_and_series_are_not_checked_against_it(make):
    root = make({"series/sizes.yaml": "matrices: {}\n", "series/a.yaml": SERIES + "matrix: nowhere\n"})
    assert problems(root) == ["series/sizes.yaml:1:11: matrices: expected at least one entry, got an empty mapping"]


def test_a_broken_series_file_does_not_keep_the_others_from_being_checked(make):
    root = make({"series/a.yaml": "prefix: a\n", "series/b.yaml": SERIES + "matrix: nowhere\n",
                 "series/c.yaml": SERIES.replace("prefix: a", "prefix: c")})
    assert problems(root) == [
        *(f"series/a.yaml:1:1: missing required key '{key}'"
          for key in ("class", "description", "displayName", "icon", "ratio", "version")),
        "series/b.yaml:8:9: matrix: size matrix 'nowhere' is not defined in series/sizes.yaml "
        "(defined: standard, tiny)"]


def test_a_broken_catalog_file_alone_is_reported(make):
    root = make({"catalog.yaml": "vendor: example.com\n", "series/a.yaml": SERIES})
    assert problems(root) == ["catalog.yaml:1:1: missing required key 'version'"]


def test_a_broken_catalog_file_is_reported_with_the_series_problems(make):
    root = make({"catalog.yaml": "vendor: example.com\noverlays: [gone.yaml]\n",
                 "series/a.yaml": SERIES + "matrix: nowhere\n"})
    assert problems(root) == [
        "catalog.yaml:1:1: missing required key 'version'",
        "series/a.yaml:8:9: matrix: size matrix 'nowhere' is not defined in series/sizes.yaml "
        "(defined: standard, tiny)"]


def test_problems_of_files_options_series_and_settings_are_reported_together_sorted(make):
    root = make({"catalog.yaml": CATALOG + "overlays: [gone.yaml]\nparameters:\n  gpu: {count: 2}\n",
                 "series/a.yaml": "prefix: a\nversion: 0\nclass: c\ndisplayName: A\ndescription: d\nicon: i\n"
                                  "ratio: \"1:4\"\n",
                 "series/b.yaml": SERIES + "matrix: nowhere\n"})
    assert problems(root, (EXTRA,)) == [
        "--gpu-count: an option's problem",
        f"catalog.yaml:3:12: overlays[0]: overlay file 'gone.yaml' not found in {root}",
        "catalog.yaml:5:3: parameters.gpu: sets how many GPUs each GN instancetype gets, but no GPU device is "
        "configured, so GN is not built; set parameters.gpu.deviceName (nvidia.com/<model>) too",
        "series/a.yaml:2:10: version: expected a number at least 1, got 0",
        "series/b.yaml:8:9: matrix: size matrix 'nowhere' is not defined in series/sizes.yaml "
        "(defined: standard, tiny)",
    ]


def test_an_extra_problem_alone_keeps_a_good_catalog_from_loading(make):
    assert problems(make({"series/a.yaml": SERIES}), (EXTRA,)) == ["--gpu-count: an option's problem"]


def test_extra_problems_may_be_any_iterable(make):
    root = make({})
    with pytest.raises(InputError) as caught:
        load_catalog(root, extra_problems=iter([EXTRA, EXTRA]))
    assert caught.value.problems == [EXTRA, EXTRA]


def test_a_folder_without_catalog_yaml_is_no_catalog(make):
    root = make({"catalog.yaml": None})
    assert problems(root) == [f"{root}: not a catalog directory: catalog.yaml is missing"]


def test_a_missing_folder_is_no_catalog(tmp_path):
    nowhere = tmp_path / "nowhere"
    assert problems(nowhere) == [f"{nowhere}: not a catalog directory: catalog.yaml is missing"]


def test_a_catalog_path_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "file").write_text("x")
    assert problems(tmp_path / "file") == [f"{tmp_path / 'file'}: is a regular file, not a directory"]
