from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.chips import ChipEntry, ChipRegistry, ChipRegistryError
from companion.errors import CompanionError


def test_missing_file_is_empty(tmp_path: Path) -> None:
    assert ChipRegistry.load(tmp_path / "nope.toml").entries() == ()


def test_round_trip_and_atomic_save(tmp_path: Path) -> None:
    reg = ChipRegistry().enroll("04:a1:b2:c3:d4:e5:f6", "Legion 1", "unit")
    reg = reg.enroll("ARUCO-3", 'Capt. "Le Chef" \\ Dupont', "leader")
    path = tmp_path / "game" / "chips.toml"
    reg.save(path)
    assert [p.name for p in path.parent.iterdir()] == ["chips.toml"]  # no temp left
    loaded = ChipRegistry.load(path)
    assert loaded == reg
    assert loaded.lookup("04a1b2c3d4e5f6") == ChipEntry("04A1B2C3D4E5F6", "Legion 1", "unit")
    assert loaded.lookup("aruco-3") is not None


def test_unknown_chip_lookup_says_unknown() -> None:
    reg = ChipRegistry().enroll("A1B2C3D4", "Legion 1")
    assert reg.lookup("DEADBEEF") is None
    assert reg.lookup("garbage") is None


def test_enroll_is_immutable_and_reenroll_replaces() -> None:
    empty = ChipRegistry()
    one = empty.enroll("A1B2C3D4", "Legion 1")
    two = one.enroll("04A1B2C3D4E5F6", "Legion 2")
    renamed = two.enroll("A1B2C3D4", "Spahis", "unit")
    assert empty.entries() == ()
    assert [e.name for e in renamed.entries()] == ["Spahis", "Legion 2"]  # place kept
    assert [e.name for e in two.entries()] == ["Legion 1", "Legion 2"]


def test_same_name_needs_permission() -> None:
    reg = ChipRegistry().enroll("A1B2C3D4", "Legion 1")
    with pytest.raises(ChipRegistryError, match="already the name of chip A1B2C3D4"):
        reg.enroll("04A1B2C3D4E5F6", "legion  1")
    both = reg.enroll("04A1B2C3D4E5F6", "Legion 1", allow_same_name=True)
    assert both.uids_named("LEGION 1") == ("A1B2C3D4", "04A1B2C3D4E5F6")
    # Re-enrolling the same uid under its own name is not a clash.
    again = reg.enroll("A1B2C3D4", "Legion 1", "leader").lookup("A1B2C3D4")
    assert again is not None and again.role == "leader"


@pytest.mark.parametrize(
    ("uid", "name", "role", "message"),
    [
        ("A1B2C3D4", "", "unit", "needs a name"),
        ("A1B2C3D4", "x" * 41, "unit", "keep it to 40"),
        ("A1B2C3D4", "Legion", "cavalry", "role 'cavalry'"),
        ("A1B2", "Legion", "unit", "4, 7 or 10"),
        ("A1B2C3D4", "bad\x01name", "unit", "control characters"),
    ],
)
def test_enroll_rejects(uid: str, name: str, role: str, message: str) -> None:
    with pytest.raises(ChipRegistryError, match=message):
        ChipRegistry().enroll(uid, name, role)


def test_registry_error_is_a_companion_error() -> None:
    assert issubclass(ChipRegistryError, CompanionError)


def test_broken_toml_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "chips.toml"
    path.write_text('version = 1\n\n[[chip]]\nuid = "A1B2C3D4\nname = "x"\n')
    with pytest.raises(ChipRegistryError, match=r"chips.toml: not valid TOML.*line 4"):
        ChipRegistry.load(path)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            '[[chip]]\nuid = "A1B2C3D4"\nname = "a"\n\n[[chip]]\nuid = "XYZ"\nname = "b"\n',
            r"line 6 \(chip 2\).*not a chip id",
        ),
        ('[[chip]]\nuid = "A1B2C3D4"\nname = "a"\nrole = "hero"\n', r"line 2 \(chip 1\).*hero"),
        ('[[chip]]\nuid = "A1B2C3D4"\n', r"line 2 \(chip 1\): needs name"),
        (
            '[[chip]]\nuid = "A1B2C3D4"\nname = "a"\n[[chip]]\nuid = "a1b2c3d4"\nname = "b"\n',
            r"line 5 \(chip 2\).*already enrolled by chip 1",
        ),
        ('[[chip]]\nuid = "A1B2C3D4"\nname = "a"\ncolour = "red"\n', "unknown key"),
        ("version = 2\n", "version 2 is not supported"),
        ('version = "1"\n', "version must be a whole number, written version = 1 "),
        ("chips = 3\n", "unknown key"),
    ],
)
def test_bad_entries_name_the_line(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "chips.toml"
    path.write_text("# registry\n" + body if "version" in body else "version = 1\n" + body)
    with pytest.raises(ChipRegistryError, match=message):
        ChipRegistry.load(path)


def test_same_name_in_file_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "chips.toml"
    path.write_text(
        '[[chip]]\nuid = "A1B2C3D4"\nname = "Legion 1"\n'
        '[[chip]]\nuid = "ARUCO-1"\nname = "Legion 1"\n'
    )
    assert len(ChipRegistry.load(path)) == 2


names = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Co", "Cn", "Cf", "Zl", "Zp")),
    min_size=1,
    max_size=40,
).filter(lambda s: s.strip() and " ".join(s.split()) == s)


@settings(max_examples=50, deadline=None)
@given(
    entries=st.lists(
        st.tuples(
            st.binary(min_size=7, max_size=7),
            names,
            st.sampled_from(["unit", "leader", "weapon", "special"]),
        ),
        max_size=8,
        unique_by=lambda e: e[0],
    )
)
def test_round_trip_any_names(
    tmp_path_factory: pytest.TempPathFactory, entries: list[tuple[bytes, str, str]]
) -> None:
    reg = ChipRegistry()
    for uid, name, role in entries:
        reg = reg.enroll(uid.hex(), name, role, allow_same_name=True)
    path = tmp_path_factory.mktemp("reg") / "chips.toml"
    reg.save(path)
    assert ChipRegistry.load(path) == reg
