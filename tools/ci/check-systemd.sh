#!/usr/bin/env bash
# Check the systemd unit(s) and the service-user file; fail on anything short of clean.
#
#   tools/ci/check-systemd.sh [UNIT...]        (default: systemd/*.service)
#
#   1. `systemd-analyze verify` must print nothing at all: it only warns (and still
#      exits 0) on unknown keys and typos, so any output is a failure here.
#   2. `systemd-analyze security --offline=yes` must rate each unit at
#      $MAX_EXPOSURE (default 2.5) or lower; the number is parsed from its output.
#   3. firmware-config/sysusers.d/companion.conf must apply cleanly to a scratch root.
#
# Works as root or not, with no running systemd (a container or a CI runner).
#
# How step 1 stays honest: verify checks that every Exec*= binary exists and is
# executable. /opt/companion/venv/bin/companion exists only after the install
# script has run on a Pi, so verify runs with --root= on a scratch tree holding
#   - a copy of this machine's system units (verify needs sysinit.target & co.),
#   - the unit under test in /etc/systemd/system,
#   - an executable stub at each absolute Exec*= path the unit names.
# Nothing else is substituted: every key and value of the unit is checked as is.
set -euo pipefail

MAX_EXPOSURE="${MAX_EXPOSURE:-2.5}"
SYSTEMD_ANALYZE="${SYSTEMD_ANALYZE:-systemd-analyze}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

if ! command -v "$SYSTEMD_ANALYZE" >/dev/null 2>&1; then
    echo "check-systemd: $SYSTEMD_ANALYZE not found; install the systemd package" >&2
    exit 2
fi

units=("$@")
if [ "${#units[@]}" -eq 0 ]; then
    units=("$repo"/systemd/*.service)
fi

scratch="$(mktemp -d "${TMPDIR:-/tmp}/check-systemd.XXXXXX")"
trap 'rm -rf -- "$scratch"' EXIT

system_units=""
for dir in /usr/lib/systemd/system /lib/systemd/system; do
    if [ -f "$dir/sysinit.target" ]; then
        system_units="$dir"
        break
    fi
done
if [ -z "$system_units" ]; then
    echo "check-systemd: no system units found (sysinit.target); install systemd" >&2
    exit 2
fi

failed=0
"$SYSTEMD_ANALYZE" --version | head -n 1

for unit in "${units[@]}"; do
    name="$(basename "$unit")"
    echo "== $name"
    root="$scratch/$name.root"
    mkdir -p "$root/etc/systemd/system" "$root/usr/lib/systemd"
    cp -r "$system_units" "$root/usr/lib/systemd/system"
    cp "$unit" "$root/etc/systemd/system/$name"

    # Stub each absolute binary named by Exec*= (after systemd's -@:+! prefixes).
    while IFS= read -r exe; do
        [ -n "$exe" ] || continue
        mkdir -p "$root$(dirname "$exe")"
        printf '#!/bin/sh\nexit 0\n' >"$root$exe"
        chmod 0755 "$root$exe"
        echo "   stub for verify: $exe"
    done < <(sed -n -E 's/^[[:space:]]*Exec[A-Za-z]*=[-@:+!]*(\/[^[:space:]]+).*/\1/p' "$unit" | sort -u)

    out="$("$SYSTEMD_ANALYZE" verify --root="$root" "$root/etc/systemd/system/$name" 2>&1)" && rc=0 || rc=$?
    if [ "$rc" -ne 0 ] || [ -n "$out" ]; then
        echo "FAIL verify $name (exit $rc):"
        printf '%s\n' "$out" | sed 's/^/   /'
        failed=1
    else
        echo "ok   verify $name: no warnings"
    fi

    out="$("$SYSTEMD_ANALYZE" security --offline=yes "$unit" 2>&1)" && rc=0 || rc=$?
    score="$(printf '%s\n' "$out" | sed -n -E 's/.*Overall exposure level for [^:]*: ([0-9]+(\.[0-9]+)?).*/\1/p' | tail -n 1)"
    if [ "$rc" -ne 0 ] || [ -z "$score" ]; then
        echo "FAIL security $name: no exposure score (exit $rc):"
        printf '%s\n' "$out" | tail -n 20 | sed 's/^/   /'
        failed=1
    elif awk -v s="$score" -v m="$MAX_EXPOSURE" 'BEGIN { exit !(s + 0 <= m + 0) }'; then
        echo "ok   security $name: exposure $score (limit $MAX_EXPOSURE)"
    else
        echo "FAIL security $name: exposure $score is above $MAX_EXPOSURE; the items marked ✗:"
        printf '%s\n' "$out" | grep '✗' | sed 's/^/   /' || true
        failed=1
    fi
done

sysusers="$repo/firmware-config/sysusers.d/companion.conf"
if [ -f "$sysusers" ] && command -v systemd-sysusers >/dev/null 2>&1; then
    echo "== $(basename "$sysusers")"
    sroot="$scratch/sysusers.root"
    mkdir -p "$sroot/etc"
    : >"$sroot/etc/passwd"
    : >"$sroot/etc/group"
    : >"$sroot/etc/shadow"
    : >"$sroot/etc/gshadow"
    if out="$(systemd-sysusers --root="$sroot" "$sysusers" 2>&1)" \
        && grep -q '^companion:' "$sroot/etc/passwd" \
        && grep -Eq '^input:[^:]*:[0-9]+:.*companion' "$sroot/etc/group"; then
        echo "ok   sysusers: creates user companion in gpio, spi, i2c, video, input"
    else
        echo "FAIL sysusers:"
        printf '%s\n' "${out:-}" | sed 's/^/   /'
        failed=1
    fi
fi

if [ "$failed" -ne 0 ]; then
    echo "check-systemd: FAILED"
    exit 1
fi
echo "check-systemd: all clean"
