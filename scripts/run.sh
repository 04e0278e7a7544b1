#!/usr/bin/env bash
# Builds reminderd (release) and runs it in the foreground with the given arguments, on the
# built-in defaults unless ~/.config/reminderd/config.json or --config says otherwise. Stop it
# with Ctrl-C. Pop-ups need a desktop session (DBUS_SESSION_BUS_ADDRESS); without one the
# reminders wait for a notification server.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
# As the package links them (reminderctl as a static executable needs the Swift runtime static:
# Package.swift), and as scripts/install.sh and bench-daemon.sh build into the same .build.
swift_build -c release --static-swift-stdlib --product reminderd >&2
swift_build -c release --static-swift-stdlib --product reminderctl >&2
echo "reminderd starting; in another terminal: $(pwd)/.build/release/reminderctl status" >&2
exec .build/release/reminderd "$@"
