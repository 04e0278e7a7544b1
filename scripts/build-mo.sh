#!/usr/bin/env bash
# Compiles each po/LL.po into DESTDIR/LL/LC_MESSAGES/reminderd.mo (`msgfmt --check`: a
# translation whose placeholders differ from its message's fails the build). DESTDIR is a
# locale directory: /usr/share/locale in the package, $PREFIX/share/locale for install.sh, the
# tests' own for REMINDERD_LOCALEDIR.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: scripts/build-mo.sh LOCALEDIR" >&2; exit 2; }
cd "$(dirname "$0")/.."
for po in po/*.po; do
  language=$(basename "$po" .po)
  mkdir -p "$1/$language/LC_MESSAGES"
  msgfmt --check -o "$1/$language/LC_MESSAGES/reminderd.mo" "$po"
done
