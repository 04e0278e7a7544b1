# Sourced by run.sh, test.sh and package-deb.sh: puts Swift on PATH and installs the Debian
# packages the calling script needs when any is missing (apt-get as root, or through sudo).
# REMINDERD_SETUP says what for: unset, building and running (run.sh: the compiler's C side and
# the libraries reminderd links); `package`, that and the Debian tools; `bench`, those and the
# peers scripts/bench-light.sh measures against; `test`, all of it and what the tests run (below).
packages=(tzdata ca-certificates pkg-config gcc libc6-dev binutils
  libsystemd-dev libglib2.0-dev libsqlite3-dev libcurl4-openssl-dev libsecret-1-dev
  gettext)  # msgfmt compiles po/ (scripts/build-mo.sh); xgettext and msgmerge: scripts/update-po.sh
packaging=(dpkg-dev lintian debootstrap)  # scripts/package-deb.sh, and its tests' clean-chroot check
# The tests' parts: Python for the end-to-end tests, a private D-Bus bus with dbusmock, a keyring,
# a systemd for the unit tests, and the notification servers in their stock configurations:
# dunst and xfce4-notifyd under Xvfb (clicked with xdotool, photographed with imagemagick), mako
# on a headless sway (photographed with grim), and waybar's tray there for the panel indicator
# (clicked through a virtual pointer built with wayland-scanner). GNOME Shell (~230 packages) only for
# REMINDERD_GNOME_TEST=1. gcc and libc6-dev build Tests/EndToEnd/fsync_fault.c, the fault tests'
# fdatasync shim. php-cli, php-sqlite3 and php-sabre-dav: a CalDAV server offering only Digest
# authentication, as Baïkal does (Tests/EndToEnd/sabre_digest_server.php). locales: the sources localedef
# builds ko_KR and de_DE from, without root, for test_languages.py and test_locale_money.py.
testing=(python3 python3-venv python3-dbusmock openssl gnome-keyring libsecret-tools dbus dbus-x11 libglib2.0-bin
  systemd xvfb dunst gsettings-desktop-schemas xfce4-notifyd mako-notifier sway grim xdotool imagemagick
  waybar libwayland-dev php-cli php-sqlite3 php-sabre-dav faketime locales)  # scripts/e2e-at.sh: the end-to-end tests at a chosen instant (REMINDERD_TEST_AT)
peers=(valgrind remind calcurse)  # scripts/bench-light.sh (and its quick run in the tests) and its peers
case "${REMINDERD_SETUP:-}" in
  test) packages+=("${packaging[@]}" "${testing[@]}" "${peers[@]}") ;;
  package) packages+=("${packaging[@]}") ;;
  bench) packages+=("${packaging[@]}" "${peers[@]}") ;;
esac
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

# reminderctl as the package ships it: a static, non-PIE executable (issue 21: `status` within 3× of
# `remind -n`). Dynamically linked, each run paid ld.so relocating libstdc++ (1.7 M instructions,
# only there for the Swift runtime), 40 k relative relocations of its own (a PIE) and mapping five
# libraries: 12.1 M instructions and 4× remind's CPU, 9.6 M and 2.3× without. reminderctl calls
# nothing of glibc's that loads modules at run time (no user or host lookups, no iconv); lintian's
# statically-linked-binary is overridden in the package for it. On the command line, not in
# Package.swift: it links only with the Swift runtime static too, and a plain `swift build -c
# release` must work (issue 27). Passed to every module's compilation, so it is built in a scratch
# path of its own, not beside reminderd (each would rebuild the other's modules).
static_reminderctl=(-c release --static-swift-stdlib -Xswiftc -static-executable --product reminderctl)

# `swift build` without the lines every build prints, "warning: prohibited flag(s): -pthread":
# glib's gio-2.0.pc (and libsecret-1.pc, which pulls it in) asks for -pthread, which SwiftPM does
# not pass on from a .pc file. It is harmless — glibc has the threads library built in (2.34+),
# and Swift links it anyway. Nor glibc's notes on linking reminderctl statically (`static_reminderctl`):
# "Using 'getpwuid_r' in statically linked applications requires at runtime the shared
# libraries…" for the user, group and dlopen calls of FoundationEssentials and the Swift runtime
# that the linker sees; reminderctl never makes them.
swift_build() {
  swift build "$@" 2>&1 | { grep -Ev -e '^warning: prohibited flag\(s\): -pthread(, -pthread)*$' \
    -e ": warning: Using '(dlopen|getpw(uid|nam)_r|getgr(gid|nam)_r)' in statically linked applications requires at runtime the shared libraries from the glibc version used for linking$" \
    || true; }
  return "${PIPESTATUS[0]}"
}
