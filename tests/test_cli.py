"""The command line as a referee meets it: clear one-line errors, never a traceback."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from companion import cli
from companion.cli import main
from companion.session.journal import Journal


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
        check=False,
    )


def assert_clean_error(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr, result.stderr
    assert result.stderr.startswith("error: "), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    for fragment in fragments:
        assert fragment in result.stderr, result.stderr


def test_run_without_a_game_says_how_to_start_one() -> None:
    assert_clean_error(run_cli("run"), "no game at", "companion new")


def test_missing_config_file_is_named(tmp_path: Path) -> None:
    assert_clean_error(
        run_cli("run", "--config", str(tmp_path / "box.toml")), "box.toml: config file not found"
    )


def test_broken_config_names_key_and_allowed(tmp_path: Path) -> None:
    config = tmp_path / "box.toml"
    config.write_text('[display]\ndriver = "oled9000"\n')
    assert_clean_error(
        run_cli("new", "--system", "on_the_frontier", "--config", str(config)),
        "[display] driver",
        "ssd1306, sh1106",
    )


def test_a_refused_config_is_shown_on_the_boxs_display(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    config = tmp_path / "box.toml"
    config.write_text(f'[display]\nframes_dir = "{frames}"\n[sounder]\npin = 99\n')
    assert_clean_error(run_cli("run", "--config", str(config)), "[sounder] pin = 99")
    [frame] = sorted(frames.iterdir())
    assert frame.name.endswith("-error.png")
    from PIL import Image

    from companion.ui.screens import Screen, render

    shown = Screen("error", "Config refused",
                   lines=("box.toml: [sounder] pin = 99 is out of range; use 2 to 27.",))
    assert Image.open(frame).convert("1").tobytes() == render(shown).convert("1").tobytes()


def test_config_may_also_come_before_the_command(tmp_path: Path) -> None:
    config = tmp_path / "box.toml"
    config.write_text('[displai]\ndriver = "ssd1306"\n')
    assert_clean_error(
        run_cli("--config", str(config), "status"), "unknown section [displai]", "display"
    )


def test_a_config_before_the_command_reaches_the_other_modules_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.toml"
    # The doctor reported the default config as fine when given one that does not exist.
    assert main(["--config", str(missing), "doctor", "--json"]) != 0
    report = json.loads(capsys.readouterr().out)
    config_check = next(c for c in report["checks"] if c["name"] == "config")
    assert config_check["status"] == "fail" and str(missing) in config_check["detail"]
    assert main(["--config", str(missing), "chips", "list"]) == 2
    assert str(missing) in capsys.readouterr().err
    assert main(["--config", str(missing), "dice", "read", str(tmp_path / "x.jpg")]) == 2
    assert f"{missing}: no such config file" in capsys.readouterr().err


def test_config_from_the_environment_is_checked_too(tmp_path: Path) -> None:
    config = tmp_path / "box.toml"
    config.write_text("[sounder]\nmute = 3\n")
    assert_clean_error(run_cli("status", env={"COMPANION_CONFIG": str(config)}), "[sounder] mute")


def test_pi_mode_without_the_hardware_is_one_clear_message() -> None:
    assert run_cli("new", "--system", "on_the_frontier").returncode == 0
    result = run_cli("run", env={"COMPANION_HW": "pi"})
    assert_clean_error(result, "GPIO", "COMPANION_HW=sim")
    assert result.returncode == 3


def test_corrupt_journal_says_how_to_salvage(isolated_box_env: Path) -> None:
    journal = isolated_box_env / "companion" / "journal.sqlite3"
    journal.parent.mkdir(parents=True)
    journal.write_bytes(b"not a database at all" * 400)
    assert_clean_error(run_cli("run"), "journal", "companion journal salvage")
    assert_clean_error(run_cli("status"), "companion journal salvage")


def test_truncated_journal_is_salvaged_and_the_game_resumes(isolated_box_env: Path) -> None:
    assert run_cli("new", "--system", "on_the_frontier").returncode == 0
    assert run_cli("run", "--autoplay", "3", "--max-inputs", "120").returncode == 0
    journal = isolated_box_env / "companion" / "journal.sqlite3"
    import sqlite3

    db = sqlite3.connect(journal)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    data = journal.read_bytes()
    journal.write_bytes(data[: len(data) - 1024])
    broken = run_cli("status")
    assert_clean_error(broken, "salvage")
    salvaged = run_cli("journal", "salvage")
    assert salvaged.returncode == 0, salvaged.stderr
    assert "kept" in salvaged.stdout and "damaged file is kept" in salvaged.stdout
    assert run_cli("journal", "check").returncode == 0
    assert run_cli("run", "--autoplay", "4", "--max-inputs", "20").returncode == 0


def test_a_journal_whose_scenario_is_lost_is_salvaged_with_the_scenario_named(
    isolated_box_env: Path,
) -> None:
    import sqlite3

    assert run_cli("new", "--system", "on_the_frontier").returncode == 0
    assert run_cli("run", "--autoplay", "3", "--max-inputs", "60").returncode == 0
    played = json.loads(run_cli("status", "--json").stdout)
    journal = isolated_box_env / "companion" / "journal.sqlite3"
    db = sqlite3.connect(journal)
    db.execute("UPDATE events SET crc = crc + 1 WHERE seq = 1")
    db.commit()
    db.close()
    assert_clean_error(run_cli("status"), "salvage")
    assert_clean_error(run_cli("journal", "salvage"), "scenario", "--system NAME")
    # The wrong scenario does not fit the events: refused, nothing moved.
    assert_clean_error(run_cli("journal", "salvage", "--system", "tenir_le_fort"),
                       "does not fit the game")
    assert sorted(p.name for p in journal.parent.iterdir()) == ["journal.sqlite3"]
    salvaged = run_cli("journal", "salvage", "--system", "on_the_frontier")
    assert salvaged.returncode == 0, salvaged.stderr
    assert f"kept {played['events']} events" in salvaged.stdout
    again = json.loads(run_cli("status", "--json").stdout)
    assert again["fingerprint"] == played["fingerprint"]


def test_salvage_leaves_a_sound_journal_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "j.sqlite3"
    assert main(["demo", "--max-inputs", "10", "--journal", str(path)]) == 0
    capsys.readouterr()
    assert main(["journal", "salvage", "--journal", str(path)]) == 0
    assert "nothing to salvage" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j.sqlite3"]


def test_new_refuses_to_overwrite_a_game_without_force() -> None:
    assert run_cli("new", "--system", "on_the_frontier").returncode == 0
    assert_clean_error(
        run_cli("new", "--system", "on_the_frontier"), "already holds a game", "--force"
    )
    forced = run_cli("new", "--system", "on_the_frontier", "--force")
    assert forced.returncode == 0 and "archived" in forced.stdout


def test_bad_scenario_names_the_unit_and_field(tmp_path: Path) -> None:
    scenario = tmp_path / "bad.toml"
    scenario.write_text(
        'system = "on_the_frontier"\ntitle = "t"\nsides = ["British", "Tribesmen"]\n'
        '[[units]]\nname = "Ghazis"\nside = "Tribesmen"\nkind = "dragon"\nfigures = 12\n'
    )
    result = run_cli("new", "--scenario", str(scenario))
    assert_clean_error(result, "bad.toml", "Ghazis", "kind")


def test_unknown_system_lists_the_systems() -> None:
    assert_clean_error(run_cli("new", "--system", "warhammer"), "tenir_le_fort", "on_the_frontier")


def test_rules_list_json_has_all_five_systems(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "list", "--json"]) == 0
    systems = json.loads(capsys.readouterr().out)
    assert [s["name"] for s in systems] == [
        "tenir_le_fort",
        "scrubs_of_the_desert",
        "fortboard",
        "fighting_swashbucklers",
        "on_the_frontier",
    ]
    assert all(s["actions"] for s in systems)


def _first_action(system: str) -> tuple[str, list[str]]:
    from companion.rules import get_ruleset

    action = next(iter(get_ruleset(system).actions.values()))
    example = action.examples[0]
    words = [f"{k}={'yes' if v is True else 'no' if v is False else v}" for k, v in example.items()]
    return action.name, words


@pytest.mark.parametrize(
    "system",
    [
        "tenir_le_fort",
        "scrubs_of_the_desert",
        "fortboard",
        "fighting_swashbucklers",
        "on_the_frontier",
    ],
)
def test_odds_and_resolve_work_for_every_system(
    system: str, capsys: pytest.CaptureFixture[str]
) -> None:
    name, words = _first_action(system)
    assert main(["rules", "show", system, name, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["name"] == name
    assert main(["odds", system, name, *words, "--json"]) == 0
    odds = json.loads(capsys.readouterr().out)
    assert abs(sum(odds["odds"]["headline"].values()) - 1) < 1e-9
    kinds = [g for g in odds["request"]["groups"] for _ in range(g["count"])]
    dice = ",".join("1" if g["kind"] == "d6" else "0" for g in kinds)
    assert main(["resolve", system, name, *words, "--dice", dice, "--json"]) == 0
    resolved = json.loads(capsys.readouterr().out)
    assert "headline" in resolved
    # One die too many: the message says how many were expected.
    assert main(["resolve", system, name, *words, "--dice", dice + ",1"]) == 2
    assert "expected" in capsys.readouterr().err


def test_odds_give_the_average_with_the_maxim_s_6s_dice(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # 8 FFL Maxim dice in the open: 4 hits on this roll, 4/5 more from the 6s' dice.
    assert main(["odds", "tenir_le_fort", "maxim-fire"]) == 0
    out = capsys.readouterr().out
    assert "average 4.00 hits\n" in out
    assert "average 4.80 hits counting its follow-up rolls\n" in out
    assert main(["odds", "tenir_le_fort", "maxim-fire", "--json"]) == 0
    odds = json.loads(capsys.readouterr().out)["odds"]
    assert odds["follow_up_mean_exact"] == "4/5"
    # A roll that brings no more dice says nothing of them.
    assert main(["odds", "tenir_le_fort", "ffl-fire", "--json"]) == 0
    assert "follow_up_mean" not in json.loads(capsys.readouterr().out)["odds"]
    assert main(["odds", "tenir_le_fort", "ffl-fire"]) == 0
    assert "follow-up" not in capsys.readouterr().out


def test_wrong_parameter_names_what_is_allowed(capsys: pytest.CaptureFixture[str]) -> None:
    name, _ = _first_action("on_the_frontier")
    assert main(["odds", "on_the_frontier", name, "bogus=3"]) == 2
    err = capsys.readouterr().err
    assert "has no parameter 'bogus'" in err and "it takes:" in err


def test_a_parameter_given_twice_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    # It used to take the last silently: the referee may have meant either.
    assert main(["odds", "tenir_le_fort", "ffl-fire", "riflemen=3", "riflemen=4"]) == 2
    assert "parameter 'riflemen' is given twice" in capsys.readouterr().err


def test_unknown_action_lists_the_actions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "on_the_frontier", "teleport"]) == 2
    assert "its actions are:" in capsys.readouterr().err


def test_a_file_where_a_folder_should_be_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    in_the_way = tmp_path / "frames"
    in_the_way.write_text("not a folder")
    assert main(["demo", "--frames", str(in_the_way), "--max-inputs", "3",
                 "--journal", str(tmp_path / "j.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {in_the_way}: ") and "check the path" in err
    assert len(err.strip().splitlines()) == 1


def test_an_empty_journal_file_is_named_and_left_as_it_is(isolated_box_env: Path) -> None:
    journal = isolated_box_env / "companion" / "journal.sqlite3"
    journal.parent.mkdir(parents=True, exist_ok=True)
    journal.touch()
    for command in (("status",), ("journal", "check"), ("run", "--autoplay", "1")):
        assert_clean_error(run_cli(*command), f"{journal} is an empty file (0 bytes)",
                           "companion new")
    assert journal.read_bytes() == b"" and sorted(journal.parent.iterdir()) == [journal]
    import sqlite3

    sqlite3.connect(journal).executescript(
        "CREATE TABLE events (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, payload TEXT NOT NULL,"
        " crc INTEGER NOT NULL, at REAL NOT NULL)").close()
    assert_clean_error(run_cli("journal", "check"), f"{journal}: the journal holds no game")


def test_a_second_box_process_is_refused_while_readers_still_work(
    isolated_box_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = isolated_box_env / "companion" / "journal.sqlite3"
    assert main(["new", "--system", "on_the_frontier"]) == 0
    running = Journal(journal, create=False)  # as the box running the game has it
    capsys.readouterr()
    for command in (["run", "--autoplay", "1", "--max-inputs", "5"],
                    ["new", "--system", "on_the_frontier", "--force"]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert f"the journal {journal} is being written by another box process" in err
        assert "sudo systemctl stop companion" in err and "companion run" in err
    assert sorted(p.name for p in journal.parent.iterdir()) == [
        "journal.sqlite3", "journal.sqlite3-shm", "journal.sqlite3-wal",
        "journal.sqlite3.lock"]  # nothing archived under the running game
    assert main(["status"]) == 0
    assert main(["journal", "check"]) == 0
    running.close()
    assert main(["run", "--autoplay", "1", "--max-inputs", "5"]) == 0


def test_a_game_that_stops_fitting_points_to_salvage_which_keeps_what_replays(
    isolated_box_env: Path,
) -> None:
    import sqlite3
    import zlib

    assert run_cli("new", "--system", "tenir_le_fort").returncode == 0
    assert run_cli("run", "--autoplay", "3", "--max-inputs", "80").returncode == 0
    journal = isolated_box_env / "companion" / "journal.sqlite3"
    payload = json.dumps({"key": "no-such-option"})
    db = sqlite3.connect(journal)
    (bad,) = db.execute("SELECT seq FROM events WHERE kind = 'ChoiceMade' AND seq > 5 "
                        "ORDER BY seq LIMIT 1").fetchone()
    db.execute("UPDATE events SET payload = ?, crc = ? WHERE seq = ?",
               (payload, zlib.crc32(f"ChoiceMade\n{payload}".encode()), bad))
    db.commit()
    db.close()
    advice = f"run 'companion journal salvage' to keep the {bad - 1} events before it"
    for command in (("status",), ("run", "--autoplay", "4", "--max-inputs", "5"),
                    ("journal", "check")):
        assert_clean_error(run_cli(*command),
                           f"journal event {bad} (ChoiceMade) does not fit the game", advice)
    salvaged = run_cli("journal", "salvage")
    assert salvaged.returncode == 0, salvaged.stderr
    assert f"kept {bad - 1} events in {journal}" in salvaged.stdout
    assert f"left out event {bad} (ChoiceMade)" in salvaged.stdout
    status = json.loads(run_cli("status", "--json").stdout)
    assert status["events"] == bad - 1
    assert run_cli("run", "--autoplay", "4", "--max-inputs", "20").returncode == 0


def test_a_folder_where_the_journal_should_be_is_named_as_one(isolated_box_env: Path) -> None:
    journal = isolated_box_env / "companion" / "journal.sqlite3"
    journal.mkdir(parents=True)
    for command in (("status",), ("journal", "check"), ("journal", "salvage"),
                    ("run", "--autoplay", "1"), ("new", "--system", "on_the_frontier")):
        result = run_cli(*command)
        assert_clean_error(result, f"{journal} is a folder, not a journal file",
                           "move it out of the way")
        assert "salvage'" not in result.stderr and "companion new" not in result.stderr


@pytest.mark.parametrize("dice", ["6,5", "6, 5", "6 5"])
def test_dice_may_be_written_with_commas_or_spaces(
    dice: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["resolve", "tenir_le_fort", "ammunition", "--dice", dice]) == 0
    assert "11: low ammo" in capsys.readouterr().out


@pytest.mark.parametrize(("tens", "as_the_rules_count_it"),
                         [("40", "4"), ("00", "0"), ("90", "9"), ("7", "7")])
def test_a_percentile_tens_die_is_written_as_the_box_shows_it(
    tens: str, as_the_rules_count_it: str, capsys: pytest.CaptureFixture[str]
) -> None:
    morale = ["resolve", "scrubs_of_the_desert", "morale", "--json", "--dice"]
    assert main([*morale, f"{as_the_rules_count_it},5"]) == 0
    counted = json.loads(capsys.readouterr().out)
    assert main([*morale, f"{tens},5"]) == 0
    assert json.loads(capsys.readouterr().out) == counted


def test_a_tens_die_between_the_tens_is_refused_saying_what_it_reads(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["resolve", "scrubs_of_the_desert", "morale", "--dice", "45,5"]) == 2
    err = capsys.readouterr().err
    assert "die 1 is a percentile tens die; a tens die reads 00, 10, ..., 90, got 45" in err


def test_parameters_may_follow_the_dice_and_are_optional(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["resolve", "scrubs_of_the_desert", "morale", "--dice", "0,0",
                 "double_zero=hundred"]) == 0
    assert "rolled 100 against" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["odds"])
    err = capsys.readouterr().err
    assert "required: system, action\n" in err  # not the parameters, which may be left out


def test_rules_show_writes_values_as_they_are_typed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "tenir_le_fort", "ffl-fire"]) == 0
    out = capsys.readouterr().out
    assert "sergeant           yes or no (default no)" in out
    assert "sergeant=yes" in out
    assert "True" not in out and "False" not in out


def test_a_state_folder_that_is_a_file_is_named_with_its_setting(tmp_path: Path) -> None:
    in_the_way = tmp_path / "afile"
    in_the_way.write_text("not a folder")
    for folder in (in_the_way, in_the_way / "sub"):
        config = tmp_path / "box.toml"
        config.write_text(f'[box]\nstate_dir = "{folder}"\n')
        assert_clean_error(run_cli("new", "--system", "fortboard", "--config", str(config)),
                           f"[box] state_dir = '{folder}' in {config}: {in_the_way} is a file, "
                           "not a folder", "move the file away")


def test_a_system_and_a_scenario_of_another_system_are_refused(tmp_path: Path) -> None:
    from companion.session.scenario_files import example_scenario_text

    scenario = tmp_path / "fort.toml"
    scenario.write_text(example_scenario_text("fortboard"))
    assert_clean_error(
        run_cli("new", "--system", "tenir_le_fort", "--scenario", str(scenario)),
        f"--system tenir_le_fort and --scenario {scenario} (a fortboard game) disagree")
    agreeing = run_cli("new", "--system", "fortboard", "--scenario", str(scenario))
    assert agreeing.returncode == 0, agreeing.stderr


@pytest.mark.parametrize(
    ("argv", "complaint"),
    [
        (["demo", "--camera-fails-after", "-1"], "argument --camera-fails-after: "),
        (["demo", "--max-inputs", "0"], "argument --max-inputs: "),
        (["dice", "bench", ".", "--threads", "-5"], "argument --threads: "),
        (["run", "--max-inputs", "-5"], "argument --max-inputs: '-5' is not a whole number"),
        (["run", "--max-inputs", "0"], "argument --max-inputs: '0' is not a whole number"),
        (["run", "--script", "x.txt", "--autoplay", "1"],
         "argument --autoplay: not allowed with argument --script"),
        (["run", "--keyboard", "--autoplay", "1"],
         "argument --autoplay: not allowed with argument --keyboard"),
    ],
)
def test_options_that_cannot_be_meant_are_refused_naming_the_option(
    argv: list[str], complaint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert complaint in capsys.readouterr().err


def test_a_demo_stopped_at_max_inputs_succeeds_and_says_no_tune_was_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--max-inputs", "1", "--journal", str(tmp_path / "j.sqlite3")]) == 0
    out = capsys.readouterr().out
    assert "stopped after 1 input without reaching the end" in out
    assert "Tunes: none\n" in out


def test_a_list_of_numbers_may_start_with_a_negative_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import random

    import cv2

    from companion.vision import compose_tray

    photo = tmp_path / "tray.png"
    cv2.imwrite(str(photo), compose_tray([2], "d6", random.Random(1)))
    # argparse took "-5,0,560,580" for an option and said --tray expected one argument.
    assert main(["dice", "calibrate", "--from", str(photo), "--tray", "-5,0,560,580",
                 "--picture", str(tmp_path / "seen.jpg")]) == 2
    assert "the tray (-5, 0, 560, 580) does not fit in the 640x640 frame" in (
        capsys.readouterr().err)


def test_a_fault_in_the_box_is_not_passed_off_as_bad_input(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Exit 2 means "needs a person" and systemd does not restart it; a bug's ValueError
    or a path-less OSError must keep its traceback and exit 1 instead."""
    from companion.rules.core import RulesError

    def failing(error: Exception) -> Callable[[object], int]:
        def handler(args: object) -> int:
            raise error
        return handler

    monkeypatch.setattr(cli, "_odds", failing(RulesError("no such parameter 'range'")))
    assert main(["odds", "tenir_le_fort", "ffl-fire"]) == 2
    assert "error: no such parameter 'range'" in capsys.readouterr().err
    for bug in (ValueError("list.index(x): x not in list"), OSError(5, "Input/output error")):
        monkeypatch.setattr(cli, "_odds", failing(bug))
        with pytest.raises(type(bug)):
            main(["odds", "tenir_le_fort", "ffl-fire"])


def test_the_service_logs_at_its_configured_level_unless_told(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = logging.getLogger()
    monkeypatch.setattr(root, "level", root.level)  # restored after the test
    config = tmp_path / "c.toml"
    config.write_text(f'[box]\nstate_dir = "{tmp_path}"\nlog_level = "debug"\n')
    assert main(["run", "--config", str(config)]) == 2  # no game: the level is set first
    assert root.level == logging.DEBUG
    root.setLevel(logging.WARNING)
    assert main(["--log-level", "warning", "run", "--config", str(config)]) == 2
    assert root.level == logging.WARNING  # the command line's, not the config's


def test_results_and_odds_are_worded_as_the_box_words_them(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The command line printed "1 passed" and "average 1.25 goes first (0 = tie)"."""
    assert main(["resolve", "scrubs_of_the_desert", "morale", "--dice", "40,5"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith(": Passed: yes")
    assert main(["odds", "on_the_frontier", "who-goes-first"]) == 0
    out = capsys.readouterr().out
    assert "average" not in out and "Goes first: tie" in out
    assert main(["odds", "scrubs_of_the_desert", "morale"]) == 0
    out = capsys.readouterr().out
    assert "Passed: no " in out and "morale failed" in out and "average" not in out
    assert main(["odds", "tenir_le_fort", "ffl-fire"]) == 0
    assert "  1 hit " in capsys.readouterr().out


def test_new_force_archives_the_game_beside_it_and_starts_afresh(
    isolated_box_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import re

    from companion.session.events import ChoiceMade, GameStarted

    def events_in(path: Path) -> list[object]:
        reader = Journal(path, readonly=True)
        try:
            return [entry.event for entry in reader.entries()]
        finally:
            reader.close()

    journal = isolated_box_env / "companion" / "journal.sqlite3"
    assert main(["new", "--system", "on_the_frontier"]) == 0
    played = Journal(journal, create=False)
    played.append(ChoiceMade("a step of the game"))
    played.close()
    before = events_in(journal)
    capsys.readouterr()
    assert main(["new", "--system", "fortboard", "--force"]) == 0
    found = re.search(r"archived the previous game to (\S+)", capsys.readouterr().out)
    assert found is not None
    archived = Path(found[1])
    assert archived.parent == journal.parent
    assert re.fullmatch(r"journal-\d{8}-\d{6}\.sqlite3", archived.name)
    assert events_in(archived) == before and len(before) == 2
    [started] = events_in(journal)
    assert isinstance(started, GameStarted) and started.system == "fortboard"
