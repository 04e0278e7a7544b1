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
echo "reminderd starting; in another terminal: $(pwd)/.build/release/reminderctl status" >&2
exec .build/release/reminderd "$@"
