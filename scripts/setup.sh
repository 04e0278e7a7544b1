# Sourced by run.sh and test.sh: puts Swift on PATH and installs the Debian packages the
# project needs when any is missing (apt-get as root, or through sudo).
# The notification servers the end-to-end tests run in their stock configurations: dunst and
# xfce4-notifyd under Xvfb (clicked with xdotool, photographed with imagemagick), mako on a headless
# sway (photographed with grim). GNOME Shell (~230 packages) only for REMINDERD_GNOME_TEST=1.
packages=(tzdata python3 ca-certificates pkg-config libsystemd-dev libglib2.0-dev libsqlite3-dev libcurl4-openssl-dev libsecret-1-dev openssl gnome-keyring libsecret-tools dbus dbus-x11 libglib2.0-bin
  python3-venv python3-dbusmock systemd xvfb dunst gsettings-desktop-schemas
  faketime  # scripts/e2e-at.sh: the end-to-end tests at a chosen instant (REMINDERD_TEST_AT)
  xfce4-notifyd mako-notifier sway grim xdotool imagemagick
  gcc libc6-dev  # cc and the C headers for Tests/EndToEnd/fsync_fault.c, the fault tests' fdatasync shim
  dpkg-dev binutils lintian debootstrap)  # the last line: scripts/package-deb.sh and its tests
[ "${REMINDERD_GNOME_TEST:-}" = 1 ] && packages+=(gnome-shell gjs)

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
command -v swift >/dev/null 2>&1 || { echo "setup: swift not found (expected on PATH or in /opt/swift)" >&2; exit 1; }

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# `swift build` without the lines every build prints, "warning: prohibited flag(s): -pthread":
# glib's gio-2.0.pc (and libsecret-1.pc, which pulls it in) asks for -pthread, which SwiftPM does
# not pass on from a .pc file. It is harmless — glibc has the threads library built in (2.34+),
# and Swift links it anyway.
swift_build() {
  swift build "$@" 2>&1 | { grep -Ev '^warning: prohibited flag\(s\): -pthread(, -pthread)*$' || true; }
  return "${PIPESTATUS[0]}"
}
