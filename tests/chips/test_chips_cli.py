from __future__ import annotations

import argparse
import io
import json
import types
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from companion import config as config_module
from companion.chips import ChipRegistry, SimReader, cli
from companion.chips.aruco import detect_markers
from companion.cli import parse_args
from companion.errors import CompanionError
from companion.session.journal import writer_lock


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "companion.toml"
    path.write_text(f'[box]\nstate_dir = "{tmp_path / "state"}"\n[chips]\nreader = "sim"\n')
    return path


def parse(argv: list[str], config_file: Path) -> argparse.Namespace:
    return parse_args(["--config", str(config_file), *argv])


def run(
    argv: list[str],
    config_file: Path,
    stdin: str = "",
    monkeypatch: pytest.MonkeyPatch | None = None,
) -> int:
    args = parse(argv, config_file)
    if monkeypatch is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    result: int = args.func(args)
    return result


def test_enroll_sim_typed_uids(
    tmp_path: Path,
    config_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    reg = tmp_path / "chips.toml"
    typed = "04:a1:b2:c3:d4:e5:f6\nLegion 1\n\nnot-a-uid\na1b2c3d4\nCapt. Dupont\nleader\n\n"
    assert run(["chips", "enroll", "--registry", str(reg)], config_file, typed, monkeypatch) == 0
    entries = ChipRegistry.load(reg).entries()
    assert [(e.uid, e.name, e.role) for e in entries] == [
        ("04A1B2C3D4E5F6", "Legion 1", "unit"),
        ("A1B2C3D4", "Capt. Dupont", "leader"),
    ]
    out = capsys.readouterr().out
    assert "is not a chip id" in out and "2 chip(s) enrolled" in out


def test_enroll_default_registry_is_in_state_dir(
    tmp_path: Path, config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(["chips", "enroll"], config_file, "A1B2C3D4\nLegion 1\n\n\n", monkeypatch) == 0
    assert ChipRegistry.load(tmp_path / "state" / "chips.toml").lookup("A1B2C3D4") is not None


def test_enroll_same_name_is_refused_then_allowed(
    tmp_path: Path,
    config_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    reg = tmp_path / "chips.toml"
    ChipRegistry().enroll("A1B2C3D4", "Legion 1").save(reg)
    run(
        ["chips", "enroll", "--registry", str(reg)],
        config_file,
        "B1B2C3D4\nLegion 1\n\n\n",
        monkeypatch,
    )
    assert "Not enrolled" in capsys.readouterr().out
    run(
        ["chips", "enroll", "--registry", str(reg), "--allow-same-name"],
        config_file,
        "B1B2C3D4\nLegion 1\n\n\n",
        monkeypatch,
    )
    assert len(ChipRegistry.load(reg)) == 2


def test_enroll_with_a_reader_and_a_names_list(
    tmp_path: Path, config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = tmp_path / "scenario.toml"
    names.write_text(
        'title = "x"\n[[units]]\nname = "1st Legion"\nchip = "Legion 1"\n'
        '[[units]]\nname = "2nd Legion"\nchip = "Legion 2"\n'
    )
    clock = [0.0]

    def sleep(s: float) -> None:
        clock[0] += s

    # Noisy reader: every tag is reported three times; the second chip comes 3 s later.
    sim = SimReader(
        ["04A1B2C3D4E5F6"] * 3 + [(3.0, "04FFEEDDCCBBAA")] + ["04FFEEDDCCBBAA"] * 2,
        clock=lambda: clock[0],
        sleep=sleep,
    )
    monkeypatch.setattr(cli, "open_reader", lambda kind, settings: sim)
    reg = tmp_path / "chips.toml"
    argv = [
        "chips",
        "enroll",
        "--registry",
        str(reg),
        "--reader",
        "rc522",
        "--names-from",
        str(names),
    ]
    assert run(argv, config_file, "", monkeypatch) == 0
    assert [(e.uid, e.name) for e in ChipRegistry.load(reg).entries()] == [
        ("04A1B2C3D4E5F6", "Legion 1"),
        ("04FFEEDDCCBBAA", "Legion 2"),
    ]


def test_enroll_with_a_reader_is_refused_while_the_box_runs(
    tmp_path: Path, config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    monkeypatch.setattr(cli, "open_reader", lambda kind, settings: opened.append(kind))
    (tmp_path / "state").mkdir()
    box = writer_lock(config_module.load(config_file).journal_path)  # what `companion run` holds
    try:
        with pytest.raises(CompanionError, match=r"box is running.*rc522.*systemctl stop"):
            run(["chips", "enroll", "--reader", "rc522"], config_file, "", monkeypatch)
    finally:
        box.release()
    assert opened == []  # the box's reader was never shared
    # once the box has stopped, its lock is free and enrolment goes ahead
    cli._refuse_while_the_box_runs(config_module.load(config_file), "rc522")


class SlowTyping(io.StringIO):
    """stdin where every answer takes the referee `seconds` of (virtual) time."""

    def __init__(self, text: str, clock: list[float], seconds: float) -> None:
        super().__init__(text)
        self.clock, self.seconds = clock, seconds

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.clock[0] += self.seconds
        return super().readline()


def test_chip_left_on_the_reader_while_naming_is_not_the_next_chip(
    tmp_path: Path, config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [0.0]

    def sleep(s: float) -> None:
        clock[0] += s

    # Chip A is read at 0 s; its repeats wait while the referee types for 4 s; it is
    # still on the reader 0.2 s later; then chip B is presented.
    sim = SimReader(
        ["A1A1A1A1"] * 3 + [(0.2, "A1A1A1A1"), (0.5, "B2B2B2B2")],
        clock=lambda: clock[0],
        sleep=sleep,
    )
    monkeypatch.setattr(cli, "open_reader", lambda kind, settings: sim)
    monkeypatch.setattr(cli, "time", types.SimpleNamespace(monotonic=lambda: clock[0]))
    monkeypatch.setattr("sys.stdin", SlowTyping("Legion 1\n\nLegion 2\n\n", clock, 2.0))
    reg = tmp_path / "chips.toml"
    args = parse(
        ["chips", "enroll", "--registry", str(reg), "--reader", "usb-hid", "--count", "2"],
        config_file,
    )
    assert args.func(args) == 0
    assert [(e.uid, e.name) for e in ChipRegistry.load(reg).entries()] == [
        ("A1A1A1A1", "Legion 1"),
        ("B2B2B2B2", "Legion 2"),
    ]


def test_list_text_and_json(
    tmp_path: Path, config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reg = tmp_path / "chips.toml"
    assert run(["chips", "list", "--registry", str(reg)], config_file) == 1
    assert f"No chip registry at {reg}: check the path" in capsys.readouterr().out
    ChipRegistry().save(reg)
    assert run(["chips", "list", "--registry", str(reg)], config_file) == 0
    assert "No chips enrolled" in capsys.readouterr().out
    ChipRegistry().enroll("A1B2C3D4", "Legion 1").enroll("ARUCO-2", "Gun", "weapon").save(reg)
    run(["chips", "list", "--registry", str(reg)], config_file)
    text = capsys.readouterr().out
    assert "ARUCO-2   weapon   Gun" in text
    run(["chips", "list", "--registry", str(reg), "--json"], config_file)
    assert json.loads(capsys.readouterr().out)[0] == {
        "uid": "A1B2C3D4",
        "name": "Legion 1",
        "role": "unit",
    }


def test_print_from_scenario_enrolls_and_is_readable(tmp_path: Path, config_file: Path) -> None:
    scenario = tmp_path / "fort.toml"
    scenario.write_text(
        'chips = ["Legion 1", "Legion 2", { name = "Capt. Dupont", role = "leader" }, '
        '{ name = "Maxim", role = "weapon" }]\n'
    )
    reg = tmp_path / "chips.toml"
    ChipRegistry().enroll("ARUCO-0", "Spahis").enroll("ARUCO-5", "Legion 2").save(reg)
    out = tmp_path / "sheet.png"
    argv = [
        "chips",
        "print",
        "--names-from",
        str(scenario),
        "--out",
        str(out),
        "--registry",
        str(reg),
    ]
    assert run(argv, config_file) == 0
    registry = ChipRegistry.load(reg)
    # Legion 2 keeps its id 5; new names take the lowest free ids (0 is Spahis).
    assert {e.name: e.uid for e in registry.entries()} == {
        "Spahis": "ARUCO-0",
        "Legion 2": "ARUCO-5",
        "Legion 1": "ARUCO-1",
        "Capt. Dupont": "ARUCO-2",
        "Maxim": "ARUCO-3",
    }
    assert registry.lookup("ARUCO-2").role == "leader"  # type: ignore[union-attr]
    image = np.asarray(Image.open(out).convert("L"))
    assert sorted(s.marker_id for s in detect_markers(image)) == [1, 2, 3, 5]
    # Printing again changes nothing.
    assert run(argv, config_file) == 0
    assert ChipRegistry.load(reg) == registry


def test_print_from_registry_and_text(tmp_path: Path, config_file: Path) -> None:
    reg = tmp_path / "chips.toml"
    ChipRegistry().enroll("ARUCO-9", "Legion 1").enroll("A1B2C3D4", "Legion 2").save(reg)
    out = tmp_path / "sheet.pdf"
    assert run(["chips", "print", "--names-from", str(reg), "--out", str(out)], config_file) == 0
    assert out.read_bytes().startswith(b"%PDF")
    chips = cli.load_names(reg)
    assert [(s.marker_id, s.name) for s in cli.assign_markers(chips)] == [
        (9, "Legion 1"),
        (0, "Legion 2"),
    ]
    text = tmp_path / "names.txt"
    text.write_text("# my chips\nLegion 1\n\nLegion 1\nMaxim\n")
    assert [c.name for c in cli.load_names(text)] == ["Legion 1", "Maxim"]


def test_print_scenario_units_without_chip_names(tmp_path: Path) -> None:
    scenario = tmp_path / "s.toml"
    scenario.write_text('[[units]]\nname = "A"\n[[units]]\nname = "B"\n')
    assert [c.name for c in cli.load_names(scenario)] == ["A", "B"]


@pytest.mark.parametrize(
    ("argv_tail", "message"),
    [
        (["--out", "sheet.jpg"], "pdf or .png"),
        (["--out", "sheet.png", "--diameter-mm", "5"], "20 to 80 mm"),
    ],
)
def test_print_user_errors(
    tmp_path: Path, config_file: Path, argv_tail: list[str], message: str
) -> None:
    names = tmp_path / "n.txt"
    names.write_text("A\n")
    argv = [
        "chips",
        "print",
        "--names-from",
        str(names),
        *[str(tmp_path / a) if a.startswith("sheet") else a for a in argv_tail],
    ]
    with pytest.raises(CompanionError, match=message):
        run(argv, config_file)


def test_print_empty_or_broken_names_file(tmp_path: Path, config_file: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    with pytest.raises(CompanionError, match="no chip names"):
        cli.load_names(empty)
    broken = tmp_path / "broken.toml"
    broken.write_text("chips = [\n")
    with pytest.raises(CompanionError, match="not valid TOML"):
        cli.load_names(broken)
    with pytest.raises(CompanionError, match="cannot read"):
        cli.load_names(tmp_path / "missing.txt")


def test_too_many_chips_for_the_dictionary() -> None:
    with pytest.raises(CompanionError, match="50 markers"):
        cli.assign_markers([cli.NamedChip(f"U{i}") for i in range(51)])


def test_unknown_reader_kind() -> None:
    from companion.chips import ChipReaderError, open_reader

    with pytest.raises(ChipReaderError, match="not known"):
        open_reader("barcode", {})
    assert issubclass(ChipReaderError, CompanionError)


def test_the_config_may_follow_the_chips_command_word(
    tmp_path: Path, config_file: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from companion.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("04AABBCC\nLegion 1\n\n\n"))
    assert main(["chips", "enroll", "--config", str(config_file)]) == 0
    assert ChipRegistry.load(tmp_path / "state" / "chips.toml").lookup("04AABBCC")
    capsys.readouterr()
    assert main(["chips", "list", "--config", str(config_file), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [
        {"uid": "04AABBCC", "name": "Legion 1", "role": "unit"}]
