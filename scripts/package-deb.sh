#!/usr/bin/env bash
# Builds dist/reminderd_<version>_<arch>.deb with the ordinary Debian tools (dpkg-shlibdeps,
# dpkg-deb), from release binaries with the Swift runtime linked statically, so the package
# runs without a Swift toolchain: `apt install ./dist/reminderd_0.3.0_amd64.deb`.
#
# The version is ReminderVersion.current (Sources/ReminderCore/ReminderVersion.swift), the one
# place both binaries take theirs from; packaging/deb/changelog must have an entry for it.
#
#   scripts/package-deb.sh            build the package, print its path
#   scripts/package-deb.sh --lintian  and check it with lintian (fails on any error)
#
# lintian (Debian 12's 2.116) reports no errors and no warnings for this package. What it would
# have said, and what was done about it:
#   W: bash-completion-with-hashbang — the generated bash completion's "#!" line is dropped.
#   E: statically-linked-binary usr/bin/reminderctl — overridden: reminderctl is a static executable
#      on purpose (issue 21; scripts/setup.sh says why), and calls nothing of glibc's that loads
#      modules at run time.
# With -I --pedantic it adds only informational tags: hardening-no-bindnow (the binaries are
# linked without -z now), hardening-no-fortify-functions (Swift calls no fortifiable libc
# function), and spelling-error-in-binary for truncated words inside ICU's data and the Swift
# runtime's tables that are linked in.
set -euo pipefail
cd "$(dirname "$0")/.."
REMINDERD_SETUP=package source scripts/setup.sh

run_lintian=false
for argument in "$@"; do
  case "$argument" in
    --lintian) run_lintian=true ;;
    *) echo "usage: scripts/package-deb.sh [--lintian]" >&2; exit 2 ;;
  esac
done

version=$(sed -n 's/^ *public static let current = "\([^"]*\)".*/\1/p' Sources/ReminderCore/ReminderVersion.swift)
[ -n "$version" ] || { echo "package-deb: no version in Sources/ReminderCore/ReminderVersion.swift" >&2; exit 1; }
changelog_version=$(sed -n '1s/^reminderd (\([^)]*\)).*/\1/p' packaging/deb/changelog)
if [ "$changelog_version" != "$version" ]; then
  echo "package-deb: packaging/deb/changelog starts with $changelog_version, the code says $version;" \
    "add a changelog entry for $version" >&2
  exit 1
fi
arch=$(dpkg --print-architecture)

# Release binaries with libswiftCore, Foundation and Dispatch inside them; only Debian's own
# libraries (libc, libsqlite3, libsystemd, GLib's GIO…) stay dynamic.
# The code off the daemon's hot paths is optimized for size (Package.swift's `sizeOptimized`),
# and reminderctl all of it, in a scratch path of its own (-Osize for every module it links,
# argument-parser's too: 0.3 MB, which with the rest keeps the installed package under issue
# 21's 32 MiB; the domain's modules, ReminderCore, ReminderJSON and CivilTime, stay at -O for the
# daemon's start-up). ReminderDaemon too is at -Osize since 2026-11-28 (0.22 MiB, when typed
# requests and the daemon's translated reasons had taken the package to 32,837 KiB; 32,612 after, from a clean clone): 10k items
# start as fast (182 ms, -O 181), 100k in 1.22–1.71 s against 1.22–1.30 (five alternating runs),
# and 64 clients' throughput is 8% lower, measured side by side (docs/BENCHMARKS.md). reminderd's functions
# each in a section of their own, so the linker's garbage collection drops those never called
# (0.06 MiB of the package, 2026-11-28). Functions with identical code kept once by gold's
# identical code folding: in reminderd only those whose address is never taken (--icf=safe: GLib
# compares the callbacks it is given), in reminderctl, which hands no function to C that compares
# them, all of them (--icf=all); 0.22 MiB, 2026-11-28, when repeat-until-acknowledged, working
# days, gettext and locale money had taken the package to 32.1 MiB.
# No .eh_frame_hdr (gold's --no-eh-frame-hdr), 0.7 MiB of the package, 2026-11-28, when free
# trials, other apps' tasks, dates in the language and typed replies had taken it to 32.4 MiB: it
# is only the lookup table libgcc's unwinder searches to throw a C++ exception through a frame,
# and no exception passes through these binaries (Swift errors are returned values; the Swift
# runtime is built without exceptions; GLib, SQLite and libcurl are C). The unwind data itself
# (.eh_frame) stays, so gdb and the Swift backtracer still walk the stack.
# In a scratch path of its own: sharing .build with scripts/run.sh's release build made each
# rebuild all of the other's work (222 s each time).
scratch=.build-deb
# reminderd is reminderd-sync too, when started under that name (Sources/reminderd/main.swift):
# the package's reminderd-sync is a link to it, so the runtime is in two binaries, not three.
swift_build -c release --static-swift-stdlib --scratch-path "$scratch" --product reminderd -Xswiftc -Xfrontend -Xswiftc -function-sections \
  -Xlinker --icf=safe -Xlinker --no-eh-frame-hdr >&2
swift_build "${static_reminderctl[@]}" -Xswiftc -Osize -Xlinker --icf=all -Xlinker --no-eh-frame-hdr --scratch-path "$scratch-ctl" >&2

work="$scratch/deb"
root="$work/reminderd_${version}_${arch}"
rm -rf "$work"
umask 022
mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/usr/lib/systemd/user" "$root/usr/share/man/man1" \
  "$root/usr/share/man/man5" "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
  "$root/usr/share/fish/vendor_completions.d" "$root/usr/share/applications" \
  "$root/usr/share/icons/hicolor/scalable/apps" "$root/usr/share/doc/reminderd"

# Stripped as dh_strip does (symbols and comments; Swift's metadata sections stay).
for built in "$scratch/release/reminderd" "$scratch-ctl/release/reminderctl"; do
  binary=$(basename "$built")
  install -m 0755 "$built" "$root/usr/bin/$binary"
  strip --remove-section=.comment --remove-section=.note --strip-unneeded "$root/usr/bin/$binary"
done
ln -s reminderd "$root/usr/bin/reminderd-sync"
# User units, not enabled for anyone: each user runs `systemctl --user enable --now reminderd.socket`
# (or an administrator `systemctl --global enable reminderd.socket` for every user), and
# `systemctl --user enable --now reminderd-sync` after `reminderctl sync setup`.
install -m 0644 systemd/reminderd.service systemd/reminderd.socket systemd/reminderd-sync.service \
  "$root/usr/lib/systemd/user/"
install -m 0644 systemd/reminderd.desktop "$root/usr/share/applications/"
install -m 0644 systemd/reminderd.svg "$root/usr/share/icons/hicolor/scalable/apps/"
# PNG renditions too: mako (1.7) takes only icons under a sized directory (NxN) and skips
# scalable/, so with the SVG alone its pop-ups had no icon. They were rendered once from the SVG:
#   convert -background none -density 384 systemd/reminderd.svg -resize NxN -depth 8 -strip systemd/reminderd-N.png
for size in 32 48 64; do
  install -D -m 0644 "systemd/reminderd-$size.png" "$root/usr/share/icons/hicolor/${size}x${size}/apps/reminderd.png"
done
for page in man/reminderctl.1 man/reminderd.1 man/reminderd-sync.1 man/reminderd.conf.5; do
  gzip -9n < "$page" > "$root/usr/share/man/man${page##*.}/$(basename "$page").gz"
done
# (bash completions are sourced, not run: no "#!" line)
"$scratch-ctl/release/reminderctl" --generate-completion-script bash | sed '1{/^#!/d}' \
  > "$root/usr/share/bash-completion/completions/reminderctl"
"$scratch-ctl/release/reminderctl" --generate-completion-script zsh > "$root/usr/share/zsh/vendor-completions/_reminderctl"
"$scratch-ctl/release/reminderctl" --generate-completion-script fish > "$root/usr/share/fish/vendor_completions.d/reminderctl.fish"
chmod 0644 "$root"/usr/share/*/completions/* "$root"/usr/share/zsh/vendor-completions/* "$root"/usr/share/fish/*/*
scripts/build-mo.sh "$root/usr/share/locale"  # /usr/share/locale/LL/LC_MESSAGES/reminderd.mo
chmod 0644 "$root"/usr/share/locale/*/LC_MESSAGES/reminderd.mo
install -m 0644 packaging/deb/copyright "$root/usr/share/doc/reminderd/"
mkdir -p "$root/usr/share/lintian/overrides"
install -m 0644 packaging/deb/lintian-overrides "$root/usr/share/lintian/overrides/reminderd"
gzip -9n < packaging/deb/changelog > "$root/usr/share/doc/reminderd/changelog.gz"
chmod 0644 "$root/usr/share/doc/reminderd/changelog.gz"

# Depends: the package of every shared library the binaries load, with the lowest version
# that has the symbols they use (dpkg-shlibdeps wants a debian/control to name the package).
mkdir -p "$work/debian"
printf 'Source: reminderd\n\nPackage: reminderd\nArchitecture: any\n' > "$work/debian/control"
# Only the binaries that load libraries: reminderctl is a static executable (scripts/setup.sh says
# why), which dpkg-shlibdeps can only warn about; reminderd-sync is a link to reminderd.
dynamic=()
for binary in "$root"/usr/bin/*; do
  [ -L "$binary" ] && continue
  if readelf --dynamic "$binary" | grep NEEDED >/dev/null; then dynamic+=("-e${binary#"$work"/}"); fi
done
depends=$(cd "$work" && dpkg-shlibdeps -O "${dynamic[@]}" | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "package-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# libcurl is loaded with dlopen, as reminderd-sync only (Sources/CCurl/CurlLoader.c), so
# dpkg-shlibdeps cannot see it; 7.85.0 brought CURLOPT_PROTOCOLS_STR, which CurlTransport sets.
depends="$depends, libcurl4 (>= 7.85.0)"
# reminderd's relative relocations are packed (DT_RELR, see Package.swift), which glibc applies
# from 2.36 on; dpkg-shlibdeps goes by the symbols used and does not see it.
depends=$(printf '%s' "$depends" | sed -E 's/libc6 \(>= 2\.([0-9]|[12][0-9]|3[0-5])(\.[0-9]+)?\)/libc6 (>= 2.36)/')

cat > "$root/DEBIAN/control" <<CONTROL
Package: reminderd
Version: $version
Architecture: $arch
Maintainer: reminderd developers <maintainers@users.noreply.a-seed-7bee3cde.example>
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends
Section: utils
Priority: optional
Homepage: https://github.com/reminderd/reminderd
Description: desktop reminders before money deadlines pass
 reminderd is a per-user daemon that reminds you of money-relevant deadlines
 before they pass: card benefits that reset every period, subscriptions that
 renew, coupons that expire, annual card fees and household items to rebuy.
 It runs as a systemd user service, shows desktop notifications with Done
 and Snooze buttons, and is driven by reminderctl over a varlink socket.
 .
 Enable it per user with: systemctl --user enable --now reminderd.socket
 .
 reminderd-sync syncs the items of every device of one person through a
 CalDAV server (Nextcloud, Fastmail, Radicale…): reminderctl sync setup, then
 systemctl --user enable --now reminderd-sync
CONTROL
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

mkdir -p dist
deb="dist/reminderd_${version}_${arch}.deb"
# xz at level 9, whose 64 MiB window spans both binaries, so the runtime and FoundationEssentials
# they both carry are stored about once: 5.7 MiB, where the default level 6 (an 8 MiB window) made
# 8.6 MiB, in the same time here (~20 s). Installing needs 65 MiB to unpack it.
# DPKG_DEB_COMPRESSOR_LEVEL=0 (the tests) trades size for time.
dpkg-deb --root-owner-group -Zxz -z"${DPKG_DEB_COMPRESSOR_LEVEL:-9}" --build "$root" "$deb" >&2
echo "$deb"

if $run_lintian; then
  # --fail-on error: warnings are listed above with their reasons.
  lintian --fail-on error --tag-display-limit 0 "$deb" >&2
fi
