"""The unit passes tools/ci/check-systemd.sh (verify silent, security <= 2.5)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "companion.service"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_check_systemd_script_passes() -> None:
    done = subprocess.run([str(REPO / "tools/ci/check-systemd.sh")], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok   verify companion.service: no warnings" in done.stdout


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_check_systemd_script_catches_a_typo(tmp_path: Path) -> None:
    bad = tmp_path / "companion.service"
    bad.write_text(UNIT.read_text().replace("NoNewPrivileges=", "NoNewPrivilege="))
    done = subprocess.run([str(REPO / "tools/ci/check-systemd.sh"), str(bad)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1
    assert "Unknown key 'NoNewPrivilege'" in done.stdout


def test_unit_says_what_the_daemon_relies_on() -> None:
    text = UNIT.read_text()
    for line in ("Type=notify", "WatchdogSec=30", "Restart=on-failure",
                 "RestartPreventExitStatus=2", "User=companion",
                 "SupplementaryGroups=gpio spi i2c video input", "StateDirectory=companion",
                 "WorkingDirectory=/run/companion", "DevicePolicy=closed",
                 "ProtectSystem=strict", "NoNewPrivileges=yes",
                 "ExecStart=/opt/companion/venv/bin/companion run"):
        assert f"\n{line}\n" in text, line
    for device in ("char-gpiochip", "char-spi", "char-i2c", "char-video4linux", "char-input"):
        assert f"DeviceAllow={device} rw" in text, device
