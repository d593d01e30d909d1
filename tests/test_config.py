from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from companion import config
from companion.box import PER_THROW, per_throw
from companion.errors import ConfigError
from companion.rules.core import DieKind

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "config.example.toml"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "companion.toml"
    path.write_text(text)
    return path


def test_no_file_means_all_defaults() -> None:
    cfg = config.load()
    assert cfg.hardware == "sim"
    assert cfg["display"]["i2c_address"] == 0x3C


def test_explicit_file_overrides_defaults(tmp_path: Path) -> None:
    cfg = config.load(write(tmp_path, '[display]\ndriver = "sh1106"\nrotate = 2\n'))
    assert cfg["display"]["driver"] == "sh1106"
    assert cfg["display"]["rotate"] == 2
    assert cfg["display"]["i2c_port"] == 1


def test_environment_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_CONFIG", str(write(tmp_path, "[sounder]\nmute = true\n")))
    assert config.load()["sounder"]["mute"] is True


def test_hardware_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_HW", "pi")
    assert config.load().hardware == "pi"


def test_missing_explicit_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"nowhere\.toml: config file not found"):
        config.load(tmp_path / "nowhere.toml")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[display]\ndriver = "ssd9999"\n',
            r"\[display\] driver = 'ssd9999' is not allowed; use one of: ssd1306, sh1106",
        ),
        ("[display]\nrotate = 7\n", r"\[display\] rotate = 7 is out of range; use 0 to 2"),
        ("[display]\nrotate = 1\n", r"\[display\] rotate = 1 stands the OLED on its side"),
        ("[sounder]\nmute = 1\n", r"\[sounder\] mute = 1 must be true or false"),
        ("[controls]\nup_pin = 4.5\n", r"\[controls\] up_pin = 4.5 must be a whole number"),
        ("[nonsense]\nx = 1\n", r"unknown section \[nonsense\]"),
        ("[camera]\nzoom = 2\n", r"unknown key 'zoom' in \[camera\]; keys are: source"),
        ("[display\n", r"not valid TOML"),
        ('[box]\nhardware = "arduino"\n', r"use one of: sim, pi"),
        ("[dice]\nd6_per_throw = 0\n", r"\[dice\] d6_per_throw = 0 is out of range; use 1 to 30"),
        ("[dice]\nd10_per_throw = 7.5\n", r"\[dice\] d10_per_throw = 7.5 must be a whole number"),
    ],
)
def test_broken_config_names_file_key_and_allowed(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError, match=message) as caught:
        config.load(path)
    assert str(path) in str(caught.value)


def test_example_config_documents_every_key_with_its_default() -> None:
    example = tomllib.loads(EXAMPLE.read_text())
    for section, keys in config.DEFAULTS.items():
        assert section in example, f"docs/config.example.toml lacks [{section}]"
        for key, default in keys.items():
            assert key in example[section], f"docs/config.example.toml lacks [{section}] {key}"
            assert example[section][key] == default, f"[{section}] {key} differs from the default"


def test_dice_per_throw_reach_the_box_as_limits_per_kind(tmp_path: Path) -> None:
    cfg = config.load(write(tmp_path, "[dice]\nd6_per_throw = 15\nd10_per_throw = 8\n"))
    assert per_throw(cfg["dice"]) == {DieKind.D6: 15, DieKind.D10: 8, DieKind.PERCENTILE: 8}
    assert per_throw(config.load()["dice"]) == PER_THROW == {
        DieKind.D6: 12, DieKind.D10: 10, DieKind.PERCENTILE: 10}


def test_state_dir_follows_systemd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/companion")
    assert config.load().journal_path == Path("/var/lib/companion/journal.sqlite3")


def test_commands_typed_on_an_installed_box_use_the_services_journal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    service = tmp_path / "var-lib-companion"
    monkeypatch.setattr(config, "SERVICE_STATE_DIR", service)
    assert config.load().state_dir != service  # not installed: the user's own folder
    service.mkdir()
    assert config.load().journal_path == service / "journal.sqlite3"
    assert config.load(write(tmp_path, f'[box]\nstate_dir = "{tmp_path}"\n')).state_dir \
        == tmp_path  # a configured folder still wins


@pytest.mark.parametrize(("text", "message"), [
    ("[controls]\nup_pin = 5\ndown_pin = 5\n", "[controls] down_pin = 5 is also [controls] up_pin"),
    ("[sounder]\npin = 13\n", "[controls] select_pin = 13 is also [sounder] pin"),
    ("[controls]\nkind = \"encoder\"\nencoder_a_pin = 3\n",
     "[controls] encoder_a_pin = 3 is also I2C SCL"),
    ('[chips]\nreader = "rc522"\nrst_pin = 10\n', "[chips] rst_pin = 10 is also SPI MOSI"),
    ('[chips]\nreader = "pn532-spi"\n[sounder]\npin = 7\n', "[sounder] pin = 7 is also SPI CE1"),
])
def test_one_gpio_pin_for_two_jobs_is_named(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match="each GPIO pin can do one job") as err:
        config.load(write(tmp_path, text))
    assert message in str(err.value)


def test_pins_of_devices_not_in_use_may_be_shared(tmp_path: Path) -> None:
    # Buttons only: the encoder's pins are free; no SPI reader: the SPI pins are free.
    cfg = config.load(write(tmp_path, "[controls]\nencoder_a_pin = 5\n[sounder]\npin = 10\n"))
    assert cfg["sounder"]["pin"] == 10


@pytest.mark.parametrize(("table", "message"), [
    ("die_px = -5", r"\[dice.calibration\] die_px = -5 is not a die size in pixels"),
    ('die_px = "big"', r"\[dice.calibration\] die_px = 'big' is not a die size"),
    ("tray = [1, 2]", r"\[dice.calibration\] tray = \[1, 2\] must be \[X, Y, WIDTH, HEIGHT\]"),
    ("frame_size = [640]", r"\[dice.calibration\] frame_size = \[640\] must be \[WIDTH, HEIGHT\]"),
    ("frame_size = [0, 480]", r"\[dice.calibration\] frame_size = \[0, 480\] must be positive"),
    ("gains = [1.0, 1.0]", r"\[dice.calibration\] gains = \[1.0, 1.0\] must be three numbers"),
    ("gains = [1.0, 0.0, 1.0]", r"\[dice.calibration\] gains = .* is out of range"),
    ("tray = [600, 0, 100, 100]", r"\[dice.calibration\] tray = .* does not fit in the 640x640"),
    ("corners = [[0, 0], [1, 1]]", r"\[dice.calibration\] corners = .* must be four \[X, Y\]"),
    ('corners = [[0, 0], [9, 0], [9, 9], ["a", 9]]', r"corners = \['a', 9\] must be an \[X, Y\]"),
    ("corners = [[0, 0], [900, 0], [9, 9], [0, 9]]", r"corners point \[900, 0\] is outside"),
    ('version = "1"', r"\[dice.calibration\] version = '1' must be a whole number"),
    ("die_pixels = 40", r"\[dice.calibration\] has unknown key\(s\) die_pixels; its keys are"),
])
def test_a_malformed_dice_calibration_is_refused_naming_the_setting(
    tmp_path: Path, table: str, message: str
) -> None:
    path = write(tmp_path, f"[dice.calibration]\n{table}\n")
    with pytest.raises(ConfigError, match=message) as caught:
        config.load(path)
    assert str(path) in str(caught.value)
    assert "companion dice calibrate" in str(caught.value)


def test_a_calibration_as_dice_calibrate_writes_it_is_accepted(tmp_path: Path) -> None:
    from companion.vision import Calibration
    from companion.vision.cli import CALIBRATION_TABLE, toml_table

    written = Calibration(frame_size=(1280, 960), tray=(40, 30, 1200, 900), die_px=61.5,
                          gains=(0.9, 1.0, 1.2),
                          corners=((40.0, 30.0), (1240.0, 31.5), (1239.9, 930.0), (40.0, 929.0)))
    path = write(tmp_path, toml_table(CALIBRATION_TABLE, written.to_dict()))
    assert Calibration.from_dict(dict(config.load(path)["dice"]["calibration"])) == written


def test_a_logo_faces_dir_that_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "faces").write_text("not a folder")
    path = write(tmp_path, f'[dice]\nlogo_faces_dir = "{tmp_path / "faces"}"\n')
    with pytest.raises(ConfigError, match=r"\[dice\] logo_faces_dir = .* is a file, not a folder"):
        config.load(path)
    (tmp_path / "faces").unlink()  # not there yet: `companion dice teach` makes it
    assert config.load(path)["dice"]["logo_faces_dir"] == str(tmp_path / "faces")


# ---- a refused config still reaches the display -------------------------------------


def test_the_error_screen_keeps_the_files_display_settings_that_pass(tmp_path: Path) -> None:
    path = write(tmp_path, '[box]\nhardware = "pi"\n[display]\ndriver = "sh1106"\n'
                           'rotate = 1\n[sounder]\npin = 99\n')
    cfg = config.settings_for_an_error_screen(path, board_model_file=tmp_path / "no-model")
    assert cfg.hardware == "pi"  # the file says so, though this is no Pi
    assert cfg["display"]["driver"] == "sh1106"
    assert cfg["display"]["rotate"] == 0  # refused: the default instead
    assert cfg["sounder"] == config.DEFAULTS["sounder"]


@pytest.mark.parametrize(("model", "hardware"), [
    (b"Raspberry Pi 5 Model B Rev 1.0\x00", "pi"),
    (b"Generic x86 board\x00", "sim"),
    (None, "sim"),
])
def test_a_file_that_is_not_toml_gives_defaults_and_the_board_decides_the_hardware(
    tmp_path: Path, model: bytes | None, hardware: str
) -> None:
    model_file = tmp_path / "model"
    if model is not None:
        model_file.write_bytes(model)
    cfg = config.settings_for_an_error_screen(write(tmp_path, "[display\n"),
                                              board_model_file=model_file)
    assert cfg.hardware == hardware
    assert cfg["display"] == config.DEFAULTS["display"]


def test_the_error_screen_follows_the_hardware_named_on_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model_file = tmp_path / "model"
    model_file.write_bytes(b"Raspberry Pi 4 Model B\x00")
    path = write(tmp_path, "[display\n")
    assert config.settings_for_an_error_screen(
        path, hardware="sim", board_model_file=model_file).hardware == "sim"
    monkeypatch.setenv("COMPANION_HW", "sim")
    assert config.settings_for_an_error_screen(path, board_model_file=model_file).hardware == "sim"
    monkeypatch.setenv("COMPANION_HW", "pie")  # itself refused: the board decides
    assert config.settings_for_an_error_screen(path, board_model_file=model_file).hardware == "pi"


def test_the_scenarios_folder_is_in_the_state_folder_unless_set(tmp_path: Path) -> None:
    assert config.load().scenarios_dir == config.load().state_dir / "scenarios"
    mine = tmp_path / "my scenarios"
    cfg = config.load(write(tmp_path, f'[box]\nscenarios_dir = "{mine}"\n'))
    assert cfg.scenarios_dir == mine  # need not exist yet: the box lists the examples


def test_a_scenarios_folder_that_is_a_file_is_refused_naming_the_setting(
    tmp_path: Path,
) -> None:
    afile = tmp_path / "scenarios.toml"
    afile.write_text('system = "fortboard"\n')
    path = write(tmp_path, f'[box]\nscenarios_dir = "{afile}"\n')
    with pytest.raises(ConfigError) as refused:
        config.load(path)
    assert str(refused.value) == (
        f"{path}: [box] scenarios_dir = '{afile}' is a file, not a folder; name the folder "
        "you copy scenario files into, or leave it empty for the scenarios folder in the "
        "state folder")
