#!/usr/bin/env bash
# Takes docs/popup.png: a real reminderd pop-up on dunst under Xvfb. Needs xvfb, dunst and
# imagemagick (installed when missing). Uses private X display, bus and XDG directories.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
for package in xvfb dunst imagemagick; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || { [ "$(id -u)" -eq 0 ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >/dev/null; }
done
swift build --product reminderd >&2
swift build --product reminderctl >&2
work=$(mktemp -d)
cleanup() { kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

display=":$((90 + RANDOM % 100))"
Xvfb "$display" -screen 0 900x160x24 >/dev/null 2>&1 &
export DISPLAY="$display"
printf '%s\n' '<busconfig><type>session</type><listen>unix:tmpdir=/tmp</listen><policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>' > "$work/bus.conf"
dbus-daemon --config-file="$work/bus.conf" --nofork --print-address=1 > "$work/bus.address" &
for _ in $(seq 50); do [ -s "$work/bus.address" ] && break; sleep 0.1; done
export DBUS_SESSION_BUS_ADDRESS=$(head -1 "$work/bus.address")
mkdir -p "$work/dunst"
cat > "$work/dunst/dunstrc" <<'CONF'
[global]
    width = 520
    height = 200
    origin = top-right
    offset = 20x20
    font = DejaVu Sans 12
    frame_width = 2
    frame_color = "#6c7a89"
    padding = 14
    horizontal_padding = 16
    corner_radius = 8
    format = "<b>%s</b>\n%b"
[urgency_low]
    background = "#1f2430"
    foreground = "#eceff4"
    timeout = 0
[urgency_normal]
    background = "#1f2430"
    foreground = "#eceff4"
    timeout = 0
CONF
dunst -config "$work/dunst/dunstrc" >/dev/null 2>&1 &
for _ in $(seq 50); do dunstctl is-paused >/dev/null 2>&1 && break; sleep 0.1; done

export XDG_RUNTIME_DIR="$work/run" XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" TZ=UTC
mkdir -p -m 0700 "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME/reminderd"
echo '{"timeZone": "UTC", "quietHours": null}' > "$XDG_CONFIG_HOME/reminderd/config.json"
.build/debug/reminderd >/dev/null 2>&1 &
for _ in $(seq 50); do [ -S "$XDG_RUNTIME_DIR/reminderd.sock" ] && break; sleep 0.1; done
# A lead in minutes that makes the month-end Uber Cash reminder fire within the next minute.
minutes=$(python3 -c 'from datetime import datetime, timezone, timedelta
now = datetime.now(timezone.utc)
first_next = (now.replace(day=28) + timedelta(days=4)).replace(day=1, hour=23, minute=59, second=0, microsecond=0)
due = first_next - timedelta(days=1)
print(int((due - now).total_seconds() // 60))')
.build/debug/reminderctl add benefit "Uber Cash" --card "Amex Platinum" --amount 15 --period monthly --lead "${minutes}m" >&2
for _ in $(seq 90); do [ "$(dunstctl count displayed)" -gt 0 ] && break; sleep 1; done
sleep 1
import -window root -crop 580x100+320+10 +repage docs/popup.png
echo "docs/popup.png written" >&2
