#!/usr/bin/env bash
# Builds reminderd (release) and runs it in the foreground with the given arguments, on the
# built-in defaults unless ~/.config/reminderd/config.json or --config says otherwise. Stop it
# with Ctrl-C. Pop-ups need a desktop session (DBUS_SESSION_BUS_ADDRESS); without one the
# reminders wait for a notification server.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
# With the Swift runtime linked in as the package does, and as scripts/bench-daemon.sh builds into
# the same .build (reminderctl here is not the package's static executable: scripts/setup.sh).
swift_build -c release --static-swift-stdlib --product reminderd >&2
swift_build -c release --static-swift-stdlib --product reminderctl >&2
# reminderd-sync is reminderd started under that name (as the package and install.sh make it), so
# that `reminderctl sync setup` finds it beside reminderctl.
ln -sfn reminderd .build/release/reminderd-sync
# The icon the pop-ups and the tray name ("reminderd"), in the user's icon theme: without it they
# show a broken image. The same files scripts/install.sh installs.
icons="${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor"
install -D -m 0644 systemd/reminderd.svg "$icons/scalable/apps/reminderd.svg"
for size in 32 48 64; do
  install -D -m 0644 "systemd/reminderd-$size.png" "$icons/${size}x${size}/apps/reminderd.png"
done
echo "reminderd starting; in another terminal: $(pwd)/.build/release/reminderctl try" >&2
exec .build/release/reminderd "$@"
