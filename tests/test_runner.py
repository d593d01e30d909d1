"""`companion run` as a service: scripted input, SIGTERM, and systemd notifications."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest


def companion(
    *args: str, env: dict[str, str] | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
        input=stdin,
        check=False,
    )


@pytest.fixture
def game() -> None:
    result = companion("new", "--system", "on_the_frontier")
    assert result.returncode == 0, result.stderr


def test_scripted_inputs_play_and_are_journaled(game: None, tmp_path: Path) -> None:
    script = tmp_path / "inputs.txt"
    # On the Frontier opens with the initiative roll: one d6 per side, thrown apart.
    script.write_text("# initiative\ndice d6:2\ndice d6:5\npress select\n")
    result = companion("run", "--script", str(script))
    assert result.returncode == 0, result.stderr
    assert "goes first" in result.stdout
    status = companion("status", "--json")
    assert '"events": 2' in status.stdout  # the game, then one roll of two throws


def test_unknown_chip_in_a_script_is_refused_and_nothing_recorded(
    game: None, tmp_path: Path
) -> None:
    script = tmp_path / "inputs.txt"
    script.write_text("tag 04DEADBEEF0001\n")
    result = companion("run", "--script", str(script))
    assert result.returncode == 0
    assert "Unknown chip" in result.stdout and "04DEADBEEF0001" in result.stdout
    assert '"events": 1' in companion("status", "--json").stdout


def test_a_nonsense_script_line_is_named(game: None, tmp_path: Path) -> None:
    script = tmp_path / "inputs.txt"
    script.write_text("juggle three dice\n")
    result = companion("run", "--script", str(script))
    assert result.returncode == 2
    assert "cannot understand 'juggle three dice'" in result.stderr


def test_sigterm_stops_cleanly_and_tells_systemd(game: None, tmp_path: Path) -> None:
    address = str(tmp_path / "notify.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(30)
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "run"],
        env={**os.environ, "NOTIFY_SOCKET": address},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    messages = []
    try:
        while not any(m.startswith("WATCHDOG=1") for m in messages):
            messages.append(listener.recv(4096).decode())
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
        listener.close()
    assert process.returncode == 0, err
    assert "READY=1" in messages
    assert any(m.startswith("STATUS=refereeing On the Frontier") for m in messages)
    assert "Traceback" not in err
    assert "turn" in out.lower()  # the state is printed on the way out


def test_autoplay_plays_a_whole_game(game: None) -> None:
    started = time.monotonic()
    result = companion("run", "--autoplay", "5")
    assert result.returncode == 0, result.stderr
    assert "game over" in result.stdout.lower()
    assert time.monotonic() - started < 120
