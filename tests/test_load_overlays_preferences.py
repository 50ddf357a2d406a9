"""Overlay traits and preferences applied to the loaded model: what each step makes, or its exact problems.

Covers traits.add (every field, its defaults, a spec KubeVirt refuses), preferences.keep/drop
(names, patterns, the exception a name makes to a pattern, contradictions, bases removed),
preferences.add (every field as the model holds it, the family a new preference joins) and
preferences.change (merged specs, requirements over the old ones, traits added), with the
changes each records and the overlay lines it records them at.
"""

from __future__ import annotations

from dataclasses import replace

from generator.model import Deprecation, Family, PreferenceDef, Requirements, Trait, TraitRef
from generator.problems import Location
from tests.test_load_overlays_settings import applied, builtin, changes, in_tmp, overlay, problems  # noqa: F401


def at(line: int, column: int, *path) -> Location:
    return Location("o.yaml", line, column, path)


def prefs(text: str):
    return applied(text)[1]


FEDORA = builtin()[1].preferences["fedora"]


# --------------------------------------------------------------------------- traits.add


def test_a_new_trait_holds_every_field_as_written_with_its_description_stripped():
    model = prefs("""\
        traits:
          add:
            serial-console:
              description: "  A serial console.  "
              spec: {devices: {preferredAutoattachSerialConsole: true}}
              tags: [console, serial]
              essential: true
        """)
    assert model.traits["serial-console"] == Trait(
        "serial-console", "A serial console.", {"devices": {"preferredAutoattachSerialConsole": True}},
        ("console", "serial"), at(3, 5, "traits", "add", "serial-console"), True)
    assert changes(model) == [(("trait", "serial-console"), "o.yaml:3:5: traits.add.serial-console")]


def test_a_new_trait_without_tags_or_essential_has_none_and_is_not_essential():
    model = prefs("traits:\n  add:\n    quiet:\n      description: Quiet.\n      spec: {clock: {preferredTimer: {}}}\n")
    assert model.traits["quiet"] == Trait("quiet", "Quiet.", {"clock": {"preferredTimer": {}}}, (),
                                          at(3, 5, "traits", "add", "quiet"), False)


def test_the_traits_stay_sorted_by_name_with_the_new_ones_among_them():
    model = prefs("traits:\n  add:\n    zz-last: {description: Z., spec: {clock: {}}}\n"
                  "    aa-first: {description: A., spec: {clock: {}}}\n")
    assert list(model.traits) == sorted([*builtin()[1].traits, "zz-last", "aa-first"])
    assert changes(model) == [(("trait", "zz-last"), "o.yaml:3:5: traits.add.zz-last"),
                              (("trait", "aa-first"), "o.yaml:4:5: traits.add.aa-first")]


def test_a_trait_that_exists_is_refused_and_the_next_one_is_still_checked():
    assert problems("""\
        traits:
          add:
            rng: {description: Again., spec: {clock: {}}}
            mine: {description: Mine., spec: {clock: {nope: 1}}}
        """) == [
        "o.yaml:3:5: traits.add.rng: trait 'rng' already exists; a new trait needs a name of its own",
        "o.yaml:4:47: traits.add.mine.spec.clock.nope: unknown field 'nope'"]


def test_a_trait_spec_kubevirt_refuses_is_reported_once_at_the_trait_and_the_trait_is_still_known():
    """Its users are not told it is unknown; problems found before it (a label key) are kept."""
    found = problems("""\
        labels: {"bad key!": x}
        traits:
          add:
            mine: {description: Mine., spec: {cpu: {spreadOptions: {across: 3}}}}
        preferences:
          add:
            mine-os: {description: Uses it., traits: [mine, nada]}
        """)
    assert [p.split(": ")[0] for p in found] == ["o.yaml:1:10", "o.yaml:4:69", "o.yaml:7:53"]
    assert found[1:] == [
        "o.yaml:4:69: traits.add.mine.spec.cpu.spreadOptions.across: expected string, got integer 3",
        "o.yaml:7:53: preferences.add.mine-os.traits[1]: unknown trait 'nada' (traits: the files of "
        "preferences/traits/ and those added under traits.add)"]


# --------------------------------------------------------------------------- preferences.keep and preferences.drop


def test_a_name_dropped_from_a_kept_pattern_is_an_exception_not_a_contradiction():
    model = prefs('preferences:\n  keep: ["windows.*"]\n  drop: [windows.xp]\n')
    assert list(model.preferences) == [n for n in builtin()[1].preferences
                                       if n.startswith("windows.") and n != "windows.xp"]
    assert model.changes == ()  # which preferences exist is a change of the catalog as a whole


def test_a_name_both_kept_and_dropped_is_refused_at_the_drop_naming_its_keep():
    assert problems('preferences:\n  keep: ["windows.*", fedora]\n  drop: [fedora]\n') == [
        "o.yaml:3:10: preferences.drop[0]: preference 'fedora' is both kept (preferences.keep[1]) and dropped; "
        "name it in one of the two lists"]


def test_removing_a_base_by_name_is_refused_at_the_entry_and_by_keep_at_the_list():
    assert problems("preferences:\n  drop: [alpine, windows.11]\n") == [
        "o.yaml:2:18: preferences.drop[1]: removes 'windows.11', which 'windows.11.virtio' is based on; "
        "remove 'windows.11.virtio' too, or keep both"]
    assert problems("preferences:\n  keep: [windows.11.virtio]\n") == [
        "o.yaml:2:3: preferences.keep: removes 'windows.11', which 'windows.11.virtio' is based on; "
        "remove 'windows.11.virtio' too, or keep both"]


def test_unknown_names_and_patterns_matching_nothing_are_each_named():
    assert problems('preferences:\n  drop: ["nothing.*", fedorra]\n  keep: ["*"]\n') == [
        "o.yaml:2:10: preferences.drop[0]: pattern 'nothing.*' matches no preference",
        "o.yaml:2:23: preferences.drop[1]: unknown preference 'fedorra'; did you mean 'fedora'?"]


# --------------------------------------------------------------------------- preferences.add


EVERY_FIELD = """\
    preferences:
      add:
        acme.os:
          displayName: "  Acme OS  "
          description: "  Acme, as written.  "
          basedOn: fedora
          osType: " linux "
          iconClass: " icon-acme "
          tags: [acme, hidden]
          traits: [rng, {trait: efi, override: true}, {trait: sata-disk}]
          requirements: {cpu: 2, memory: 3Gi}
          spec: {clock: {preferredClockOffset: {utc: {}}}}
          overrideSpec: {devices: {preferredDiskBus: sata}}
          deprecated: true
    """


def test_a_new_preference_holds_every_field_located_at_its_line():
    model = prefs(EVERY_FIELD)
    here = ("preferences", "add", "acme.os")
    assert model.preferences["acme.os"] == PreferenceDef(
        name="acme.os", family="fedora", description="  Acme, as written.  ", location=at(3, 5, *here),
        based_on="fedora", based_on_location=at(6, 16, *here, "basedOn"), display_name="Acme OS",
        os_type="linux", os_type_location=at(7, 15, *here, "osType"), icon_class="icon-acme",
        tags=("acme", "hidden"),
        traits=(TraitRef("rng", False, at(10, 16, *here, "traits", 0)),
                TraitRef("efi", True, at(10, 21, *here, "traits", 1)),
                TraitRef("sata-disk", False, at(10, 51, *here, "traits", 2))),
        requirements=Requirements(2, "3Gi", at(11, 21, *here, "requirements")),
        spec={"clock": {"preferredClockOffset": {"utc": {}}}}, spec_location=at(12, 13, *here, "spec"),
        override_spec={"devices": {"preferredDiskBus": "sata"}},
        override_spec_location=at(13, 21, *here, "overrideSpec"), deprecated=True,
        deprecation=Deprecation(at(14, 7, *here, "deprecated")))
    assert changes(model) == [(("preference", "acme.os"), "o.yaml:3:5: preferences.add.acme.os")]
    assert list(model.preferences) == sorted(model.preferences)


def test_a_new_preference_without_a_base_or_family_starts_the_family_its_name_begins_with():
    model = prefs("preferences:\n  add:\n    acme-linux.arm64: {description: A.}\n"
                  "    acme-linux.amd64: {description: B.}\n")
    assert model.families["acme-linux"] == Family("acme-linux", None, None, None, (), Requirements(), False,
                                                  at(3, 5, "preferences", "add", "acme-linux.arm64"))
    assert [model.preferences[n].family for n in ("acme-linux.arm64", "acme-linux.amd64")] == ["acme-linux"] * 2
    assert model.preferences["acme-linux.amd64"] == PreferenceDef(
        "acme-linux.amd64", "acme-linux", "B.", at(4, 5, "preferences", "add", "acme-linux.amd64"))


def test_a_new_preference_joins_its_bases_family_or_the_one_it_names():
    model = prefs("""\
        preferences:
          add:
            mine: {description: E., basedOn: windows.11}
            my.rhel: {description: F., family: rhel}
        """)
    assert model.preferences["mine"].family == "windows"
    assert model.preferences["my.rhel"].family == "rhel"
    assert model.families == builtin()[1].families


def test_a_base_added_in_the_same_overlay_gives_its_family_down_a_chain():
    model = prefs("""\
        preferences:
          add:
            x.chain: {description: G., basedOn: acme-linux.amd64}
            acme-linux.amd64: {description: B., basedOn: acme-linux.arm64}
            acme-linux.arm64: {description: A., basedOn: fedora}
        """)
    assert {n: model.preferences[n].family for n in ("x.chain", "acme-linux.amd64", "acme-linux.arm64")} == {
        "x.chain": "fedora", "acme-linux.amd64": "fedora", "acme-linux.arm64": "fedora"}
    assert "acme-linux" not in model.families and "x" not in model.families


def test_a_cycle_of_bases_among_new_preferences_ends_in_families_named_after_them():
    """The cycle itself is for validation to refuse; finding the family must still come to an end."""
    model = prefs("preferences:\n  add:\n    p.one: {description: C., basedOn: q.two}\n"
                  "    q.two: {description: D., basedOn: p.one}\n")
    assert {model.preferences["p.one"].family, model.preferences["q.two"].family} == {"p", "q"}


def test_what_cannot_be_added_is_refused_each_at_its_line_and_the_rest_still_checked():
    assert problems("""\
        preferences:
          add:
            fedora: {description: A.}
            new.one: {description: B., basedOn: fedorra}
            new.two: {description: C., family: fedorra}
            new.three: {description: D., family: acme}
        """) == [
        "o.yaml:3:5: preferences.add.fedora: preference 'fedora' already exists; change it under "
        "preferences.change",
        "o.yaml:4:41: preferences.add.new.one.basedOn: unknown preference 'fedorra'; did you mean 'fedora'?",
        "o.yaml:5:40: preferences.add.new.two.family: unknown family 'fedorra'; did you mean 'fedora'? "
        f"(families: {FAMILIES}); leave family out to start a new one",
        f"o.yaml:6:42: preferences.add.new.three.family: unknown family 'acme' (families: {FAMILIES}); leave "
        "family out to start a new one"]


FAMILIES = ("alpine, centos-stream, cirros, debian, fedora, legacy, linux, opensuse, oraclelinux, rhel, sles, "
            "ubuntu, windows")


def test_unknown_traits_are_each_named_at_their_entry():
    assert problems("preferences:\n  add:\n    mine-os: {description: U., traits: [nada, rng, {trait: nix}]}\n") == [
        "o.yaml:3:41: preferences.add.mine-os.traits[0]: unknown trait 'nada' (traits: the files of "
        "preferences/traits/ and those added under traits.add)",
        "o.yaml:3:52: preferences.add.mine-os.traits[2]: unknown trait 'nix' (traits: the files of "
        "preferences/traits/ and those added under traits.add)"]


# --------------------------------------------------------------------------- preferences.change


def test_a_change_merges_specs_over_the_earlier_ones_and_adds_traits_and_requirements():
    _, model = applied("""\
        preferences:
          change:
            fedora:
              spec: {clock: {preferredTimer: {hpet: {present: false}}, preferredClockOffset: {utc: {}}}}
              overrideSpec: {devices: {preferredDiskBus: sata, preferredCdromBus: sata}}
              requirements: {cpu: 2}
        """, """\
        preferences:
          change:
            fedora:
              spec: {clock: {preferredTimer: null}}
              overrideSpec: {devices: {preferredCdromBus: null}}
              requirements: {memory: 8Gi}
              addTraits: [sata-disk, {trait: efi, override: true}]
        """)
    here = ("preferences", "change", "fedora")
    second = lambda line, column, *path: Location("o1.yaml", line, column, here + path)  # noqa: E731
    assert model.preferences["fedora"] == replace(
        FEDORA, spec={"clock": {"preferredClockOffset": {"utc": {}}}}, spec_location=second(4, 13, "spec"),
        override_spec={"devices": {"preferredDiskBus": "sata"}},
        override_spec_location=second(5, 21, "overrideSpec"),
        requirements=Requirements(2, "8Gi", second(6, 21, "requirements")),
        traits=FEDORA.traits + (TraitRef("sata-disk", False, second(7, 19, "addTraits", 0)),
                                TraitRef("efi", True, second(7, 30, "addTraits", 1))))
    fedora = ("preference", "fedora")
    assert changes(model) == [  # each leaf of a patch, and each other key, on a line of its own
        (fedora, "o.yaml:4:46: preferences.change.fedora.spec.clock.preferredTimer.hpet.present"),
        (fedora, "o.yaml:4:87: preferences.change.fedora.spec.clock.preferredClockOffset.utc"),
        (fedora, "o.yaml:5:32: preferences.change.fedora.overrideSpec.devices.preferredDiskBus"),
        (fedora, "o.yaml:5:56: preferences.change.fedora.overrideSpec.devices.preferredCdromBus"),
        (fedora, "o.yaml:6:22: preferences.change.fedora.requirements.cpu"),
        (fedora, "o1.yaml:4:22: preferences.change.fedora.spec.clock.preferredTimer"),
        (fedora, "o1.yaml:5:32: preferences.change.fedora.overrideSpec.devices.preferredCdromBus"),
        (fedora, "o1.yaml:6:22: preferences.change.fedora.requirements.memory"),
        (fedora, "o1.yaml:7:7: preferences.change.fedora.addTraits")]


def test_traits_added_by_a_change_follow_the_traits_it_sets():
    model = prefs("preferences:\n  change:\n    fedora: {traits: [rng], addTraits: [efi]}\n")
    assert [t.name for t in model.preferences["fedora"].traits] == ["rng", "efi"]


def test_a_change_replaces_the_other_fields_and_keeps_the_rest():
    model = prefs("preferences:\n  change:\n    fedora: {displayName: \" Fedora! \", deprecated: true, "
                  "basedOn: rhel.9, tags: [x]}\n")
    assert model.preferences["fedora"] == replace(
        FEDORA, display_name="Fedora!", deprecated=True, based_on="rhel.9", tags=("x",),
        deprecation=Deprecation(at(3, 40, "preferences", "change", "fedora", "deprecated")),
        based_on_location=at(3, 67, "preferences", "change", "fedora", "basedOn"))


def test_what_cannot_be_changed_is_refused_each_at_its_line_and_the_rest_still_checked():
    assert problems("""\
        preferences:
          change:
            fedorra: {deprecated: true}
            rhel.9: {basedOn: fedorra}
            alpine: {basedOn: nope}
            debian: {addTraits: [nada]}
        """) == [
        "o.yaml:3:5: preferences.change.fedorra: unknown preference 'fedorra'; did you mean 'fedora'?",
        "o.yaml:4:23: preferences.change.rhel.9.basedOn: unknown preference 'fedorra'; did you mean 'fedora'?",
        "o.yaml:5:23: preferences.change.alpine.basedOn: unknown preference 'nope'",
        "o.yaml:6:26: preferences.change.debian.addTraits[0]: unknown trait 'nada' (traits: the files of "
        "preferences/traits/ and those added under traits.add)"]
