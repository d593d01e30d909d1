"""tools/install/install.sh: the --dry-run plan is complete and changes nothing; a second
real run (in a scratch root, with the system commands faked) changes nothing new."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "tools" / "install" / "install.sh"

# Commands that change a machine. In a dry run none may be called: each is replaced by
# a shim that records its call. (install, cp, sed, mkdir and rsync only touch files,
# and the scratch root catches those.)
FAKED = [
    "apt-get", "apt", "dpkg", "systemctl", "systemd-sysusers", "useradd", "usermod",
    "groupadd", "udevadm", "modprobe", "runuser", "reboot", "pip", "pip3", "raspi-config",
]


def make_shims(bin_dir: Path, log: Path) -> None:
    bin_dir.mkdir()
    for name in FAKED:
        shim = bin_dir / name
        shim.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\nexit 0\n')
        shim.chmod(0o755)
    # python3 -m venv DIR: make a fake venv whose pip and python only log.
    venv = bin_dir / "python3"
    venv.write_text(
        "#!/bin/sh\n"
        f'echo "python3 $*" >> "{log}"\n'
        'if [ "$1" = -m ] && [ "$2" = venv ]; then\n'
        '  for d; do dir="$d"; done\n'
        '  mkdir -p "$dir/bin"\n'
        '  echo "include-system-site-packages = true" > "$dir/pyvenv.cfg"\n'
        '  for t in python pip; do\n'
        f'    printf \'#!/bin/sh\\necho "venv-%s $*" >> "{log}"\\n\' "$t" > "$dir/bin/$t"\n'
        '    chmod 755 "$dir/bin/$t"\n'
        "  done\n"
        "fi\n"
    )
    venv.chmod(0o755)


def run_script(
    tmp_path: Path, *args: str, root: str | None = None
) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    log = tmp_path / "calls.log"
    log.touch()
    bin_dir = tmp_path / "bin"
    if not bin_dir.exists():
        make_shims(bin_dir, log)
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}:{env.get('PATH', '/usr/bin:/bin')}"
    env["INSTALL_ROOT"] = root if root is not None else str(tmp_path / "root")
    (tmp_path / "root").mkdir(exist_ok=True)
    before = log.read_text().splitlines()
    done = subprocess.run(
        ["bash", str(SCRIPT), *args], capture_output=True, text=True, env=env, timeout=60,
        check=False,
    )
    calls = log.read_text().splitlines()[len(before):]
    return done, calls


def test_dry_run_prints_complete_plan(tmp_path: Path) -> None:
    done, calls = run_script(tmp_path, "--dry-run")
    assert done.returncode == 0, done.stderr
    plan = done.stdout
    assert calls == [], f"dry run called: {calls}"
    assert list((tmp_path / "root").iterdir()) == [], "dry run wrote files"

    # apt packages
    for package in ("python3-picamera2", "python3-venv", "python3-numpy", "rpicam-apps-lite",
                    "i2c-tools"):
        assert re.search(rf"would run: .*apt-get install .*\b{package}\b", plan), package
    assert "would run: apt-get update" in plan
    # venv and pins
    assert re.search(r"would run: python3 -m venv --system-site-packages \S*/opt/companion/venv",
                     plan)
    assert re.search(r"pip install .*companion\[pi,pi5\]", plan)
    assert "opencv-python-headless==4.11.0.86" in plan
    assert "'numpy<2'" in plan
    assert "constraints-pi.txt" in plan
    # user and groups
    assert "would run: systemd-sysusers /etc/sysusers.d/companion.conf" in plan
    assert "gpio spi i2c video input" in plan
    # config.txt lines
    for line in ("dtparam=i2c_arm=on", "dtparam=i2c_arm_baudrate=400000", "dtparam=spi=on",
                 "camera_auto_detect=1"):
        assert line in plan, line
    assert re.search(r"would run: append_file \S*config.txt.fragment \S*/boot/firmware/config.txt",
                     plan)
    assert "would run: modprobe i2c-dev" in plan
    # udev, unit, enable
    assert re.search(r"would run: install .*99-companion.rules \S*/etc/udev/rules.d/", plan)
    assert "would run: udevadm control --reload-rules" in plan
    assert re.search(r"would run: install .*companion.service \S*/etc/systemd/system/", plan)
    assert "would run: systemctl daemon-reload" in plan
    assert "would run: systemctl enable companion.service" in plan
    assert "companion doctor" in plan
    assert "nothing changed" in plan


def test_dry_run_on_a_pi4_uses_rpi_gpio(tmp_path: Path) -> None:
    done, _ = run_script(tmp_path, "--dry-run", "--board", "pi4")
    assert done.returncode == 0, done.stderr
    assert re.search(r"pip install .*companion\[pi,pi4\]", done.stdout)


def test_dry_run_without_scratch_root_changes_nothing(tmp_path: Path) -> None:
    """The plan against the real paths of this machine: still only printing."""
    done, calls = run_script(tmp_path, "--dry-run", root="")
    assert done.returncode == 0, done.stderr
    read_only = ("systemctl is-enabled",)
    assert [c for c in calls if not c.startswith(read_only)] == []
    assert "Dry run complete" in done.stdout


def test_bad_option() -> None:
    done = subprocess.run(["bash", str(SCRIPT), "--frobnicate"], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 2
    assert "unknown option" in done.stderr


def test_second_run_is_a_no_op_for_files(tmp_path: Path) -> None:
    if shutil.which("rsync") is None:
        pytest.skip("rsync not installed")
    root = tmp_path / "root"
    (root / "boot/firmware").mkdir(parents=True)
    config_txt = root / "boot/firmware/config.txt"
    config_txt.write_text("# stock\ndtparam=audio=on\n[all]\n")

    first, calls = run_script(tmp_path, "--force", "--board", "pi5")
    assert first.returncode == 0, first.stdout + first.stderr
    assert any(c.startswith("apt-get install") for c in calls)
    assert any(c.startswith("venv-pip install") for c in calls)
    assert "systemctl enable companion.service" in calls
    assert (root / "etc/systemd/system/companion.service").read_text() == (
        REPO / "systemd/companion.service"
    ).read_text()
    assert (root / "opt/companion/pyproject.toml").exists()
    assert (root / "etc/companion/companion.toml").exists()
    text = config_txt.read_text()
    assert text.startswith("# stock\ndtparam=audio=on\n")
    assert text.count("dtparam=i2c_arm_baudrate=400000") == 1
    assert "Reboot now" in first.stdout

    second, calls = run_script(tmp_path, "--force", "--board", "pi5")
    assert second.returncode == 0, second.stdout + second.stderr
    assert config_txt.read_text() == text
    assert "running:   install" not in second.stdout
    assert "up to date: the block is already in /boot/firmware/config.txt" in second.stdout
    assert "up to date: /etc/systemd/system/companion.service" in second.stdout
    assert "kept: /etc/companion/companion.toml" in second.stdout
    assert not any(c.startswith("python3 -m venv") for c in calls)
    assert "modprobe i2c-dev" not in calls
    assert "systemctl restart companion.service" in calls  # new code takes effect


def test_shellcheck() -> None:
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.skip("shellcheck not installed (apt-get install shellcheck)")
    scripts = [SCRIPT, REPO / "tools/ci/check-systemd.sh"]
    done = subprocess.run([shellcheck, "-x", *map(str, scripts)], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stdout
