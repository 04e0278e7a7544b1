#!/usr/bin/env bash
# Takes docs/popup-dunst.png, docs/popup-xfce4-notifyd.png, docs/popup-mako.png and (with
# REMINDERD_GNOME_TEST=1) docs/popup-gnome.png: real reminderd pop-ups on each server in its stock
# configuration, photographed by the end-to-end tests that drive them (Tests/EndToEnd/test_dunst.py,
# test_desktops.py) on private X displays, buses and XDG directories; and docs/indicator-waybar.png,
# the panel indicator's menu in waybar's tray (test_indicator.py).
set -euo pipefail
cd "$(dirname "$0")/.."
REMINDERD_SETUP=test source scripts/setup.sh
python=.build-venv/bin/python3
[ -x "$python" ] || python3 -m venv .build-venv
"$python" -c "import pytest, varlink" 2>/dev/null || "$python" -m pip install --quiet --disable-pip-version-check pytest varlink
swift build --product reminderd >&2
swift build --product reminderctl >&2
REMINDERD_SCREENSHOTS="$PWD/docs" "$python" -m pytest -q Tests/EndToEnd/test_dunst.py Tests/EndToEnd/test_desktops.py \
  Tests/EndToEnd/test_indicator.py -k "stock_dunst or xfce4 or mako_shows or gnome or waybar" >&2
ls docs/popup-*.png docs/indicator-waybar.png >&2
