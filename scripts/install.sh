#!/usr/bin/env bash
# Installs reminderd for the current user: release binaries in ~/.local/bin, the systemd user
# units, the desktop entry; then enables and starts the service through the user manager, or —
# where no user manager runs — says how to start the daemon by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

bin="$HOME/.local/bin"
units="${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user"
applications="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
data="${XDG_DATA_HOME:-$HOME/.local/share}/reminderd"

# The Swift runtime linked in, as in the Debian package (scripts/package-deb.sh): the installed
# binaries do not need /opt/swift. As there, reminderd-sync is a link to reminderd, which runs
# reminderd-sync's command when started under that name.
# reminderctl a static executable as there, in a scratch path of its own (scripts/setup.sh says why).
swift_build -c release --static-swift-stdlib --product reminderd >&2
swift_build "${static_reminderctl[@]}" --scratch-path .build-ctl >&2
mkdir -p "$bin" "$units" "$applications"
mkdir -p -m 0700 "$data"
install -m 0755 .build/release/reminderd .build-ctl/release/reminderctl "$bin/"
ln -sfn reminderd "$bin/reminderd-sync"
# The units name the packaged /usr/bin/reminderd(-sync); this install runs the ones in ~/.local/bin.
sed "s|^ExecStart=/usr/bin/reminderd|ExecStart=$bin/reminderd|" systemd/reminderd.service > "$units/reminderd.service"
sed "s|^ExecStart=/usr/bin/reminderd-sync|ExecStart=$bin/reminderd-sync|" systemd/reminderd-sync.service \
  > "$units/reminderd-sync.service"
install -m 0644 systemd/reminderd.socket "$units/"
chmod 0644 "$units/reminderd.service" "$units/reminderd-sync.service"
# The unit lets the daemon write ~/.local/share/reminderd only; a store under another
# XDG_DATA_HOME needs its directory named too (systemd 252 has no specifier for XDG_DATA_HOME).
if [ "$data" != "$HOME/.local/share/reminderd" ]; then
  mkdir -p "$units/reminderd.service.d"
  printf '[Service]\nReadWritePaths=%s\n' "$data" > "$units/reminderd.service.d/data-home.conf"
else
  rm -f "$units/reminderd.service.d/data-home.conf"
fi
install -m 0644 systemd/reminderd.desktop "$applications/"
mkdir -p "${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor/scalable/apps"
install -m 0644 systemd/reminderd.svg "${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor/scalable/apps/"
for size in 32 48 64; do  # the PNGs for servers that read no SVG (scripts/package-deb.sh says which)
  install -D -m 0644 "systemd/reminderd-$size.png" "${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor/${size}x${size}/apps/reminderd.png"
done
share="${XDG_DATA_HOME:-$HOME/.local/share}"
mkdir -p "$share/man/man1" "$share/man/man5" "$share/bash-completion/completions" "$share/zsh/site-functions" \
  "${XDG_CONFIG_HOME:-$HOME/.config}/fish/completions"
install -m 0644 man/reminderctl.1 man/reminderd.1 man/reminderd-sync.1 "$share/man/man1/"
install -m 0644 man/reminderd.conf.5 "$share/man/man5/"
.build-ctl/release/reminderctl --generate-completion-script bash > "$share/bash-completion/completions/reminderctl"
.build-ctl/release/reminderctl --generate-completion-script zsh > "$share/zsh/site-functions/_reminderctl"
.build-ctl/release/reminderctl --generate-completion-script fish > "${XDG_CONFIG_HOME:-$HOME/.config}/fish/completions/reminderctl.fish"
# The translations where the programs look for them: share/locale beside their bin/.
scripts/build-mo.sh "$(dirname "$bin")/share/locale"
# The card catalog is built into reminderctl; the copy earlier versions installed beside the store goes.
rm -rf "$HOME/.local/share/reminderd/catalog"
echo "Installed reminderd, reminderctl and reminderd-sync in $bin, the user units in $units, man pages and"
echo "bash/zsh/fish completions under $share (zsh: add $share/zsh/site-functions to fpath)."

if systemctl --user show-environment >/dev/null 2>&1; then
  systemctl --user daemon-reload
  systemctl --user enable --now reminderd.socket reminderd.service
  echo "Enabled and started: systemctl --user status reminderd"
  # Syncing needs an account: without one reminderd-sync would only exit 78.
  if "$bin/reminderd-sync" --check-config 2>/dev/null; then
    systemctl --user enable --now reminderd-sync.service
    echo "Enabled and started: systemctl --user status reminderd-sync"
  else
    echo "To sync with a CalDAV server: reminderctl sync setup, then systemctl --user enable --now reminderd-sync"
  fi
else
  cat <<MSG
No systemd user manager is reachable here, so the service was not enabled.
Start the daemon by hand in your desktop session (it needs DBUS_SESSION_BUS_ADDRESS):
    $bin/reminderd &
to sync (after reminderctl sync setup), start beside it, in the same environment:
    $bin/reminderd-sync &
and check it with:
    $bin/reminderctl status
MSG
fi
case ":$PATH:" in *":$bin:"*) ;; *) echo "Note: $bin is not on your PATH; add it to run reminderctl by name." ;; esac
