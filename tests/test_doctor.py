"""`companion doctor`: absent (not failed) off the Pi, a fix for every failure on one."""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest
from journal_copies import (
    crash_copy,
    damage_the_middle_of_its_wal,
    journal_keeping_its_wal,
    pretend_read_only_file_system,
)

from companion import doctor
from companion.chips.registry import ChipRegistry
from companion.doctor import Check, System


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="companion")
    doctor.add_commands(parser.add_subparsers(dest="command"))
    return parser.parse_args(argv)


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No real config, state dir or service dir leaks into a test."""
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.delenv("COMPANION_HW", raising=False)
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    monkeypatch.setattr(doctor.config_module, "DEFAULT_PATH", tmp_path / "none.toml")


def fake_pi(root: Path, *, i2c: bool = True, spi: bool = True, video: bool = True) -> None:
    (root / "proc/device-tree").mkdir(parents=True)
    (root / "proc/device-tree/model").write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    (root / "etc").mkdir()
    (root / "etc/os-release").write_text('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n'
                                         "VERSION_CODENAME=bookworm\n")
    dev = root / "dev"
    (dev / "input/by-id").mkdir(parents=True)
    (dev / "gpiochip0").touch()
    if i2c:
        (dev / "i2c-1").touch()
    if spi:
        (dev / "spidev0.0").touch()
        (dev / "spidev0.1").touch()
    if video:
        (dev / "video0").touch()


def pi_system(root: Path, *, display: bool = True, camera: bool = True) -> System:
    def run(argv: Sequence[str]) -> tuple[int, str]:
        if camera:
            return 0, "Available cameras\n-----------------\n0 : imx708 [4608x2592 10-bit]\n"
        return 0, "No cameras available!\n"

    return System(
        root=root,
        which=lambda name: f"/usr/bin/{name}" if name == "rpicam-hello" else None,
        run=run,
        i2c_probe=lambda port, address: display,
        user="pi",
    )


def by_name(results: list[Check]) -> dict[str, Check]:
    return {r.name: r for r in results}


def test_desktop_reports_hardware_absent_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    args = parse(["doctor"])
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert "Traceback" not in out
    assert "absent" in out
    assert "FAIL" not in out


def test_desktop_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = parse(["doctor", "--json"])
    assert args.func(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exit_code"] == 0
    names = {c["name"] for c in data["checks"]}
    expected = {"board", "gpio", "i2c", "display", "spi", "camera", "chip reader", "disk"}
    assert expected | {"journal", "service user"} <= names


def test_empty_root_is_not_a_pi(tmp_path: Path) -> None:
    results = doctor.run_checks(None, System(root=tmp_path, which=lambda _: None, user="pi"))
    assert doctor.exit_code(results) == 0
    checks = by_name(results)
    for name in ("board", "gpio", "i2c", "display", "spi", "camera"):
        assert checks[name].status == "absent", checks[name]


def test_pi_with_everything_present(tmp_path: Path) -> None:
    fake_pi(tmp_path)
    config = tmp_path / "c.toml"
    config.write_text('[box]\nhardware = "pi"\n[chips]\nreader = "rc522"\n')
    checks = by_name(doctor.run_checks(str(config), pi_system(tmp_path)))
    assert checks["board"].status == "ok"
    assert checks["display"].status == "ok"
    assert "0x3C" in checks["display"].detail
    assert checks["spi"].status == "ok"
    assert checks["chip reader"].status == "ok"
    assert "spidev0.0" in checks["chip reader"].detail
    assert checks["camera"].status == "ok"
    assert "imx708" in checks["camera"].detail


def test_a_pn532_on_spi_is_looked_for_on_its_chip_select_line(tmp_path: Path) -> None:
    """The reader opens the node of [chips] pn532_cs_pin (GPIO7 = CE1, spidev0.1), not
    spi_device's: doctor failed a box whose only node was the one in use."""
    fake_pi(tmp_path)
    (tmp_path / "dev" / "spidev0.0").unlink()
    config = tmp_path / "c.toml"
    config.write_text('[box]\nhardware = "pi"\n[chips]\nreader = "pn532-spi"\n')
    checks = by_name(doctor.run_checks(str(config), pi_system(tmp_path)))
    assert checks["chip reader"].status == "ok" and "spidev0.1" in checks["chip reader"].detail
    assert checks["spi"].status == "ok"
    config.write_text('[box]\nhardware = "pi"\n[chips]\nreader = "pn532-spi"\n'
                      'pn532_cs_pin = 9\n')
    checks = by_name(doctor.run_checks(str(config), pi_system(tmp_path)))
    assert checks["chip reader"].status == "fail" and "GPIO8 (CE0)" in checks["chip reader"].detail
    assert "check itself failed" not in checks["spi"].detail


def test_pi_failures_each_come_with_a_fix(tmp_path: Path) -> None:
    fake_pi(tmp_path, i2c=False, spi=False)
    config = tmp_path / "c.toml"
    config.write_text('[box]\nhardware = "pi"\n[chips]\nreader = "rc522"\n')
    results = doctor.run_checks(str(config), pi_system(tmp_path, camera=False))
    checks = by_name(results)
    assert doctor.exit_code(results) == 1
    for name in ("i2c", "display", "spi", "camera", "chip reader"):
        assert checks[name].status == "fail", checks[name]
    failures = [r for r in results if r.status == "fail"]
    assert all(r.fix for r in failures), [r for r in failures if not r.fix]
    assert "dtparam=i2c_arm=on" in checks["i2c"].fix
    assert "dtparam=spi=on" in checks["spi"].fix


def test_pi_display_not_answering(tmp_path: Path) -> None:
    fake_pi(tmp_path)
    checks = by_name(doctor.run_checks(None, pi_system(tmp_path, display=False)))
    assert checks["display"].status == "fail"
    assert "i2cdetect -y 1" in checks["display"].fix
    assert checks["config"].status == "warn"  # hardware = sim on a Pi


def test_pn532_i2c_probes_its_own_address(tmp_path: Path) -> None:
    fake_pi(tmp_path)
    seen: list[int] = []
    system = pi_system(tmp_path)
    system.i2c_probe = lambda port, address: seen.append(address) is None
    config = tmp_path / "c.toml"
    config.write_text('[chips]\nreader = "pn532-i2c"\n')
    checks = by_name(doctor.run_checks(str(config), system))
    assert checks["chip reader"].status == "ok"
    assert seen == [0x3C, 0x24]


def test_bad_config_fails_without_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "bad.toml"
    config.write_text("[display]\ni2c_address = 999\n")
    args = parse(["doctor", "--config", str(config)])
    assert args.func(args) == 1
    out = capsys.readouterr().out
    assert "i2c_address" in out and "Traceback" not in out


def test_missing_config_file_named_explicitly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = parse(["doctor", "--config", str(tmp_path / "nope.toml")])
    assert args.func(args) == 1
    assert "not found" in capsys.readouterr().out


def a_game(path: Path) -> Path:
    """A journal holding a game just started."""
    from companion.session.journal import Journal
    from companion.session.scenario_files import example_scenario_text
    from companion.session.session import GameSession

    journal = Journal(path)
    GameSession.new(journal, example_scenario_text("tenir_le_fort"), "example")
    journal.close()
    return path


def fails_towards_salvage(path: Path, saying: str) -> Check:
    """doctor's journal check fails, saying `saying`, and its fix is the salvage."""
    result = doctor.check_journal(path)
    assert result.status == "fail" and saying in result.detail, result
    assert "companion journal salvage" in result.fix
    return result


def test_journal_ok_and_damaged(tmp_path: Path) -> None:
    good = a_game(tmp_path / "good.sqlite3")
    result = doctor.check_journal(good)
    assert result.status == "ok" and "1 events replay" in result.detail

    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"this is not a database" * 100)
    fails_towards_salvage(bad, "damaged")

    assert doctor.check_journal(tmp_path / "absent.sqlite3").status == "ok"


def test_an_empty_or_foreign_journal_file_is_named(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    result = doctor.check_journal(empty)
    assert (result.status, result.detail) == ("warn", f"{empty} holds no game (an empty file)")
    assert "companion new" in result.fix and empty.read_bytes() == b""
    other = tmp_path / "inventory.db"
    with sqlite3.connect(other) as db:
        db.execute("create table figures (name)")
    db.close()
    assert doctor.check_journal(other).status == "fail"


def test_a_damaged_write_ahead_log_is_a_failed_journal(tmp_path: Path) -> None:
    # SQLite's own quick_check reads the log up to the damage and finds nothing wrong.
    copy = crash_copy(tmp_path, 200)
    damage_the_middle_of_its_wal(copy)
    fails_towards_salvage(copy, "write-ahead log is damaged")


def test_journal_in_state_directory(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    a_game(state / "journal.sqlite3")
    checks = by_name(doctor.run_checks(None, System(root=tmp_path, which=lambda _: None)))
    assert checks["journal"].status == "ok"
    assert "quick_check ok" in checks["journal"].detail


def test_a_journal_whose_events_no_longer_fit_the_game_fails_with_salvage(
    tmp_path: Path,
) -> None:
    import zlib

    from companion.cli import main

    path = tmp_path / "j.sqlite3"
    assert main(["demo", "--max-inputs", "40", "--journal", str(path)]) == 0
    payload = json.dumps({"key": "no-such-option"})
    with sqlite3.connect(path) as db:
        (bad,) = db.execute("SELECT seq FROM events WHERE kind = 'ChoiceMade' AND seq > 3 "
                            "ORDER BY seq LIMIT 1").fetchone()
        db.execute("UPDATE events SET payload = ?, crc = ? WHERE seq = ?",
                   (payload, zlib.crc32(f"ChoiceMade\n{payload}".encode()), bad))
    db.close()
    result = fails_towards_salvage(path, f"journal event {bad} (ChoiceMade) does not fit")
    assert f"keeps the {bad - 1} events before event {bad}" in result.fix


def test_a_journal_with_a_damaged_event_fails(tmp_path: Path) -> None:
    path = a_game(tmp_path / "j.sqlite3")
    with sqlite3.connect(path) as db:
        db.execute("UPDATE events SET crc = crc + 1 WHERE seq = 1")
    db.close()
    fails_towards_salvage(path, "event 1 of the journal")


def test_a_folder_in_place_of_the_journal_fails_with_move_it(tmp_path: Path) -> None:
    folder = tmp_path / "journal.sqlite3"
    folder.mkdir()
    result = doctor.check_journal(folder)
    assert (result.status, result.detail) == ("fail", f"{folder} is a folder, not a journal file")
    assert "move it out of the way" in result.fix and "salvage" not in result.fix


def test_a_journal_without_its_wal_is_not_called_an_empty_file(tmp_path: Path) -> None:
    import shutil

    from companion.session.scenario_files import example_scenario_text
    from companion.session.session import GameSession

    live = journal_keeping_its_wal(tmp_path / "live.sqlite3")
    GameSession.new(live, example_scenario_text("tenir_le_fort"), "example")
    copy = tmp_path / "copy.sqlite3"
    shutil.copy(live.path, copy)  # the box still running: every event is in the -wal
    live.close()
    result = doctor.check_journal(copy)
    assert result.status == "fail" and "-wal file is missing" in result.detail
    assert "copy copy.sqlite3-wal from beside the original" in result.fix
    assert not Path(f"{copy}-wal").exists()  # looking made no empty one


def test_a_journal_on_a_read_only_file_system_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = a_game(tmp_path / "j.sqlite3")
    pretend_read_only_file_system(monkeypatch)
    result = doctor.check_journal(path)
    assert result.status == "fail"
    assert result.detail == f"{path} cannot be written: {tmp_path} is on a read-only file system"
    assert "remount it read-write" in result.fix


def test_a_journal_a_running_box_writes_is_checked_without_disturbing_it(
    tmp_path: Path,
) -> None:
    from companion.session.events import ChoiceMade
    from companion.session.journal import Journal

    running = Journal(a_game(tmp_path / "j.sqlite3"), create=False)
    assert doctor.check_journal(running.path).status == "ok"
    running.append(ChoiceMade("fire"))  # still the box's to write
    running.close()


def test_a_crashing_check_is_reported_not_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def boom(*_: object) -> Check:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(doctor, "check_disk", boom)
    args = parse(["doctor"])
    assert args.func(args) == 1
    out = capsys.readouterr().out
    assert "kaboom" in out and "Traceback" not in out


def test_usb_reader_path(tmp_path: Path) -> None:
    fake_pi(tmp_path)
    (tmp_path / "dev/input/by-id/usb-Sycreader_RFID-event-kbd").touch()
    system = pi_system(tmp_path)
    config = tmp_path / "c.toml"
    config.write_text('[chips]\nreader = "usb-hid"\n')
    assert by_name(doctor.run_checks(str(config), system))["chip reader"].status == "ok"
    config.write_text('[chips]\nreader = "usb-hid"\ndevice = "/dev/input/by-id/gone"\n')
    check = by_name(doctor.run_checks(str(config), system))["chip reader"]
    assert check.status == "fail" and "/dev/input/by-id" in check.fix


@pytest.mark.pi
def test_on_a_real_pi(capsys: pytest.CaptureFixture[str]) -> None:
    """On the box itself, with everything wired: doctor is clean."""
    assert os.path.exists("/proc/device-tree/model")
    config = os.environ.get("COMPANION_CONFIG", "/etc/companion/companion.toml")
    args = parse(["doctor", "--config", config])
    code = args.func(args)
    out = capsys.readouterr().out
    assert code == 0, out


@pytest.mark.parametrize(("path", "status", "detail"), [
    ("", "fail", 'source = "files" but no path is set'),
    ("nowhere", "fail", "does not exist"),
    ("frames", "fail", "no images"),
    ("frames/tray.png", "ok", "1 image from"),
])
def test_a_files_camera_is_checked_not_skipped(
    tmp_path: Path, path: str, status: str, detail: str
) -> None:
    (tmp_path / "frames").mkdir()
    if path.endswith(".png"):
        (tmp_path / path).write_bytes(b"listed, not decoded")
    where = str(tmp_path / path) if path else ""
    result = doctor.check_camera(System(root=tmp_path), False, "files", "rc522", where)
    assert result.status == status and detail in result.detail
    assert status == "ok" or "[camera] path" in result.fix


def test_the_chip_registry_is_checked_when_chips_are_read(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    registry = tmp_path / "chips.toml"
    config.write_text(f'[chips]\nreader = "usb-hid"\nregistry = "{registry}"\n')
    empty = tmp_path / "root"
    empty.mkdir()
    desktop = System(root=empty, which=lambda _: None, user="pi")
    check = by_name(doctor.run_checks(str(config), desktop))["chip registry"]
    assert check.status == "warn" and "no chips enrolled yet" in check.detail
    registry.write_text("[chips\n")
    results = doctor.run_checks(str(config), desktop)
    check = by_name(results)["chip registry"]
    assert check.status == "fail" and "not valid TOML" in check.detail and check.fix
    assert doctor.exit_code(results) == 1
    ChipRegistry().enroll("04A1B2C3", "Legion 1").save(registry)
    check = by_name(doctor.run_checks(str(config), desktop))["chip registry"]
    assert check.status == "ok" and "1 chips enrolled" in check.detail


def test_hardware_pi_off_a_pi_fails_with_its_fix(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text('[box]\nhardware = "pi"\n')
    results = doctor.run_checks(str(config), System(root=tmp_path, which=lambda _: None))
    check = by_name(results)["config"]
    assert check.status == "fail" and "not a Raspberry Pi" in check.detail
    assert 'hardware = "sim"' in check.fix and doctor.exit_code(results) == 1


def test_with_the_config_unreadable_its_journal_is_not_looked_for_elsewhere(
    tmp_path: Path,
) -> None:
    # The default state folder (STATE_DIRECTORY here) holds a game: it is not this config's.
    a_game(tmp_path / "state" / "journal.sqlite3")
    config = tmp_path / "broken.toml"
    config.write_text(f'[box\nstate_dir = "{tmp_path / "elsewhere"}"\n')
    results = doctor.run_checks(str(config), System(root=tmp_path, which=lambda _: None))
    checks = by_name(results)
    assert checks["config"].status == "fail" and "not valid TOML" in checks["config"].detail
    for name in ("chip reader", "chip registry", "disk", "journal"):
        assert checks[name].status == "skip", checks[name]
        assert "depends on the config, which is refused" in checks[name].detail
    assert not any(str(tmp_path / "state") in check.detail for check in results)
    assert doctor.exit_code(results) == 1


@pytest.mark.parametrize("argv", [["doctor", "--hw", "pi", "--json"],
                                  ["--hw", "pi", "doctor", "--json"]])
def test_doctor_takes_the_hardware_before_or_after_its_word(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.cli import main

    assert main(argv) == 1  # not a Raspberry Pi: the box would stop at start
    config = next(c for c in json.loads(capsys.readouterr().out)["checks"]
                  if c["name"] == "config")
    assert config["status"] == "fail" and "--hw pi, but this is not a Raspberry Pi" in config[
        "detail"]
    assert "give --hw sim" in config["fix"]
    assert main(["doctor", "--hw", "sim", "--json"]) == 0
    capsys.readouterr()
