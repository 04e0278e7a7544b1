# Sourced by run.sh and test.sh: puts Swift on PATH and installs the Debian packages the
# project needs when any is missing (apt-get as root, or through sudo).
packages=(tzdata python3 ca-certificates pkg-config libsystemd-dev libnotify-dev libsqlite3-dev dbus dbus-x11 libglib2.0-bin
  python3-venv python3-dbusmock systemd xvfb dunst gsettings-desktop-schemas
  dpkg-dev binutils lintian debootstrap)  # the last line: scripts/package-deb.sh and its tests

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
