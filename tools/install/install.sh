#!/usr/bin/env bash
# Install the referee box on Raspberry Pi OS Bookworm 64-bit (Pi 4, Pi 5, Zero 2 W).
#
#   sudo tools/install/install.sh [--dry-run] [--board auto|pi4|pi5] [--no-start] [--force]
#
# Safe to run again: each step looks first and only changes what differs.
# --dry-run changes nothing and prints every step and every command it would run.
# Every command that changes the machine goes through run() below.
#
# Steps: 1 checks, 2 apt packages, 3 service user and groups, 4 copy the code to
# /opt/companion, 5 venv (--system-site-packages), 6 pip install with the Pi pins,
# 7 config file, 8 config.txt (I2C 400 kHz, SPI, camera) and i2c-dev, 9 udev rules,
# 10 systemd unit installed and enabled, 11 companion doctor.
set -euo pipefail

ARGS=("$@")
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# Target paths. INSTALL_ROOT prefixes every file path (tests point it at a scratch
# directory so the plan does not depend on what this machine has); it is empty on a Pi.
ROOT="${INSTALL_ROOT:-}"
APP_DIR=/opt/companion
VENV="$APP_DIR/venv"
CONFIG_DIR=/etc/companion
UNIT_DIR=/etc/systemd/system
UDEV_DIR=/etc/udev/rules.d
SYSUSERS_DIR=/etc/sysusers.d
MODULES_DIR=/etc/modules-load.d
SERVICE_USER=companion
SERVICE_GROUPS=(gpio spi i2c video input)

# Debian packages. python3-picamera2 brings libcamera, its Python binding and the
# numpy 1.x that it was built against; the venv sees them through
# --system-site-packages. The build tools are for the extras that pip builds from
# source on arm64 (spidev, evdev, RPi.GPIO; lgpio when no wheel fits).
APT_PACKAGES=(
    python3-venv python3-pip python3-dev python3-numpy
    python3-picamera2 python3-libcamera rpicam-apps-lite
    python3-lgpio liblgpio-dev swig build-essential
    i2c-tools sqlite3 rsync
)
# Pins for apt's picamera2: OpenCV 4.12+ needs numpy 2, which would shadow the
# system numpy 1.x inside the venv and break picamera2.
PIP_PINS=("opencv-python-headless==4.11.0.86" "numpy<2")

DRY_RUN=0
BOARD=auto
START=1
FORCE=0
REBOOT_NEEDED=0
STEP=0

usage() {
    sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run | -n) DRY_RUN=1 ;;
        --board) BOARD="${2:?--board needs auto, pi4 or pi5}"; shift ;;
        --board=*) BOARD="${1#--board=}" ;;
        --no-start) START=0 ;;
        --force) FORCE=1 ;;
        -h | --help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done
case "$BOARD" in auto | pi4 | pi5) ;; *) echo "install.sh: --board must be auto, pi4 or pi5" >&2; exit 2 ;; esac

# ---- output ---------------------------------------------------------------------
step() {
    STEP=$((STEP + 1))
    printf '\n==> Step %d: %s\n' "$STEP" "$*"
}
note() { printf '    %s\n' "$*"; }
die() {
    printf 'install.sh: %s\n' "$*" >&2
    exit 1
}

# The one place where the machine is changed. In --dry-run it only prints.
run() {
    local arg shown=""
    for arg in "$@"; do
        if [[ "$arg" =~ ^[A-Za-z0-9_./=:,@%+-]+$ ]]; then
            shown+=" $arg"
        else
            shown+=" '${arg//\'/\'\\\'\'}'"
        fi
    done
    if [ "$DRY_RUN" -eq 1 ]; then
        printf '    would run:%s\n' "$shown"
    else
        printf '    running:  %s\n' "$shown"
        "$@"
    fi
}

# Helpers that run() may call by name (so dry runs print them and never run them).
append_file() { cat -- "$1" >>"$2"; }

# Install a file from the repo unless the target already has the same content.
# Returns 0 when it changed (or would change) the target, 1 when it was up to date.
install_file() {
    local mode="$1" src="$2" dst="$ROOT$3"
    if [ -f "$dst" ] && cmp -s "$src" "$dst"; then
        note "up to date: $3"
        return 1
    fi
    run install -D -m "$mode" "$src" "$dst"
    return 0
}

# ---- 1. checks --------------------------------------------------------------------
step "Check the system"
[ "$DRY_RUN" -eq 1 ] && note "DRY RUN: nothing will be changed; the commands are printed instead."
if [ "$(id -u)" -ne 0 ] && [ "$DRY_RUN" -eq 0 ] && [ -z "$ROOT" ]; then
    die "run as root: sudo $0 ${ARGS[*]:-}  (or add --dry-run to see the plan)"
fi
codename="unknown"
if [ -r /etc/os-release ]; then
    codename="$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-unknown}")"
fi
arch="$(uname -m)"
note "OS: Debian/Raspberry Pi OS '$codename', CPU $arch (wanted: bookworm, aarch64)"
if [ "$codename" != bookworm ] || [ "$arch" != aarch64 ]; then
    if [ "$DRY_RUN" -eq 0 ] && [ "$FORCE" -eq 0 ]; then
        die "this script is for Raspberry Pi OS Bookworm 64-bit; use --force to try anyway"
    fi
    note "warning: not Bookworm 64-bit; going on (dry run or --force)"
fi
model=""
if [ -r /proc/device-tree/model ]; then
    model="$(tr -d '\0' </proc/device-tree/model)"
fi
if [ "$BOARD" = auto ]; then
    case "$model" in
        "Raspberry Pi 5"*) BOARD=pi5 ;;
        "Raspberry Pi"*) BOARD=pi4 ;;
        *)
            [ "$DRY_RUN" -eq 1 ] || [ "$FORCE" -eq 1 ] \
                || die "not a Raspberry Pi (model: '${model:-none}'); name the board with --board pi4|pi5"
            BOARD=pi5
            note "not a Raspberry Pi (model: '${model:-none}'); planning for --board pi5"
            ;;
    esac
fi
if [ "$BOARD" = pi5 ]; then
    EXTRAS="pi,pi5"
    note "board: ${model:-Pi 5 (assumed)} -> extras [pi,pi5] (rpi-lgpio provides RPi.GPIO on a Pi 5)"
else
    EXTRAS="pi,pi4"
    note "board: ${model:-Pi 4 / Zero 2 W (assumed)} -> extras [pi,pi4] (RPi.GPIO)"
fi
boot_config="$ROOT/boot/firmware/config.txt"
if [ ! -e "$boot_config" ] && [ -e "$ROOT/boot/config.txt" ]; then
    boot_config="$ROOT/boot/config.txt"
fi
note "firmware config: ${boot_config#"$ROOT"}"

# ---- 2. apt -------------------------------------------------------------------------
step "Install Debian packages with apt"
note "packages: ${APT_PACKAGES[*]}"
run apt-get update
run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"

# ---- 3. user and groups -------------------------------------------------------------
step "Create the service user '$SERVICE_USER' in groups ${SERVICE_GROUPS[*]}"
install_file 0644 "$SRC/firmware-config/sysusers.d/companion.conf" "$SYSUSERS_DIR/companion.conf" || true
missing_groups=()
if id "$SERVICE_USER" >/dev/null 2>&1; then
    have=" $(id -nG "$SERVICE_USER") "
    for g in "${SERVICE_GROUPS[@]}"; do
        [[ "$have" == *" $g "* ]] || missing_groups+=("$g")
    done
else
    missing_groups=("${SERVICE_GROUPS[@]}")
fi
if [ "${#missing_groups[@]}" -gt 0 ] || [ -n "$ROOT" ]; then
    note "user $SERVICE_USER: missing or not yet in: ${missing_groups[*]:-(checked in a scratch root)}"
    # sysusers makes the user (no login, home /var/lib/companion) and any missing
    # group, and adds the memberships; it never touches what already exists.
    run systemd-sysusers "$SYSUSERS_DIR/companion.conf"
else
    note "user $SERVICE_USER exists and is in ${SERVICE_GROUPS[*]}"
fi

# ---- 4. code --------------------------------------------------------------------------
step "Copy the code to $APP_DIR"
if [ "$SRC" = "$ROOT$APP_DIR" ]; then
    note "running from $APP_DIR itself: nothing to copy"
else
    run mkdir -p "$ROOT$APP_DIR"
    run rsync -a --delete --exclude=/venv --exclude=/.venv --exclude=/.git \
        --exclude=__pycache__ --exclude='*.egg-info' --exclude=/build \
        "$SRC/" "$ROOT$APP_DIR/"
fi

# ---- 5. venv ------------------------------------------------------------------------
step "Create the venv $VENV with --system-site-packages (apt's picamera2 and numpy)"
if [ -x "$ROOT$VENV/bin/python" ] && grep -q '^include-system-site-packages = true' "$ROOT$VENV/pyvenv.cfg" 2>/dev/null; then
    note "up to date: $VENV (sees the system site-packages)"
else
    run python3 -m venv --system-site-packages "$ROOT$VENV"
fi

# ---- 6. pip ---------------------------------------------------------------------------
step "Install companion[$EXTRAS] into the venv, pinned for apt's picamera2"
note "pins: ${PIP_PINS[*]} (the system numpy 1.x stays; no numpy 2 in the venv)"
constraints="$ROOT$APP_DIR/tools/install/constraints-pi.txt"
run "$ROOT$VENV/bin/pip" install --no-input --constraint "$constraints" \
    "$ROOT${APP_DIR}[$EXTRAS]" "${PIP_PINS[@]}"
# Read-only proof that the pins held: picamera2, numpy < 2 and OpenCV 4.11 import together.
run "$ROOT$VENV/bin/python" "$ROOT$APP_DIR/tools/install/check_pins.py"

# ---- 7. config --------------------------------------------------------------------------
step "Config file $CONFIG_DIR/companion.toml"
if [ -e "$ROOT$CONFIG_DIR/companion.toml" ]; then
    note "kept: $CONFIG_DIR/companion.toml exists (never overwritten)"
else
    run install -D -m 0644 "$SRC/firmware-config/companion.toml" "$ROOT$CONFIG_DIR/companion.toml"
fi

# ---- 8. firmware config ---------------------------------------------------------------
step "Firmware: I2C at 400 kHz, SPI and the camera in ${boot_config#"$ROOT"}; load i2c-dev"
fragment="$SRC/firmware-config/config.txt.fragment"
note "lines for config.txt:"
grep -v '^#' "$fragment" | sed 's/^/      /'
begin_marker="$(head -n 1 "$fragment")"
end_marker="$(tail -n 1 "$fragment")"
current_block=""
if [ -f "$boot_config" ]; then
    current_block="$(sed -n "\\|^$begin_marker\$|,\\|^$end_marker\$|p" "$boot_config")"
fi
if [ "$current_block" = "$(cat "$fragment")" ]; then
    note "up to date: the block is already in ${boot_config#"$ROOT"}"
else
    if [ -n "$current_block" ]; then
        run sed -i "\\|^$begin_marker\$|,\\|^$end_marker\$|d" "$boot_config"
    fi
    if [ -f "$boot_config" ]; then
        run cp --preserve=all "$boot_config" "$boot_config.companion-backup"
    fi
    # Appended at the end; the block opens with [all] so no earlier filter applies.
    run append_file "$fragment" "$boot_config"
    REBOOT_NEEDED=1
fi
if install_file 0644 "$SRC/firmware-config/modules-load.d/companion.conf" "$MODULES_DIR/companion.conf"; then
    run modprobe i2c-dev
fi

# ---- 9. udev ---------------------------------------------------------------------------
step "udev rules for gpio, spi, i2c, camera and the USB chip reader"
if install_file 0644 "$SRC/firmware-config/udev/99-companion.rules" "$UDEV_DIR/99-companion.rules"; then
    run udevadm control --reload-rules
    run udevadm trigger --action=change
fi

# ---- 10. systemd ------------------------------------------------------------------------
step "Install and enable companion.service"
unit_changed=0
if install_file 0644 "$SRC/systemd/companion.service" "$UNIT_DIR/companion.service"; then
    unit_changed=1
    run systemctl daemon-reload
fi
if [ -n "$ROOT" ] || ! systemctl is-enabled --quiet companion.service 2>/dev/null; then
    run systemctl enable companion.service
else
    note "already enabled: companion.service"
fi
if [ "$REBOOT_NEEDED" -eq 1 ]; then
    note "config.txt changed: the service starts at the next boot (sudo reboot)"
elif [ "$START" -eq 1 ]; then
    # Restart so that new code or a changed unit takes effect.
    run systemctl restart companion.service
    [ "$unit_changed" -eq 1 ] && note "the unit changed and was reloaded"
else
    note "--no-start: not starting it now (sudo systemctl start companion)"
fi

# ---- 11. doctor -------------------------------------------------------------------------
step "Check the box with companion doctor"
run runuser -u "$SERVICE_USER" -- "$VENV/bin/companion" doctor --config "$CONFIG_DIR/companion.toml" || \
    note "doctor found problems; each comes with its fix above"

printf '\n'
if [ "$DRY_RUN" -eq 1 ]; then
    echo "Dry run complete: $STEP steps planned, nothing changed."
elif [ "$REBOOT_NEEDED" -eq 1 ]; then
    echo "Installed. Reboot now (sudo reboot) to turn on I2C, SPI and the camera."
else
    echo "Installed. Status: systemctl status companion; log: journalctl -u companion -f"
fi
